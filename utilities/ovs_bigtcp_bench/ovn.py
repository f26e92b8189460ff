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

"""S5, S6, K6 and K7: one TCP flow between OVN pods, on one chassis and
across two over Geneve, with stock and patched Open vSwitch and Linux's
own tunnels side by side in one run.  utilities/ovs-bigtcp-ovn --bench
deploys OVN (ovs_bigtcp_ovn) and calls run(); this module measures
(OvnRun), summarizes the rounds (OvnSummary), judges the goals and writes
the record (s5.json, s6.json, k6.json or k7.json) and its chart."""

import dataclasses
import json
import os
from typing import Optional

import ovs_bigtcp as ob

from .charts import charts
from .common import PROTOS, fmt, lower_median, say
from .latency import FAIR_PORT, jain

# The builds besides "stock" and "patched": the patched build over a
# 64 KiB underlay (in a guest), and Linux's own tunnel devices and
# bridges.
PATCHED_64K = "patched-64k"
ANCHOR = "linux"

# BIG TCP off and on: the sending pod's GSO limits.
POD_GSO_STATES = (("off", 65536), ("on", ob.BIGTCP))

HEADING = ("%-14s %-5s %8s %8s %12s %10s %10s %10s %8s"
           % ("path", "proto", "Gbit/s", "retrans", "underlay-pkts",
              "avg-bytes", "ch1-s/GB", "ch2-s/GB", "softirq"))


@dataclasses.dataclass
class OvnRun:
    """One flow: a row of the record's "rows".  CPU is per GB received;
    None where there is no ovs-vswitchd (the anchor)."""

    build: str
    bigtcp: str
    round: Optional[int]
    path: str
    proto: str
    gbps: float
    retransmits: int
    bytes: int
    underlay_packets: int
    underlay_avg_bytes: float
    underlay_packets_per_mb: float
    ch1_cpu_s_per_gb: Optional[float]
    ch2_cpu_s_per_gb: Optional[float]
    # The machine's time in softirq over the flow, of all its time.
    softirq_share: float
    underlay_gso: int
    # The anchor's tunnel ("Geneve", or "VXLAN" where Linux has none).
    tunnel: Optional[str] = None

    def line(self):
        """The run as a line under HEADING."""
        cpu = ["%10s" % "-" if v is None else "%10.3f" % v
               for v in (self.ch1_cpu_s_per_gb, self.ch2_cpu_s_per_gb)]
        return ("%-14s %-5s %8.2f %8d %12d %10.0f %s %s %7.0f%%"
                % (self.path, self.proto, self.gbps, self.retransmits,
                   self.underlay_packets, self.underlay_avg_bytes, *cpu,
                   100 * self.softirq_share))


@dataclasses.dataclass
class OvnSummary:
    """A build, BIG TCP state, path and protocol over all rounds: a row of
    the record's "medians"."""

    # Each figure the median of its rounds (the lower middle one of an
    # even count); round None.
    median: OvnRun
    gbps_rounds: list

    def record(self):
        d = dataclasses.asdict(self.median)
        del d["round"]
        d["gbps_rounds"] = self.gbps_rounds
        return d


@dataclasses.dataclass
class OvnFairness:
    """One fairness run: p1's flow with BIG TCP and p3's without, both from
    chassis 1 to p2 across chassis at once, into one 64 KiB egress (the
    underlay): a row of the record's "fairness"."""

    build: str
    proto: str
    round: int
    secs: int
    big_gbps: float
    other_gbps: float
    big_retransmits: int
    other_retransmits: int

    def jain(self):
        return jain([self.big_gbps, self.other_gbps])

    def line(self):
        return ("%-11s %-5s BIG TCP %6.2f Gbit/s, without %6.2f, Jain's "
                "index %s" % (self.build, self.proto, self.big_gbps,
                              self.other_gbps, fmt(self.jain(), "%.3f")))


