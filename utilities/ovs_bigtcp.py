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

"""What ovs-bigtcp-demo, ovs-bigtcp-soak and ovs-bigtcp-bench share.

A private Open vSwitch started from a build tree (Ovs), the network
namespaces and links that traffic runs through (Topology and its builders)
and one iperf3 TCP flow between two namespaces (Iperf3).  The benchmark
uses the same code on the host and, for the kernel datapath, inside the
test VM.  Python 3 standard library only.

The namespaces are called PREFIX-a, PREFIX-b, PREFIX-c (for a third host)
and PREFIX-br (a Linux bridge); the host on side N has 10.0.0.N and
fd00::N (A is 1, B 2, C 3).  Every topology:

    userspace():   netns A: a0 (veth) -> ovs-a0 [br0, netdev] b0 :netns B
                   where b0 is an internal port (a tap) or, with b="veth",
                   a veth whose peer ovs-b0 is the bridge's port;
    direct():      netns A: a0 <-- one veth pair --> b0 :netns B
    linux_bridge(): a0 -- br-a0 [br-bigtcp, netns BR] br-b0 -- b0
    kernel_dp():   as userspace(), on a kernel datapath "kbench" whose
                   flows ovs-dpctl installs (no ovs-vswitchd);
    kernel_slow_path(): as userspace() with b="veth", on the kernel
                   datapath of an ovs-vswitchd, with flows it cannot hand
                   to the datapath (every packet goes to userspace).
"""

import importlib.machinery
import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = os.path.join(TOP, "utilities", "ovs-bigtcp-link")



def _link_tool():
    """ovs-bigtcp-link as a module (it stays one file, for the packages)."""
    loader = importlib.machinery.SourceFileLoader("ovs_bigtcp_link", LINK)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


# GSO limits: TSO without BIG TCP, and BIG TCP (the kernel's GSO_MAX_SIZE,
# defined by ovs-bigtcp-link).
NO_BIGTCP = 65536
BIGTCP = _link_tool().GSO_MAX_SIZE

# The IPv6 TSO limit of a system port where the kernel takes IPv6 BIG TCP
# from AF_PACKET in neither framing: the largest frame whose IPv6 payload
# length holds its size (NETDEV_LINUX_IPV6_PLAIN_MAX_FRAME).
IPV6_PLAIN_MAX_FRAME = 14 + 40 + 65535

SIDES = {"A": 1, "B": 2, "C": 3, "D": 4}


class Error(Exception):
    pass


