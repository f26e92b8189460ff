# ovs-bigtcp-lib.sh: shell functions shared by ovs-bigtcp-demo and
# ovs-bigtcp-bench (bash).  Source it; it defines functions only.
#
# The topology, in network namespaces of its own:
#
#   netns $NS_A: a0 (veth) --> ovs-a0 [br0, netdev datapath] b0 :netns $NS_B
#
# where b0 is an internal port (a tap), or, with "bigtcp_topology veth", a
# veth ovs-b0 whose peer b0 sits in netns $NS_B.  Addresses: A is 10.0.0.1
# and fd00::1, B is 10.0.0.2 and fd00::2.
#
# Two topologies without Open vSwitch, with the same devices and addresses
# in A and B, serve as anchors (nothing in the root namespace):
#
#   bigtcp_topology_direct:        netns $NS_A: a0 <-- veth --> b0 :netns $NS_B
#   bigtcp_topology_linux_bridge:  a0 -- br-a0 [br-bigtcp] br-b0 -- b0
#                                  where the Linux bridge br-bigtcp and its
#                                  ports br-a0, br-b0 sit in netns $NS_BR

NS_A=${NS_A:-ovs-bigtcp-a}
NS_B=${NS_B:-ovs-bigtcp-b}
NS_BR=${NS_BR:-ovs-bigtcp-br}
BIGTCP_TOP=${BIGTCP_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BIGTCP_LINK=$BIGTCP_TOP/utilities/ovs-bigtcp-link

# bigtcp_ovs_start TREE WORKDIR: starts ovsdb-server and ovs-vswitchd from
# the Open vSwitch build tree TREE, with all their files in WORKDIR and
# userspace TSO enabled.  Never touches a system Open vSwitch.
bigtcp_ovs_start() {
    local tree=$1 work=$2

    export PATH=$tree/utilities:$tree/vswitchd:$tree/ovsdb:$PATH
    export OVS_RUNDIR=$work OVS_LOGDIR=$work OVS_DBDIR=$work \
           OVS_SYSCONFDIR=$work OVS_PKGDATADIR=$tree
    ovsdb-tool create "$work/conf.db" "$tree/vswitchd/vswitch.ovsschema"
    ovsdb-server --detach --no-chdir --pidfile -vconsole:off \
        --log-file="$work/ovsdb-server.log" \
        --remote=punix:"$work/db.sock" "$work/conf.db"
    ovs-vsctl --no-wait init
    ovs-vsctl --no-wait set Open_vSwitch . \
        other_config:userspace-tso-enable=true
    ovs-vswitchd --detach --no-chdir --pidfile -vconsole:off \
        --log-file="$work/ovs-vswitchd.log" --disable-system
}

# bigtcp_ovs_stop WORKDIR: stops what bigtcp_ovs_start started.
bigtcp_ovs_stop() {
    local work=$1

    if [ -f "$work/ovs-vswitchd.pid" ]; then
        ovs-appctl -t ovs-vswitchd exit --cleanup >/dev/null 2>&1 \
            || kill "$(cat "$work/ovs-vswitchd.pid")" 2>/dev/null
    fi
    if [ -f "$work/ovsdb-server.pid" ]; then
        kill "$(cat "$work/ovsdb-server.pid")" 2>/dev/null
    fi
    rm -f "$work/ovs-vswitchd.pid" "$work/ovsdb-server.pid"
}

# bigtcp_topology_clean: removes the namespaces and links of any of the
# topologies (Open vSwitch, direct, Linux bridge) and any process left in
# the namespaces.
bigtcp_topology_clean() {
    local ns
    for ns in $NS_A $NS_B $NS_BR; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    done
    ip link del ovs-a0 2>/dev/null || true
    ip link del ovs-b0 2>/dev/null || true
    ip netns del $NS_A 2>/dev/null || true
    ip netns del $NS_B 2>/dev/null || true
    ip netns del $NS_BR 2>/dev/null || true
    return 0
}

# bigtcp_topology_addresses: puts the address plan on a0 (netns $NS_A) and
# b0 (netns $NS_B), brings them up and checks that B answers.
bigtcp_topology_addresses() {
    ip -n $NS_A addr add 10.0.0.1/24 dev a0
    ip -n $NS_A addr add fd00::1/64 dev a0 nodad
    ip -n $NS_B addr add 10.0.0.2/24 dev b0
    ip -n $NS_B addr add fd00::2/64 dev b0 nodad
    ip -n $NS_A link set a0 up
    ip -n $NS_B link set b0 up
    ip -n $NS_A link set lo up
    ip -n $NS_B link set lo up
    ip netns exec $NS_A ping -q -c 2 -W 2 10.0.0.2 >/dev/null
    ip netns exec $NS_A ping -q -c 2 -W 2 fd00::2 >/dev/null
}

# bigtcp_topology [internal|veth]: builds the topology on a running
# ovs-vswitchd, with B on an internal port (default) or on a veth.
bigtcp_topology() {
    local kind=${1:-internal}

    bigtcp_topology_clean
    ip netns add $NS_A
    ip netns add $NS_B
    ip link add a0 type veth peer name ovs-a0
    ip link set a0 netns $NS_A
    ip link set ovs-a0 up
    ovs-vsctl add-br br0 -- set Bridge br0 datapath_type=netdev \
        -- add-port br0 ovs-a0
    if [ "$kind" = veth ]; then
        ip link add b0 type veth peer name ovs-b0
        ip link set b0 netns $NS_B
        ip link set ovs-b0 up
        ovs-vsctl add-port br0 ovs-b0
    else
        ovs-vsctl add-port br0 b0 -- set Interface b0 type=internal
        ip link set b0 netns $NS_B
    fi
    ovs-ofctl add-flow br0 actions=normal
    bigtcp_topology_addresses
}

# bigtcp_topology_direct: the "no switch" anchor: A's a0 and B's b0 are the
# two ends of one veth pair.  No Open vSwitch needed.
bigtcp_topology_direct() {
    bigtcp_topology_clean
    ip netns add $NS_A
    ip netns add $NS_B
    ip -n $NS_A link add a0 type veth peer name b0 netns $NS_B
    bigtcp_topology_addresses
}

# bigtcp_topology_linux_bridge: the Linux bridge anchor: a0 and b0 are
# veths whose peers br-a0 and br-b0 are ports of the Linux bridge br-bigtcp
# in netns $NS_BR (STP and multicast snooping off, no bridge netfilter).
# No Open vSwitch needed.
bigtcp_topology_linux_bridge() {
    bigtcp_topology_clean
    ip netns add $NS_A
    ip netns add $NS_B
    ip netns add $NS_BR
    ip -n $NS_BR link add br-bigtcp type bridge stp_state 0 \
        mcast_snooping 0
    ip -n $NS_A link add a0 type veth peer name br-a0 netns $NS_BR
    ip -n $NS_B link add b0 type veth peer name br-b0 netns $NS_BR
    ip -n $NS_BR link set br-a0 master br-bigtcp up
    ip -n $NS_BR link set br-b0 master br-bigtcp up
    ip -n $NS_BR link set br-bigtcp up
    ip -n $NS_BR link set lo up
    if ip netns exec $NS_BR test -e \
           /proc/sys/net/bridge/bridge-nf-call-iptables; then
        ip netns exec $NS_BR sysctl -qw \
            net.bridge.bridge-nf-call-iptables=0 \
            net.bridge.bridge-nf-call-ip6tables=0 >/dev/null 2>&1 || true
    fi
    bigtcp_topology_addresses
}

# bigtcp_set_sender_gso SIZE: sets the GSO limits of A's veth (both IP
# versions): 65536 is TSO without BIG TCP, 524280 is BIG TCP.
bigtcp_set_sender_gso() {
    ip netns exec $NS_A "$BIGTCP_LINK" set a0 gso_max_size "$1" \
        gso_ipv4_max_size "$1"
}

# bigtcp_set_receiver_gro SIZE: sets the GRO limits of B's b0 (both IP
# versions): 65536 is without BIG TCP, 524280 is BIG TCP.
bigtcp_set_receiver_gro() {
    ip netns exec $NS_B "$BIGTCP_LINK" set b0 gro_max_size "$1" \
        gro_ipv4_max_size "$1"
}

# bigtcp_set_bridge_port DEV SIZE: sets all four GSO and GRO limits of the
# Linux bridge's port DEV (br-a0 or br-b0, netns $NS_BR) to SIZE.
bigtcp_set_bridge_port() {
    ip netns exec $NS_BR "$BIGTCP_LINK" bigtcp "$1" "$2"
}

# bigtcp_port_stats PORT: prints "rx_packets rx_bytes rx_dropped" of an
# Open vSwitch port, read live from the datapath.
bigtcp_port_stats() {
    ovs-appctl dpctl/show -s | awk -v port="$1" '
        $1 == "port" && $3 == port { on = 1; next }
        $1 == "port" { on = 0 }
        on && $1 == "RX" && $2 ~ /^packets:/ {
            split($2, p, ":"); split($4, d, ":"); pk = p[2]; dr = d[2]
        }
        on && $1 == "RX" && $2 ~ /^bytes:/ { split($2, b, ":"); by = b[2] }
        END { printf "%.0f %.0f %.0f\n", pk, by, dr }'
}

# bigtcp_dev_stat NS DEV STAT: the kernel's counter STAT (rx_packets,
# rx_dropped, ...) of DEV in netns NS ("-" for the root namespace).
bigtcp_dev_stat() {
    if [ "$1" = - ]; then
        cat "/sys/class/net/$2/statistics/$3"
    else
        ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
    fi
}

# bigtcp_iperf3 ADDR SECONDS JSON [CPU]: one iperf3 TCP flow from A to B's
# ADDR for SECONDS (after BIGTCP_OMIT seconds, default 0, that are not
# counted), JSON results in file JSON.  With CPU, the client and server are
# pinned to that CPU (taskset).  Bounded: gives up after SECONDS + 20 s.
bigtcp_iperf3() {
    local addr=$1 secs=$2 json=$3 cpu=$4 pin=
    local omit=${BIGTCP_OMIT:-0} pid

    if [ -n "$cpu" ]; then
        pin="taskset -c $cpu"
    fi
    ip netns exec $NS_B timeout $((secs + omit + 25)) $pin \
        iperf3 -s -1 -B "$addr" >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    ip netns exec $NS_A timeout $((secs + omit + 20)) $pin \
        iperf3 -c "$addr" -t "$secs" -O "$omit" -J > "$json" 2>/dev/null \
        || true
    wait $pid 2>/dev/null || true
}

# bigtcp_iperf3_summary JSON: prints "GBPS RETRANSMITS" of an iperf3 run,
# or "failed -" if it did not complete.
bigtcp_iperf3_summary() {
    python3 - "$1" <<'PY'
import json, sys
try:
    end = json.load(open(sys.argv[1]))["end"]
    print("%.3f %s" % (end["sum_received"]["bits_per_second"] / 1e9,
                       end["sum_sent"].get("retransmits", "-")))
except (ValueError, KeyError, OSError):
    print("failed -")
PY
}
