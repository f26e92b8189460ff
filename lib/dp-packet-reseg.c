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

/* The userspace segmentation engine: a TSO packet cut into outputs of 'n'
 * segments each.  Full segmentation (dp_packet_gso() in dp-packet-gso.c)
 * is the case n = 1; bounded resegmentation, for a port that takes TSO
 * packets up to a limit, the case n >= 2; partial segmentation for UDP
 * tunnels (dp_packet_gso_batch_partial()) the case of all segments but the
 * last in one output.  The copying cut (dp_packet_reseg_cut()) and the
 * zero-copy one (dp_packet_reseg_headers(), see netdev-linux-reseg.c) write
 * the headers with the same code.
 *
 * A TSO packet with 'hdr_len' bytes of headers (Ethernet to TCP options)
 * and a payload of 'n_segs' segments of 'mss' bytes (the last one possibly
 * shorter) is cut into outputs of 'n' segments each but the last, which
 * carries the rest.
 *
 * Tail policy.  For a bound of 'max_size' bytes of frame and 'max_segs'
 * segments, the most segments an output can carry is
 *
 *     max = min(max_segs, (max_size - hdr_len) / mss),
 *
 * and resegmentation is done only when 'max' is at least 2: otherwise the
 * caller segments fully.  The packet then becomes as few outputs as 'max'
 * allows, ceil(n_segs / max), with the segments spread evenly over them:
 * n = ceil(n_segs / outputs).  If that leaves a last output of a single
 * segment, 'n' is lowered (never below 2) until it does not.  This is the
 * rule of the kernel datapath's resegmentation (ovs_gso_reseg_segs() in
 * datapath-ext/patches), so that both datapaths cut a packet the same way:
 * every output carries at least two segments except where the bound or the
 * input forces a single-segment last output (n = 2 and an odd 'n_segs'),
 * or the input is a single segment.  An output of a single segment is a
 * plain packet (segment size 0), wherever it is in the output sequence, so
 * that no device or kernel sees a GSO packet that is not bigger than its
 * segment size.
 *
 * Every output carries a copy of the input's headers, updated as full
 * segmentation updates the headers of the output's first segment:
 *
 *   - IPv4 total length and IPv6 payload length from the output's size,
 *     or 0 when the length does not fit in 16 bits (BIG TCP framing, see
 *     bigtcp-framing.h).
 *
 *   - IPv4 ID: the input's ID plus the index of the output's first segment,
 *     so that segmenting the outputs gives the IDs that segmenting the
 *     input gives.  The DF bit and the rest of the fragment field are kept.
 *     The IPv4 header checksum is zeroed and marked partial:
 *     dp_packet_ol_send_prepare() or the device fills it in.
 *
 *   - TCP sequence number: the input's plus the offset of the output's
 *     payload.
 *
 *   - TCP flags: CWR only on the first output, PSH and FIN only on the
 *     last output, all other flags (ACK, ECE, SYN, RST, NS) on every
 *     output, as Linux's tcp_gso_segment() and TSO devices do.
 *
 *   - TCP urgent pointer: an urgent pointer is relative to the sequence
 *     number of the packet that carries it.  The first output keeps URG and
 *     the pointer as received.  A later output keeps URG, with the pointer
 *     reduced by the output's payload offset, if it starts before the
 *     urgent point (the input's sequence number plus its urgent pointer):
 *     that is the output that contains the urgent point, and those before
 *     it, for which the urgent data is still ahead (RFC 9293, 3.8.5, as the
 *     Linux TCP sender marks them).  An output that starts at or after the
 *     urgent point carries no URG flag and a zero urgent pointer: a pointer
 *     there would point backwards.  The pointer never grows, so it always
 *     fits in 16 bits.  Without URG, the urgent pointer field is copied as
 *     it is.
 *
 *   - TCP checksum: marked partial, for the device or
 *     dp_packet_ol_send_prepare() to complete.
 *
 *   - Segment size: the MSS on every output of two segments or more, 0 on
 *     an output of one segment (see the tail policy above).
 *
 * Tunnel packets (VXLAN, Geneve, GRE; outer IPv4 or IPv6, with inner TCP
 * over IPv4 or IPv6) are cut the same way, for ports that do tunnel TSO:
 * 'hdr_len' then runs from the outer Ethernet header to the end of the
 * inner TCP header, so the bound counts the whole frame, and the rules
 * above apply to the inner IP and TCP headers.  The outer headers get:
 *
 *   - outer IPv4 total length and IPv6 payload length, and the UDP length
 *     of VXLAN and Geneve, from the output's size (0 when it does not fit
 *     in 16 bits, as for the inner lengths, although the callers keep
 *     tunnel outputs within 16-bit outer lengths: see
 *     netdev_tso_enforce());
 *
 *   - outer IPv4 ID: the input's outer ID plus the index of the output's
 *     first segment, like the inner ID; the outer IPv4 header checksum
 *     zeroed and marked partial;
 *
 *   - outer UDP checksum: left as it is, with its offload flag (partial
 *     when the tunnel has checksums on): the device or
 *     dp_packet_ol_send_prepare() completes it (for a TSO output, as the
 *     checksum of each of its segments: see packet_udp_tunnel_csum());
 *
 *   - GRE checksum, when the GRE header has one: computed over the output's
 *     GRE header and what follows.
 *
 * The inner IPv4 header checksum and the inner TCP checksum are marked
 * partial (inner offload flags).  A tunnel port that cannot fill an outer
 * UDP checksum gets its UDP tunnel packets cut on segment boundaries by
 * dp_packet_gso_batch_partial() first (see netdev_send()); resegmentation
 * keeps that alignment, since every output but the last is a whole number
 * of segments. */

