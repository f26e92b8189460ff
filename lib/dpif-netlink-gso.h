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

/* The ovs-bigtcp kernel module's GSO support, as dpif-netlink uses it:
 *
 *   - The extension's datapath attributes, numbered from
 *     OVS_BIGTCP_ATTR_BASE so that no upstream attribute can collide with
 *     them: its version (OVS_DP_ATTR_BIGTCP_VERSION, which shows that the
 *     module is the extension), its features (OVS_DP_ATTR_BIGTCP_FEATURES)
 *     and its GSO statistics (OVS_DP_ATTR_GSO_STATS).
 *
 *   - GSO-aware upcalls: with the extension's feature
 *     OVS_DP_BIGTCP_F_GSO_UPCALL, the kernel sends a TCP GSO packet to
 *     userspace as GSO packets of up to 63 KiB, each with an
 *     OVS_PACKET_ATTR_GSO attribute that gives its segment size and type,
 *     instead of segmenting it to MSS first.  Such a
 *     packet becomes a dp_packet with a TSO segment size and a partial L4
 *     checksum, and goes back to the kernel with the same attribute when it
 *     is executed.  other_config:kernel-gso-upcall turns the feature off. */

#include <stdbool.h>
#include <stdint.h>

struct dp_packet;
struct netdev_custom_stats;
struct nlattr;
struct ofpbuf;
struct smap;

struct dpif_netlink_gso_stats {
    uint64_t n_reseg;           /* GSO packets resegmented to fit their
                                 * output port. */
    uint64_t n_reseg_packets;       /* Packets that resegmentation produced. */

    /* Upcalls.  UINT64_MAX if the kernel does not report them. */
    uint64_t n_upcall;          /* TCP GSO packets sent up as GSO. */
    uint64_t n_upcall_out;      /* Upcalls that they became. */
    uint64_t n_upcall_seg;      /* GSO packets segmented for upcalls. */
    uint64_t n_upcall_seg_out;  /* Upcalls that they became. */
    uint64_t n_execute;         /* Packets executed as GSO packets. */
};

/* What a datapath reply says of the extension. */
struct dpif_netlink_bigtcp {
    uint32_t version;           /* 0 if the datapath is not the extension. */
    uint32_t features;          /* OVS_DP_BIGTCP_F_* enabled. */
    struct dpif_netlink_gso_stats stats; /* UINT64_MAX if not reported. */
};

void dpif_netlink_gso_dp_parse(const struct ofpbuf *attrs,
                               struct dpif_netlink_bigtcp *);

const struct nlattr *dpif_netlink_gso_vport_parse(const struct ofpbuf *);
int dpif_netlink_gso_vport_stats_append(const struct nlattr *,
                                        struct netdev_custom_stats *);

int dpif_netlink_gso_stats_parse(const struct nlattr *,
                                 struct dpif_netlink_gso_stats *);
void dpif_netlink_gso_stats_put(struct ofpbuf *,
                                const struct dpif_netlink_gso_stats *);

void dpif_netlink_gso_upcall_set_config(const struct smap *other_config);
bool dpif_netlink_gso_upcall_enabled(void);
int dpif_netlink_gso_upcall_parse(const struct nlattr *, struct dp_packet *);
void dpif_netlink_gso_execute_put(struct ofpbuf *, const struct dp_packet *);

#endif /* dpif-netlink-gso.h */
