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

"""Sends the kernel datapath an OVS_DP_CMD_SET request that carries one of
the ovs-bigtcp extension's attributes, and prints the answer.

usage: bigtcp-dp-attr.py DATAPATH ATTR FORM
       bigtcp-dp-attr.py vport:PORT ATTR FORM

ATTR is "stats" (OVS_DP_ATTR_GSO_STATS), "version"
(OVS_DP_ATTR_BIGTCP_VERSION), "features" (OVS_DP_ATTR_BIGTCP_FEATURES), or
"unknown" (a number of the extension's range that it does not define).
With vport:PORT, the request is an OVS_VPORT_CMD_SET for the port named
PORT, and ATTR is "stats" (OVS_VPORT_ATTR_GSO_STATS) or "unknown".
FORM is "empty", "u32" (1), "u32-2" (2, a feature bit that the extension
does not define), "u64" (1), or "nested" (a well-formed statistics nest).
Prints "error=NAME msg=TEXT" from the kernel's answer and its extended ack
(or "error=0 msg=" if the kernel accepted the request).
"""

import struct
import sys

from bigtcp_genl import (OVS_BIGTCP_ATTR_BASE, attr, open_family, request,
                         ack_summary)

OVS_DP_CMD_SET = 4
OVS_DP_ATTR_NAME = 1
ATTRS = {
    "version": OVS_BIGTCP_ATTR_BASE,
    "stats": OVS_BIGTCP_ATTR_BASE + 1,
    "features": OVS_BIGTCP_ATTR_BASE + 2,
    "unknown": OVS_BIGTCP_ATTR_BASE + 0xff,
}
OVS_DP_GSO_STATS_RESEG = 1

OVS_VPORT_CMD_SET = 4
OVS_VPORT_ATTR_NAME = 3
VPORT_ATTRS = {
    "stats": OVS_BIGTCP_ATTR_BASE,
    "unknown": OVS_BIGTCP_ATTR_BASE + 0xff,
}


def main():
    vport = len(sys.argv) == 4 and sys.argv[1].startswith("vport:")
    attrs = VPORT_ATTRS if vport else ATTRS
    if len(sys.argv) != 4 or sys.argv[2] not in attrs:
        sys.stderr.write(__doc__)
        sys.exit(2)
    name = sys.argv[1].split(":", 1)[1] if vport else sys.argv[1]
    name = name.encode() + b"\0"
    kind = attrs[sys.argv[2]]
    form = sys.argv[3]

    if vport:
        sock, family = open_family("ovs_vport")
        cmd, name_attr = OVS_VPORT_CMD_SET, OVS_VPORT_ATTR_NAME
    else:
        sock, family = open_family("ovs_datapath")
        cmd, name_attr = OVS_DP_CMD_SET, OVS_DP_ATTR_NAME

    values = {
        "empty": b"",
        "u32": struct.pack("=I", 1),
        "u32-2": struct.pack("=I", 2),
        "u64": struct.pack("=Q", 1),
        "nested": attr(OVS_DP_GSO_STATS_RESEG, struct.pack("=Q", 1)),
    }
    payload = attr(name_attr, name) + attr(kind, values[form])
    reply = request(sock, family, cmd, payload, 2,
                    struct.pack("=i", 0), ack=True)

    out = ack_summary(reply)
    if not any(w.startswith("msg=") for w in out):
        out.append("msg=")
    print(" ".join(w for w in out if not w.startswith("miss=")))


if __name__ == "__main__":
    main()
