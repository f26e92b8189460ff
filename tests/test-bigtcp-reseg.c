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

/* Differential property test of bounded resegmentation (dp-packet-reseg.c).
 *
 * "ovstest test-bigtcp-reseg [N [SEED]]" builds N random TSO packets (IPv4
 * with or without options, IPv6, zero to two VLAN tags, TCP options of 0 to
 * 40 bytes, random payload, MSS, IP ID, sequence number and flags) and a
 * random bound for each, and checks:
 *
 *   - dp_packet_reseg_possible() says yes exactly when the bound leaves
 *     room for two segments per output.
 *
 *   - Every output of dp_packet_reseg() fits the bound, carries the
 *     expected number of segments, lengths, IP ID, sequence number and
 *     flags, and parses as a valid packet (BIG TCP framing over 64 KiB).
 *
 *   - Segmenting every output fully gives exactly the bytes, checksums
 *     included, that segmenting the input fully gives.
 *
 * Full segmentation is dp_packet_gso_batch() followed by the two header
 * rules it does not apply, which TCP segmentation (Linux's
 * tcp_gso_segment() and TSO devices) does: CWR stays only on the first
 * segment, and URG and the urgent pointer are made relative to each
 * segment (see gso_fix_segments()).  Both sides get the same treatment, so
 * a wrong flag on an output shows up as a mismatch.
 *
 * It prints "N cases passed", then how many cases of each kind ran, and
 * exits with status 1 on the first failure, after describing it. */

#include <config.h>
#undef NDEBUG
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigtcp-framing.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dp-packet-reseg.h"
#include "flow.h"
#include "ovstest.h"
#include "packets.h"
#include "random.h"
#include "util.h"

/* One random test case. */
struct reseg_case {
    uint32_t no;                /* Case number, from 0. */
    bool ipv6;                  /* IPv6 (true) or IPv4 (false). */
    int n_vlans;                /* Number of VLAN tags, 0 to 2. */
    size_t ip_opt_len;          /* IPv4 options length, multiple of 4. */
    size_t tcp_opt_len;         /* TCP options length, multiple of 4. */
    uint16_t mss;               /* Segment size (tso_segsz). */
    uint32_t payload_len;       /* TCP payload length. */
    uint16_t tcp_flags;         /* TCP flags of the input. */
    uint16_t urg;               /* Urgent pointer of the input. */
    uint32_t seq;               /* Sequence number of the input. */
    uint16_t ip_id;             /* IPv4 ID of the input. */
    bool df;                    /* IPv4 DF bit of the input. */
    uint32_t max_size;          /* Bound: frame size. */
    uint32_t max_segs;          /* Bound: segments. */
};

/* Counts of the kinds of cases that ran, to show that each kind did. */
struct reseg_stats {
    uint32_t not_possible;      /* The bound leaves no room for 2 MSS. */
    uint32_t fits;              /* Possible, and the input already fits. */
    uint32_t cut;               /* Cut into two outputs or more. */
    uint32_t outputs;           /* Outputs of the cut cases. */
    uint32_t big_outputs;       /* Outputs with an IP length over 65535. */
    uint32_t limit_outputs;     /* Outputs with an IP length of 65535 or
                                 * 65536. */
    uint32_t single_last;       /* Last outputs of a single segment. */
    uint32_t urg_cut;           /* Outputs that lost URG. */
    uint32_t urg_moved;         /* Outputs with a moved urgent pointer. */
};

static void OVS_PRINTF_FORMAT(2, 3) OVS_NO_RETURN
fail(const struct reseg_case *c, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "case %"PRIu32": %s, %d VLAN tags, IP options %"PRIuSIZE
            ", TCP options %"PRIuSIZE", mss %"PRIu16", payload %"PRIu32
            ", flags %#"PRIx16", urg %"PRIu16", seq %"PRIu32", id %"PRIu16
            ", df %d, max_size %"PRIu32", max_segs %"PRIu32": ",
            c->no, c->ipv6 ? "IPv6" : "IPv4", c->n_vlans, c->ip_opt_len,
            c->tcp_opt_len, c->mss, c->payload_len, c->tcp_flags, c->urg,
            c->seq, c->ip_id, c->df, c->max_size, c->max_segs);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    exit(1);
}

