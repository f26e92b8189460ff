/*
 * Copyright (c) 2026 The ovs-bigtcp authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

#ifndef DPIF_NETLINK_TNL_LIMITS_H
#define DPIF_NETLINK_TNL_LIMITS_H 1

/* BIG TCP on the kernel datapath's tunnel devices.
 *
 * In the kernel datapath, a VXLAN, Geneve or GRE port sends and receives
 * through a tunnel device in collect_md mode that ovs-vswitchd creates, or
 * finds, itself (dpif-netlink-rtnl.c: genev_sys_6081, vxlan_sys_4789,
 * gre_sys, ...), one for all the ports of its kind and UDP port.  The
 * kernel gives such a device GSO and GRO limits of 64 KiB.  Linux 7.3 lets
 * Geneve and VXLAN devices take TSO packets of up to GSO_MAX_SIZE (their
 * tso_max_size) but leaves those limits where they are; up to Linux 7.2,
 * their tso_max_size is 64 KiB, and the kernel refuses a larger
 * gso_max_size with EINVAL.
 *
 * This module gives each such device GSO and GRO limits (gso_max_size,
 * gso_ipv4_max_size, gro_max_size and gro_ipv4_max_size, all four alike,
 * so that the device coalesces no more than it can send on) of its
 * tso_max_size, as the kernel reports it, or the lowest "tso-max-size"
 * option of the tunnel ports that use the device, where that is lower.  It
 * reads the device's limits first, sends a request only where they differ
 * from that, and never asks for more than the device's tso_max_size, nor
 * sets a limit that the kernel does not report.  A device that the kernel
 * keeps at 64 KiB is logged once.  Each tunnel port's Interface status and
 * "ovs-appctl netdev-tso/show" say which limit holds on its device and why
 * (netdev_tso_limits_set_tnl_dev()).
 *
 * This runs from dpif-netlink's run function, when a tunnel port, its
 * option or its device changed. */

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct ofpbuf;
struct rtnetlink_change;

void dpif_netlink_tnl_limits_run(void);
void dpif_netlink_tnl_limits_wait(void);
void dpif_netlink_tnl_limits_refresh(const char *dev_name);

/* What holds the GSO and GRO limits of a tunnel device. */
enum dpif_netlink_tnl_source {
    DPIF_NETLINK_TNL_DEVICE,     /* The device's tso_max_size, over 64 KiB. */
    DPIF_NETLINK_TNL_OPTION,     /* A port's lower "tso-max-size". */
    DPIF_NETLINK_TNL_KERNEL,     /* The device's tso_max_size of 64 KiB (or
                                  * less): the kernel's device takes no
                                  * more. */
    DPIF_NETLINK_TNL_UNREPORTED, /* The kernel reports no tso_max_size. */
    DPIF_NETLINK_TNL_ERROR,      /* Reading or setting them failed. */
};

/* What a tunnel device's GSO and GRO limits should be.  The plan, its
 * request and its sentence are exposed for the unit tests
 * (tests/test-bigtcp-tnl-limits.c). */
struct dpif_netlink_tnl_plan {
    enum dpif_netlink_tnl_source source;
    uint32_t max_size;          /* The limits, once the plan is carried out
                                 * (0 if the kernel reported none). */
    bool set;                   /* Whether that takes a request. */
};

void dpif_netlink_tnl_limits_plan(const struct rtnetlink_change *dev,
                                  uint32_t user_max_size,
                                  struct dpif_netlink_tnl_plan *);
void dpif_netlink_tnl_limits_put_request(struct ofpbuf *, const char *name,
                                         const struct rtnetlink_change *,
                                         uint32_t size);
const char *dpif_netlink_tnl_limits_source_name(enum dpif_netlink_tnl_source);
void dpif_netlink_tnl_limits_format(enum dpif_netlink_tnl_source,
                                    uint32_t max_size, uint32_t tso_max_size,
                                    const char *kind, const char *user_port,
                                    uint32_t wanted, int error, struct ds *);

#endif /* dpif-netlink-tnl-limits.h */
