#!/usr/bin/env python3
# Copyright (c) 2026 The ovs-bigtcp authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at:
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Packets with malformed BIG TCP framing or virtio-net headers.

usage: bigtcp-malformed.py CASE

Prints two words: a virtio-net header (struct virtio_net_hdr, 10 bytes,
host byte order, for a dummy port's options:ol_vnet_hdr) and an Ethernet
frame, both in hex, for the case CASE (see CASES below).  The frames are
small (a few KiB at most) so that they fit on a command line; the cases
that need BIG packets are built by the tests with "netdev-dummy/receive
... --len".  tests/bigtcp-malformed.at uses them, one row of
Documentation/robustness.md each."""

import struct
import sys

from bigtcp_genl import csum_fold

VIRTIO_NET_HDR_F_NEEDS_CSUM = 1
GSO_NONE, GSO_TCPV4, GSO_UDP, GSO_TCPV6 = 0, 1, 3, 4

MAC = bytes.fromhex("0a8f394fe073" "8abf7e2f0584")
SRC4, DST4 = bytes([192, 168, 123, 2]), bytes([192, 168, 123, 1])
SRC6 = bytes.fromhex("fc00" + "00" * 13 + "02")
DST6 = bytes.fromhex("fc00" + "00" * 13 + "01")


def vnet(flags=0, gso_type=GSO_NONE, hdr_len=0, gso_size=0, csum_start=0,
         csum_offset=0):
    return struct.pack("=BBHHHH", flags, gso_type, hdr_len, gso_size,
                       csum_start, csum_offset)


def tcp(payload_len, doff=5, seq=0, flags=0x10):
    """A TCP header of 'doff' words (NOP options) and 'payload_len' bytes of
    payload, checksum left 0 (filled in by ipv4() and ipv6())."""
    opts = b"\x01" * (max(doff, 5) * 4 - 20)
    hdr = struct.pack("!HHIIBBHHH", 54392, 5201, seq, 0, doff << 4, flags,
                      65535, 0, 0)
    return hdr + opts + bytes(i % 251 for i in range(payload_len))


def fill_l4_csum(seg, pseudo, proto):
    ofs = {6: 16, 17: 6}.get(proto)
    if ofs is None or len(seg) < ofs + 2:
        return seg
    seg = bytearray(seg)
    seg[ofs:ofs + 2] = b"\0\0"
    c = 0xffff - (csum_fold(pseudo + bytes(seg)) & 0xffff)
    seg[ofs:ofs + 2] = struct.pack("!H", c)
    return bytes(seg)


def ipv4(seg, proto=6, options=b"", tot_len=None):
    ihl = 5 + len(options) // 4
    if tot_len is None:
        tot_len = ihl * 4 + len(seg)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tot_len, 7, 0x4000,
                      64, proto, 0, SRC4, DST4) + options
    hdr = hdr[:10] + struct.pack("!H", 0xffff - csum_fold(hdr)) + hdr[12:]
    pseudo = SRC4 + DST4 + struct.pack("!BBH", 0, proto, len(seg))
    return hdr + fill_l4_csum(seg, pseudo, proto)


def ipv6(seg, proto=6, ext=b"", ext_proto=None, plen=None):
    if plen is None:
        plen = len(ext) + len(seg)
    hdr = struct.pack("!IHBB16s16s", 6 << 28, plen,
                      ext_proto if ext else proto, 64, SRC6, DST6)
    pseudo = SRC6 + DST6 + struct.pack("!IxxxB", len(seg), proto)
    return hdr + ext + fill_l4_csum(seg, pseudo, proto)


def eth(l3, eth_type=0x0800, vlans=()):
    tags = b"".join(struct.pack("!HH", tpid, vid) for tpid, vid in vlans)
    return MAC + tags + struct.pack("!H", eth_type) + l3


def case(name):
    """Returns (virtio-net header, frame) for case 'name'."""
    v4_3000 = eth(ipv4(tcp(3000)))
    if name == "gso-size-zero":
        return vnet(0, GSO_TCPV4, 54, 0), v4_3000
    if name == "gso-size-over-payload":
        return vnet(0, GSO_TCPV4, 54, 1460), eth(ipv4(tcp(1000)))
    if name == "hdr-len-beyond":
        return vnet(0, GSO_TCPV4, 4000, 1000), v4_3000
    if name == "csum-start-beyond":
        return vnet(VIRTIO_NET_HDR_F_NEEDS_CSUM, GSO_TCPV4, 54, 1000,
                    3100, 16), v4_3000
    if name == "csum-offset-beyond":
        return vnet(VIRTIO_NET_HDR_F_NEEDS_CSUM, GSO_TCPV4, 54, 1000,
                    34, 3030), v4_3000
    if name == "jumbo-disagrees":
        # BIG TCP framing with a jumbo length 8 bytes short of the packet.
        seg = tcp(3000)
        hbh = struct.pack("!BBBBI", 6, 0, 0xc2, 4, 70000)
        return (vnet(0, GSO_TCPV6, 82, 1000),
                eth(ipv6(seg, ext=hbh, ext_proto=0, plen=0), 0x86dd))
    if name == "plen0-small":
        # Linux 7.x's IPv6 BIG TCP framing (payload length 0, no Hop-by-Hop
        # header) on a packet whose payload fits in 16 bits: a length that
        # lies.
        return (vnet(0, GSO_TCPV6, 74, 1000),
                eth(ipv6(tcp(3000), plen=0), 0x86dd))
    if name == "plen0-hbh-not-jumbo":
        # Payload length 0 with a Hop-by-Hop header that holds a PadN
        # option, not a lone jumbo option.
        hbh = struct.pack("!BBBB", 6, 0, 1, 4) + bytes(4)
        return (vnet(0, GSO_TCPV6, 82, 1000),
                eth(ipv6(tcp(3000), ext=hbh, ext_proto=0, plen=0), 0x86dd))
    if name == "tcp-doff-small":
        return vnet(0, GSO_TCPV4, 54, 1000), eth(ipv4(tcp(3000, doff=4)))
    if name == "tcp-doff-beyond":
        return vnet(0, GSO_TCPV4, 54, 1000), eth(ipv4(tcp(0, doff=15)[:40]))
    if name == "tcp-truncated":
        return vnet(0, GSO_TCPV4, 0, 1000), eth(ipv4(tcp(0)[:12]))
    if name == "ip-truncated":
        return vnet(0, GSO_TCPV4, 0, 1000), eth(ipv4(tcp(0))[:16])
    if name == "gso-not-tcp":
        udp = struct.pack("!HHHH", 5000, 5001, 3008, 0) + bytes(3000)
        return vnet(0, GSO_TCPV4, 42, 1000), eth(ipv4(udp, proto=17))
    if name == "gso-wrong-version":
        return vnet(0, GSO_TCPV6, 54, 1000), v4_3000
    if name == "stacked-vlans":
        return (vnet(0, GSO_TCPV4, 62, 1000),
                eth(ipv4(tcp(3000)), vlans=((0x88a8, 10), (0x8100, 20))))
    if name == "ip-options":
        opts = b"\x94\x04\x00\x00" + b"\x01" * 4     # Router Alert, NOPs.
        return vnet(0, GSO_TCPV4, 62, 1000), eth(ipv4(tcp(3000), options=opts))
    if name == "ipv6-ext-headers":
        # Destination options (PadN) before TCP.
        dst = struct.pack("!BBBB", 6, 0, 1, 4) + bytes(4)
        return (vnet(0, GSO_TCPV6, 82, 1000),
                eth(ipv6(tcp(3000), ext=dst, ext_proto=60), 0x86dd))
    raise KeyError(name)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    try:
        hdr, frame = case(sys.argv[1])
    except KeyError:
        sys.stderr.write("unknown case %s\n" % sys.argv[1])
        sys.exit(2)
    print(hdr.hex(), frame.hex())


if __name__ == "__main__":
    main()