/* Returns the length of the headers of the packets of 'c', from the
 * Ethernet header to the end of the TCP options. */
static size_t
case_hdr_len(const struct reseg_case *c)
{
    return (ETH_HEADER_LEN + c->n_vlans * VLAN_HEADER_LEN
            + (c->ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN + c->ip_opt_len)
            + TCP_HEADER_LEN + c->tcp_opt_len);
}

/* Writes 'value' at 'p' in network byte order. */
static void
put_be16(uint8_t *p, uint16_t value)
{
    p[0] = value >> 8;
    p[1] = value;
}

/* Fills 'len' bytes (a multiple of 4) at 'p' with valid TCP options. */
static void
put_tcp_options(uint8_t *p, size_t len)
{
    while (len) {
        switch (random_range(7)) {
        case 0:                 /* MSS. */
            if (len >= 4) {
                p[0] = 2;
                p[1] = 4;
                put_be16(&p[2], 1460);
                p += 4;
                len -= 4;
                continue;
            }
            break;
        case 1:                 /* Window scale. */
            if (len >= 3) {
                p[0] = 3;
                p[1] = 3;
                p[2] = random_range(15);
                p += 3;
                len -= 3;
                continue;
            }
            break;
        case 2:                 /* SACK permitted. */
            if (len >= 2) {
                p[0] = 4;
                p[1] = 2;
                p += 2;
                len -= 2;
                continue;
            }
            break;
        case 3:                 /* Timestamps. */
            if (len >= 10) {
                p[0] = 8;
                p[1] = 10;
                random_bytes(&p[2], 8);
                p += 10;
                len -= 10;
                continue;
            }
            break;
        case 4: {               /* SACK, one to four blocks. */
            size_t n = 1 + random_range(4);

            if (len >= 2 + 8 * n) {
                p[0] = 5;
                p[1] = 2 + 8 * n;
                random_bytes(&p[2], 8 * n);
                p += 2 + 8 * n;
                len -= 2 + 8 * n;
                continue;
            }
            break;
        }
        case 5:                 /* End of options list, then padding. */
            memset(p, 0, len);
            return;
        default:
            break;
        }
        *p++ = 1;               /* NOP. */
        len--;
    }
}

/* Builds the input packet of 'c', as netdev-linux receives a TSO packet:
 * parsed, with its segment size and a partial L4 checksum. */
