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

"""--kernel: the kernel datapath, in the test VM.  The host
(ovs-bigtcp-bench --kernel, host()) boots the VM with datapath-ext/vm-run
and reads the guest's results; the guest (ovs-bigtcp-bench --guest,
guest()) loads the modules and runs the scenarios of
states.KERNEL_SCENARIOS.  The VM shares the project's top directory, this
package with it."""

import json
import os
import subprocess
import sys
import tempfile

import ovs_bigtcp as ob

from . import latency
from .charts import charts
from .common import PROTOS, ports_tso, say
from .perf import perf_record_start, perf_stop, profile_section
from .report import kernel_report
from .states import KERNEL_SCENARIOS


def host(args, out):
    """Boots the VM, which runs the scenarios that ARGS choose; kernel.md
    and kernel.jsonl in OUT."""
    line = getattr(args, "kernel_line", None)
    vm_args = []
    if line:
        # Another Linux line than the pin: its modules, in a guest booted
        # with Debian unstable's newest kernel of that line.
        ob.build("ovs", "kmod", "KERNEL_LINE=" + line)
        root = subprocess.run(
            [os.path.join(ob.TOP, "datapath-ext", "fetch-guest-linux"),
             os.environ.get("OVS_BIGTCP_DEPS", os.path.join(ob.TOP, "_deps")),
             line], stdout=subprocess.PIPE, text=True, check=True)
        vm_args = ["--linux", root.stdout.strip(),
                   "--kmod", os.path.join(ob.TOP, "_build", "kmod-" + line)]
    else:
        ob.build("ovs", "kmod")
    os.makedirs(out, exist_ok=True)
    out = os.path.realpath(out)
    if not out.startswith(ob.TOP + "/"):
        sys.exit("ovs-bigtcp-bench: --output must be inside %s (shared "
                 "with the VM)" % ob.TOP)
    jsonl = os.path.join(out, "kernel.jsonl")
    if os.path.exists(jsonl):
        os.unlink(jsonl)
    scenarios = ",".join(args.kernel_scenarios)
    say("ovs-bigtcp-bench: %d round(s) of %d s, scenarios %s (stock and "
        "ovs-bigtcp modules, or K3's upcall modes, alternating), in one VM "
        "run" % (args.runs, args.duration, scenarios))
    guest = ("python3 utilities/ovs-bigtcp-bench --guest %s --runs %d "
             "--duration %d --scenario %s%s"
             % (jsonl, args.runs, args.duration, scenarios,
                " --profile" if args.profile else ""))
    rounds = args.runs + (1 if args.profile else 0)
    # A profiled run also waits for "perf report" under TCG.
    per_round = sum(2 * len(latency.SIZES) * len(latency.K8_STATES)
                    if sc == "K8" else 2 * len(PROTOS)
                    for sc in args.kernel_scenarios)
    limit = rounds * per_round * (args.duration + 40) + (
        8 * 300 if args.profile else 0) + 300
    vm = subprocess.Popen([os.path.join(ob.TOP, "datapath-ext", "vm-run"),
                           "--timeout", str(limit)] + vm_args + ["--", guest],
                          stdout=subprocess.PIPE, text=True)
    for line in vm.stdout:
        if line.startswith("kbench:"):
            say(line.rstrip())
    rc = vm.wait()
    if not os.path.exists(jsonl) or not os.path.getsize(jsonl):
        sys.exit("ovs-bigtcp-bench: no results from the VM (vm-run exit %d)"
                 % rc)
    with open(jsonl) as f:
        runs = [json.loads(l) for l in f if l.strip()]
    k8 = [r for r in runs if r["scenario"] == "K8"]
    runs = [r for r in runs if r["scenario"] != "K8"]
    md = kernel_report(runs, args.runs, args.duration) if runs else ""
    if k8:
        md += latency.kernel_report(k8)
    with open(os.path.join(out, "kernel.md"), "w") as f:
        f.write(md)
    charts(jsonl, os.path.join(out, "kernel"))
    say(md + "ovs-bigtcp-bench: results in %s" % out)
    if args.profile:
        say("ovs-bigtcp-bench: profiles in %s"
            % os.path.join(out, "profile.md"))
    if rc:
        sys.exit("ovs-bigtcp-bench: the guest exited with %d" % rc)


