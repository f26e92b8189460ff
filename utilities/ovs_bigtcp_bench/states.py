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

"""The benchmark's states, one record each: the userspace datapath's
(State, STATES) and the kernel datapath's scenarios (KernelScenario,
KERNEL_SCENARIOS).  The runs set a state up from its record; the reports
read its baseline and the figures it is compared with from it."""

import dataclasses
from typing import Optional, Tuple

from ovs_bigtcp import BIGTCP, NO_BIGTCP

# The sender of S4: TSO and GSO off on a0.
NO_TSO = None


@dataclasses.dataclass(frozen=True)
class State:
    """A userspace state."""

    # S1, S2, S4, or the anchors A1 and A2.
    scenario: str
    name: str
    # The build: "stock", "patched", or None for the anchors.
    build: Optional[str]
    # The topology: "internal" (B's b0 an internal port), "veth" (b0 a
    # veth with 64 KiB limits), "veth-notso" (the same, TSO off on its
    # peer ovs-b0), "direct" (a0 and b0 one veth pair) or "lbr" (a Linux
    # bridge).
    topo: str
    # The GSO limits of A's a0 (and of the Linux bridge's port br-a0), or
    # NO_TSO.
    sender: Optional[int]
    # The state of the "ratio" column: the scenario's baseline (in S4 per
    # topology, and GRO on without kept segments for the states that keep
    # them); a baseline names itself.
    baseline: str
    # The anchors: the GRO limits of b0 (and all limits of br-b0).
    b0_gro: Optional[int] = None
    # The tso-max-size option of the internal port b0 (None: none).
    tso_max_size: Optional[int] = None
    # Whether resegmentation is on (patched only).
    reseg: bool = True
    # S4: options:gro-max-size of ovs-a0 (None: 0, GRO off) and
    # options:gro-keep-segments.
    gro: Optional[int] = None
    keep: bool = False
    # The no-switch ceiling with the same BIG TCP state at the sender (an
    # A1 state) and the Linux bridge's figure to compare with (an A2
    # state), or None.
    ceiling: Optional[str] = None
    linux_bridge: Optional[str] = None

    @property
    def group(self):
        """The key of the states that share one ovs-vswitchd (or one
        anchor topology): see GROUPS."""
        return (self.scenario, self.build, self.topo)



def _gro_states(name, topo):
    """S4's three states on topology 'topo': GRO off (the baseline), GRO
    on without kept segments, and GRO on with them (GRO's default),
    compared with the second."""
    off, on = "s4-%s-gro-off" % name, "s4-%s-gro-on" % name
    return [State("S4", off, "patched", topo, NO_TSO, off),
            State("S4", on, "patched", topo, NO_TSO, off, gro=65536),
            State("S4", "s4-%s-gro-keep" % name, "patched", topo, NO_TSO, on,
                  gro=65536, keep=True)]