#include <config.h>
#include "dp-packet-reseg.h"

#include <netinet/in.h>
#include <netinet/ip6.h>
#include <string.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "packets.h"
#include "util.h"

COVERAGE_DEFINE(dp_packet_reseg);
COVERAGE_DEFINE(dp_packet_reseg_packets);

/* Checks the outer headers of tunnel TSO packet 'p' and stores what
 * 'plan' needs of them.  Returns false if they are not those of a VXLAN,
 * Geneve or GRE packet over IPv4 or IPv6 with the UDP or GRE header right
 * after the fixed IP header, as Open vSwitch's tunnel ports build them. */
static bool
dp_packet_reseg_plan_outer__(const struct dp_packet *p,
                             struct dp_packet_reseg_plan *plan)
{
    const struct ip_header *ip = dp_packet_l3(p);
    const char *l4 = dp_packet_l4(p);
    const char *data = dp_packet_data(p);
    uint8_t proto, exp_proto;
    size_t ip_len;

    if (!ip || !l4 || l4 < (const char *) ip) {
        return false;
    }
    if (dp_packet_tunnel_gre(p)) {
        plan->tunnel = DP_PACKET_RESEG_TNL_GRE;
        exp_proto = IPPROTO_GRE;
    } else {
        plan->tunnel = DP_PACKET_RESEG_TNL_UDP;
        exp_proto = IPPROTO_UDP;
    }

    if (IP_VER(ip->ip_ihl_ver) == 4) {
        ip_len = IP_IHL(ip->ip_ihl_ver) * 4;
        proto = ip->ip_proto;
    } else if (IP_VER(ip->ip_ihl_ver) == 6) {
        const struct ovs_16aligned_ip6_hdr *ip6 = ALIGNED_CAST(
            const struct ovs_16aligned_ip6_hdr *, ip);

        ip_len = sizeof *ip6;
        proto = ip6->ip6_nxt;
    } else {
        return false;
    }
    if (proto != exp_proto || l4 - (const char *) ip != ip_len) {
        return false;
    }

    plan->outer_l3_ofs = (const char *) ip - data;
    plan->outer_l4_ofs = l4 - data;
    return true;
}

/* Returns the payload length of output 'k' of 'plan'. */
static uint32_t
dp_packet_reseg_out_len(const struct dp_packet_reseg_plan *plan, uint32_t k)
{
    uint32_t out_len = plan->segs_per_out * plan->mss;

    return MIN(out_len, plan->payload_len - k * out_len);
}

/* Returns the number of segments to put in every output but the last when
 * 'n_segs' segments are cut into outputs of at most 'max_per' segments
 * (at least 2), by the tail policy at the top of this file: as few outputs
 * as 'max_per' allows, the segments spread evenly over them, and no last
 * output of a single segment where fewer segments per output (but at least
 * two) avoid one.  Returns 'n_segs' if they fit in one output. */
