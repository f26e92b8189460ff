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

#include "netdev-gro.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <string.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dp-packet-pool.h"
#include "dp-packet-segs.h"
#include "netdev-gro-private.h"
#include "packets.h"
#include "util.h"

COVERAGE_DEFINE(netdev_gro_coalesced);   /* Coalesced packets made. */

#define GRO_REASON(ENUM, NAME) COVERAGE_DEFINE(netdev_gro_refuse_##NAME);
GRO_REASONS
#undef GRO_REASON

static void
gro_refuse(enum gro_reason reason)
{
    switch (reason) {
    case GRO_OK:
        break;
#define GRO_REASON(ENUM, NAME)                  \
    case GRO_##ENUM:                            \
        COVERAGE_INC(netdev_gro_refuse_##NAME); \
        break;
    GRO_REASONS
#undef GRO_REASON
    }
}

/* Open flows (packets that may grow) and queued packets of one context.
 * A receive round adds at most NETDEV_MAX_BURST packets to fewer than
 * NETDEV_MAX_BURST queued ones (see netdev_gro_rxq_recv()). */
#define GRO_MAX_FLOWS NETDEV_MAX_BURST
#define GRO_MAX_QUEUE (2 * NETDEV_MAX_BURST)

/* A packet that later segments of its flow may join. */
struct gro_flow {
    size_t slot;                /* Index of the packet in 'queue'. */
    struct gro_hdrs hdrs;       /* Of the first segment. */
    uint32_t next_seq;          /* Sequence number the next must have. */
    uint32_t n_segs;            /* Segments in the packet. */
    uint16_t mss;               /* Payload of the first segment. */
    bool fixed_id;              /* IPv4 IDs stay the same. */
    bool own_buffer;            /* The packet is GRO's copy. */
};

struct netdev_gro {
    struct dp_packet_pool *pool;    /* Buffers of coalesced packets. */

    /* Packets in the order their first segment came: received ones, passed
     * on as they are, and (at 'flows[i].slot') the open flows' packets. */
    struct dp_packet *queue[GRO_MAX_QUEUE];
    size_t n_queue;

    struct gro_flow flows[GRO_MAX_FLOWS];
    size_t n_flows;

    bool keep_segs;                 /* Whether coalesced packets keep their
                                     * segments, as of the last receive. */

    /* Coalesced packets and their segments, not yet taken. */
    uint64_t n_packets;
    uint64_t n_segments;
};

struct netdev_gro *
netdev_gro_create(void)
{
    struct netdev_gro *gro = xzalloc(sizeof *gro);

    gro->pool = dp_packet_pool_create(NETDEV_GRO_HEADROOM + GSO_MAX_SIZE,
                                      NETDEV_MAX_BURST);
    return gro;
}

void
netdev_gro_destroy(struct netdev_gro *gro)
{
    if (gro) {
        for (size_t i = 0; i < gro->n_queue; i++) {
            dp_packet_delete(gro->queue[i]);
        }
        dp_packet_pool_destroy(gro->pool);
        free(gro);
    }
}

/* Returns true if the TCP checksum of segment 'p' is valid: the receiving
 * device or kernel said so, or left it to be completed (a packet that a
 * local sender wrote, whose integrity it vouches for), or it adds up. */
static bool
gro_tcp_csum_ok(const struct dp_packet *p, const struct gro_hdrs *h)
{
    const char *l4 = (const char *) dp_packet_data(p) + h->l4_ofs;
    uint32_t l4_len = dp_packet_size(p) - h->l4_ofs;
    uint32_t partial;

    if (dp_packet_l4_checksum_valid(p)) {
        return true;
    } else if (dp_packet_l4_checksum_bad(p)) {
        return false;
    }
    partial = (h->ip_version == 4
               ? packet_csum_pseudoheader_l4len(gro_ip(p, h), l4_len)
               : packet_csum_pseudoheader6_l4len(gro_ip6(p, h), IPPROTO_TCP,
                                                 l4_len));
    return !csum_finish(csum_continue(partial, l4, l4_len));
}

/* Two segments are of the same flow if they have the same Ethernet header
 * (VLAN tag included), IP version, addresses, flow label and ports, and
 * over IPv6 the same extension headers, byte for byte, as
 * ipv6_gro_receive() requires. */
static bool
gro_same_flow(const struct dp_packet *a, const struct gro_hdrs *ha,
              const struct dp_packet *b, const struct gro_hdrs *hb)
{
    const struct tcp_header *ta = gro_tcp(a, ha), *tb = gro_tcp(b, hb);

    if (ha->ip_version != hb->ip_version || ha->l3_ofs != hb->l3_ofs
        || ta->tcp_src != tb->tcp_src || ta->tcp_dst != tb->tcp_dst
        || memcmp(dp_packet_data(a), dp_packet_data(b), ha->l3_ofs)) {
        return false;
    }
    if (ha->ip_version == 4) {
        const struct ip_header *ia = gro_ip(a, ha), *ib = gro_ip(b, hb);

        return (get_16aligned_be32(&ia->ip_src)
                == get_16aligned_be32(&ib->ip_src)
                && get_16aligned_be32(&ia->ip_dst)
                == get_16aligned_be32(&ib->ip_dst));
    } else {
        const struct ovs_16aligned_ip6_hdr *ia = gro_ip6(a, ha);
        const struct ovs_16aligned_ip6_hdr *ib = gro_ip6(b, hb);
        ovs_be32 fa = get_16aligned_be32(&ia->ip6_flow);
        ovs_be32 fb = get_16aligned_be32(&ib->ip6_flow);
        size_t ext_len = ha->l4_ofs - ha->l3_ofs - IPV6_HEADER_LEN;

        return (!((fa ^ fb) & htonl(IPV6_LABEL_MASK))
                && !memcmp(&ia->ip6_src, &ib->ip6_src, sizeof ia->ip6_src)
                && !memcmp(&ia->ip6_dst, &ib->ip6_dst, sizeof ia->ip6_dst)
                && ia->ip6_nxt == ib->ip6_nxt
                && ha->l4_ofs - ha->l3_ofs == hb->l4_ofs - hb->l3_ofs
                && !memcmp(ia + 1, ib + 1, ext_len));
    }
}

/* Returns the largest frame that a packet whose first segment's headers are
 * 'h' may grow to, under gro-max-size 'max_size'.  Behind IPv6 extension
 * headers, the IPv6 payload stays within 65535 bytes: over that, BIG TCP
 * framing puts a jumbo Hop-by-Hop header in front of them (as Linux's GRO
 * does), and Linux's GSO takes a BIG TCP packet only with TCP right behind
 * that header (ipv6_has_hopopt_jumbo()). */
static uint32_t
gro_packet_max_size(const struct gro_hdrs *h, uint32_t max_size)
{
    if (h->ip_version == 6 && h->l4_ofs > h->l3_ofs + IPV6_HEADER_LEN) {
        return MIN(max_size, h->l3_ofs + IPV6_HEADER_LEN + UINT16_MAX);
    }
    return max_size;
}

/* Returns the rule that keeps segment 'p' (headers 'h', of the same flow)
 * out of 'flow''s packet 'held', or GRO_OK if it may join it, as
 * tcp_gro_receive() and the IP layers under it decide.  Sets '*fixed_id'
 * to whether the flow's IPv4 IDs stay the same. */
static enum gro_reason
gro_mismatch(const struct gro_flow *flow, const struct dp_packet *held,
             const struct dp_packet *p, const struct gro_hdrs *h,
             uint32_t max_size, bool *fixed_id)
{
    const struct tcp_header *t0 = gro_tcp(held, &flow->hdrs);
    const struct tcp_header *t = gro_tcp(p, h);
    uint16_t flags = TCP_FLAGS(t->tcp_ctl);
    uint16_t flags0 = TCP_FLAGS(t0->tcp_ctl);

    *fixed_id = flow->fixed_id;
    if (flow->hdrs.ip_version == 4) {
        const struct ip_header *i0 = gro_ip(held, &flow->hdrs);
        const struct ip_header *i = gro_ip(p, h);
        uint16_t id_ofs = ntohs(i->ip_id) - ntohs(i0->ip_id);
        bool df = i->ip_frag_off & htons(IP_DONT_FRAGMENT);

        if (i->ip_tos != i0->ip_tos) {
            return GRO_TOS;
        } else if (i->ip_ttl != i0->ip_ttl) {
            return GRO_TTL;
        } else if ((i->ip_frag_off ^ i0->ip_frag_off)
                   & htons(IP_DONT_FRAGMENT)) {
            return GRO_DF;
        }
        /* The second segment decides whether the IDs stay the same. */
        if (flow->n_segs == 1 && df && !id_ofs) {
            *fixed_id = true;
        }
        if (id_ofs != (*fixed_id ? 0 : (uint16_t) flow->n_segs)) {
            return GRO_IP_ID;
        }
    } else {
        const struct ovs_16aligned_ip6_hdr *i0 = gro_ip6(held, &flow->hdrs);
        const struct ovs_16aligned_ip6_hdr *i = gro_ip6(p, h);
        ovs_be32 diff = (get_16aligned_be32(&i->ip6_flow)
                         ^ get_16aligned_be32(&i0->ip6_flow));

        if (diff & htonl(0x0ff00000)) {
            return GRO_TOS;
        } else if (i->ip6_hlim != i0->ip6_hlim) {
            return GRO_TTL;
        }
    }

    if (flags & TCP_CWR || (flags ^ flags0) & ~(TCP_FIN | TCP_PSH | TCP_CWR)) {
        return GRO_FLAGS;
    } else if (get_16aligned_be32(&t->tcp_ack)
               != get_16aligned_be32(&t0->tcp_ack)) {
        return GRO_ACK;
    } else if (TCP_OFFSET(t->tcp_ctl) != TCP_OFFSET(t0->tcp_ctl)
               || t->tcp_winsz != t0->tcp_winsz) {
        return GRO_TCP_WORD;
    } else if (memcmp(t + 1, t0 + 1,
                      h->hdr_len - h->l4_ofs - TCP_HEADER_LEN)) {
        return GRO_TCP_OPTS;
    } else if (ntohl(get_16aligned_be32(&t->tcp_seq)) != flow->next_seq) {
        return GRO_SEQ;
    } else if (h->payload_len > flow->mss) {
        return GRO_MSS;
    } else if (dp_packet_size(held) + h->payload_len
               > gro_packet_max_size(&flow->hdrs, max_size)
               || flow->n_segs >= GSO_MAX_SEGS) {
        return GRO_FULL;
    }
    return GRO_OK;
}

/* Gives segment 'seg', whose headers are 'h', to coalesced packet 'p' to
 * keep (see dp-packet-segs.h) if 'gro' keeps segments, otherwise frees
 * it. */
static void
gro_keep(const struct netdev_gro *gro, struct dp_packet *p,
         struct dp_packet *seg, const struct gro_hdrs *h)
{
    if (gro->keep_segs) {
        dp_packet_segs_keep(p, seg, h->l3_ofs, h->l4_ofs, h->payload_len);
    } else {
        dp_packet_delete(seg);
    }
}

/* Copies segment 'seg', the first of a packet, whose headers are 'h', into
 * a buffer of the pool with room for the whole coalesced packet, and
 * returns the copy, which takes 'seg' (see gro_keep()). */
static struct dp_packet *
gro_start_copy(struct netdev_gro *gro, struct dp_packet *seg,
               const struct gro_hdrs *h)
{
    struct dp_packet *p = dp_packet_pool_get(gro->pool, NETDEV_GRO_HEADROOM);

    dp_packet_put(p, dp_packet_data(seg), dp_packet_size(seg));
    p->offloads = seg->offloads;
    if (dp_packet_rss_valid(seg)) {
        dp_packet_set_rss_hash(p, dp_packet_get_rss_hash(seg));
    }
    gro_keep(gro, p, seg, h);
    return p;
}

/* Appends the payload of segment 'p' to 'flow''s packet, which takes 'p'
 * (see gro_keep()). */
static void
gro_merge(struct netdev_gro *gro, struct gro_flow *flow, struct dp_packet *p,
          const struct gro_hdrs *h)
{
    struct dp_packet *held = gro->queue[flow->slot];
    uint16_t flags = TCP_FLAGS(gro_tcp(p, h)->tcp_ctl);

    if (!flow->own_buffer) {
        held = gro->queue[flow->slot] = gro_start_copy(gro, held,
                                                       &flow->hdrs);
        flow->own_buffer = true;
    }
    dp_packet_put(held, (const char *) dp_packet_data(p) + h->hdr_len,
                  h->payload_len);

    /* PSH and FIN of a segment go to the packet (and end it). */
    gro_tcp(held, &flow->hdrs)->tcp_ctl |= htons(flags & (TCP_FIN | TCP_PSH));

    flow->n_segs++;
    flow->next_seq += h->payload_len;
    gro_keep(gro, held, p, h);
}

/* Makes the packet of open flow 'idx' final (the lengths and checksums of
 * a coalesced packet, its TSO segment size) and closes the flow. */
static void
gro_close(struct netdev_gro *gro, size_t idx)
{
    struct gro_flow *flow = &gro->flows[idx];
    struct dp_packet *p = gro->queue[flow->slot];

    if (flow->n_segs > 1) {
        uint32_t l3_len = dp_packet_size(p) - flow->hdrs.l3_ofs;

        if (flow->hdrs.ip_version == 4) {
            struct ip_header *ip = gro_ip(p, &flow->hdrs);

            ip->ip_tot_len = htons(l3_len <= UINT16_MAX ? l3_len : 0);
            ip->ip_csum = 0;
            ip->ip_csum = csum(ip, IP_HEADER_LEN);
            dp_packet_ip_checksum_set_good(p);
        } else {
            uint32_t plen = l3_len - IPV6_HEADER_LEN;

            gro_ip6(p, &flow->hdrs)->ip6_plen
                = htons(plen <= UINT16_MAX ? plen : 0);
        }
        dp_packet_l4_proto_set_tcp(p);
        dp_packet_l4_checksum_set_partial(p);
        dp_packet_set_tso_segsz(p, flow->mss);

        COVERAGE_INC(netdev_gro_coalesced);
        gro->n_packets++;
        gro->n_segments += flow->n_segs;
    }
    gro->flows[idx] = gro->flows[--gro->n_flows];
}

/* Closes every open flow.  Their packets stay queued, in order. */
void
netdev_gro_flush(struct netdev_gro *gro)
{
    while (gro->n_flows) {
        gro_close(gro, gro->n_flows - 1);
    }
}

/* Takes in received packet 'p': merges it into the packet of its flow,
 * opens a flow with it, or queues it as it is.  'max_size' is the largest
 * coalesced frame (gro-max-size), from the Ethernet header on;
 * 'keep_segs' whether coalesced packets keep their segments
 * (gro-keep-segments).  The queue must have room for 'p' (see
 * netdev_gro_n_pending()). */
void
netdev_gro_receive(struct netdev_gro *gro, struct dp_packet *p,
                   uint32_t max_size, bool keep_segs)
{
    enum gro_reason reason;
    const struct tcp_header *tcp;
    struct gro_hdrs h;
    uint16_t flags;
    bool is_tcp;
    size_t i;

    ovs_assert(gro->n_queue < GRO_MAX_QUEUE);
    gro->keep_segs = keep_segs;

    reason = netdev_gro_parse(p, &h, &is_tcp);
    if (!is_tcp) {
        goto queue;
    } else if (reason) {
        /* Its flow cannot be told without the headers that GRO does not
         * parse: close them all, so that no packet overtakes it. */
        gro_refuse(reason);
        netdev_gro_flush(gro);
        goto queue;
    }

    for (i = 0; i < gro->n_flows; i++) {
        const struct gro_flow *f = &gro->flows[i];

        if (gro_same_flow(gro->queue[f->slot], &f->hdrs, p, &h)) {
            break;
        }
    }

    tcp = gro_tcp(p, &h);
    flags = TCP_FLAGS(tcp->tcp_ctl);
    if (!gro_tcp_csum_ok(p, &h)) {
        reason = GRO_TCP_CSUM;
    } else if (flags & (TCP_SYN | TCP_RST | TCP_URG)) {
        reason = GRO_FLAGS;
    } else if (!h.payload_len) {
        reason = GRO_NO_PAYLOAD;
    } else if (i < gro->n_flows) {
        struct gro_flow *flow = &gro->flows[i];
        bool fixed_id;

        reason = gro_mismatch(flow, gro->queue[flow->slot], p, &h, max_size,
                              &fixed_id);
        if (!reason) {
            flow->fixed_id = fixed_id;
            gro_merge(gro, flow, p, &h);
            if (flags & (TCP_FIN | TCP_PSH) || h.payload_len < flow->mss) {
                gro_close(gro, i);
            }
            return;
        }
        /* The flow's packet is complete, and 'p' may start the next. */
        gro_refuse(reason);
        reason = GRO_OK;
        gro_close(gro, i);
        i = gro->n_flows;
    }

    if (reason) {
        /* 'p' goes on as it is, after its flow's packet. */
        gro_refuse(reason);
        if (i < gro->n_flows) {
            gro_close(gro, i);
        }
    } else if (!(flags & (TCP_FIN | TCP_PSH))
               && h.hdr_len + 2 * h.payload_len <= max_size) {
        struct gro_flow *flow;

        if (gro->n_flows >= GRO_MAX_FLOWS) {
            gro_refuse(GRO_FLOWS);
            gro_close(gro, 0);
        }
        flow = &gro->flows[gro->n_flows++];
        flow->slot = gro->n_queue;
        flow->hdrs = h;
        flow->next_seq = (ntohl(get_16aligned_be32(&tcp->tcp_seq))
                          + h.payload_len);
        flow->n_segs = 1;
        flow->mss = h.payload_len;
        flow->fixed_id = false;
        flow->own_buffer = false;
    }

queue:
    gro->queue[gro->n_queue++] = p;
}

/* Returns the number of packets that 'gro' holds for netdev_gro_pop(). */
size_t
netdev_gro_n_pending(const struct netdev_gro *gro)
{
    return gro->n_queue;
}

/* Moves the first queued packets of 'gro', after netdev_gro_flush(), to
 * 'batch' (which must be empty), as many as it takes.  Returns how many. */
size_t
netdev_gro_pop(struct netdev_gro *gro, struct dp_packet_batch *batch)
{
    size_t n = MIN(gro->n_queue, dp_packet_batch_capacity(batch));

    ovs_assert(!gro->n_flows);
    for (size_t i = 0; i < n; i++) {
        dp_packet_batch_add(batch, gro->queue[i]);
    }
    gro->n_queue -= n;
    memmove(gro->queue, gro->queue + n, gro->n_queue * sizeof *gro->queue);
    return n;
}

/* Stores in '*packets' and '*segments' the coalesced packets that 'gro'
 * made, and the segments in them, since the last call. */
void
netdev_gro_take_counts(struct netdev_gro *gro, uint64_t *packets,
                       uint64_t *segments)
{
    *packets = gro->n_packets;
    *segments = gro->n_segments;
    gro->n_packets = gro->n_segments = 0;
}