STATES = [
    State("S1", "stock-off", "stock", "internal", NO_BIGTCP, "patched-off",
          ceiling="veth-off"),
    State("S1", "stock-on", "stock", "internal", BIGTCP, "patched-off",
          ceiling="veth-on"),
    State("S1", "patched-off", "patched", "internal", NO_BIGTCP,
          "patched-off", ceiling="veth-off"),
    State("S1", "patched-on", "patched", "internal", BIGTCP, "patched-off",
          ceiling="veth-on", linux_bridge="lbr-on"),
    State("S1", "patched-on-tap64k", "patched", "internal", BIGTCP,
          "patched-off", tso_max_size=NO_BIGTCP, ceiling="veth-on"),
    State("S2", "s2-stock-bigtcp", "stock", "veth", BIGTCP, "s2-no-bigtcp",
          ceiling="veth-on"),
    State("S2", "s2-no-bigtcp", "patched", "veth", NO_BIGTCP,
          "s2-no-bigtcp", ceiling="veth-off"),
    State("S2", "s2-bigtcp-full-gso", "patched", "veth", BIGTCP,
          "s2-no-bigtcp", reseg=False, ceiling="veth-on"),
    State("S2", "s2-bigtcp-reseg", "patched", "veth", BIGTCP,
          "s2-no-bigtcp", ceiling="veth-on", linux_bridge="lbr-mixed"),
    *_gro_states("int", "internal"),
    *_gro_states("veth", "veth"),
    *_gro_states("nots", "veth-notso"),
    State("A1", "veth-off", None, "direct", NO_BIGTCP, "veth-off",
          b0_gro=NO_BIGTCP),
    State("A1", "veth-on", None, "direct", BIGTCP, "veth-off",
          b0_gro=BIGTCP),
    State("A2", "lbr-off", None, "lbr", NO_BIGTCP, "lbr-off",
          b0_gro=NO_BIGTCP),
    State("A2", "lbr-on", None, "lbr", BIGTCP, "lbr-off", b0_gro=BIGTCP),
    State("A2", "lbr-mixed", None, "lbr", BIGTCP, "lbr-off",
          b0_gro=NO_BIGTCP),
]
# The order of the groups of states that share one ovs-vswitchd (or one
# anchor topology) in a round (State.group): the anchors between the Open
# vSwitch groups, so that all see the same machine.
GROUPS = [("A1", None, "direct"), ("S1", "stock", "internal"),
          ("S1", "patched", "internal"), ("A2", None, "lbr"),
          ("S2", "stock", "veth"), ("S2", "patched", "veth"),
          ("S4", "patched", "internal"), ("S4", "patched", "veth"),
          ("S4", "patched", "veth-notso")]


@dataclasses.dataclass(frozen=True)
class KernelScenario:
    """A kernel datapath scenario."""

    name: str
    # The two "modules" that alternate, the ratio's baseline first: the
    # image's stock openvswitch.ko and ovs-bigtcp's, or for K3 the two
    # upcall modes of ovs-bigtcp's.
    modules: Tuple[str, str]
    # Its line in kernel.md.
    description: str
    # Whether the packets take the slow path (K3: ovs-vswitchd and its
    # flows, ovs_bigtcp.kernel_slow_path()); the fields below are the fast
    # path's, whose flows ovs-dpctl installs.
    slow_path: bool = False
    # B's side of the datapath: "veth", "internal" (an internal port) or
    # "vxlan" (the datapath's VXLAN port, B behind a Linux VXLAN device,
    # ovs_bigtcp.kernel_tunnel_dp()).
    b: str = "veth"
    # The flow's sender and receiver.
    flow: Tuple[str, str] = ("A", "B")
    # The GSO limits of ovs-b0 (None: the default 64 KiB) and the
    # sender's write size (iperf3 -l; None: iperf3's default).
    b_gso: Optional[int] = None
    write: Optional[int] = None


# K4's output port: Cilium's BIG TCP default.  Its sender writes 1 MiB at
# a time: iperf3's default of 128 KiB would keep most GSO packets under
# the port's limit.
K4_GSO = 196608
K4_WRITE = 1 << 20
MODULES = ("stock", "ovs-bigtcp")
KERNEL_SCENARIOS = {k.name: k for k in [
    KernelScenario("K1", MODULES,
                   "K1 mixed path: BIG TCP veth -> 64 KiB veth"),
    # K2 sends from B, on the internal port.
    KernelScenario("K2", MODULES,
                   "K2 BIG TCP from an internal port -> veth",
                   b="internal", flow=("B", "A")),
    KernelScenario("K3", ("mss-upcall", "gso-upcall"),
                   "K3 slow path (every packet through ovs-vswitchd), "
                   "ovs-bigtcp module: MSS upcalls vs GSO-aware upcalls",
                   slow_path=True),
    KernelScenario("K4", MODULES,
                   "K4 BIG TCP veth -> veth with 192 KiB GSO limits (%d)"
                   % K4_GSO, b_gso=K4_GSO, write=K4_WRITE),
    KernelScenario("K5", MODULES,
                   "K5 BIG TCP veth -> VXLAN port -> 64 KiB underlay veth "
                   "-> Linux VXLAN device", b="vxlan"),
]}
