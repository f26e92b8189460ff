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

#include "dpif-netlink-gso.h"

#include <errno.h>

#include "coverage.h"
#include "dp-packet.h"
#include "flow.h"
#include "netdev-tso-limits.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(dpif_netlink_gso);

COVERAGE_DEFINE(dpif_netlink_bigtcp_attr_bad);
COVERAGE_DEFINE(dpif_netlink_gso_upcall);
COVERAGE_DEFINE(dpif_netlink_gso_upcall_bad);
COVERAGE_DEFINE(dpif_netlink_gso_execute);

/* Whether GSO-aware upcalls are wanted (other_config:kernel-gso-upcall).
 * Read and written by the main thread only. */
static bool gso_upcall_enabled = true;

/* The numbering of the GSO interface that the kernel's datapath replies
 * last showed (enum dpif_netlink_gso_uapi).  One kernel module serves every
 * datapath of the process.  Written where a reply is parsed, read by the
 * handler threads. */
static atomic_uint gso_uapi = DPIF_NETLINK_GSO_UAPI_NONE;

/* Parses 'nest', an OVS_DP_ATTR_GSO_STATS attribute, into '*stats'.  The
 * resegmentation counters must be present as u64 attributes; the upcall
 * counters are set to UINT64_MAX when the kernel does not report them
 * (an older ovs-bigtcp module).  Unknown attributes in the nest (counters
 * that a newer kernel adds) are ignored.  Returns 0 if successful,
 * otherwise EINVAL, and then '*stats' is unchanged. */
int
dpif_netlink_gso_stats_parse(const struct nlattr *nest,
                             struct dpif_netlink_gso_stats *stats)
{
    static const struct nl_policy policy[] = {
        [OVS_DP_GSO_STATS_RESEG] = { .type = NL_A_U64 },
        [OVS_DP_GSO_STATS_RESEG_OUT] = { .type = NL_A_U64 },
        [OVS_DP_GSO_STATS_UPCALL] = { .type = NL_A_U64, .optional = true },
        [OVS_DP_GSO_STATS_UPCALL_OUT] = { .type = NL_A_U64,
                                          .optional = true },
        [OVS_DP_GSO_STATS_UPCALL_SEG] = { .type = NL_A_U64,
                                          .optional = true },
        [OVS_DP_GSO_STATS_UPCALL_SEG_OUT] = { .type = NL_A_U64,
                                              .optional = true },
        [OVS_DP_GSO_STATS_EXECUTE] = { .type = NL_A_U64, .optional = true },
    };
    struct nlattr *a[ARRAY_SIZE(policy)];

    if (!nl_parse_nested(nest, policy, a, ARRAY_SIZE(a))) {
        return EINVAL;
    }
    stats->n_reseg = nl_attr_get_u64(a[OVS_DP_GSO_STATS_RESEG]);
    stats->n_reseg_packets = nl_attr_get_u64(a[OVS_DP_GSO_STATS_RESEG_OUT]);

#define GET_OPTIONAL(ATTR) (a[ATTR] ? nl_attr_get_u64(a[ATTR]) : UINT64_MAX)
    stats->n_upcall = GET_OPTIONAL(OVS_DP_GSO_STATS_UPCALL);
    stats->n_upcall_out = GET_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_OUT);
    stats->n_upcall_seg = GET_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_SEG);
    stats->n_upcall_seg_out = GET_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_SEG_OUT);
    stats->n_execute = GET_OPTIONAL(OVS_DP_GSO_STATS_EXECUTE);
#undef GET_OPTIONAL
    return 0;
}

/* Appends to 'buf' the GSO statistics attribute of a datapath reply in
 * numbering 'uapi' (OVS_DP_ATTR_GSO_STATS or OVS_DP_ATTR_BIGTCP_GSO_STATS),
 * holding 'stats', as the kernel writes it (without the counters that are
 * UINT64_MAX, as an older kernel). */
