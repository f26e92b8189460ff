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

"""An OVN deployment of several chassis on one machine, for ovs-bigtcp-ovn
and the OVN autotests.

    root namespace: OVN central (NB and SB ovsdb-servers, ovn-northd),
                    all on Unix sockets in the work folder;
    netns PREFIX-chN: chassis N, its own ovsdb-server, ovs-vswitchd (from
                    the build tree) and ovn-controller; br-phys holds the
                    underlay port uN and has the chassis' underlay address
                    10.99.0.N (fd99::N); ovn-controller makes br-int;
    underlay:       with two chassis one veth pair u1 -- u2 between the
                    chassis namespaces, with three or more a Linux bridge
                    in netns PREFIX-ul;
    netns PREFIX-pK: pod K, a veth pK whose peer vpK is a br-int port of
                    its chassis bound to the logical switch port "pK".

LinuxAnchor builds the same pods and underlay joined by Linux's own VXLAN
devices and bridges, without Open vSwitch: the benchmark's anchor.

The OVN binaries are Debian's (ovn-central, ovn-host, ovn-common), unpacked
by OvnBinaries into a folder without being installed: installing ovn-host
would install and start Debian's own openvswitch-switch.  The pods' MTU is
1500; the underlay's carries Geneve's overhead (check_underlay_mtu()).
"""

import dataclasses
import os
import re
import signal
import struct
import subprocess

import ovs_bigtcp
from ovs_bigtcp import Error, run

# OVN's Geneve encapsulation in front of the inner Ethernet frame: outer
# IPv4 (20) or IPv6 (40), UDP (8), Geneve (8) and OVN's one option with its
# 4 bytes of data (8), and the inner Ethernet header (14).
GENEVE_OVERHEAD = {"IPv4": 58, "IPv6": 78}
POD_MTU = 1500
GENEVE_PORT = 6081
UNDERLAY_MTU = 1600


class OvnBinaries:
    """Debian's OVN packages of the machine's own release, downloaded with
    "apt-get download" into DEPS and unpacked with "dpkg -x" into
    DEPS/root, once."""

    PACKAGES = ("ovn-common", "ovn-central", "ovn-host")

    def __init__(self, deps):
        self.deps = deps
        self.root = os.path.join(deps, "root")
        self.bindir = os.path.join(self.root, "usr", "bin")
        self.schemadir = os.path.join(self.root, "usr", "share", "ovn")

    def ensure(self):
        if os.path.exists(os.path.join(self.bindir, "ovn-controller")):
            return self
        os.makedirs(self.deps, exist_ok=True)
        debs = [f for f in os.listdir(self.deps) if f.endswith(".deb")]
        if len(debs) < len(self.PACKAGES):
            p = subprocess.run(["apt-get", "download"] + list(self.PACKAGES),
                               cwd=self.deps, capture_output=True, text=True)
            if p.returncode:
                raise Error("apt-get download %s: %s"
                            % (" ".join(self.PACKAGES), p.stderr.strip()))
            debs = [f for f in os.listdir(self.deps) if f.endswith(".deb")]
        for deb in sorted(debs):
            run(["dpkg", "-x", os.path.join(self.deps, deb), self.root])
        return self

    def version(self):
        out = run([os.path.join(self.bindir, "ovn-controller"), "--version"])
        return out.splitlines()[0]


class OvnBuild(OvnBinaries):
    """OVN built from source by build-aux/ovn-suite (_build/ovn-26.09-patched,
    say), used as the packages are: its programs are linked by name into
    BUILD/ovs-bigtcp-bin, its schemas are read from its source tree."""

    PROGRAMS = ("controller/ovn-controller", "northd/ovn-northd",
                "utilities/ovn-nbctl", "utilities/ovn-sbctl",
                "utilities/ovn-appctl", "utilities/ovn-trace")

    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.bindir = os.path.join(self.build, "ovs-bigtcp-bin")
        self.schemadir = None
        try:
            with open(os.path.join(self.build, "Makefile")) as f:
                m = re.search(r"^abs_top_srcdir = (.*)$", f.read(), re.M)
        except OSError:
            m = None
        if m:
            self.schemadir = m.group(1).strip()

    def ensure(self):
        if not self.schemadir:
            raise Error("%s is not a configured OVN build" % self.build)
        os.makedirs(self.bindir, exist_ok=True)
        for program in self.PROGRAMS:
            target = os.path.join(self.build, program)
            if not os.access(target, os.X_OK):
                raise Error("%s is not built (build-aux/ovn-suite builds it)"
                            % target)
            link = os.path.join(self.bindir, os.path.basename(program))
            if not os.path.islink(link):
                os.symlink(target, link)
        return self