static struct dp_packet *
build_packet(const struct reseg_case *c)
{
    size_t hdr_len = case_hdr_len(c);
    size_t l3_ofs = ETH_HEADER_LEN + c->n_vlans * VLAN_HEADER_LEN;
    size_t l4_ofs = hdr_len - TCP_HEADER_LEN - c->tcp_opt_len;
    uint32_t l3_len = hdr_len + c->payload_len - l3_ofs;
    struct tcp_header *tcp;
    struct dp_packet *p;
    uint8_t *data;

    p = dp_packet_new_with_headroom(hdr_len + c->payload_len, 64);
    data = dp_packet_put_uninit(p, hdr_len + c->payload_len);

    /* Ethernet and VLAN tags. */
    random_bytes(data, 2 * ETH_ADDR_LEN);
    data[0] &= ~1;              /* Unicast. */
    for (int i = 0; i < c->n_vlans; i++) {
        uint8_t *tag = data + 2 * ETH_ADDR_LEN + i * VLAN_HEADER_LEN;

        put_be16(tag, (i + 1 < c->n_vlans ? ETH_TYPE_VLAN_8021AD
                       : ETH_TYPE_VLAN_8021Q));
        put_be16(tag + 2, random_uint16() & 0xefff);
    }
    put_be16(data + l3_ofs - 2, c->ipv6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);

    /* IP. */
    if (c->ipv6) {
        struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_at_assert(p, l3_ofs,
                                                                0);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;

        random_bytes(ip6, IPV6_HEADER_LEN);
        put_16aligned_be32(&ip6->ip6_flow,
                           htonl((6u << 28) | (random_uint32() & 0x0fffffff)));
        ip6->ip6_plen = htons(plen <= UINT16_MAX ? plen : 0);
        ip6->ip6_nxt = IPPROTO_TCP;
        ip6->ip6_hlim = 64;
    } else {
        struct ip_header *ip = dp_packet_at_assert(p, l3_ofs, 0);

        random_bytes(ip, IP_HEADER_LEN);
        ip->ip_ihl_ver = IP_IHL_VER((IP_HEADER_LEN + c->ip_opt_len) / 4, 4);
        ip->ip_tot_len = htons(l3_len <= UINT16_MAX ? l3_len : 0);
        ip->ip_id = htons(c->ip_id);
        ip->ip_frag_off = htons(c->df ? IP_DONT_FRAGMENT : 0);
        ip->ip_ttl = 64;
        ip->ip_proto = IPPROTO_TCP;
        /* Options: NOPs, with a Router Alert sometimes. */
        memset(ip + 1, 1, c->ip_opt_len);
        if (c->ip_opt_len && random_range(2)) {
            uint8_t *ra = (uint8_t *) (ip + 1);

            ra[0] = 148;
            ra[1] = 4;
            ra[2] = ra[3] = 0;
        }
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, IP_HEADER_LEN + c->ip_opt_len);
    }

    /* TCP. */
    tcp = dp_packet_at_assert(p, l4_ofs, 0);
    random_bytes(tcp, TCP_HEADER_LEN);
    put_16aligned_be32(&tcp->tcp_seq, htonl(c->seq));
    tcp->tcp_ctl = TCP_CTL(c->tcp_flags,
                           (TCP_HEADER_LEN + c->tcp_opt_len) / 4);
    tcp->tcp_urg = htons(c->urg);
    put_tcp_options((uint8_t *) (tcp + 1), c->tcp_opt_len);

    /* Payload. */
    random_bytes(data + hdr_len, c->payload_len);

    dp_packet_set_tso_segsz(p, c->mss);
    if (parse_tcp_flags(p, NULL, NULL, NULL) != c->tcp_flags
        || p->l3_ofs != l3_ofs || p->l4_ofs != l4_ofs
        || !dp_packet_l4_proto_tcp(p)
        || dp_packet_get_tcp_payload_length(p) != c->payload_len) {
        fail(c, "the input does not parse as expected");
    }

    /* Received with a partial checksum most of the time, or with a
     * checksum already checked. */
    if (random_range(4)) {
        dp_packet_l4_checksum_set_partial(p);
    } else {
        dp_packet_l4_checksum_set_good(p);
    }
    pkt_metadata_init(&p->md, u32_to_odp(c->no + 1));
    dp_packet_set_rss_hash(p, c->seq ^ c->no);
    return p;
}

