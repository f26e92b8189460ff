#! /usr/bin/env python3
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

"""Builds Geneve TCP packets, BIG TCP ones with Linux 7.3's outer lengths
of 0 among them, for the tunnel autotests, and hands them to a dummy port.

usage: bigtcp-tnl.py vnet-hdr [--outer 4|6] [--mss N]
       bigtcp-tnl.py receive CTL PORT [--outer 4|6] [--payload N]
                     [--ip-len N] [--udp-len N] [--inner-len N] [--csum]
                     [--tunnel geneve|vxlan|none] [--dst-port N]
       bigtcp-tnl.py frame [the same options as receive]
       bigtcp-tnl.py send DEV COUNT --to IPV4 --to-mac MAC [--from IPV4]
                     [the same options as receive]

"vnet-hdr" prints, in hex, the 24-byte virtio-net header that a tap with
UDP tunnel GSO puts in front of such a packet as a TCP GSO packet of
segment size --mss (1400): for options:ol_vnet_hdr of a dummy port, which
then parses what it receives as a tunnel tap does.

"receive" builds one Ethernet frame from aa:66:aa:66:00:01 to
aa:66:aa:66:00:00: Geneve (VNI 123, no options) over IPv4 from 1.1.2.92 to
1.1.2.88, or over IPv6 from 2001:cafe::92 to 2001:cafe::88, around a TCP
packet from 192.168.123.2 to 192.168.123.1 with --payload (100000) bytes,
and hands it to dummy port PORT as "netdev-dummy/receive" does, through the
control socket CTL of ovs-vswitchd (a frame of more than 64 KiB is over the
limit of one command-line argument).  Lengths are real, or 0 where they do
not fit in 16 bits, as Linux 7.3 writes them; --ip-len, --udp-len and
--inner-len put a lie in the outer IP, outer UDP or inner IP length
instead.  The inner TCP checksum field holds the pseudo-header sum, as the
kernel leaves it for the segments, unless --csum: then it is complete, as
on a packet that is not GSO.  --tunnel vxlan makes it VXLAN (VNI 123),
--tunnel none puts 8 bytes of zeros where the tunnel header goes, and
--dst-port sets the outer UDP destination port (by default IANA's for the
tunnel, 6081 or 4789).  "frame" prints the frame in hex instead.

"send" writes the frame COUNT times on DEV through an AF_PACKET socket (run
it in DEV's namespace), over IPv4 from --from (DEV's first IPv4 address if
not given) to --to, from DEV's Ethernet address to --to-mac: Geneve
packets for a kernel's tunnel device on the wire, lengths that lie
among them.  Prints "sent COUNT frames of N bytes"."""

import argparse
import importlib.util
import os
import socket
import struct
import subprocess

SRC_MAC = bytes.fromhex("aa66aa660001")
DST_MAC = bytes.fromhex("aa66aa660000")
INNER_MACS = bytes.fromhex("0a8f394fe073") + bytes.fromhex("8abf7e2f0584")
GENEVE_HDR = struct.pack("!BBHI", 0, 0, 0x6558, 123 << 8)
VXLAN_HDR = struct.pack("!BBHI", 0x08, 0, 0, 123 << 8)
TUNNELS = {"geneve": (GENEVE_HDR, 6081), "vxlan": (VXLAN_HDR, 4789),
           "none": (bytes(8), 6081)}
TUNNEL_GSO = {4: 0x20, 6: 0x40}


