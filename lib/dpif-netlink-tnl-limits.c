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

#include <config.h>
#include "dpif-netlink-tnl-limits.h"

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>

#include "connectivity.h"
#include "coverage.h"
#include "hash.h"
#include "netdev.h"
#include "netdev-provider.h"
#include "netdev-tso-limits.h"
#include "netdev-vport.h"
#include "netlink.h"
#include "netlink-socket.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "rtnetlink.h"
#include "seq.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(dpif_netlink_tnl_limits);

/* Requests that set a tunnel device's GSO and GRO limits, and those that the
 * kernel refused. */
COVERAGE_DEFINE(dpif_netlink_tnl_set);
COVERAGE_DEFINE(dpif_netlink_tnl_set_error);
/* Tunnel devices that the kernel keeps at 64 KiB (or less), once each. */
COVERAGE_DEFINE(dpif_netlink_tnl_capped);

/* A tunnel device of the kernel datapath that one or more tunnel ports
 * use. */
struct tnl_dev {
    struct hmap_node node;      /* In 'tnl_devs', by name. */
    char *name;                 /* e.g. "genev_sys_6081". */

    /* The lowest "tso-max-size" option of the ports that use the device,
     * 0 if none has one, and the first port, by name, that has it. */
    uint32_t user_max_size;
    char *user_port;

    bool stale;                 /* To be read (and set) at the next run. */
    bool told;                  /* Logged that the kernel keeps the limits
                                 * where they are. */

    /* During a run: whether a port uses the device, and the option and
     * port that the ports ask for. */
    bool used;
    uint32_t next_user_max_size;
    const char *next_user_port;

    /* What the ports show (netdev_tso_limits_set_tnl_dev()). */
    struct netdev_tso_tnl_dev shown;
};

static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;

/* All tunnel devices that a tunnel port of the kernel datapath uses. */
static struct hmap tnl_devs OVS_GUARDED_BY(mutex)
    = HMAP_INITIALIZER(&tnl_devs);

/* The connectivity sequence number at the last run (a tunnel port, or its
 * "tso-max-size" option, changes it), and whether a device is to be read
 * again at the next run (dpif_netlink_tnl_limits_refresh()). */
static uint64_t last_seq OVS_GUARDED_BY(mutex);
static bool any_stale OVS_GUARDED_BY(mutex);

/* Returns the name of 'source' in the JSON output of netdev-tso/show. */
const char *
dpif_netlink_tnl_limits_source_name(enum dpif_netlink_tnl_source source)
{
    switch (source) {
    case DPIF_NETLINK_TNL_DEVICE:
        return "device";
    case DPIF_NETLINK_TNL_OPTION:
        return "option";
    case DPIF_NETLINK_TNL_KERNEL:
        return "kernel";
    case DPIF_NETLINK_TNL_UNREPORTED:
        return "unreported";
    case DPIF_NETLINK_TNL_ERROR:
    default:
        return "error";
    }
}

/* Returns true if a tunnel device's limit 'reported' (0 if the kernel does
 * not report it) is to be set to 'size'. */
static bool
differs(uint32_t reported, uint32_t size)
{
    return reported && reported != size;
}

/* Plans the GSO and GRO limits of a tunnel device, whose limits the kernel
 * reported in 'dev' (a link message parsed by rtnetlink_parse()), for the
 * lowest "tso-max-size" option 'user_max_size' of the tunnel ports that use
 * it (0 if none has one), into '*plan'.
 *
 * The limits are the device's tso_max_size (at most GSO_MAX_SIZE), or
 * 'user_max_size' where that is lower.  A request is planned only where a
 * limit that the kernel reports differs from that, and it never exceeds the
 * device's tso_max_size, which the kernel would refuse.  Without a
 * tso_max_size, nothing is planned. */
void
dpif_netlink_tnl_limits_plan(const struct rtnetlink_change *dev,
                             uint32_t user_max_size,
                             struct dpif_netlink_tnl_plan *plan)
{
    uint32_t dev_max;

