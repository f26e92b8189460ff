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

"""The reports: the userspace datapath's (results.md, results.json and
the chart, from the runs' records) and the kernel datapath's
(kernel.md)."""

import dataclasses
import json
import os
import platform
import statistics
from typing import Optional

from .charts import charts
from .common import PROTOS, fmt, mean_cv, now_utc, say
from .states import KERNEL_SCENARIOS, STATES


@dataclasses.dataclass
class Run:
    """One userspace run: a line of runs.jsonl and of results.json's
    "runs".  Its counters cover the seconds that iperf3 counts, after the
    --omit ones; None where not measured."""

    scenario: str
    state: str
    proto: str
    round: int
    gbps: float
    bytes: int
    retransmits: int
    vswitchd_cpu_s: Optional[float]
    page_faults: Optional[int]
    context_switches: Optional[int]
    task_clock_ms: Optional[float]
    idle_pct: Optional[float]
    rx_dropped_b: Optional[int]
    dp_pps: Optional[float]
    # ovs_bigtcp.path_accounting() over the whole flow (patched states).
    path: Optional[dict] = None


@dataclasses.dataclass
class Summary:
    """A state's figures for one protocol over all rounds: results.json's
    "summary" entry "PROTO STATE".  Per GB received; None where not
    measured."""

    scenario: str
    gbps: float
    sd: float
    cv_pct: float
    gb: float
    retransmits: int
    rx_dropped_b: Optional[int]
    vswitchd_cpu_s_per_gb: Optional[float]
    page_faults_per_gb: Optional[float]
    context_switches_per_gb: Optional[float]
    task_clock_ms_per_gb: Optional[float]
    dp_kpps: Optional[float]
    idle_pct: Optional[float]
    # Gbit/s over the state's baseline, over its ceiling and over its
    # Linux bridge figure (with the states compared to), where both ran.
    ratio: Optional[float] = None
    of_ceiling: Optional[float] = None
    of_ceiling_state: Optional[str] = None
    vs_linux_bridge: Optional[float] = None
    vs_linux_bridge_state: Optional[str] = None


def total(rs, key):
    """The sum of KEY over the runs RS, or None if any run lacks it."""
    vals = [getattr(r, key) for r in rs]
    if not vals or None in vals:
        return None
    return sum(vals)


def summarize(runs):
    """The states run, in the order of STATES, and {(PROTO, STATE):
    Summary} over all rounds, with the ratios."""
    present = {(r.scenario, r.state) for r in runs}
    order = [s for s in STATES if (s.scenario, s.name) in present]
    summary = {}
    for proto in PROTOS:
        for st in order:
            rs = [r for r in runs if r.state == st.name and r.proto == proto]
            if not rs:
                continue
            g = [r.gbps for r in rs]
            mean, cv = mean_cv(g)
            gb = sum(r.bytes for r in rs) / 1e9
            per_gb = {}
            for key in ("vswitchd_cpu_s", "page_faults", "context_switches",
                        "task_clock_ms"):
                t = total(rs, key)
                per_gb[key] = t / gb if t is not None and gb else None
            pps = [r.dp_pps for r in rs]
            idle = [r.idle_pct for r in rs]
            summary[(proto, st.name)] = Summary(
                scenario=st.scenario, gbps=mean, sd=statistics.pstdev(g),
                cv_pct=cv, gb=gb,
                retransmits=sum(r.retransmits for r in rs),
                rx_dropped_b=total(rs, "rx_dropped_b"),
                vswitchd_cpu_s_per_gb=per_gb["vswitchd_cpu_s"],
                page_faults_per_gb=per_gb["page_faults"],
                context_switches_per_gb=per_gb["context_switches"],
                task_clock_ms_per_gb=per_gb["task_clock_ms"],
                dp_kpps=(statistics.mean(pps) / 1e3 if None not in pps
                         else None),
                idle_pct=statistics.mean(idle) if None not in idle else None)
        for st in order:
            s = summary.get((proto, st.name))
            if not s:
                continue
            s.ratio = over(summary, proto, s, st.baseline)
            s.of_ceiling = over(summary, proto, s, st.ceiling)
            if s.of_ceiling is not None:
                s.of_ceiling_state = st.ceiling
            s.vs_linux_bridge = over(summary, proto, s, st.linux_bridge)
            if s.vs_linux_bridge is not None:
                s.vs_linux_bridge_state = st.linux_bridge
    return order, summary


def over(summary, proto, s, ref):
    """The Gbit/s of S (a Summary) over those of state REF with the same
    PROTO in SUMMARY, or None."""
    b = summary.get((proto, ref)) if ref else None
    return s.gbps / b.gbps if b and b.gbps else None