static uint32_t
dp_packet_reseg_spread__(uint32_t n_segs, uint32_t max_per)
{
    uint32_t n_out, per;

    if (n_segs <= max_per) {
        return n_segs;
    }
    n_out = DIV_ROUND_UP(n_segs, max_per);
    per = DIV_ROUND_UP(n_segs, n_out);
    while (per > 2 && n_segs % per == 1) {
        per--;
    }
    return per;
}

/* Sets the number of segments per output of 'plan', whose input is
 * 'n_segs' segments, to 'per', and the number of outputs. */
static void
dp_packet_reseg_set_per__(struct dp_packet_reseg_plan *plan, uint32_t n_segs,
                          uint32_t per)
{
    plan->segs_per_out = per;
    plan->n_out = n_segs <= per ? 1 : DIV_ROUND_UP(n_segs, per);
}

/* Returns the number of segments in the payload of 'plan'. */
static uint32_t
dp_packet_reseg_n_segs__(const struct dp_packet_reseg_plan *plan)
{
    return DIV_ROUND_UP(plan->payload_len, plan->mss);
}

/* Sets the segments per output and the number of outputs of 'plan', whose
 * headers, segment size and payload are set, for outputs of at most
 * 'max_size' bytes of frame and 'max_segs' segments, by the tail policy.
 * Returns false if the bound leaves room for fewer than two segments. */
static bool
dp_packet_reseg_bound__(struct dp_packet_reseg_plan *plan,
                        uint32_t max_size, uint32_t max_segs)
{
    uint32_t n, n_segs;

    if (max_size <= plan->hdr_len) {
        return false;
    }
    n = MIN(max_segs, (max_size - plan->hdr_len) / plan->mss);
    if (n < 2) {
        return false;
    }
    n_segs = dp_packet_reseg_n_segs__(plan);
    dp_packet_reseg_set_per__(plan, n_segs,
                              dp_packet_reseg_spread__(n_segs, n));
    return true;
}

/* Checks that TSO packet 'p' can be cut, and stores in '*plan' its headers'
 * offsets and lengths, its segment size and its payload length, for a plan
 * that covers the whole input.  Returns false if 'p' is not TCP over IPv4
 * or IPv6, plain or in a VXLAN, Geneve or GRE tunnel over IPv4 or IPv6, or
 * has no segment size. */
static bool
dp_packet_reseg_plan_input__(const struct dp_packet *p,
                             struct dp_packet_reseg_plan *plan)
{
    uint16_t mss = dp_packet_get_tso_segsz(p);
    const struct ip_header *ip;
    const char *payload;
    const char *data;
    const char *tcp;
    size_t hdr_len;
    int ip_ver;

    if (!mss || !dp_packet_eth(p)) {
        return false;
    }

    if (dp_packet_tunnel(p)) {
        if (!dp_packet_inner_l4_proto_tcp(p)
            || !dp_packet_reseg_plan_outer__(p, plan)) {
            return false;
        }
        ip = dp_packet_inner_l3(p);
        tcp = dp_packet_inner_l4(p);
        payload = dp_packet_get_inner_tcp_payload(p);
        if (!ip || !tcp || !payload
            || (const char *) ip < (const char *) dp_packet_l4(p)) {
            return false;
        }
        plan->payload_len = dp_packet_get_inner_tcp_payload_length(p);
    } else {
        if (!dp_packet_l4_proto_tcp(p)) {
            return false;
        }
        plan->tunnel = DP_PACKET_RESEG_TNL_NONE;
        plan->outer_l3_ofs = plan->outer_l4_ofs = 0;
        ip = dp_packet_l3(p);
        tcp = dp_packet_l4(p);
        payload = dp_packet_get_tcp_payload(p);
        if (!ip || !tcp || !payload) {
            return false;
        }
        plan->payload_len = dp_packet_get_tcp_payload_length(p);
    }
    ip_ver = IP_VER(ip->ip_ihl_ver);
    if (ip_ver != 4 && ip_ver != 6) {
        return false;
    }

    data = dp_packet_data(p);
    hdr_len = payload - data;
    if (plan->tunnel == DP_PACKET_RESEG_TNL_GRE
        && (hdr_len - plan->outer_l4_ofs) % 2) {
        /* The GRE checksum continues over the payload on a 16-bit word
         * boundary.  Ethernet, IP, TCP and GRE headers never make an odd
         * length. */
        return false;
    }

