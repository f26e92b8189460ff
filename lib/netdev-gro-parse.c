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

/* The header parser of the GRO engine (netdev-gro.c): which packets are
 * TCP segments that GRO may coalesce, and where their headers are. */

#include <config.h>

#include "netdev-gro-private.h"

#include <netinet/in.h>
#include <netinet/ip6.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "packets.h"

COVERAGE_DEFINE(netdev_gro_trimmed_pad); /* Padded IPv4 runts trimmed. */

/* Returns the offset of the upper-layer header of IPv6 packet 'p' (its
 * IPv6 header at 'h->l3_ofs'), behind the extension headers that Linux's
 * GRO skips (ipv6_gro_pull_exthdrs(): Hop-by-Hop, Routing and Destination
 * Options headers), and stores its protocol in '*proto'.  Stops at the
 * first header that does not fit in 'p', with its type in '*proto'. */
static size_t
gro_ipv6_skip_ext(const struct dp_packet *p, const struct gro_hdrs *h,
                  uint8_t *proto)
{
    const uint8_t *data = dp_packet_data(p);
    size_t size = dp_packet_size(p);
    size_t ofs = h->l3_ofs + IPV6_HEADER_LEN;
    uint8_t nxt = gro_ip6(p, h)->ip6_nxt;

    while (nxt == IPPROTO_HOPOPTS || nxt == IPPROTO_ROUTING
           || nxt == IPPROTO_DSTOPTS) {
        size_t len;

        if (size < ofs + 8) {
            break;
        }
        len = (data[ofs + 1] + 1) * 8;
        if (size < ofs + len) {
            break;
        }
        nxt = data[ofs];
        ofs += len;
    }
    *proto = nxt;
    return ofs;
}

/* netdev_gro_parse() for IPv4: 'p''s network header is at 'h->l3_ofs',
 * followed by 'l3_len' bytes.  Trims zero padding after a short packet. */
static enum gro_reason
gro_parse_ipv4(struct dp_packet *p, struct gro_hdrs *h,
               size_t l3_len, bool *is_tcp)
{
    const struct ip_header *ip = gro_ip(p, h);
    size_t ip_len = ntohs(ip->ip_tot_len);

    if (ip->ip_proto != IPPROTO_TCP || IP_VER(ip->ip_ihl_ver) != 4) {
        return GRO_OK;
    }
    *is_tcp = true;
    if (dp_packet_get_tso_segsz(p)) {
        return GRO_TSO;
    } else if (ip->ip_ihl_ver != IP_IHL_VER(5, 4)) {
        return GRO_IP_OPTIONS;
    } else if (ip->ip_frag_off & htons(IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK
                                       | 0x8000)) {
        return GRO_IP_FRAG;
    } else if (ip_len != l3_len) {
        /* A frame padded to ETH_TOTAL_MIN: trim zeros, as Linux's
         * inet_gro_receive() does (its bound allows for an FCS). */
        const char *pad = (const char *) ip + ip_len;

        if (ip_len < IP_HEADER_LEN + TCP_HEADER_LEN || ip_len > l3_len
            || l3_len > ETH_TOTAL_MIN - ETH_HEADER_LEN + 4) {
            return GRO_IP_LEN;
        }
        for (size_t i = 0; i < l3_len - ip_len; i++) {
            if (pad[i]) {
                return GRO_PAD;
            }
        }
        COVERAGE_INC(netdev_gro_trimmed_pad);
        dp_packet_set_size(p, h->l3_ofs + ip_len);
    }
    if (!dp_packet_ip_checksum_valid(p)
        && (dp_packet_ip_checksum_bad(p) || csum(ip, IP_HEADER_LEN))) {
        return GRO_IP_CSUM;
    }
    h->ip_version = 4;
    h->l4_ofs = h->l3_ofs + IP_HEADER_LEN;
    return GRO_OK;
}

/* netdev_gro_parse() for IPv6: 'p''s network header is at 'h->l3_ofs',
 * followed by 'l3_len' bytes. */
static enum gro_reason
gro_parse_ipv6(struct dp_packet *p, struct gro_hdrs *h,
               size_t l3_len, bool *is_tcp)
{
    const struct ovs_16aligned_ip6_hdr *ip6 = gro_ip6(p, h);
    uint8_t proto;

    if (l3_len < IPV6_HEADER_LEN + TCP_HEADER_LEN
        || IP_VER(ip6->ip6_vfc) != 6) {
        return GRO_OK;
    }
    h->l4_ofs = gro_ipv6_skip_ext(p, h, &proto);
    if (proto == IPPROTO_FRAGMENT) {
        /* Maybe a TCP segment, but not one GRO takes. */
        *is_tcp = true;
        return GRO_IP_FRAG;
    } else if (proto != IPPROTO_TCP) {
        return GRO_OK;
    }
    *is_tcp = true;
    if (dp_packet_get_tso_segsz(p)) {
        return GRO_TSO;
    } else if (ntohs(ip6->ip6_plen) != l3_len - IPV6_HEADER_LEN) {
        return GRO_IP_LEN;
    }
    h->ip_version = 6;
    return GRO_OK;
}

/* Finds the TCP header of 'p', a TCP segment in Ethernet (with at most one
 * 802.1Q tag) over IPv4 without options or IPv6 (behind the extension
 * headers gro_ipv6_skip_ext() skips), and fills in 'h'.  Returns
 * GRO_OK, or the rule that 'p' breaks, with '*is_tcp' false if 'p' is not
 * TCP over IP at all.  Trims zero padding after a short IPv4 packet. */
enum gro_reason
netdev_gro_parse(struct dp_packet *p, struct gro_hdrs *h,
                 bool *is_tcp)
{
    const struct eth_header *eth = dp_packet_data(p);
    size_t size = dp_packet_size(p);
    const struct tcp_header *tcp;
    enum gro_reason reason;
    size_t tcp_len;
    ovs_be16 eth_type;

    *is_tcp = false;
    if (size < ETH_HEADER_LEN + IP_HEADER_LEN + TCP_HEADER_LEN) {
        return GRO_OK;
    }
    eth_type = eth->eth_type;
    h->l3_ofs = ETH_HEADER_LEN;
    if (eth_type == htons(ETH_TYPE_VLAN_8021Q)) {
        const struct vlan_eth_header *veh = dp_packet_data(p);

        eth_type = veh->veth_next_type;
        h->l3_ofs = VLAN_ETH_HEADER_LEN;
    }
    if (size < h->l3_ofs + IP_HEADER_LEN + TCP_HEADER_LEN) {
        return GRO_OK;
    }

    if (eth_type == htons(ETH_TYPE_IP)) {
        reason = gro_parse_ipv4(p, h, size - h->l3_ofs, is_tcp);
    } else if (eth_type == htons(ETH_TYPE_IPV6)) {
        reason = gro_parse_ipv6(p, h, size - h->l3_ofs, is_tcp);
    } else {
        return GRO_OK;
    }
    if (reason != GRO_OK || !*is_tcp) {
        return reason;
    }

    size = dp_packet_size(p);
    if (h->l4_ofs + TCP_HEADER_LEN > size) {
        /* IPv6 extension headers that leave no room for a TCP header. */
        return GRO_TCP_HDR;
    }
    tcp = gro_tcp(p, h);
    tcp_len = TCP_OFFSET(tcp->tcp_ctl) * 4;
    if (tcp_len < TCP_HEADER_LEN || h->l4_ofs + tcp_len > size) {
        return GRO_TCP_HDR;
    }
    h->hdr_len = h->l4_ofs + tcp_len;
    h->payload_len = size - h->hdr_len;
    return GRO_OK;
}
