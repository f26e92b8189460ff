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

#ifndef DPIF_NETLINK_GSO_H
#define DPIF_NETLINK_GSO_H 1

/* The kernel datapath's GSO statistics (OVS_DP_ATTR_GSO_STATS, reported by
 * the ovs-bigtcp kernel module), as dpif-netlink reads them. */

#include <stdint.h>

struct nlattr;
struct ofpbuf;

struct dpif_netlink_gso_stats {
    uint64_t n_reseg;           /* GSO packets resegmented to fit their
                                 * output port. */
    uint64_t n_reseg_out;       /* Packets that resegmentation produced. */
};

int dpif_netlink_gso_stats_parse(const struct nlattr *,
                                 struct dpif_netlink_gso_stats *);
void dpif_netlink_gso_stats_put(struct ofpbuf *,
                                const struct dpif_netlink_gso_stats *);

#endif /* dpif-netlink-gso.h */
