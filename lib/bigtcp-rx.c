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
#include "bigtcp-rx.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip6.h>

#include "bigtcp-framing.h"
#include "coverage.h"
#include "dp-packet.h"
#include "flow.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(bigtcp_rx);

/* Refused: the virtio-net header's hdr_len goes beyond the packet. */
COVERAGE_DEFINE(bigtcp_rx_bad_hdr_len);
/* Refused: shorter than an Ethernet header. */
COVERAGE_DEFINE(bigtcp_rx_runt);
/* Refused: a TCP GSO type with a segment size of 0. */
COVERAGE_DEFINE(bigtcp_rx_gso_size_zero);
/* Refused: not an IP packet of the GSO type's version, or an IP header that
 * is truncated or invalid. */
COVERAGE_DEFINE(bigtcp_rx_bad_ip);
/* Refused: a TCP GSO type on a packet that is not TCP. */
COVERAGE_DEFINE(bigtcp_rx_not_tcp);
/* Refused: a TCP header that is truncated, or a data offset under 5 or
 * past the end of the packet. */
COVERAGE_DEFINE(bigtcp_rx_bad_tcp);
/* Refused: an IP length that disagrees with the packet's size, or an IPv6
 * payload length of 0 (BIG TCP framing) on a payload that 16 bits hold or
 * with a Hop-by-Hop header left in front of TCP. */
COVERAGE_DEFINE(bigtcp_rx_bad_len);
/* Refused: an IP length over GSO_MAX_SIZE. */
COVERAGE_DEFINE(bigtcp_rx_too_big);
/* Refused: more segments than Linux's GSO_MAX_SEGS (65535). */
COVERAGE_DEFINE(bigtcp_rx_too_many_segs);
/* Taken as a plain packet: the payload fits in one segment. */
COVERAGE_DEFINE(bigtcp_rx_one_segment);
/* Refused: the payload fits in one segment, but the IP packet is too large
 * for its length field: only GSO framing can carry it. */
COVERAGE_DEFINE(bigtcp_rx_one_segment_too_big);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Checks the virtio-net header fields that Open vSwitch does not otherwise
 * look at, of packet 'b' (the frame behind the header): 'hdr_len', the
 * length of the headers that the sender says the packet has, and, if
 * 'gso_tcp' (the GSO type is TCPV4 or TCPV6), the segment size
 * 'gso_size'.  Returns 0 if they are acceptable, EINVAL if the packet must
 * be dropped. */
int
bigtcp_rx_check_vnet(const struct dp_packet *b, bool gso_tcp,
                     uint16_t gso_size, uint16_t hdr_len)
{
    if (dp_packet_size(b) < ETH_HEADER_LEN) {
        /* Checksum offload and segmentation parse the headers, which
         * assumes an Ethernet header. */
        COVERAGE_INC(bigtcp_rx_runt);
        VLOG_WARN_RL(&rl, "Dropped packet: %"PRIu32" bytes behind a "
                     "virtio-net header, shorter than an Ethernet header",
                     dp_packet_size(b));
        return EINVAL;
    }
    if (hdr_len > dp_packet_size(b)) {
        COVERAGE_INC(bigtcp_rx_bad_hdr_len);
        VLOG_WARN_RL(&rl, "Dropped packet: virtio-net hdr_len %"PRIu16
                     " beyond the %"PRIu32"-byte packet", hdr_len,
                     dp_packet_size(b));
        return EINVAL;
    }
    if (gso_tcp && !gso_size) {
        COVERAGE_INC(bigtcp_rx_gso_size_zero);
        VLOG_WARN_RL(&rl, "Dropped packet: TCP GSO with gso_size 0");
        return EINVAL;
    }
    return 0;
}

/* Checks the IPv6 BIG TCP framing of TSO packet 'b', whose layer offsets
 * flow extraction set as far as it could: a payload length of 0 stands for
 * a payload over 65535 bytes with TCP right behind the IPv6 header (Linux
 * 7.x's framing, and Open vSwitch's once a jumbo option is stripped).
 * Returns EINVAL for a payload length of 0 on a payload that 16 bits hold,
 * or in front of a Hop-by-Hop header (one that was not a lone jumbo option,
 * see bigtcp-framing.h): segments of it would carry a length that lies. */
static int
check_ipv6_len0(const struct dp_packet *b)
{
    const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(b);
    size_t payload;

    if (!ip6 || dp_packet_size(b) < b->l3_ofs + IPV6_HEADER_LEN
        || ip6->ip6_plen) {
        return 0;
    }
    payload = dp_packet_size(b) - b->l3_ofs - IPV6_HEADER_LEN;
    if (ip6->ip6_nxt == IPPROTO_HOPOPTS) {
        COVERAGE_INC(bigtcp_rx_bad_len);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: IPv6 payload length 0 "
                     "with a Hop-by-Hop header that is not a lone jumbo "
                     "option");
        return EINVAL;
    }
    if (payload <= UINT16_MAX) {
        COVERAGE_INC(bigtcp_rx_bad_len);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: IPv6 payload length 0 on "
                     "%"PRIuSIZE" bytes of payload, which the field holds",
                     payload);
        return EINVAL;
    }
    return 0;
}

/* Checks the IP and TCP headers of TSO packet 'b', of IP version
 * 'ip_version', and parses them (it sets the layer offsets).  Returns 0 if
 * they are those of a TCP segment of that version, EINVAL otherwise. */
