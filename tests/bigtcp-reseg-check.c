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

/* The differential property of bounded resegmentation, on one case: see
 * bigtcp-reseg-check.h. */

#include <config.h>
#undef NDEBUG
#include "bigtcp-reseg-check.h"

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
#include "packets.h"
#include "random.h"
#include "util.h"

/* The Geneve header without options. */
#define GENEVE_BASE_LEN 8

static void OVS_PRINTF_FORMAT(2, 3) OVS_NO_RETURN
fail(const struct bigtcp_reseg_case *c, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "case %"PRIu32": %s, %d VLAN tags, IP options %"PRIuSIZE
            ", TCP options %"PRIuSIZE", mss %"PRIu16", payload %"PRIu32
            ", flags %#"PRIx16", urg %"PRIu16", seq %"PRIu32", id %"PRIu16
            ", df %d, max_size %"PRIu32", max_segs %"PRIu32": ",
            c->no, c->ipv6 ? "IPv6" : "IPv4", c->n_vlans, c->ip_opt_len,
            c->tcp_opt_len, c->mss, c->payload_len, c->tcp_flags, c->urg,
            c->seq, c->ip_id, c->df, c->max_size, c->max_segs);
    if (c->tunnel != BIGTCP_RESEG_TNL_NONE) {
        static const char *const names[] = {
            [BIGTCP_RESEG_TNL_VXLAN] = "VXLAN",
            [BIGTCP_RESEG_TNL_GENEVE] = "Geneve",
            [BIGTCP_RESEG_TNL_GRE] = "GRE",
        };

        fprintf(stderr, "in %s over %s, checksum %d, options %"PRIuSIZE
                ", outer id %"PRIu16": ", names[c->tunnel],
                c->outer_ipv6 ? "IPv6" : "IPv4", c->tnl_csum,
                c->tnl_opt_len, c->outer_ip_id);
    }
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    ovs_abort(0, "bounded resegmentation check failed");
}

/* Returns the length of the headers of the inner packet of 'c' (the only
 * packet, without a tunnel), from its Ethernet header to the end of the TCP
 * options. */
static size_t
inner_hdr_len(const struct bigtcp_reseg_case *c)
{
    return (ETH_HEADER_LEN + c->n_vlans * VLAN_HEADER_LEN
            + (c->ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN + c->ip_opt_len)
            + TCP_HEADER_LEN + c->tcp_opt_len);
}

/* Returns the length of the outer IP header of 'c'. */
static size_t
outer_ip_len(const struct bigtcp_reseg_case *c)
{
    return c->outer_ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN;
}

/* Returns the length of the tunnel headers of 'c', from the outer Ethernet
 * header to the inner Ethernet header, or 0 without a tunnel. */
static size_t
outer_hdr_len(const struct bigtcp_reseg_case *c)
{
    size_t len = ETH_HEADER_LEN + outer_ip_len(c);

    switch (c->tunnel) {
    case BIGTCP_RESEG_TNL_NONE:
        return 0;
    case BIGTCP_RESEG_TNL_VXLAN:
        return len + UDP_HEADER_LEN + sizeof (struct vxlanhdr);
    case BIGTCP_RESEG_TNL_GENEVE:
        return len + UDP_HEADER_LEN + GENEVE_BASE_LEN + c->tnl_opt_len;
    case BIGTCP_RESEG_TNL_GRE:
        return len + sizeof (struct gre_base_hdr) + (c->tnl_csum ? 4 : 0)
               + c->tnl_opt_len;
    }
    OVS_NOT_REACHED();
}

/* Returns the length of the headers of the packets of 'c', from the
 * (outer) Ethernet header to the end of the TCP options. */
size_t
bigtcp_reseg_case_hdr_len(const struct bigtcp_reseg_case *c)
{
    return outer_hdr_len(c) + inner_hdr_len(c);
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
        unsigned int choice = random_range(7);
        uint8_t kind = 0;
        size_t n = 0;

        switch (choice) {
        case 0: kind = 2; n = 4; break;         /* MSS. */
        case 1: kind = 3; n = 3; break;         /* Window scale. */
        case 2: kind = 4; n = 2; break;         /* SACK permitted. */
        case 3: kind = 8; n = 10; break;        /* Timestamps. */
        case 4:                                 /* SACK, 1 to 4 blocks. */
            kind = 5;
            n = 2 + 8 * (1 + random_range(4));
            break;
        case 5:                 /* End of options list, then padding. */
            memset(p, 0, len);
            return;
        default:
            break;
        }

        if (!n || len < n) {
            *p++ = 1;           /* NOP. */
            len--;
            continue;
        }
        p[0] = kind;
        p[1] = n;
        if (kind == 2) {
            put_be16(&p[2], 1460);
        } else if (kind == 3) {
            p[2] = random_range(15);
        } else if (n > 2) {
            random_bytes(&p[2], n - 2);
        }
        p += n;
        len -= n;
    }
}