    if (!dev->tso_max_size) {
        plan->source = DPIF_NETLINK_TNL_UNREPORTED;
        plan->max_size = dev->gso_max_size;
        plan->set = false;
        return;
    }

    dev_max = MIN(dev->tso_max_size, GSO_MAX_SIZE);
    if (user_max_size && user_max_size < dev_max) {
        plan->source = DPIF_NETLINK_TNL_OPTION;
        plan->max_size = user_max_size;
    } else {
        plan->source = (dev_max > NETDEV_TSO_DEFAULT_MAX_SIZE
                        ? DPIF_NETLINK_TNL_DEVICE
                        : DPIF_NETLINK_TNL_KERNEL);
        plan->max_size = dev_max;
    }
    plan->set = (differs(dev->gso_max_size, plan->max_size)
                 || differs(dev->gso_ipv4_max_size, plan->max_size)
                 || differs(dev->gro_max_size, plan->max_size)
                 || differs(dev->gro_ipv4_max_size, plan->max_size));
}

/* Formats into 's' which GSO and GRO limit holds on a tunnel device, and
 * why, as its tunnel ports' status and netdev-tso/show say it: the limit
 * 'max_size' (0 if unknown), held by 'source', where the device's TSO limit
 * is 'tso_max_size' (0 if unknown), its kind (IFLA_INFO_KIND) 'kind', and
 * 'user_port' the port whose "tso-max-size" it is, for
 * DPIF_NETLINK_TNL_OPTION.  'wanted' is the limit that a request set, or
 * for DPIF_NETLINK_TNL_ERROR the limit that the kernel refused to set, and 0
 * if there was no request (or, for DPIF_NETLINK_TNL_ERROR, reading the
 * device failed), and 'error' the errno value of the failure. */
void
dpif_netlink_tnl_limits_format(enum dpif_netlink_tnl_source source,
                               uint32_t max_size, uint32_t tso_max_size,
                               const char *kind, const char *user_port,
                               uint32_t wanted, int error, struct ds *s)
{
    if (!max_size) {
        ds_put_cstr(s, "unknown: ");
    }

    switch (source) {
    case DPIF_NETLINK_TNL_DEVICE:
        ds_put_format(s, "raised to %"PRIu32": ", max_size);
        if (tso_max_size > max_size) {
            ds_put_format(s, "GSO_MAX_SIZE (the device's tso_max_size is "
                          "%"PRIu32")", tso_max_size);
        } else {
            ds_put_format(s, "the device's maximum (tso_max_size %"PRIu32")",
                          tso_max_size);
        }
        break;
    case DPIF_NETLINK_TNL_OPTION:
        ds_put_format(s, "lowered to %"PRIu32": tso-max-size of %s (the "
                      "device takes up to %"PRIu32")",
                      max_size, user_port, tso_max_size);
        break;
    case DPIF_NETLINK_TNL_KERNEL:
        ds_put_format(s, "%s %"PRIu32": the kernel's %s device takes no "
                      "more (tso_max_size %"PRIu32")",
                      wanted ? "set back to" : "stays at", max_size, kind,
                      tso_max_size);
        break;
    case DPIF_NETLINK_TNL_UNREPORTED:
        if (max_size) {
            ds_put_format(s, "stays at %"PRIu32": ", max_size);
        }
        ds_put_cstr(s, "the kernel does not report the device's "
                    "tso_max_size");
        break;
    case DPIF_NETLINK_TNL_ERROR:
    default:
        if (max_size) {
            ds_put_format(s, "stays at %"PRIu32": ", max_size);
        }
        if (wanted) {
            ds_put_format(s, "setting %"PRIu32" failed (%s)",
                          wanted, ovs_strerror(error));
        } else {
            ds_put_format(s, "reading the device failed (%s)",
                          ovs_strerror(error));
        }
        break;
    }
}