void
dpif_netlink_gso_stats_put(struct ofpbuf *buf, enum dpif_netlink_gso_uapi uapi,
                           const struct dpif_netlink_gso_stats *stats)
{
    size_t offset;

    ovs_assert(uapi != DPIF_NETLINK_GSO_UAPI_NONE);
    offset = nl_msg_start_nested(buf, uapi == DPIF_NETLINK_GSO_UAPI_UPSTREAM
                                      ? OVS_DP_ATTR_GSO_STATS
                                      : OVS_DP_ATTR_BIGTCP_GSO_STATS);

    nl_msg_put_u64(buf, OVS_DP_GSO_STATS_RESEG, stats->n_reseg);
    nl_msg_put_u64(buf, OVS_DP_GSO_STATS_RESEG_OUT, stats->n_reseg_packets);

#define PUT_OPTIONAL(ATTR, VALUE)               \
    if ((VALUE) != UINT64_MAX) {                \
        nl_msg_put_u64(buf, ATTR, VALUE);       \
    }
    PUT_OPTIONAL(OVS_DP_GSO_STATS_UPCALL, stats->n_upcall);
    PUT_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_OUT, stats->n_upcall_out);
    PUT_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_SEG, stats->n_upcall_seg);
    PUT_OPTIONAL(OVS_DP_GSO_STATS_UPCALL_SEG_OUT, stats->n_upcall_seg_out);
    PUT_OPTIONAL(OVS_DP_GSO_STATS_EXECUTE, stats->n_execute);
#undef PUT_OPTIONAL
    nl_msg_end_nested(buf, offset);
}

/* Parses the GSO interface's attributes of a datapath reply or notification
 * into '*bigtcp'.  'attrs' holds the message's attributes (what follows its
 * struct ovs_header), 'user_features' its OVS_DP_ATTR_USER_FEATURES (0 if it
 * has none).  Records the numbering that the reply shows, for
 * dpif_netlink_gso_uapi().
 *
 * Upstream's numbering first: well-formed OVS_DP_ATTR_GSO_STATS shows it.
 * The same number from a kernel that gives it to something else does not
 * parse as GSO statistics, and is left alone.  Then the out-of-tree
 * module's: its attributes lie beyond the datapath family's policy, so
 * upstream's parsing of the reply skips them, and are taken only from a
 * module that has shown that it is the ovs-bigtcp module
 * (OVS_DP_ATTR_BIGTCP_VERSION).  Nothing here fails the reply: a malformed
 * attribute of the module is logged, counted and ignored (a malformed
 * version as if the module were not it), and an attribute of its range that
 * this code does not know (one that a newer module adds) is skipped.
 * Afterwards, bigtcp->uapi is DPIF_NETLINK_GSO_UAPI_NONE if the datapath
 * speaks neither numbering, and the counters that the datapath does not
 * report are UINT64_MAX. */
