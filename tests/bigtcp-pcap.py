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

"""Summarises the TCP frames of a pcap file, one line a frame.

usage: bigtcp-pcap.py [--csum] [--headers] FILE

Each line is "len=N ip4 id=N iplen=N seq=N flags=F paylen=N" (or "ip6 ..."
with the IPv6 payload length), where iplen is the length the IP header
claims (0 for BIG TCP framing), flags are the TCP flags as letters
(F S R P A U E C), and paylen is the TCP payload length computed from the
frame size.  With --csum, "csum=ok" or "csum=bad" follows: the IPv4 header
checksum and the TCP checksum, both recomputed over the frame as received.
With --headers, "vlan=V src=A dst=B ttl=T sport=S dport=D" follows (vlan=-
without a VLAN tag; ttl is the IPv6 hop limit for IPv6).  Frames that are
not TCP over IPv4 or IPv6 print "other len=N".

Unlike ovs-pcap, records larger than 65535 bytes are read.  A record
captured with a snapshot length shorter than the frame is summarised from
its headers: len and paylen are the frame's length on the wire, and its
checksum shows as "csum=truncated".
"""

import ipaddress
import struct
import sys

FLAG_LETTERS = "FSRPAUEC"


def csum16(data, start=0):
    if len(data) % 2:
        data += b"\0"
    total = start
    for (word,) in struct.iter_unpack("!H", data):
        total += word
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return total


def read_pcap(f):
    header = f.read(24)
    if len(header) < 24:
        raise ValueError("short pcap header")
    magic = header[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        raise ValueError("bad pcap magic")
    while True:
        rec = f.read(16)
        if not rec:
            return
        if len(rec) < 16:
            raise ValueError("truncated record header")
        _, _, caplen, wirelen = struct.unpack(endian + "IIII", rec)
        data = f.read(caplen)
        if len(data) < caplen:
            raise ValueError("truncated record")
        yield data, max(wirelen, caplen)


def summarise(frame, check_csum, headers=False, wirelen=None):
    if wirelen is None:
        wirelen = len(frame)
    ofs = 12
    eth_type, = struct.unpack_from("!H", frame, ofs)
    ofs += 2
    vlan = "-"
    while eth_type in (0x8100, 0x88a8):
        tci, eth_type = struct.unpack_from("!HH", frame, ofs)
        if vlan == "-":
            vlan = str(tci & 0xfff)
        ofs += 4

    if eth_type == 0x0800:
        ver_ihl, = struct.unpack_from("!B", frame, ofs)
        ihl = (ver_ihl & 0xf) * 4
        iplen, ipid = struct.unpack_from("!HH", frame, ofs + 2)
        proto = frame[ofs + 9]
        src, dst = frame[ofs + 12:ofs + 16], frame[ofs + 16:ofs + 20]
        l3 = "ip4 id=%d iplen=%d" % (ipid, iplen)
        ttl = frame[ofs + 8]
        ip_ok = csum16(frame[ofs:ofs + ihl]) == 0xffff
        l4 = ofs + ihl
    elif eth_type == 0x86dd:
        plen, nxt = struct.unpack_from("!HB", frame, ofs + 4)
        src, dst = frame[ofs + 8:ofs + 24], frame[ofs + 24:ofs + 40]
        l3 = "ip6 iplen=%d" % plen
        ttl = frame[ofs + 7]
        ip_ok = True
        l4 = ofs + 40
        proto = nxt
        while proto in (0, 43, 60):
            # Hop-by-Hop options (the jumbo payload option of BIG TCP),
            # routing and destination options headers.
            proto = frame[l4]
            l4 += (frame[l4 + 1] + 1) * 8
    else:
        return "other len=%d" % wirelen

    if proto != 6:
        return "other len=%d" % wirelen

    seq, = struct.unpack_from("!I", frame, l4 + 4)
    doff = (frame[l4 + 12] >> 4) * 4
    flags = frame[l4 + 13]
    letters = "".join(c for i, c in enumerate(FLAG_LETTERS) if flags & (1 << i))
    seg = frame[l4:]
    line = "len=%d %s seq=%d flags=%s paylen=%d" % (
        wirelen, l3, seq, letters or "-", wirelen - l4 - doff)
    if check_csum and wirelen > len(frame):
        line += " csum=truncated"
    elif check_csum:
        pseudo = src + dst + struct.pack("!IxxxB", len(seg), 6)
        tcp_ok = csum16(seg, csum16(pseudo)) == 0xffff
        line += " csum=%s" % ("ok" if ip_ok and tcp_ok else "bad")
    if headers:
        sport, dport = struct.unpack_from("!HH", frame, l4)
        line += " vlan=%s src=%s dst=%s ttl=%d sport=%d dport=%d" % (
            vlan, ipaddress.ip_address(bytes(src)),
            ipaddress.ip_address(bytes(dst)), ttl, sport, dport)
    return line


def main():
    args = sys.argv[1:]
    check_csum = "--csum" in args
    headers = "--headers" in args
    args = [a for a in args if a not in ("--csum", "--headers")]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        sys.exit(2)
    with open(args[0], "rb") as f:
        for frame, wirelen in read_pcap(f):
            print(summarise(frame, check_csum, headers, wirelen))


if __name__ == "__main__":
    main()
