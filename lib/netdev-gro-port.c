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
#include "netdev-gro-port.h"

#include <errno.h>
#include <string.h>

#include "dp-packet.h"
#include "netdev-gro.h"
#include "netdev-provider.h"
#include "netdev-show.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "smap.h"
#include "unixctl.h"
#include "util.h"

/* GRO on a port: the Interface options that turn it on, netdev_rxq_recv()'s
 * way through the GRO engine (lib/netdev-gro.c), and what the port shows
 * of it (status, statistics, "netdev-gro/show"). */

VLOG_DEFINE_THIS_MODULE(netdev_gro);

/* Interface option "gro-keep-segments" when absent or invalid. */
#define GRO_KEEP_SEGS_DEFAULT true

/* Receives packets from 'rx' into 'batch', as netdev_rxq_recv(), with GRO
 * up to the port's gro-max-size: while the port has packets, and the
 * coalesced packets fit in a batch, receives again, up to
 * NETDEV_GRO_MAX_PACKETS packets (a provider delivers up to a batch at a
 * time, netdev-dummy one packet).  Queued packets of an earlier call go
 * first, without a receive.  Call only if netdev_gro_rxq_active(). */
int
netdev_gro_rxq_recv(struct netdev_rxq *rx, struct dp_packet_batch *batch,
                    int *qfill)
{
    const struct netdev_class *class = rx->netdev->netdev_class;
    struct netdev_gro_config *cfg = &rx->netdev->gro;
    struct netdev_gro *gro = rx->gro;
    uint64_t packets, segments, orig;
    uint32_t max_size;
    bool keep_segs;
    int error = 0;

    if (!gro || !netdev_gro_n_pending(gro)) {
        atomic_read_relaxed(&cfg->max_size, &max_size);
        atomic_read_relaxed(&cfg->keep_segs, &keep_segs);
        if (!max_size) {
            return class->rxq_recv(rx, batch, qfill);
        }
        if (!gro) {
            gro = rx->gro = netdev_gro_create();
        }
        size_t n_received = 0;

        while (n_received < NETDEV_GRO_MAX_PACKETS) {
            struct dp_packet_batch in;
            struct dp_packet *p;

            dp_packet_batch_init(&in);
            error = class->rxq_recv(rx, &in, qfill);
            if (error) {
                break;
            }
            DP_PACKET_BATCH_FOR_EACH (i, p, &in) {
                netdev_gro_receive(gro, p, max_size, keep_segs);
            }
            n_received += dp_packet_batch_size(&in);
            if (netdev_gro_n_pending(gro) >= NETDEV_MAX_BURST) {
                break;
            }
        }
        netdev_gro_flush(gro);
        netdev_gro_take_counts(gro, &packets, &segments);
        if (packets) {
            atomic_add_relaxed(&cfg->n_packets, packets, &orig);
            atomic_add_relaxed(&cfg->n_segments, segments, &orig);
        }
        if (!netdev_gro_n_pending(gro)) {
            return error ? error : EAGAIN;
        }
    }
    netdev_gro_pop(gro, batch);
    return 0;
}

/* Returns true if netdev_rxq_recv() must go through netdev_gro_rxq_recv()
 * for 'rx': GRO is on, or packets are still queued. */
bool
netdev_gro_rxq_active(const struct netdev_rxq *rx)
{
    struct netdev_gro_config *cfg = &rx->netdev->gro;
    uint32_t max_size;

    atomic_read_relaxed(&cfg->max_size, &max_size);
    return max_size || netdev_gro_rxq_has_pending(rx);
}

/* Returns true if 'rx' has received packets queued for the next
 * netdev_rxq_recv(). */
bool
netdev_gro_rxq_has_pending(const struct netdev_rxq *rx)
{
    return rx->gro && netdev_gro_n_pending(rx->gro);
}

void
netdev_gro_config_init(struct netdev_gro_config *cfg)
{
    atomic_init(&cfg->max_size, 0);
    atomic_init(&cfg->keep_segs, GRO_KEEP_SEGS_DEFAULT);
    cfg->error = NULL;
    atomic_init(&cfg->n_packets, 0);
    atomic_init(&cfg->n_segments, 0);
}

void
netdev_gro_config_destroy(struct netdev_gro_config *cfg)
{
    free(cfg->error);
    cfg->error = NULL;
}

/* Applies Interface options "gro-max-size" and "gro-keep-segments" in
 * 'args' to 'netdev', and removes them from 'args' for the netdev provider.
 * 0 or no "gro-max-size" is GRO off; no "gro-keep-segments" is true.  An
 * invalid value is ignored, as if it were absent, and logged; the
 * explanation is available from netdev_gro_get_error() until the options
 * change. */
