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

/* The kernel datapath's GSO interface, as dpif-netlink uses it:
 *
 *   - GSO statistics of the datapath (OVS_DP_ATTR_GSO_STATS) and of each
 *     vport (OVS_VPORT_ATTR_GSO_STATS).
 *
 *   - GSO-aware upcalls: with the user feature OVS_DP_F_GSO_UPCALL, the
 *     kernel sends a TCP GSO packet to userspace as GSO packets whose upcall
 *     messages fit 64 KiB, each with an OVS_PACKET_ATTR_GSO attribute that
 *     gives its segment size and type, instead of segmenting it to MSS
 *     first.  Such a packet becomes a dp_packet with a TSO segment size and
 *     a partial L4 checksum, and goes back to the kernel with the same
 *     attribute when it is executed.  other_config:kernel-gso-upcall turns
 *     the feature off.
 *
 * A kernel speaks this interface in one of two numberings (enum
 * dpif_netlink_gso_uapi): upstream's, the next free numbers of each family,
 * or, until the kernel has it, that of the ovs-bigtcp module built out of
 * tree, whose attributes are numbered from OVS_BIGTCP_ATTR_BASE, which
 * announces itself with OVS_DP_ATTR_BIGTCP_VERSION and whose feature is a
 * bit of OVS_DP_ATTR_BIGTCP_FEATURES.  A datapath reply tells which
 * (dpif_netlink_gso_dp_parse(), upstream's first); a kernel that speaks
 * neither gets none of the attributes. */

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

/* The numbering in which a kernel datapath speaks the GSO interface. */
enum dpif_netlink_gso_uapi {
    DPIF_NETLINK_GSO_UAPI_NONE,     /* Neither: a kernel without it. */
    DPIF_NETLINK_GSO_UAPI_UPSTREAM, /* Upstream's: OVS_DP_ATTR_GSO_STATS. */
    DPIF_NETLINK_GSO_UAPI_BIGTCP,   /* The out-of-tree module's range. */
};

/* What a datapath reply says of the GSO interface. */
struct dpif_netlink_bigtcp {
    enum dpif_netlink_gso_uapi uapi;
    uint32_t version;           /* OVS_DP_ATTR_BIGTCP_VERSION, or 0. */
    bool gso_upcall;            /* GSO-aware upcalls are on. */
    struct dpif_netlink_gso_stats stats; /* UINT64_MAX if not reported. */
};

void dpif_netlink_gso_dp_parse(const struct ofpbuf *attrs,
                               uint32_t user_features,
                               struct dpif_netlink_bigtcp *);
enum dpif_netlink_gso_uapi dpif_netlink_gso_uapi(void);
const char *dpif_netlink_gso_uapi_name(enum dpif_netlink_gso_uapi);

const struct nlattr *dpif_netlink_gso_vport_parse(
    const struct ofpbuf *, enum dpif_netlink_gso_uapi);
int dpif_netlink_gso_vport_stats_append(const struct nlattr *,
                                        struct netdev_custom_stats *);

int dpif_netlink_gso_stats_parse(const struct nlattr *,
                                 struct dpif_netlink_gso_stats *);
void dpif_netlink_gso_stats_put(struct ofpbuf *, enum dpif_netlink_gso_uapi,
                                const struct dpif_netlink_gso_stats *);

void dpif_netlink_gso_upcall_set_config(const struct smap *other_config);
bool dpif_netlink_gso_upcall_enabled(void);
const struct nlattr *dpif_netlink_gso_upcall_attr(
    const struct ofpbuf *, enum dpif_netlink_gso_uapi);
int dpif_netlink_gso_upcall_parse(const struct nlattr *, struct dp_packet *);
void dpif_netlink_gso_execute_put(struct ofpbuf *, enum dpif_netlink_gso_uapi,
                                  const struct dp_packet *);

#endif /* dpif-netlink-gso.h */