# The goals that compare two states' throughput: what is claimed ('%s'
# is the IP version), the state and the one it is divided by, and the
# least ratio that passes.
RATIO_GOALS = [
    ("S1 %s: BIG TCP on >= 1.3x off", "patched-on", "patched-off", 1.3),
    ("S1 %s: BIG TCP on >= 75%% of the no-switch ceiling with BIG TCP",
     "patched-on", "veth-on", 0.75),
    ("S2 %s: resegmentation >= the no-BIG-TCP path", "s2-bigtcp-reseg",
     "s2-no-bigtcp", 1.0),
    ("S2 %s: resegmentation >= the Linux bridge's mixed path",
     "s2-bigtcp-reseg", "lbr-mixed", 1.0),
    ("S2 %s: resegmentation >= 2.5x full segmentation", "s2-bigtcp-reseg",
     "s2-bigtcp-full-gso", 2.5),
    ("S3 %s: patched within 2%% of stock, BIG TCP off", "patched-off",
     "stock-off", 0.98),
    ("S4 %s: GRO on (default, kept segments) >= 3x GRO off, internal port",
     "s4-int-gro-keep", "s4-int-gro-off", 3.0),
    ("S4 %s: GRO on (default, kept segments) >= 3x GRO off, veth",
     "s4-veth-gro-keep", "s4-veth-gro-off", 3.0),
    ("S4 %s: GRO on without kept segments >= 3x GRO off, internal port",
     "s4-int-gro-on", "s4-int-gro-off", 3.0),
    ("S4 %s: GRO on without kept segments >= 3x GRO off, veth",
     "s4-veth-gro-on", "s4-veth-gro-off", 3.0),
]


def goals(summary):
    """The project's goals, PASS or FAIL, never an error.  A goal whose
    states were not run (--scenario) is left out; one whose counter is
    missing says so."""
    def get(proto, state):
        return summary.get((proto, state))

    def ratio_goal(proto, a, b, want):
        x, y = get(proto, a), get(proto, b)
        if not x or not y:
            return None
        if not y.gbps:
            return ("- (%s: 0 Gbit/s)" % b, "FAIL")
        r = x.gbps / y.gbps
        return ("%.3fx" % r, "PASS" if r >= want else "FAIL")

    def retrans_goal(proto):
        x, y = get(proto, "patched-on"), get(proto, "patched-off")
        if not x or not y:
            return None
        on, off = x.retransmits, y.retransmits
        return ("%d vs %d%s" % (on, off,
                                " (%.2fx)" % (on / off) if off else ""),
                "PASS" if on <= 2 * off else "FAIL")

    def faults_goal(proto):
        x, y = get(proto, "patched-on"), get(proto, "patched-off")
        if not x or not y:
            return None
        on, off = x.page_faults_per_gb, y.page_faults_per_gb
        if on is None or off is None:
            return ("not measured (perf stat)", "-")
        return ("%.0f vs %.0f per GB" % (on, off),
                "PASS" if on <= off else "FAIL")

    defs = [(text + " (%s / %s)" % (a, b),
             lambda p, a=a, b=b, want=want: ratio_goal(p, a, b, want))
            for text, a, b, want in RATIO_GOALS]
    defs += [
        ("%s: retransmitted segments with BIG TCP on within 2x of BIG TCP "
         "off (patched-on vs patched-off, sum over rounds)", retrans_goal),
        ("%s: vswitchd page faults per GB with BIG TCP on <= off "
         "(patched-on vs patched-off)", faults_goal),
    ]
    result = []
    for proto in PROTOS:
        for text, fn in defs:
            g = fn(proto)
            if g is not None:
                result.append({"goal": text % proto, "measured": g[0],
                               "verdict": g[1]})
    return result


