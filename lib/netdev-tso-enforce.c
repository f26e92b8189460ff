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
#include "netdev-tso-enforce.h"

#include "coverage.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dp-packet-reseg.h"
#include "netdev-provider.h"
#include "netdev-tso-limits.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_tso_enforce);

COVERAGE_DEFINE(netdev_tso_over_limit);

/* other_config:userspace-tso-resegment: whether a TSO packet over its
 * output port's limits is cut into TSO packets that fit (true, the
 * default), or segmented fully in software, as Open vSwitch did before. */
static atomic_bool resegment = true;

/* other_config:userspace-tso-resegment-steps: whether a port that can
 * sends a resegmented packet's outputs in steps, with other ports served
 * between them (true), or all at once (false, the default). */
static atomic_bool resegment_steps = false;

/* Returns the flag of the tunnel TSO offload that tunnel packet 'p' needs
 * from a port. */
static uint64_t
tunnel_tso_flag(const struct dp_packet *p)
{
    return (dp_packet_tunnel_vxlan(p) ? NETDEV_TX_VXLAN_TNL_TSO
            : dp_packet_tunnel_geneve(p) ? NETDEV_TX_GENEVE_TNL_TSO
            : NETDEV_TX_GRE_TNL_TSO);
}

/* Returns true if TSO packet 'p' is within the TSO limits of 'netdev'.
 * Otherwise stores the limits that apply to it in '*max_size' and
 * '*max_segs'.  A tunnel TSO packet is checked, with the limits of its outer
 * IP version and the whole frame, only if 'netdev' does TSO for its kind of
 * tunnel; otherwise it is left to the checks of netdev_send(), as
 * before. */
static bool
tso_packet_fits(const struct netdev *netdev, const struct dp_packet *p,
                uint32_t *max_size, uint32_t *max_segs)
{
    const struct ip_header *ip = dp_packet_l3(p);
    int ip_ver;

    if (!ip || (dp_packet_tunnel(p)
                && !(netdev->ol_flags & tunnel_tso_flag(p)))) {
        return true;
    }
    ip_ver = IP_VER(ip->ip_ihl_ver);
    netdev_tso_limits_get(&netdev->tso_limits, ip_ver, max_size, max_segs);
    if (dp_packet_tunnel(p)) {
        /* A tunnel TSO packet's outer IP length (and the UDP length of
         * VXLAN and Geneve) must fit in 16 bits, and so must its payload
         * for the outer UDP checksum that packet_udp_tunnel_csum()
         * precomputes for the segments, unless the port takes Linux 7.3's
         * BIG TCP framing of UDP tunnels and fills those checksums. */
        uint32_t l3_ofs = (const char *) ip - (const char *) dp_packet_data(p);
        uint32_t max_ip = (l3_ofs + UINT16_MAX
                           + (ip_ver == 6 ? IPV6_HEADER_LEN : 0));
        uint32_t tnl_max = 0;

        if (!dp_packet_tunnel_gre(p)
            && (netdev->ol_flags & NETDEV_TX_OFFLOAD_OUTER_UDP_CKSUM
                || !dp_packet_l4_checksum_partial(p))) {
            /* Unless the port takes VXLAN and Geneve TSO packets with
             * outer lengths 0 over 64 KiB (see enum netdev_tso_tnl_big). */
            tnl_max = netdev_tso_limits_get_tnl_max(&netdev->tso_limits,
                                                    ip_ver);
        }
        *max_size = MIN(*max_size, tnl_max ? tnl_max : max_ip);
    }
    return (dp_packet_size(p) <= *max_size
            && dp_packet_gso_nr_segs(CONST_CAST(struct dp_packet *, p))
               <= *max_segs);
}

