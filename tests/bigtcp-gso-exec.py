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

"""Sends the kernel datapath one OVS_PACKET_CMD_EXECUTE request with an
OVS_PACKET_ATTR_GSO attribute, good or malformed, and prints the answer.

usage: bigtcp-gso-exec.py DATAPATH CASE
       bigtcp-gso-exec.py DATAPATH output PORT PAYLOAD
       bigtcp-gso-exec.py DATAPATH upcall PAYLOAD USERDATA

The packet is a TCP/IPv4 (or, for the v6 cases, TCP/IPv6) packet of 20000
bytes of payload in an Ethernet frame, executed with no actions (dropped
after it was built).  CASE picks the attribute:

  good, good6   segment size 1448 (IPv6: 1428), the packet's type
  flat          a good nest without NLA_F_NESTED
  empty         a nest without attributes
  nosize        the type only
  size0         segment size 0
  type3         type 3 (none such)
  v6type        type TCPv6 on the IPv4 packet
  udp           a UDP packet with type TCPv4
  small         segment size 20000 (not less than the payload)
  mtu           segment size 9000 (more than the port's MTU of 1500)
  iplen         an IP total length 100 bytes short of the packet
  exthdr        an IPv6 packet with a destination options header

"output" executes a good TCP/IPv4 GSO packet (segment size 1448) of
PAYLOAD bytes of payload (at most 65000: the packet travels in one netlink
attribute) with the action output:PORT, PORT being the datapath's port
number.

"upcall" executes the same packet with the action userspace(), whose
userdata is USERDATA bytes and whose Netlink PID is a second socket of
this program's, and reads the upcalls that it makes (for two seconds).
The datapath's per-CPU upcall PIDs are set to that socket too, so that a
datapath in per-CPU dispatch mode (as ovs-dpctl creates it) sends it the
upcalls: use a datapath of its own, not ovs-vswitchd's.
It prints the execute's "error=NAME", then "upcalls=N" (the messages),
"gso=N" (those with OVS_PACKET_ATTR_GSO), "max_msg=N" (the longest
message, headers included), "max_packet=N" (the longest packet), "bytes=N"
(the TCP payload of all packets) and "userdata=ok" if every upcall carried
the userdata intact ("userdata=bad" otherwise).

Prints "error=NAME msg=TEXT" from the kernel's answer and its extended ack
(or "error=0" if the kernel accepted the request); a missing attribute
that the kernel names is printed as "miss=TYPE".
"""

import os
import socket
import struct
import sys

from bigtcp_genl import (NLA_F_NESTED, OVS_BIGTCP_ATTR_BASE, ack_summary,
                         attr, attrs, csum_fold, open_family, request)

OVS_PACKET_CMD_EXECUTE = 3
OVS_PACKET_ATTR_PACKET = 1
OVS_PACKET_ATTR_KEY = 2
OVS_PACKET_ATTR_ACTIONS = 3
OVS_PACKET_ATTR_GSO = OVS_BIGTCP_ATTR_BASE
OVS_PACKET_GSO_ATTR_SIZE = 1
OVS_PACKET_GSO_ATTR_TYPE = 2
OVS_KEY_ATTR_ETHERNET = 4

OVS_PACKET_ATTR_USERDATA = 4
OVS_DP_CMD_SET = 4
OVS_DP_ATTR_NAME = 1
OVS_DP_ATTR_PER_CPU_PIDS = 8
OVS_ACTION_ATTR_OUTPUT = 1
OVS_ACTION_ATTR_USERSPACE = 2
OVS_USERSPACE_ATTR_PID = 1
OVS_USERSPACE_ATTR_USERDATA = 2

PAYLOAD = 20000

SO_RCVBUFFORCE = 33


def frame(case, payload_len=PAYLOAD):
    eth_dst = b"\x02\0\0\0\0\x02"
    eth_src = b"\x02\0\0\0\0\x01"
    payload = bytes(i & 0xff for i in range(payload_len))
    if case == "udp":
        l4 = struct.pack("!HHHH", 5001, 5201, 8 + payload_len, 0) + payload
        proto = 17
    else:
        # Source and destination ports, sequence, ack, offset 5 and ACK,
        # window, checksum 0, urgent pointer 0.
        l4 = struct.pack("!HHIIHHHH", 5001, 5201, 1, 1, 0x5010, 512, 0,
                         0) + payload
        proto = 6
    if case in ("good6", "exthdr"):
        nxt = 60 if case == "exthdr" else 6
        ext = struct.pack("!BB6x", 6, 0) if case == "exthdr" else b""
        ip = struct.pack("!IHBB", 0x60000000, len(ext) + len(l4), nxt, 64)
        ip += b"\xfc" + b"\0" * 14 + b"\x01" + b"\xfc" + b"\0" * 14 + b"\x02"
        return eth_dst + eth_src + b"\x86\xdd" + ip + ext + l4
    tot_len = 20 + len(l4) - (100 if case == "iplen" else 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot_len, 1, 0x4000, 64, proto,
                     0, bytes([10, 1, 1, 1]), bytes([10, 1, 1, 2]))
    ip = ip[:10] + struct.pack("!H", ~csum_fold(ip) & 0xffff) + ip[12:]
    return eth_dst + eth_src + b"\x08\x00" + ip + l4