/* Draws a random case number 'no'. */
static void
random_case(struct reseg_case *c, uint32_t no)
{
    static const uint16_t flag_choices[] = {
        TCP_FIN, TCP_PSH, TCP_URG, TCP_ECE, TCP_CWR,
    };
    uint32_t max_payload;
    uint32_t n_segs;
    size_t hdr_len;

    memset(c, 0, sizeof *c);
    c->no = no;
    c->ipv6 = random_range(2);
    c->n_vlans = random_range(4) < 2 ? 0 : random_range(2) + 1;
    c->ip_opt_len = c->ipv6 || random_range(4) ? 0 : 4 * random_range(11);
    c->tcp_opt_len = 4 * random_range(11);
    hdr_len = case_hdr_len(c);

    /* MSS: small ones often, to get many segments. */
    c->mss = (random_range(2) ? 88 + random_range(1500 - 88 + 1)
              : 88 + random_range(9000 - 88 + 1));

    /* Payload: at least two segments, within 64 KiB of frame half of the
     * time, up to the BIG TCP maximum the other half. */
    max_payload = (random_range(2) ? UINT16_MAX : BIGTCP_GSO_MAX_SIZE)
                  - hdr_len;
    c->payload_len = c->mss + 1 + random_range(max_payload - c->mss);
    n_segs = DIV_ROUND_UP(c->payload_len, c->mss);

    c->tcp_flags = TCP_ACK;
    for (size_t i = 0; i < ARRAY_SIZE(flag_choices); i++) {
        if (!random_range(3)) {
            c->tcp_flags |= flag_choices[i];
        }
    }
    if (c->tcp_flags & TCP_URG) {
        /* Within the payload most of the time. */
        c->urg = (random_range(4)
                  ? random_range(MIN(c->payload_len, UINT16_MAX) + 1)
                  : random_uint16());
    } else {
        c->urg = random_range(2) ? random_uint16() : 0;
    }
    c->seq = random_uint32();
    c->ip_id = random_uint16();
    c->df = random_range(2);

    switch (random_range(5)) {
    case 0:
        /* A size bound only, around the packet's size. */
        c->max_segs = 65535;
        c->max_size = hdr_len + random_range(c->payload_len + 2 * c->mss);
        break;
    case 1:
        /* A segment bound only. */
        c->max_size = random_range(2) ? 65536 : BIGTCP_GSO_MAX_SIZE;
        c->max_segs = 1 + random_range(n_segs + 1);
        break;
    case 2:
        /* A size bound on or next to a segment boundary, and maybe a
         * segment bound. */
        c->max_size = (hdr_len + random_range(n_segs + 2) * c->mss
                       + (random_range(2) ? 0 : random_range(c->mss)));
        c->max_segs = random_range(2) ? 65535 : 1 + random_range(n_segs + 1);
        break;
    case 4:
        /* The last output's IP length right on the 16-bit limit of the
         * length fields (65535, or 65536, which needs BIG TCP framing),
         * after one or more outputs of 'm' segments. */
        if (c->mss < 1500) {
            size_t ip_hdr_len = hdr_len - ETH_HEADER_LEN
                                - c->n_vlans * VLAN_HEADER_LEN;
            uint32_t rest = UINT16_MAX + random_range(2) - ip_hdr_len;
            uint32_t m = DIV_ROUND_UP(rest, c->mss) + random_range(4);
            uint32_t n_full = (BIGTCP_GSO_MAX_SIZE - hdr_len - rest)
                              / (m * c->mss);

            if (n_full) {
                c->max_size = hdr_len + m * c->mss;
                c->max_segs = 65535;
                c->payload_len = (1 + random_range(n_full)) * m * c->mss
                                 + rest;
                break;
            }
        }
        /* Fall through. */
    default:
        /* Anything. */
        c->max_size = random_range(600000);
        c->max_segs = random_range(2) ? random_range(100)
                                      : random_range(70000);
        break;
    }
}

/* Applies to 'segs', the full segmentation by dp_packet_gso_batch() of a
 * packet with TCP flags 'flags' and urgent pointer 'urg', the segmentation
 * rules that dp_packet_gso() does not apply: CWR only on the first segment,
 * and URG on a later segment only if it starts before the urgent point,
 * with the pointer relative to the segment (as dp-packet-reseg.c
 * documents).  Then completes all checksums in software. */