def report(runs, out, nruns, dur):
    """Writes results.md, results.json and its charts (charts.charts():
    results-FAMILY.svg and .png) from RUNS (Run records)."""
    order, summary = summarize(runs)
    rows = []
    for proto in PROTOS:
        for st in order:
            s = summary.get((proto, st.name))
            if not s:
                continue
            rows.append(
                "| %s | %s | %s | %.3f | %.1f%% | %s | %s | %s | %s | %s "
                "| %s | %s | %s | %s | %d | %s |" % (
                    st.scenario, st.name, proto, s.gbps, s.cv_pct,
                    fmt(s.ratio, "%.2fx"),
                    "-" if s.of_ceiling is None else "%.2fx %s" % (
                        s.of_ceiling, s.of_ceiling_state),
                    "-" if s.vs_linux_bridge is None else "%.2fx %s" % (
                        s.vs_linux_bridge, s.vs_linux_bridge_state),
                    fmt(s.vswitchd_cpu_s_per_gb, "%.2f"),
                    fmt(s.page_faults_per_gb, "%.0f"),
                    fmt(s.context_switches_per_gb, "%.0f"),
                    fmt(s.task_clock_ms_per_gb, "%.0f"),
                    fmt(s.dp_kpps, "%.0f"),
                    fmt(s.idle_pct, "%.1f%%"),
                    s.retransmits, fmt(s.rx_dropped_b, "%d")))
    goal_list = goals(summary)
    perf_used = any(r.task_clock_ms is not None for r in runs)
    vswitchd_runs = [r for r in runs if r.scenario in ("S1", "S2", "S4")]
    date = now_utc()
    md = ["# ovs-bigtcp benchmark", "",
          "%s on %s; %s round(s) of %s s per state, "
          "runs alternating between states; ratio to the scenario's "
          "baseline (S1: patched-off, S2: s2-no-bigtcp, S4: the same "
          "topology with GRO off, A1: veth-off, A2: lbr-off)."
          % (date, host_facts(),
             nruns, dur), "",
          "A1 and A2 are anchors measured on the same machine in the same "
          "rounds, without Open vSwitch: A1 the \"no switch\" ceiling "
          "(A's a0 and B's b0 one veth pair), A2 a Linux bridge in a "
          "namespace of its own (lbr-mixed: BIG TCP sender, the bridge's "
          "port toward B at 64 KiB).  \"of ceiling\": Gbit/s over the A1 "
          "state with the same BIG TCP state at the sender; \"vs Linux "
          "bridge\": over the A2 state named.", "",
          "| scenario | state | proto | Gbit/s | CV | ratio | of ceiling "
          "| vs Linux bridge | vswitchd CPU s/GB | vswitchd page faults/GB "
          "| vswitchd ctx switches/GB | vswitchd task-clock ms/GB "
          "| datapath kpps | machine idle | retransmits | B rx drops |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
          "---|"]
    md += rows
    md += ["",
           "Counters: vswitchd CPU s/GB from /proc (user + system); page "
           "faults, context switches and task-clock %s; per GB received.  "
           "\"datapath kpps\": packets per second that the userspace "
           "datapath handled (after GRO), mean over the rounds.  "
           "\"machine idle\": the whole machine's idle share during the "
           "runs (/proc/stat, idle + iowait over all CPUs).  "
           "\"retransmits\": the sender's retransmitted segments (iperf3); "
           "\"B rx drops\": rx_dropped of b0 in netns B.  Sums over the "
           "rounds; \"-\" where not measured (no vswitchd in A1, A2)."
           % ("from perf stat (software events) on ovs-vswitchd during "
              "each run" if perf_used or not vswitchd_runs else
              "not measured (perf not found or not usable)"),
           "", "| goal | measured | verdict |", "|---|---|---|"]
    md += ["| %(goal)s | %(measured)s | %(verdict)s |" % g
           for g in goal_list] \
        or ["| (no goal applies to the states run) | - | - |"]
    md.append("")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"date": date, "host": platform.node(),
                   "kernel": platform.release(), "cpus": os.cpu_count(),
                   "rounds": nruns, "duration_s": dur,
                   "summary": {"%s %s" % key: dataclasses.asdict(s)
                               for key, s in summary.items()},
                   "goals": goal_list,
                   "runs": [dataclasses.asdict(r) for r in runs]},
                  f, indent=1)
    charts(os.path.join(out, "results.json"), os.path.join(out, "results"))
    say("\n".join(md))


def host_facts():
    """The machine a report was measured on, for its first line."""
    return "%s, %d CPUs, kernel %s" % (platform.node(), os.cpu_count(),
                                       platform.release())


def _kernel_runs(runs, scenario, proto, module):
    """The records of RUNS of one scenario, IP version and module."""
    return [r for r in runs if r["scenario"] == scenario
            and r["proto"] == proto and r["module"] == module]


def _kernel_rows(scenarios):
    """(scenario, IP, module, baseline module) of each row of a kernel
    table, each scenario's and IP version's baseline module first."""
    for k in scenarios:
        for proto in PROTOS:
            for mod in k.modules:
                yield k.name, proto, mod, k.modules[0]


def _fewer(per, sc, proto, mod, base):
    """How many times fewer PER[sc, proto, mod] is than the baseline's."""
    if mod != base and per.get((sc, proto, base)) and per[sc, proto, mod]:
        return "%.1fx fewer" % (per[sc, proto, base] / per[sc, proto, mod])
    return "1.0x"