void
netdev_tso_enforce_set_global_config(const struct smap *other_config)
{
    bool enable = smap_get_bool(other_config, "userspace-tso-resegment",
                                true);
    bool old;

    atomic_read_relaxed(&resegment, &old);
    if (enable != old) {
        atomic_store_relaxed(&resegment, enable);
        VLOG_INFO("TSO packets over their output port's limits: %s",
                  enable ? "resegmented" : "segmented fully");
    }

    enable = smap_get_bool(other_config, "userspace-tso-resegment-steps",
                           false);
    atomic_read_relaxed(&resegment_steps, &old);
    if (enable != old) {
        atomic_store_relaxed(&resegment_steps, enable);
        VLOG_INFO("Resegmented TSO packets: outputs sent %s",
                  enable ? "in steps" : "all at once");
    }
}

/* Returns true if a port that can send the outputs of a resegmented TSO
 * packet in steps, with other ports served between them, is to do so. */
bool
netdev_tso_enforce_steps_enabled(void)
{
    bool enable;

    atomic_read_relaxed(&resegment_steps, &enable);
    return enable;
}

/* Returns true if TSO packets over their output port's limits are cut into
 * TSO packets that fit, false if they are segmented fully. */
bool
netdev_tso_enforce_resegment_enabled(void)
{
    bool enable;

    atomic_read_relaxed(&resegment, &enable);
    return enable;
}

/* Returns true if 'netdev''s provider resegments TSO packet 'p', which is
 * over the port's limits, itself: the provider declares that it does
 * (NETDEV_TX_TSO_RESEG in its 'ol_flags'), for plain TCP packets and for
 * the packets of every kind of tunnel whose TSO it takes.  Tunnel packets
 * to other ports get the copying engine. */
static bool
provider_resegments(const struct netdev *netdev, const struct dp_packet *p)
{
    return ((netdev->ol_flags & NETDEV_TX_TSO_RESEG)
            && (!dp_packet_tunnel(p)
                || (netdev->ol_flags & tunnel_tso_flag(p))));
}

/* For a provider that resegments without copying (NETDEV_TX_TSO_RESEG in its
 * 'ol_flags'), to which netdev_tso_enforce() leaves TSO packets over
 * the port's limits as they are: plans the cutting of TSO packet 'p' into
 * '*plan', for dp_packet_reseg_headers(), and returns NETDEV_TSO_ZC_CUT, if
 * 'p' is over the limits and can be cut within them.  The provider then
 * counts what it sends with netdev_tso_enforce_count_reseg().
 *
 * Returns NETDEV_TSO_ZC_SEGMENT if 'p' is over the limits but cannot be cut
 * within them (they leave no room for two segments in one packet, or 'p'
 * is not a TSO packet that the engine can cut): the provider then sends
 * what netdev_tso_enforce_segment() makes of it instead.  Returns
 * NETDEV_TSO_ZC_NONE for any other packet, which the provider sends as it
 * is.  This is the only place where such a packet's cut is planned.
 *
 * This does not read other_config:userspace-tso-resegment: when that is
 * off, netdev_tso_enforce() has segmented the packets over the
 * limits before the provider sees them, so that a change of the switch
 * between the two calls cannot leave a packet over the limits uncut. */
enum netdev_tso_zerocopy
netdev_tso_enforce_zerocopy_plan(const struct netdev *netdev,
                                const struct dp_packet *p,
                                struct dp_packet_reseg_plan *plan)
{
    uint32_t max_size, max_segs;

    if (!dp_packet_get_tso_segsz(p) || !provider_resegments(netdev, p)
        || tso_packet_fits(netdev, p, &max_size, &max_segs)) {
        return NETDEV_TSO_ZC_NONE;
    }
    return (dp_packet_reseg_plan(p, max_size, max_segs, plan)
            ? NETDEV_TSO_ZC_CUT : NETDEV_TSO_ZC_SEGMENT);
}

/* Segments TSO packet 'p', which is over 'netdev''s limits and cannot be cut
 * into TSO packets within them, fully in software, appends the segments to
 * 'batch' and counts it.  'p' is consumed (see dp_packet_gso()). */
static void
segment_fully(const struct netdev *netdev, struct dp_packet *p,
              struct dp_packet_batch *batch)
{
    struct netdev_tso_limits *l = CONST_CAST(struct netdev_tso_limits *,
                                             &netdev->tso_limits);
    uint64_t orig;

