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

/* Bounded resegmentation: the generalisation of dp_packet_gso() (see
 * dp-packet-gso.c) from outputs of one MSS to outputs of 'n' MSS.
 *
 * A TSO packet with 'hdr_len' bytes of headers (Ethernet to TCP options)
 * and a payload of 'n_segs' segments of 'mss' bytes (the last one possibly
 * shorter) is cut into outputs of 'n' segments each, where
 *
 *     n = min(max_segs, (max_size - hdr_len) / mss),
 *
 * and the last output carries the rest.  The outputs are only made when
 * 'n' is at least 2: otherwise the caller should segment fully.  Every
 * output carries a copy of the input's headers, updated as segmentation
 * would update the headers of its first segment:
 *
 *   - IPv4 total length and IPv6 payload length from the output's size,
 *     or 0 when the length does not fit in 16 bits (BIG TCP framing, see
 *     bigtcp-framing.h).
 *
 *   - IPv4 ID: the input's ID plus the index of the output's first segment,
 *     so that segmenting the outputs gives the IDs that segmenting the
 *     input gives.  The DF bit and the rest of the fragment field are kept.
 *     The IPv4 header checksum is zeroed and marked partial, as
 *     dp_packet_gso() does: dp_packet_ol_send_prepare() or the device fills
 *     it in.
 *
 *   - TCP sequence number: the input's plus the offset of the output's
 *     payload.
 *
 *   - TCP flags: CWR only on the first output, PSH and FIN only on the
 *     last output, all other flags (ACK, ECE, SYN, RST, NS) on every
 *     output.  (Linux's TCP segmentation and TSO devices clear CWR after
 *     the first segment as well; dp_packet_gso() leaves it on every
 *     segment, and URG too.)
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
 *     dp_packet_ol_send_prepare() to complete, as dp_packet_gso() does.
 *
 *   - Segment size: the MSS on every output of two segments or more.  When
 *     the rest left for the last output is one segment (at most one MSS),
 *     that output is a plain packet: its segment size is 0, as for the
 *     segments of dp_packet_gso(), so that no device or kernel sees a GSO
 *     packet that is not bigger than its segment size.
 *
 * Tunnel packets are not resegmented: dp_packet_reseg_possible() returns
 * false for them and the caller keeps segmenting them fully, as before.
 * Their outer headers (UDP length, GRE checksum, outer IP length) would
 * need the updates of dp_packet_gso_update_segment() too; that is left for
 * when a tunnel path needs it. */

#include <config.h>
#include "dp-packet-reseg.h"

#include <netinet/in.h>
#include <netinet/ip6.h>
#include <string.h>

#include "coverage.h"
#include "dp-packet.h"
#include "packets.h"
#include "util.h"

COVERAGE_DEFINE(dp_packet_reseg);
COVERAGE_DEFINE(dp_packet_reseg_out);

/* Returns the number of segments of 'mss' bytes that each output of TSO
 * packet 'p' may carry within 'max_size' bytes of frame and 'max_segs'
 * segments, or 0 if 'p' cannot be resegmented: it is not a plain
 * (non-tunnel) TCP over IPv4 or IPv6 TSO packet, or the bound leaves room
 * for fewer than two segments per output.  Stores the length of the headers
 * of 'p', from the Ethernet header to the end of the TCP header, in
 * '*hdr_lenp' if it is not NULL. */
static uint32_t
dp_packet_reseg_segs__(const struct dp_packet *p, uint32_t max_size,
                       uint32_t max_segs, size_t *hdr_lenp)
{
    uint16_t mss = dp_packet_get_tso_segsz(p);
    const struct ip_header *ip;
    const char *payload;
    size_t hdr_len;
    uint32_t n;
    int ip_ver;

    if (!mss || dp_packet_tunnel(p) || !dp_packet_eth(p)
        || !dp_packet_l4_proto_tcp(p)) {
        return 0;
    }

    ip = dp_packet_l3(p);
    payload = dp_packet_get_tcp_payload(p);
    if (!ip || !dp_packet_l4(p) || !payload) {
        return 0;
    }
    ip_ver = IP_VER(ip->ip_ihl_ver);
    if (ip_ver != 4 && ip_ver != 6) {
        return 0;
    }

    hdr_len = payload - (const char *) dp_packet_data(p);
    if (max_size <= hdr_len) {
        return 0;
    }
    n = MIN(max_segs, (max_size - hdr_len) / mss);
    if (n < 2) {
        return 0;
    }

    if (hdr_lenp) {
        *hdr_lenp = hdr_len;
    }
    return n;
}

/* Returns true if TSO packet 'p' can be cut into TSO packets of at most
 * 'max_size' bytes of frame (from the Ethernet header on) and 'max_segs'
 * segments, with at least two segments of 'p''s segment size (the MSS) in
 * each, except possibly in the last.  Always false for tunnel packets and
 * for anything other than TCP over IPv4 or IPv6: the caller segments those
 * fully (dp_packet_gso()). */
bool
dp_packet_reseg_possible(const struct dp_packet *p, uint32_t max_size,
                         uint32_t max_segs)
{
    return dp_packet_reseg_segs__(p, max_size, max_segs, NULL) != 0;
}

