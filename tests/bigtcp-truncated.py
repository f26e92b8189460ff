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

"""Truncated TCP segments of a running flow, sent on the wire.

usage: bigtcp-truncated.py DEV SRC DST DPORT COUNT

Sends COUNT Ethernet frames on DEV (an AF_PACKET socket; run it in DEV's
namespace), 20 ms apart: each a TCP segment from SRC to DST:DPORT, from
the source port of the established connection between them (as "ss"
shows it), whose IP header claims 1448 bytes of payload while the frame
carries only the first 100: a frame cut short on the wire.  The IPv4
header checksum is valid, so only the length lies.  The Ethernet
addresses are DEV's and DST's neighbour entry.  Prints "sent COUNT
truncated frames".
"""

import socket
import struct
import subprocess
import sys
import time

CLAIMED = 1448
CARRIED = 100


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def flow_sport(src, dst, dport):
    out = subprocess.run(["ss", "-Htn", "state", "established",
                          "dst", "[%s]" % dst if ":" in dst else dst,
                          "dport", "= :%d" % dport],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        local = line.split()[-2]
        addr, port = local.rsplit(":", 1)
        if addr.strip("[]") == src:
            return int(port)
    raise SystemExit("no established connection from %s to %s:%d"
                     % (src, dst, dport))


def neighbour(dev, dst):
    out = subprocess.run(["ip", "neigh", "show", dst, "dev", dev],
                         capture_output=True, text=True, check=True).stdout
    words = out.split()
    if "lladdr" not in words:
        raise SystemExit("no neighbour entry for %s on %s" % (dst, dev))
    return bytes.fromhex(words[words.index("lladdr") + 1].replace(":", ""))


def frame(dev, src, dst, sport, dport, seq, dmac):
    with open("/sys/class/net/%s/address" % dev) as f:
        smac = bytes.fromhex(f.read().strip().replace(":", ""))
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, 0, 5 << 4, 0x18,
                      65535, 0, 0) + bytes(CLAIMED)
    if ":" in dst:
        ip = struct.pack("!IHBB", 6 << 28, len(tcp), 6, 64) \
            + socket.inet_pton(socket.AF_INET6, src) \
            + socket.inet_pton(socket.AF_INET6, dst)
        ethertype = 0x86dd
    else:
        hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0,
                          0x4000, 64, 6, 0,
                          socket.inet_aton(src), socket.inet_aton(dst))
        ip = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
        ethertype = 0x0800
    eth = dmac + smac + struct.pack("!H", ethertype)
    return (eth + ip + tcp)[:len(eth) + len(ip) + 20 + CARRIED]


def main():
    if len(sys.argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    dev, src, dst = sys.argv[1:4]
    dport, count = int(sys.argv[4]), int(sys.argv[5])
    sport = flow_sport(src, dst, dport)
    dmac = neighbour(dev, dst)
    frames = [frame(dev, src, dst, sport, dport, i * CLAIMED, dmac)
              for i in range(count)]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    for f in frames:
        s.send(f)
        time.sleep(0.02)
    print("sent %d truncated frames" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