/* Reads the link of tunnel device 'name' into '*change', whose strings point
 * into '*replyp', which the caller must free.  Returns 0 or a positive errno
 * value. */
static int
tnl_dev_get(const char *name, struct rtnetlink_change *change,
            struct ofpbuf **replyp)
{
    struct ofpbuf request;
    int error;

    ofpbuf_init(&request, 0);
    nl_msg_put_nlmsghdr(&request, 0, RTM_GETLINK, NLM_F_REQUEST);
    ofpbuf_put_zeros(&request, sizeof(struct ifinfomsg));
    nl_msg_put_string(&request, IFLA_IFNAME, name);
    nl_msg_put_u32(&request, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
    error = nl_transact(NETLINK_ROUTE, &request, replyp);
    ofpbuf_uninit(&request);

    if (!error && (!rtnetlink_parse(*replyp, change)
                   || change->nlmsg_type != RTM_NEWLINK)) {
        error = EPROTO;
    }
    return error;
}

/* Puts into 'request' an RTM_SETLINK request that sets each GSO and GRO
 * limit of tunnel device 'name' that the kernel reported in 'change' to
 * 'size', and no other. */
void
dpif_netlink_tnl_limits_put_request(struct ofpbuf *request, const char *name,
                                    const struct rtnetlink_change *change,
                                    uint32_t size)
{
    const struct {
        uint32_t reported;
        uint16_t type;
    } limits[] = {
        { change->gso_max_size, OVS_IFLA_GSO_MAX_SIZE },
        { change->gso_ipv4_max_size, OVS_IFLA_GSO_IPV4_MAX_SIZE },
        { change->gro_max_size, OVS_IFLA_GRO_MAX_SIZE },
        { change->gro_ipv4_max_size, OVS_IFLA_GRO_IPV4_MAX_SIZE },
    };

    nl_msg_put_nlmsghdr(request, 0, RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK);
    ofpbuf_put_zeros(request, sizeof(struct ifinfomsg));
    nl_msg_put_string(request, IFLA_IFNAME, name);
    for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
        if (limits[i].reported) {
            nl_msg_put_u32(request, limits[i].type, size);
        }
    }
}

/* Sets the GSO and GRO limits of tunnel device 'name', which the kernel
 * reported in 'change', to 'size'.  Returns 0 or a positive errno value. */
static int
tnl_dev_set(const char *name, const struct rtnetlink_change *change,
            uint32_t size)
{
    struct ofpbuf request;
    int error;

    ofpbuf_init(&request, 0);
    dpif_netlink_tnl_limits_put_request(&request, name, change, size);
    error = nl_transact(NETLINK_ROUTE, &request, NULL);
    ofpbuf_uninit(&request);
    return error;
}

/* Records what its ports show of 'dev': 'max_size', 'tso_max_size' and
 * 'source', and the sentence that dpif_netlink_tnl_limits_format() makes of
 * them and of 'kind', 'wanted' and 'error'. */
static void
tnl_dev_show(struct tnl_dev *dev, enum dpif_netlink_tnl_source source,
             uint32_t max_size, uint32_t tso_max_size, const char *kind,
             uint32_t wanted, int error)
{
    struct ds limit = DS_EMPTY_INITIALIZER;

    dpif_netlink_tnl_limits_format(source, max_size, tso_max_size, kind,
                                   dev->user_port, wanted, error, &limit);
    free(dev->shown.limit);
    dev->shown.limit = ds_steal_cstr(&limit);
    dev->shown.max_size = max_size;
    dev->shown.tso_max_size = tso_max_size;
    dev->shown.source = dpif_netlink_tnl_limits_source_name(source);
}

/* Reads the limits of 'dev', sets them as dpif_netlink_tnl_limits_plan()
 * plans, and records the outcome for its ports. */