    COVERAGE_INC(netdev_tso_over_limit);
    dp_packet_gso(p, batch);
    atomic_add_relaxed(&l->n_segmented, 1, &orig);
}

/* For a provider to which netdev_tso_enforce_zerocopy_plan() returned
 * NETDEV_TSO_ZC_SEGMENT for TSO packet 'p': segments 'p' fully in software,
 * counts it, and appends the segments to 'batch', prepared for 'netdev' as
 * netdev_send() prepares the packets it hands to a provider (checksums that
 * the port does not offload are complete, see dp_packet_ol_send_prepare()).
 * 'p' is consumed (see dp_packet_gso()). */
void
netdev_tso_enforce_segment(const struct netdev *netdev, struct dp_packet *p,
                          struct dp_packet_batch *batch)
{
    size_t n = dp_packet_batch_size(batch);

    segment_fully(netdev, p, batch);
    for (size_t i = n; i < dp_packet_batch_size(batch); i++) {
        dp_packet_ol_send_prepare(batch->packets[i], netdev->ol_flags);
    }
}

/* Counts a TSO packet over 'netdev''s limits that its provider cut, without
 * copying, into 'n_out' TSO packets. */
void
netdev_tso_enforce_count_reseg(const struct netdev *netdev, size_t n_out)
{
    struct netdev_tso_limits *l = CONST_CAST(struct netdev_tso_limits *,
                                             &netdev->tso_limits);
    uint64_t orig;

    COVERAGE_INC(netdev_tso_over_limit);
    dp_packet_reseg_record(n_out);
    atomic_add_relaxed(&l->n_resegmented, 1, &orig);
    atomic_add_relaxed(&l->n_reseg_packets, n_out, &orig);
}

/* Makes every TSO packet in 'batch' fit the TSO limits of 'netdev', which
 * must take TSO packets: a packet over the limits is resegmented into TSO
 * packets that fit (dp_packet_reseg()), or, if that is turned off or not
 * possible, segmented fully in software, as for a port without TSO.  This
 * includes tunnel TSO packets (VXLAN, Geneve, GRE) if 'netdev' does TSO for
 * their kind of tunnel.  Packets within the limits are left as they are,
 * and so are those that the provider resegments itself without copying
 * (see netdev_tso_enforce_zerocopy_plan()). */
void
netdev_tso_enforce(const struct netdev *netdev,
                          struct dp_packet_batch *batch)
{
    struct netdev_tso_limits *l = CONST_CAST(struct netdev_tso_limits *,
                                             &netdev->tso_limits);
    uint32_t max_size, max_segs;
    struct dp_packet_batch out;
    struct dp_packet *packet;
    bool all_fit = true;
    bool reseg;

    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        if (dp_packet_get_tso_segsz(packet)
            && !tso_packet_fits(netdev, packet, &max_size, &max_segs)) {
            all_fit = false;
            break;
        }
    }
    if (all_fit) {
        return;
    }

    reseg = netdev_tso_enforce_resegment_enabled();
    dp_packet_batch_init(&out);
    out.trunc = batch->trunc;
    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        uint64_t orig;

        if (!dp_packet_get_tso_segsz(packet)
            || tso_packet_fits(netdev, packet, &max_size, &max_segs)) {
            dp_packet_batch_add(&out, packet);
            continue;
        }

        if (reseg && provider_resegments(netdev, packet)) {
            /* The provider plans the cut, makes it without copying and
             * counts it (see netdev_tso_enforce_zerocopy_plan()). */
            dp_packet_batch_add(&out, packet);
            continue;
        }

        size_t n = reseg ? dp_packet_reseg(packet, max_size, max_segs, &out)
                   : 0;
        if (n) {
            COVERAGE_INC(netdev_tso_over_limit);
            atomic_add_relaxed(&l->n_resegmented, 1, &orig);
            atomic_add_relaxed(&l->n_reseg_packets, n, &orig);
        } else {
            /* The port cannot take even two segments in one packet, or
             * the user asked for full segmentation. */
            segment_fully(netdev, packet, &out);
        }
    }
    dp_packet_batch_swap(batch, &out);
    dp_packet_batch_destroy(&out);
}
