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
#include "dp-packet-segs.h"

#include <netinet/in.h>
#include <netinet/ip6.h>
#include <stddef.h>
#include <string.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dp-packet-reseg.h"
#include "packets.h"
#include "util.h"

COVERAGE_DEFINE(dp_packet_segs_sent);
COVERAGE_DEFINE(dp_packet_segs_stale);

/* Segments a packet keeps room for at first. */
#define SEGS_MIN_ALLOC 16

/* Adds 'seg', a TCP segment whose IP header is at 'l3_ofs', whose TCP
 * header is at 'l4_ofs' and whose TCP payload of 'payload_len' bytes ends
 * the packet, to the segments that packet 'p' keeps, after those it has.
 * 'p' takes 'seg' over. */
void
dp_packet_segs_keep(struct dp_packet *p, struct dp_packet *seg,
                    uint16_t l3_ofs, uint16_t l4_ofs, uint32_t payload_len)
{
    struct dp_packet_segs *segs = p->segs;

    if (!segs || segs->n == segs->allocated) {
        uint32_t n = segs ? 2 * segs->allocated : SEGS_MIN_ALLOC;

        segs = xrealloc(segs, sizeof *segs + n * sizeof segs->pkts[0]);
        if (!p->segs) {
            segs->n = 0;
            segs->payload_len = 0;
        }
        segs->allocated = n;
        p->segs = segs;
    }
    seg->l3_ofs = l3_ofs;
    seg->l4_ofs = l4_ofs;
    segs->pkts[segs->n++] = seg;
    segs->payload_len += payload_len;
}

/* Frees the segments that 'p' keeps, if any. */
void
dp_packet_segs_drop(struct dp_packet *p)
{
    struct dp_packet_segs *segs = p->segs;

    if (segs) {
        p->segs = NULL;
        for (uint32_t i = 0; i < segs->n; i++) {
            dp_packet_delete(segs->pkts[i]);
        }
        free(segs);
    }
}

/* Returns the length of the TCP header at 'tcp'. */
static size_t
tcp_hdr_len(const struct tcp_header *tcp)
{
    return TCP_OFFSET(tcp->tcp_ctl) * 4;
}

/* Returns true if the IP header of 'p' (of IP version 'version') and its
 * TCP header are of the kind GRO coalesces: IPv4 without options or IPv6
 * without extension headers, followed by TCP. */
static bool
plain_tcp(const struct dp_packet *p, int version)
{
    size_t l3_len = p->l4_ofs - p->l3_ofs;

    if (version == 4) {
        const struct ip_header *ip = dp_packet_l3(p);

        return (l3_len == IP_HEADER_LEN
                && IP_VER(ip->ip_ihl_ver) == 4
                && IP_IHL(ip->ip_ihl_ver) * 4 == IP_HEADER_LEN
                && ip->ip_proto == IPPROTO_TCP);
    } else {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(p);

        return (l3_len == IPV6_HEADER_LEN
                && ip6->ip6_nxt == IPPROTO_TCP);
    }
}

/* Returns the IP version of 'p', whose L3 header is at a known offset. */
static int
ip_version(const struct dp_packet *p)
{
    return IP_VER(((const struct ip_header *) dp_packet_l3(p))->ip_ihl_ver);
}

/* Returns true if the segments that 'p' keeps still make up its TCP
 * payload: 'p' is a plain (not tunneled) TSO packet of TCP over IPv4 or
 * IPv6 with the IP and TCP header lengths of its segments, and a TCP
 * payload as long as theirs.  Then stores in '*hdr_len' the length of its
 * headers, up to the end of the TCP header.  Segments that would need more
 * headroom than they have for 'p''s headers, in a buffer that cannot grow
 * (DPDK, AF_XDP), do not fit either. */
static bool
segs_fit(const struct dp_packet *p, size_t *hdr_len)
{
    const struct dp_packet_segs *segs = p->segs;
    const struct dp_packet *first = segs->pkts[0];
    size_t tcp_len = tcp_hdr_len(dp_packet_l4(first));
    int version = ip_version(first);

    if (dp_packet_tunnel(p) || p->l3_ofs == UINT16_MAX
        || p->l4_ofs == UINT16_MAX || p->l4_ofs < p->l3_ofs
        || dp_packet_size(p) < p->l4_ofs + TCP_HEADER_LEN
        || ip_version(p) != version || !plain_tcp(p, version)
        || tcp_hdr_len(dp_packet_l4(p)) != tcp_len) {
        return false;
    }
    *hdr_len = p->l4_ofs + tcp_len;
    if (dp_packet_size(p) < *hdr_len
        || dp_packet_size(p) - *hdr_len != segs->payload_len) {
        return false;
    }

    for (uint32_t i = 0; i < segs->n; i++) {
        const struct dp_packet *seg = segs->pkts[i];

        if (*hdr_len > seg->l4_ofs + tcp_len + dp_packet_headroom(seg)
            && seg->source != DPBUF_MALLOC && seg->source != DPBUF_POOL) {
            return false;
        }
    }
    return true;
}

/* Returns the one's complement sum of the TCP pseudo-header and the TCP
 * header of 'p', whose IP and TCP headers are at its L3 and L4 offsets,
 * without the TCP checksum field. */
