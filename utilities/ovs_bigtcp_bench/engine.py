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

"""--engine: the engine micro-benchmark, instructions counted by
callgrind in ovstest's test-bigtcp-reseg-bench (tests/test-bigtcp-reseg.c),
and its report, engine.md and engine.json."""

import json
import os

import ovs_bigtcp as ob

from .common import say


def run(out):
    """The engine micro-benchmark, its results in OUT."""
    ob.build("ovs")
    os.makedirs(out, exist_ok=True)
    ovstest = os.path.join(ob.TOP, "_build", "ovs", "tests", "ovstest")
    iterations = 20
    rows = {}
    for size in (65536, 262144, 524280):
        for mode in ("clone", "reseg", "zerocopy", "gso"):
            cg = os.path.join(out, "callgrind.%s.%d" % (mode, size))
            text = ob.run(["valgrind", "-q", "--tool=callgrind",
                           "--callgrind-out-file=" + cg, ovstest,
                           "test-bigtcp-reseg-bench", mode, size,
                           iterations], timeout=1800)
            outputs = int(text.rsplit(", ", 1)[1].split()[0])
            ir = None
            with open(cg) as f:
                for line in f:
                    if line.startswith(("summary:", "totals:")):
                        ir = int(line.split()[1])
                        break
            rows[(size, mode)] = (ir, outputs)
            say("engine: %s %d bytes: %d instructions" % (mode, size, ir))
    names = (("reseg", "resegmentation, copying (dp_packet_reseg)"),
             ("zerocopy", "resegmentation, zero copy (netdev-linux)"),
             ("gso", "full segmentation (dp_packet_gso)"))
    md = ["# ovs-bigtcp engine micro-benchmark", "",
          "Instructions (callgrind) for one IPv4 TSO packet (MSS 1448) "
          "sent to a 64 KiB port, %d iterations, cost of cloning the "
          "input subtracted." % iterations, "",
          "| frame bytes | engine | outputs | instructions per output "
          "packet | instructions per payload byte | ratio to full "
          "segmentation |", "|---|---|---|---|---|---|"]
    result = []
    for size in sorted({k[0] for k in rows}):
        clone = rows[(size, "clone")][0]
        payload = size - 54
        per_byte = {m: (rows[(size, m)][0] - clone) / iterations / payload
                    for m, _ in names}
        for mode, name in names:
            ir, outputs = rows[(size, mode)]
            work = (ir - clone) / iterations
            r = {"frame_bytes": size, "engine": mode, "outputs": outputs,
                 "instructions_per_output": work / outputs,
                 "instructions_per_byte": per_byte[mode],
                 "ratio_to_gso": per_byte[mode] / per_byte["gso"]}
            result.append(r)
            md.append("| %d | %s | %d | %.0f | %.3f | %.3fx |" % (
                size, name, outputs, r["instructions_per_output"],
                r["instructions_per_byte"], r["ratio_to_gso"]))
    worst = max(r["ratio_to_gso"] for r in result
                if r["engine"] == "zerocopy")
    md += ["", "Goal: zero-copy resegmentation under 5%% of the "
           "instructions of full segmentation per byte: %s (worst %.1f%%)."
           % ("PASS" if worst < 0.05 else "FAIL", 100 * worst),
           "", "Zero copy counts what netdev-linux does before the system "
           "call: the outputs' headers, IPv4 header and pseudo-header "
           "checksums and virtio-net headers; the kernel copies the "
           "payload from the original packet once, as it copies any "
           "packet that Open vSwitch sends.  The copying engine copies it "
           "once more, into new packets.", ""]
    with open(os.path.join(out, "engine.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(out, "engine.json"), "w") as f:
        json.dump(result, f, indent=1)
    say("\n".join(md))
