#!/usr/bin/env python3
"""ovsdb-dump-compare.py BEFORE AFTER: whether the configuration in
BEFORE is still in AFTER.

BEFORE and AFTER are "ovsdb-client dump --format=json" outputs of the
Open_vSwitch database (one JSON object per table and line), taken before
and after a package upgrade or rollback that converted the database to
another schema.  Rows are matched by _uuid (ovsdb-tool convert keeps row
UUIDs).  Every row of BEFORE must be in AFTER, and every column of the row
that BEFORE has must hold the same value in AFTER, except:

* a column that AFTER's schema does not have (dropped by a rollback) is
  reported, not compared;
* a column that AFTER has and BEFORE does not (added by an upgrade) is
  not compared;
* a map keeps every key of BEFORE with its value; keys that only AFTER
  has are reported (a daemon or the new version may add some);
* the columns in RUNTIME are state that ovs-vswitchd, ovsdb-server or
  ovs-ctl write, not configuration: they are not compared.

Rows that only AFTER has are reported.  Prints one line per difference
and per note; exits 1 if a configured value is lost or changed.
"""

import json
import sys

# Columns written by the daemons or by ovs-ctl at start-up, per table.
RUNTIME = {
    "Open_vSwitch": {"cur_cfg", "next_cfg", "ovs_version", "db_version",
                     "system_type", "system_version", "datapath_types",
                     "iface_types", "dpdk_initialized", "dpdk_version",
                     "statistics"},
    "Bridge": {"datapath_id", "datapath_version", "status", "rstp_status"},
    "Port": {"status", "statistics", "rstp_status", "rstp_statistics",
             "bond_active_slave", "bond_active_member"},
    "Interface": {"ifindex", "mac_in_use", "admin_state", "link_state",
                  "link_resets", "link_speed", "duplex", "mtu", "status",
                  "statistics", "lacp_current", "error", "cfm_fault",
                  "cfm_fault_status", "cfm_health", "cfm_remote_mpids",
                  "cfm_remote_opstate", "cfm_flap_count", "bfd_status"},
    "Controller": {"is_connected", "role", "status"},
    "Manager": {"is_connected", "status"},
    "Mirror": {"statistics"},
    "Datapath": {"capabilities"},
}


def load(path):
    tables = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            name = t["caption"]
            if name.endswith(" table"):
                name = name[:-len(" table")]
            rows = {}
            for data in t["data"]:
                row = dict(zip(t["headings"], data))
                rows[row["_uuid"][1]] = row
            tables[name] = (t["headings"], rows)
    return tables


def fmt(value):
    return json.dumps(value, separators=(",", ":"))


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    before = load(sys.argv[1])
    after = load(sys.argv[2])
    lost = 0
    checked = 0
    for table, (headings, rows) in sorted(before.items()):
        if table not in after:
            if rows:
                print(f"{table}: table gone with {len(rows)} rows")
                lost += len(rows)
            continue
        a_headings, a_rows = after[table]
        for col in headings:
            if col not in a_headings and rows:
                print(f"{table}: column {col} not in the new schema")
        for uuid, row in sorted(rows.items()):
            arow = a_rows.get(uuid)
            if arow is None:
                print(f"{table} {uuid}: row lost")
                lost += 1
                continue
            for col, value in row.items():
                if (col == "_uuid" or col not in arow
                        or col in RUNTIME.get(table, ())):
                    continue
                checked += 1
                avalue = arow[col]
                if (isinstance(value, list) and value[0] == "map"
                        and isinstance(avalue, list)
                        and avalue[0] == "map"):
                    old = {fmt(k): v for k, v in value[1]}
                    new = {fmt(k): v for k, v in avalue[1]}
                    for k, v in old.items():
                        if k not in new:
                            print(f"{table} {uuid} {col}: key {k} lost")
                            lost += 1
                        elif new[k] != v:
                            print(f"{table} {uuid} {col}: key {k} "
                                  f"{fmt(v)} -> {fmt(new[k])}")
                            lost += 1
                    for k in sorted(set(new) - set(old)):
                        print(f"{table} {uuid} {col}: key {k} added "
                              f"({fmt(new[k])})")
                elif avalue != value:
                    print(f"{table} {uuid} {col}: {fmt(value)} -> "
                          f"{fmt(avalue)}")
                    lost += 1
        for uuid in sorted(set(a_rows) - set(rows)):
            print(f"{table} {uuid}: row added")
    print(f"{checked} configured values compared, {lost} lost or changed")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
