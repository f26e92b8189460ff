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

"""--scenario smoke: the anchors and the patched S1 and S2 states, one
short run each, judged on what cannot be timing noise.  Every state ran
for both protocols; no packet was lost that no counter shows (the flow's
packets on ovs-a0 are those that reached b0, each resegmented packet and
each write sent again counted once, plus the counted drops); BIG TCP
packets reached b0 whole where nothing limits them (b0's mean received
frame is over 64 KiB), and nowhere else; resegmentation acted exactly
where a port's limit is below the sender's packets.  No throughput figure
is judged."""

import os

from .common import PROTOS, write_verdicts
from .states import STATES

# The largest frame of a GSO packet within a 64 KiB limit: the packet and
# its Ethernet header.
FRAME_64K = 65536 + 14

# What each state's flow must show, as (what, test(path)) pairs: PATH is
# ovs_bigtcp.path_accounting() over the whole flow.
_WITHIN_64K = ("b0 received no frame over 64 KiB on average (mean %(b_mean)s"
               " bytes)", lambda p: p["b_mean"] and p["b_mean"] <= FRAME_64K)
_NO_RESEG = ("no packet resegmented (%(reseg)d)", lambda p: p["reseg"] == 0)
_NOT_SEGMENTED = ("no packet segmented in software (%(segmented)d)",
                  lambda p: p["segmented"] == 0)
_RESEG = ("packets resegmented into at least two each (%(reseg)d into "
          "%(reseg_out)d)",
          lambda p: p["reseg"] > 0 and p["reseg_out"] >= 2 * p["reseg"])
EXPECT = {
    "patched-off": [_NO_RESEG, _NOT_SEGMENTED, _WITHIN_64K],
    "patched-on": [
        ("BIG TCP packets reached b0 whole (mean frame %(b_mean)s bytes)",
         lambda p: p["b_mean"] and p["b_mean"] > FRAME_64K),
        _NO_RESEG, _NOT_SEGMENTED],
    "patched-on-tap64k": [_RESEG, _NOT_SEGMENTED, _WITHIN_64K],
    "s2-no-bigtcp": [_NO_RESEG, _NOT_SEGMENTED, _WITHIN_64K],
    "s2-bigtcp-full-gso": [
        ("packets segmented in software (%(segmented)d)",
         lambda p: p["segmented"] > 0),
        _NO_RESEG],
    "s2-bigtcp-reseg": [_RESEG, _NOT_SEGMENTED, _WITHIN_64K],
}
SMOKE_STATES = [s for s in STATES
                if s.scenario.startswith("A") or s.name in EXPECT]


def judge(records, out):
    """Checks RECORDS (report.Run) of the smoke states against EXPECT;
    prints and writes into OUT/smoke.txt one line per check and "N passed,
    N failed".  Returns 1 if a check failed, else 0."""
    lines, passed, failed = [], 0, 0

    def check(what, ok):
        nonlocal passed, failed
        lines.append("%s: %s" % (what, "ok" if ok else "FAILED"))
        if ok:
            passed += 1
        else:
            failed += 1

    runs = {(r.state, r.proto): r for r in records}
    for s in SMOKE_STATES:
        for proto in PROTOS:
            label = "%s %s" % (proto, s.name)
            r = runs.get((s.name, proto))
            check("%s: the flow ran (%s bytes)"
                  % (label, r.bytes if r else "no run"),
                  r is not None and r.bytes > 0)
            if r is None or s.name not in EXPECT:
                continue
            p = r.path
            if p is None:
                check("%s: the path's counters were read" % label, False)
                continue
            if p["lost"] is None:
                # Software segmentation does not count its outputs.
                check("%s: %d packets to Open vSwitch, not accounted (%d "
                      "segmented in software)"
                      % (label, p["to_ovs"], p["segmented"]),
                      s.name == "s2-bigtcp-full-gso")
            else:
                check("%s: nothing lost silently (%d packets to Open "
                      "vSwitch, %d reached b0, %d dropped and counted, %d "
                      "lost)" % (label, p["to_ovs"], p["to_b"],
                                 p["dropped"], p["lost"]),
                      p["lost"] == 0)
            for what, test in EXPECT[s.name]:
                check("%s: %s" % (label, what % p), bool(test(p)))
    return write_verdicts(lines, passed, failed,
                          os.path.join(out, "smoke.txt"))
