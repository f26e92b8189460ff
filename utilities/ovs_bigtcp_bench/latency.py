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

"""S7: what a BIG TCP flow costs the other flows on the bridge, in the
userspace datapath.

Four hosts on one switch: A sends a bulk iperf3 flow to B, while C and D
run a sockperf TCP ping-pong (64-byte and 80,000-byte messages, each
echoed).  The switch is the patched userspace bridge, stock Open vSwitch
4.0.0, or the Linux bridge (the anchor).  The latency states (LATENCY)
differ in the bulk flow (none, without BIG TCP, with it) and in where it
goes (an internal port, or a veth that keeps 64 KiB limits, where the
patched bridge resegments it); the bulk flow is paced to one offered load
(--bulk-rate) so that states with and without BIG TCP are compared at the
same load.  The fairness states (FAIRNESS) run two unpaced bulk flows into
one 64 KiB egress, A's with BIG TCP and C's without.

The ping-pong runs over IPv4 only (PROTOS_S7), the fairness flows over
both protocols.  Runs alternate between the states, round by round, as in the other
userspace states; ovs-vswitchd is pinned to CPU 0 and every iperf3 and
sockperf process to CPU 1.  Writes latency.md, latency.json (every run),
latency-s7.svg and .png (the 64-byte round trip's percentiles per
state) and latency.jsonl."""

import dataclasses
import json
import os
import statistics
from typing import Optional

import ovs_bigtcp as ob
from ovs_bigtcp import BIGTCP, NO_BIGTCP

from .common import PROTOS, fmt, now_utc, say, write_verdicts
from .charts import charts
from .report import host_facts
from .userspace import start_switch

# The two message sizes: the smallest that shows queueing, and the
# request and response size of BIG TCP's upstream motivation (netperf
# TCP_RR -r 80000,80000).
SMALL, LARGE = 64, 80000
SIZES = (SMALL, LARGE)
# The default offered load of a paced bulk flow, bits per second: below
# what every switch here carries with and without BIG TCP, so that the
# bulk flow's load is the same in the states that are compared.
BULK_RATE = 3 * 10 ** 9
# The ping-pong's protocols: IPv4 only, as the ping-pong is sockperf, and
# Debian 12's (3.7) has no IPv6 (3.8 added it).  The fairness flows are
# iperf3's, in both.
PROTOS_S7 = ("IPv4",)
# The bytes a bulk flow moves before the ping-pong starts next to it.
BULK_STARTED = 64 << 20
# The fairness flows' second server port (the first is iperf3's 5201).
FAIR_PORT = 5202


@dataclasses.dataclass(frozen=True)
class LatencyState:
    """A state of S7."""

    name: str
    # "stock", "patched" or None (the Linux bridge).
    build: Optional[str]
    # B's port: "internal" (an internal port of br0, or for the Linux
    # bridge a port with A's limits) or "veth" (a port that keeps 64 KiB
    # limits: ovs-b0, or br-b0).
    b: str
    # The GSO limits of the bulk flow's sender A, or None: no bulk flow.
    bulk: Optional[int] = None
    # The GSO and GRO limits of the ping-pong pair's devices and of their
    # switch ports.
    rr: int = NO_BIGTCP
    # The state whose 64-byte p99 this one's is compared with, or None.
    baseline: Optional[str] = None
    # A fairness state: A (BIG TCP) and C (without) both send to B.
    fair: bool = False
    # The patched bridge sends a resegmented packet's outputs in steps,
    # with other ports served between them
    # (other_config:userspace-tso-resegment-steps).
    steps: bool = False

    @property
    def group(self):
        return (self.build, "lbr" if self.build is None else self.b)


def _trio(prefix, build, b, mixed_base=None):
    """The three bulk states of a switch toward B's port B: no bulk, a
    paced bulk flow without BIG TCP (the baseline) and one with it."""
    base = mixed_base or "%s-bulk-64k" % prefix
    return [LatencyState("%s-bulk-64k" % prefix, build, b, bulk=NO_BIGTCP,
                         baseline=base if mixed_base else None),
            LatencyState("%s-bulk-big" % prefix, build, b, bulk=BIGTCP,
                         baseline=base)]


