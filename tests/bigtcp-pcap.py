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

usage: bigtcp-pcap.py [--csum] [--headers] [--copy-udp-csum]
                      [--segment MSS] FILE

Each line is "len=N ip4 id=N iplen=N seq=N flags=F paylen=N" (or "ip6 ..."
with the IPv6 payload length), where iplen is the length the IP header
claims (0 for BIG TCP framing), flags are the TCP flags as letters
(F S R P A U E C), and paylen is the TCP payload length computed from the
frame size.  With --csum, "csum=ok" or "csum=bad" follows: the IPv4 header
checksum and the TCP checksum, both recomputed over the frame as received.
With --headers, "vlan=V src=A dst=B ttl=T sport=S dport=D" follows (vlan=-
without a VLAN tag; ttl is the IPv6 hop limit for IPv6).  Frames that are
not TCP over IPv4 or IPv6 print "other len=N".

A VXLAN (UDP port 4789), Geneve (6081) or GRE (Ethernet over GRE) frame
prints its outer headers, "len=N ip4 id=N iplen=N vxlan udplen=N" (or
"geneve udplen=N", "gre"), then " | " and the summary of the inner frame,
whose len is the inner frame's.  With --csum, "ocsum=ok" or "ocsum=bad"
follows the outer headers: the outer IPv4 header checksum and the UDP or
GRE checksum if the frame has one.

With --segment MSS, every TCP frame with more than MSS bytes of payload,
plain or in a tunnel, is first segmented as a TSO device segments it, and
each segment is summarised: lengths (outer ones too), IPv4 IDs (outer and
inner) counting up from the frame's, sequence numbers, CWR on the first
segment only, FIN and PSH on the last only, and every checksum the frame
has (IPv4 headers, TCP, outer UDP if not 0, GRE) recomputed.  With
--copy-udp-csum, the segments keep the frame's outer UDP checksum instead,
as a device without outer UDP checksum offload does: Open vSwitch then
writes the checksum of a segment into a UDP tunnel TSO frame whose
segments all have the same size (packet_udp_tunnel_csum()), which is not
the checksum of the whole frame.

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


def put_csum(frame, ofs, start, end, initial=0):
    """Writes at 'ofs' the checksum of frame[start:end] (with the field at
    'ofs' zeroed) plus 'initial'."""
    frame[ofs:ofs + 2] = b"\0\0"
    value = ~csum16(bytes(frame[start:end]), initial) & 0xffff
    frame[ofs:ofs + 2] = struct.pack("!H", value)


def parse_ip(frame, ofs):
    """Returns (version, header length, protocol) of the IP header at
    'ofs', or None."""
    ver = frame[ofs] >> 4
    if ver == 4:
        return 4, (frame[ofs] & 0xf) * 4, frame[ofs + 9]
    if ver == 6:
        return 6, 40, frame[ofs + 6]
    return None


def l2_len(frame, ofs):
    """Returns the offset of the IP header of the Ethernet frame at 'ofs'
    and its EtherType."""
    eth_type, = struct.unpack_from("!H", frame, ofs + 12)
    ofs += 14
    while eth_type in (0x8100, 0x88a8):
        eth_type, = struct.unpack_from("!H", frame, ofs + 2)
        ofs += 4
    return ofs, eth_type


def fix_ip(seg, ofs, ip, end, index):
    """Updates the IP header at 'ofs' of segment 'seg', which ends at 'end',
    for segment number 'index'."""
    ver, hlen, _ = ip
    if ver == 4:
        struct.pack_into("!H", seg, ofs + 2, end - ofs)
        ipid, = struct.unpack_from("!H", seg, ofs + 4)
        struct.pack_into("!H", seg, ofs + 4, (ipid + index) & 0xffff)
        put_csum(seg, ofs + 10, ofs, ofs + hlen)
    else:
        struct.pack_into("!H", seg, ofs + 4, end - ofs - 40)


def pseudo_sum(seg, ofs, ip, l4_len, proto):
    if ip[0] == 4:
        addrs = bytes(seg[ofs + 12:ofs + 20])
    else:
        addrs = bytes(seg[ofs + 8:ofs + 40])
    return csum16(addrs + struct.pack("!IxxxB", l4_len, proto))


def segment(frame, mss, copy_udp_csum):
    """Returns the segments of 'frame' of at most 'mss' bytes of TCP
    payload, as a TSO device makes them, or [frame] if it is not TCP or not
    over 'mss'."""
    l3, eth_type = l2_len(frame, 0)
    if eth_type not in (0x0800, 0x86dd):
        return [frame]
    outer = None
    ip = parse_ip(frame, l3)
    if ip is None:
        return [frame]
    l4 = l3 + ip[1]
    tunnel = summarise_tunnel(frame, ip[2], l4, b"", b"", len(frame), True,
                              False)
    if tunnel:
        outer = (l3, ip, l4)
        l3, eth_type = l2_len(frame, tunnel[1])
        ip = parse_ip(frame, l3)
        if ip is None:
            return [frame]
        l4 = l3 + ip[1]
    if ip[2] != 6:
        return [frame]
    hdr_len = l4 + (frame[l4 + 12] >> 4) * 4
    payload = frame[hdr_len:]
    if len(payload) <= mss:
        return [frame]

    seq, = struct.unpack_from("!I", frame, l4 + 4)
    flags = frame[l4 + 13]
    n = (len(payload) + mss - 1) // mss
    segs = []
    for i in range(n):
        seg = bytearray(frame[:hdr_len]) + payload[i * mss:(i + 1) * mss]
        end = len(seg)
        struct.pack_into("!I", seg, l4 + 4, (seq + i * mss) & 0xffffffff)
        seg_flags = flags
        if i > 0:
            seg_flags &= ~0x80                  # CWR.
        if i < n - 1:
            seg_flags &= ~0x09                  # FIN, PSH.
        seg[l4 + 13] = seg_flags
        fix_ip(seg, l3, ip, end, i)
        put_csum(seg, l4 + 16, l4, end,
                 pseudo_sum(seg, l3, ip, end - l4, 6))
        if outer:
            o_l3, o_ip, o_l4 = outer
            fix_ip(seg, o_l3, o_ip, end, i)
            if o_ip[2] == 17:
                struct.pack_into("!H", seg, o_l4 + 4, end - o_l4)
                if (struct.unpack_from("!H", seg, o_l4 + 6)[0]
                        and not copy_udp_csum):
                    put_csum(seg, o_l4 + 6, o_l4, end,
                             pseudo_sum(seg, o_l3, o_ip, end - o_l4, 17))
            elif seg[o_l4] & 0x80:
                put_csum(seg, o_l4 + 4, o_l4, end)
        segs.append(bytes(seg))
    return segs