/* Wraps packet 'p' of case 'c' in the tunnel headers of 'c', with the
 * offsets and offload flags that Open vSwitch's tunnel push gives it (see
 * netdev-native-tnl.c): the inner flags moved to the inner positions, the
 * outer IPv4 header checksum partial, the outer UDP checksum partial if
 * there is one. */
static void
push_tunnel(const struct bigtcp_reseg_case *c, struct dp_packet *p)
{
    size_t outer_len = outer_hdr_len(c);
    size_t l4_ofs = ETH_HEADER_LEN + outer_ip_len(c);
    uint16_t inner_l3_ofs = p->l3_ofs + outer_len;
    uint16_t inner_l4_ofs = p->l4_ofs + outer_len;
    uint32_t l4_len = outer_len + dp_packet_size(p) - l4_ofs;
    uint32_t l3_len = l4_len + outer_ip_len(c);
    bool udp = c->tunnel != BIGTCP_RESEG_TNL_GRE;
    uint8_t proto = udp ? IPPROTO_UDP : IPPROTO_GRE;
    uint8_t *data = dp_packet_push_uninit(p, outer_len);
    uint8_t *l4 = data + l4_ofs;

    /* Ethernet. */
    random_bytes(data, 2 * ETH_ADDR_LEN);
    data[0] &= ~1;
    put_be16(data + 2 * ETH_ADDR_LEN,
             c->outer_ipv6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);

    /* IP. */
    if (c->outer_ipv6) {
        struct ovs_16aligned_ip6_hdr *ip6
            = ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *,
                           data + ETH_HEADER_LEN);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;

        random_bytes(ip6, IPV6_HEADER_LEN);
        put_16aligned_be32(&ip6->ip6_flow,
                           htonl((6u << 28) | (random_uint32() & 0x0fffffff)));
        ip6->ip6_plen = htons(plen <= UINT16_MAX ? plen : 0);
        ip6->ip6_nxt = proto;
        ip6->ip6_hlim = 64;
    } else {
        struct ip_header *ip = ALIGNED_CAST(struct ip_header *,
                                            data + ETH_HEADER_LEN);

        random_bytes(ip, IP_HEADER_LEN);
        ip->ip_ihl_ver = IP_IHL_VER(5, 4);
        ip->ip_tot_len = htons(l3_len <= UINT16_MAX ? l3_len : 0);
        ip->ip_id = htons(c->outer_ip_id);
        ip->ip_frag_off = htons(IP_DONT_FRAGMENT);
        ip->ip_ttl = 64;
        ip->ip_proto = proto;
        ip->ip_csum = 0;
    }

    /* UDP and VXLAN or Geneve, or GRE. */
    if (udp) {
        struct udp_header *uh = ALIGNED_CAST(struct udp_header *, l4);
        uint8_t *tnl = l4 + UDP_HEADER_LEN;

        uh->udp_src = htons(32768 + random_range(28232));
        uh->udp_dst = htons(c->tunnel == BIGTCP_RESEG_TNL_VXLAN ? 4789 : 6081);
        uh->udp_len = htons(l4_len <= UINT16_MAX ? l4_len : 0);
        uh->udp_csum = c->tnl_csum ? htons(1 + random_range(0xfffe)) : 0;
        if (c->tunnel == BIGTCP_RESEG_TNL_VXLAN) {
            put_be16(tnl, VXLAN_FLAGS >> 16);
            put_be16(tnl + 2, 0);
            put_be16(tnl + 4, random_uint16());
            put_be16(tnl + 6, (random_uint16() & 0xff00));
        } else {
            tnl[0] = c->tnl_opt_len / 4;
            tnl[1] = 0;
            put_be16(tnl + 2, ETH_TYPE_TEB);
            put_be16(tnl + 4, random_uint16());
            put_be16(tnl + 6, (random_uint16() & 0xff00));
            random_bytes(tnl + GENEVE_BASE_LEN, c->tnl_opt_len);
        }
    } else {
        uint16_t flags = ((c->tnl_csum ? GRE_CSUM : 0)
                          | (c->tnl_opt_len ? GRE_KEY : 0));
        uint8_t *opt = l4 + sizeof (struct gre_base_hdr);

        put_be16(l4, flags);
        put_be16(l4 + 2, ETH_TYPE_TEB);
        if (c->tnl_csum) {
            memset(opt, 0, 4);
            opt += 4;
        }
        random_bytes(opt, c->tnl_opt_len);
    }

    /* Offsets and offload flags. */
    p->l2_5_ofs = UINT16_MAX;
    p->l3_ofs = ETH_HEADER_LEN;
    p->l4_ofs = l4_ofs;
    p->inner_l3_ofs = inner_l3_ofs;
    p->inner_l4_ofs = inner_l4_ofs;
    p->offloads <<= DP_PACKET_OL_SHIFT_COUNT;
    if (c->tunnel == BIGTCP_RESEG_TNL_VXLAN) {
        dp_packet_tunnel_set_vxlan(p);
    } else if (c->tunnel == BIGTCP_RESEG_TNL_GENEVE) {
        dp_packet_tunnel_set_geneve(p);
    } else {
        dp_packet_tunnel_set_gre(p);
    }
    if (!c->outer_ipv6) {
        dp_packet_ip_checksum_set_partial(p);
    }
    if (udp) {
        dp_packet_l4_proto_set_udp(p);
        if (c->tnl_csum) {
            dp_packet_l4_checksum_set_partial(p);
        } else {
            dp_packet_l4_checksum_set_good(p);
        }
    } else if (c->tnl_csum) {
        ovs_be16 *csum_opt = ALIGNED_CAST(ovs_be16 *, l4 + 4);

        *csum_opt = csum(l4, l4_len);
    }

    if (!dp_packet_inner_l4_proto_tcp(p)
        || dp_packet_get_inner_tcp_payload_length(p) != c->payload_len) {
        fail(c, "the tunnel input does not parse as expected");
    }
}