def load_jumbo():
    """Imports tests/bigtcp-jumbo.py for its control socket client."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "bigtcp-jumbo.py")
    spec = importlib.util.spec_from_file_location("jumbo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def csum16(data, initial=0):
    if len(data) % 2:
        data += b"\0"
    s = initial + sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def len16(n):
    """A 16-bit length field for 'n' bytes in BIG TCP framing."""
    return n if n <= 0xffff else 0


def offsets(outer):
    """The offsets of the outer UDP, inner IP and inner TCP headers."""
    outer_th = 14 + (20 if outer == 4 else 40)
    inner_nh = outer_th + 8 + len(GENEVE_HDR) + 14
    return outer_th, inner_nh, inner_nh + 20


def vnet_hdr(outer, mss):
    outer_th, inner_nh, inner_th = offsets(outer)
    return (struct.pack("<BBHHHH", 1, 1 | TUNNEL_GSO[outer], inner_th + 20,
                        mss, inner_th, 16)
            + bytes(10) + struct.pack("<HH", outer_th, inner_nh))


def build(args):
    outer_th, inner_nh, inner_th = offsets(args.outer)
    payload = bytes((i * 7) & 0xff for i in range(args.payload))
    src, dst = socket.inet_aton("192.168.123.2"), socket.inet_aton(
        "192.168.123.1")
    inner_len = 40 + args.payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, len16(inner_len), 0, 0x4000,
                     64, 6, 0, src, dst)
    if args.inner_len is not None:
        ip = ip[:2] + struct.pack("!H", args.inner_len) + ip[4:]
    ip = ip[:10] + struct.pack("!H", 0xffff - csum16(ip)) + ip[12:]
    tcp = struct.pack("!HHIIBBHHH", 54392, 5201, 1, 1, 5 << 4, 0x10, 1000,
                      0, 0)
    pseudo = csum16(src + dst + struct.pack("!HI", 6, 20 + args.payload))
    if args.csum:
        tcp_csum = 0xffff - csum16(tcp + payload, pseudo)
    else:
        tcp_csum = pseudo
    tcp = tcp[:16] + struct.pack("!H", tcp_csum) + tcp[18:]
    inner = INNER_MACS + b"\x08\x00" + ip + tcp + payload

    tnl_hdr, port = TUNNELS[getattr(args, "tunnel", "geneve")]
    if getattr(args, "dst_port", None) is not None:
        port = args.dst_port
    udp_len = 8 + len(tnl_hdr) + len(inner)
    udp = struct.pack("!HHHH", 57363, port, len16(udp_len), 0)
    if args.udp_len is not None:
        udp = udp[:4] + struct.pack("!H", args.udp_len) + udp[6:]
    if args.outer == 4:
        oip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, len16(20 + udp_len), 0,
                          0x4000, 64, 17, 0,
                          socket.inet_aton(getattr(args, "src", "1.1.2.92")),
                          socket.inet_aton(getattr(args, "to", "1.1.2.88")))
        if args.ip_len is not None:
            oip = oip[:2] + struct.pack("!H", args.ip_len) + oip[4:]
        oip = oip[:10] + struct.pack("!H", 0xffff - csum16(oip)) + oip[12:]
        eth_type = b"\x08\x00"
    else:
        plen = len16(udp_len) if args.ip_len is None else args.ip_len
        oip = (struct.pack("!IHBB", 6 << 28, plen, 17, 64)
               + socket.inet_pton(socket.AF_INET6, "2001:cafe::92")
               + socket.inet_pton(socket.AF_INET6, "2001:cafe::88"))
        eth_type = b"\x86\xdd"
    macs = getattr(args, "macs", DST_MAC + SRC_MAC)
    return macs + eth_type + oip + udp + tnl_hdr + inner


def send(args):
    """Writes the frame of ARGS args.count times on args.dev."""
    with open("/sys/class/net/%s/address" % args.dev) as f:
        dev_mac = bytes.fromhex(f.read().strip().replace(":", ""))
    if args.src is None:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "dev",
                              args.dev], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.split()
        args.src = out[out.index("inet") + 1].split("/")[0]
    args.macs = bytes.fromhex(args.to_mac.replace(":", "")) + dev_mac
    frame = build(args)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((args.dev, 0))
    for _ in range(args.count):
        s.send(frame)
    s.close()
    print("sent %d frames of %d bytes" % (args.count, len(frame)))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("vnet-hdr")
    p.add_argument("--outer", type=int, choices=(4, 6), default=4)
    p.add_argument("--mss", type=int, default=1400)
    for name in ("receive", "frame", "send"):
        p = sub.add_parser(name)
        if name == "receive":
            p.add_argument("ctl")
            p.add_argument("port")
        if name == "send":
            p.add_argument("dev")
            p.add_argument("count", type=int)
            p.add_argument("--to", required=True)
            p.add_argument("--to-mac", required=True)
            p.add_argument("--from", dest="src")
        p.add_argument("--outer", type=int, choices=(4, 6), default=4)
        p.add_argument("--payload", type=int, default=100000)
        p.add_argument("--ip-len", type=int)
        p.add_argument("--udp-len", type=int)
        p.add_argument("--inner-len", type=int)
        p.add_argument("--csum", action="store_true")
        p.add_argument("--tunnel", choices=sorted(TUNNELS), default="geneve")
        p.add_argument("--dst-port", type=int)
    args = parser.parse_args()

    if args.cmd == "vnet-hdr":
        print(vnet_hdr(args.outer, args.mss).hex())
    elif args.cmd == "frame":
        print(build(args).hex())
    elif args.cmd == "send":
        if args.outer != 4:
            parser.error("send takes --outer 4 only")
        send(args)
    else:
        load_jumbo().unixctl(args.ctl, "netdev-dummy/receive",
                             [args.port, build(args).hex()])


if __name__ == "__main__":
    main()