void
dpif_netlink_gso_dp_parse(const struct ofpbuf *attrs, uint32_t user_features,
                          struct dpif_netlink_bigtcp *bigtcp)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    const struct nlattr *upstream_stats = NULL;
    const struct nlattr *version = NULL;
    const struct nlattr *features = NULL;
    const struct nlattr *stats = NULL;
    const struct nlattr *nla;
    size_t left;

    memset(bigtcp, 0, sizeof *bigtcp);
    memset(&bigtcp->stats, 0xff, sizeof bigtcp->stats);

    NL_ATTR_FOR_EACH (nla, left, attrs->data, attrs->size) {
        switch (nl_attr_type(nla)) {
        case OVS_DP_ATTR_GSO_STATS:
            upstream_stats = nla;
            break;
        case OVS_DP_ATTR_BIGTCP_VERSION:
            version = nla;
            break;
        case OVS_DP_ATTR_BIGTCP_FEATURES:
            features = nla;
            break;
        case OVS_DP_ATTR_BIGTCP_GSO_STATS:
            stats = nla;
            break;
        }
    }

    if (upstream_stats
        && !dpif_netlink_gso_stats_parse(upstream_stats, &bigtcp->stats)) {
        bigtcp->uapi = DPIF_NETLINK_GSO_UAPI_UPSTREAM;
        bigtcp->gso_upcall = user_features & OVS_DP_F_GSO_UPCALL;
        goto out;
    }
    if (upstream_stats) {
        VLOG_DBG_RL(&rl, "datapath attribute %d is not GSO statistics "
                    "(%"PRIuSIZE" bytes): not upstream's GSO interface",
                    OVS_DP_ATTR_GSO_STATS, nl_attr_get_size(upstream_stats));
    }
    if (!version) {
        goto out;
    }

    if (nl_attr_get_size(version) != sizeof(uint32_t)
        || !nl_attr_get_u32(version)) {
        COVERAGE_INC(dpif_netlink_bigtcp_attr_bad);
        VLOG_WARN_RL(&rl, "ignoring a malformed ovs-bigtcp version attribute "
                     "(%"PRIuSIZE" bytes): the datapath is used without the "
                     "extension", nl_attr_get_size(version));
        goto out;
    }
    bigtcp->uapi = DPIF_NETLINK_GSO_UAPI_BIGTCP;
    bigtcp->version = nl_attr_get_u32(version);

    if (features) {
        if (nl_attr_get_size(features) == sizeof(uint32_t)) {
            bigtcp->gso_upcall = (nl_attr_get_u32(features)
                                  & OVS_DP_BIGTCP_F_GSO_UPCALL);
        } else {
            COVERAGE_INC(dpif_netlink_bigtcp_attr_bad);
            VLOG_WARN_RL(&rl, "ignoring a malformed ovs-bigtcp features "
                         "attribute (%"PRIuSIZE" bytes)",
                         nl_attr_get_size(features));
        }
    }

    if (stats && dpif_netlink_gso_stats_parse(stats, &bigtcp->stats)) {
        COVERAGE_INC(dpif_netlink_bigtcp_attr_bad);
        VLOG_WARN_RL(&rl, "ignoring a malformed GSO statistics attribute "
                     "(%"PRIuSIZE" bytes)", nl_attr_get_size(stats));
    }

out:
    atomic_store_relaxed(&gso_uapi, bigtcp->uapi);
}

/* Returns the first attribute of type 'type' among 'attrs', or NULL. */
static const struct nlattr *
find_attr(const struct ofpbuf *attrs, uint16_t type)
{
    const struct nlattr *nla;
    size_t left;

    NL_ATTR_FOR_EACH (nla, left, attrs->data, attrs->size) {
        if (nl_attr_type(nla) == type) {
            return nla;
        }
    }
    return NULL;
}

/* Returns the numbering of the GSO interface that the kernel datapath's
 * last reply showed (see dpif_netlink_gso_dp_parse()). */
enum dpif_netlink_gso_uapi
dpif_netlink_gso_uapi(void)
{
    unsigned int uapi;

    atomic_read_relaxed(&gso_uapi, &uapi);
    return uapi;
}

/* Returns a name of 'uapi' for log messages. */
const char *
dpif_netlink_gso_uapi_name(enum dpif_netlink_gso_uapi uapi)
{
    switch (uapi) {
    case DPIF_NETLINK_GSO_UAPI_UPSTREAM:
        return "upstream's";
    case DPIF_NETLINK_GSO_UAPI_BIGTCP:
        return "the ovs-bigtcp module's";
    case DPIF_NETLINK_GSO_UAPI_NONE:
    default:
        return "none";
    }
}

/* Returns the GSO statistics attribute of the vport in numbering 'uapi'
 * (OVS_VPORT_ATTR_GSO_STATS, OVS_VPORT_ATTR_BIGTCP_GSO_STATS) among 'attrs',
 * the attributes of a vport reply or notification (what follows its struct
 * ovs_header), or NULL if it has none, as from a kernel without the
 * interface.  The out-of-tree module's attribute lies beyond the vport
 * family's policy, where upstream's parsing of the message skips it. */
const struct nlattr *
dpif_netlink_gso_vport_parse(const struct ofpbuf *attrs,
                             enum dpif_netlink_gso_uapi uapi)
{
    uint16_t type;

    switch (uapi) {
    case DPIF_NETLINK_GSO_UAPI_UPSTREAM:
        type = OVS_VPORT_ATTR_GSO_STATS;
        break;
    case DPIF_NETLINK_GSO_UAPI_BIGTCP:
        type = OVS_VPORT_ATTR_BIGTCP_GSO_STATS;
        break;
    case DPIF_NETLINK_GSO_UAPI_NONE:
    default:
        return NULL;
    }
    return find_attr(attrs, type);
}