LATENCY = [
    LatencyState("lbr-idle", None, "internal"),
    *_trio("lbr", None, "internal"),
    LatencyState("lbr-mixed-bulk-big", None, "veth", bulk=BIGTCP,
                 baseline="lbr-bulk-64k"),
    LatencyState("lbr-rr-big", None, "internal", rr=BIGTCP),
    LatencyState("stock-idle", "stock", "internal"),
    LatencyState("stock-bulk-64k", "stock", "internal", bulk=NO_BIGTCP),
    LatencyState("patched-idle", "patched", "internal"),
    *_trio("patched", "patched", "internal"),
    LatencyState("patched-rr-big", "patched", "internal", rr=BIGTCP),
    *_trio("patched-mixed", "patched", "veth"),
    LatencyState("patched-mixed-bulk-big-steps", "patched", "veth",
                 bulk=BIGTCP, baseline="patched-mixed-bulk-64k",
                 steps=True),
]
FAIRNESS = [
    LatencyState("fair-lbr", None, "veth", fair=True),
    LatencyState("fair-stock", "stock", "veth", fair=True),
    LatencyState("fair-patched", "patched", "veth", fair=True),
]
STATES = {s.name: s for s in LATENCY + FAIRNESS}
# The order of the groups (one switch and topology each) in a round.
GROUPS = [(None, "lbr"), ("stock", "internal"), ("patched", "internal"),
          ("stock", "veth"), ("patched", "veth")]
# --scenario smoke-S7: one state, IPv4, both message sizes.
SMOKE = "patched-bulk-big"


@dataclasses.dataclass
class LatencyRun:
    """One run: a line of latency.jsonl.  A latency state's run is one
    message size's ping-pong next to its bulk flow (if any); a fairness
    state's run is its two flows."""

    state: str
    proto: str
    round: int
    size: Optional[int]
    rr: Optional[dict]
    # Gbit/s and bytes of the bulk flow(s): A's, and in fairness C's.
    bulk_gbps: Optional[float] = None
    bulk_bytes: Optional[int] = None
    other_gbps: Optional[float] = None
    other_bytes: Optional[int] = None


def jain(values):
    """Jain's fairness index of VALUES: 1 when all are equal, 1/n when
    one takes everything."""
    if not values or not any(values):
        return None
    return sum(values) ** 2 / (len(values) * sum(v * v for v in values))