def run(args, ns=None, check=True, timeout=60, env=None):
    """Runs ARGS (in netns NS) and returns its standard output."""
    if ns:
        args = ["ip", "netns", "exec", ns] + list(args)
    try:
        p = subprocess.run([str(a) for a in args], capture_output=True,
                           text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise Error("%s: timed out after %d s"
                    % (" ".join(str(a) for a in args), timeout))
    if check and p.returncode:
        raise Error("%s: exit %d: %s" % (" ".join(str(a) for a in args),
                                         p.returncode, p.stderr.strip()))
    return p.stdout


def wait_until(cond, what, timeout=10, interval=0.1):
    """Calls COND until it returns something true, and returns that.
    Raises Error naming WHAT, the condition waited for, when TIMEOUT
    seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        result = cond()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise Error("waited %g s for %s: it did not come"
                        % (timeout, what))
        time.sleep(interval)


def wait_listening(ns, port, server, what):
    """Waits until a TCP socket listens on PORT in netns NS, or the
    process SERVER (a Popen) has exited, which its caller reports."""
    wait_until(lambda: server.poll() is not None
               or run(["ss", "-Hltn", "sport = :%d" % port], ns=ns).strip(),
               "%s to listen on port %d in %s" % (what, port, ns),
               timeout=30)


def wait_until_still(read, what, still=0.5, timeout=15, key=None):
    """Calls READ until what it returns (or KEY of it) has not changed for
    STILL seconds, and returns that.  Raises Error naming WHAT when
    TIMEOUT seconds pass first."""
    state = {"last": None, "since": 0.0}
    key = key or (lambda value: value)

    def quiet():
        value = read()
        last = state["last"]
        if last is None or key(last) != key(value):
            state["last"], state["since"] = value, time.monotonic()
            return None
        return value if time.monotonic() - state["since"] >= still else None
    return wait_until(quiet, what, timeout=timeout)


def v6_afpacket_framing():
    """How the running kernel delivers an IPv6 BIG TCP packet written to an
    AF_PACKET socket ("jumbo option", "payload length 0" or "none"), asked
    without Open vSwitch by tests/bigtcp-v6-afpacket.py in a network
    namespace of its own."""
    ns = "ovs-bigtcp-v6afp-%d" % os.getpid()
    run(["ip", "netns", "add", ns])
    try:
        run(["ip", "link", "set", "lo", "up"], ns=ns)
        return run([sys.executable, os.path.join(TOP, "tests",
                                                 "bigtcp-v6-afpacket.py")],
                   ns=ns).strip()
    finally:
        run(["ip", "netns", "del", ns], check=False)


def build(*targets):
    """Builds TARGETS (ovs, ovs-stock, kmod) with ovs-bigtcp-build, which
    does nothing for what is already built."""
    if subprocess.run([os.path.join(TOP, "utilities", "ovs-bigtcp-build")]
                      + list(targets)).returncode:
        raise Error("ovs-bigtcp-build %s failed" % " ".join(targets))


def kill(pid, sig=signal.SIGTERM):
    """Sends SIG to PID, if there is such a process."""
    if pid:
        try:
            os.kill(int(pid), sig)
        except (ProcessLookupError, ValueError):
            pass


def proc_stat_idle():
    """(idle + iowait, total) jiffies of the whole machine so far, from the
    aggregate "cpu" line of /proc/stat (guest time is in user already)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    return fields[3] + fields[4], sum(fields)


class Ovs:
    """A private ovsdb-server and ovs-vswitchd from the build tree TREE,
    with all their files in WORK.  Never touches a system Open vSwitch.
    With system=False (the default), ovs-vswitchd runs the userspace
    datapath only (--disable-system) with userspace TSO on.  With NS, both
    daemons run in that network namespace (a chassis of its own)."""

    def __init__(self, tree, work, system=False, ns=None):
        self.tree = tree
        self.work = work
        self.system = system
        self.ns = ns
        self.env = dict(os.environ)
        self.env["PATH"] = ":".join([os.path.join(tree, d) for d in
                                     ("utilities", "vswitchd", "ovsdb")]
                                    + [os.environ.get("PATH", "")])
        for var in ("OVS_RUNDIR", "OVS_LOGDIR", "OVS_DBDIR",
                    "OVS_SYSCONFDIR"):
            self.env[var] = work
        self.env["OVS_PKGDATADIR"] = tree
        self.log = os.path.join(work, "ovs-vswitchd.log")

    def cmd(self, *args, check=True, timeout=60):
        return run(args, ns=self.ns, check=check, timeout=timeout,
                   env=self.env)

    def start(self):
        os.makedirs(self.work, exist_ok=True)
        w = self.work
        # A fresh database, also where an earlier start() in the same
        # folder left one (the kernel benchmark's second round).
        try:
            os.unlink(w + "/conf.db")
        except FileNotFoundError:
            pass
        self.cmd("ovsdb-tool", "create", w + "/conf.db",
                 self.tree + "/vswitchd/vswitch.ovsschema")
        self.cmd("ovsdb-server", "--detach", "--no-chdir", "--pidfile",
                 "-vconsole:off", "--log-file=%s/ovsdb-server.log" % w,
                 "--remote=punix:%s/db.sock" % w, w + "/conf.db")
        self.vsctl("--no-wait", "init")
        if not self.system:
            self.vsctl("--no-wait", "set", "Open_vSwitch", ".",
                       "other_config:userspace-tso-enable=true")
        self.cmd("ovs-vswitchd", "--detach", "--no-chdir", "--pidfile",
                 "-vconsole:off", "--log-file=" + self.log,
                 *([] if self.system else ["--disable-system"]))
        return self

    def stop(self):
        """Stops what start() started, if it is running."""
        pid = self.pid()
        if pid:
            try:
                self.cmd("ovs-appctl", "-t", "ovs-vswitchd", "exit",
                         "--cleanup", timeout=30)
            except Error:
                kill(pid)
        kill(self.pid("ovsdb-server"))
        for d in ("ovs-vswitchd", "ovsdb-server"):
            try:
                os.unlink(os.path.join(self.work, d + ".pid"))
            except FileNotFoundError:
                pass

    def pid(self, daemon="ovs-vswitchd"):
        """The daemon's process ID, or None if it is not running."""
        try:
            with open(os.path.join(self.work, daemon + ".pid")) as f:
                return int(f.read())
        except (OSError, ValueError):
            return None

    def vsctl(self, *args, check=True):
        return self.cmd("ovs-vsctl", *args, check=check)

    def ofctl(self, *args):
        return self.cmd("ovs-ofctl", *args)

    def appctl(self, *args, check=True):
        return self.cmd("ovs-appctl", *args, check=check)

    def version(self):
        return self.cmd("ovs-vswitchd", "--version").splitlines()[0]

    def has_command(self, name):
        return name in self.appctl("list-commands")

    def coverage(self, counter):
        return int(self.appctl("coverage/read-counter", counter) or 0)

    def cpu_seconds(self):
        """CPU seconds (user + system) that ovs-vswitchd has used."""
        with open("/proc/%d/stat" % self.pid()) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open("/proc/%d/status" % self.pid()) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def log_lines(self, pattern):
        """The lines of ovs-vswitchd.log that match the regex PATTERN."""
        try:
            with open(self.log) as f:
                return [line for line in f if re.search(pattern, line)]
        except OSError:
            return []

    def ports(self):
        """The datapath's port statistics (dpctl/show -s), by port name:
        {"ovs-a0": {"rx_packets": N, "rx_bytes": N, "rx_dropped": N,
        "tx_dropped": N, "upcall_packets": N, "tso_resegmented": N,
        ...}}."""
        return parse_dpctl_show(self.appctl("dpctl/show", "-s"))

    def dp_counters(self, name):
        """The datapath's "  NAME: key:N key:N" line as {key: N}, or {}."""
        return dp_line(self.appctl("dpctl/show"), name)


def parse_dpctl_show(text):
    ports, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*port \d+: (\S+)", line)
        if m:
            cur = ports.setdefault(m.group(1), {})
            continue
        if cur is None:
            continue
        prefix = None
        for tok in line.split():
            if tok in ("RX", "TX", "UPCALL", "TSO"):
                prefix = tok.lower()
            elif prefix and ":" in tok:
                key, _, val = tok.partition(":")
                if val.isdigit():
                    cur["%s_%s" % (prefix, key)] = int(val)
    return ports


def dp_line(text, name):
    for line in text.splitlines():
        if line.strip().startswith(name + ":"):
            return {k: int(v) for k, v in
                    re.findall(r"(\w+):(\d+)", line.split(":", 1)[1])}
    return {}


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class Session:
    """One run of a program PROG: a work folder, the namespaces (a
    Topology with the prefix PROG) and the Open vSwitch it starts
    (start_ovs()), removed when the run ends, however it ends.  The work
    folder, with the logs, is kept if the run did not call done(), or with
    KEEP.  SIGTERM ends a run as Ctrl-C does; an Error ends it with exit
    status 1.  Use it in a "with" statement, in main() run by program()."""

    def __init__(self, prog, keep=False):
        self.prog = prog
        self.keep = keep
        self.work = tempfile.mkdtemp(prefix=prog + ".")
        self.topo = Topology(prog)
        self.ovs = None
        self.ok = False

    def __enter__(self):
        sys.stdout.reconfigure(line_buffering=True)
        signal.signal(signal.SIGTERM, _interrupt)
        return self

    def start_ovs(self, tree, name=None, system=False):
        """Starts an Open vSwitch from TREE with its files in the work
        folder (in its subfolder NAME, if given)."""
        self.stop_ovs()
        work = os.path.join(self.work, name) if name else self.work
        self.ovs = Ovs(tree, work, system).start()
        return self.ovs

    def stop_ovs(self):
        if self.ovs:
            self.ovs.stop()
            self.ovs = None

    def done(self):
        """The run succeeded: the work folder goes unless KEEP."""
        self.ok = True

    def __exit__(self, exc_type, exc, tb):
        # A second Ctrl-C must not leave the namespaces behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        self.topo.clean()
        self.stop_ovs()
        if isinstance(exc, (Error, OSError)):
            sys.stderr.write("%s: %s\n" % (self.prog, exc))
        if not self.ok or exc_type:
            sys.stderr.write("%s: failed; logs kept in %s\n"
                             % (self.prog, self.work))
        elif self.keep:
            print("%s: logs kept in %s" % (self.prog, self.work))
        else:
            shutil.rmtree(self.work, ignore_errors=True)
        if isinstance(exc, (Error, OSError)):
            sys.exit(1)
        return False


def arg_parser(prog, doc):
    """An argparse parser for a utility whose help is its docstring DOC:
    its usage is DOC's "usage:" paragraph, and -h or --help (a.help) is
    for the caller to print DOC."""
    usage = [para for para in doc.split("\n\n")
             if para.startswith("usage: ")][0]
    p = argparse.ArgumentParser(prog=prog, add_help=False,
                                usage=usage.split("usage: ", 1)[1])
    p.add_argument("-h", "--help", action="store_true")
    return p


def program(main):
    """Runs MAIN() and exits with its return value; 130 for Ctrl-C or
    SIGTERM, 1 with a message for an Error."""
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Error as e:
        sys.exit("%s: %s" % (os.path.basename(sys.argv[0]), e))


class Namespaces:
    """What a Topology and an OVN Deployment (ovs_bigtcp_ovn) share: network
    namespaces named PREFIX-NAME, a ping between two of them by the
    addresses that the subclass's addr(NAME, PROTO) gives, and the removal
    of namespaces with every process in them."""

    def __init__(self, prefix):
        self.prefix = prefix

    def ns(self, name):
        """The namespace of NAME ("A", "p1", "ch1", ...)."""
        return "%s-%s" % (self.prefix, name.lower())

    def addr(self, name, proto):
        raise NotImplementedError

    # The count of ping()'s echo requests, a second apart.
    PING_COUNT = 2

    def ping(self, src, dst, count=None, wait=5):
        """Checks that SRC reaches DST over IPv4 and IPv6."""
        for proto in ("IPv4", "IPv6"):
            run(["ping", "-q", "-c", count or self.PING_COUNT, "-W", wait,
                 self.addr(dst, proto)], ns=self.ns(src), timeout=60)

    @staticmethod
    def remove_netns(names):
        """Kills every process in the namespaces NAMES, then deletes them
        (those that exist)."""
        for ns in names:
            for pid in run(["ip", "netns", "pids", ns], check=False).split():
                kill(pid, signal.SIGKILL)
        for ns in names:
            run(["ip", "netns", "del", ns], check=False)


class Topology(Namespaces):
    """Network namespaces PREFIX-a, -b, -c, -d, -br and the links between them
    and the root namespace.  clean() removes all of it and every process
    left in the namespaces; builders below put a topology in place."""

    def __init__(self, prefix):
        super().__init__(prefix)
        self.host_links = set()
        self.made = []

    def clean(self):
        for link in self.host_links | {"ovs-%s0" % side.lower()
                                       for side in SIDES}:
            run(["ip", "link", "del", link], check=False)
        self.remove_netns([self.ns(side) for side in list(SIDES) + ["BR"]])
        self.host_links = set()
        self.made = []

    def netns(self, side):
        if side not in self.made:
            run(["ip", "netns", "add", self.ns(side)])
            self.made.append(side)
        return self.ns(side)

    def ip(self, side, *args):
        return run(["ip", "-n", self.netns(side)] + list(args))

    def veth(self, side, dev, peer):
        """A veth DEV in netns SIDE whose peer PEER stays in the root
        namespace, up."""
        run(["ip", "link", "add", dev, "type", "veth", "peer", "name",
             peer])
        self.host_links.add(peer)
        # PEER is a switch port: no IPv6 of its own (its router
        # solicitations and MLD reports would reach DEV besides what the
        # switch sends).
        with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % peer,
                  "w") as f:
            f.write("1")
        run(["ip", "link", "set", dev, "netns", self.netns(side)])
        run(["ip", "link", "set", peer, "up"])

    def move(self, side, dev):
        run(["ip", "link", "set", dev, "netns", self.netns(side)])

    def addr(self, side, proto):
        n = SIDES[side]
        return "10.0.0.%d" % n if proto == "IPv4" else "fd00::%d" % n

    def host(self, side, dev):
        """Gives DEV in netns SIDE the side's addresses and brings it and
        lo up."""
        n = SIDES[side]
        self.ip(side, "addr", "add", "10.0.0.%d/24" % n, "dev", dev)
        self.ip(side, "addr", "add", "fd00::%d/64" % n, "dev", dev, "nodad")
        self.ip(side, "link", "set", dev, "up")
        self.ip(side, "link", "set", "lo", "up")

    def link(self, side, *args):
        """ovs-bigtcp-link ARGS in netns SIDE (None: the root namespace)."""
        return run([LINK] + list(args),
                   ns=self.ns(side) if side else None)

    def set_gso(self, side, dev, size):
        """The GSO limits of DEV for both IP versions."""
        self.link(side, "set", dev, "gso_max_size", size,
                  "gso_ipv4_max_size", size)

    def set_gro(self, side, dev, size):
        """The GRO limits of DEV for both IP versions."""
        self.link(side, "set", dev, "gro_max_size", size,
                  "gro_ipv4_max_size", size)

    def limits(self, side, dev):
        """{limit: value} of DEV as ovs-bigtcp-link shows them."""
        out = {}
        for line in self.link(side, "show", dev).splitlines():
            f = line.split()
            if len(f) == 2 and f[1].isdigit():
                out[f[0]] = int(f[1])
        return out

    def dev_stat(self, side, dev, stat):
        """dev_stat() of DEV in netns SIDE (None: the root namespace)."""
        return dev_stat(None if side is None else self.ns(side), dev, stat)