/* Builds the input packet of 'c', as netdev-linux receives a TSO packet:
 * parsed, with its segment size and a partial L4 checksum, and pushed into
 * the tunnel of 'c', if any. */
struct dp_packet *
bigtcp_reseg_build_packet(const struct bigtcp_reseg_case *c)
{
    size_t hdr_len = inner_hdr_len(c);
    size_t l3_ofs = ETH_HEADER_LEN + c->n_vlans * VLAN_HEADER_LEN;
    size_t l4_ofs = hdr_len - TCP_HEADER_LEN - c->tcp_opt_len;
    uint32_t l3_len = hdr_len + c->payload_len - l3_ofs;
    struct tcp_header *tcp;
    struct dp_packet *p;
    uint8_t *data;

    p = dp_packet_new_with_headroom(hdr_len + c->payload_len,
                                    64 + outer_hdr_len(c));
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
    if (c->tunnel != BIGTCP_RESEG_TNL_NONE) {
        push_tunnel(c, p);
    }
    return p;
}

/* Returns the TCP header of 'p': the inner one of a tunnel packet. */
static struct tcp_header *
tcp_of(const struct dp_packet *p)
{
    return dp_packet_tunnel(p) ? dp_packet_inner_l4(p) : dp_packet_l4(p);
}

/* Returns the IP header that carries the TCP header of 'p'. */
static void *
ip_of(const struct dp_packet *p)
{
    return dp_packet_tunnel(p) ? dp_packet_inner_l3(p) : dp_packet_l3(p);
}

/* Completes all checksums of 'segs' in software, the GRE checksum
 * ('gre_csum') last, over the final bytes. */
static void
complete_checksums(struct dp_packet_batch *segs, bool gre_csum)
{
    struct dp_packet *seg;

    DP_PACKET_BATCH_FOR_EACH (i, seg, segs) {
        dp_packet_ol_send_prepare(seg, 0);
        if (gre_csum) {
            uint8_t *greh = dp_packet_l4(seg);
            ovs_be16 *csum_opt = ALIGNED_CAST(ovs_be16 *, greh + 4);

            *csum_opt = 0;
            *csum_opt = csum(greh, dp_packet_l4_size(seg));
        }
    }
}

static void check_output(const struct bigtcp_reseg_case *,
                         const struct dp_packet *in,
                         const struct dp_packet *out, uint32_t k,
                         uint32_t n_out, uint32_t n,
                         struct bigtcp_reseg_stats *);