class LatencyBench:
    """S7's states, run in SESSION (an ovs_bigtcp.Session)."""

    def __init__(self, args, out, session, states):
        self.args = args
        self.out = out
        self.session = session
        self.topo = session.topo
        self.ovs = None
        self.states = states
        two = os.cpu_count() >= 2
        self.cpu_ovs, self.cpu_load = (0, 1) if two else (None, None)

    def start(self, build, b):
        t = self.topo
        if build is None:
            ob.linux_bridge(t)
            for side in ("C", "D"):
                ob.add_bridge_host(t, side, side.lower() + "0")
            return
        self.ovs = start_switch(self.session, build, self.cpu_ovs)
        ob.userspace(t, self.ovs, b=b)
        for side in ("C", "D"):
            ob.add_veth_host(t, self.ovs, side, side.lower() + "0")

    def stop(self):
        self.topo.clean()
        if self.ovs:
            self.session.stop_ovs()
            self.ovs = None

    def configure(self, s):
        """Puts state S in place on its group's topology."""
        t = self.topo
        lbr = s.build is None
        # The hosts and, on the Linux bridge, their bridge ports; Open
        # vSwitch's veth ports take their peers' limits in the root
        # namespace.
        sender = s.bulk or (BIGTCP if s.fair else NO_BIGTCP)
        limits = [("A", "a0", sender),
                  ("C", "c0", NO_BIGTCP if s.fair else s.rr),
                  ("D", "d0", s.rr)]
        # B's internal port on Open vSwitch keeps the limits the bridge
        # gives it.
        if lbr or s.b == "veth":
            limits.append(("B", "b0",
                           NO_BIGTCP if s.b == "veth" else sender))
        for side, dev, size in limits:
            t.link(side, "bigtcp", dev, size)
            t.link("BR" if lbr else None, "bigtcp",
                   ("br-" if lbr else "ovs-") + dev, size)
        if s.build == "patched":
            self.ovs.vsctl("set", "Open_vSwitch", ".",
                           "other_config:userspace-tso-resegment-steps=%s"
                           % ("true" if s.steps else "false"))

    def bulk(self, s, proto, secs, src="A", port=5201, rate=None):
        return ob.Iperf3(self.topo, src, "B", proto, secs, 1,
                         self.cpu_load, rate=rate, port=port)

    def measure(self, s, proto, rnd, size):
        """One latency run of state S: SIZE-byte ping-pong from C to D,
        next to the paced bulk flow if S has one."""
        a = self.args
        flow = None
        if s.bulk:
            flow = self.bulk(s, proto, a.duration + 2,
                             rate=a.bulk_rate).start()
            # The ping-pong starts once the bulk flow has moved
            # BULK_STARTED bytes to B: past its slow start.
            b0 = self.topo.dev_stat("B", "b0", "rx_bytes")
            ob.wait_until(
                lambda: self.topo.dev_stat("B", "b0", "rx_bytes") - b0
                >= BULK_STARTED,
                "the bulk flow A -> B to move %d bytes to b0" % BULK_STARTED)
        rr = ob.Sockperf(self.topo, "C", "D", proto, size, a.duration,
                         self.cpu_load).run()
        res = flow.wait() if flow else None
        rr.pop("text")
        return LatencyRun(state=s.name, proto=proto, round=rnd, size=size,
                          rr=rr, bulk_gbps=res and res["gbps"],
                          bulk_bytes=res and res["bytes"])

    def fairness(self, s, proto, rnd):
        """One fairness run of state S: A's BIG TCP flow and C's flow
        without, both to B, for --fair-duration seconds."""
        secs = self.args.fair_duration
        big = self.bulk(s, proto, secs).start()
        other = self.bulk(s, proto, secs, src="C", port=FAIR_PORT).start()
        r1, r2 = big.wait(), other.wait()
        return LatencyRun(state=s.name, proto=proto, round=rnd, size=None,
                          rr=None, bulk_gbps=r1["gbps"],
                          bulk_bytes=r1["bytes"], other_gbps=r2["gbps"],
                          other_bytes=r2["bytes"])

    def run(self, protos):
        a = self.args
        os.makedirs(self.out, exist_ok=True)
        runs_path = os.path.join(self.out, "latency.jsonl")
        open(runs_path, "w").close()
        records = []
        per = sum(len(PROTOS) if s.fair else len(SIZES) * len(protos)
                  for s in self.states)
        total = per * a.runs
        n = 0
        for rnd in range(1, a.runs + 1):
            for build, topo in GROUPS:
                group = [s for s in self.states
                         if s.group == (build, topo)]
                if not group:
                    continue
                self.start(build, "internal" if topo == "lbr" else topo)
                for s in group:
                    self.configure(s)
                    for proto in (PROTOS if s.fair else protos):
                        if s.fair:
                            rs = [self.fairness(s, proto, rnd)]
                        else:
                            rs = [self.measure(s, proto, rnd, size)
                                  for size in SIZES]
                        for r in rs:
                            n += 1
                            records.append(r)
                            with open(runs_path, "a") as f:
                                f.write(json.dumps(dataclasses.asdict(r))
                                        + "\n")
                            say("[%d/%d] round %d %-22s %-4s %s" % (
                                n, total, rnd, s.name, proto, _line(r)))
                self.stop()
        return records


