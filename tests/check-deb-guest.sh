#!/bin/sh
# check-deb-guest.sh DEB_DIR LINUX_DEB_DIR DKMS_DEB STOCK_DEB_DIR [ONLY]
#
# Runs inside the VM of "make check-deb" (utilities/ovs-bigtcp-check-deb),
# as root, in a guest whose root file system is a throw-away overlay (of
# the host's for bookworm, of a trixie root for trixie) and whose
# /lib/modules holds the Debian kernel's own modules, stock openvswitch.ko
# included.  First, it upgrades the release's own Open vSwitch packages
# (STOCK_DEB_DIR), configured and forwarding, to those of DEB_DIR, and
# rolls them back (tests/check-deb-upgrade.sh), the DKMS package in the
# same step (so the kernel's headers are installed first); with ONLY
# "upgrade", that is all it does.  Then it installs the packages of DEB_DIR and DKMS_DEB as an
# operator would, (dpkg -i) lets DKMS build the module, starts Open vSwitch
# with the packaged scripts, sends a BIG TCP flow through a kernel bridge;
# then, with a flow running, installs the DKMS package over itself and
# reloads the module (ovs-ctl force-reload-kmod), removes it and reloads
# the stock module; then removes the packages.  Last, it installs the
# release's own Open vSwitch packages (STOCK_DEB_DIR) with the DKMS
# package and checks what the kernel module does without the patched
# userspace: an internal port that takes BIG TCP, and resegmentation for
# a port at 64 KiB.  Prints "ok"/"not ok" per check and ends with "N
# passed, N failed".

debs=$1
kdebs=$2
dkmsdeb=$3
stockdebs=$4
only=${5:-}
top=$(pwd)
kver=$(uname -r)
pass=0
fail=0