def kernel_figures(runs):
    """{(scenario, IP, module): {"gbps", "cv_pct", "ok", "runs",
    "per_mb"}} of the kernel records RUNS: the mean Gbit/s of the runs
    that completed and its coefficient of variation (None if none did),
    and the packets the receiver took (K3: the upcalls) per MB moved, over
    all the runs (None where not counted)."""
    out = {}
    present = [k for k in KERNEL_SCENARIOS.values()
               if any(r["scenario"] == k.name for r in runs)]
    for sc, proto, mod, _ in _kernel_rows(present):
        rs = _kernel_runs(runs, sc, proto, mod)
        if not rs:
            continue
        ok = [r["gbps"] for r in rs if r["ok"]]
        m, cv = mean_cv(ok) if ok else (None, None)
        key = "upcalls" if sc == "K3" else "rx_packets"
        counted = [r for r in rs if r.get(key) is not None]
        mb = sum(r["bytes"] for r in counted) / 1e6
        out[sc, proto, mod] = {
            "gbps": m, "cv_pct": cv, "ok": len(ok), "runs": len(rs),
            "per_mb": (sum(r[key] for r in counted) / mb
                       if counted and mb else None),
            "count": sum(r[key] for r in counted), "mb": mb}
    return out


def kernel_report(runs, rounds, secs):
    """kernel.md from the records of kernel.jsonl."""
    kernels = sorted({r["kernel"] for r in runs if "kernel" in r})
    lines = ["# Kernel datapath benchmark (TCG VM)", "",
             "%s round(s) of %s s, modules alternating in one VM run; "
             "ratios only (the VM runs under TCG)%s." % (
                 rounds, secs, "; Linux " + ", ".join(kernels)
                 if kernels else ""), "",
             "| scenario | IP | module | Gbit/s | CV | ratio "
             "| GSO counters |", "|---|---|---|---|---|---|---|"]
    present = [k for k in KERNEL_SCENARIOS.values()
               if any(r["scenario"] == k.name for r in runs)]
    fig = kernel_figures(runs)
    for sc, proto, mod, base in _kernel_rows(present):
        f = fig.get((sc, proto, mod))
        if not f:
            continue
        if f["gbps"] is None:
            lines.append("| %s | %s | %s | failed (%d runs) | | | |"
                         % (sc, proto, mod, f["runs"]))
            continue
        if mod == base:
            ratio = "1.00x"
        else:
            b = fig.get((sc, proto, base), {}).get("gbps")
            ratio = fmt(f["gbps"] / b if b else None, "%.2fx")
        last = _kernel_runs(runs, sc, proto, mod)[-1]
        gso = " ".join("%s:%d" % kv for kv in last["gso"].items())
        fails = ("" if f["ok"] == f["runs"]
                 else " (%d failed)" % (f["runs"] - f["ok"]))
        lines.append("| %s | %s | %s | %.3f%s | %.1f%% | %s | %s |"
                     % (sc, proto, mod, f["gbps"], fails, f["cv_pct"], ratio,
                        gso or "-"))
    per = {k: f["per_mb"] for k, f in fig.items()
           if f["per_mb"] is not None}
    rx = [(sc, proto, mod, base) for sc, proto, mod, base
          in _kernel_rows(present) if sc != "K3" and (sc, proto, mod) in per]
    if rx:
        lines += ["", "| scenario | IP | module | packets received / MB "
                  "| ratio |", "|---|---|---|---|---|"]
        for sc, proto, mod, base in rx:
            lines.append("| %s | %s | %s | %.1f | %s |"
                         % (sc, proto, mod, per[sc, proto, mod],
                            _fewer(per, sc, proto, mod, base)))
    k3 = [(sc, proto, mod, base) for sc, proto, mod, base
          in _kernel_rows(present) if sc == "K3" and (sc, proto, mod) in per]
    if k3:
        lines += ["", "| K3 | IP | upcall mode | upcalls | MB | upcalls/MB "
                  "| ratio |", "|---|---|---|---|---|---|---|"]
        for sc, proto, mod, base in k3:
            f = fig[sc, proto, mod]
            lines.append("| K3 | %s | %s | %d | %.1f | %.1f | %s |"
                         % (proto, mod, f["count"], f["mb"], f["per_mb"],
                            _fewer(per, sc, proto, mod, base)))
    lines += ["", "\n".join("- " + k.description for k in present)]
    return "\n".join(lines) + "\n"
