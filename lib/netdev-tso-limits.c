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
#include "netdev-tso-limits.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "netdev-provider.h"
#include "netdev-show.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "smap.h"
#include "unixctl.h"
#include "userspace-tso.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_tso_limits);

/* Interface options. */
#define OPT_MAX_SIZE "tso-max-size"
#define OPT_MAX_SEGS "tso-max-segs"

void
netdev_tso_limits_init(struct netdev_tso_limits *l)
{
    l->dev_max_size = NETDEV_TSO_DEFAULT_MAX_SIZE;
    l->dev_ipv4_max_size = NETDEV_TSO_DEFAULT_MAX_SIZE;
    l->dev_max_segs = GSO_MAX_SEGS;
    l->dev_reported = false;
    l->user_max_size = 0;
    l->user_max_segs = 0;
    atomic_init(&l->max_size, NETDEV_TSO_DEFAULT_MAX_SIZE);
    atomic_init(&l->ipv4_max_size, NETDEV_TSO_DEFAULT_MAX_SIZE);
    atomic_init(&l->max_segs, GSO_MAX_SEGS);
    l->config_error = NULL;
    for (int i = 0; i < ARRAY_SIZE(l->tnl_big); i++) {
        atomic_init(&l->tnl_big[i], NETDEV_TSO_TNL_BIG_NONE);
        l->tnl_dev_max_size[i] = 0;
        atomic_init(&l->tnl_max_size[i], 0);
    }
    atomic_init(&l->n_resegmented, 0);
    atomic_init(&l->n_reseg_packets, 0);
    atomic_init(&l->n_segmented, 0);
    atomic_init(&l->n_tx_fallback, 0);
    atomic_init(&l->n_tx_fallback_packets, 0);
    l->tnl_dev = NULL;
}

static void
tnl_dev_destroy(struct netdev_tso_tnl_dev *d)
{
    if (d) {
        free(d->name);
        free(d->limit);
        free(d);
    }
}

void
netdev_tso_limits_destroy(struct netdev_tso_limits *l)
{
    free(l->config_error);
    l->config_error = NULL;
    tnl_dev_destroy(l->tnl_dev);
    l->tnl_dev = NULL;
}

/* Returns the lower of 'dev' and 'user', where 'user' 0 means no limit. */
static uint32_t
lower(uint32_t dev, uint32_t user)
{
    return user && user < dev ? user : dev;
}

/* Recomputes the limits in effect of 'netdev' and signals a change to its
 * users if they changed.  The change is logged, at debug level only if
 * 'first' (the provider's first report of a port's limits, which every
 * port gets when it is opened: netdev-tso/show lists them). */
static void
update(struct netdev *netdev, bool first)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;
    uint32_t old_size, old_ipv4_size, old_segs;
    uint32_t size, ipv4_size, segs;

    size = lower(l->dev_max_size, l->user_max_size);
    ipv4_size = lower(l->dev_ipv4_max_size, l->user_max_size);
    segs = lower(l->dev_max_segs, l->user_max_segs);

    atomic_read_relaxed(&l->max_size, &old_size);
    atomic_read_relaxed(&l->ipv4_max_size, &old_ipv4_size);
    atomic_read_relaxed(&l->max_segs, &old_segs);
    if (size != old_size || ipv4_size != old_ipv4_size || segs != old_segs) {
        atomic_store_relaxed(&l->max_size, size);
        atomic_store_relaxed(&l->ipv4_max_size, ipv4_size);
        atomic_store_relaxed(&l->max_segs, segs);
        VLOG(first ? VLL_DBG : VLL_INFO,
             "%s: TSO limits %"PRIu32" bytes (IPv4 %"PRIu32"), "
             "%"PRIu32" segments", netdev_get_name(netdev), size,
             ipv4_size, segs);
        netdev_change_seq_changed(netdev);
    }
}

