# shellcheck shell=sh disable=SC2154 # top: set by check-deb-guest.sh
# check-deb-upgrade.sh: the upgrade from the release's own Open vSwitch to
# the project's packages, and the rollback to the release's.  Sourced by
# tests/check-deb-guest.sh, whose check(), wait_until() and listening() it
# uses; it defines upgrade_rollback STOCK_DEB_DIR DEB_DIR.
#
# The path is an operator's: the release's openvswitch-switch (3.1 on
# Debian 12, 3.5 on Debian 13) runs with a configuration (three bridges,
# one of them userspace, ports, OpenFlow rules installed as ovn-controller
# installs them, OVN's external_ids, a controller), and a flow crosses
# it.  Then the project's packages are installed over it with dpkg, and
# the service is restarted the way the package's postinst does on a host
# without systemd (invoke-rc.d openvswitch-switch restart with
# OVS_FORCE_RELOAD_KMOD=yes, see Debian's openvswitch-switch.init):
# ovs-ctl saves the OpenFlow rules, converts the database to the new
# schema where it differs (upgrade_db in ovs-lib: 3.1's, not 3.5's) and
# starts the daemons again.  The configuration must be unchanged
# (tests/ovsdb-dump-compare.py compares "ovsdb-client dump" before and
# after, less the columns that only one schema has and those the daemons
# write), the rules too, and traffic must come back.  Then a BIG TCP option is set on the userspace bridge's
# port, and the release's packages are installed back: they start, the
# database is converted back (3.1) with the configuration in it, and the
# release's ovs-vswitchd ignores the option it does not know with a
# warning, without restarting.  Each step's outage, the longest time no
# ping reply came back (a ping every 50 ms across the bridge), is printed
# as "outage of STEP: S s".
#
# The DKMS package comes in the upgrade's dpkg -i too (the kernel's
# headers are installed before).  Neither the kernel's own openvswitch
# module nor the DKMS one has a srcversion, so the init script's restart
# leaves the kernel's loaded; the DKMS package's postinst sees that the
# loaded module is not the one installed and has it reloaded
# (invoke-rc.d openvswitch-switch force-reload-kmod, refused here by
# policy-rc.d, so that it says how instead, and the reload it names is
# run).  The rollback keeps the DKMS module (the release's Open vSwitch
# runs on it); then, for good, the DKMS package is removed and the
# kernel's own module is loaded again the same way.
#
# The flow crosses the kernel datapath.

up_db=/etc/openvswitch/conf.db
up_log=/var/log/openvswitch/ovs-vswitchd.log

up_restart() {
    # What the postinst runs through invoke-rc.d where systemd does not
    # run (policy-rc.d keeps dpkg from running it itself here).
    OVS_FORCE_RELOAD_KMOD=yes /etc/init.d/openvswitch-switch restart
}

# up_log_tail: the warnings and errors that ovs-vswitchd logged, for the
# record.
up_log_tail() {
    echo "-- ovs-vswitchd.log, warnings and errors (last 30)"
    grep -E '[|](WARN|ERR|EMER)[|]' "$up_log" | tail -n 30
}

up_dump() {
    ovsdb-client dump --format=json > "$1" && ovsdb-client dump > "$1.txt"
}

up_flows() {
    ovs-ofctl -O OpenFlow13 dump-flows --no-stats --no-names br-int \
        | grep -v '^OFPST_FLOW\|^OFPST_MULTIPART' | sed 's/^ *//' | sort
}

# up_ping_start: a ping from A to C every 50 ms in the background (at most
# 36,000 of them, 30 minutes: the upgrade's DKMS build takes 6 to 13
# minutes under TCG, and a first run's bound of 10 minutes ended the ping
# before the module was reloaded), once it has been answered.
up_ping_start() {
    rm -f /tmp/up-ping.txt
    ip netns exec upA ping -D -n -i 0.05 -c 36000 -w 1800 10.19.0.3 \
        > /tmp/up-ping.txt 2>&1 &
    up_ping=$!
    up_wait_reply 0
}