def dev_stat(ns, dev, stat):
    """The kernel's counter STAT (rx_dropped, ...) of DEV in netns NS (None:
    the root namespace)."""
    path = "/sys/class/net/%s/statistics/%s" % (dev, stat)
    if ns is None:
        with open(path) as f:
            return int(f.read())
    return int(run(["cat", path], ns=ns))


def userspace(topo, ovs, b="internal"):
    """A -> br0 (netdev datapath of OVS, flow "normal") -> B, where B's b0
    is an internal port or (b="veth") a veth with the peer ovs-b0, or
    (b="veth-notso") such a veth whose side ovs-b0 has TSO off."""
    topo.clean()
    topo.veth("A", "a0", "ovs-a0")
    ovs.vsctl("add-br", "br0", "--", "set", "Bridge", "br0",
              "datapath_type=netdev", "--", "add-port", "br0", "ovs-a0")
    if b in ("veth", "veth-notso"):
        topo.veth("B", "b0", "ovs-b0")
        if b == "veth-notso":
            run(["ethtool", "-K", "ovs-b0", "tso", "off"])
        ovs.vsctl("add-port", "br0", "ovs-b0")
    else:
        ovs.vsctl("add-port", "br0", "b0", "--", "set", "Interface", "b0",
                  "type=internal")
        topo.move("B", "b0")
    ovs.ofctl("add-flow", "br0", "actions=normal")
    topo.host("A", "a0")
    topo.host("B", "b0")
    topo.ping("A", "B")