static void
gso_fix_segments(struct dp_packet_batch *segs, uint16_t flags, uint16_t urg,
                 uint16_t mss)
{
    struct dp_packet *seg;

    DP_PACKET_BATCH_FOR_EACH (i, seg, segs) {
        struct tcp_header *tcp = dp_packet_l4(seg);
        uint16_t seg_flags = TCP_FLAGS(tcp->tcp_ctl);
        uint32_t ofs = i * mss;

        if (i > 0) {
            seg_flags &= ~TCP_CWR;
            if (flags & TCP_URG) {
                if (ofs < urg) {
                    tcp->tcp_urg = htons(urg - ofs);
                } else {
                    seg_flags &= ~TCP_URG;
                    tcp->tcp_urg = htons(0);
                }
            }
        }
        tcp->tcp_ctl = TCP_CTL(seg_flags, TCP_OFFSET(tcp->tcp_ctl));
        dp_packet_ol_send_prepare(seg, 0);
    }
}

/* Segments 'p' fully (see gso_fix_segments()) and appends the segments to
 * 'out'.  Takes ownership of 'p'. */
static void
segment_fully(struct dp_packet *p, struct dp_packet_batch *out)
{
    struct tcp_header *tcp = dp_packet_l4(p);
    uint16_t flags = TCP_FLAGS(tcp->tcp_ctl);
    uint16_t urg = ntohs(tcp->tcp_urg);
    uint16_t mss = dp_packet_get_tso_segsz(p);
    struct dp_packet_batch segs;
    struct dp_packet *seg;

    dp_packet_batch_init_packet(&segs, p);
    if (mss) {
        dp_packet_gso_batch(&segs);
    }
    gso_fix_segments(&segs, flags, urg, mss);
    DP_PACKET_BATCH_FOR_EACH (i, seg, &segs) {
        dp_packet_batch_add(out, seg);
    }
    dp_packet_batch_destroy(&segs);
}

/* Checks output number 'k' of 'n_out', 'out', of case 'c', whose input
 * 'in' has 'n' segments per output. */