class KernelGuest:
    """The kernel datapath runs, inside the test VM only."""

    def __init__(self, args, session):
        self.args = args
        self.session = session
        self.tree = os.path.join(ob.TOP, "_build", "ovs")
        self.dpctl = os.path.join(self.tree, "utilities", "ovs-dpctl")
        self.topo = session.topo
        self.ovs = None

    def load(self, module):
        """Loads the image's stock openvswitch.ko or ovs-bigtcp's."""
        ob.run(["rmmod", "openvswitch"], check=False)
        if module == "stock":
            # What the module depends on, as it lists it (libcrc32c on
            # 6.12, gone in 7.x).
            ob.run(["sh", "-c", "modprobe -a $(modinfo -F depends "
                    "\"$OVS_BIGTCP_STOCK_KMOD/openvswitch.ko\" | tr , ' ')"])
            ob.run(["insmod", os.path.join(os.environ[
                "OVS_BIGTCP_STOCK_KMOD"], "openvswitch.ko")])
        else:
            ob.run(["modprobe", "openvswitch"])

    def fast_path(self, k, proto, module, profile=None):
        """One run of scenario K (a states.KernelScenario); with PROFILE
        (a perf.data path), under "perf record -a -g -e cpu-clock"."""
        self.load(module)
        if k.b == "vxlan":
            ob.kernel_tunnel_dp(self.topo, self.dpctl)
        else:
            ob.kernel_dp(self.topo, self.dpctl, b=k.b, b_gso=k.b_gso)
        src, dst = k.flow
        dev = dst.lower() + "0"
        rx0 = self.topo.dev_stat(dst, dev, "rx_packets")
        perf = None
        if profile:
            perf = perf_record_start(["record", "-q", "-a", "-g", "-e",
                                      "cpu-clock"], profile,
                                     self.args.duration)
        res = ob.Iperf3(self.topo, src, dst, proto, self.args.duration,
                        length=k.write).run()
        perf_stop(perf)
        rx = self.topo.dev_stat(dst, dev, "rx_packets") - rx0
        show = ob.run([self.dpctl, "show", "-s", "kbench"])
        gso = ob.dp_line(show, "gso")
        lim = self.topo.limits("B", "b0").get("gso_max_size")
        ob.kernel_dp_clean(self.topo, self.dpctl)
        return dict(res, gso=gso, b0_gso_max_size=lim, rx_packets=rx,
                    ports_tso=ports_tso(show), kernel=os.uname().release)

    def upcalls(self):
        """The upcalls that A's packets took so far: the port's upcalls
        (one a packet), less the GSO packets among them, plus what those
        became."""
        port = self.ovs.ports()["ovs-a0"].get("upcall_packets", 0)
        g = self.ovs.dp_counters("gso-upcall")
        return (port - g.get("packets", 0) - g.get("segmented", 0)
                + g.get("upcalls", 0) + g.get("segments", 0))

    def slow_path(self, proto, mode):
        self.load("ovs-bigtcp")
        self.ovs = self.session.start_ovs(self.tree, "%s-%s" % (proto, mode),
                                          system=True)
        ob.kernel_slow_path(self.topo, self.ovs)
        on = mode == "gso-upcall"
        self.ovs.vsctl("set", "Open_vSwitch", ".",
                       "other_config:kernel-gso-upcall=%s"
                       % ("true" if on else "false"))
        # The datapath's feature as dpif-netlink last set it (a fresh
        # ovs-vswitchd's log: one line a change).
        state = "enabled" if on else "disabled"
        ob.wait_until(lambda: (self.ovs.log_lines(
            r"ovs-system: GSO-aware upcalls (enabled|disabled)")
            or [""])[-1].rstrip().endswith(state),
            "ovs-vswitchd to have the kernel datapath's GSO-aware upcalls "
            + state)
        u0 = self.upcalls()
        res = ob.Iperf3(self.topo, "A", "B", proto,
                        self.args.duration).run()
        u1 = self.upcalls()
        gso = self.ovs.dp_counters("gso-upcall")
        self.ovs.vsctl("del-br", "br0")
        self.stop()
        return dict(res, gso=gso, upcalls=u1 - u0)

    def stop(self):
        self.topo.clean()
        if self.ovs:
            self.session.stop_ovs()
            self.ovs = None
        ob.run([self.dpctl, "del-dp", "kbench"], check=False)

    def profile(self, path):
        """--profile: one more round of the fast-path scenarios, not
        counted, each run under perf record; profile.md next to PATH gets
        each run's top symbols."""
        md = os.path.join(os.path.dirname(path), "profile.md")
        with open(md, "w") as f:
            f.write("# Kernel datapath profiles (TCG VM, perf record -a -g "
                    "-e cpu-clock, whole machine)\n\n")
        for sc in self.args.kernel_scenarios:
            k = KERNEL_SCENARIOS.get(sc)
            if k is None or k.slow_path:
                continue
            for proto in PROTOS:
                for mod in k.modules:
                    # On the guest's tmpfs: perf writing to the 9p share
                    # took most of the samples.
                    data = os.path.join(tempfile.gettempdir(),
                                        "kbench-%s-%s-%s.data"
                                        % (sc, proto, mod))
                    r = self.fast_path(k, proto, mod, profile=data)
                    text = profile_section(data, "%s %s" % (sc, mod), proto,
                                           r, top=25)
                    os.unlink(data)
                    with open(md, "a") as f:
                        f.write(text)
                    say("kbench: profile %s %s %s: %.3f Gbit/s (%s)"
                        % (sc, proto, mod, r["gbps"],
                           " ".join("%s:%d" % kv for kv in r["gso"].items())))

    def run(self, path):
        """The rounds, each run a line of PATH (kernel.jsonl)."""
        a = self.args
        if "K8" in a.kernel_scenarios:
            latency.kernel_guest(self, path)
        for rnd in range(1, a.runs + 1):
            for sc in a.kernel_scenarios:
                if sc == "K8":
                    continue
                k = KERNEL_SCENARIOS[sc]
                for proto in PROTOS:
                    for mod in k.modules:
                        if k.slow_path:
                            r = self.slow_path(proto, mod)
                        else:
                            r = self.fast_path(k, proto, mod)
                        del r["json"]
                        r.update(round=rnd, scenario=sc, proto=proto,
                                 module=mod)
                        with open(path, "a") as f:
                            f.write(json.dumps(r) + "\n")
                        extra = (", %d upcalls for %.1f MB"
                                 % (r["upcalls"], r["bytes"] / 1e6)
                                 if k.slow_path else "")
                        ports = "".join(
                            "; %s %s" % (port, " ".join(
                                "%s:%d" % kv for kv in c.items()))
                            for port, c in r.get("ports_tso", {}).items()
                            if any(c.values()))
                        say("kbench: round %d %s %s %s: %.3f Gbit/s%s (%s%s)"
                            % (rnd, sc, proto, mod, r["gbps"], extra,
                               " ".join("%s:%d" % kv
                                        for kv in r["gso"].items()), ports))
        if a.profile:
            self.profile(path)
        ob.run(["rmmod", "openvswitch"], check=False)


def guest(args):
    """Inside the test VM: the runs that ARGS choose, into ARGS.guest (the
    host's kernel.jsonl)."""
    if not os.environ.get("OVS_BIGTCP_IN_VM"):
        sys.exit("ovs-bigtcp-bench: --guest runs inside the test VM only")
    with ob.Session("kbench") as session:
        g = KernelGuest(args, session)
        try:
            g.run(args.guest)
        finally:
            g.stop()
        session.done()