class PathCounters:
    """The counters of the path A -> ovs-a0 -> br0 -> port OUT -> B's b0
    (userspace(): OUT is b0, an internal port, or ovs-b0, b0's veth peer)
    that account for a flow's packets (path_accounting())."""

    def __init__(self, ovs, topo, out):
        a0 = ovs.ports().get("ovs-a0", {})
        self.pk = a0.get("rx_packets", 0)
        self.by = a0.get("rx_bytes", 0)
        self.drop = a0.get("rx_dropped", 0)
        # OUT's own TSO counters (dpctl/show -s has none for a port whose
        # device is in another namespace: it cannot read its statistics).
        o = tso_show(ovs, out)
        self.reseg = o.get("resegmented", 0)
        self.reseg_out = o.get("reseg_packets", 0)
        self.segmented = o.get("segmented", 0)
        self.fallback = ((o["tx_fallback"], o["tx_fallback_packets"])
                         if "tx_fallback" in o else None)
        self.to_ovs = topo.dev_stat(None, "ovs-a0", "rx_packets")
        self.to_b = topo.dev_stat("B", "b0", "rx_packets")
        self.b_bytes = topo.dev_stat("B", "b0", "rx_bytes")
        self.b_drop = topo.dev_stat("B", "b0", "rx_dropped")

    def key(self):
        return (self.pk, self.by, self.drop, self.reseg, self.reseg_out,
                self.segmented, self.to_ovs, self.to_b, self.b_bytes,
                self.b_drop, self.fallback)


