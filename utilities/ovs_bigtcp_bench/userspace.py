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

"""The userspace datapath: one iperf3 TCP flow per run from netns A
through a userspace (netdev) bridge, or an anchor without Open vSwitch,
to netns B, in the states of states.STATES."""

import dataclasses
import json
import os
import shutil
import time

import ovs_bigtcp as ob

from .common import PROTOS, say
from .perf import (PERF_EVENTS, perf_counters, perf_record_start, perf_start,
                   perf_stop, perf_usable, profile_section)
from . import smoke
from .report import Run, report
from .smoke import SMOKE_STATES
from .states import GROUPS, NO_TSO, STATES


def start_switch(session, build, cpu):
    """Starts BUILD's ovs-vswitchd ("stock" or "patched") in SESSION, its
    threads pinned to CPU if not None; returns its ovs_bigtcp.Ovs."""
    tree = os.path.join(ob.TOP, "_build",
                        "ovs-stock" if build == "stock" else "ovs")
    ovs = session.start_ovs(tree, build)
    if cpu is not None:
        ob.run(["taskset", "-a", "-p", "-c", cpu, ovs.pid()])
    return ovs


class UserspaceBench:
    """The userspace states, run in SESSION (an ovs_bigtcp.Session)."""

    def __init__(self, args, out, session):
        self.args = args
        self.out = out
        self.session = session
        self.work = session.work
        self.topo = session.topo
        self.ovs = None
        self.perf_ok = perf_usable()
        two = os.cpu_count() >= 2
        self.cpu_ovs, self.cpu_iperf = (0, 1) if two else (None, None)
        want = args.scenario
        self.states = [s for s in STATES if want in ("all", s.scenario)
                       or (want == "A" and s.scenario.startswith("A"))
                       or (want == "smoke" and s in SMOKE_STATES)]

    def start(self, build, topo):
        if topo == "direct":
            ob.direct(self.topo)
            return
        if topo == "lbr":
            ob.linux_bridge(self.topo)
            return
        self.ovs = start_switch(self.session, build, self.cpu_ovs)
        ob.userspace(self.topo, self.ovs, b=topo)

    def stop(self):
        self.topo.clean()
        if self.ovs:
            self.session.stop_ovs()
            shutil.rmtree(self.ovs.work, ignore_errors=True)
            self.ovs = None

    def configure(self, s):
        """Puts state S (a states.State) in place on its group's
        topology."""
        t = self.topo
        if s.sender is NO_TSO:
            ob.run(["ethtool", "-K", "a0", "tso", "off", "gso", "off"],
                   ns=t.ns("A"))
        else:
            t.set_gso("A", "a0", s.sender)
        if s.topo in ("direct", "lbr"):
            t.set_gro("B", "b0", s.b0_gro)
        if s.topo == "lbr":
            t.link("BR", "bigtcp", "br-a0", s.sender)
            t.link("BR", "bigtcp", "br-b0", s.b0_gro)
        if s.build == "patched":
            self.ovs.vsctl("set", "Open_vSwitch", ".",
                           "other_config:userspace-tso-resegment=%s"
                           % str(s.reseg).lower())
            if s.topo == "internal" and s.tso_max_size is None:
                self.ovs.vsctl("remove", "Interface", "b0", "options",
                               "tso-max-size")
            elif s.topo == "internal":
                self.ovs.vsctl("set", "Interface", "b0",
                               "options:tso-max-size=%d" % s.tso_max_size)
            if s.scenario == "S4":
                self.ovs.vsctl("set", "Interface", "ovs-a0",
                               "options:gro-max-size=%d" % (s.gro or 0),
                               "options:gro-keep-segments=%s"
                               % str(s.keep).lower())

    def counters(self):
        """What a run's record is the difference of."""
        try:
            drops = self.topo.dev_stat("B", "b0", "rx_dropped")
        except ob.Error:
            drops = None
        return {"cpu": self.ovs.cpu_seconds() if self.ovs else None,
                "drops": drops, "stat": ob.proc_stat_idle(),
                "dp_packets": self.dp_packets()}

    def dp_packets(self):
        """The packets that the userspace datapath has received, after
        GRO, or None without ovs-vswitchd."""
        if not self.ovs:
            return None
        n = 0
        for line in self.ovs.appctl("dpif-netdev/pmd-stats-show") \
                .splitlines():
            f = line.split(":")
            if f[0].strip() == "Rx packets":
                n += int(f[1].split()[0])
        return n

    def out_port(self, s):
        """The Open vSwitch port toward B in state S."""
        return "b0" if s.topo == "internal" else "ovs-b0"

    def measure(self, s, proto, rnd):
        """One counted run of state S: its Run."""
        a = self.args
        path0 = None
        if s.build == "patched":
            path0 = ob.settled_path_counters(self.ovs, self.topo,
                                             self.out_port(s))
        flow = ob.Iperf3(self.topo, "A", "B", proto, a.duration, a.omit,
                         self.cpu_iperf).start()
        # The counters start once iperf3's omitted seconds are over: the
        # first seconds of a run (slow start, the receive queues' buffer
        # pools filling up) are not steady state.
        time.sleep(a.omit)
        c0 = self.counters()
        perf, perf_out = None, os.path.join(self.work, "perf.txt")
        if os.path.exists(perf_out):
            os.unlink(perf_out)
        if self.perf_ok and self.ovs:
            perf = perf_start(["stat", "-x,", "-e", PERF_EVENTS, "-p",
                               str(self.ovs.pid())], perf_out, a.duration)
        res = flow.wait()
        perf_stop(perf)
        c1 = self.counters()
        path = None
        if path0:
            path = ob.path_accounting(path0, ob.settled_path_counters(
                self.ovs, self.topo, self.out_port(s)))
        pc = perf_counters(perf_out)
        idle = None
        if c1["stat"][1] > c0["stat"][1]:
            idle = (100.0 * (c1["stat"][0] - c0["stat"][0])
                    / (c1["stat"][1] - c0["stat"][1]))

        def diff(key):
            if c0[key] is None or c1[key] is None:
                return None
            return c1[key] - c0[key]

        def count(event):
            return None if event not in pc else int(pc[event])
        return Run(scenario=s.scenario, state=s.name, proto=proto,
                   round=rnd, gbps=res["gbps"], bytes=res["bytes"],
                   retransmits=res["retransmits"],
                   vswitchd_cpu_s=diff("cpu"),
                   page_faults=count("page-faults"),
                   context_switches=count("context-switches"),
                   task_clock_ms=pc.get("task-clock"),
                   idle_pct=idle, rx_dropped_b=diff("drops"),
                   dp_pps=(None if diff("dp_packets") is None
                           else diff("dp_packets") / a.duration),
                   path=path)

    def profile(self, s, proto):
        """One run under "perf record -a -g -e cpu-clock": a Markdown
        section for profile.md."""
        a = self.args
        data = os.path.join(self.out, "profile", "%s-%s.data"
                            % (s.name, proto))
        perf = perf_record_start(["record", "-q", "-a", "-g", "-e",
                                  "cpu-clock"],
                                 data, a.duration + a.omit)
        time.sleep(0.5)
        res = ob.Iperf3(self.topo, "A", "B", proto, a.duration, a.omit,
                        self.cpu_iperf).run()
        perf_stop(perf)
        text = profile_section(data, s.name, proto, res)
        os.unlink(data)
        return text

    def run(self):
        a = self.args
        if not os.path.isdir(self.out):
            os.makedirs(self.out)
        say("ovs-bigtcp-bench: %s" % (
            "counting ovs-vswitchd's page faults, context switches and "
            "task-clock with perf stat" if self.perf_ok else
            "perf stat not usable; no page faults, context switches or "
            "task-clock"))
        rounds = list(range(1, a.runs + 1))
        if a.profile:
            rounds.append("profile")
            os.makedirs(os.path.join(self.out, "profile"), exist_ok=True)
            open(os.path.join(self.out, "profile.md"), "w").close()
        per_round = len(self.states) * len(PROTOS)
        total = per_round * len(rounds)
        say("ovs-bigtcp-bench: %d round(s) x %d runs of %d s, results in %s"
            % (a.runs, per_round, a.duration, self.out))
        records, n = [], 0
        runs_path = os.path.join(self.out, "runs.jsonl")
        open(runs_path, "w").close()
        for rnd in rounds:
            for sc, build, topo in GROUPS:
                group = [s for s in self.states
                         if s.group == (sc, build, topo)]
                if not group:
                    continue
                self.start(build, topo)
                for s in group:
                    self.configure(s)
                    for proto in PROTOS:
                        n += 1
                        if rnd == "profile":
                            with open(os.path.join(self.out, "profile.md"),
                                      "a") as f:
                                f.write(self.profile(s, proto))
                            say("[%d/%d] profile %-20s %-4s"
                                % (n, total, s.name, proto))
                            continue
                        r = self.measure(s, proto, rnd)
                        records.append(r)
                        with open(runs_path, "a") as f:
                            f.write(json.dumps(dataclasses.asdict(r)) + "\n")
                        say("[%d/%d] round %d %-20s %-4s %8.3f Gbit/s"
                            % (n, total, rnd, s.name, proto, r.gbps))
                self.stop()
        report(records, self.out, a.runs, a.duration)
        return records


def run(args, out):
    """The userspace states that ARGS choose, their results in OUT.
    Returns 1 where --smoke found a fault, else 0."""
    status = 0
    with ob.Session("ovs-bigtcp-bench") as session:
        if args.scenario == "smoke":
            ob.build("ovs")
        elif args.scenario != "A":
            ob.build("ovs", "ovs-stock")
        records = UserspaceBench(args, out, session).run()
        if args.scenario == "smoke":
            status = smoke.judge(records, out)
        session.done()
    return status