/* Records that the device behind 'netdev' takes TSO packets of up to
 * 'max_size' bytes (IPv6 and others), 'ipv4_max_size' bytes (IPv4) and
 * 'max_segs' segments.  Zero for a value keeps the default.  Called by
 * netdev providers, whenever they learn the device's limits. */
void
netdev_tso_limits_set_dev(struct netdev *netdev, uint32_t max_size,
                          uint32_t ipv4_max_size, uint32_t max_segs)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;
    bool first = !l->dev_reported;

    l->dev_max_size = max_size ? max_size : NETDEV_TSO_DEFAULT_MAX_SIZE;
    l->dev_ipv4_max_size = (ipv4_max_size ? ipv4_max_size
                            : NETDEV_TSO_DEFAULT_MAX_SIZE);
    l->dev_max_segs = max_segs ? max_segs : GSO_MAX_SEGS;
    l->dev_reported = true;
    update(netdev, first);
}

const char *
netdev_tso_limits_tnl_big_to_string(enum netdev_tso_tnl_big answer)
{
    switch (answer) {
    case NETDEV_TSO_TNL_BIG_PENDING:
        return "pending";
    case NETDEV_TSO_TNL_BIG_UNKNOWN:
        return "unknown";
    case NETDEV_TSO_TNL_BIG_NO:
        return "no";
    case NETDEV_TSO_TNL_BIG_YES:
        return "yes";
    case NETDEV_TSO_TNL_BIG_NONE:
    default:
        return "none";
    }
}

/* Returns the index into the 'tnl_*' members of struct netdev_tso_limits
 * for outer IP version 'ip_version'. */
static int
tnl_index(int ip_version)
{
    return ip_version == 4 ? 0 : 1;
}

/* Records whether 'netdev' takes UDP tunnel TSO packets whose outer IP
 * packet is over 64 KiB with outer IP version 'ip_version' (see enum
 * netdev_tso_tnl_big): 'answer', and the largest such frame the device
 * takes, 'max_size' bytes.  They are sent up to that size, within the
 * port's TSO limits, if 'answer' is NETDEV_TSO_TNL_BIG_YES and 'max_size' is
 * over 64 KiB; otherwise their outer lengths fit in 16 bits, as before.
 * Called by netdev providers, whenever they learn either. */
void
netdev_tso_limits_set_tnl_big(struct netdev *netdev, int ip_version,
                              enum netdev_tso_tnl_big answer,
                              uint32_t max_size)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;
    int i = tnl_index(ip_version);
    uint32_t size = (answer == NETDEV_TSO_TNL_BIG_YES
                     && max_size > NETDEV_TSO_DEFAULT_MAX_SIZE
                     ? max_size : 0);
    uint32_t old_size;
    int old_answer;

    atomic_read_relaxed(&l->tnl_big[i], &old_answer);
    atomic_read_relaxed(&l->tnl_max_size[i], &old_size);
    if (answer == old_answer && max_size == l->tnl_dev_max_size[i]
        && size == old_size) {
        return;
    }
    atomic_store_relaxed(&l->tnl_big[i], answer);
    l->tnl_dev_max_size[i] = max_size;
    atomic_store_relaxed(&l->tnl_max_size[i], size);
    if (size != old_size) {
        if (size) {
            VLOG_INFO("%s: UDP tunnel TSO packets over IPv%d: up to %"PRIu32
                      " bytes, with outer lengths 0 over 64 KiB",
                      netdev_get_name(netdev), ip_version, size);
        } else {
            VLOG_INFO("%s: UDP tunnel TSO packets over IPv%d: outer "
                      "lengths within 16 bits (kernel: %s, device limit %"
                      PRIu32")", netdev_get_name(netdev), ip_version,
                      netdev_tso_limits_tnl_big_to_string(answer), max_size);
        }
    }
    netdev_change_seq_changed(netdev);
}

/* Parses option 'key' of 'args' into '*value' (0 if the option is absent)
 * and removes it from 'args'.  The value must be an integer from 'min' to
 * 'max'.  On error, appends a message to 'errors' and leaves '*value' 0. */