class Central:
    """OVN's NB and SB databases and ovn-northd, in WORK."""

    def __init__(self, ovs_tree, ovn, work):
        self.ovs_tree, self.ovn, self.work = ovs_tree, ovn, work
        self.env = dict(os.environ)
        for var in ("OVN_RUNDIR", "OVN_LOGDIR", "OVN_DBDIR",
                    "OVN_SYSCONFDIR", "OVS_RUNDIR", "OVS_LOGDIR"):
            self.env[var] = work
        self.nb = "unix:%s/nb.sock" % work
        self.sb = "unix:%s/sb.sock" % work

    def _db(self, name):
        w = self.work
        if os.path.exists("%s/%s.db" % (w, name)):
            os.unlink("%s/%s.db" % (w, name))
        run([os.path.join(self.ovs_tree, "ovsdb", "ovsdb-tool"), "create",
             "%s/%s.db" % (w, name),
             os.path.join(self.ovn.schemadir, "ovn-%s.ovsschema" % name)])
        run([os.path.join(self.ovs_tree, "ovsdb", "ovsdb-server"),
             "--detach", "--no-chdir", "--pidfile=%s/%s.pid" % (w, name),
             "--unixctl=%s/%s.ctl" % (w, name), "-vconsole:off",
             "--log-file=%s/%s.log" % (w, name),
             "--remote=punix:%s/%s.sock" % (w, name),
             "%s/%s.db" % (w, name)], env=self.env)

    def start(self):
        os.makedirs(self.work, exist_ok=True)
        self._db("nb")
        self._db("sb")
        w = self.work
        run([os.path.join(self.ovn.bindir, "ovn-northd"), "--detach",
             "--no-chdir", "--pidfile=%s/northd.pid" % w,
             "--unixctl=%s/northd.ctl" % w, "-vconsole:off",
             "--log-file=%s/northd.log" % w, "--ovnnb-db=" + self.nb,
             "--ovnsb-db=" + self.sb], env=self.env)
        self.nbctl("--no-wait", "init")
        return self

    def stop(self):
        for name in ("northd", "nb", "sb"):
            _stop_pidfile(os.path.join(self.work, name + ".pid"))

    def nbctl(self, *args, timeout=60):
        return run([os.path.join(self.ovn.bindir, "ovn-nbctl"),
                    "--db=" + self.nb, "--timeout=%d" % timeout] + list(args),
                   env=self.env, timeout=timeout + 5)

    def sbctl(self, *args):
        return run([os.path.join(self.ovn.bindir, "ovn-sbctl"),
                    "--db=" + self.sb] + list(args), env=self.env)


def _stop_pidfile(path):
    try:
        with open(path) as f:
            pid = int(f.read())
    except (OSError, ValueError):
        return
    ovs_bigtcp.kill(pid)
    try:
        ovs_bigtcp.wait_until(lambda: not _alive(pid),
                              "process %d to exit" % pid, timeout=5)
    except ovs_bigtcp.Error:
        ovs_bigtcp.kill(pid, 9)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class NetnsChassis:
    """Chassis N in netns NS, without Open vSwitch (a LinuxAnchor's)."""

    ovs = None

    def __init__(self, n, ns):
        self.n, self.ns = n, ns

    def stop(self):
        pass

    def dev_stat(self, dev, stat):
        return ovs_bigtcp.dev_stat(self.ns, dev, stat)