static void
check_output(const struct reseg_case *c, const struct dp_packet *in,
             const struct dp_packet *out, uint32_t k, uint32_t n_out,
             uint32_t n, struct reseg_stats *stats)
{
    size_t hdr_len = case_hdr_len(c);
    uint32_t first_seg = k * n;
    uint32_t ofs = first_seg * c->mss;
    uint32_t len = MIN(n * c->mss, c->payload_len - ofs);
    uint32_t segs = DIV_ROUND_UP(len, c->mss);
    uint32_t l3_len = hdr_len + len - in->l3_ofs;
    const struct tcp_header *tcp = dp_packet_l4(out);
    bool last = k == n_out - 1;
    uint16_t exp_flags, exp_urg;
    struct dp_packet *copy;

    if (dp_packet_size(out) != hdr_len + len) {
        fail(c, "output %"PRIu32" has %"PRIu32" bytes, expected %"PRIuSIZE,
             k, dp_packet_size(out), hdr_len + len);
    }
    if (dp_packet_size(out) > c->max_size || segs > c->max_segs
        || (segs < 2 && !last)) {
        fail(c, "output %"PRIu32" (%"PRIu32" bytes, %"PRIu32" segments) "
             "does not fit the bound", k, dp_packet_size(out), segs);
    }
    if (dp_packet_get_tso_segsz(out) != (segs > 1 ? c->mss : 0)) {
        fail(c, "output %"PRIu32" has segment size %"PRIu16, k,
             dp_packet_get_tso_segsz(out));
    }
    if (out->l3_ofs != in->l3_ofs || out->l4_ofs != in->l4_ofs
        || (n_out > 1 && !dp_packet_l4_checksum_partial(out))
        || !dp_packet_l4_proto_tcp(out)) {
        fail(c, "output %"PRIu32" has wrong offsets or offload flags", k);
    }
    if (out->md.in_port.odp_port != in->md.in_port.odp_port
        || !dp_packet_rss_valid(out)
        || dp_packet_get_rss_hash(out) != dp_packet_get_rss_hash(in)) {
        fail(c, "output %"PRIu32" lost the input's metadata or hash", k);
    }

    /* IP. */
    if (c->ipv6) {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(out);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;

        if (ntohs(ip6->ip6_plen) != (plen <= UINT16_MAX ? plen : 0)) {
            fail(c, "output %"PRIu32" has payload length %"PRIu16, k,
                 ntohs(ip6->ip6_plen));
        }
    } else {
        const struct ip_header *ip = dp_packet_l3(out);

        if (ntohs(ip->ip_tot_len) != (l3_len <= UINT16_MAX ? l3_len : 0)) {
            fail(c, "output %"PRIu32" has total length %"PRIu16, k,
                 ntohs(ip->ip_tot_len));
        }
        if (ntohs(ip->ip_id) != (uint16_t) (c->ip_id + first_seg)) {
            fail(c, "output %"PRIu32" has IP ID %"PRIu16, k,
                 ntohs(ip->ip_id));
        }
        if (ip->ip_frag_off != htons(c->df ? IP_DONT_FRAGMENT : 0)) {
            fail(c, "output %"PRIu32" has fragment field %#"PRIx16, k,
                 ntohs(ip->ip_frag_off));
        }
        if (n_out > 1 && !dp_packet_ip_checksum_partial(out)) {
            fail(c, "output %"PRIu32" IP checksum not partial", k);
        }
    }
    if (l3_len > UINT16_MAX) {
        stats->big_outputs++;
    }
    if (l3_len == UINT16_MAX || l3_len == UINT16_MAX + 1) {
        stats->limit_outputs++;
    }

    /* TCP. */
    if (ntohl(get_16aligned_be32(&tcp->tcp_seq)) != c->seq + ofs) {
        fail(c, "output %"PRIu32" has sequence number %"PRIu32, k,
             ntohl(get_16aligned_be32(&tcp->tcp_seq)));
    }
    exp_flags = c->tcp_flags;
    exp_urg = c->urg;
    if (k > 0) {
        exp_flags &= ~TCP_CWR;
        if (c->tcp_flags & TCP_URG) {
            if (ofs < c->urg) {
                exp_urg = c->urg - ofs;
                stats->urg_moved++;
            } else {
                exp_flags &= ~TCP_URG;
                exp_urg = 0;
                stats->urg_cut++;
            }
        }
    }
    if (!last) {
        exp_flags &= ~(TCP_PSH | TCP_FIN);
    }
    if (TCP_FLAGS(tcp->tcp_ctl) != exp_flags
        || ntohs(tcp->tcp_urg) != exp_urg) {
        fail(c, "output %"PRIu32" has flags %#"PRIx16" and urgent pointer "
             "%"PRIu16", expected %#"PRIx16" and %"PRIu16, k,
             TCP_FLAGS(tcp->tcp_ctl), ntohs(tcp->tcp_urg), exp_flags,
             exp_urg);
    }

    /* The output, received as it is, parses to the same headers. */
    copy = dp_packet_clone_data(dp_packet_data(out), dp_packet_size(out));
    dp_packet_set_tso_segsz(copy, dp_packet_get_tso_segsz(out));
    if (parse_tcp_flags(copy, NULL, NULL, NULL) != exp_flags
        || copy->l3_ofs != in->l3_ofs || copy->l4_ofs != in->l4_ofs
        || dp_packet_get_tcp_payload_length(copy) != len) {
        fail(c, "output %"PRIu32" does not parse as a valid packet", k);
    }
    dp_packet_delete(copy);

    if (last && segs == 1) {
        stats->single_last++;
    }
}