def summarise_tunnel(frame, proto, l4, src, dst, wirelen, ip_ok,
                     check_csum):
    """Returns the summary of the tunnel header at 'l4' of 'frame' and the
    offset of the inner frame, or None if it is not a tunnel frame."""
    if proto == 17 and len(frame) >= l4 + 16:
        dport, udplen, udpcsum = struct.unpack_from("!HHH", frame, l4 + 2)
        if dport == 4789:
            outer, inner = "vxlan udplen=%d" % udplen, l4 + 16
        elif dport == 6081:
            outer = "geneve udplen=%d" % udplen
            inner = l4 + 16 + (frame[l4 + 8] & 0x3f) * 4
        else:
            return None
        csum_ok = True
        if udpcsum and wirelen == len(frame):
            seg = frame[l4:]
            pseudo = src + dst + struct.pack("!IxxxB", len(seg), 17)
            csum_ok = csum16(seg, csum16(pseudo)) == 0xffff
    elif proto == 47 and len(frame) >= l4 + 4:
        gflags, gproto = struct.unpack_from("!HH", frame, l4)
        if gproto != 0x6558:
            return None
        outer = "gre"
        inner = l4 + 4 + 4 * sum(1 for bit in (0x8000, 0x2000, 0x1000)
                                 if gflags & bit)
        csum_ok = True
        if gflags & 0x8000 and wirelen == len(frame):
            csum_ok = csum16(frame[l4:]) == 0xffff
    else:
        return None
    if check_csum:
        outer += " ocsum=%s" % ("ok" if ip_ok and csum_ok else "bad")
    return outer, inner


def ipv6_ext_walk(frame, ofs):
    """Walks the extension headers (Hop-by-Hop options, the jumbo payload
    option of BIG TCP among them, routing, fragment and destination
    options) of the IPv6 packet at 'ofs' in 'frame'.  Returns the list of
    (type, offset) of the headers walked, the protocol behind them and its
    offset."""
    hdrs = []
    proto, l4 = frame[ofs + 6], ofs + 40
    while proto in (0, 43, 44, 60):
        hdrs.append((proto, l4))
        length = 8 if proto == 44 else (frame[l4 + 1] + 1) * 8
        proto = frame[l4]
        l4 += length
    return hdrs, proto, l4


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
        plen, = struct.unpack_from("!H", frame, ofs + 4)
        src, dst = frame[ofs + 8:ofs + 24], frame[ofs + 24:ofs + 40]
        l3 = "ip6 iplen=%d" % plen
        ttl = frame[ofs + 7]
        ip_ok = True
        hdrs, proto, l4 = ipv6_ext_walk(frame, ofs)
        for kind, at in hdrs:
            # Only a first fragment carries the TCP header.
            if kind == 44 and struct.unpack_from("!H", frame, at + 2)[0] \
                    & 0xfff8:
                return "other len=%d" % wirelen
    else:
        return "other len=%d" % wirelen

    tunnel = summarise_tunnel(frame, proto, l4, src, dst, wirelen, ip_ok,
                              check_csum)
    if tunnel:
        outer, inner = tunnel
        return "len=%d %s %s | %s" % (
            wirelen, l3, outer,
            summarise(frame[inner:], check_csum, headers, wirelen - inner))

    if proto != 6:
        return "other len=%d" % wirelen

    seq, = struct.unpack_from("!I", frame, l4 + 4)
    doff = (frame[l4 + 12] >> 4) * 4
    flags = frame[l4 + 13]
    letters = "".join(c for i, c in enumerate(FLAG_LETTERS)
                      if flags & (1 << i))
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
    copy_udp_csum = "--copy-udp-csum" in args
    args = [a for a in args
            if a not in ("--csum", "--headers", "--copy-udp-csum")]
    mss = None
    if len(args) == 3 and args[0] == "--segment":
        mss = int(args[1])
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        sys.exit(2)
    with open(args[0], "rb") as f:
        for frame, wirelen in read_pcap(f):
            if mss and wirelen == len(frame):
                for seg in segment(frame, mss, copy_udp_csum):
                    print(summarise(seg, check_csum, headers))
            else:
                print(summarise(frame, check_csum, headers, wirelen))


if __name__ == "__main__":
    main()