class Chassis(NetnsChassis):
    """Chassis N: netns NS with its own Open vSwitch from OVS_TREE (the
    userspace datapath, or with SYSTEM the kernel's) and ovn-controller,
    in WORK.  UNDERLAY_GSO is the underlay's GSO and GRO limit, which
    br-phys gets too where it is a kernel internal port."""

    def __init__(self, n, ns, ovs_tree, ovn, central, work, system=False,
                 underlay_port="veth", underlay_gso=65536):
        super().__init__(n, ns)
        self.ovn, self.central = ovn, central
        self.underlay_port = underlay_port
        self.underlay_gso = underlay_gso
        self.name = "ch%d" % n
        self.work = work
        self.system = system
        self.ovs = ovs_bigtcp.Ovs(ovs_tree, work, system=system, ns=ns)
        self.underlay = "u%d" % n

    def addr(self, proto):
        return ("10.99.0.%d" % self.n if proto == "IPv4"
                else "fd99::%d" % self.n)

    def start(self, encap_proto="IPv4"):
        """Starts Open vSwitch, puts the underlay port on br-phys with the
        chassis' underlay addresses, and starts ovn-controller with
        Geneve over ENCAP_PROTO's underlay."""
        ovs = self.ovs.start()
        dp = "system" if self.system else "netdev"
        if self.underlay_port == "tap":
            # br-phys reaches the underlay veth through a tap that a Linux
            # bridge joins to it: a tap takes tunnel TSO packets, an
            # AF_PACKET socket does not (Documentation/ovn.md).
            port = "t%d" % self.n
            ovs.vsctl("add-br", "br-phys", "--", "set", "Bridge", "br-phys",
                      "datapath_type=" + dp, "--", "add-port", "br-phys",
                      port, "--", "set", "Interface", port, "type=tap",
                      "mtu_request=%d" % UNDERLAY_MTU, "--", "set",
                      "Interface", "br-phys",
                      "mtu_request=%d" % UNDERLAY_MTU)
            ovs_bigtcp.run(["ip", "link", "add", "ub", "type", "bridge"],
                           ns=self.ns)
            for dev in (port, self.underlay):
                ovs_bigtcp.run(["ip", "link", "set", dev, "master", "ub",
                                "up"], ns=self.ns)
            ovs_bigtcp.run(["ip", "link", "set", "ub", "mtu",
                            str(UNDERLAY_MTU), "up"], ns=self.ns)
            # The userspace datapath resegments what it writes to the tap
            # to the tap's GSO limits (netdev-linux-reseg.c): they are the
            # underlay's, as far as the tap takes them.
            self._set_bounded_limits(port)
        else:
            ovs.vsctl("add-br", "br-phys", "--", "set", "Bridge", "br-phys",
                      "datapath_type=" + dp, "--", "add-port", "br-phys",
                      self.underlay, "--", "set", "Interface", "br-phys",
                      "mtu_request=%d" % UNDERLAY_MTU)
        ovs_bigtcp.run(["ip", "link", "set", "br-phys", "up"], ns=self.ns)
        if self.system:
            # Geneve packets leave through br-phys, an internal port, whose
            # limits bound what genev_sys_6081 sends (kernel patch "net:
            # openvswitch: resegment BIG TCP for a tunnel's underlay").  A
            # stock module's internal port refuses GSO limits over its
            # tso_max_size of 64 KiB, and keeps those.
            self._set_bounded_limits("br-phys")
        ovs_bigtcp.run(["ip", "addr", "add", self.addr("IPv4") + "/24",
                        "dev", "br-phys"], ns=self.ns)
        ovs_bigtcp.run(["ip", "addr", "add", self.addr("IPv6") + "/64",
                        "dev", "br-phys", "nodad"], ns=self.ns)
        ovs.vsctl(
            "set", "Open_vSwitch", ".",
            "external_ids:system-id=" + self.name,
            "external_ids:ovn-remote=" + self.central.sb,
            "external_ids:ovn-encap-type=geneve",
            "external_ids:ovn-encap-ip=" + self.addr(encap_proto),
            "external_ids:ovn-bridge-datapath-type=" + dp)
        env = dict(ovs.env)
        for var in ("OVN_RUNDIR", "OVN_LOGDIR", "OVN_DBDIR"):
            env[var] = self.work
        ovs_bigtcp.run(
            [os.path.join(self.ovn.bindir, "ovn-controller"),
             "unix:%s/db.sock" % self.work, "--detach", "--no-chdir",
             "--pidfile=%s/ovn-controller.pid" % self.work, "-vconsole:off",
             "--log-file=%s/ovn-controller.log" % self.work],
            ns=self.ns, env=env)
        ovs.vsctl("--timeout=60", "wait-until", "Bridge", "br-int")
        return self

    def _set_bounded_limits(self, dev):
        """Gives DEV, a device that Geneve packets leave through to the
        underlay, the underlay's GSO and GRO limits, its GSO limits bounded
        by its tso_max_size: a stock module's internal port and a stock
        tun driver's tap refuse GSO limits over 64 KiB (the project's
        openvswitch.ko and tun.ko take BIG TCP)."""
        tso = self.link_limits(dev).get("tso_max_size", self.underlay_gso)
        gso = min(self.underlay_gso, tso)
        run([ovs_bigtcp.LINK, "set", dev, "gso_max_size", gso,
             "gso_ipv4_max_size", gso, "gro_max_size", self.underlay_gso,
             "gro_ipv4_max_size", self.underlay_gso], ns=self.ns)

    def stop(self):
        _stop_pidfile(os.path.join(self.work, "ovn-controller.pid"))
        self.ovs.stop()

    def geneve_port(self, remote):
        """The name of the Geneve port ovn-controller made on br-int for
        chassis REMOTE, or None."""
        out = self.ovs.vsctl("--bare", "--columns=name,options", "find",
                             "Interface", "type=geneve")
        for block in out.strip().split("\n\n"):
            lines = block.splitlines()
            if (len(lines) >= 2
                    and re.search(r'remote_ip="?%s"?' % re.escape(
                        remote.addr("IPv4")) + r'|remote_ip="?%s"?'
                        % re.escape(remote.addr("IPv6")), lines[1])):
                return lines[0].strip()
        return None

    def statistics(self, iface):
        """The Interface statistics column of IFACE as {key: int}."""
        out = self.ovs.vsctl("get", "Interface", iface, "statistics")
        return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", out)}

    def link_limits(self, dev):
        """DEV's GSO, GRO and TSO limits as {name: int}
        (ovs-bigtcp-link show)."""
        out = run([ovs_bigtcp.LINK, "show", dev], ns=self.ns)
        return {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", out,
                                                 re.M)}

    def underlay_devices(self):
        """The devices that carry this chassis' Geneve packets to the
        underlay: its veth, br-phys where it is a kernel internal port, and
        the tap where br-phys reaches the underlay through one."""
        return ([self.underlay] + (["br-phys"] if self.system else [])
                + (["t%d" % self.n] if self.underlay_port == "tap" else []))

    def diagnose(self, others, proto):
        """The configuration problems that keep BIG TCP from crossing from
        this chassis to the chassis OTHERS over a PROTO underlay, as a list
        of messages that say which and why (empty if none)."""
        problems = []
        for dev in self.underlay_devices():
            limits = self.link_limits(dev)
            for gro, gso in (("gro_max_size", "gso_max_size"),
                             ("gro_ipv4_max_size", "gso_ipv4_max_size")):
                if (gro in limits and gso in limits
                        and limits[gro] < limits[gso]):
                    problems.append(
                        "%s: underlay device %s's GRO limit is below its "
                        "GSO limit (%s %d, %s %d): it sends packets of up "
                        "to %d bytes but GRO builds none over %d from what "
                        "it receives, so BIG TCP from the other chassis "
                        "arrives in smaller packets than it leaves here; "
                        "set %s to %d (\"ovs-bigtcp-link set %s %s %d\")"
                        % (self.name, dev, gro, limits[gro], gso,
                           limits[gso], limits[gso], limits[gro], gro,
                           limits[gso], dev, gro, limits[gso]))
        if self.system:
            # The ovs-bigtcp module announces itself in every datapath
            # reply, and dpctl/show then prints its counters.
            if not re.search(r"^\s*gso: ", self.ovs.appctl("dpctl/show"),
                             re.M):
                problems.append(
                    "%s: the kernel datapath shows no ovs-bigtcp module "
                    "(\"ovs-appctl dpctl/show\" has no \"gso:\" line: a "
                    "stock openvswitch.ko, or an ovs-vswitchd without the "
                    "series), so it cannot resegment: Linux cuts each BIG "
                    "TCP packet bound for another chassis into MSS-sized "
                    "segments before genev_sys_%d, whose GSO limit is 64 "
                    "KiB; load "
                    "the project's openvswitch.ko (and its vport-geneve.ko "
                    "on a kernel line that has one, 6.12) "
                    "(Documentation/kernel-datapath.md)"
                    % (self.name, GENEVE_PORT))
            return problems
        for other in others:
            dst = other.addr(proto)
            out = self.ovs.appctl("ovs/route/lookup", dst, check=False)
            if not re.search(r"^dev ", out, re.M):
                plen = 32 if proto == "IPv4" else 128
                problems.append(
                    "%s: no route to %s's tunnel endpoint %s in Open "
                    "vSwitch's routing table (\"ovs-appctl ovs/route/lookup "
                    "%s\" finds none): a netdev bridge routes its tunnels "
                    "with ovs/route, which learns the routes of the "
                    "namespace ovs-vswitchd runs in; put the underlay "
                    "address on br-phys, or add a route with \"ovs-appctl "
                    "ovs/route/add %s/%d br-phys\"; until then the datapath "
                    "drops the Geneve packets to it and counts them in the "
                    "coverage counter drop_action_tunnel_routing_failed"
                    % (self.name, other.name, dst, dst, dst, plen))
        return problems