static void
parse_option(const struct netdev *netdev, struct smap *args, const char *key,
             uint32_t min, uint32_t max, uint32_t *value, struct ds *errors)
{
    const char *s = smap_get(args, key);
    unsigned long long int n;
    char *end;

    *value = 0;
    if (!s) {
        return;
    }

    errno = 0;
    n = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || n < min || n > max) {
        ds_put_format(errors, "%s%s: invalid %s \"%s\" (expected an integer "
                      "from %"PRIu32" to %"PRIu32"), ignored",
                      errors->length ? "; " : "", netdev_get_name(netdev),
                      key, s, min, max);
    } else {
        *value = n;
    }
    smap_remove(args, key);
}

/* Applies the TSO limit options in 'args' (tso-max-size, tso-max-segs) to
 * 'netdev' and removes them from 'args', so that the remaining options can
 * go to the netdev provider.  An invalid value is ignored, as if it were
 * absent, and logged; the port keeps working, and the explanation is
 * available from netdev_tso_limits_get_error() until the options change. */
void
netdev_tso_limits_set_config(struct netdev *netdev, struct smap *args)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;
    struct ds errors = DS_EMPTY_INITIALIZER;
    uint32_t size, segs;

    parse_option(netdev, args, OPT_MAX_SIZE, NETDEV_TSO_MIN_USER_SIZE,
                 GSO_MAX_SIZE, &size, &errors);
    parse_option(netdev, args, OPT_MAX_SEGS, 2, GSO_MAX_SEGS,
                 &segs, &errors);
    if (size != l->user_max_size || segs != l->user_max_segs) {
        l->user_max_size = size;
        l->user_max_segs = segs;
        update(netdev, false);
        /* Even where the limits in effect stay, those who act on the
         * options themselves (a kernel datapath tunnel port's device, see
         * netdev_tso_limits_get_user_max_size()) learn of the change. */
        netdev_change_seq_changed(netdev);
    }

    free(l->config_error);
    l->config_error = NULL;
    if (errors.length) {
        VLOG_WARN("%s", ds_cstr(&errors));
        l->config_error = ds_steal_cstr(&errors);
    }
    ds_destroy(&errors);
}

/* Returns the value of the "tso-max-size" option of 'netdev', or 0 if it has
 * none (or an invalid one).  For the kernel datapath, which applies the
 * option of a tunnel port to the port's tunnel device. */
uint32_t
netdev_tso_limits_get_user_max_size(const struct netdev *netdev)
{
    return netdev->tso_limits.user_max_size;
}

static bool
tnl_dev_equal(const struct netdev_tso_tnl_dev *a,
              const struct netdev_tso_tnl_dev *b)
{
    return (a == b
            || (a && b && !strcmp(a->name, b->name)
                && a->max_size == b->max_size
                && a->tso_max_size == b->tso_max_size
                && !strcmp(a->source, b->source)
                && !strcmp(a->limit, b->limit)));
}

/* Records 'd' (copied; NULL for none) as what happened to the GSO and GRO
 * limits of the tunnel device behind 'netdev', a tunnel port of the kernel
 * datapath, and signals a change to 'netdev''s users if that differs from
 * what was recorded before, so that its status column follows. */
void
netdev_tso_limits_set_tnl_dev(struct netdev *netdev,
                              const struct netdev_tso_tnl_dev *d)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;

    if (tnl_dev_equal(l->tnl_dev, d)) {
        return;
    }
    tnl_dev_destroy(l->tnl_dev);
    l->tnl_dev = NULL;
    if (d) {
        l->tnl_dev = xmalloc(sizeof *l->tnl_dev);
        l->tnl_dev->name = xstrdup(d->name);
        l->tnl_dev->max_size = d->max_size;
        l->tnl_dev->tso_max_size = d->tso_max_size;
        l->tnl_dev->source = d->source;
        l->tnl_dev->limit = xstrdup(d->limit);
    }
    netdev_change_seq_changed(netdev);
}

