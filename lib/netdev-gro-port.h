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

#ifndef NETDEV_GRO_PORT_H
#define NETDEV_GRO_PORT_H 1

/* GRO on a port: its Interface options ("gro-max-size",
 * "gro-keep-segments"), status and counters, "ovs-appctl netdev-gro/show",
 * and the receive path that runs a port's received packets through the
 * GRO engine (netdev-gro.h).  lib/netdev.c calls these for every netdev
 * whose provider takes GRO. */

#include <stdbool.h>
#include "ovs-atomic.h"

struct dp_packet_batch;
struct netdev;
struct netdev_custom_stats;
struct netdev_rxq;
struct smap;

/* GRO configuration and counters of one netdev, embedded in struct
 * netdev. */
struct netdev_gro_config {
    atomic_uint32_t max_size;      /* Interface option "gro-max-size", 0 if
                                    * GRO is off. */
    atomic_bool keep_segs;         /* Interface option "gro-keep-segments":
                                    * coalesced packets keep their
                                    * segments (dp-packet-segs.h). */
    char *error;                   /* Why an option was ignored, or NULL. */
    atomic_uint64_t n_packets;     /* Coalesced packets received. */
    atomic_uint64_t n_segments;    /* The segments in them. */
};

void netdev_gro_config_init(struct netdev_gro_config *);
void netdev_gro_config_destroy(struct netdev_gro_config *);
void netdev_gro_set_config(struct netdev *, struct smap *args);
const char *netdev_gro_get_error(const struct netdev *);
void netdev_gro_get_status(const struct netdev *, struct smap *);
void netdev_gro_append_custom_stats(const struct netdev *,
                                    struct netdev_custom_stats *);
void netdev_gro_register_commands(void);
int netdev_gro_rxq_recv(struct netdev_rxq *, struct dp_packet_batch *,
                        int *qfill);
bool netdev_gro_rxq_active(const struct netdev_rxq *);
bool netdev_gro_rxq_has_pending(const struct netdev_rxq *);

#endif /* netdev-gro-port.h */