def set_limits(ns, dev, size):
    """Sets the GSO and GRO limits of DEV in netns NS, IPv4 and IPv6, to
    SIZE (Debian 12's ip cannot set the IPv4 ones)."""
    run([ovs_bigtcp.LINK, "set", dev, "gso_max_size", size,
         "gso_ipv4_max_size", size, "gro_max_size", size,
         "gro_ipv4_max_size", size], ns=ns)


def check_underlay_mtu(mtu, proto):
    """Raises Error with the reason if an underlay of MTU over PROTO cannot
    carry a pod's full-sized frame in Geneve."""
    need = POD_MTU + GENEVE_OVERHEAD[proto]
    if mtu < need:
        raise Error("underlay MTU %d cannot carry Geneve over %s: a pod's "
                    "%d-byte IP packet needs %d (%d bytes of outer headers, "
                    "Geneve with OVN's option, and the inner Ethernet "
                    "header); raise the underlay MTU or lower the pods'"
                    % (mtu, proto, POD_MTU, need,
                       GENEVE_OVERHEAD[proto]))


@dataclasses.dataclass
class Pod:
    """A pod: netns PREFIX-NAME with veth NAME, whose peer "v" + NAME is on
    chassis CHASSIS (1-based)."""
    name: str
    chassis: int
    mac: str
    v4: str
    v6: str

    def addr(self, proto):
        return self.v4 if proto == "IPv4" else self.v6


