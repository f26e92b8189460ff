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

"""The benchmark's charts, each made from one record (the JSON or JSON
lines file that a run writes) and nothing else: one chart per scenario
family that the record holds.

    s1s2:  the userspace throughput states (S1, S2 and the anchors A1,
           A2), mean Gbit/s per state and IP version (results.json);
    s4:    the GRO states, the same;
    s7:    the 64-byte round trip next to a bulk flow, p50, p99 and
           p99.9 per state (latency.json);
    s5s6:  OVN, userspace datapath: median Gbit/s per build, BIG TCP
           state and path (s5.json, s6.json of ovs-bigtcp-ovn --bench);
    k:     the kernel datapath: median Gbit/s per scenario and module
           (kernel.jsonl), or per build, state and path under OVN
           (k6.json, k7.json).

Each chart's SVG starts with a comment that names its record and the
record's SHA-256 (source_of() reads it back), so that "make check-docs"
finds a chart that its record has changed under."""

import hashlib
import json
import math
import os
import re
import statistics
import subprocess
import sys

from .common import PROTOS, lower_median


SOURCE_RE = re.compile(r"<!-- source: (\S+) sha256:([0-9a-f]{64}) -->")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def source_of(svg_path):
    """(record name, SHA-256) that the chart SVG_PATH was made from, or
    None."""
    with open(svg_path) as f:
        m = SOURCE_RE.search(f.read(4096))
    return m.groups() if m else None


def load(path):
    """The record at PATH: a JSON document, or a list of the lines of a
    JSON lines file."""
    with open(path) as f:
        text = f.read()
    if path.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line]
    return json.loads(text)


def _userspace(rec, scenarios):
    """(label, [Gbit/s per IP version]) per state of SCENARIOS in the
    summary of a userspace results.json, in the record's order."""
    scenario_of = {}
    for key, s in rec["summary"].items():
        state = key.split(" ", 1)[1]
        if s.get("scenario") in scenarios:
            scenario_of.setdefault(state, s["scenario"])
    return [("%s %s" % (sc, st),
             [rec["summary"].get("%s %s" % (p, st), {}).get("gbps")
              for p in PROTOS]) for st, sc in scenario_of.items()]


def _latency(rec):
    """(label, [p50, p99, p99.9 of the 64-byte round trip]) per state and
    IP version of a latency.json."""
    # Imported here: latency imports this module.
    from .latency import LATENCY
    order = {s.name: n for n, s in enumerate(LATENCY)}
    groups = []
    for key, s in rec["summary"].items():
        proto, state, size = key.split(" ")
        if size == "64":
            groups.append(((order.get(state, len(order)), state, proto),
                           [s["p50_us"], s["p99_us"], s["p999_us"]]))
    return [("%s %s" % k[1:], v) for k, v in sorted(groups)]


def _ovn(rec):
    """(label, [median Gbit/s per IP version]) per build, BIG TCP state
    and path of ovs-bigtcp-ovn --bench's record (the medians of its
    rounds, or of its rows where an older record has none)."""
    keys, values = [], {}
    for r in rec.get("medians") or rec["rows"]:
        k = (r["build"], r["bigtcp"], r["path"])
        if k not in keys:
            keys.append(k)
        values.setdefault(k + (r["proto"],), []).append(r["gbps"])
    return [(" ".join(k), [lower_median(values.get(k + (p,), []))
                           for p in PROTOS])
            for k in keys]


def _kernel(runs):
    """(label, [mean Gbit/s per IP version], as the kernel report gives
    it) per scenario and module of kernel.jsonl's runs (those that report
    Gbit/s)."""
    keys, values = [], {}
    for r in runs:
        if "gbps" not in r:
            continue
        k = (r["scenario"], r["module"])
        if k not in keys:
            keys.append(k)
        values.setdefault(k + (r["proto"],), []).append(r["gbps"])
    return [(" ".join(k), [statistics.mean(values[k + (p,)])
                           if k + (p,) in values else None for p in PROTOS])
            for k in keys]