    plan->hdr_len = hdr_len;
    plan->l3_ofs = (const char *) ip - data;
    plan->l4_ofs = tcp - data;
    plan->mss = mss;
    plan->first_seg = 0;
    plan->ends_input = true;
    return true;
}

/* Plans the cutting of TSO packet 'p' into TSO packets of at most
 * 'max_size' bytes of frame (from the Ethernet header on) and 'max_segs'
 * segments each, into '*plan', by the tail policy at the top of this file.
 * Returns false, leaving '*plan' undefined, if 'p' cannot be resegmented:
 * it is not TCP over IPv4 or IPv6, plain or in a VXLAN, Geneve or GRE
 * tunnel over IPv4 or IPv6, or the bound leaves room for fewer than two
 * segments per output.  For a tunnel packet, 'plan->tunnel' says which
 * kind, and the offsets and sizes cover the outer headers too (see the top
 * of this file). */
bool
dp_packet_reseg_plan(const struct dp_packet *p, uint32_t max_size,
                     uint32_t max_segs, struct dp_packet_reseg_plan *plan)
{
    return (dp_packet_reseg_plan_input__(p, plan)
            && dp_packet_reseg_bound__(plan, max_size, max_segs));
}

/* Plans the cutting of TSO packet 'p' into outputs of exactly 'per'
 * segments each but the last, which carries the rest, into '*plan'.
 * 'per' is at least 1: 1 is full segmentation (see dp_packet_gso()).  No
 * bound and no tail policy apply.  Returns false, leaving '*plan'
 * undefined, if 'p' cannot be cut (as for dp_packet_reseg_plan()). */
bool
dp_packet_reseg_plan_segs(const struct dp_packet *p, uint32_t per,
                          struct dp_packet_reseg_plan *plan)
{
    ovs_assert(per >= 1);
    if (!dp_packet_reseg_plan_input__(p, plan)) {
        return false;
    }
    dp_packet_reseg_set_per__(plan, dp_packet_reseg_n_segs__(plan), per);
    return true;
}

/* Plans the cutting of output 'k' of 'whole' (which must be less than
 * 'whole->n_out') into outputs of at most 'max_size' bytes of frame and
 * 'max_segs' segments each, into '*slice', whose outputs are then exactly
 * those that cutting the input of 'whole' at its output 'k' boundaries and
 * then at the new bound would give: their headers are made from the
 * input's, with sequence numbers, IDs and flags as for the segments they
 * start with.  This is for a sender that learns, only once it has sent
 * outputs before 'k', that output 'k' is too big for its next hop (see
 * netdev-linux-reseg.c).  Returns false, leaving '*slice' undefined, if the
 * bound leaves room for fewer than two segments per output. */
bool
dp_packet_reseg_plan_slice(const struct dp_packet_reseg_plan *whole,
                           uint32_t k, uint32_t max_size, uint32_t max_segs,
                           struct dp_packet_reseg_plan *slice)
{
    ovs_assert(k < whole->n_out);
    *slice = *whole;
    slice->first_seg = whole->first_seg + k * whole->segs_per_out;
    slice->payload_len = dp_packet_reseg_out_len(whole, k);
    slice->ends_input = whole->ends_input && k == whole->n_out - 1;
    return dp_packet_reseg_bound__(slice, max_size, max_segs);
}

/* Returns true if TSO packet 'p' can be cut into TSO packets of at most
 * 'max_size' bytes of frame (from the Ethernet header on) and 'max_segs'
 * segments, with at least two segments of 'p''s segment size (the MSS) in
 * each, except possibly in the last.  Always false for anything other than
 * TCP over IPv4 or IPv6, plain or in a VXLAN, Geneve or GRE tunnel, which
 * this engine cannot cut at all (dp_packet_gso() drops them).  Whether the
 * port can take tunnel TSO packets is for the caller to check. */
bool
dp_packet_reseg_possible(const struct dp_packet *p, uint32_t max_size,
                         uint32_t max_segs)
{
    struct dp_packet_reseg_plan plan;

    return dp_packet_reseg_plan(p, max_size, max_segs, &plan);
}