/* Appends to 'stats' the kernel datapath's counters of the GSO packets that
 * were over a port's limits, from 'nest', the port's OVS_VPORT_ATTR_GSO_STATS
 * attribute, under the names that the userspace datapath uses for the same
 * counters (see netdev_tso_limits_append_counters()).  Unknown attributes in
 * the nest, counters that a newer kernel adds, are ignored.  Returns 0 if
 * successful; a malformed attribute is logged and counted, and then nothing
 * is appended and the return value is EPROTO. */
int
dpif_netlink_gso_vport_stats_append(const struct nlattr *nest,
                                    struct netdev_custom_stats *stats)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    static const struct nl_policy policy[] = {
        [OVS_VPORT_GSO_STATS_RESEG] = { .type = NL_A_U64 },
        [OVS_VPORT_GSO_STATS_RESEG_OUT] = { .type = NL_A_U64 },
        [OVS_VPORT_GSO_STATS_SEGMENTED] = { .type = NL_A_U64 },
    };
    struct nlattr *a[ARRAY_SIZE(policy)];

    if (!nl_parse_nested(nest, policy, a, ARRAY_SIZE(a))) {
        COVERAGE_INC(dpif_netlink_bigtcp_attr_bad);
        VLOG_WARN_RL(&rl, "ignoring a malformed vport GSO statistics "
                     "attribute (%"PRIuSIZE" bytes)", nl_attr_get_size(nest));
        return EPROTO;
    }
    netdev_tso_limits_append_counters(
        stats, nl_attr_get_u64(a[OVS_VPORT_GSO_STATS_RESEG]),
        nl_attr_get_u64(a[OVS_VPORT_GSO_STATS_RESEG_OUT]),
        nl_attr_get_u64(a[OVS_VPORT_GSO_STATS_SEGMENTED]));
    return 0;
}

/* Reads other_config:kernel-gso-upcall (default true) from 'other_config'.
 * dpif-netlink turns the kernel's GSO-aware upcalls on or off to match
 * (see dpif_netlink_gso_upcall_enabled()). */
void
dpif_netlink_gso_upcall_set_config(const struct smap *other_config)
{
    bool enable = smap_get_bool(other_config, "kernel-gso-upcall", true);

    if (enable != gso_upcall_enabled) {
        gso_upcall_enabled = enable;
        VLOG_INFO("Kernel GSO-aware upcalls %s by configuration.",
                  enable ? "enabled" : "disabled");
    }
}

/* Returns true if the kernel datapath should send TCP GSO packets to
 * userspace as GSO packets (OVS_DP_F_GSO_UPCALL). */
bool
dpif_netlink_gso_upcall_enabled(void)
{
    return gso_upcall_enabled;
}

/* Returns the GSO attribute of an upcall in numbering 'uapi'
 * (OVS_PACKET_ATTR_GSO, OVS_PACKET_ATTR_BIGTCP_GSO) among the attributes in
 * 'b' (what follows the upcall's struct ovs_header), or NULL. */
const struct nlattr *
dpif_netlink_gso_upcall_attr(const struct ofpbuf *b,
                             enum dpif_netlink_gso_uapi uapi)
{
    switch (uapi) {
    case DPIF_NETLINK_GSO_UAPI_UPSTREAM:
        return find_attr(b, OVS_PACKET_ATTR_GSO);
    case DPIF_NETLINK_GSO_UAPI_BIGTCP:
        return find_attr(b, OVS_PACKET_ATTR_BIGTCP_GSO);
    case DPIF_NETLINK_GSO_UAPI_NONE:
    default:
        return NULL;
    }
}

/* Makes 'packet', received in an upcall together with 'nest' (its
 * OVS_PACKET_ATTR_GSO attribute), a TSO packet: the attribute's segment
 * size, the L3 and L4 offsets set and a partial L4 checksum (the kernel
 * left the pseudo-header checksum in the TCP header).
 *
 * The attribute must hold a segment size that is not 0 and a type, TCP over
 * IPv4 or IPv6, that matches 'packet', which must carry TCP, not in a
 * fragment, with more than one segment of payload.  Returns 0 if
 * successful, otherwise EINVAL, and then 'packet' is not a TSO packet. */