static void
tnl_dev_apply(struct tnl_dev *dev)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    struct dpif_netlink_tnl_plan plan;
    struct rtnetlink_change change;
    struct ofpbuf *reply = NULL;
    char *kind;
    int error;

    error = tnl_dev_get(dev->name, &change, &reply);
    if (error) {
        tnl_dev_show(dev, DPIF_NETLINK_TNL_ERROR, 0, 0, NULL, 0, error);
        VLOG_WARN_RL(&rl, "%s: GSO and GRO limit %s", dev->name,
                     dev->shown.limit);
        ofpbuf_delete(reply);
        return;
    }
    kind = xstrdup(change.primary ? change.primary : "tunnel");

    dpif_netlink_tnl_limits_plan(&change, dev->user_max_size, &plan);
    if (plan.set) {
        error = tnl_dev_set(dev->name, &change, plan.max_size);
        if (error) {
            COVERAGE_INC(dpif_netlink_tnl_set_error);
            tnl_dev_show(dev, DPIF_NETLINK_TNL_ERROR, change.gso_max_size,
                         change.tso_max_size, kind, plan.max_size, error);
            VLOG_WARN_RL(&rl, "%s: GSO and GRO limit %s", dev->name,
                         dev->shown.limit);
        } else {
            COVERAGE_INC(dpif_netlink_tnl_set);
            tnl_dev_show(dev, plan.source, plan.max_size,
                         change.tso_max_size, kind, plan.max_size, 0);
            VLOG_INFO("%s: GSO and GRO limit %s", dev->name,
                      dev->shown.limit);
        }
    } else {
        tnl_dev_show(dev, plan.source, plan.max_size, change.tso_max_size,
                     kind, 0, 0);
    }

    /* Where the kernel keeps the device's limits, say so once. */
    if (!dev->told && (plan.source == DPIF_NETLINK_TNL_KERNEL
                       || plan.source == DPIF_NETLINK_TNL_UNREPORTED)) {
        dev->told = true;
        if (plan.source == DPIF_NETLINK_TNL_KERNEL) {
            COVERAGE_INC(dpif_netlink_tnl_capped);
        }
        if (!plan.set) {
            VLOG_INFO("%s: GSO and GRO limit %s", dev->name,
                      dev->shown.limit);
        }
    }

    free(kind);
    ofpbuf_delete(reply);
}

static struct tnl_dev *
tnl_dev_find(const char *name)
    OVS_REQUIRES(mutex)
{
    struct tnl_dev *dev;

    HMAP_FOR_EACH_WITH_HASH (dev, node, hash_string(name, 0), &tnl_devs) {
        if (!strcmp(dev->name, name)) {
            return dev;
        }
    }
    return NULL;
}

static struct tnl_dev *
tnl_dev_create(const char *name)
    OVS_REQUIRES(mutex)
{
    struct tnl_dev *dev = xzalloc(sizeof *dev);

    dev->name = xstrdup(name);
    dev->stale = true;
    dev->shown.name = dev->name;
    dev->shown.source
        = dpif_netlink_tnl_limits_source_name(DPIF_NETLINK_TNL_ERROR);
    dev->shown.limit = xstrdup("unknown: not read yet");
    hmap_insert(&tnl_devs, &dev->node, hash_string(name, 0));
    return dev;
}

static void
tnl_dev_destroy(struct tnl_dev *dev)
    OVS_REQUIRES(mutex)
{
    hmap_remove(&tnl_devs, &dev->node);
    free(dev->name);
    free(dev->user_port);
    free(dev->shown.limit);
    free(dev);
}

/* Returns the tunnel device of 'netdev', into 'buf', if 'netdev' is a
 * tunnel port of the kernel datapath, otherwise NULL. */
static const char *
tnl_port_dev_name(const struct netdev *netdev, char *buf, size_t bufsize)
{
    const char *dpif_type = netdev_get_dpif_type(netdev);

    if (!dpif_type || strcmp(dpif_type, "system")
        || !netdev_get_tunnel_config(netdev)) {
        return NULL;
    }
    return netdev_vport_get_dpif_port(netdev, buf, bufsize);
}