def families(rec):
    """[(family, title, series, groups)] of the record REC."""
    out = []
    if isinstance(rec, list):
        groups = _kernel(rec)
        if groups:
            out.append(("k", "kernel datapath: one TCP flow, mean Gbit/s",
                        list(PROTOS), groups))
        return out
    if "scenario" in rec and "rows" in rec:
        sc = rec["scenario"]
        family = "k" if sc.startswith("K") else "s5s6"
        out.append((family, "%s, OVN pods on one chassis and across: one "
                    "TCP flow, median Gbit/s" % sc, list(PROTOS),
                    _ovn(rec)))
        return out
    keys = list(rec.get("summary", {}))
    if keys and len(keys[0].split(" ")) == 3:
        out.append(("s7", "S7: 64-byte TCP round trip, microseconds",
                    ["p50", "p99", "p99.9"], _latency(rec)))
        return out
    for family, scenarios, title in (
            ("s1s2", ("S1", "S2", "A1", "A2"),
             "S1, S2 and the anchors: one TCP flow, mean Gbit/s"),
            ("s4", ("S4",), "S4, GRO: one TCP flow, mean Gbit/s")):
        groups = _userspace(rec, scenarios)
        if groups:
            out.append((family, title, list(PROTOS), groups))
    return out


def charts(path, base=None, png=True):
    """Writes BASE-FAMILY.svg (and .png with PNG) for each family of the
    record at PATH (BASE: PATH without its extension); returns the SVGs'
    paths."""
    rec = load(path)
    base = base or os.path.splitext(path)[0]
    source = "<!-- source: %s sha256:%s -->" % (os.path.basename(path),
                                                 digest(path))
    date = rec.get("date") if isinstance(rec, dict) else None
    written = []
    for family, title, series, groups in families(rec):
        if date:
            title += " (%s)" % date
        out = "%s-%s" % (base, family)
        svg_bars(out, title, series, groups, comment=source, png=png)
        written.append(out + ".svg")
    return written


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _write_svg(base, svg, png=True):
    """BASE.svg from the lines SVG, and with PNG BASE.png through
    rsvg-convert."""
    with open(base + ".svg", "w") as f:
        f.write("\n".join(svg) + "\n")
    if not png:
        return
    try:
        subprocess.run(["rsvg-convert", "-o", base + ".png", base + ".svg"],
                       check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("ovs-bigtcp-bench: rsvg-convert: %s\n" % e)


def _ticks(top):
    """The grid lines of an axis from 0 to TOP: steps of 1, 2 or 5 times a
    power of ten, about five of them."""
    unit = 10 ** math.floor(math.log10(top / 5))
    step = next(unit * m for m in (1, 2, 5, 10) if top / (unit * m) <= 6)
    return [n * step for n in range(int(top / step + 1e-9) + 1)]


def svg_bars(base, title, series, groups, comment=None, png=True):
    """BASE.svg and with PNG BASE.png: a bar chart of GROUPS, (label,
    [value per name in SERIES]) pairs, one bar per series in each group;
    COMMENT, an XML comment, first in the SVG."""
    colors = ["#4477aa", "#ee7733", "#228833", "#aa3377"]
    values = [v for _, vs in groups for v in vs if v is not None]
    top_v = max(values) * 1.05 if values and max(values) > 0 else 1.0
    step = 14 * len(series) + 16
    width, height, left, bottom, top = 80 + step * len(groups), 440, 60, \
        170, 40
    scale = (height - bottom - top) / top_v
    svg = ([comment] if comment else []) + [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'font-family="sans-serif" font-size="11">' % (width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="18" font-size="14">%s</text>'
        % (left, _esc(title))]
    for n, name in enumerate(series):
        svg.append('<rect x="%d" y="26" width="10" height="10" fill="%s"/>'
                   '<text x="%d" y="35">%s</text>'
                   % (left + 80 * n, colors[n], left + 80 * n + 14,
                      _esc(name)))
    for tick in _ticks(top_v):
        y = height - bottom - tick * scale
        svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                   'stroke="#ddd"/><text x="%d" y="%.1f" '
                   'text-anchor="end">%g</text>'
                   % (left, y, width - 10, y, left - 4, y + 4, tick))
    for g, (label, vs) in enumerate(groups):
        x0 = left + 10 + g * step
        for n, v in enumerate(vs):
            if v is None:
                continue
            svg.append('<rect x="%d" y="%.1f" width="12" height="%.1f" '
                       'fill="%s"/>' % (x0 + 14 * n,
                                        height - bottom - v * scale,
                                        v * scale, colors[n]))
        svg.append('<text transform="translate(%d,%d) rotate(-60)" '
                   'text-anchor="end">%s</text>'
                   % (x0 + 7 * len(vs), height - bottom + 12, _esc(label)))
    svg.append('</svg>')
    _write_svg(base, svg, png)