/* Returns a new packet with room for 'size' bytes, of which the first
 * 'hdr_len' are there, uninitialized, for the headers of 'p', with the
 * offsets, offload flags and metadata of 'p', as dp_packet_clone() copies
 * them. */
static struct dp_packet *
dp_packet_reseg_new__(const struct dp_packet *p, size_t hdr_len, size_t size)
{
    struct dp_packet *out;
    uint32_t mark;

    out = dp_packet_new_with_headroom(size, dp_packet_headroom(p));
    dp_packet_put_uninit(out, hdr_len);
    dp_packet_reseg_copy_metadata(out, p);
    if (dp_packet_has_flow_mark(p, &mark)) {
        dp_packet_set_flow_mark(out, mark);
    }
    return out;
}

/* Gives 'dst', a packet cut from 'src', the offsets, cutlen, packet type,
 * offload flags and metadata of 'src', as dp_packet_clone() copies them,
 * and its RSS hash; but no L2 padding: 'dst' has none. */
void
dp_packet_reseg_copy_metadata(struct dp_packet *dst,
                              const struct dp_packet *src)
{
    memcpy(&dst->l2_pad_size, &src->l2_pad_size,
           sizeof *dst - offsetof(struct dp_packet, l2_pad_size));
    dp_packet_set_l2_pad_size(dst, 0);
    if (dp_packet_rss_valid(src)) {
        dp_packet_set_rss_hash(dst, dp_packet_get_rss_hash(src));
    }
}

/* Updates the IPv4 or IPv6 header at 'ip_' for an output in which it covers
 * 'l3_size' bytes (from the IP header to the end of the output) and whose
 * first segment is segment number 'first_seg' of the input.  The IPv4 header
 * checksum is set to 0. */
static void
dp_packet_reseg_update_ip__(char *ip_, uint32_t l3_size, uint32_t first_seg)
{
    struct ip_header *ip = ALIGNED_CAST(struct ip_header *, ip_);

    if (IP_VER(ip->ip_ihl_ver) == 4) {
        ip->ip_tot_len = htons(l3_size <= UINT16_MAX ? l3_size : 0);
        ip->ip_id = htons(ntohs(ip->ip_id) + (uint16_t) first_seg);
        ip->ip_csum = 0;
    } else {
        struct ovs_16aligned_ip6_hdr *ip6 = ALIGNED_CAST(
            struct ovs_16aligned_ip6_hdr *, ip);
        uint32_t plen = l3_size - sizeof *ip6;

        ip6->ip6_plen = htons(plen <= UINT16_MAX ? plen : 0);
    }
}

/* Updates 'hdr', a copy of the 'plan->hdr_len' bytes of headers of the
 * input of 'plan', to the headers of output 'k' of 'plan' (see the top of
 * this file).  The IPv4 header checksums are set to 0 and the TCP checksum,
 * the outer UDP checksum and the GRE checksum are left as they are: the
 * caller completes them or marks them partial. */
static void
dp_packet_reseg_update__(const struct dp_packet_reseg_plan *plan, uint32_t k,
                         char *hdr)
{
    uint32_t first_seg = plan->first_seg + k * plan->segs_per_out;
    uint32_t payload_ofs = first_seg * plan->mss;
    uint32_t len = dp_packet_reseg_out_len(plan, k);
    struct tcp_header *tcp = ALIGNED_CAST(struct tcp_header *,
                                          hdr + plan->l4_ofs);
    bool first = first_seg == 0;
    bool last = plan->ends_input && k == plan->n_out - 1;
    uint16_t flags;

    dp_packet_reseg_update_ip__(hdr + plan->l3_ofs,
                                plan->hdr_len - plan->l3_ofs + len,
                                first_seg);
    if (plan->tunnel != DP_PACKET_RESEG_TNL_NONE) {
        dp_packet_reseg_update_ip__(hdr + plan->outer_l3_ofs,
                                    plan->hdr_len - plan->outer_l3_ofs + len,
                                    first_seg);
    }
    if (plan->tunnel == DP_PACKET_RESEG_TNL_UDP) {
        struct udp_header *udp = ALIGNED_CAST(struct udp_header *,
                                              hdr + plan->outer_l4_ofs);
        uint32_t udp_len = plan->hdr_len - plan->outer_l4_ofs + len;

        udp->udp_len = htons(udp_len <= UINT16_MAX ? udp_len : 0);
    }

    put_16aligned_be32(&tcp->tcp_seq,
                       htonl(ntohl(get_16aligned_be32(&tcp->tcp_seq))
                             + payload_ofs));

    flags = TCP_FLAGS(tcp->tcp_ctl);
    if (!first) {
        flags &= ~TCP_CWR;
        if (flags & TCP_URG) {
            uint16_t urg = ntohs(tcp->tcp_urg);

            if (payload_ofs < urg) {
                tcp->tcp_urg = htons(urg - payload_ofs);
            } else {
                flags &= ~TCP_URG;
                tcp->tcp_urg = htons(0);
            }
        }
    }
    if (!last) {
        flags &= ~(TCP_PSH | TCP_FIN);
    }
    tcp->tcp_ctl = TCP_CTL(flags, TCP_OFFSET(tcp->tcp_ctl));
}