/* Brings the GSO and GRO limits of the kernel datapath's tunnel devices in
 * line with their tunnel ports, when a port, its "tso-max-size" option or
 * its device changed since the last run, and shows the outcome on the
 * ports.  Called from dpif-netlink's run function. */
void
dpif_netlink_tnl_limits_run(void)
{
    char buf[NETDEV_VPORT_NAME_BUFSIZE];
    struct netdev **vports;
    struct tnl_dev *dev;
    uint64_t seq;
    size_t n;

    ovs_mutex_lock(&mutex);
    seq = seq_read(connectivity_seq_get());
    if (seq == last_seq && !any_stale) {
        ovs_mutex_unlock(&mutex);
        return;
    }
    last_seq = seq;
    any_stale = false;

    /* Which devices the ports use, and the lowest option of each. */
    HMAP_FOR_EACH (dev, node, &tnl_devs) {
        dev->used = false;
    }
    vports = netdev_get_vports(&n);
    for (size_t i = 0; i < n; i++) {
        const char *port = netdev_get_name(vports[i]);
        const char *name = tnl_port_dev_name(vports[i], buf, sizeof buf);
        uint32_t user;

        if (!name) {
            continue;
        }
        dev = tnl_dev_find(name);
        if (!dev) {
            dev = tnl_dev_create(name);
        }
        if (!dev->used) {
            dev->used = true;
            dev->next_user_max_size = 0;
            dev->next_user_port = NULL;
        }
        user = netdev_tso_limits_get_user_max_size(vports[i]);
        if (user && (!dev->next_user_max_size
                     || user < dev->next_user_max_size
                     || (user == dev->next_user_max_size
                         && strcmp(port, dev->next_user_port) < 0))) {
            dev->next_user_max_size = user;
            dev->next_user_port = port;
        }
    }

    /* Set the limits of the devices whose ports or option changed. */
    HMAP_FOR_EACH_SAFE (dev, node, &tnl_devs) {
        if (!dev->used) {
            tnl_dev_destroy(dev);
            continue;
        }
        if (dev->next_user_max_size != dev->user_max_size
            || !nullable_string_is_equal(dev->next_user_port,
                                         dev->user_port)) {
            dev->user_max_size = dev->next_user_max_size;
            free(dev->user_port);
            dev->user_port = nullable_xstrdup(dev->next_user_port);
            dev->stale = true;
        }
        if (dev->stale) {
            dev->stale = false;
            tnl_dev_apply(dev);
        }
    }

    /* Show each port what its device has. */
    for (size_t i = 0; i < n; i++) {
        const char *name = tnl_port_dev_name(vports[i], buf, sizeof buf);

        if (name) {
            netdev_tso_limits_set_tnl_dev(vports[i],
                                          &tnl_dev_find(name)->shown);
        }
        netdev_close(vports[i]);
    }
    free(vports);
    ovs_mutex_unlock(&mutex);
}

/* Arranges for the poll loop to wake up when dpif_netlink_tnl_limits_run()
 * has work to do. */
void
dpif_netlink_tnl_limits_wait(void)
{
    ovs_mutex_lock(&mutex);
    if (any_stale) {
        poll_immediate_wake();
    } else {
        seq_wait(connectivity_seq_get(), last_seq);
    }
    ovs_mutex_unlock(&mutex);
}

/* Tells this module that dpif-netlink-rtnl created, or found and verified,
 * tunnel device 'dev_name' for a tunnel port: its limits are read and set
 * again at the next run, since they may be the kernel's defaults again. */
void
dpif_netlink_tnl_limits_refresh(const char *dev_name)
{
    struct tnl_dev *dev;

    ovs_mutex_lock(&mutex);
    dev = tnl_dev_find(dev_name);
    if (dev) {
        dev->stale = true;
    }
    any_stale = true;
    ovs_mutex_unlock(&mutex);
}