/* Segments 'p', a packet of case 'c', fully with dp_packet_gso_batch(),
 * completes the checksums of the segments and appends them to 'out'.
 * Takes ownership of 'p'.  If 'in' is nonnull, 'p' is the whole input of
 * the case, 'in' a copy of it, and each segment is checked as an output of
 * one segment (check_output()) before its checksums are completed. */
static void
segment_fully(const struct bigtcp_reseg_case *c, struct dp_packet *p,
              const struct dp_packet *in, struct dp_packet_batch *out)
{
    uint16_t mss = dp_packet_get_tso_segsz(p);
    struct dp_packet_batch segs;
    struct dp_packet *seg;

    dp_packet_batch_init_packet(&segs, p);
    if (mss) {
        dp_packet_gso_batch(&segs);
    }
    if (in) {
        struct bigtcp_reseg_stats scratch;

        memset(&scratch, 0, sizeof scratch);
        DP_PACKET_BATCH_FOR_EACH (i, seg, &segs) {
            check_output(c, in, seg, i, dp_packet_batch_size(&segs), 1,
                         &scratch);
        }
    }
    complete_checksums(&segs,
                       c->tunnel == BIGTCP_RESEG_TNL_GRE && c->tnl_csum);
    DP_PACKET_BATCH_FOR_EACH (i, seg, &segs) {
        dp_packet_batch_add(out, seg);
    }
    dp_packet_batch_destroy(&segs);
}

/* Returns the segments per output that the tail policy of dp-packet-reseg.c
 * gives to 'n_segs' segments with at most 'max' (at least 2) in an output:
 * all of them if they fit; otherwise the largest count, no larger than the
 * even spread over the fewest outputs, that does not leave a last output of
 * a single segment, or 2 if every larger count leaves one. */
static uint32_t
expected_per(uint32_t n_segs, uint32_t max)
{
    uint32_t per;

    if (n_segs <= max) {
        return n_segs;
    }
    per = DIV_ROUND_UP(n_segs, DIV_ROUND_UP(n_segs, max));
    while (per > 2 && n_segs % per == 1) {
        per--;
    }
    return per;
}

/* Checks the outer headers of output 'k' of 'n_out', 'out', of tunnel case
 * 'c', whose first segment is segment 'first_seg' of the input: lengths,
 * outer IPv4 ID, DF bit and checksum flag, UDP length and checksum flag,
 * GRE checksum, tunnel type and inner offsets. */
static void
check_outer(const struct bigtcp_reseg_case *c, const struct dp_packet *out,
            uint32_t k, uint32_t n_out, uint32_t first_seg)
{
    uint32_t l4_len = dp_packet_l4_size(out);
    uint32_t l3_len = dp_packet_l3_size(out);

    if (c->outer_ipv6) {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(out);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;

        if (ntohs(ip6->ip6_plen) != (plen <= UINT16_MAX ? plen : 0)) {
            fail(c, "output %"PRIu32" has outer payload length %"PRIu16, k,
                 ntohs(ip6->ip6_plen));
        }
    } else {
        const struct ip_header *ip = dp_packet_l3(out);

        if (ntohs(ip->ip_tot_len) != (l3_len <= UINT16_MAX ? l3_len : 0)) {
            fail(c, "output %"PRIu32" has outer total length %"PRIu16, k,
                 ntohs(ip->ip_tot_len));
        }
        if (ntohs(ip->ip_id) != (uint16_t) (c->outer_ip_id + first_seg)) {
            fail(c, "output %"PRIu32" has outer IP ID %"PRIu16, k,
                 ntohs(ip->ip_id));
        }
        if (ip->ip_frag_off != htons(IP_DONT_FRAGMENT)) {
            fail(c, "output %"PRIu32" has outer fragment field %#"PRIx16, k,
                 ntohs(ip->ip_frag_off));
        }
        if (n_out > 1 && !dp_packet_ip_checksum_partial(out)) {
            fail(c, "output %"PRIu32" outer IP checksum not partial", k);
        }
    }

    if (c->tunnel == BIGTCP_RESEG_TNL_GRE) {
        if (c->tnl_csum && csum(dp_packet_l4(out), l4_len)) {
            fail(c, "output %"PRIu32" has a wrong GRE checksum", k);
        }
    } else {
        const struct udp_header *uh = dp_packet_l4(out);

        if (ntohs(uh->udp_len) != (l4_len <= UINT16_MAX ? l4_len : 0)) {
            fail(c, "output %"PRIu32" has UDP length %"PRIu16, k,
                 ntohs(uh->udp_len));
        }
        if (!dp_packet_l4_proto_udp(out)
            || (c->tnl_csum && !dp_packet_l4_checksum_partial(out))
            || (!c->tnl_csum && (uh->udp_csum
                                 || dp_packet_l4_checksum_partial(out)))) {
            fail(c, "output %"PRIu32" has a wrong outer UDP checksum or "
                 "flags", k);
        }
    }

    if ((c->tunnel == BIGTCP_RESEG_TNL_VXLAN && !dp_packet_tunnel_vxlan(out))
        || (c->tunnel == BIGTCP_RESEG_TNL_GENEVE
            && !dp_packet_tunnel_geneve(out))
        || (c->tunnel == BIGTCP_RESEG_TNL_GRE && !dp_packet_tunnel_gre(out))
        || out->inner_l3_ofs != outer_hdr_len(c) + ETH_HEADER_LEN
                                + c->n_vlans * VLAN_HEADER_LEN) {
        fail(c, "output %"PRIu32" lost its tunnel type or inner offsets", k);
    }
}