/* Returns why some TSO limit options of 'netdev' were ignored, or NULL if
 * they were all valid.  The bridge shows it in the Interface error
 * column. */
const char *
netdev_tso_limits_get_error(const struct netdev *netdev)
{
    return netdev->tso_limits.config_error;
}

/* Adds the TSO limits in effect for 'netdev' to 'smap', the contents of
 * the Interface status column, if the port takes TSO packets. */
void
netdev_tso_limits_get_status(const struct netdev *netdev, struct smap *smap)
{
    const struct netdev_tso_tnl_dev *d = netdev->tso_limits.tnl_dev;
    uint32_t size, ipv4_size, segs;

    if (d) {
        smap_add(smap, "tunnel_device", d->name);
        if (d->max_size) {
            smap_add_format(smap, "tunnel_device_max_size", "%"PRIu32,
                            d->max_size);
        }
        smap_add(smap, "tunnel_device_limit", d->limit);
    }
    if (!userspace_tso_enabled()
        || !(netdev->ol_flags & NETDEV_TX_OFFLOAD_TCP_TSO)) {
        return;
    }
    netdev_tso_limits_get(&netdev->tso_limits, 6, &size, &segs);
    netdev_tso_limits_get(&netdev->tso_limits, 4, &ipv4_size, &segs);
    smap_add_format(smap, "tso_max_size", "%"PRIu32, size);
    smap_add_format(smap, "tso_ipv4_max_size", "%"PRIu32, ipv4_size);
    smap_add_format(smap, "tso_max_segs", "%"PRIu32, segs);
}

/* The per-port counters of TSO packets over the port's limits. */
struct tso_counters {
    uint64_t resegmented;
    uint64_t reseg_packets;
    uint64_t segmented;
    uint64_t tx_fallback;
    uint64_t tx_fallback_packets;
};

static void
read_counters(const struct netdev_tso_limits *l_, struct tso_counters *c)
{
    struct netdev_tso_limits *l = CONST_CAST(struct netdev_tso_limits *, l_);

    atomic_read_relaxed(&l->n_resegmented, &c->resegmented);
    atomic_read_relaxed(&l->n_reseg_packets, &c->reseg_packets);
    atomic_read_relaxed(&l->n_segmented, &c->segmented);
    atomic_read_relaxed(&l->n_tx_fallback, &c->tx_fallback);
    atomic_read_relaxed(&l->n_tx_fallback_packets, &c->tx_fallback_packets);
}

/* The names of the per-port counters of TSO packets over the port's limits,
 * the same in both datapaths. */
#define RESEGMENTED_NAME "tso_resegmented"
#define RESEG_PACKETS_NAME "tso_reseg_packets"
#define SEGMENTED_NAME "tso_segmented"

static const struct netdev_custom_counter *
find_counter(const struct netdev_custom_stats *stats, const char *name)
{
    for (size_t i = 0; i < stats->size; i++) {
        if (!strcmp(stats->counters[i].name, name)) {
            return &stats->counters[i];
        }
    }
    return NULL;
}

/* Appends to 'stats' the three counters of TSO packets over a port's limits:
 * those that were resegmented, the packets that that made, and those that
 * were segmented fully in software.  The userspace datapath counts them in
 * this module; the kernel datapath reports them per vport (see
 * dpif-netlink-gso.c). */
void
netdev_tso_limits_append_counters(struct netdev_custom_stats *stats,
                                  uint64_t resegmented,
                                  uint64_t reseg_packets, uint64_t segmented)
{
    netdev_custom_stats_append(stats, RESEGMENTED_NAME, resegmented);
    netdev_custom_stats_append(stats, RESEG_PACKETS_NAME, reseg_packets);
    netdev_custom_stats_append(stats, SEGMENTED_NAME, segmented);
}

