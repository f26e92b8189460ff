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

"""Many short UDP flows, and a sink that counts them.

usage: bigtcp-udp-flows.py send SRC DST DPORT FLOWS SECONDS
       bigtcp-udp-flows.py sink ADDR PORT

"send" binds FLOWS UDP sockets to SRC, source ports 20000 and up, and for
SECONDS sends rounds of one 64-byte datagram from each to DST:DPORT, 2 ms
between rounds: each source port is a flow of its own.  Prints "sent N".

"sink" receives on ADDR:PORT and, once datagrams have come and then none
for 2 s (or after 60 s in all), prints "received N".
"""

import socket
import sys
import time

FIRST_PORT = 20000
PAYLOAD = b"x" * 64


def send(src, dst, dport, flows, seconds):
    socks = []
    for i in range(flows):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((src, FIRST_PORT + i))
        socks.append(s)
    n = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for s in socks:
            s.sendto(PAYLOAD, (dst, dport))
            n += 1
        time.sleep(0.002)
    print("sent %d" % n)


def sink(addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
    s.bind((addr, port))
    n = 0
    end = time.monotonic() + 60
    s.settimeout(1)
    last = None
    while time.monotonic() < end:
        try:
            s.recv(2048)
        except socket.timeout:
            if last is not None and time.monotonic() - last >= 2:
                break
            continue
        n += 1
        last = time.monotonic()
    print("received %d" % n)


def main():
    args = sys.argv[1:]
    if len(args) == 6 and args[0] == "send":
        send(args[1], args[2], int(args[3]), int(args[4]), float(args[5]))
    elif len(args) == 3 and args[0] == "sink":
        sink(args[1], int(args[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
