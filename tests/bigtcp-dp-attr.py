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

ATTR is "stats" (OVS_DP_ATTR_GSO_STATS), "version"
(OVS_DP_ATTR_BIGTCP_VERSION), "features" (OVS_DP_ATTR_BIGTCP_FEATURES), or
"unknown" (a number of the extension's range that it does not define).
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


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ATTRS:
        sys.stderr.write(__doc__)
        sys.exit(2)
    dp = sys.argv[1].encode() + b"\0"
    kind = ATTRS[sys.argv[2]]
    form = sys.argv[3]

    sock, family = open_family("ovs_datapath")

    values = {
        "empty": b"",
        "u32": struct.pack("=I", 1),
        "u32-2": struct.pack("=I", 2),
        "u64": struct.pack("=Q", 1),
        "nested": attr(OVS_DP_GSO_STATS_RESEG, struct.pack("=Q", 1)),
    }
    payload = attr(OVS_DP_ATTR_NAME, dp) + attr(kind, values[form])
    reply = request(sock, family, OVS_DP_CMD_SET, payload, 2,
                    struct.pack("=i", 0), ack=True)

    out = ack_summary(reply)
    if not any(w.startswith("msg=") for w in out):
        out.append("msg=")
    print(" ".join(w for w in out if not w.startswith("miss=")))


if __name__ == "__main__":
    main()