def gso_attr(case):
    mss = 1428 if case in ("good6", "exthdr") else 1448
    size = {"size0": 0, "small": PAYLOAD, "mtu": 9000}.get(case, mss)
    kind = {"type3": 3, "v6type": 2, "good6": 2, "exthdr": 2}.get(case, 1)
    body = b""
    if case != "empty":
        if case != "nosize":
            body += attr(OVS_PACKET_GSO_ATTR_SIZE, struct.pack("=H", size))
        body += attr(OVS_PACKET_GSO_ATTR_TYPE, struct.pack("=I", kind))
    flags = 0 if case == "flat" else NLA_F_NESTED
    return attr(OVS_PACKET_ATTR_GSO | flags, body)


def read_upcalls(sock, userdata):
    """Reads the upcalls that arrive on 'sock' within two seconds of the
    last one and returns the words that summarize them."""
    n = n_gso = max_msg = max_packet = total = 0
    good = True
    sock.settimeout(2)
    while True:
        try:
            msg = sock.recv(1 << 20)
        except socket.timeout:
            break
        while len(msg) >= 16:
            length = struct.unpack_from("=I", msg)[0]
            n += 1
            max_msg = max(max_msg, length)
            found = None
            # The netlink and generic netlink headers, then struct
            # ovs_header.
            for kind, data in attrs(msg[24:length]):
                if kind == OVS_PACKET_ATTR_PACKET:
                    max_packet = max(max_packet, len(data))
                    # Ethernet, IPv4 and TCP headers without options.
                    total += len(data) - 54
                elif kind == OVS_PACKET_ATTR_USERDATA:
                    found = data
                elif kind == OVS_PACKET_ATTR_GSO:
                    n_gso += 1
            if userdata and found != userdata:
                good = False
            msg = msg[(length + 3) & ~3:]
    return ["upcalls=%d" % n, "gso=%d" % n_gso, "max_msg=%d" % max_msg,
            "max_packet=%d" % max_packet, "bytes=%d" % total,
            "userdata=%s" % ("ok" if good else "bad")]


def main():
    upcalls = None
    if len(sys.argv) == 5 and sys.argv[2] == "upcall":
        case = "good"
        payload_len = int(sys.argv[3])
        userdata = bytes(i % 251 for i in range(int(sys.argv[4])))
        if not 0 < payload_len <= 65000 or len(userdata) > 65000:
            sys.stderr.write(__doc__)
            sys.exit(2)
        upcalls, _ = open_family("ovs_packet")
        upcalls.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 1 << 24)
        body = attr(OVS_USERSPACE_ATTR_PID,
                    struct.pack("=I", upcalls.getsockname()[0]))
        if userdata:
            body += attr(OVS_USERSPACE_ATTR_USERDATA, userdata)
        actions = attr(OVS_ACTION_ATTR_USERSPACE | NLA_F_NESTED, body)
        dp_sock, dp_family = open_family("ovs_datapath")
        pids = struct.pack("=I", upcalls.getsockname()[0]) * os.cpu_count()
        reply = request(dp_sock, dp_family, OVS_DP_CMD_SET,
                        attr(OVS_DP_ATTR_NAME,
                             sys.argv[1].encode() + b"\0")
                        + attr(OVS_DP_ATTR_PER_CPU_PIDS, pids), 2,
                        struct.pack("=i", 0), ack=True)
        if ack_summary(reply)[0] != "error=0":
            print("setting the upcall PIDs: %s"
                  % " ".join(ack_summary(reply)))
            sys.exit(1)
    elif len(sys.argv) == 5 and sys.argv[2] == "output":
        case = "good"
        port = int(sys.argv[3])
        payload_len = int(sys.argv[4])
        if not 0 < payload_len <= 65000:
            sys.stderr.write(__doc__)
            sys.exit(2)
        actions = attr(OVS_ACTION_ATTR_OUTPUT, struct.pack("=I", port))
    elif len(sys.argv) == 3:
        case = sys.argv[2]
        payload_len = PAYLOAD
        actions = b""
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
    dp_ifindex = socket.if_nametoindex(sys.argv[1])

    sock, family = open_family("ovs_packet")

    packet = frame(case, payload_len)
    key = attr(OVS_KEY_ATTR_ETHERNET, packet[6:12] + packet[:6])
    payload = (attr(OVS_PACKET_ATTR_PACKET, packet)
               + attr(OVS_PACKET_ATTR_KEY | NLA_F_NESTED, key)
               + attr(OVS_PACKET_ATTR_ACTIONS | NLA_F_NESTED, actions)
               + gso_attr(case))
    reply = request(sock, family, OVS_PACKET_CMD_EXECUTE, payload, 1,
                    struct.pack("=i", dp_ifindex), ack=True)

    out = ack_summary(reply)
    if upcalls:
        out += read_upcalls(upcalls, userdata)
    print(" ".join(out))


if __name__ == "__main__":
    main()
