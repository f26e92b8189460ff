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

"""Asks the running kernel, without Open vSwitch, what it does with a
Geneve TCP GSO packet over 64 KiB that a tap with UDP tunnel GSO is given
with outer lengths 0 (Linux 7.3's BIG TCP framing of UDP tunnels).

usage: bigtcp-tnl-kernel.py   (as root)

In a network namespace of its own (unshare --net), it makes a tap with
UDP tunnel GSO (Linux 6.17 and later) whose kernel side routes what is
written to it back out of it, and for each outer IP version writes one
packet of 66000 bytes of TCP payload, outer IP and UDP lengths 0, inner
IPv4 total length 0, outer UDP checksum left to the kernel, then a small
packet of the same flow.  Everything that comes back before the small one
is what the kernel made of the big one.  Prints one line per version:
"IPv4: N frames back, P of 66000 bytes, lengths ok, checksums ok", or
with "wrong" where a segment's outer lengths or outer UDP checksum are
wrong.  It establishes, for the system test "UDP tunnel TSO over 64 KiB
to taps", what a kernel takes, independently of the project's own probe
(lib/netdev-linux-tnl-probe.c)."""

import fcntl
import os
import select
import socket
import struct
import subprocess
import sys
import time

TUNSETIFF, TUNSETOFFLOAD, TUNSETVNETHDRSZ = 0x400454ca, 0x400454d0, 0x400454d8
IFF_TAP, IFF_NO_PI, IFF_VNET_HDR = 0x2, 0x1000, 0x4000
OFFLOADS = 0x1 | 0x2 | 0x4 | 0x80 | 0x100   # CSUM, TSO4, TSO6, UDP_TUNNEL*
PAYLOAD, MSS = 66000, 1300
TAP_MAC, SRC_MAC = bytes.fromhex("020000000001"), bytes.fromhex("020000000003")
ADDRS = {4: ("192.0.2.3", "192.0.2.2"), 6: ("2001:db8::3", "2001:db8::2")}


def sh(cmd):
    subprocess.run(cmd, shell=True, check=True)


def csum16(data, s=0):
    if len(data) % 2:
        data += b"\0"
    s += sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def pseudo(ver, src, dst, length, proto):
    if ver == 4:
        return csum16(src + dst + struct.pack("!HI", proto, length))
    return csum16(src + dst + struct.pack("!IHH", length, 0, proto))


def frame(ver, payload, big):
    fam = socket.AF_INET if ver == 4 else socket.AF_INET6
    osrc, odst = (socket.inet_pton(fam, a) for a in ADDRS[ver])
    isrc, idst = socket.inet_aton("10.0.0.1"), socket.inet_aton("10.0.0.2")
    data = bytes((i * 7) & 0xff for i in range(payload))
    tcp = struct.pack("!HHIIBBHHH", 9, 9, 1, 0, 5 << 4, 0x10, 1000, 0, 0)
    if big:
        tcp_csum = pseudo(4, isrc, idst, 20 + payload, 6)
    else:
        tcp_csum = 0xffff - csum16(tcp + data,
                                   pseudo(4, isrc, idst, 20 + payload, 6))
    tcp = tcp[:16] + struct.pack("!H", tcp_csum) + tcp[18:]
    ilen = 40 + payload
    iip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, ilen if ilen < 65536 else 0,
                      0, 0x4000, 64, 6, 0, isrc, idst)
    iip = iip[:10] + struct.pack("!H", 0xffff - csum16(iip)) + iip[12:]
    inner = (bytes.fromhex("02000000000b02000000000a0800") + iip + tcp
             + data)
    ulen = 16 + len(inner)
    ufield = ulen if ulen < 65536 else 0
    if ver == 4:
        tot = 20 + ulen
        oip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot if tot < 65536 else 0,
                          7, 0, 64, 17, 0, osrc, odst)
        oip = oip[:10] + struct.pack("!H", 0xffff - csum16(oip)) + oip[12:]
        etype = b"\x08\x00"
    else:
        oip = struct.pack("!IHBB", 6 << 28, ufield, 17, 64) + osrc + odst
        etype = b"\x86\xdd"
    ucsum = pseudo(ver, osrc, odst, ulen, 17) if big else 0
    udp = struct.pack("!HHHH", 49152, 6081, ufield, ucsum)
    geneve = struct.pack("!BBHI", 0, 0, 0x6558, 0)
    pkt = TAP_MAC + SRC_MAC + etype + oip + udp + geneve + inner
    outer_th = 14 + len(oip)
    inner_nh = outer_th + 8 + 8 + 14
    if big:
        gso = 1 | (0x20 if ver == 4 else 0x40)
        vnet = (struct.pack("<BBHHHH", 1 | 8, gso, inner_nh + 40, MSS,
                            inner_nh + 20, 16)
                + bytes(10) + struct.pack("<HH", outer_th, inner_nh))
    else:
        vnet = bytes(24)
    return vnet + pkt