def tso_show(ovs, port):
    """PORT's entry in "netdev-tso/show --format json" (its limits and TSO
    counters: resegmented, reseg_packets, segmented, tx_fallback,
    tx_fallback_packets), or {} where Open vSwitch has no such command
    (stock)."""
    out = ovs.appctl("--format", "json", "netdev-tso/show", port,
                     check=False)
    try:
        return json.loads(out)[port]
    except (ValueError, KeyError, TypeError):
        return {}


def settled_path_counters(ovs, topo, out, timeout=15):
    """PathCounters once they have stood still for 0.5 s: a flow's last
    packets (its FIN, late ACKs) counted on every device of the path."""
    return wait_until_still(lambda: PathCounters(ovs, topo, out),
                            "the counters of ovs-a0, %s and b0 to stand "
                            "still" % out, timeout=timeout,
                            key=PathCounters.key)


def path_accounting(b, a):
    """What the flow between PathCounters B (before) and A (after) did:
    {"to_ovs": packets the kernel handed to Open vSwitch on ovs-a0,
    "pk"/"by": packets and bytes Open vSwitch received there, "to_b":
    packets that reached b0, each input counted once, "dropped": counted
    drops (Open vSwitch's on ovs-a0, b0's kernel's less the writes refused
    and sent again), "lost": the rest (None where segmentation without
    counts of its outputs makes packets uncountable), "b_mean": b0's mean
    received frame, "reseg"/"reseg_out": packets resegmented and their
    outputs, "segmented", "fallback"/"fallback_out": writes refused and
    the packets sent again for them}."""
    fb = fbout = 0
    if b.fallback and a.fallback:
        fb = a.fallback[0] - b.fallback[0]
        fbout = a.fallback[1] - b.fallback[1]
    reseg, reseg_out = a.reseg - b.reseg, a.reseg_out - b.reseg_out
    segmented = a.segmented - b.segmented
    received = a.to_b - b.to_b
    dropped = a.drop - b.drop + a.b_drop - b.b_drop - fb
    # Each packet sent again counted once, each resegmented one too.
    to_b = received - fbout + fb - reseg_out + reseg
    to_ovs = a.to_ovs - b.to_ovs
    return {"to_ovs": to_ovs, "pk": a.pk - b.pk, "by": a.by - b.by,
            "to_b": to_b, "dropped": dropped,
            "lost": None if segmented else to_ovs - to_b - dropped,
            "b_mean": ((a.b_bytes - b.b_bytes) / received if received > 0
                       else None),
            "reseg": reseg, "reseg_out": reseg_out, "segmented": segmented,
            "fallback": fb, "fallback_out": fbout}