def fairness(dep, proto, secs, build, rnd):
    """p1 (GSO limits 512 KiB) and p3 (64 KiB) of DEP, both on chassis 1,
    send to p2 on chassis 2 for SECS seconds at once: an OvnFairness.
    p3's limits are its own (512 KiB) again afterwards."""
    for pod, gso in (("p1", ob.BIGTCP), ("p3", 65536)):
        ob.run([ob.LINK, "set", pod, "gso_max_size", gso,
                "gso_ipv4_max_size", gso], ns=dep.ns(pod))
    big = ob.Iperf3(dep, "p1", "p2", proto, secs).start()
    other = ob.Iperf3(dep, "p3", "p2", proto, secs, port=FAIR_PORT).start()
    r1, r2 = big.wait(), other.wait()
    ob.run([ob.LINK, "set", "p3", "gso_max_size", ob.BIGTCP,
            "gso_ipv4_max_size", ob.BIGTCP], ns=dep.ns("p3"))
    if not (r1["ok"] and r2["ok"]):
        raise ob.Error("the fairness flows of %s (%s) did not complete"
                       % (build, proto))
    return OvnFairness(build=build, proto=proto, round=rnd, secs=secs,
                       big_gbps=r1["gbps"], other_gbps=r2["gbps"],
                       big_retransmits=r1["retransmits"],
                       other_retransmits=r2["retransmits"])


def fairness_medians(runs):
    """{(build, proto): {"big_gbps", "other_gbps", "jain"}}: the medians
    of the rounds of RUNS (OvnFairness)."""
    groups = {}
    for r in runs:
        groups.setdefault((r.build, r.proto), []).append(r)
    return {k: {"build": k[0], "proto": k[1],
                "big_gbps": lower_median(r.big_gbps for r in g),
                "other_gbps": lower_median(r.other_gbps for r in g),
                "jain": lower_median(r.jain() for r in g)}
            for k, g in groups.items()}