/* Runs case 'c'. */
static void
run_case(const struct reseg_case *c, struct reseg_stats *stats)
{
    size_t hdr_len = case_hdr_len(c);
    uint32_t n_segs = DIV_ROUND_UP(c->payload_len, c->mss);
    struct dp_packet_batch outs, ref_segs, out_segs;
    struct dp_packet *in, *orig, *tunnel, *out;
    uint32_t n, n_out;
    bool possible;

    in = build_packet(c);

    /* Tunnel packets are never resegmented. */
    tunnel = dp_packet_clone(in);
    tunnel->offloads |= DP_PACKET_OL_TUNNEL_VXLAN;
    if (dp_packet_reseg_possible(tunnel, BIGTCP_GSO_MAX_SIZE, 65535)) {
        fail(c, "resegmentation of a tunnel packet is possible");
    }
    dp_packet_delete(tunnel);

    n = (c->max_size > hdr_len
         ? MIN(c->max_segs, (c->max_size - hdr_len) / c->mss) : 0);
    possible = dp_packet_reseg_possible(in, c->max_size, c->max_segs);
    if (possible != (n >= 2)) {
        fail(c, "dp_packet_reseg_possible() returned %s",
             possible ? "true" : "false");
    }
    if (!possible) {
        stats->not_possible++;
        dp_packet_delete(in);
        return;
    }

    /* Resegment a copy, and keep the input for the reference. */
    orig = dp_packet_clone(in);
    dp_packet_batch_init(&outs);
    n_out = dp_packet_reseg(in, c->max_size, c->max_segs, &outs);
    if (n_out != dp_packet_batch_size(&outs)
        || n_out != DIV_ROUND_UP(n_segs, n)
        || outs.packets[0] != in) {
        fail(c, "dp_packet_reseg() returned %"PRIuSIZE" outputs in a batch "
             "of %"PRIuSIZE", expected %"PRIu32" and the input first",
             (size_t) n_out, dp_packet_batch_size(&outs),
             DIV_ROUND_UP(n_segs, n));
    }
    if (n_out == 1) {
        stats->fits++;
        if (dp_packet_size(in) != dp_packet_size(orig)
            || memcmp(dp_packet_data(in), dp_packet_data(orig),
                      dp_packet_size(in))
            || dp_packet_get_tso_segsz(in) != c->mss) {
            fail(c, "a packet that fits was changed");
        }
    } else {
        stats->cut++;
        stats->outputs += n_out;
    }
    DP_PACKET_BATCH_FOR_EACH (k, out, &outs) {
        check_output(c, orig, out, k, n_out, n, stats);
    }

    /* The differential property. */
    dp_packet_batch_init(&ref_segs);
    segment_fully(orig, &ref_segs);
    dp_packet_batch_init(&out_segs);
    DP_PACKET_BATCH_FOR_EACH (k, out, &outs) {
        segment_fully(out, &out_segs);
    }
    if (dp_packet_batch_size(&ref_segs) != n_segs
        || dp_packet_batch_size(&out_segs) != n_segs) {
        fail(c, "%"PRIuSIZE" segments from the input, %"PRIuSIZE" from the "
             "outputs, expected %"PRIu32, dp_packet_batch_size(&ref_segs),
             dp_packet_batch_size(&out_segs), n_segs);
    }
    for (size_t i = 0; i < n_segs; i++) {
        const struct dp_packet *a = ref_segs.packets[i];
        const struct dp_packet *b = out_segs.packets[i];

        if (dp_packet_size(a) != dp_packet_size(b)
            || memcmp(dp_packet_data(a), dp_packet_data(b),
                      dp_packet_size(a))) {
            size_t ofs = 0;

            while (ofs < MIN(dp_packet_size(a), dp_packet_size(b))
                   && ((const uint8_t *) dp_packet_data(a))[ofs]
                      == ((const uint8_t *) dp_packet_data(b))[ofs]) {
                ofs++;
            }
            fail(c, "segment %"PRIuSIZE" differs: %"PRIu32" bytes from the "
                 "input, %"PRIu32" from the outputs, first difference at "
                 "byte %"PRIuSIZE, i, dp_packet_size(a), dp_packet_size(b),
                 ofs);
        }
    }
    dp_packet_delete_batch(&ref_segs, true);
    dp_packet_delete_batch(&out_segs, true);
    dp_packet_batch_destroy(&ref_segs);
    dp_packet_batch_destroy(&out_segs);
    dp_packet_batch_destroy(&outs);
}