/* Appends the counters of TSO packets over the limits of 'netdev' to
 * 'stats', which become part of the Interface statistics column, if the
 * port takes TSO packets.  A port whose datapath already reported them (a
 * port of the kernel datapath) keeps the datapath's. */
void
netdev_tso_limits_append_custom_stats(const struct netdev *netdev,
                                      struct netdev_custom_stats *stats)
{
    struct tso_counters c;

    read_counters(&netdev->tso_limits, &c);
    if (!userspace_tso_enabled()
        || !(netdev->ol_flags & NETDEV_TX_OFFLOAD_TCP_TSO)
        || find_counter(stats, RESEGMENTED_NAME)) {
        return;
    }

    netdev_tso_limits_append_counters(stats, c.resegmented, c.reseg_packets,
                                      c.segmented);
    netdev_custom_stats_append(stats, "tso_tx_fallback", c.tx_fallback);
    netdev_custom_stats_append(stats, "tso_tx_fallback_packets",
                               c.tx_fallback_packets);
}

/* If 'stats' holds the counters of TSO packets over the port's limits,
 * appends them to 's' as a line of "ovs-appctl dpctl/show -s" and returns
 * true, otherwise returns false. */
bool
netdev_tso_limits_format_counters(const struct netdev_custom_stats *stats,
                                  struct ds *s)
{
    const struct netdev_custom_counter *resegmented, *reseg_packets;
    const struct netdev_custom_counter *segmented;

    resegmented = find_counter(stats, RESEGMENTED_NAME);
    reseg_packets = find_counter(stats, RESEG_PACKETS_NAME);
    segmented = find_counter(stats, SEGMENTED_NAME);
    if (!resegmented || !reseg_packets || !segmented) {
        return false;
    }
    ds_put_format(s, "    TSO resegmented:%"PRIu64" reseg_packets:%"PRIu64
                  " segmented:%"PRIu64"\n", resegmented->value,
                  reseg_packets->value, segmented->value);
    return true;
}

/* The kinds of tunnel whose TSO packets a port with offload flags
 * 'ol_flags' takes, for "netdev-tso/show". */
static const struct {
    uint64_t flag;
    const char *name;
} tunnel_tso_kinds[] = {
    { NETDEV_TX_GENEVE_TNL_TSO, "geneve" },
    { NETDEV_TX_VXLAN_TNL_TSO, "vxlan" },
    { NETDEV_TX_GRE_TNL_TSO, "gre" },
};

/* Formats the TSO limits 'size', 'ipv4_size' and 'segs' of a port that
 * takes TSO packets, their sources in 'l', the kinds of tunnel whose TSO
 * packets it takes (from its offload flags 'ol_flags') and the counters
 * 'c', for "netdev-tso/show". */