class Deployment(ovs_bigtcp.Namespaces):
    """OVN central, N_CHASSIS chassis and pods, all under PREFIX, with
    their files in WORK.  Pods are added by add_pod(); logical switches
    and routers by the caller through central.nbctl().  clean() removes
    everything, also what an earlier run under PREFIX left behind.

    With BIG_SENDS, TCP in the pods sends GSO packets of at least 255
    segments where it can (net.ipv4.tcp_min_tso_segs) and uses Reno, as
    the kernel datapath's autotests do under TCG (BIGTCP_KMOD_BIG_SENDS in
    tests/system-kmod-bigtcp.at, which says why): there the pacing rate
    and CUBIC's window, not the datapath, otherwise keep most of a pod's
    packets under 64 KiB."""

    # Three echo requests a second apart, as before the pings were shared
    # with Topology: the checks that count a flow's underlay frames
    # exactly start after them, and a make check-ovn run with two 0.2 s
    # apart counted 2 Geneve frames more than the Geneve port sent in its
    # first such check (see NEWS).
    PING_COUNT = 3

    def __init__(self, prefix, ovs_tree, ovn, work, n_chassis=2,
                 system=False, underlay_gso=65536, underlay_mtu=UNDERLAY_MTU,
                 encap_proto="IPv4", underlay_port="veth", big_sends=False):
        super().__init__(prefix)
        self.work = work
        self.big_sends = big_sends
        self.ovs_tree, self.ovn, self.system = ovs_tree, ovn, system
        self.n_chassis = n_chassis
        self.underlay_gso = underlay_gso
        self.underlay_mtu = underlay_mtu
        self.encap_proto = encap_proto
        self.underlay_port = underlay_port
        self.central = Central(ovs_tree, ovn, os.path.join(work, "central"))
        self.chassis = []
        self.pods = {}

    def addr(self, pod, proto):
        """Pod POD's address of PROTO (Iperf3 calls this)."""
        return self.pods[pod].addr(proto)

    def namespaces(self):
        out = run(["ip", "netns", "list"], check=False)
        return [line.split()[0] for line in out.splitlines()
                if line.startswith(self.prefix + "-")]

    def clean(self):
        for ch in self.chassis:
            ch.stop()
        self.central.stop()
        self.remove_netns(self.namespaces())
        self.chassis = []
        self.pods = {}

    def start(self):
        self.clean()
        check_underlay_mtu(self.underlay_mtu, self.encap_proto)
        self.central.start()
        for n in range(1, self.n_chassis + 1):
            run(["ip", "netns", "add", self.ns("ch%d" % n)])
            run(["ip", "-n", self.ns("ch%d" % n), "link", "set", "lo",
                 "up"])
        self._underlay()
        for n in range(1, self.n_chassis + 1):
            ch = Chassis(n, self.ns("ch%d" % n), self.ovs_tree, self.ovn,
                         self.central, os.path.join(self.work, "ch%d" % n),
                         self.system, self.underlay_port,
                         self.underlay_gso)
            self.chassis.append(ch)
            ch.start(self.encap_proto)
        return self

    def _underlay(self):
        """The veths between the chassis, with a NIC's GSO limits."""
        ends = []
        if self.n_chassis == 2:
            run(["ip", "link", "add", "u1", "netns", self.ns("ch1"), "type",
                 "veth", "peer", "name", "u2", "netns", self.ns("ch2")])
            ends = [(1, "u1"), (2, "u2")]
        else:
            ul = self.ns("ul")
            run(["ip", "netns", "add", ul])
            run(["ip", "-n", ul, "link", "add", "ul", "type", "bridge"])
            run(["ip", "-n", ul, "link", "set", "ul", "mtu",
                 str(self.underlay_mtu), "up"])
            for n in range(1, self.n_chassis + 1):
                run(["ip", "link", "add", "u%d" % n, "netns",
                     self.ns("ch%d" % n), "type", "veth", "peer", "name",
                     "ul%d" % n, "netns", ul])
                run(["ip", "-n", ul, "link", "set", "ul%d" % n, "mtu",
                     str(self.underlay_mtu), "master", "ul", "up"])
                ends.append((n, "u%d" % n))
        for n, dev in ends:
            ns = self.ns("ch%d" % n)
            run(["ip", "-n", ns, "link", "set", dev, "mtu",
                 str(self.underlay_mtu), "up"])
            set_limits(ns, dev, self.underlay_gso)

    def add_pod(self, name, chassis, k, switch="ls1", gso=ovs_bigtcp.BIGTCP,
                subnet=("10.0.0", "fd00::")):
        """Pod NAME on chassis CHASSIS (1-based) at address SUBNET.K, its
        veth with GSO and GRO limits GSO on both ends, attached to the
        chassis (_attach(): here logical switch port NAME of SWITCH)."""
        ch = self.chassis[chassis - 1]
        pod = Pod(name, chassis, "0a:00:00:00:%02x:%02x" % (chassis, k),
                  "%s.%d" % (subnet[0], k), "%s%d" % (subnet[1], k))
        self._pod_netns(pod, ch.ns, gso)
        self._attach(pod, ch, switch)
        self.pods[name] = pod

    def _attach(self, pod, ch, switch):
        self.central.nbctl("lsp-add", switch, pod.name, "--",
                           "lsp-set-addresses", pod.name,
                           "%s %s %s" % (pod.mac, pod.v4, pod.v6))
        ch.ovs.vsctl("add-port", "br-int", "v" + pod.name, "--", "set",
                     "Interface", "v" + pod.name,
                     "external_ids:iface-id=" + pod.name)

    def remove_pod(self, name):
        """Removes pod NAME: its logical switch port, its port on its
        chassis' br-int, and its namespace (and with it its veth)."""
        ch = self.chassis[self.pods.pop(name).chassis - 1]
        self.central.nbctl("lsp-del", name)
        ch.ovs.vsctl("del-port", "br-int", "v" + name)
        run(["ip", "netns", "del", self.ns(name)])

    def _pod_netns(self, pod, ch_ns, gso):
        """POD's namespace and veth, whose peer "v" + its name is in CH_NS,
        both ends with GSO and GRO limits GSO."""
        name, mac, v4, v6 = pod.name, pod.mac, pod.v4, pod.v6
        ns = self.ns(name)
        run(["ip", "netns", "add", ns])
        # The pods' addresses are static, and nothing answers a router
        # solicitation; the ones Linux sends for minutes after a device
        # comes up would cross the underlay in the middle of the checks
        # that count its frames.  New devices take the "default" setting.
        run(["ip", "netns", "exec", ns, "sysctl", "-qw",
             "net.ipv6.conf.default.router_solicitations=0"])
        if self.big_sends:
            run(["ip", "netns", "exec", ns, "sysctl", "-qw",
                 "net.ipv4.tcp_min_tso_segs=255",
                 "net.ipv4.tcp_congestion_control=reno"])
        run(["ip", "link", "add", name, "netns", ns, "type", "veth",
             "peer", "name", "v" + name, "netns", ch_ns])
        run(["ip", "-n", ns, "link", "set", name, "address", mac, "mtu",
             str(POD_MTU), "up"])
        run(["ip", "-n", ns, "link", "set", "lo", "up"])
        # A neighbour entry stays reachable for an hour after it is
        # confirmed, not 15 to 45 s: Linux otherwise probes it when a flow
        # outlives its reachable time, and OVN answers the probe on the
        # chassis (a "make check-ovn" run of 2026-12-05 caught p1's unicast
        # neighbour solicitation to fd00::2 5 s after its flow ended: one
        # more packet from p1 than its Geneve port sent).
        for family in ("ipv4", "ipv6"):
            run(["ip", "netns", "exec", ns, "sysctl", "-qw",
                 "net.%s.neigh.%s.base_reachable_time_ms=3600000"
                 % (family, name)])
        run(["ip", "-n", ns, "addr", "add", v4 + "/24", "dev", name])
        run(["ip", "-n", ns, "addr", "add", v6 + "/64", "dev", name,
             "nodad"])
        run(["ip", "-n", ch_ns, "link", "set", "v" + name, "mtu",
             str(POD_MTU), "up"])
        for dev, where in ((name, ns), ("v" + name, ch_ns)):
            run([ovs_bigtcp.LINK, "set", dev, "gso_max_size", gso,
                 "gso_ipv4_max_size", gso, "gro_max_size", gso,
                 "gro_ipv4_max_size", gso], ns=where)

    def set_gateway(self, pod, v4, v6):
        ns = self.ns(pod)
        run(["ip", "-n", ns, "route", "add", "default", "via", v4])
        run(["ip", "-n", ns, "-6", "route", "add", "default", "via", v6])

    def diagnose(self):
        """Chassis.diagnose() of every chassis towards the others."""
        return [p for ch in self.chassis
                for p in ch.diagnose([o for o in self.chassis if o is not ch],
                                     self.encap_proto)]

    def sync(self):
        """Waits until every chassis has caught up with the NB database."""
        self.central.nbctl("--wait=hv", "sync", timeout=120)


