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

#ifndef NETDEV_TSO_ENFORCE_H
#define NETDEV_TSO_ENFORCE_H 1

/* Enforcement of the per-port TSO limits (netdev-tso-limits.h) on the
 * transmit path.
 *
 * netdev_send() hands each batch to netdev_tso_enforce() before the
 * provider sees it: a TSO packet over the output port's limits is cut into
 * TSO packets that fit (the resegmentation engine, dp-packet-reseg.h), or
 * segmented fully in software where that is turned off
 * (other_config:userspace-tso-resegment=false) or not possible.  A provider
 * that cuts such packets itself without copying (NETDEV_TX_TSO_RESEG in
 * its 'ol_flags') gets them whole, plans each cut with
 * netdev_tso_enforce_zerocopy_plan() and counts it with
 * netdev_tso_enforce_count_reseg(). */

#include <stdbool.h>
#include <stddef.h>

struct dp_packet;
struct dp_packet_batch;
struct dp_packet_reseg_plan;
struct netdev;
struct smap;

/* For lib/netdev.c. */
void netdev_tso_enforce(const struct netdev *, struct dp_packet_batch *);

/* For the bridge: other_config:userspace-tso-resegment and
 * userspace-tso-resegment-steps. */
void netdev_tso_enforce_set_global_config(const struct smap *other_config);
bool netdev_tso_enforce_resegment_enabled(void);
bool netdev_tso_enforce_steps_enabled(void);

/* For netdev providers that resegment without copying. */
enum netdev_tso_zerocopy {
    NETDEV_TSO_ZC_NONE,         /* Within the limits: send it as it is. */
    NETDEV_TSO_ZC_CUT,          /* Over them: cut it as the plan says. */
    NETDEV_TSO_ZC_SEGMENT,      /* Over them, cannot be cut within them:
                                 * send netdev_tso_enforce_segment()'s. */
};
enum netdev_tso_zerocopy netdev_tso_enforce_zerocopy_plan(
    const struct netdev *, const struct dp_packet *,
    struct dp_packet_reseg_plan *);
void netdev_tso_enforce_segment(const struct netdev *, struct dp_packet *,
                                struct dp_packet_batch *);
void netdev_tso_enforce_count_reseg(const struct netdev *, size_t n_out);

#endif /* netdev-tso-enforce.h */