static int
check_headers(struct dp_packet *b, int ip_version)
{
    const struct ip_header *ip;
    ovs_be16 dl_type;

    parse_tcp_flags(b, &dl_type, NULL, NULL);
    if (ip_version == 6 && dl_type == htons(ETH_TYPE_IPV6)
        && check_ipv6_len0(b)) {
        return EINVAL;
    }
    ip = dp_packet_l3(b);
    if (!ip || !dp_packet_l4(b)
        || dl_type != htons(ip_version == 4 ? ETH_TYPE_IP : ETH_TYPE_IPV6)) {
        /* Not IP of the GSO type's version, or an IP header that did not
         * pass flow extraction's checks: truncated, bad header length,
         * total or payload length larger than the packet, or 0 on a
         * packet that does not need it. */
        COVERAGE_INC(bigtcp_rx_bad_ip);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: no valid IPv%d header "
                     "(Ethertype 0x%04"PRIx16")", ip_version,
                     ntohs(dl_type));
        return EINVAL;
    }
    if (!dp_packet_l4_proto_tcp(b)) {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(b);
        uint8_t proto = ip_version == 4 ? ip->ip_proto : ip6->ip6_nxt;

        if (proto == IPPROTO_TCP && dp_packet_l4_size(b) < TCP_HEADER_LEN) {
            /* Flow extraction does not mark a TCP header that it cannot
             * read. */
            COVERAGE_INC(bigtcp_rx_bad_tcp);
            VLOG_WARN_RL(&rl, "Dropped TSO packet: truncated TCP header "
                         "(%"PRIuSIZE" bytes)", dp_packet_l4_size(b));
            return EINVAL;
        }
        COVERAGE_INC(bigtcp_rx_not_tcp);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: TCP GSO type on a packet "
                     "that is not TCP");
        return EINVAL;
    }
    if (!dp_packet_get_tcp_payload(b)) {
        const struct tcp_header *tcp = dp_packet_l4(b);

        COVERAGE_INC(bigtcp_rx_bad_tcp);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: TCP data offset %d with "
                     "%"PRIuSIZE" bytes of TCP segment",
                     TCP_OFFSET(tcp->tcp_ctl), dp_packet_l4_size(b));
        return EINVAL;
    }
    return 0;
}

/* Checks the IP length of TSO packet 'b', whose headers check_headers()
 * accepted, and stores it in '*l3_len'.  Returns 0 if it describes the
 * packet and is within GSO_MAX_SIZE, EINVAL otherwise. */
static int
check_length(const struct dp_packet *b, uint32_t *l3_len)
{
    *l3_len = dp_packet_l3_size(b);
    if (dp_packet_l2_pad_size(b)) {
        /* Flow extraction takes bytes beyond the IP length as Ethernet
         * padding.  A GSO packet has none: its IP length is wrong. */
        COVERAGE_INC(bigtcp_rx_bad_len);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: IP length %"PRIu16" bytes "
                     "short of the packet", dp_packet_l2_pad_size(b));
        return EINVAL;
    }
    if (*l3_len > GSO_MAX_SIZE) {
        COVERAGE_INC(bigtcp_rx_too_big);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: IP length %"PRIu32" over "
                     "GSO_MAX_SIZE (%d)", *l3_len, GSO_MAX_SIZE);
        return EINVAL;
    }
    return 0;
}

/* Checks TSO packet 'b', received with a virtio-net header of a TCP GSO
 * type for IP version 'ip_version' (4 or 6), whose segment size is set.
 * Parses its headers (it sets the layer offsets).  Returns 0 if Open
 * vSwitch can take it: as a TSO packet, or, if its payload fits in one
 * segment, as a plain packet (its segment size is then cleared).  Returns
 * EINVAL if it must be dropped. */
int
bigtcp_rx_check_tso(struct dp_packet *b, int ip_version)
{
    uint16_t segsz = dp_packet_get_tso_segsz(b);
    uint32_t l3_len, payload_len;

    if (!segsz) {
        return 0;
    }
    if (check_headers(b, ip_version)
        || check_length(b, &l3_len)) {
        return EINVAL;
    }

    payload_len = dp_packet_get_tcp_payload_length(b);
    if (DIV_ROUND_UP(payload_len, segsz) > GSO_MAX_SEGS) {
        /* A tiny gso_size would make software segmentation build hundreds
         * of thousands of packets out of one. */
        COVERAGE_INC(bigtcp_rx_too_many_segs);
        VLOG_WARN_RL(&rl, "Dropped TSO packet: %"PRIu32" bytes of payload "
                     "in segments of %"PRIu16" bytes, over %d segments",
                     payload_len, segsz, GSO_MAX_SEGS);
        return EINVAL;
    }
    if (payload_len <= segsz) {
        uint32_t ip_len = ip_version == 4 ? l3_len
                                          : l3_len - IPV6_HEADER_LEN;

        if (ip_len > UINT16_MAX) {
            /* BIG TCP framing (IP length 0) that does not hold more than
             * one segment.  As a plain packet its IP length would have to
             * say more than 16 bits can, and segmenting it would give one
             * such packet. */
            COVERAGE_INC(bigtcp_rx_one_segment_too_big);
            VLOG_WARN_RL(&rl, "Dropped TSO packet: %"PRIu32" bytes of "
                         "payload in one segment (gso_size %"PRIu16"), "
                         "too large for a packet without GSO",
                         payload_len, segsz);
            return EINVAL;
        }

        /* Not really a GSO packet.  Linux takes it as a plain packet too
         * (virtio_net_hdr_to_skb()). */
        COVERAGE_INC(bigtcp_rx_one_segment);
        VLOG_INFO_RL(&rl, "TSO packet with %"PRIu32" bytes of payload and "
                     "gso_size %"PRIu16" taken as a plain packet",
                     payload_len, segsz);
        dp_packet_set_tso_segsz(b, 0);
    }
    return 0;
}