class LinuxAnchor(Deployment):
    """The benchmark's anchor: the pods and underlay of a Deployment of two
    chassis, joined by Linux's own tunnel devices and bridges instead of
    Open vSwitch and OVN.  Chassis N (netns PREFIX-chN) has bridge br0
    with its pods' veths and tn0, a Geneve device (VNI 1, UDP checksums,
    as OVN sets) to the other chassis over uN (10.99.0.N), or a VXLAN
    device where the kernel has no Geneve (this project's development
    host); self.tunnel says which.  tn0's GSO and GRO limits are the
    underlay's where its tso_max_size allows (Linux 7.3), as
    big_tcp_tunnels.sh sets them."""

    VXLAN_PORT = 4789

    def __init__(self, prefix, work, underlay_gso=65536,
                 underlay_mtu=UNDERLAY_MTU, big_sends=False):
        super().__init__(prefix, None, None, work,
                         underlay_gso=underlay_gso, underlay_mtu=underlay_mtu,
                         big_sends=big_sends)
        self.tunnel = None

    def start(self):
        self.clean()
        for n in (1, 2):
            ns = self.ns("ch%d" % n)
            run(["ip", "netns", "add", ns])
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
        self._underlay()
        for n in (1, 2):
            ns = self.ns("ch%d" % n)
            local, remote = "10.99.0.%d" % n, "10.99.0.%d" % (3 - n)
            run(["ip", "-n", ns, "addr", "add", local + "/24", "dev",
                 "u%d" % n])
            if n == 1 or self.tunnel == "geneve":
                try:
                    run(["ip", "-n", ns, "link", "add", "tn0", "type",
                         "geneve", "id", "1", "remote", remote, "udpcsum"])
                    self.tunnel = "geneve"
                except Error as e:
                    if n != 1:
                        raise
                    self.tunnel = "vxlan"
                    print("Linux anchor: no Geneve in this kernel (%s); "
                          "VXLAN instead" % e)
            if self.tunnel == "vxlan":
                run(["ip", "-n", ns, "link", "add", "tn0", "type", "vxlan",
                     "id", "1", "local", local, "remote", remote, "dstport",
                     str(self.VXLAN_PORT), "udpcsum"])
            run(["ip", "-n", ns, "link", "add", "br0", "type", "bridge"])
            run(["ip", "-n", ns, "link", "set", "tn0", "mtu", str(POD_MTU),
                 "master", "br0", "up"])
            # BIG TCP through the tunnel device, as big_tcp_tunnels.sh
            # raises it: its GSO and GRO limits up to the underlay's, where
            # the kernel lets the device take them (its tso_max_size,
            # GSO_MAX_SIZE for Geneve and VXLAN from Linux 7.3 on, 64 KiB
            # before).
            out = run([ovs_bigtcp.LINK, "show", "tn0"], ns=ns)
            tso = re.search(r"^tso_max_size (\d+)$", out, re.M)
            set_limits(ns, "tn0", min(self.underlay_gso,
                                      int(tso.group(1)) if tso else 65536))
            run(["ip", "-n", ns, "link", "set", "br0", "up"])
            self.chassis.append(NetnsChassis(n, ns))
        return self

    def _attach(self, pod, ch, switch):
        """POD's veth joins CH's bridge br0 (there is no logical switch)."""
        run(["ip", "-n", ch.ns, "link", "set", "v" + pod.name, "master",
             "br0"])


