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

"""Raw generic netlink for the kernel datapath probes (bigtcp-dp-attr.py,
bigtcp-gso-exec.py): attributes, one request and its answer, the extended
ack; and the ones' complement sum that they and bigtcp-malformed.py use to
build packets."""

import errno
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
NLMSGERR_ATTR_MISS_TYPE = 5
NLA_F_NESTED = 0x8000
# The first attribute number of the ovs-bigtcp extension's uAPI.
OVS_BIGTCP_ATTR_BASE = 0x3f00


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


def csum_fold(data):
    """Returns the ones' complement sum of 'data', folded to 16 bits."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total > 0xffff:
        total = (total & 0xffff) + (total >> 16)
    return total


def request(sock, family, cmd, payload, version=1, header=b"", ack=False):
    """Sends one request and returns the first message of the answer (the
    answer itself, or with 'ack' the acknowledgement or error)."""
    body = struct.pack("=BBH", cmd, version, 0) + header + payload
    flags = NLM_F_REQUEST | (NLM_F_ACK if ack else 0)
    msg = struct.pack("=IHHII", 16 + len(body), family, flags, 1, 0) + body
    sock.send(msg)
    return sock.recv(65536)


def open_family(name):
    """Returns a generic netlink socket with extended acks and the id of
    family 'name'; exits if the kernel has no such family."""
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.settimeout(10)
    sock.bind((0, 0))

    reply = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                    attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
    for kind, data in attrs(reply[20:]):
        if kind == CTRL_ATTR_FAMILY_ID:
            return sock, struct.unpack_from("=H", data)[0]
    print("no %s family" % name)
    sys.exit(1)


def ack_summary(reply):
    """Returns the words "error=NAME" ("error=0" if the request was
    accepted), "msg=TEXT" and "miss=TYPE" of acknowledgement 'reply' and
    its extended ack; exits on any other answer."""
    length, kind = struct.unpack_from("=IH", reply)
    if kind != NLMSG_ERROR:
        print("unexpected reply type %d" % kind)
        sys.exit(1)
    error, = struct.unpack_from("=i", reply, 16)
    out = ["error=%s" % (errno.errorcode.get(-error, str(error))
                         if error else "0")]
    # The extended ack attributes follow the echoed request header (only
    # the header: NETLINK_CAP_ACK).
    for k, data in attrs(reply[36:length]):
        if k == NLMSGERR_ATTR_MSG:
            out.append("msg=%s" % data.rstrip(b"\0").decode())
        elif k == NLMSGERR_ATTR_MISS_TYPE:
            out.append("miss=%d" % struct.unpack_from("=I", data)[0])
    return out