static void
test_bigtcp_reseg_main(int argc, char *argv[])
{
    struct reseg_stats stats;
    uint32_t n_cases = 10000;
    uint32_t seed = 1;

    if (argc > 1) {
        n_cases = strtoul(argv[1], NULL, 10);
    }
    if (argc > 2) {
        seed = strtoul(argv[2], NULL, 10);
    }
    random_set_seed(seed);

    memset(&stats, 0, sizeof stats);
    for (uint32_t i = 0; i < n_cases; i++) {
        struct reseg_case c;

        random_case(&c, i);
        run_case(&c, &stats);
    }

    printf("%"PRIu32" cases passed\n", n_cases);
    printf("not possible %"PRIu32", fits %"PRIu32", cut %"PRIu32
           " into %"PRIu32" outputs (%"PRIu32" over 64 KiB, %"PRIu32
           " on the limit, %"PRIu32" single-segment last), URG moved %"PRIu32
           ", URG cleared %"PRIu32"\n", stats.not_possible, stats.fits,
           stats.cut, stats.outputs, stats.big_outputs, stats.limit_outputs,
           stats.single_last, stats.urg_moved, stats.urg_cut);
}

OVSTEST_REGISTER("test-bigtcp-reseg", test_bigtcp_reseg_main);

/* "test-bigtcp-reseg-bench MODE FRAME-SIZE N": the engine micro-benchmark
 * behind "ovs-bigtcp-bench --engine".  N times, clones one IPv4 TSO packet
 * of FRAME-SIZE bytes (MSS 1448, no options) and, with MODE "reseg", cuts
 * it for a 64 KiB port with dp_packet_reseg(); with "gso", segments it
 * fully with dp_packet_gso(); with "clone", does nothing more (the cost of
 * the clone, to subtract).  Frees everything.  Run under callgrind, the
 * instruction counts are repeatable. */
static void
test_bigtcp_reseg_bench_main(int argc, char *argv[])
{
    struct reseg_case c;
    struct dp_packet *in;
    size_t n_out = 0;
    uint32_t n;

    if (argc != 4) {
        ovs_fatal(0, "usage: %s reseg|gso|clone FRAME-SIZE N", argv[0]);
    }
    random_set_seed(1);
    memset(&c, 0, sizeof c);
    c.mss = 1448;
    c.tcp_flags = TCP_ACK;
    c.max_size = 65536;
    c.max_segs = 65535;
    c.payload_len = strtoul(argv[2], NULL, 10) - case_hdr_len(&c);
    n = strtoul(argv[3], NULL, 10);
    in = build_packet(&c);

    for (uint32_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_clone(in);
        struct dp_packet_batch out;

        dp_packet_set_tso_segsz(p, c.mss);
        dp_packet_batch_init(&out);
        if (!strcmp(argv[1], "reseg")) {
            dp_packet_reseg(p, c.max_size, c.max_segs, &out);
        } else if (!strcmp(argv[1], "gso")) {
            dp_packet_gso(p, &out);
        } else {
            dp_packet_batch_add(&out, p);
        }
        n_out = dp_packet_batch_size(&out);
        dp_packet_delete_batch(&out, true);
        dp_packet_batch_destroy(&out);
    }
    dp_packet_delete(in);
    printf("%s %s: %"PRIu32" packets, %"PRIuSIZE" outputs each\n",
           argv[1], argv[2], n, n_out);
}

OVSTEST_REGISTER("test-bigtcp-reseg-bench", test_bigtcp_reseg_bench_main);