def pcap_records(path):
    """The frames in pcap file PATH as (original length, captured bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = data[:4]
    endian = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    records, ofs = [], 24
    while ofs + 16 <= len(data):
        incl, orig = struct.unpack(endian + "II", data[ofs + 8:ofs + 16])
        records.append((orig, data[ofs + 16:ofs + 16 + incl]))
        ofs += 16 + incl
    return records


def pcap_frames(path):
    """The original lengths of the frames in pcap file PATH."""
    return [orig for orig, _ in pcap_records(path)]


def outer_lengths(frame):
    """The outer IPv4 total length and UDP length of FRAME, the captured
    bytes of an Ethernet frame with IPv4 and UDP, or None if it has
    not."""
    if len(frame) < 42 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return None
    ihl = (frame[14] & 0xf) * 4
    if len(frame) < 14 + ihl + 8:
        return None
    ip_len, = struct.unpack("!H", frame[16:18])
    udp_len, = struct.unpack("!H", frame[14 + ihl + 4:14 + ihl + 6])
    return ip_len, udp_len


def pcap_summary(path):
    """tcpdump's one-line summaries of the frames in pcap file PATH."""
    return run(["tcpdump", "-nn", "-r", path],
               check=False).splitlines() or ["nothing"]


class Capture:
    """tcpdump of the first 64 bytes of every frame DEV in netns NS sends
    or receives, into PATH, bounded to 120 s.  stop() ends it and returns
    the frames' lengths."""

    def __init__(self, ns, dev, path, filt="udp port %d" % GENEVE_PORT):
        self.path = path
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, "timeout", "120", "tcpdump", "-i",
             dev, "-s", "64", "-U", "-w", path, filt],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # tcpdump has its socket once the file has its header.
        ovs_bigtcp.wait_until(
            lambda: self.proc.poll() is not None or self._size() >= 24,
            "tcpdump on %s in %s to write %s's header" % (dev, ns, path))
        if self.proc.poll() is not None:
            raise Error("tcpdump on %s in %s exited with %d"
                        % (dev, ns, self.proc.returncode))

    def _size(self):
        try:
            return os.path.getsize(self.path)
        except OSError:
            return 0

    def mark(self):
        """The number of frames taken so far, once the file stands still
        (tcpdump -U writes each frame as it takes it)."""
        ovs_bigtcp.wait_until_still(self._size, "the capture %s to stop "
                                    "growing" % self.path)
        return len(pcap_records(self.path))

    def stop(self):
        """Ends the capture once it has every frame, and returns their
        lengths."""
        self.mark()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return pcap_frames(self.path)


