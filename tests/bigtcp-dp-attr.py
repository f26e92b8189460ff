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

"""Sends the kernel datapath an OVS_DP_CMD_SET request that carries
OVS_DP_ATTR_GSO_STATS, which is output only, and prints the answer.

usage: bigtcp-dp-attr.py DATAPATH [empty|u64|nested]

The attribute is sent empty, as a u64, or as a well-formed nest.  Prints
"error=NAME msg=TEXT" from the kernel's answer and its extended ack (or
"error=0" if the kernel accepted the request).
"""

import errno
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLMSG_ERROR = 2
GENL_ID_CTRL = 16
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1
OVS_DP_CMD_SET = 4
OVS_DP_ATTR_NAME = 1
OVS_DP_ATTR_GSO_STATS = 10
OVS_DP_GSO_STATS_RESEG = 1


def attr(kind, data):
    length = 4 + len(data)
    return struct.pack("=HH", length, kind) + data + b"\0" * (-length % 4)


def attrs(data):
    while len(data) >= 4:
        length, kind = struct.unpack_from("=HH", data)
        if length < 4:
            break
        yield kind & 0x3fff, data[4:length]
        data = data[(length + 3) & ~3:]


def request(sock, family, cmd, payload, version=1, header=b"", ack=False):
    """Sends one request and returns the first message of the answer (the
    answer itself, or with 'ack' the acknowledgement or error)."""
    body = struct.pack("=BBH", cmd, version, 0) + header + payload
    flags = NLM_F_REQUEST | (NLM_F_ACK if ack else 0)
    msg = struct.pack("=IHHII", 16 + len(body), family, flags, 1, 0) + body
    sock.send(msg)
    return sock.recv(65536)


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        sys.exit(2)
    dp = sys.argv[1].encode() + b"\0"
    form = sys.argv[2] if len(sys.argv) == 3 else "u64"

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.bind((0, 0))

    reply = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                    attr(CTRL_ATTR_FAMILY_NAME, b"ovs_datapath\0"))
    family = None
    for kind, data in attrs(reply[20:]):
        if kind == CTRL_ATTR_FAMILY_ID:
            family, = struct.unpack_from("=H", data)
    if family is None:
        print("no ovs_datapath family")
        sys.exit(1)

    if form == "empty":
        value = b""
    elif form == "nested":
        value = attr(OVS_DP_GSO_STATS_RESEG, struct.pack("=Q", 1))
    else:
        value = struct.pack("=Q", 1)
    payload = attr(OVS_DP_ATTR_NAME, dp) + attr(OVS_DP_ATTR_GSO_STATS, value)
    reply = request(sock, family, OVS_DP_CMD_SET, payload, 2,
                    struct.pack("=i", 0), ack=True)

    length, kind = struct.unpack_from("=IH", reply)
    if kind != NLMSG_ERROR:
        print("unexpected reply type %d" % kind)
        sys.exit(1)
    error, = struct.unpack_from("=i", reply, 16)
    msg = ""
    # The extended ack attributes follow the echoed request header (only
    # the header: NETLINK_CAP_ACK).
    for k, data in attrs(reply[36:length]):
        if k == NLMSGERR_ATTR_MSG:
            msg = data.rstrip(b"\0").decode()
    name = errno.errorcode.get(-error, str(error)) if error else "0"
    print("error=%s msg=%s" % (name, msg))


if __name__ == "__main__":
    main()
