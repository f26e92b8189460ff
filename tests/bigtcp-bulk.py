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

"""One bounded TCP bulk transfer whose bytes are checked end to end.

usage: bigtcp-bulk.py server ADDR PORT [TIMEOUT]
       bigtcp-bulk.py client ADDR PORT BYTES|SECONDSs [TIMEOUT [WRITE]]

The server accepts one connection, reads until end of stream, checks every
byte against the sender's pattern and prints "received N bytes, M bad".
It replies with the same line, so that the client, which sends BYTES bytes
of the pattern and then closes its side, prints it too and exits with 0
only when all BYTES arrived intact.  Both give up after TIMEOUT seconds
(default 60).  The client writes WRITE bytes at a time (default 256 KiB):
TCP mostly sends a write as it comes, so the write size bounds most GSO
packets, and writes of 1 MiB let it build packets up to the 512 KiB BIG
TCP limit.  With a count of seconds ("8s") in place of BYTES, the client
sends for that long, however many bytes that is, then closes its side as
above, and prints "sent N bytes" before the server's line.  SIGUSR1 ends
a client's sending early in that mode, for a flow that must last as long as
something else takes.

With BIGTCP_BULK_INFO set to a file name in its environment, the client
writes there what its TCP socket's TCP_INFO says once everything is sent
and acknowledged: its congestion window and threshold, retransmissions,
timeouts, undone recoveries, and how long the sender was limited by the
receive window, its send buffer or its congestion window, so that a test
can show why TCP built the packets it built.
"""

import os
import signal
import socket
import struct
import sys
import time

CHUNK = 256 * 1024
MAX_WRITE = 4 * 1024 * 1024


def pattern(length):
    # A period of 251 bytes (a prime) never lines up with segment sizes, so
    # a dropped, repeated or misplaced segment shows as a mismatch.
    period = bytes((i * 7 + 3) & 0xff for i in range(251))
    reps = length // 251 + 2
    return period * reps


PATTERN = pattern(MAX_WRITE)


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def server(addr, port, timeout):
    s = socket.socket(family(addr), socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(1)
    s.settimeout(timeout)
    conn, _ = s.accept()
    conn.settimeout(timeout)
    total = 0
    bad = 0
    while True:
        data = conn.recv(CHUNK)
        if not data:
            break
        ofs = total % 251
        if data != PATTERN[ofs:ofs + len(data)]:
            expect = PATTERN[ofs:ofs + len(data)]
            bad += sum(1 for a, b in zip(data, expect) if a != b)
        total += len(data)
    line = "received %d bytes, %d bad" % (total, bad)
    conn.sendall(line.encode() + b"\n")
    conn.close()
    print(line)
    return 0 if bad == 0 else 1


# struct tcp_info (include/uapi/linux/tcp.h) up to tcpi_total_rto_recoveries
# (Linux 6.7), as (name, offset, struct format).
TCP_INFO_FIELDS = (
    ("ca_state", 1, "B"), ("retransmits", 2, "B"), ("backoff", 4, "B"),
    ("rto_us", 8, "I"), ("snd_mss", 16, "I"), ("unacked", 24, "I"),
    ("lost", 32, "I"), ("retrans", 36, "I"), ("rtt_us", 68, "I"),
    ("rttvar_us", 72, "I"), ("snd_ssthresh", 76, "I"),
    ("snd_cwnd", 80, "I"), ("reordering", 88, "I"),
    ("total_retrans", 100, "I"), ("pacing_rate", 104, "Q"),
    ("min_rtt_us", 148, "I"), ("busy_us", 168, "Q"),
    ("rwnd_limited_us", 176, "Q"), ("sndbuf_limited_us", 184, "Q"),
    ("bytes_retrans", 208, "Q"), ("dsack_dups", 216, "I"),
    ("reord_seen", 220, "I"), ("snd_wnd", 228, "I"),
    ("total_rto", 240, "H"), ("total_rto_recoveries", 242, "H"),
)


def tcp_info(s):
    """Returns 'name=value ...' for the fields of TCP_INFO that 's''s
    kernel fills in."""
    raw = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return " ".join("%s=%d" % (name, struct.unpack_from(fmt, raw, ofs)[0])
                    for name, ofs, fmt in TCP_INFO_FIELDS
                    if ofs + struct.calcsize(fmt) <= len(raw))


def write_info(s, sent):
    path = os.environ.get("BIGTCP_BULK_INFO")
    if not path:
        return
    # Wait (bounded, 5 s) until every byte is acknowledged, so the window
    # and counters are the transfer's final ones.
    end = time.monotonic() + 5
    while time.monotonic() < end:
        unacked = struct.unpack_from(
            "I", s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 32), 24)[0]
        if unacked == 0:
            break
        time.sleep(0.01)
    with open(path, "w") as f:
        f.write("sent=%d %s\n" % (sent, tcp_info(s)))


def client(addr, port, nbytes, timeout, write=CHUNK, seconds=None):
    stop = []
    if seconds is not None:
        signal.signal(signal.SIGUSR1, lambda signum, frame: stop.append(1))
    s = socket.create_connection((addr, port), timeout=timeout)
    sent = 0
    end = time.monotonic() + seconds if seconds is not None else None
    while end is not None or sent < nbytes:
        if end is not None:
            if stop or time.monotonic() >= end:
                break
            n = write
        else:
            n = min(write, nbytes - sent)
        ofs = sent % 251
        s.sendall(PATTERN[ofs:ofs + n])
        sent += n
    write_info(s, sent)
    s.shutdown(socket.SHUT_WR)
    if end is not None:
        print("sent %d bytes" % sent)
        nbytes = sent
    reply = b""
    while True:
        data = s.recv(4096)
        if not data:
            break
        reply += data
    line = reply.decode().strip()
    print(line)
    return 0 if line == "received %d bytes, 0 bad" % nbytes else 1


def main():
    args = sys.argv[1:]
    try:
        if len(args) in (3, 4) and args[0] == "server":
            timeout = float(args[3]) if len(args) == 4 else 60.0
            return server(args[1], int(args[2]), timeout)
        if len(args) in (4, 5, 6) and args[0] == "client":
            timeout = float(args[4]) if len(args) >= 5 else 60.0
            write = int(args[5]) if len(args) == 6 else CHUNK
            if 1 <= write <= MAX_WRITE and args[3].endswith("s"):
                return client(args[1], int(args[2]), 0, timeout, write,
                              float(args[3][:-1]))
            if 1 <= write <= MAX_WRITE:
                return client(args[1], int(args[2]), int(args[3]), timeout,
                              write)
    except (OSError, socket.timeout) as e:
        print("bigtcp-bulk: %s" % e, file=sys.stderr)
        return 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