void
netdev_gro_set_config(struct netdev *netdev, struct smap *args)
{
    struct netdev_gro_config *cfg = &netdev->gro;
    const char *s = smap_get(args, "gro-max-size");
    uint32_t old_size, size = 0;
    bool old_keep, keep = GRO_KEEP_SEGS_DEFAULT;
    unsigned int n;

    free(cfg->error);
    cfg->error = NULL;
    if (s) {
        if (str_to_uint(s, 10, &n)
            && (!n || (n >= NETDEV_TSO_MIN_USER_SIZE && n <= GSO_MAX_SIZE))) {
            size = n;
        } else {
            cfg->error = xasprintf("%s: invalid gro-max-size \"%s\" "
                                   "(expected 0, or an integer from %d to "
                                   "%d), ignored", netdev_get_name(netdev),
                                   s, NETDEV_TSO_MIN_USER_SIZE, GSO_MAX_SIZE);
            VLOG_WARN("%s", cfg->error);
        }
        smap_remove(args, "gro-max-size");
    }

    s = smap_get(args, "gro-keep-segments");
    if (s) {
        if (!strcmp(s, "true") || !strcmp(s, "false")) {
            keep = !strcmp(s, "true");
        } else {
            char *error = xasprintf("%s: invalid gro-keep-segments \"%s\" "
                                    "(expected true or false), ignored",
                                    netdev_get_name(netdev), s);

            VLOG_WARN("%s", error);
            if (cfg->error) {
                free(error);
            } else {
                cfg->error = error;
            }
        }
        smap_remove(args, "gro-keep-segments");
    }
    atomic_read_relaxed(&cfg->keep_segs, &old_keep);
    if (keep != old_keep) {
        atomic_store_relaxed(&cfg->keep_segs, keep);
        netdev_change_seq_changed(netdev);
    }

    atomic_read_relaxed(&cfg->max_size, &old_size);
    if (size != old_size) {
        atomic_store_relaxed(&cfg->max_size, size);
        if (size) {
            VLOG_INFO("%s: GRO up to %"PRIu32" bytes",
                      netdev_get_name(netdev), size);
        } else {
            VLOG_INFO("%s: GRO off", netdev_get_name(netdev));
        }
        netdev_change_seq_changed(netdev);
    }
}

/* Returns why option gro-max-size of 'netdev' was ignored, or NULL. */
const char *
netdev_gro_get_error(const struct netdev *netdev)
{
    return netdev->gro.error;
}

static uint32_t
gro_max_size(const struct netdev *netdev)
{
    uint32_t size;

    atomic_read_relaxed(&CONST_CAST(struct netdev *, netdev)->gro.max_size,
                        &size);
    return size;
}

static bool
gro_keep_segs(const struct netdev *netdev)
{
    bool keep;

    atomic_read_relaxed(&CONST_CAST(struct netdev *, netdev)->gro.keep_segs,
                        &keep);
    return keep;
}

static void
gro_read_counts(const struct netdev *netdev, uint64_t *packets,
                uint64_t *segments)
{
    struct netdev_gro_config *cfg = &CONST_CAST(struct netdev *,
                                                netdev)->gro;

    atomic_read_relaxed(&cfg->n_packets, packets);
    atomic_read_relaxed(&cfg->n_segments, segments);
}

/* Adds the GRO limit of 'netdev' to 'smap', its Interface status, if GRO
 * is on. */
void
netdev_gro_get_status(const struct netdev *netdev, struct smap *smap)
{
    uint32_t size = gro_max_size(netdev);

    if (size) {
        smap_add_format(smap, "gro_max_size", "%"PRIu32, size);
        smap_add(smap, "gro_keep_segments",
                 gro_keep_segs(netdev) ? "true" : "false");
    }
}

/* Appends the GRO counters of 'netdev' to 'stats', its Interface
 * statistics, if GRO is on or has coalesced packets. */
void
netdev_gro_append_custom_stats(const struct netdev *netdev,
                               struct netdev_custom_stats *stats)
{
    uint64_t packets, segments;

    gro_read_counts(netdev, &packets, &segments);
    if (gro_max_size(netdev) || packets) {
        netdev_custom_stats_append(stats, "rx_gro_packets", packets);
        netdev_custom_stats_append(stats, "rx_gro_segments", segments);
    }
}

/* netdev-gro/show's line, or JSON members, for 'netdev'. */
static void
format_gro(const struct netdev *netdev, struct json *port, struct ds *s)
{
    uint32_t size = gro_max_size(netdev);
    uint64_t packets, segments;

    gro_read_counts(netdev, &packets, &segments);
    if (port) {
        json_object_put(port, "gro_max_size", json_integer_create(size));
        json_object_put(port, "gro_keep_segments",
                        json_boolean_create(gro_keep_segs(netdev)));
        json_object_put(port, "rx_gro_packets", json_integer_create(packets));
        json_object_put(port, "rx_gro_segments",
                        json_integer_create(segments));
        return;
    }
    if (size) {
        ds_put_format(s, " gro-max-size=%"PRIu32, size);
        if (!gro_keep_segs(netdev)) {
            ds_put_cstr(s, " gro-keep-segments=false");
        }
    } else {
        ds_put_cstr(s, " GRO off");
    }
    if (size || packets) {
        ds_put_format(s, " rx_gro_packets=%"PRIu64" rx_gro_segments=%"PRIu64,
                      packets, segments);
    }
    ds_put_char(s, '\n');
}

/* "netdev-gro/show [PORT]": the GRO limit and counters of every port, or
 * of PORT. */
static void
netdev_gro_show(struct unixctl_conn *conn, int argc, const char *argv[],
                void *aux OVS_UNUSED)
{
    netdev_show_ports(conn, argc, argv, format_gro);
}

void
netdev_gro_register_commands(void)
{
    unixctl_command_register("netdev-gro/show", "[port]", 0, 1,
                             netdev_gro_show, NULL);
}