def cpu_jiffies():
    """(softirq, total) jiffies of the whole machine so far, from the
    aggregate "cpu" line of /proc/stat (in the VM, the guest's)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    return fields[6], sum(fields)


def measure(dep, src, dst, proto, secs, build="", bigtcp="", rnd=None,
            write=None):
    """One iperf3 flow of SECS seconds from pod SRC to pod DST of DEP (an
    ovs_bigtcp_ovn.Deployment), writing WRITE bytes at a time if given
    (iperf3's default 128 KiB otherwise), as an OvnRun of BUILD, BIGTCP
    and round RND."""
    ch1, ch2 = dep.chassis

    def cpu():
        # No ovs-vswitchd in a LinuxAnchor.
        return [ch.ovs.cpu_seconds() if ch.ovs else None
                for ch in (ch1, ch2)]

    u0 = (ch1.dev_stat("u1", "tx_packets"), ch1.dev_stat("u1", "tx_bytes"))
    c0 = cpu()
    j0 = cpu_jiffies()
    r = ob.Iperf3(dep, src, dst, proto, secs, length=write).run()
    j1 = cpu_jiffies()
    u1 = (ch1.dev_stat("u1", "tx_packets"), ch1.dev_stat("u1", "tx_bytes"))
    c1 = cpu()
    if not r["ok"]:
        raise ob.Error("iperf3 from %s to %s (%s) did not complete"
                       % (src, dst, proto))
    pkts = u1[0] - u0[0]
    gb = max(r["bytes"], 1) / 1e9

    def per_gb(before, after):
        return None if before is None else (after - before) / gb
    return OvnRun(
        build=build, bigtcp=bigtcp, round=rnd,
        path="same chassis" if dep.pods[dst].chassis == 1 else "across",
        proto=proto, gbps=r["gbps"], retransmits=r["retransmits"],
        bytes=r["bytes"], underlay_packets=pkts,
        underlay_avg_bytes=(u1[1] - u0[1]) / max(pkts, 1),
        underlay_packets_per_mb=pkts / max(r["bytes"] / 1e6, 1e-9),
        ch1_cpu_s_per_gb=per_gb(c0[0], c1[0]),
        ch2_cpu_s_per_gb=per_gb(c0[1], c1[1]),
        softirq_share=(j1[0] - j0[0]) / max(j1[1] - j0[1], 1),
        underlay_gso=dep.underlay_gso, tunnel=getattr(dep, "tunnel", None))


def summarize(runs):
    """{(build, bigtcp, path, proto): OvnSummary} of RUNS (OvnRun)."""
    groups = {}
    for r in runs:
        groups.setdefault((r.build, r.bigtcp, r.path, r.proto), []).append(r)
    out = {}
    for key, group in groups.items():
        figures = {}
        for f in dataclasses.fields(OvnRun):
            value = getattr(group[0], f.name)
            if f.name != "round" and isinstance(value, (int, float)):
                value = lower_median(getattr(r, f.name) for r in group)
            figures[f.name] = value
        figures["round"] = None
        out[key] = OvnSummary(OvnRun(**figures), [r.gbps for r in group])
    return out


def ratios(summary):
    """The ratios of the patched build's Gbit/s with BIG TCP on to the
    other builds and states', per path and protocol, as record dicts
    with a line each."""
    def get(build, state, path, proto):
        s = summary.get((build, state, path, proto))
        return s.median if s else None

    out = []
    for path in ("same chassis", "across"):
        for proto in PROTOS:
            p_on = get("patched", "on", path, proto)
            r = {"path": path, "proto": proto}
            line = "  %-12s %-5s" % (path, proto)
            refs = [("stock", "on", "stock on"),
                    ("patched", "off", "patched off"),
                    (PATCHED_64K, "on", "patched over a 64 KiB underlay")]
            if path == "across":
                refs += [(ANCHOR, state, None) for state in ("off", "on")]
            for build, state, label in refs:
                ref = get(build, state, path, proto)
                if not p_on or not ref:
                    continue
                key = "patched_on_vs_%s_%s" % (build.replace("-", "_"),
                                               state)
                r[key] = p_on.gbps / max(ref.gbps, 1e-9)
                line += " / %s %.2fx," % (
                    label or "Linux %s %s" % (ref.tunnel, state), r[key])
            r["line"] = line.rstrip(",")
            out.append(r)
    return out


def _goal(goals, text, proto, value, op, bound):
    met = value >= bound if op == ">=" else value <= bound
    goals.append({"goal": "%s: %s %s %s" % (proto, text, op, bound),
                  "measured": "%.2f" % value,
                  "verdict": "PASS" if met else "FAIL"})


def _cpu_goals(goals, proto, same, across, bound):
    """Each chassis's CPU per GB across chassis at most BOUND times
    chassis 1's on one chassis, where its ovs-vswitchd does all the
    work."""
    for ch in ("ch1", "ch2"):
        _goal(goals, "%s s/GB across / ch1 s/GB same chassis" % ch, proto,
              getattr(across, ch + "_cpu_s_per_gb")
              / max(same.ch1_cpu_s_per_gb, 1e-9), "<=", bound)


def _s5_goals(get, goals, proto):
    same = get("patched", "on", "same chassis", proto)
    across = get("patched", "on", "across", proto)
    stock = get("stock", "on", "across", proto)
    _goal(goals, "across / same chassis, Gbit/s", proto,
          across.gbps / max(same.gbps, 1e-9), ">=", 0.5)
    _cpu_goals(goals, proto, same, across, 2)
    _goal(goals, "across, patched / stock, Gbit/s", proto,
          across.gbps / max(stock.gbps, 1e-9), ">=", 1.5)
    _goal(goals, "underlay packets per MB, stock / patched", proto,
          stock.underlay_packets_per_mb
          / max(across.underlay_packets_per_mb, 1e-9), ">=", 5)


def _s6_goals(get, goals, proto):
    # Two ovs-vswitchds share the guest's CPUs across chassis and one
    # does on a single chassis, so CPU per GB compares like with like;
    # the throughput ratio across / same chassis is reported with no
    # bound.
    same = get("patched", "on", "same chassis", proto)
    across = get("patched", "on", "across", proto)
    p64 = get(PATCHED_64K, "on", "across", proto)
    _cpu_goals(goals, proto, same, across, 1.2)
    _goal(goals, "across / same chassis, Gbit/s (reported)", proto,
          across.gbps / max(same.gbps, 1e-9), ">=", 0)
    _goal(goals, "across / over a 64 KiB underlay, Gbit/s", proto,
          across.gbps / max(p64.gbps, 1e-9), ">=", 1.3)


# The goals of each scenario that has some (S5: the userspace datapath
# across chassis over a 64 KiB underlay; S6: the same over a BIG TCP
# underlay through taps, in a guest whose tunnels take BIG TCP).
GOALS = {"S5": _s5_goals, "S6": _s6_goals}


def goals(scenario, summary, fair=None):
    """The goals of SCENARIO, patched with BIG TCP on, from SUMMARY and
    FAIR (fairness_medians()), as {goal, measured, verdict} rows as the
    other scenarios give them."""
    def get(build, state, path, proto):
        return summary[(build, state, path, proto)].median

    out = []
    for proto in PROTOS:
        if scenario in GOALS:
            GOALS[scenario](get, out, proto)
        pat = (fair or {}).get(("patched", proto), {}).get("jain")
        lin = (fair or {}).get((ANCHOR, proto), {}).get("jain")
        if pat is not None and lin is not None:
            out.append({"goal": "%s: Jain's index of a BIG TCP and a non-BIG "
                        "flow across chassis into one 64 KiB underlay at "
                        "least 0.9 and at least Linux's" % proto,
                        "measured": "%.3f (Linux %.3f)" % (pat, lin),
                        "verdict": ("PASS" if pat >= 0.9 and pat >= lin - 0.01
                                    else "FAIL")})
    return out


def scenario(datapath, kernel_line, pinned_line):
    """S5 (userspace datapath, the host's kernel), S6 (userspace, a
    guest's line), K6 (kernel datapath, the pinned line) or K7 (kernel
    datapath, another line)."""
    if datapath == "system":
        return "K6" if kernel_line == pinned_line else "K7"
    return "S6" if kernel_line else "S5"


def run(args, name, deploy, anchor, load_modules=None, facts=None):
    """Scenario NAME: for each build, DEPLOY(build, underlay GSO limit)
    gives an ovs_bigtcp_ovn.Deployment with pods p1 and p3 on chassis 1
    and p2 on chassis 2; ANCHOR() an ovs_bigtcp_ovn.LinuxAnchor with the
    same pods; LOAD_MODULES(build), where given, loads the kernel modules
    of "stock" or "patched".  Each round ends, for the patched build and
    the anchor, with the fairness runs (fairness()) of --fair-duration
    seconds (none if 0).  ARGS: --rounds, --duration, --write,
    --fair-duration, --underlay-gso, --output.  Writes OUTPUT/NAME.json
    (with FACTS) and its chart; returns 0."""
    runs, fair = [], []
    say(HEADING.replace("path ", "build/state/path ", 1))

    def flows(dep, build, dsts):
        for rnd in range(1, args.rounds + 1):
            for state, gso in POD_GSO_STATES:
                ob.run([ob.LINK, "set", "p1", "gso_max_size", gso,
                        "gso_ipv4_max_size", gso], ns=dep.ns("p1"))
                for dst in dsts:
                    for proto in PROTOS:
                        r = measure(dep, "p1", dst, proto, args.duration,
                                    build, state, rnd, args.write)
                        runs.append(r)
                        say("%-11s %-3s %s" % (build, state, r.line()))
            if args.fair_duration and build in ("patched", ANCHOR):
                for proto in PROTOS:
                    f = fairness(dep, proto, args.fair_duration, build, rnd)
                    fair.append(f)
                    say("%-15s %s" % ("fairness", f.line()))

    # In a guest (S6, K6, K7), over an underlay above 64 KiB, the patched
    # build over a 64 KiB underlay as well.
    builds = [("stock", args.underlay_gso[0]),
              ("patched", args.underlay_gso[0])]
    if name != "S5" and args.underlay_gso[0] > 65536:
        builds.append((PATCHED_64K, 65536))
    for build, gso_limit in builds:
        if load_modules:
            load_modules("stock" if build == "stock" else "patched")
        dep = deploy(build, gso_limit)
        try:
            flows(dep, build, ("p3", "p2"))
        finally:
            dep.clean()
    dep = anchor()
    try:
        flows(dep, ANCHOR, ("p2",))
    finally:
        dep.clean()

    summary = summarize(runs)
    if args.rounds > 1:
        say("\nmedians of %d rounds:" % args.rounds)
        for s in summary.values():
            say("%-11s %-3s %s" % (s.median.build, s.median.bigtcp,
                                   s.median.line()))
    say("\nratios (Gbit/s), patched on:")
    rs = ratios(summary)
    for r in rs:
        say(r.pop("line"))
    fm = fairness_medians(fair)
    gs = goals(name, summary, fm)
    if gs:
        say("\ngoals (%s, patched, BIG TCP on):" % name)
        for g in gs:
            say("  %-56s %8s %s" % (g["goal"], g["measured"], g["verdict"]))
    os.makedirs(args.output, exist_ok=True)
    out = os.path.join(args.output, name.lower() + ".json")
    record = dict(facts or {})
    record.update(scenario=name, duration=args.duration, rounds=args.rounds,
                  write=args.write, underlay_gso=args.underlay_gso[0],
                  rows=[dataclasses.asdict(r) for r in runs],
                  medians=[s.record() for s in summary.values()],
                  ratios=rs, goals=gs,
                  fair_duration=args.fair_duration,
                  fairness=[dataclasses.asdict(f) for f in fair],
                  fairness_medians=list(fm.values()))
    with open(out, "w") as f:
        json.dump(record, f, indent=1)
    with open(out[:-len(".json")] + ".md", "w") as f:
        f.write(markdown(record))
    charts(out)
    say("\nresults in %s (and %s.md)" % (out, name.lower()))
    return 0


def _f(v, f):
    return "" if v is None else f % v


def markdown(record):
    """The tables of RECORD (a record that run() wrote) in Markdown: the
    medians, the goals and the fairness runs."""
    md = ["| build | BIG TCP | path | proto | Gbit/s (median) | rounds | "
          "retrans | avg bytes | per MB | ch1 s/GB | ch2 s/GB |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    retrans = {}
    for r in record["rows"]:
        k = (r["build"], r["bigtcp"], r["path"], r["proto"])
        retrans[k] = retrans.get(k, 0) + r["retransmits"]
    for m in record["medians"]:
        k = (m["build"], m["bigtcp"], m["path"], m["proto"])
        across = m["path"] == "across"
        md.append("| %s | %s | %s | %s | %.2f | %s | %d | %s | %s | %s | %s |"
                  % (k + (m["gbps"],
                          " / ".join("%.2f" % g for g in m["gbps_rounds"]),
                          retrans[k],
                          _f(m["underlay_avg_bytes"] if across else None,
                             "%.0f"),
                          _f(m["underlay_packets_per_mb"] if across
                             else None, "%.1f"),
                          _f(m["ch1_cpu_s_per_gb"], "%.3f"),
                          _f(m["ch2_cpu_s_per_gb"] if across else None,
                             "%.3f"))))
    if record.get("goals"):
        md += ["", "| goal | measured | verdict |", "|---|---|---|"]
        md += ["| %s | %s | %s |" % (g["goal"], g["measured"], g["verdict"])
               for g in record["goals"]]
    if record.get("fairness_medians"):
        md += ["", "| build | proto | BIG TCP Gbit/s | without Gbit/s | "
               "BIG TCP share | Jain's index |", "|---|---|---|---|---|---|"]
        for f in record["fairness_medians"]:
            total = (f["big_gbps"] or 0) + (f["other_gbps"] or 0)
            md.append("| %s | %s | %.2f | %.2f | %s | %s |" % (
                f["build"], f["proto"], f["big_gbps"], f["other_gbps"],
                _f(f["big_gbps"] / total if total else None, "%.2f"),
                _f(f["jain"], "%.3f")))
    return "\n".join(md) + "\n"