static void
format_tso_port(const struct netdev_tso_limits *l, uint32_t size,
                uint32_t ipv4_size, uint32_t segs, uint64_t ol_flags,
                const struct tso_counters *c, struct ds *s)
{
    ds_put_format(s, " max_size=%"PRIu32" ipv4_max_size=%"PRIu32
                  " max_segs=%"PRIu32"\n", size, ipv4_size, segs);
    ds_put_format(s, "  device: max_size=%"PRIu32
                  " ipv4_max_size=%"PRIu32" max_segs=%"PRIu32"\n",
                  l->dev_max_size, l->dev_ipv4_max_size,
                  l->dev_max_segs);
    if (ol_flags & (NETDEV_TX_GENEVE_TNL_TSO | NETDEV_TX_VXLAN_TNL_TSO
                    | NETDEV_TX_GRE_TNL_TSO)) {
        ds_put_cstr(s, "  tunnel TSO:");
        for (size_t i = 0; i < ARRAY_SIZE(tunnel_tso_kinds); i++) {
            if (ol_flags & tunnel_tso_kinds[i].flag) {
                ds_put_format(s, " %s", tunnel_tso_kinds[i].name);
            }
        }
        ds_put_char(s, '\n');
    }
    for (int v = 4; v <= 6; v += 2) {
        int i = tnl_index(v);
        uint32_t tnl_size;
        int answer;

        atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *,
                                        l)->tnl_big[i], &answer);
        atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *,
                                        l)->tnl_max_size[i], &tnl_size);
        if (answer == NETDEV_TSO_TNL_BIG_NONE) {
            continue;
        }
        ds_put_format(s, "  tunnel TSO over 64 KiB, IPv%d: ", v);
        if (tnl_size) {
            ds_put_format(s, "yes, up to %"PRIu32" bytes\n", tnl_size);
        } else if (answer == NETDEV_TSO_TNL_BIG_YES) {
            ds_put_format(s, "no: the device takes %"PRIu32" bytes\n",
                          l->tnl_dev_max_size[i]);
        } else if (answer == NETDEV_TSO_TNL_BIG_NO) {
            ds_put_cstr(s, "no: the kernel does not take them\n");
        } else if (answer == NETDEV_TSO_TNL_BIG_UNKNOWN) {
            ds_put_cstr(s, "no: the kernel could not be asked\n");
        } else {
            ds_put_cstr(s, "not yet: the kernel is being asked\n");
        }
    }
    if (l->user_max_size || l->user_max_segs) {
        ds_put_cstr(s, "  configured:");
        if (l->user_max_size) {
            ds_put_format(s, " tso-max-size=%"PRIu32,
                          l->user_max_size);
        }
        if (l->user_max_segs) {
            ds_put_format(s, " tso-max-segs=%"PRIu32,
                          l->user_max_segs);
        }
        ds_put_char(s, '\n');
    }
    if (c->resegmented || c->segmented) {
        ds_put_format(s, "  over the limits: resegmented=%"PRIu64
                      " reseg_packets=%"PRIu64" segmented=%"PRIu64
                      "\n", c->resegmented, c->reseg_packets,
                      c->segmented);
    }
    if (c->tx_fallback) {
        ds_put_format(s, "  refused by the kernel: tx_fallback=%"
                      PRIu64" tx_fallback_packets=%"PRIu64
                      " (sent again as packets of at most 64 KiB)"
                      "\n", c->tx_fallback, c->tx_fallback_packets);
    }
}

/* Formats the GSO and GRO limits of the tunnel device 'd' behind a tunnel
 * port of the kernel datapath, and the "tso-max-size" option 'user_max_size'
 * of the port (0 if none), for "netdev-tso/show". */
static void
format_tnl_dev(const struct netdev_tso_tnl_dev *d, uint32_t user_max_size,
               struct ds *s)
{
    ds_put_format(s, " tunnel device %s", d->name);
    if (d->max_size) {
        ds_put_format(s, ": max_size=%"PRIu32, d->max_size);
    }
    ds_put_format(s, "\n  limit: %s\n", d->limit);
    if (user_max_size) {
        ds_put_format(s, "  configured: tso-max-size=%"PRIu32"\n",
                      user_max_size);
    }
}

/* Returns the JSON object of netdev-tso/show for tunnel device 'd'. */
static struct json *
tnl_dev_to_json(const struct netdev_tso_tnl_dev *d)
{
    struct json *json = json_object_create();

    json_object_put_string(json, "name", d->name);
    json_object_put(json, "max_size", json_integer_create(d->max_size));
    json_object_put(json, "tso_max_size",
                    json_integer_create(d->tso_max_size));
    json_object_put_string(json, "source", d->source);
    json_object_put_string(json, "limit", d->limit);
    return json;
}