/* Checks output number 'k' of 'n_out', 'out', of case 'c', whose input
 * 'in' has 'n' segments per output ('n' is 1 for a segment of the full
 * segmentation). */
static void
check_output(const struct bigtcp_reseg_case *c, const struct dp_packet *in,
             const struct dp_packet *out, uint32_t k, uint32_t n_out,
             uint32_t n, struct bigtcp_reseg_stats *stats)
{
    bool tunnel = c->tunnel != BIGTCP_RESEG_TNL_NONE;
    size_t hdr_len = bigtcp_reseg_case_hdr_len(c);
    size_t outer_len = outer_hdr_len(c);
    uint32_t first_seg = k * n;
    uint32_t ofs = first_seg * c->mss;
    uint32_t len = MIN(n * c->mss, c->payload_len - ofs);
    uint32_t segs = DIV_ROUND_UP(len, c->mss);
    uint32_t l3_ofs = (char *) ip_of(in) - (char *) dp_packet_data(in);
    uint32_t l4_ofs = (char *) tcp_of(in) - (char *) dp_packet_data(in);
    uint32_t l3_len = hdr_len + len - l3_ofs;
    uint32_t wire_l3_len = hdr_len + len - in->l3_ofs;
    const struct tcp_header *tcp = tcp_of(out);
    bool last = k == n_out - 1;
    uint16_t exp_flags, exp_urg;
    struct dp_packet *copy;

    if (dp_packet_size(out) != hdr_len + len) {
        fail(c, "output %"PRIu32" has %"PRIu32" bytes, expected %"PRIuSIZE,
             k, dp_packet_size(out), hdr_len + len);
    }
    if (dp_packet_size(out) > c->max_size || segs > c->max_segs
        || (segs < 2 && !last && n > 1)) {
        fail(c, "output %"PRIu32" (%"PRIu32" bytes, %"PRIu32" segments) "
             "does not fit the bound", k, dp_packet_size(out), segs);
    }
    if (dp_packet_get_tso_segsz(out) != (segs > 1 ? c->mss : 0)) {
        fail(c, "output %"PRIu32" has segment size %"PRIu16, k,
             dp_packet_get_tso_segsz(out));
    }
    if (out->l3_ofs != in->l3_ofs || out->l4_ofs != in->l4_ofs
        || out->inner_l3_ofs != in->inner_l3_ofs
        || out->inner_l4_ofs != in->inner_l4_ofs
        || (tunnel
            ? ((n_out > 1 && !dp_packet_inner_l4_checksum_partial(out))
               || !dp_packet_inner_l4_proto_tcp(out))
            : ((n_out > 1 && !dp_packet_l4_checksum_partial(out))
               || !dp_packet_l4_proto_tcp(out)))) {
        fail(c, "output %"PRIu32" has wrong offsets or offload flags", k);
    }
    if (out->md.in_port.odp_port != in->md.in_port.odp_port
        || !dp_packet_rss_valid(out)
        || dp_packet_get_rss_hash(out) != dp_packet_get_rss_hash(in)) {
        fail(c, "output %"PRIu32" lost the input's metadata or hash", k);
    }
    if (tunnel) {
        check_outer(c, out, k, n_out, first_seg);
    }

    /* IP. */
    if (c->ipv6) {
        const struct ovs_16aligned_ip6_hdr *ip6 = ip_of(out);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;

        if (ntohs(ip6->ip6_plen) != (plen <= UINT16_MAX ? plen : 0)) {
            fail(c, "output %"PRIu32" has payload length %"PRIu16, k,
                 ntohs(ip6->ip6_plen));
        }
    } else {
        const struct ip_header *ip = ip_of(out);

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
        if (n_out > 1 && !(tunnel ? dp_packet_inner_ip_checksum_partial(out)
                           : dp_packet_ip_checksum_partial(out))) {
            fail(c, "output %"PRIu32" IP checksum not partial", k);
        }
    }
    if (wire_l3_len > UINT16_MAX) {
        stats->big_outputs++;
    }
    if (wire_l3_len == UINT16_MAX || wire_l3_len == UINT16_MAX + 1) {
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

    /* The output's (inner) packet, received as it is, parses to the same
     * headers. */
    copy = dp_packet_clone_data((const char *) dp_packet_data(out)
                                + outer_len,
                                dp_packet_size(out) - outer_len);
    dp_packet_set_tso_segsz(copy, dp_packet_get_tso_segsz(out));
    if (parse_tcp_flags(copy, NULL, NULL, NULL) != exp_flags
        || copy->l3_ofs != l3_ofs - outer_len
        || copy->l4_ofs != l4_ofs - outer_len
        || dp_packet_get_tcp_payload_length(copy) != len) {
        fail(c, "output %"PRIu32" does not parse as a valid packet", k);
    }
    dp_packet_delete(copy);

    if (last && segs == 1 && n_out > 1 && n > 1) {
        if (n > 2) {
            fail(c, "the last output is a single segment, but %"PRIu32
                 " segments per output do not leave one", n);
        }
        stats->single_last++;
    }
}

/* Runs case 'c'. */
void
bigtcp_reseg_run_case(const struct bigtcp_reseg_case *c,
                      struct bigtcp_reseg_stats *stats)
{
    size_t hdr_len = bigtcp_reseg_case_hdr_len(c);
    uint32_t n_segs = DIV_ROUND_UP(c->payload_len, c->mss);
    struct dp_packet_batch outs, ref_segs, out_segs;
    struct dp_packet *in, *orig, *whole, *tunnel, *out;
    uint32_t n, n_out;
    bool possible;

    in = bigtcp_reseg_build_packet(c);

    /* A packet marked as a tunnel packet without the headers of one is
     * never resegmented. */
    if (c->tunnel == BIGTCP_RESEG_TNL_NONE) {
        tunnel = dp_packet_clone(in);
        tunnel->offloads |= DP_PACKET_OL_TUNNEL_VXLAN;
        if (dp_packet_reseg_possible(tunnel, GSO_MAX_SIZE, GSO_MAX_SEGS)) {
            fail(c, "resegmentation of a false tunnel packet is possible");
        }
        dp_packet_delete(tunnel);
    }

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
    n = expected_per(n_segs, n);
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
        stats->tunnel_cut[c->tunnel]++;
    }
    DP_PACKET_BATCH_FOR_EACH (k, out, &outs) {
        check_output(c, orig, out, k, n_out, n, stats);
    }

    /* The differential property.  The full segmentation of the input is
     * checked on its own too, as the outputs of one segment that it is. */
    dp_packet_batch_init(&ref_segs);
    whole = dp_packet_clone(orig);
    segment_fully(c, orig, whole, &ref_segs);
    dp_packet_delete(whole);
    dp_packet_batch_init(&out_segs);
    DP_PACKET_BATCH_FOR_EACH (k, out, &outs) {
        segment_fully(c, out, NULL, &out_segs);
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


/* Runs the random cases of an ovstest command with arguments "[N [SEED]]"
 * in 'argv': seeds the random generator with SEED (default 1), then N times
 * (default 'n_default') draws a case with 'draw' and checks it with 'check',
 * which counts what it saw in 'stats'.  Prints "N cases passed" and returns
 * N.  A failed check aborts. */
uint32_t
bigtcp_reseg_run_random(int argc, char *argv[], uint32_t n_default,
                        bigtcp_reseg_draw_func *draw,
                        bigtcp_reseg_check_func *check, void *stats)
{
    uint32_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : n_default;

    random_set_seed(argc > 2 ? strtoul(argv[2], NULL, 10) : 1);
    for (uint32_t i = 0; i < n; i++) {
        struct bigtcp_reseg_case c;

        draw(&c, i);
        check(&c, stats);
    }
    printf("%"PRIu32" cases passed\n", n);
    return n;
}