/* Returns a new packet with the first 'hdr_len' bytes of 'p' (its headers)
 * followed by the 'len' bytes of 'p' at offset 'ofs' (a slice of its
 * payload), with the offsets, offload flags and metadata of 'p', as
 * dp_packet_clone() copies them.  The headers are not updated. */
static struct dp_packet *
dp_packet_reseg_new__(const struct dp_packet *p, size_t hdr_len, size_t ofs,
                      size_t len)
{
    struct dp_packet *out;
    uint32_t mark;

    out = dp_packet_new_with_headroom(hdr_len + len, dp_packet_headroom(p));
    dp_packet_put(out, dp_packet_data(p), hdr_len);
    /* A zero-copy implementation would attach the slice of the input's
     * buffer here instead of copying it, with a reference on the input's
     * buffer, as the DPDK mbuf chains of a future multi-segment dp_packet
     * could.  Only the headers need a private copy. */
    dp_packet_put(out, (const char *) dp_packet_data(p) + ofs, len);

    /* Offsets, cutlen, packet type, offload flags and metadata, as
     * dp_packet_clone_with_headroom() copies them. */
    memcpy(&out->l2_pad_size, &p->l2_pad_size,
           sizeof *out - offsetof(struct dp_packet, l2_pad_size));
    dp_packet_set_l2_pad_size(out, 0);

    if (dp_packet_rss_valid(p)) {
        dp_packet_set_rss_hash(out, dp_packet_get_rss_hash(p));
    }
    if (dp_packet_has_flow_mark(p, &mark)) {
        dp_packet_set_flow_mark(out, mark);
    }
    return out;
}

/* Updates the headers of 'out', a copy of the headers of TSO packet 'p'
 * followed by a part of its payload, for 'out' to be the output that starts
 * at segment 'first_seg' of 'p''s segments of 'mss' bytes.  'first' and
 * 'last' say whether 'out' is the first and the last output.  The header
 * fields of 'out' must still be those of 'p' when this is called. */
static void
dp_packet_reseg_update__(struct dp_packet *out, uint32_t first_seg,
                         uint16_t mss, bool first, bool last)
{
    uint32_t l3_size = dp_packet_l3_size(out);
    uint32_t payload_ofs = first_seg * mss;
    struct ip_header *ip = dp_packet_l3(out);
    struct tcp_header *tcp = dp_packet_l4(out);
    uint16_t flags;

    if (IP_VER(ip->ip_ihl_ver) == 4) {
        ip->ip_tot_len = htons(l3_size <= UINT16_MAX ? l3_size : 0);
        ip->ip_id = htons(ntohs(ip->ip_id) + (uint16_t) first_seg);
        ip->ip_csum = 0;
        dp_packet_ip_checksum_set_partial(out);
    } else {
        struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(out);
        uint32_t plen = l3_size - sizeof *ip6;

        ip6->ip6_plen = htons(plen <= UINT16_MAX ? plen : 0);
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

    dp_packet_l4_checksum_set_partial(out);
}

/* Cuts TSO packet 'p' into TSO packets of at most 'max_size' bytes of frame
 * and 'max_segs' segments each, and appends them to 'batch': 'p' itself,
 * trimmed to the first output, then the others, in order, like
 * dp_packet_gso().  Every output but the last carries the largest whole
 * number of segments that fits the bound; the last carries the rest (see
 * the top of this file for the header updates and for a last output of one
 * segment).  A packet that already fits is appended as it is.  Returns the
 * number of packets appended.
 *
 * 'p' must pass dp_packet_reseg_possible() with the same bound. */
size_t
dp_packet_reseg(struct dp_packet *p, uint32_t max_size, uint32_t max_segs,
                struct dp_packet_batch *batch)
{
    uint32_t payload_len, n_segs, n, n_out, out_len;
    uint16_t mss = dp_packet_get_tso_segsz(p);
    size_t hdr_len = 0;

    n = dp_packet_reseg_segs__(p, max_size, max_segs, &hdr_len);
    ovs_assert(n >= 2);

    dp_packet_batch_add(batch, p);

    payload_len = dp_packet_get_tcp_payload_length(p);
    n_segs = DIV_ROUND_UP(payload_len, mss);
    if (n_segs <= n) {
        return 1;
    }
    n_out = DIV_ROUND_UP(n_segs, n);
    out_len = n * mss;

    /* The other outputs first: they copy the headers of 'p' before the
     * update of 'p' below. */
    for (uint32_t k = 1; k < n_out; k++) {
        uint32_t ofs = k * out_len;
        uint32_t len = MIN(out_len, payload_len - ofs);
        bool last = k == n_out - 1;
        struct dp_packet *out;

        out = dp_packet_reseg_new__(p, hdr_len, hdr_len + ofs, len);
        dp_packet_set_tso_segsz(out, len > mss ? mss : 0);
        dp_packet_reseg_update__(out, k * n, mss, false, last);
        dp_packet_batch_add(batch, out);
    }

    /* Trim 'p' to the first output.  'p' keeps its segment size: it has 'n'
     * segments, at least two. */
    dp_packet_set_l2_pad_size(p, 0);
    dp_packet_set_size(p, hdr_len + out_len);
    dp_packet_reseg_update__(p, 0, mss, true, false);

    COVERAGE_INC(dp_packet_reseg);
    COVERAGE_ADD(dp_packet_reseg_out, n_out);
    return n_out;
}
