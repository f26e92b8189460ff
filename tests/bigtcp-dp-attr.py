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

import struct
import sys

from bigtcp_genl import attr, open_family, request, ack_summary

OVS_DP_CMD_SET = 4
OVS_DP_ATTR_NAME = 1
OVS_DP_ATTR_GSO_STATS = 10
OVS_DP_GSO_STATS_RESEG = 1


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        sys.exit(2)
    dp = sys.argv[1].encode() + b"\0"
    form = sys.argv[2] if len(sys.argv) == 3 else "u64"

    sock, family = open_family("ovs_datapath")

    if form == "empty":
        value = b""
    elif form == "nested":
        value = attr(OVS_DP_GSO_STATS_RESEG, struct.pack("=Q", 1))
    else:
        value = struct.pack("=Q", 1)
    payload = attr(OVS_DP_ATTR_NAME, dp) + attr(OVS_DP_ATTR_GSO_STATS, value)
    reply = request(sock, family, OVS_DP_CMD_SET, payload, 2,
                    struct.pack("=i", 0), ack=True)

    out = ack_summary(reply)
    if not any(w.startswith("msg=") for w in out):
        out.append("msg=")
    print(" ".join(w for w in out if not w.startswith("miss=")))


if __name__ == "__main__":
    main()