/* If 'plan' is for a GRE packet whose GRE header has a checksum, computes
 * it for the output whose headers are 'hdr' (updated by
 * dp_packet_reseg_update__()) and whose payload is the 'len' bytes at
 * 'payload'. */
static void
dp_packet_reseg_gre_csum__(const struct dp_packet_reseg_plan *plan,
                           char *hdr, const void *payload, uint32_t len)
{
    struct gre_base_hdr *greh;
    ovs_be16 *csum_opt;
    uint32_t partial;

    if (plan->tunnel != DP_PACKET_RESEG_TNL_GRE) {
        return;
    }
    greh = ALIGNED_CAST(struct gre_base_hdr *, hdr + plan->outer_l4_ofs);
    if (!(greh->flags & htons(GRE_CSUM))) {
        return;
    }

    /* The checksum option follows the base header.  The GRE part of the
     * headers has an even length (see dp_packet_reseg_plan()). */
    csum_opt = ALIGNED_CAST(ovs_be16 *, greh + 1);
    *csum_opt = 0;
    partial = csum_continue(0, greh, plan->hdr_len - plan->outer_l4_ofs);
    partial = csum_continue(partial, payload, len);
    *csum_opt = csum_finish(partial);
}

/* Writes the headers of output 'k' of 'plan', made for packet 'p', into
 * 'hdr', which must have room for 'plan->hdr_len' bytes.  The output is
 * these headers followed by the '*payload_len' bytes of 'p' at offset
 * '*payload_ofs' from the start of its data, with segment size '*segsz' (0
 * if the output is a single segment).  The IPv4 header checksums are 0 and
 * the TCP checksum (and for a tunnel packet the outer UDP checksum) is the
 * input's: the caller completes them or has the device do it.  A GRE
 * checksum is complete.  'p' is not changed: this is what sends the outputs
 * without copying the payload (see netdev-linux-reseg.c).  'k' must be less
 * than 'plan->n_out'. */
void
dp_packet_reseg_headers(const struct dp_packet_reseg_plan *plan,
                        const struct dp_packet *p, uint32_t k, void *hdr,
                        uint32_t *payload_ofs, uint32_t *payload_len,
                        uint16_t *segsz)
{
    uint32_t len = dp_packet_reseg_out_len(plan, k);
    uint32_t ofs = (plan->hdr_len
                    + (plan->first_seg + k * plan->segs_per_out) * plan->mss);

    memcpy(hdr, dp_packet_data(p), plan->hdr_len);
    dp_packet_reseg_update__(plan, k, hdr);
    dp_packet_reseg_gre_csum__(plan, hdr,
                               (const char *) dp_packet_data(p) + ofs, len);
    *payload_ofs = ofs;
    *payload_len = len;
    *segsz = len > plan->mss ? plan->mss : 0;
}

/* Counts one TSO packet cut into 'n_out' outputs, by dp_packet_reseg() or
 * by a caller of dp_packet_reseg_headers(), in the coverage counters. */
void
dp_packet_reseg_record(size_t n_out)
{
    COVERAGE_INC(dp_packet_reseg);
    COVERAGE_ADD(dp_packet_reseg_packets, n_out);
}

/* Marks the checksums of output 'out' of 'plan' as partial, for the device
 * or dp_packet_ol_send_prepare() to complete: for a tunnel packet the
 * outer IPv4 header checksum and the inner ones (the outer UDP checksum
 * keeps its flag). */