int
dpif_netlink_gso_upcall_parse(const struct nlattr *nest,
                              struct dp_packet *packet)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    static const struct nl_policy policy[] = {
        [OVS_PACKET_GSO_ATTR_SIZE] = { .type = NL_A_U16 },
        [OVS_PACKET_GSO_ATTR_TYPE] = { .type = NL_A_U32 },
    };
    struct nlattr *a[ARRAY_SIZE(policy)];
    const struct tcp_header *tcp;
    ovs_be16 dl_type = 0;
    uint8_t nw_frag = 0;
    size_t hdr_len;
    uint16_t segsz;
    uint32_t type;

    if (!nl_parse_nested(nest, policy, a, ARRAY_SIZE(a))) {
        goto error;
    }
    segsz = nl_attr_get_u16(a[OVS_PACKET_GSO_ATTR_SIZE]);
    type = nl_attr_get_u32(a[OVS_PACKET_GSO_ATTR_TYPE]);
    if (!segsz || (type != OVS_PACKET_GSO_TYPE_TCPV4
                   && type != OVS_PACKET_GSO_TYPE_TCPV6)) {
        goto error;
    }

    /* The segment size first: header checks accept an IP length of 0 in a
     * TSO packet only. */
    dp_packet_set_tso_segsz(packet, segsz);
    parse_tcp_flags(packet, &dl_type, &nw_frag, NULL);
    if (!dp_packet_l4_proto_tcp(packet) || nw_frag
        || dl_type != htons(type == OVS_PACKET_GSO_TYPE_TCPV4
                            ? ETH_TYPE_IP : ETH_TYPE_IPV6)) {
        goto error;
    }
    tcp = dp_packet_l4(packet);
    hdr_len = TCP_OFFSET(tcp->tcp_ctl) * 4;
    if (hdr_len < TCP_HEADER_LEN
        || dp_packet_l4_size(packet) <= hdr_len + segsz) {
        goto error;
    }

    dp_packet_l4_checksum_set_partial(packet);
    COVERAGE_INC(dpif_netlink_gso_upcall);
    return 0;

error:
    dp_packet_set_tso_segsz(packet, 0);
    COVERAGE_INC(dpif_netlink_gso_upcall_bad);
    VLOG_WARN_RL(&rl, "Dropped an upcall with a GSO attribute that does not "
                 "match its packet.");
    return EINVAL;
}

/* If 'packet' is a TSO packet and 'uapi' a numbering of the GSO interface,
 * appends to 'buf' the GSO attribute that describes it in that numbering
 * (OVS_PACKET_ATTR_GSO, OVS_PACKET_ATTR_BIGTCP_GSO), for
 * OVS_PACKET_CMD_EXECUTE: its segment size and, from its L3 header, its
 * type.  The kernel rebuilds a GSO packet from it and sets up its
 * checksum. */
void
dpif_netlink_gso_execute_put(struct ofpbuf *buf,
                             enum dpif_netlink_gso_uapi uapi,
                             const struct dp_packet *packet)
{
    uint16_t segsz = dp_packet_get_tso_segsz(packet);
    const uint8_t *l3 = dp_packet_l3(packet);
    uint32_t type;
    size_t offset;

    if (uapi == DPIF_NETLINK_GSO_UAPI_NONE
        || !segsz || !l3 || dp_packet_l3_size(packet) < 1) {
        return;
    }
    type = (*l3 >> 4 == 4 ? OVS_PACKET_GSO_TYPE_TCPV4
            : OVS_PACKET_GSO_TYPE_TCPV6);

    offset = nl_msg_start_nested_with_flag(
        buf, uapi == DPIF_NETLINK_GSO_UAPI_UPSTREAM
             ? OVS_PACKET_ATTR_GSO : OVS_PACKET_ATTR_BIGTCP_GSO);
    nl_msg_put_u16(buf, OVS_PACKET_GSO_ATTR_SIZE, segsz);
    nl_msg_put_u32(buf, OVS_PACKET_GSO_ATTR_TYPE, type);
    nl_msg_end_nested(buf, offset);
    COVERAGE_INC(dpif_netlink_gso_execute);
}