def _line(r):
    if r.size is None:
        return "%.2f + %.2f Gbit/s" % (r.bulk_gbps, r.other_gbps)
    rr = r.rr
    text = ("%6d B: p50 %s p99 %s p99.9 %s us, %s trans/s"
            % (r.size, fmt(rr["p50_us"], "%.1f"), fmt(rr["p99_us"], "%.1f"),
               fmt(rr["p999_us"], "%.1f"), fmt(rr["tps"], "%.0f")))
    if r.bulk_gbps is not None:
        text += ", bulk %.2f Gbit/s" % r.bulk_gbps
    return text


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(records):
    """{(proto, state, size): {figure: median over the rounds}}; size None
    for the fairness states."""
    keys = {(r.proto, r.state, r.size) for r in records}
    out = {}
    for key in keys:
        rs = [r for r in records if (r.proto, r.state, r.size) == key]
        if key[2] is None:
            big = _median([r.bulk_gbps for r in rs])
            other = _median([r.other_gbps for r in rs])
            total = (big or 0) + (other or 0)
            out[key] = {"big_gbps": big, "other_gbps": other,
                        "big_share": big / total if total else None,
                        "jain": jain([big or 0, other or 0]),
                        "runs": len(rs)}
            continue
        ok = [r for r in rs if r.rr and r.rr["ok"]]
        out[key] = {f: _median([r.rr[f] for r in ok])
                    for f in ("p50_us", "p99_us", "p999_us", "tps")}
        out[key].update(bulk_gbps=_median([r.bulk_gbps for r in rs]),
                        runs=len(rs), parsed=len(ok))
    return out


def _ratio(a, b):
    return a / b if a is not None and b else None


def goals(summary, protos):
    """The goals of S7 as (goal, measured, verdict) rows; a verdict is
    "PASS", "FAIL" or "-" (not measured)."""
    rows = []

    def verdict(ok):
        return "-" if ok is None else "PASS" if ok else "FAIL"

    def p99(proto, state):
        return summary.get((proto, state, SMALL), {}).get("p99_us")

    for proto in PROTOS:
        if proto not in protos:
            rows += _fairness_goal(summary, proto, verdict)
            continue
        for mixed in ("", "mixed-"):
            pat = _ratio(p99(proto, "patched-%sbulk-big" % mixed),
                         p99(proto, "patched-%sbulk-64k" % mixed))
            lbr = _ratio(p99(proto, "lbr-%sbulk-big" % mixed),
                         p99(proto, "lbr-bulk-64k"))
            where = ("B on a 64 KiB veth (resegmented)" if mixed
                     else "B on an internal port")
            rows.append((
                "%s, %s: 64-byte p99 with a BIG TCP bulk flow at most 1.1x "
                "that with a bulk flow without, and no worse than the Linux "
                "bridge's ratio" % (proto, where),
                "%s (Linux bridge %s)" % (fmt(pat, "%.2fx"),
                                          fmt(lbr, "%.2fx")),
                verdict(None if pat is None or lbr is None
                        else pat <= 1.1 and pat <= lbr * 1.05)))
        big = summary.get((proto, "patched-rr-big", LARGE), {}).get("tps")
        off = summary.get((proto, "patched-idle", LARGE), {}).get("tps")
        r = _ratio(big, off)
        rows.append((
            "%s: 80,000-byte transactions/s through the patched bridge with "
            "BIG TCP on the pair at least 1.2x without" % proto,
            "%s (%s against %s)" % (fmt(r, "%.2fx"), fmt(big, "%.0f"),
                                    fmt(off, "%.0f")),
            verdict(None if r is None else r >= 1.2)))
        rows += _fairness_goal(summary, proto, verdict)
    return rows