up_replies() {
    grep -c 'bytes from' /tmp/up-ping.txt
}

# up_more_replies N: whether the ping has had more than N replies.
up_more_replies() {
    [ "$(up_replies)" -gt "$1" ]
}

# up_wait_reply N: waits up to 120 s for more than N ping replies.
up_wait_reply() {
    wait_until 120 "ping reply from C after $1 replies" up_more_replies "$1"
}

# up_ping_stop STEP: once replies come again, stops the ping and prints
# the longest time between two replies.
up_ping_stop() {
    n=$(up_replies)
    check "traffic resumes after $1 (a new ping reply)" up_wait_reply "$n"
    kill -INT "$up_ping" 2>/dev/null
    wait "$up_ping"
    gap=$(sed -n 's/^\[\([0-9.]*\)\] .*bytes from.*/\1/p' /tmp/up-ping.txt \
          | awk 'NR > 1 && $1 - p > g { g = $1 - p } { p = $1 }
                 END { printf "%.2f", g }')
    echo "outage of $1: $gap s ($(up_replies) replies," \
         "$(tail -n 2 /tmp/up-ping.txt | head -n 1))"
    up_outages="$up_outages $1=${gap}s"
}

up_iperf() {
    ip netns exec upC iperf3 -s -1 -D -p 5211
    check "iperf3 -s listens in C" wait_until 30 "iperf3 server in C" \
        listening upC 5211
    check "iperf3 A -> C, 20 MB, $1" ip netns exec upA timeout 300 \
        iperf3 -c 10.19.0.3 -p 5211 -n 20M -f m
}

up_vswitchd_pid() {
    cat /var/run/openvswitch/ovs-vswitchd.pid
}

up_schema=/usr/share/openvswitch/vswitch.ovsschema

# up_schema_id: the installed schema's version and checksum.
up_schema_id() {
    echo "$(ovsdb-tool schema-version "$up_schema")" \
        "$(ovsdb-tool schema-cksum "$up_schema" | cut -d' ' -f1)"
}

# up_backups VERSION: the backups that ovs-ctl made of a database of schema
# VERSION.
up_backups() {
    ls /etc/openvswitch/conf.db.backup"$1"-* \
        /var/lib/openvswitch/conf.db.backup"$1"-* 2>/dev/null
}

up_has_backup() {
    up_backups "$1" | grep -q .
}

# up_check_db STEP OLD_ID: the database after STEP, from a schema whose
# up_schema_id was OLD_ID.  Where the packages' schemas differ (3.1's
# 8.3.1 and 4.0's 8.8.0), ovs-ctl converts the database and keeps a
# backup; where they are the same (3.5's and 4.0's), it leaves both
# alone.
up_check_db() {
    new_id=$(up_schema_id)
    echo "schema before $1: $2; after: $new_id"
    check "after $1, the database is of the installed schema" \
        test "$(ovsdb-tool db-version "$up_db")" = "${new_id% *}"
    if [ "$2" != "$new_id" ]; then
        check "ovs-ctl kept a backup of the database of schema ${2% *}" \
            up_has_backup "${2% *}"
    else
        check "the same schema: ovs-ctl made no backup" \
            test -z "$(up_backups "${2% *}")"
    fi
}

# up_step STEP WHAT DEB...: with a ping running across the bridge, dpkg -i
# of the DEBs and the restart that the postinst runs; prints the step's
# outage.
up_step() {
    up_step_name=$1
    up_step_what=$2
    shift 2
    up_ping_start
    check "dpkg -i $up_step_what" up_dpkg -i "$@"
    start=$(date +%s)
    check "openvswitch-switch restart (as the postinst runs it)" up_restart
    echo "(restart took $(( $(date +%s) - start )) s)"
    up_reload_kmod_step
    up_log_tail
    up_ping_stop "$up_step_name"
}

# up_dpkg ARG...: dpkg ARG..., its output also in /tmp/up-dpkg.txt.
up_dpkg() {
    env DEBIAN_FRONTEND=noninteractive dpkg "$@" > /tmp/up-dpkg.txt 2>&1
    up_rc=$?
    cat /tmp/up-dpkg.txt
    return $up_rc
}

up_reload_notice='openvswitch-bigtcp-dkms: load it with: /etc/init.d/openvswitch-switch force-reload-kmod'

# up_reload_kmod_step: where the DKMS package said that Open vSwitch runs
# on another module than the one installed (its invoke-rc.d
# force-reload-kmod is refused here by policy-rc.d, as the restarts are),
# runs the reload it names.  Whether it had to say so is for the caller
# to check (up_notice).
up_reload_kmod_step() {
    up_notice=no
    grep -qxF "$up_reload_notice" /tmp/up-dpkg.txt || return 0
    up_notice=yes
    start=$(date +%s)
    check "force-reload-kmod, as the DKMS package says" \
        /etc/init.d/openvswitch-switch force-reload-kmod
    echo "(reload took $(( $(date +%s) - start )) s)"
}

loaded_is_in_tree() {
    ! grep -q O /sys/module/openvswitch/taint
}

up_configure() {
    ovs-vsctl \
        -- set Open_vSwitch . external_ids:ovn-remote=tcp:127.0.0.1:6642 \
            external_ids:ovn-encap-type=geneve \
            external_ids:ovn-encap-ip=10.19.0.1 \
            external_ids:ovn-bridge-mappings=physnet1:br-ex \
            other_config:max-idle=20000 \
            other_config:userspace-tso-enable=true \
        -- add-br br-int \
        -- set Bridge br-int fail_mode=secure \
            protocols=OpenFlow10,OpenFlow13 \
            other_config:disable-in-band=true \
            external_ids:ct-zone-pod-a=1 \
        -- add-port br-int ua1 \
        -- set Interface ua1 external_ids:iface-id=pod-a \
            external_ids:attached-mac=02:00:00:00:19:01 ofport_request=11 \
        -- add-port br-int uc1 \
        -- set Interface uc1 external_ids:iface-id=pod-c \
            external_ids:attached-mac=02:00:00:00:19:03 ofport_request=13 \
        -- add-br br-ex \
        -- set Bridge br-ex other_config:mac-aging-time=600 \
            external_ids:bridge-id=br-ex \
        -- set-controller br-ex tcp:127.0.0.1:6653 \
        -- add-port br-ex ex0 -- set Interface ex0 type=internal \
            mtu_request=1400 \
        -- add-port br-int patch-int -- set Interface patch-int type=patch \
            options:peer=patch-ex \
        -- add-port br-ex patch-ex -- set Interface patch-ex type=patch \
            options:peer=patch-int \
        -- add-br br-u -- set Bridge br-u datapath_type=netdev \
        -- add-port br-u uu1 -- set Interface uu1 \
            external_ids:iface-id=pod-u
    # The rules a controller installs through the bridge's management
    # socket, as ovn-controller does on br-int: with fail_mode=secure, the
    # bridge adds none of its own.  (A bridge with a Controller row, as
    # br-ex here, loses the rules that ovs-ctl restores when its
    # flow-restore-wait ends, in the release's Open vSwitch as in 4.0:
    # its controller installs them again.)
    ovs-ofctl -O OpenFlow13 add-flows br-int - <<EOF
cookie=0x1,table=0,priority=100,arp,actions=NORMAL
cookie=0x2,table=0,priority=90,ip,in_port=11,actions=output:13
cookie=0x2,table=0,priority=90,ip,in_port=13,actions=output:11
cookie=0x3,table=0,priority=0,actions=drop
EOF
}

# upgrade_rollback STOCK_DEB_DIR DEB_DIR DKMS_DEB
upgrade_rollback() {
    echo "== upgrade from the release's Open vSwitch, and rollback"
    up_outages=
    set -- "$1"/openvswitch-common_*.deb "$1"/openvswitch-switch_*.deb \
        "$1"/python3-openvswitch_*.deb "$2"/openvswitch-common_*.deb \
        "$2"/openvswitch-switch_*.deb "$2"/python3-openvswitch_*.deb "$3"
    stock_set="$1 $2 $3"
    ours_set="$4 $5 $6 $7"
    ls -l "$@"
    # The userspace bridge's own port is a tap.  (A system loads tun when
    # /dev/net/tun is first opened; the VM has no such node before.)
    check "modprobe tun" modprobe tun
    # shellcheck disable=SC2086
    check "dpkg -i the release's openvswitch packages" \
        env DEBIAN_FRONTEND=noninteractive dpkg -i $stock_set
    check "the release's Open vSwitch starts (init script)" \
        /etc/init.d/openvswitch-switch start
    ovs-vswitchd --version | head -n 1
    stock_id=$(up_schema_id)

    ip netns add upA
    ip netns add upC
    ip link add ua0 type veth peer name ua1
    ip link add uc0 type veth peer name uc1
    ip link add uu0 type veth peer name uu1
    ip link set uu0 up
    ip link set uu1 up
    ip link set ua0 netns upA
    ip link set uc0 netns upC
    ip link set ua1 up
    ip link set uc1 up
    ip netns exec upA ip addr add 10.19.0.1/24 dev ua0
    ip netns exec upC ip addr add 10.19.0.3/24 dev uc0
    for ns in upA upC; do
        ip netns exec "$ns" ip link set lo up
    done
    ip netns exec upA ip link set ua0 up
    ip netns exec upC ip link set uc0 up
    check "the release's Open vSwitch takes the configuration" up_configure
    up_flows > /tmp/up-flows-before.txt
    cat /tmp/up-flows-before.txt
    check "a ping from A reaches C through br-int" \
        ip netns exec upA ping -c 3 -i 0.2 -W 5 10.19.0.3
    up_iperf "the release's Open vSwitch"
    up_dump /tmp/up-before.json
    echo "-- ovsdb-client dump before the upgrade"
    cat /tmp/up-before.json.txt

    echo "== upgrade: dpkg -i the project's packages over them, DKMS too"
    check "Open vSwitch runs on the kernel's own module" loaded_is_in_tree
    # shellcheck disable=SC2086
    up_step upgrade "the project's packages over the release's" $ours_set
    check "dkms status: openvswitch-bigtcp installed for $kver" \
        sh -c "dkms status -m openvswitch-bigtcp -k $kver | grep -q installed"
    check "the DKMS package said that the loaded module is not its own" \
        test "$up_notice" = yes
    check "Open vSwitch runs on the DKMS module now (taint O)" \
        loaded_is_out_of_tree
    check "and the DKMS package finds it loaded (no reload, no notice)" \
        sh -c "test -z \"\$(/usr/lib/openvswitch-bigtcp-dkms/reload-kmod)\""
    check "ovs-vswitchd --version names the extension" \
        sh -c "ovs-vswitchd --version | grep -q ovs-bigtcp"
    check "ovs-appctl reaches the new ovs-vswitchd" \
        sh -c "ovs-appctl version | grep -q ovs-bigtcp"
    ls /etc/openvswitch/ /var/lib/openvswitch/
    up_check_db upgrade "$stock_id"
    ours_id=$(up_schema_id)
    up_dump /tmp/up-upgraded.json
    echo "-- ovsdb-client dump after the upgrade"
    cat /tmp/up-upgraded.json.txt
    check "every setting is still there after the upgrade" \
        python3 "$top/tests/ovsdb-dump-compare.py" /tmp/up-before.json \
            /tmp/up-upgraded.json
    up_flows > /tmp/up-flows-upgraded.txt
    check "the OpenFlow rules are still there after the upgrade" \
        diff -u /tmp/up-flows-before.txt /tmp/up-flows-upgraded.txt
    up_iperf "the project's Open vSwitch"

    echo "== a BIG TCP option, then rollback to the release's packages"
    check "the project's Open vSwitch takes options:tso-max-size" \
        ovs-vsctl set Interface uu1 options:tso-max-size=65536
    check "netdev-tso/show shows it" \
        sh -c "ovs-appctl netdev-tso/show uu1 \
               | grep -q 'configured: tso-max-size=65536'"
    ovs-appctl netdev-tso/show uu1
    # shellcheck disable=SC2086
    up_step rollback "the release's packages back (a downgrade)" $stock_set
    ovs-vswitchd --version | head -n 1
    check "ovs-vswitchd is the release's again" \
        sh -c "! ovs-vswitchd --version | grep -q ovs-bigtcp"
    check "the release's schema is installed again" \
        test "$(up_schema_id)" = "$stock_id"
    up_check_db rollback "$ours_id"
    up_dump /tmp/up-rolled-back.json
    echo "-- ovsdb-client dump after the rollback"
    cat /tmp/up-rolled-back.json.txt
    check "every setting of before the upgrade is still there" \
        python3 "$top/tests/ovsdb-dump-compare.py" /tmp/up-before.json \
            /tmp/up-rolled-back.json
    check "the BIG TCP option is still in the database" \
        sh -c "ovs-vsctl get Interface uu1 options:tso-max-size \
               | grep -qx '\"65536\"'"
    up_flows > /tmp/up-flows-rolled-back.txt
    check "the OpenFlow rules are still there after the rollback" \
        diff -u /tmp/up-flows-before.txt /tmp/up-flows-rolled-back.txt
    pid=$(up_vswitchd_pid)
    up_iperf "the release's Open vSwitch again"
    grep 'uu1' "$up_log" | tail -n 3
    check "the release's ovs-vswitchd ignores the option, with a warning" \
        grep -q 'uu1: arguments provided to device that is not configurable' \
            "$up_log"
    check "and keeps running (the same ovs-vswitchd after the flow)" \
        test "$(up_vswitchd_pid)" = "$pid"
    check "the release's Open vSwitch runs on the DKMS module" \
        loaded_is_out_of_tree

    echo "== rollback for good: the DKMS package removed"
    up_ping_start
    check "dpkg -r openvswitch-bigtcp-dkms" up_dpkg -r openvswitch-bigtcp-dkms
    up_reload_kmod_step
    up_ping_stop "DKMS removal"
    check "the DKMS package said that the loaded module is not the kernel's" \
        test "$up_notice" = yes
    check "Open vSwitch runs on the kernel's own module again" \
        loaded_is_in_tree
    up_flows > /tmp/up-flows-reloaded.txt
    check "the OpenFlow rules are still there after the reload" \
        diff -u /tmp/up-flows-before.txt /tmp/up-flows-reloaded.txt
    up_iperf "the release's Open vSwitch on the kernel's module"
    echo "outages:$up_outages"

    ovs-vsctl del-br br-int
    ovs-vsctl del-br br-ex
    ovs-vsctl del-br br-u
    ip link del uu0
    check "the release's Open vSwitch stops" ovs_stop
    ip netns del upA
    ip netns del upC
    for m in vport_vxlan vport_geneve vport_gre openvswitch; do
        rmmod "$m" 2>/dev/null
    done
    check "dpkg --purge the release's packages" \
        env DEBIAN_FRONTEND=noninteractive dpkg --purge \
            openvswitch-switch python3-openvswitch openvswitch-common
    rm -rf /etc/openvswitch /var/lib/openvswitch /var/log/openvswitch \
        /var/run/openvswitch
}