class Bulk:
    """A flow from pod SRC to pod DST over one TCP connection with
    tests/bigtcp-bulk.py, which checks every byte: AMOUNT bytes, or with
    AMOUNT "Ns" for N seconds at most, until stop().  start() returns once
    the client runs; wait() returns its last line ("received N bytes, 0
    bad") or raises Error."""

    def __init__(self, dep, src, dst, proto, amount, tests_dir,
                 write=1 << 20):
        self.dep, self.src, self.dst, self.proto = dep, src, dst, proto
        self.amount = str(amount)
        self.script = os.path.join(tests_dir, "bigtcp-bulk.py")
        self.write = write
        secs = int(self.amount[:-1]) if self.amount.endswith("s") else 0
        self.timeout = secs + 60
        self.server = self.client = None

    def start(self):
        dep, addr = self.dep, self.dep.addr(self.dst, self.proto)
        self.server = subprocess.Popen(
            ["ip", "netns", "exec", dep.ns(self.dst), "python3", self.script,
             "server", addr, "5201", str(self.timeout)],
            stdout=subprocess.PIPE, text=True)
        try:
            ovs_bigtcp.wait_until(
                lambda: self.server.poll() is not None
                or ":5201 " in run(["ss", "-ltn"], ns=dep.ns(self.dst)),
                "bigtcp-bulk.py server to listen on %s port 5201" % addr)
            self.client = subprocess.Popen(
                ["ip", "netns", "exec", dep.ns(self.src), "python3",
                 self.script, "client", addr, "5201", self.amount,
                 str(self.timeout), str(self.write)],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        except BaseException:
            self._reap(self.server)
            raise
        return self

    def running(self):
        return self.client.poll() is None

    def stop(self):
        """Ends a flow of seconds now (its client's SIGUSR1)."""
        if self.running():
            self.client.send_signal(signal.SIGUSR1)

    @staticmethod
    def _reap(proc, timeout=30):
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def wait(self):
        try:
            out, _ = self.client.communicate(timeout=self.timeout + 30)
        except subprocess.TimeoutExpired:
            self.client.kill()
            out, _ = self.client.communicate()
        finally:
            self._reap(self.server)
        lines = out.strip().splitlines() or [""]
        m = re.match(r"sent (\d+) bytes$", lines[0])
        nbytes = int(m.group(1)) if m else int(self.amount.rstrip("s"))
        if lines[-1] != "received %d bytes, 0 bad" % nbytes:
            raise Error("%s to %s (%s): %s" % (self.src, self.dst,
                                               self.proto, out.strip()))
        return lines[-1]


def bulk(dep, src, dst, proto, nbytes, tests_dir, write=1 << 20):
    """Sends NBYTES from pod SRC to pod DST (Bulk); returns the line
    "received NBYTES bytes, 0 bad" or raises Error."""
    return Bulk(dep, src, dst, proto, nbytes, tests_dir, write).start().wait()
