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

"""ovs-bigtcp-bench's modes, one module each.

utilities/ovs-bigtcp-bench is the command: its options and help text, and
which mode runs.  It puts utilities/ on sys.path, where this package and
ovs_bigtcp.py (the private Open vSwitch, the topologies and the iperf3
flow) are found, on the host and, for --kernel, inside the test VM, which
shares the project's top directory.

    states:    the userspace states (State) and the kernel datapath's
               scenarios (KernelScenario), one record each;
    userspace: the userspace datapath's runs (S1, S2, S4, the anchors);
    kernel:    --kernel: the host boots the VM, the guest (--guest) runs;
    latency:   --scenario S7 and smoke-S7 (latency and fairness next to a
               BIG TCP flow, userspace datapath), and K8's guest runs and
               report section (the same through the kernel datapath);
    ovn:       S5, S6, K6 and K7 (OVN pods on one chassis and across),
               which utilities/ovs-bigtcp-ovn --bench runs over its
               deployments: their records, goals and report;
    engine:    --engine, the engine micro-benchmark;
    report:    the userspace report (results.md, results.json, the chart)
               from the runs' records (Run), and the kernel report;
    perf:      perf stat and perf record around a run, profile.md
               sections;
    common:    what the others share.

Python 3 standard library only.
"""