def check(ver, b):
    """Returns (is_probe, is_sentinel, payload, ok) for tap frame 'b'."""
    flags, gso, _, _, cstart, coff = struct.unpack_from("<BBHHHH", b)
    f = bytearray(b[24:])
    etype = f[12:14]
    if etype != (b"\x08\x00" if ver == 4 else b"\x86\xdd"):
        return False, False, 0, True
    l4 = 34 if ver == 4 else 54
    proto = f[23] if ver == 4 else f[20]
    if proto != 17 or struct.unpack_from("!H", f, l4 + 2)[0] != 6081:
        return False, False, 0, True
    payload = len(f) - (l4 + 16 + 14 + 40)
    if payload == len(b"sentinel") and f.endswith(b"sentinel"):
        return True, True, 0, True
    iplen = struct.unpack_from("!H", f, 16 if ver == 4 else 18)[0]
    ulen = struct.unpack_from("!H", f, l4 + 4)[0]
    real_ip = len(f) - 14 if ver == 4 else len(f) - l4
    real_u = len(f) - l4
    ok = (iplen == (real_ip if real_ip < 65536 else 0)
          and ulen == (real_u if real_u < 65536 else 0))
    if gso == 0:
        if flags & 1:
            s = 0xffff - csum16(bytes(f[cstart:]))
            struct.pack_into("!H", f, cstart + coff, s)
        src, dst = (f[26:30], f[30:34]) if ver == 4 else (f[22:38], f[38:54])
        ok = ok and csum16(bytes(f[l4:]), pseudo(ver, bytes(src), bytes(dst),
                                                 real_u, 17)) == 0xffff
    return True, False, payload, ok


def ask(fd, ver):
    os.write(fd, frame(ver, PAYLOAD, True))
    os.write(fd, frame(ver, len(b"sentinel"), False)[:-8] + b"sentinel")
    n, got, ok = 0, 0, True
    deadline = time.time() + 10
    while time.time() < deadline:
        if not select.select([fd], [], [], 1)[0]:
            continue
        probe, sentinel, payload, good = check(ver, os.read(fd, 1 << 20))
        if sentinel:
            print("IPv%d: %d frames back, %d of %d bytes, lengths and "
                  "checksums %s" % (ver, n, got, PAYLOAD,
                                    "ok" if ok else "wrong"))
            return
        if probe:
            n, got, ok = n + 1, got + payload, ok and good
    print("IPv%d: the sentinel did not come back" % ver)


def main():
    if os.environ.get("BIGTCP_TNL_KERNEL_NS") != "1":
        os.environ["BIGTCP_TNL_KERNEL_NS"] = "1"
        os.execvp("unshare", ["unshare", "--net", sys.executable]
                  + sys.argv)
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", b"tp0",
                                           IFF_TAP | IFF_NO_PI
                                           | IFF_VNET_HDR))
    fcntl.ioctl(fd, TUNSETVNETHDRSZ, struct.pack("i", 24))
    fcntl.ioctl(fd, TUNSETOFFLOAD, OFFLOADS)
    sh("ip link set tp0 address 02:00:00:00:00:01 up")
    sh("sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1")
    sh("ip addr add 192.0.2.1/24 dev tp0")
    sh("ip addr add 2001:db8::1/64 dev tp0 nodad")
    for ver, pfx in ((4, "192.0.2."), (6, "2001:db8::")):
        for n in (2, 3):
            sh("ip -%d neigh add %s%d lladdr 02:00:00:00:00:0%d dev tp0"
               % (ver, pfx, n, n))
    for ver in (4, 6):
        ask(fd, ver)


if __name__ == "__main__":
    main()