static void
dp_packet_reseg_set_partial__(const struct dp_packet_reseg_plan *plan,
                              struct dp_packet *out)
{
    const char *data = dp_packet_data(out);
    const struct ip_header *ip = ALIGNED_CAST(const struct ip_header *,
                                              data + plan->l3_ofs);

    if (plan->tunnel == DP_PACKET_RESEG_TNL_NONE) {
        if (IP_VER(ip->ip_ihl_ver) == 4) {
            dp_packet_ip_checksum_set_partial(out);
        }
        dp_packet_l4_checksum_set_partial(out);
    } else {
        const struct ip_header *outer_ip = ALIGNED_CAST(
            const struct ip_header *, data + plan->outer_l3_ofs);

        if (IP_VER(outer_ip->ip_ihl_ver) == 4) {
            dp_packet_ip_checksum_set_partial(out);
        }
        if (IP_VER(ip->ip_ihl_ver) == 4) {
            dp_packet_inner_ip_checksum_set_partial(out);
        }
        dp_packet_inner_l4_checksum_set_partial(out);
    }
}

/* Cuts TSO packet 'p' as 'plan' (made for 'p') says, and appends the
 * outputs to 'batch': 'p' itself, trimmed to the first output, then the
 * others, in order.  If the plan has a single output, 'p' is appended as it
 * is.  Returns the number of packets appended.
 *
 * The outputs are copies: this is for ports that need each packet in one
 * buffer.  dp_packet_reseg_headers() is the zero-copy alternative. */
size_t
dp_packet_reseg_cut(struct dp_packet *p,
                    const struct dp_packet_reseg_plan *plan,
                    struct dp_packet_batch *batch)
{
    uint32_t first_len = plan->segs_per_out * plan->mss;

    dp_packet_batch_add(batch, p);
    if (plan->n_out == 1) {
        return 1;
    }

    /* The other outputs first: they copy the headers of 'p' before the
     * update of 'p' below. */
    for (uint32_t k = 1; k < plan->n_out; k++) {
        uint32_t ofs, len;
        struct dp_packet *out;
        uint16_t segsz;

        out = dp_packet_reseg_new__(p, plan->hdr_len, plan->hdr_len
                                    + dp_packet_reseg_out_len(plan, k));
        dp_packet_reseg_headers(plan, p, k, dp_packet_data(out), &ofs, &len,
                                &segsz);
        dp_packet_put(out, (const char *) dp_packet_data(p) + ofs, len);
        dp_packet_set_tso_segsz(out, segsz);
        dp_packet_reseg_set_partial__(plan, out);
        dp_packet_batch_add(batch, out);
    }

    /* Trim 'p' to the first output, which is a plain packet if it is a
     * single segment. */
    dp_packet_set_l2_pad_size(p, 0);
    dp_packet_set_size(p, plan->hdr_len + first_len);
    if (plan->segs_per_out == 1) {
        dp_packet_set_tso_segsz(p, 0);
    }
    dp_packet_reseg_update__(plan, 0, dp_packet_data(p));
    dp_packet_reseg_gre_csum__(plan, dp_packet_data(p),
                               (const char *) dp_packet_data(p)
                               + plan->hdr_len, first_len);
    dp_packet_reseg_set_partial__(plan, p);
    return plan->n_out;
}

/* Cuts TSO packet 'p' into TSO packets of at most 'max_size' bytes of frame
 * and 'max_segs' segments each, by the tail policy at the top of this file,
 * and appends them to 'batch' as dp_packet_reseg_cut() does.  A packet that
 * already fits is appended as it is.  Returns the number of packets
 * appended, and counts them (dp_packet_reseg_record()) if there are more
 * than one.
 *
 * Returns 0, leaving 'p' as it is and not appending it, if 'p' cannot be cut
 * within the bound (see dp_packet_reseg_possible()). */
size_t
dp_packet_reseg(struct dp_packet *p, uint32_t max_size, uint32_t max_segs,
                struct dp_packet_batch *batch)
{
    struct dp_packet_reseg_plan plan;
    size_t n_out;

    if (!dp_packet_reseg_plan(p, max_size, max_segs, &plan)) {
        return 0;
    }
    n_out = dp_packet_reseg_cut(p, &plan, batch);
    if (n_out > 1) {
        dp_packet_reseg_record(n_out);
    }
    return n_out;
}
