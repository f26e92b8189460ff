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

"""What the modes of ovs-bigtcp-bench share."""

import datetime
import statistics

import ovs_bigtcp as ob

PROTOS = ("IPv4", "IPv6")


def say(text):
    print(text, flush=True)


def now_utc(fmt="%Y-%m-%d %H:%M UTC"):
    return datetime.datetime.now(datetime.timezone.utc).strftime(fmt)


def fmt(v, f):
    return "-" if v is None else f % v


def lower_median(values):
    """The median of VALUES, None left out: the lower middle one of an even
    count, a value that was measured (None if none was)."""
    values = sorted(v for v in values if v is not None)
    return values[(len(values) - 1) // 2] if values else None


def mean_cv(values):
    m = statistics.mean(values)
    return m, (statistics.pstdev(values) / m * 100 if m else 0.0)


def ports_tso(text):
    """{port: {counter: value}} from the per-port "TSO" lines of "dpctl
    show -s" (ovs_bigtcp.parse_dpctl_show()'s "tso_" counters; ports
    without the line are left out)."""
    ports = {}
    for port, c in ob.parse_dpctl_show(text).items():
        tso = {k[len("tso_"):]: v for k, v in c.items()
               if k.startswith("tso_")}
        if tso:
            ports[port] = tso
    return ports


def write_verdicts(lines, passed, failed, path):
    """Prints LINES, one per check, and "N passed, N failed" (PASSED and
    FAILED), and writes them into PATH.  Returns 1 if a check failed, else
    0."""
    lines = lines + ["%d passed, %d failed" % (passed, failed)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    for line in lines:
        say(line)
    return 1 if failed else 0