def add_veth_host(topo, ovs, side, dev):
    """One more host on br0: DEV in netns SIDE behind the veth port
    ovs-DEV, with the default (64 KiB) limits."""
    topo.veth(side, dev, "ovs-" + dev)
    ovs.vsctl("add-port", "br0", "ovs-" + dev)
    topo.host(side, dev)
    topo.ping("A", side)


def direct(topo):
    """The "no switch" anchor: a0 and b0 are the two ends of one veth."""
    topo.clean()
    topo.netns("B")
    topo.ip("A", "link", "add", "a0", "type", "veth", "peer", "name", "b0",
            "netns", topo.ns("B"))
    topo.host("A", "a0")
    topo.host("B", "b0")
    topo.ping("A", "B")


def linux_bridge(topo):
    """The Linux bridge anchor: a0 and b0 are veths whose peers br-a0 and
    br-b0 are ports of the bridge br-bigtcp in netns BR (STP and multicast
    snooping off, no bridge netfilter)."""
    topo.clean()
    topo.ip("BR", "link", "add", "br-bigtcp", "type", "bridge",
            "stp_state", "0", "mcast_snooping", "0")
    topo.ip("BR", "link", "set", "br-bigtcp", "up")
    topo.ip("BR", "link", "set", "lo", "up")
    if os.path.exists("/proc/sys/net/bridge/bridge-nf-call-iptables"):
        run(["sysctl", "-qw", "net.bridge.bridge-nf-call-iptables=0",
             "net.bridge.bridge-nf-call-ip6tables=0"], ns=topo.ns("BR"),
            check=False)
    add_bridge_host(topo, "A", "a0")
    add_bridge_host(topo, "B", "b0")


def add_bridge_host(topo, side, dev):
    """One more host on linux_bridge()'s bridge: DEV in netns SIDE, a veth
    whose peer br-DEV is a port of br-bigtcp, with the default limits."""
    topo.ip(side, "link", "add", dev, "type", "veth", "peer", "name",
            "br-" + dev, "netns", topo.ns("BR"))
    topo.ip("BR", "link", "set", "br-" + dev, "master", "br-bigtcp", "up")
    topo.host(side, dev)
    if side != "A":
        topo.ping("A", side)


def kernel_dp(topo, dpctl, b="veth", b_gso=None):
    """A -> kernel datapath "kbench" -> B with flows from ovs-dpctl (no
    ovs-vswitchd), B's b0 a veth or (b="internal") an internal port.  A's
    a0 has BIG TCP; with an internal port, ovs-a0 and b0 too.  B_GSO, for
    a veth: the GSO limits of ovs-b0 (the datapath's output to B), BIG TCP
    on b0, and TCP in A sending GSO packets of at least 255 segments
    (tcp_min_tso_segs), which the pacing rate under TCG alone seldom
    reaches."""
    topo.clean()
    topo.veth("A", "a0", "ovs-a0")
    run([dpctl, "add-dp", "kbench"])
    run([dpctl, "add-if", "kbench", "ovs-a0"])
    topo.link("A", "bigtcp", "a0")
    if b == "veth":
        topo.veth("B", "b0", "ovs-b0")
        run([dpctl, "add-if", "kbench", "ovs-b0"])
        if b_gso:
            topo.set_gso(None, "ovs-b0", b_gso)
            topo.link("B", "bigtcp", "b0")
            run(["sysctl", "-qw", "net.ipv4.tcp_min_tso_segs=255"],
                ns=topo.ns("A"))
    else:
        topo.link(None, "bigtcp", "ovs-a0")
        run([dpctl, "add-if", "kbench", "b0,type=internal"])
        topo.move("B", "b0")
        # The stock module refuses to raise an internal port's limits.
        run([LINK, "bigtcp", "b0"], ns=topo.ns("B"), check=False)
    kernel_dp_flows(dpctl, 1, 2)
    topo.host("A", "a0")
    topo.host("B", "b0")
    topo.ping("A", "B", count=1)


# kernel_tunnel_dp's underlay: the root namespace's end (kbu0) and B's
# (u0), and the VXLAN port's device, which ovs-dpctl creates.
TUNNEL_UNDERLAY = ("172.31.9.1", "172.31.9.2")
TUNNEL_DEV = "vxlan_sys_4789"