static uint32_t
tcp_hdr_sum(const struct dp_packet *p, int version)
{
    const struct tcp_header *tcp = dp_packet_l4(p);
    uint32_t l4_len = dp_packet_size(p) - p->l4_ofs;
    uint32_t sum;

    sum = (version == 4
           ? packet_csum_pseudoheader_l4len(dp_packet_l3(p), l4_len)
           : packet_csum_pseudoheader6_l4len(dp_packet_l3(p), IPPROTO_TCP,
                                             l4_len));
    sum = csum_continue(sum, tcp, offsetof(struct tcp_header, tcp_csum));
    return csum_continue(sum, &tcp->tcp_urg,
                         tcp_hdr_len(tcp)
                         - offsetof(struct tcp_header, tcp_urg));
}

/* Makes kept segment 'seg' a segment of packet 'p' as it is now, whose
 * headers are its first 'hdr_len' bytes: 'p''s headers, with 'seg''s own IP
 * length, IPv4 ID and PSH, FIN and CWR, sequence number 'seq', and 'seg''s
 * TCP checksum adjusted for the header words that changed. */
static void
segs_rebuild(const struct dp_packet *p, size_t hdr_len,
             struct dp_packet *seg, uint32_t seq)
{
    const struct tcp_header *old_tcp = dp_packet_l4(seg);
    int version = ip_version(seg);
    size_t seg_hdr_len = seg->l4_ofs + tcp_hdr_len(old_tcp);
    uint16_t old_flags = TCP_FLAGS(old_tcp->tcp_ctl);
    bool partial = dp_packet_l4_checksum_partial(seg);
    ovs_be16 old_csum = old_tcp->tcp_csum;
    uint32_t old_sum = partial ? 0 : tcp_hdr_sum(seg, version);
    ovs_be16 old_id = (version == 4
                       ? ((const struct ip_header *) dp_packet_l3(seg))->ip_id
                       : 0);
    const struct tcp_header *p_tcp = dp_packet_l4(p);
    struct tcp_header *tcp;

    /* The headers of 'p' in place of its own. */
    if (hdr_len > seg_hdr_len) {
        dp_packet_push_uninit(seg, hdr_len - seg_hdr_len);
    } else {
        dp_packet_pull(seg, seg_hdr_len - hdr_len);
    }
    memcpy(dp_packet_data(seg), dp_packet_data(p), hdr_len);

    dp_packet_reseg_copy_metadata(seg, p);
    dp_packet_set_tso_segsz(seg, 0);

    if (version == 4) {
        struct ip_header *ip = dp_packet_l3(seg);

        ip->ip_tot_len = htons(dp_packet_size(seg) - seg->l3_ofs);
        ip->ip_id = old_id;
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, IP_HEADER_LEN);
        dp_packet_ip_checksum_set_good(seg);
    } else {
        struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(seg);

        ip6->ip6_plen = htons(dp_packet_size(seg) - seg->l3_ofs
                              - IPV6_HEADER_LEN);
    }

    tcp = dp_packet_l4(seg);
    put_16aligned_be32(&tcp->tcp_seq, htonl(seq));
    tcp->tcp_ctl = TCP_CTL((TCP_FLAGS(p_tcp->tcp_ctl)
                            & ~(TCP_PSH | TCP_FIN | TCP_CWR))
                           | (old_flags & (TCP_PSH | TCP_FIN | TCP_CWR)),
                           TCP_OFFSET(p_tcp->tcp_ctl));
    if (partial) {
        /* A local sender left it to be completed: so does 'seg'. */
        dp_packet_l4_checksum_set_partial(seg);
    } else {
        /* RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m'), with 'm' and 'm'' the
         * old and new pseudo-header and TCP header words. */
        uint32_t sum = ((OVS_FORCE uint16_t) ~old_csum
                        + (OVS_FORCE uint16_t) csum_finish(old_sum)
                        + (OVS_FORCE uint16_t)
                          ~csum_finish(tcp_hdr_sum(seg, version)));

        tcp->tcp_csum = csum_finish(sum);
        dp_packet_l4_checksum_set_good(seg);
    }
}

/* If TSO packet 'p' keeps its segments and they still make up its TCP
 * payload, appends them to 'batch' as segments of 'p' as it is now (see
 * dp-packet-segs.h), frees 'p' and returns true.  Otherwise frees the
 * segments that 'p' keeps, if any, and returns false: 'p' is then to be
 * segmented from its own bytes. */
bool
dp_packet_segs_send(struct dp_packet *p, struct dp_packet_batch *batch)
{
    struct dp_packet_segs *segs = p->segs;
    const struct tcp_header *tcp;
    size_t hdr_len;
    uint32_t seq;

    if (!segs) {
        return false;
    }
    if (!segs_fit(p, &hdr_len)) {
        COVERAGE_INC(dp_packet_segs_stale);
        dp_packet_segs_drop(p);
        return false;
    }

    tcp = dp_packet_l4(p);
    seq = ntohl(get_16aligned_be32(&tcp->tcp_seq));
    for (uint32_t i = 0; i < segs->n; i++) {
        struct dp_packet *seg = segs->pkts[i];
        uint32_t payload_len = (dp_packet_size(seg) - seg->l4_ofs
                                - tcp_hdr_len(dp_packet_l4(seg)));

        segs_rebuild(p, hdr_len, seg, seq);
        dp_packet_batch_add(batch, seg);
        seq += payload_len;
    }
    COVERAGE_INC(dp_packet_segs_sent);
    p->segs = NULL;
    free(segs);
    dp_packet_delete(p);
    return true;
}