ok() {
    pass=$((pass + 1))
    echo "ok $((pass + fail)) - $*"
}
not_ok() {
    fail=$((fail + 1))
    echo "not ok $((pass + fail)) - $*"
}
# check DESCRIPTION COMMAND...: runs COMMAND, output to the log.
check() {
    desc=$1
    shift
    if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
finish() {
    ovs_stop >/dev/null 2>&1
    for ns in debA debB debC upA upC; do
        ip netns del "$ns" 2>/dev/null
    done
    echo "check-deb: $pass passed, $fail failed"
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit $?
}

ovs_stop() {
    /usr/share/openvswitch/scripts/ovs-ctl stop
}

stock_path=/lib/modules/$kver/kernel/net/openvswitch/openvswitch.ko.xz
dkms_path_re="^/lib/modules/$kver/updates/dkms/openvswitch\.ko"

echo "== guest kernel $kver, $(. /etc/os-release && echo "$PRETTY_NAME")"
check "before: modprobe finds the kernel's own openvswitch.ko" \
    test "$(modinfo -n openvswitch)" = "$stock_path"
check "before: it is an in-tree module" \
    test "$(modinfo -F intree openvswitch)" = Y
stock_sum=$(xz -dc "$stock_path" | sha256sum)

# loaded_is_out_of_tree: whether the loaded openvswitch module carries the
# out-of-tree taint (O) that DKMS modules have and the kernel's own lacks.
loaded_is_out_of_tree() {
    grep -q O /sys/module/openvswitch/taint
}

# wait_until SECONDS WHAT COMMAND...: polls COMMAND every 0.1 s until it
# succeeds; after SECONDS, says that WHAT did not come and fails.
wait_until() {
    w_n=$(($1 * 10))
    w_what=$2
    shift 2
    w_i=0
    while [ $w_i -lt $w_n ]; do
        "$@" && return 0
        sleep 0.1
        w_i=$((w_i + 1))
    done
    echo "no $w_what after $w_n tenths of a second"
    return 1
}
# listening NS PORT: whether a TCP socket listens on PORT in NS.
listening() {
    ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q .
}

# No service may start while dpkg runs: the test starts them itself with
# ovs-ctl, as the systemd units do.
printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
chmod +x /usr/sbin/policy-rc.d
# Rebuilding the man page index takes minutes under TCG, and is not what
# is tested.
rm -f /var/lib/man-db/auto-update

echo "== installing the kernel headers for $kver (downloaded with the kernel)"
# The guest boots the image's kernel straight from the download, so the
# linux-image package itself is not installed in it: the headers' own
# dependency on it is the one dependency set aside.
check "linux-headers for $kver install" \
    dpkg -i --ignore-depends="linux-image-$kver,linux-image-$kver-unsigned" \
        "$kdebs"/linux-headers-*.deb "$kdebs"/linux-kbuild-*.deb

. "$top/tests/check-deb-upgrade.sh"
upgrade_rollback "$stockdebs" "$debs" "$dkmsdeb"
if [ "$only" = upgrade ]; then
    rm -f /usr/sbin/policy-rc.d
    finish
fi

echo "== installing the packages"
set -- "$debs"/openvswitch-common_*.deb "$debs"/openvswitch-switch_*.deb \
    "$debs"/python3-openvswitch_*.deb "$dkmsdeb"
ls -l "$@"
start=$(date +%s)
check "dpkg -i the packages (DKMS builds the module)" \
    env DEBIAN_FRONTEND=noninteractive dpkg -i "$@"
echo "(installation took $(( $(date +%s) - start )) s)"
dkms status
check "dkms status: openvswitch-bigtcp installed for $kver" \
    sh -c "dkms status -m openvswitch-bigtcp -k $kver | grep -q installed"
modinfo openvswitch | sed -n '1p;/^srcversion/p;/^vermagic/p'
check "modinfo openvswitch names the DKMS module" \
    sh -c "modinfo -n openvswitch | grep -q '$dkms_path_re'"
dkms_sum=$(xz -dc "$(modinfo -n openvswitch)" | sha256sum)
check "the DKMS module is out of tree" \
    test -z "$(modinfo -F intree openvswitch)"
check "the DKMS module is not the stock module" \
    test "$dkms_sum" != "$stock_sum"

echo "== starting Open vSwitch with the packaged scripts"
check "ovs-ctl start" /usr/share/openvswitch/scripts/ovs-ctl start \
    --system-id=random
check "the loaded openvswitch module is the DKMS one (taint O)" \
    loaded_is_out_of_tree
ovs-vswitchd --version
check "ovs-vswitchd --version names the extension" \
    sh -c "ovs-vswitchd --version | grep -q 'ovs-bigtcp'"
check "ovs-vsctl --version works" ovs-vsctl --version

echo "== a kernel bridge"
check "ovs-vsctl add-br br0" ovs-vsctl add-br br0
check "ovs-vsctl add-port internal port int0" \
    ovs-vsctl add-port br0 int0 -- set interface int0 type=internal
link=$top/utilities/ovs-bigtcp-link
ip netns add debA
ip netns add debB
ip netns add debC
ip link add a0 type veth peer name a1
ip link add c0 type veth peer name c1
ip link set a0 netns debA
ip link set c0 netns debC
ip link set int0 netns debB
ovs-vsctl add-port br0 a1
ovs-vsctl add-port br0 c1
"$link" bigtcp a1
ip netns exec debA "$link" bigtcp a0
check "internal port takes gso_max_size 524280" \
    ip netns exec debB ip link set int0 gso_max_size 524280
ip netns exec debB "$link" bigtcp int0
ip netns exec debB "$link" show int0 | grep max_size
for l in a1 c1; do ip link set "$l" up; done
ip netns exec debA ip addr add 10.9.0.1/24 dev a0
ip netns exec debB ip addr add 10.9.0.2/24 dev int0
ip netns exec debC ip addr add 10.9.0.3/24 dev c0
for ns in debA debB debC; do ip netns exec "$ns" ip link set lo up; done
ip netns exec debA ip link set a0 up
ip netns exec debB ip link set int0 up
ip netns exec debC ip link set c0 up
ovs-ofctl add-flow br0 actions=normal
check "ping A to B through the bridge" \
    ip netns exec debA ping -c 3 -i 0.2 -W 5 10.9.0.2

gso_line() {
    ovs-appctl dpctl/show | sed -n 's/^ *gso: //p'
}
echo "dpctl/show gso before: $(gso_line)"

# bigtcp_to_b PORT: starts iperf3 servers in B and C, sends 20 MB from A
# to B, whose internal port is PORT, and checks that frames over 64 KiB
# reached PORT whole.
bigtcp_to_b() {
    ip netns exec debB iperf3 -s -1 -D -p 5201
    ip netns exec debC iperf3 -s -1 -D -p 5201
    ip netns exec debB timeout 120 tcpdump -q -n -s 128 -i "$1" -c 400 \
        -w "/tmp/$1.pcap" tcp port 5201 2>"/tmp/$1.tcpdump" &
    cap=$!
    check "tcpdump captures on $1" wait_until 30 "capture on $1" \
        grep -q "listening on" "/tmp/$1.tcpdump"
    check "iperf3 -s listens in B" wait_until 30 "iperf3 server in B" \
        listening debB 5201
    check "iperf3 -s listens in C" wait_until 30 "iperf3 server in C" \
        listening debC 5201
    check "iperf3 A -> B, 20 MB" ip netns exec debA timeout 300 \
        iperf3 -c 10.9.0.2 -p 5201 -n 20M -f m
    wait $cap
    # tcpdump's reader rejects records over 256 KiB: the project's reader.
    big=$(python3 "$top/tests/bigtcp-pcap.py" --headers "/tmp/$1.pcap" \
          | sed -n 's/^len=\([0-9]*\) .* src=10\.9\.0\.1 .*/\1/p' \
          | awk '$1 > 65536 { c++ } END { print c + 0 }')
    echo "frames over 64 KiB at the internal port: $big"
    check "packets over 64 KiB reach the internal port whole" \
        test "$big" -gt 0
}

echo "== BIG TCP A -> B (internal port, 512 KiB) and A -> C (veth, 64 KiB)"
bigtcp_to_b int0
check "iperf3 A -> C, 20 MB" ip netns exec debA timeout 300 \
    iperf3 -c 10.9.0.3 -p 5201 -n 20M -f m
after=$(gso_line)
echo "dpctl/show gso after: $after"
ovs-appctl dpctl/show
reseg=$(echo "$after" | sed -n 's/.*resegmented:\([0-9]*\).*/\1/p')
check "dpctl/show: the datapath resegmented for the 64 KiB port" \
    test "${reseg:-0}" -gt 0

# c_bytes: what the bridge has sent to C so far.
c_bytes() {
    cat /sys/class/net/c1/statistics/tx_bytes
}
# c_past BYTES: whether the bridge has sent C more than BYTES.
c_past() {
    [ "$(c_bytes)" -gt "$1" ]
}
# flow_moves: whether the flow A -> C moves 1 MiB, waiting up to 60 s for
# TCP to come back from its timeouts after a datapath was deleted.
flow_moves() {
    kill -0 "$cli" || return 1
    wait_until 60 "1 MiB more to C" c_past $(( $(c_bytes) + 1048576 ))
}
reseg_count() {
    gso_line | sed -n 's/.*resegmented:\([0-9]*\).*/\1/p'
}
reseg_counted() {
    [ "$(reseg_count)" -gt 0 ] 2>/dev/null
}
# resegments: whether the loaded datapath counts resegmentation (waits up
# to 30 s).
resegments() {
    wait_until 30 "a resegmentation count in dpctl/show" reseg_counted
}

echo "== the DKMS package upgraded over itself, a flow running"
# force-reload-kmod recreates internal ports in the root namespace only,
# so the flow that crosses the reloads goes A -> C, veth to veth.  It runs
# at the lowest priority so that DKMS's compiler is not starved; SIGUSR1
# ends it.
ovs-vsctl del-port br0 int0
bulk="python3 $top/tests/bigtcp-bulk.py"
ip netns exec debC nice -n 19 $bulk server 10.9.0.3 5202 120 \
    > /tmp/flow-server.txt 2>&1 &
srv=$!
check "the flow's server listens in C" wait_until 30 "flow server in C" \
    listening debC 5202
ip netns exec debA nice -n 19 $bulk client 10.9.0.3 5202 2400s 120 1048576 \
    > /tmp/flow-client.txt 2>&1 &
cli=$!
check "the flow A -> C runs" flow_moves
ko=$(modinfo -n openvswitch)
ko_before=$(stat -c '%i %Y' "$ko")
start=$(date +%s)
# dpkg -i of the installed version runs what an upgrade runs: the old
# package's "prerm upgrade" (dkms remove) and the new one's "postinst
# configure" (dkms add, build, install).
check "dpkg -i openvswitch-bigtcp-dkms over itself (DKMS rebuilds)" \
    env DEBIAN_FRONTEND=noninteractive dpkg -i "$dkmsdeb"
echo "(upgrade took $(( $(date +%s) - start )) s)"
check "dkms status: openvswitch-bigtcp installed again for $kver" \
    sh -c "dkms status -m openvswitch-bigtcp -k $kver | grep -q installed"
check "modinfo names a newly installed DKMS module" \
    sh -c "modinfo -n openvswitch | grep -q '$dkms_path_re' &&
           test \"\$(stat -c '%i %Y' \"\$(modinfo -n openvswitch)\")\" != '$ko_before'"
check "the flow kept running through the upgrade" flow_moves
start=$(date +%s)
check "ovs-ctl force-reload-kmod (datapath configured, flow running)" \
    /usr/share/openvswitch/scripts/ovs-ctl force-reload-kmod
echo "(reload took $(( $(date +%s) - start )) s)"
check "the loaded module is the rebuilt DKMS one (taint O)" \
    loaded_is_out_of_tree
check "the flow moves through the new datapath" flow_moves
check "the new datapath resegments the flow for C's 64 KiB" resegments
echo "dpctl/show gso: $(gso_line)"

echo "== the stock module put back, the flow running"
check "dpkg -r openvswitch-bigtcp-dkms" \
    env DEBIAN_FRONTEND=noninteractive dpkg -r openvswitch-bigtcp-dkms
check "modinfo -n openvswitch is the kernel's own again" \
    test "$(modinfo -n openvswitch)" = "$stock_path"
check "ovs-ctl force-reload-kmod loads it (datapath configured)" \
    /usr/share/openvswitch/scripts/ovs-ctl force-reload-kmod
check "the loaded module is the stock one (no taint O)" \
    sh -c "! grep -q O /sys/module/openvswitch/taint"
check "the flow moves through the stock datapath" flow_moves
kill -USR1 "$cli"
check "the flow's bytes arrived intact across both reloads" wait "$cli"
wait "$srv"
cat /tmp/flow-client.txt

echo "== removing the packages"
ovs-vsctl del-br br0
check "ovs-ctl stop" ovs_stop
for m in vport_vxlan vport_geneve vport_gre openvswitch; do
    rmmod "$m" 2>/dev/null
done
check "dpkg -r the other packages" \
    env DEBIAN_FRONTEND=noninteractive dpkg -r \
        openvswitch-switch python3-openvswitch openvswitch-common
check "after: modprobe finds the kernel's own openvswitch.ko again" \
    test "$(modinfo -n openvswitch)" = "$stock_path"
check "modprobe openvswitch loads the stock module" modprobe openvswitch
check "the loaded module is the stock one again (no taint O)" \
    sh -c "! grep -q O /sys/module/openvswitch/taint"
rmmod openvswitch 2>/dev/null

echo "== the release's own Open vSwitch with the DKMS module"
set -- "$stockdebs"/openvswitch-common_*.deb \
    "$stockdebs"/openvswitch-switch_*.deb \
    "$stockdebs"/python3-openvswitch_*.deb
ls -l "$@"
start=$(date +%s)
check "dpkg -i the release's openvswitch packages and the DKMS package" \
    env DEBIAN_FRONTEND=noninteractive dpkg -i "$@" "$dkmsdeb"
echo "(installation took $(( $(date +%s) - start )) s)"
ovs-vswitchd --version
check "ovs-vswitchd is the release's own (no ovs-bigtcp in --version)" \
    sh -c "! ovs-vswitchd --version | grep -q ovs-bigtcp"
check "modinfo openvswitch names the DKMS module" \
    sh -c "modinfo -n openvswitch | grep -q '$dkms_path_re'"
check "ovs-ctl start" /usr/share/openvswitch/scripts/ovs-ctl start \
    --system-id=random
check "the loaded openvswitch module is the DKMS one (taint O)" \
    loaded_is_out_of_tree
ovs-vsctl add-br br0
ovs-vsctl add-port br0 int1 -- set interface int1 type=internal
ip link set int1 netns debB
ovs-vsctl add-port br0 a1
ovs-vsctl add-port br0 c1
ovs-ofctl add-flow br0 actions=normal
check "internal port takes gso_max_size 524280 (no userspace change)" \
    ip netns exec debB ip link set int1 gso_max_size 524280
ip netns exec debB "$link" bigtcp int1
ip netns exec debB ip addr add 10.9.0.2/24 dev int1
ip netns exec debB ip link set int1 up
# int1 has a new MAC address: A's neighbour entry for 10.9.0.2 still
# names int0's, which no port has any more.
ip netns exec debA ip neigh flush all
check "ping A to B through the bridge" \
    ip netns exec debA ping -c 3 -i 0.2 -W 5 10.9.0.2
bigtcp_to_b int1
# C's veth is at the default 64 KiB.  The stock module has the stack cut
# what it sends there into MSS-sized packets; this one resegments it into
# GSO packets of up to 64 KiB, so C receives fewer than a quarter of the
# packets that MSS-sized segments of the same bytes would be (1448-byte
# segments, timestamps on).
rx() {
    ip netns exec debC cat /sys/class/net/c0/statistics/"$1"
}
p0=$(rx rx_packets)
b0=$(rx rx_bytes)
check "iperf3 A -> C, 20 MB" ip netns exec debA timeout 300 \
    iperf3 -c 10.9.0.3 -p 5201 -n 20M -f m
np=$(( $(rx rx_packets) - p0 ))
nb=$(( $(rx rx_bytes) - b0 ))
echo "C received $nb bytes in $np packets ($((nb / 1448)) MSS segments)"
check "C receives resegmented GSO packets, not MSS-sized ones" \
    test "$np" -gt 0 -a "$np" -lt $((nb / 1448 / 4))
ovs-vsctl del-br br0
check "ovs-ctl stop" ovs_stop
check "dpkg -r the DKMS package and the release's packages" \
    env DEBIAN_FRONTEND=noninteractive dpkg -r openvswitch-bigtcp-dkms \
        openvswitch-switch python3-openvswitch openvswitch-common
rm -f /usr/sbin/policy-rc.d
finish