def _fairness_goal(summary, proto, verdict):
    pat = summary.get((proto, "fair-patched", None), {}).get("jain")
    lbr = summary.get((proto, "fair-lbr", None), {}).get("jain")
    if pat is None and lbr is None:
        return []
    return [("%s: Jain's index of a BIG TCP and a non-BIG flow into one "
             "64 KiB egress at least 0.9 and at least the Linux bridge's"
             % proto,
             "%s (Linux bridge %s)" % (fmt(pat, "%.3f"), fmt(lbr, "%.3f")),
             verdict(None if pat is None or lbr is None
                     else pat >= 0.9 and pat >= lbr - 0.01))]


def report(records, out, args, protos):
    """latency.md, latency.json and its chart (latency-s7.svg, .png)."""
    summary = summarize(records)
    date = now_utc()
    md = ["# ovs-bigtcp S7: latency and fairness next to BIG TCP", "",
          "%s; %s.  %d round(s); ping-pong runs of %d s, paced bulk flows "
          "of %.1f Gbit/s offered, fairness runs of %d s.  Medians over the "
          "rounds." % (date, host_facts(), args.runs, args.duration,
                       args.bulk_rate / 1e9, args.fair_duration), "",
          "## Round-trip time next to a bulk flow", "",
          "sockperf ping-pong over TCP, C to D, round trips in "
          "microseconds; \"bulk\" is A's paced iperf3 flow to B; \"p99 "
          "ratio\" is the 64-byte p99 over that of the state named.", "",
          "| state | proto | bulk | 64 B p50 | p99 | p99.9 | p99 ratio | "
          "80,000 B p50 | p99 | p99.9 | 80,000 B trans/s | bulk Gbit/s |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in LATENCY:
        for proto in protos:
            small = summary.get((proto, s.name, SMALL))
            large = summary.get((proto, s.name, LARGE))
            if not small or not large:
                continue
            base = summary.get((proto, s.baseline, SMALL), {})
            ratio = _ratio(small["p99_us"], base.get("p99_us"))
            bulk = ("-" if not s.bulk else "BIG TCP" if s.bulk == BIGTCP
                    else "64 KiB")
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | "
                      "%s | %s |" % (
                          s.name, proto, bulk,
                          fmt(small["p50_us"], "%.1f"),
                          fmt(small["p99_us"], "%.1f"),
                          fmt(small["p999_us"], "%.1f"),
                          "-" if not s.baseline else fmt(ratio, "%.2fx"),
                          fmt(large["p50_us"], "%.1f"),
                          fmt(large["p99_us"], "%.1f"),
                          fmt(large["p999_us"], "%.1f"),
                          fmt(large["tps"], "%.0f"),
                          fmt(large["bulk_gbps"], "%.2f")))
    fair_rows = [(s, proto, summary.get((proto, s.name, None)))
                 for s in FAIRNESS for proto in PROTOS]
    fair_rows = [r for r in fair_rows if r[2]]
    if fair_rows:
        md += ["", "## Fairness into one 64 KiB egress", "",
               "Two unpaced iperf3 flows to B's port with 64 KiB limits: "
               "A's with BIG TCP, C's without.", "",
               "| state | proto | BIG TCP flow Gbit/s | other flow Gbit/s | "
               "BIG TCP share | Jain's index |", "|---|---|---|---|---|---|"]
        for s, proto, f in fair_rows:
            md.append("| %s | %s | %s | %s | %s | %s |" % (
                s.name, proto, fmt(f["big_gbps"], "%.2f"),
                fmt(f["other_gbps"], "%.2f"), fmt(f["big_share"], "%.2f"),
                fmt(f["jain"], "%.3f")))
    rows = goals(summary, protos)
    md += ["", "## Goals", "", "| goal | measured | verdict |",
           "|---|---|---|"]
    md += ["| %s | %s | %s |" % row for row in rows]
    md.append("")
    with open(os.path.join(out, "latency.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(out, "latency.json"), "w") as f:
        json.dump({"date": date, "rounds": args.runs,
                   "duration_s": args.duration,
                   "bulk_rate": args.bulk_rate,
                   "fair_duration_s": args.fair_duration,
                   "summary": {"%s %s %s" % k: v
                               for k, v in summary.items()},
                   "goals": [{"goal": g, "measured": m, "verdict": v}
                             for g, m, v in rows],
                   "runs": [dataclasses.asdict(r) for r in records]},
                  f, indent=1)
    charts(os.path.join(out, "latency.json"), os.path.join(out, "latency"))
    say("\n".join(md))
    return summary


def judge_smoke(records, out):
    """--scenario smoke-S7: what must hold whatever the timing.  Writes
    OUT/latency-smoke.txt, one line per check and "N passed, N failed";
    returns 1 if a check failed."""
    lines, passed, failed = [], 0, 0
    for size in SIZES:
        rs = [r for r in records if r.size == size]
        r = rs[0] if rs else None
        checks = [
            ("%d-byte ping-pong ran (%s round trips)"
             % (size, r and r.rr["transactions"]),
             r is not None and bool(r.rr["transactions"])),
            ("%d-byte percentiles parsed (p50 %s <= p99 %s <= p99.9 %s us)"
             % (size, r and r.rr["p50_us"], r and r.rr["p99_us"],
                r and r.rr["p999_us"]),
             r is not None and r.rr["ok"]
             and 0 < r.rr["p50_us"] <= r.rr["p99_us"] <= r.rr["p999_us"]),
            ("%d-byte ping-pong lost no message (%s dropped)"
             % (size, r and r.rr["dropped"]),
             r is not None and r.rr["dropped"] == 0),
            ("the bulk flow ran next to the %d-byte ping-pong (%s bytes)"
             % (size, r and r.bulk_bytes),
             r is not None and bool(r.bulk_bytes)),
        ]
        for what, ok in checks:
            lines.append("S7 %s %s: %s" % (SMOKE, what,
                                           "ok" if ok else "FAILED"))
            passed, failed = passed + bool(ok), failed + (not ok)
    return write_verdicts(lines, passed, failed,
                          os.path.join(out, "latency-smoke.txt"))


# K8: the kernel datapath's states, each run with both modules (the
# image's stock openvswitch.ko and ovs-bigtcp's) alternating: A's bulk
# flow to B's veth with the default 64 KiB limits, without BIG TCP and with
# it (which stock segments to MSS and ovs-bigtcp resegments), next to the
# ping-pong from C to D.
K8_STATES = (("idle", None), ("bulk-64k", NO_BIGTCP), ("bulk-big", BIGTCP))
K8_MODULES = ("stock", "ovs-bigtcp")
# The offered load of K8's bulk flow: what the TCG guest carries with and
# without BIG TCP.
K8_BULK_RATE = 5 * 10 ** 8


def kernel_guest(g, path):
    """K8, inside the test VM: G is the kernel.KernelGuest; each run a line
    of PATH (kernel.jsonl) with "scenario": "K8"."""
    a, t = g.args, g.topo
    for rnd in range(1, a.runs + 1):
        for state, bulk in K8_STATES:
            for mod in K8_MODULES:
                g.load(mod)
                ob.kernel_dp(t, g.dpctl)
                ob.kernel_dp_pair(t, g.dpctl)
                t.set_gso("A", "a0", bulk or NO_BIGTCP)
                for size in SIZES:
                    flow = None
                    if bulk:
                        flow = ob.Iperf3(t, "A", "B", "IPv4",
                                         a.duration + 2, 1,
                                         rate=K8_BULK_RATE).start()
                        b0 = t.dev_stat("B", "b0", "rx_bytes")
                        ob.wait_until(
                            lambda: t.dev_stat("B", "b0", "rx_bytes") - b0
                            >= BULK_STARTED // 8,
                            "the bulk flow A -> B to move %d bytes to b0"
                            % (BULK_STARTED // 8), timeout=30)
                    rr = ob.Sockperf(t, "C", "D", "IPv4", size,
                                     a.duration).run()
                    res = flow.wait() if flow else None
                    rr.pop("text")
                    show = ob.run([g.dpctl, "show", "-s", "kbench"])
                    run = LatencyRun(
                        state="%s-%s" % (mod, state), proto="IPv4",
                        round=rnd, size=size, rr=rr,
                        bulk_gbps=res and res["gbps"],
                        bulk_bytes=res and res["bytes"])
                    gso = ob.dp_line(show, "gso")
                    with open(path, "a") as f:
                        f.write(json.dumps(dict(
                            dataclasses.asdict(run), scenario="K8",
                            module=mod, gso=gso,
                            kernel=os.uname().release)) + "\n")
                    say("kbench: round %d K8 %s %s: %s (%s)" % (
                        rnd, mod, state, _line(run),
                        " ".join("%s:%d" % kv for kv in gso.items())))
                ob.kernel_dp_clean(t, g.dpctl)


def kernel_report(runs):
    """kernel.md's K8 section from K8's records of kernel.jsonl."""
    fields = [f.name for f in dataclasses.fields(LatencyRun)]
    records = [LatencyRun(**{k: r[k] for k in fields if k in r})
               for r in runs]
    summary = summarize(records)
    md = ["", "## K8: round-trip time next to a bulk flow (kernel "
          "datapath)", "",
          "sockperf ping-pong over TCP from C to D through the datapath, "
          "round trips in microseconds (under TCG: compare, do not read "
          "as figures), next to A's bulk flow to B's 64 KiB veth paced to "
          "%.1f Gbit/s; \"p99 ratio\" is the 64-byte p99 over the same "
          "module's bulk-64k." % (K8_BULK_RATE / 1e9), "",
          "| module | state | 64 B p50 | p99 | p99.9 | p99 ratio | "
          "80,000 B p99 | 80,000 B trans/s | bulk Gbit/s |",
          "|---|---|---|---|---|---|---|---|---|"]
    goals_md = []
    for mod in K8_MODULES:
        base = summary.get(("IPv4", "%s-bulk-64k" % mod, SMALL), {})
        for state, _ in K8_STATES:
            small = summary.get(("IPv4", "%s-%s" % (mod, state), SMALL))
            large = summary.get(("IPv4", "%s-%s" % (mod, state), LARGE))
            if not small or not large:
                continue
            ratio = _ratio(small["p99_us"], base.get("p99_us"))
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                mod, state, fmt(small["p50_us"], "%.0f"),
                fmt(small["p99_us"], "%.0f"), fmt(small["p999_us"], "%.0f"),
                fmt(ratio, "%.2fx") if state == "bulk-big" else "-",
                fmt(large["p99_us"], "%.0f"), fmt(large["tps"], "%.0f"),
                fmt(small["bulk_gbps"], "%.2f")))
            if state == "bulk-big" and mod == "ovs-bigtcp":
                goals_md.append(
                    "Goal: 64-byte p99 with a BIG TCP bulk flow at most 1.1x "
                    "that with a bulk flow without, through ovs-bigtcp's "
                    "module: %s (%s)." % (
                        "-" if ratio is None else
                        "PASS" if ratio <= 1.1 else "FAIL",
                        fmt(ratio, "%.2fx")))
    return "\n".join(md + [""] + goals_md) + "\n"


def run(args, out):
    """--scenario S7 or smoke-S7, results in OUT.  Returns 1 where
    smoke-S7 found a fault, else 0."""
    smoke = args.scenario == "smoke-S7"
    if smoke:
        states = [STATES[SMOKE]]
    elif args.states:
        names = args.states.split(",")
        states = [s for s in LATENCY + FAIRNESS if s.name in names]
    else:
        states = LATENCY + FAIRNESS
    protos = PROTOS_S7
    with ob.Session("ovs-bigtcp-bench") as session:
        if smoke:
            ob.build("ovs")
        else:
            ob.build("ovs", "ovs-stock")
        records = LatencyBench(args, out, session, states).run(protos)
        report(records, out, args, protos)
        status = judge_smoke(records, out) if smoke else 0
        session.done()
    return status