def kernel_tunnel_dp(topo, dpctl):
    """A -> kernel datapath "kbench" -> its VXLAN port (vxlan_sys_4789) ->
    an underlay veth with the default 64 KiB limits (kbu0 in the root
    namespace, u0 in B) -> B's Linux VXLAN device b0, which ends the
    tunnel.  The flows, from ovs-dpctl, set the tunnel metadata towards B
    and forward what comes back to A.  A's a0 has BIG TCP; A and b0 have
    the overlay MTU, 1450."""
    local, remote = TUNNEL_UNDERLAY
    topo.clean()
    topo.veth("A", "a0", "ovs-a0")
    topo.veth("B", "u0", "kbu0")
    run(["ip", "addr", "add", local + "/24", "dev", "kbu0"])
    topo.ip("B", "addr", "add", remote + "/24", "dev", "u0")
    topo.ip("B", "link", "set", "u0", "up")
    topo.ip("B", "link", "add", "b0", "mtu", "1450", "type", "vxlan", "id",
            "0", "remote", local, "local", remote, "dstport", "4789")
    topo.ip("A", "link", "set", "a0", "mtu", "1450")
    run([dpctl, "add-dp", "kbench"])
    run([dpctl, "add-if", "kbench", "ovs-a0"])
    run([dpctl, "add-if", "kbench",
         TUNNEL_DEV + ",type=vxlan,remote_ip=flow"])
    topo.link("A", "bigtcp", "a0")
    tnl = ("set(tunnel(tun_id=0x0,dst=%s,ttl=64,tp_dst=4789,flags(df|key)))"
           % remote)
    for t in ("eth_type(0x0806),arp()", "eth_type(0x0800),ipv4()",
              "eth_type(0x86dd),ipv6()"):
        run([dpctl, "add-flow", "kbench", "in_port(1),eth()," + t,
             tnl + ",2"])
        run([dpctl, "add-flow", "kbench", "in_port(2),eth()," + t, "1"])
    topo.host("A", "a0")
    topo.host("B", "b0")
    topo.ping("A", "B", count=1)


def kernel_dp_flows(dpctl, a, b):
    """Flows of datapath "kbench" between its ports A and B, both ways:
    ARP, IPv4 and IPv6."""
    for t in ("eth_type(0x0806),arp()", "eth_type(0x0800),ipv4()",
              "eth_type(0x86dd),ipv6()"):
        run([dpctl, "add-flow", "kbench", "in_port(%d),eth(),%s" % (a, t),
             str(b)])
        run([dpctl, "add-flow", "kbench", "in_port(%d),eth(),%s" % (b, t),
             str(a)])


def kernel_dp_pair(topo, dpctl):
    """Two more hosts on kernel_dp()'s datapath: C's c0 and D's d0, veths
    whose peers ovs-c0 and ovs-d0 are its ports 3 and 4, with flows
    between them, and the default limits."""
    for side in ("C", "D"):
        dev = side.lower() + "0"
        topo.veth(side, dev, "ovs-" + dev)
        run([dpctl, "add-if", "kbench", "ovs-" + dev])
    kernel_dp_flows(dpctl, 3, 4)
    topo.host("C", "c0")
    topo.host("D", "d0")
    topo.ping("C", "D", count=1)


def kernel_dp_clean(topo, dpctl):
    run([dpctl, "del-dp", "kbench"], check=False)
    # A tunnel port's device outlives the datapath.
    run(["ip", "link", "del", TUNNEL_DEV], check=False)
    topo.clean()


def kernel_slow_path(topo, ovs):
    """A -> br0 (the kernel datapath of OVS) -> B's veth, with BIG TCP on
    a0 and flows that the datapath cannot execute (an output with a
    maximum length, the truncate action turned off): every packet goes to
    ovs-vswitchd and is executed back."""
    topo.clean()
    ovs.vsctl("add-br", "br0")
    ovs.appctl("dpif/set-dp-features", "br0", "trunc", "false")
    topo.veth("A", "a0", "ovs-a0")
    topo.veth("B", "b0", "ovs-b0")
    ovs.vsctl("add-port", "br0", "ovs-a0", "--", "add-port", "br0",
              "ovs-b0")
    topo.link("A", "bigtcp", "a0")
    for a, b in (("ovs-a0", "ovs-b0"), ("ovs-b0", "ovs-a0")):
        ovs.ofctl("add-flow", "br0", "in_port=%s,actions=output(port=%s,"
                  "max_len=65535)" % (a, b))
    topo.host("A", "a0")
    topo.host("B", "b0")
    topo.ping("A", "B", count=1)


def bounded(ns, limit, pin):
    """The start of a command line that runs a program in netns NS,
    killed after LIMIT seconds, with PIN (a taskset prefix, or [])."""
    return ["ip", "netns", "exec", ns, "timeout", str(limit)] + pin