/* netdev-tso/show's lines, or JSON members, for 'netdev'. */
static void
format_tso(const struct netdev *netdev, struct json *port, struct ds *s)
{
    const struct netdev_tso_limits *l = &netdev->tso_limits;
    bool tso = (userspace_tso_enabled()
                && netdev->ol_flags & NETDEV_TX_OFFLOAD_TCP_TSO);
    uint32_t size, ipv4_size, segs;
    struct tso_counters c;

    netdev_tso_limits_get(l, 6, &size, &segs);
    netdev_tso_limits_get(l, 4, &ipv4_size, &segs);
    read_counters(l, &c);
    if (port) {
        json_object_put(port, "tso", json_boolean_create(tso));
        json_object_put(port, "max_size", json_integer_create(size));
        json_object_put(port, "ipv4_max_size",
                        json_integer_create(ipv4_size));
        json_object_put(port, "max_segs", json_integer_create(segs));
        json_object_put(port, "dev_max_size",
                        json_integer_create(l->dev_max_size));
        json_object_put(port, "dev_ipv4_max_size",
                        json_integer_create(l->dev_ipv4_max_size));
        json_object_put(port, "dev_max_segs",
                        json_integer_create(l->dev_max_segs));
        json_object_put(port, "user_max_size",
                        json_integer_create(l->user_max_size));
        json_object_put(port, "user_max_segs",
                        json_integer_create(l->user_max_segs));
        json_object_put(port, "resegmented",
                        json_integer_create(c.resegmented));
        json_object_put(port, "reseg_packets",
                        json_integer_create(c.reseg_packets));
        json_object_put(port, "segmented",
                        json_integer_create(c.segmented));
        json_object_put(port, "tx_fallback",
                        json_integer_create(c.tx_fallback));
        json_object_put(port, "tx_fallback_packets",
                        json_integer_create(c.tx_fallback_packets));

        struct json *tunnels = json_array_create_empty();
        for (size_t i = 0; i < ARRAY_SIZE(tunnel_tso_kinds); i++) {
            if (tso && netdev->ol_flags & tunnel_tso_kinds[i].flag) {
                json_array_add(tunnels, json_string_create(
                                   tunnel_tso_kinds[i].name));
            }
        }
        json_object_put(port, "tunnel_tso", tunnels);
        if (l->tnl_dev) {
            json_object_put(port, "tunnel_device",
                            tnl_dev_to_json(l->tnl_dev));
        }

        struct json *big = NULL;
        for (int v = 4; v <= 6; v += 2) {
            struct netdev_tso_limits *lm;
            uint32_t tnl_size;
            int answer;

            lm = CONST_CAST(struct netdev_tso_limits *, l);
            atomic_read_relaxed(&lm->tnl_big[tnl_index(v)], &answer);
            atomic_read_relaxed(&lm->tnl_max_size[tnl_index(v)], &tnl_size);
            if (answer != NETDEV_TSO_TNL_BIG_NONE) {
                struct json *o = json_object_create();

                json_object_put_string(
                    o, "kernel", netdev_tso_limits_tnl_big_to_string(answer));
                json_object_put(o, "dev_max_size", json_integer_create(
                                    l->tnl_dev_max_size[tnl_index(v)]));
                json_object_put(o, "max_size", json_integer_create(tnl_size));
                if (!big) {
                    big = json_object_create();
                }
                json_object_put(big, v == 4 ? "ipv4" : "ipv6", o);
            }
        }
        if (big) {
            json_object_put(port, "tunnel_tso_over_64k", big);
        }
    } else if (l->tnl_dev) {
        format_tnl_dev(l->tnl_dev, l->user_max_size, s);
    } else if (!tso) {
        ds_put_cstr(s, " no TSO\n");
    } else {
        format_tso_port(l, size, ipv4_size, segs, netdev->ol_flags, &c, s);
    }
}

/* "netdev-tso/show [PORT]": the TSO limits of every port, or of PORT. */
static void
netdev_tso_show(struct unixctl_conn *conn, int argc, const char *argv[],
                void *aux OVS_UNUSED)
{
    netdev_show_ports(conn, argc, argv, format_tso);
}

void
netdev_tso_limits_register_commands(void)
{
    unixctl_command_register("netdev-tso/show", "[port]", 0, 1,
                             netdev_tso_show, NULL);
}