class Iperf3:
    """One iperf3 TCP flow from netns SRC to DST's address of PROTO for
    SECS seconds after OMIT that are not counted, client and server pinned
    to CPU if given, writing LENGTH bytes at a time if given (iperf3's
    default is 128 KiB, which bounds most GSO packets), paced to RATE
    bits per second if given (iperf3 -b), on server PORT.  Bounded: both
    give up SECS + OMIT + 25 s after they start.  start() then wait(), or
    run()."""

    def __init__(self, topo, src, dst, proto, secs, omit=0, cpu=None,
                 length=None, rate=None, port=5201):
        self.topo, self.src, self.dst = topo, src, dst
        self.length = ["-l", str(length)] if length else []
        self.rate = ["-b", str(rate)] if rate else []
        self.port = port
        self.addr = topo.addr(dst, proto)
        self.secs, self.omit = secs, omit
        self.pin = ["taskset", "-c", str(cpu)] if cpu is not None else []
        self.limit = secs + omit + 20
        self.server = self.client = None
        self.result = None

    def start(self):
        self.server = subprocess.Popen(
            bounded(self.topo.ns(self.dst), self.limit + 5, self.pin)
            + ["iperf3", "-s", "-1", "-B", self.addr, "-p", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # A server that exits first fails the flow, which wait() reports.
        wait_listening(self.topo.ns(self.dst), self.port, self.server,
                       "iperf3 -s on %s" % self.addr)
        self.client = subprocess.Popen(
            bounded(self.topo.ns(self.src), self.limit, self.pin)
            + ["iperf3", "-c", self.addr, "-p", str(self.port),
               "-t", str(self.secs), "-O", str(self.omit), "-J"]
            + self.length + self.rate,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return self

    def wait(self):
        """Waits for the flow; returns {"gbps", "bytes", "retransmits",
        "ok"} (0s and ok False if it did not complete)."""
        out, _ = self.client.communicate()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        self.result = {"gbps": 0.0, "bytes": 0, "retransmits": 0,
                       "ok": False, "json": out}
        try:
            end = json.loads(out)["end"]
            self.result.update(
                gbps=end["sum_received"]["bits_per_second"] / 1e9,
                bytes=end["sum_received"]["bytes"],
                retransmits=end["sum_sent"].get("retransmits", 0), ok=True)
        except (ValueError, KeyError, TypeError):
            pass
        return self.result

    def run(self):
        return self.start().wait()


class Sockperf:
    """sockperf ping-pong over TCP from netns SRC to a server in DST, on
    DST's address of PROTO, with messages of SIZE bytes each way (the
    server echoes each one), for SECS seconds, pinned to CPU if given.
    Bounded: both give up SECS + 25 s after they start.  start() then
    wait(), or run()."""

    PORT = 11111

    def __init__(self, topo, src, dst, proto, size, secs, cpu=None):
        self.topo, self.src, self.dst = topo, src, dst
        self.addr = topo.addr(dst, proto)
        self.size, self.secs = size, secs
        self.pin = ["taskset", "-c", str(cpu)] if cpu is not None else []
        self.limit = secs + 20
        self.server = self.client = None

    def start(self):
        self.server = subprocess.Popen(
            bounded(self.topo.ns(self.dst), self.limit + 5, self.pin)
            + ["sockperf", "server", "--tcp", "-i", self.addr, "-p",
               str(self.PORT), "-m", str(max(self.size, 65507))],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_listening(self.topo.ns(self.dst), self.PORT, self.server,
                       "sockperf server on %s" % self.addr)
        self.client = subprocess.Popen(
            bounded(self.topo.ns(self.src), self.limit, self.pin)
            + ["sockperf", "ping-pong", "--tcp", "-i", self.addr, "-p",
               str(self.PORT), "-m", str(self.size), "-t", str(self.secs),
               "--full-rtt", "--no-rdtsc"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return self

    def wait(self):
        """Waits for the client, stops the server; returns
        parse_sockperf() of the client's output."""
        out, _ = self.client.communicate()
        kill(self.server.pid)
        self.server.wait()
        return parse_sockperf(out)

    def run(self):
        return self.start().wait()


def parse_sockperf(text):
    """{"ok", "tps", "p50_us", "p99_us", "p999_us", "transactions",
    "dropped", "text"} from the output of "sockperf ping-pong --full-rtt":
    the round trips of its valid duration (after the warm-up), their
    percentiles in microseconds and the round trips per second.  ok is
    False, and the figures None, where the output lacks any of them."""
    r = {"ok": False, "tps": None, "p50_us": None, "p99_us": None,
         "p999_us": None, "transactions": None, "dropped": None,
         "text": text}
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    m = re.search(r"\[Valid Duration\] RunTime=([0-9.]+) sec; "
                  r"SentMessages=(\d+); ReceivedMessages=(\d+)", text)
    pct = dict(re.findall(r"---> percentile ([0-9.]+) =\s*([0-9.]+)", text))
    d = re.search(r"# dropped messages = (\d+)", text)
    if not (m and d and {"50.000", "99.000", "99.900"} <= set(pct)):
        return r
    secs, received = float(m.group(1)), int(m.group(3))
    if secs <= 0 or received == 0:
        return r
    r.update(ok=True, tps=received / secs, transactions=received,
             dropped=int(d.group(1)), p50_us=float(pct["50.000"]),
             p99_us=float(pct["99.000"]), p999_us=float(pct["99.900"]))
    return r
