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
#include "bigtcp-framing.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <string.h>

#include "dp-packet.h"
#include "packets.h"
#include "unaligned.h"
#include "util.h"

/* The jumbo payload option: type 0xc2, 4 bytes of data (RFC 2675). */
#define JUMBO_OPT_TYPE 0xc2
#define JUMBO_OPT_LEN 4

/* Hop-by-Hop header carrying only a jumbo payload option, as Linux builds
 * it for BIG TCP. */
struct jumbo_hbh {
    uint8_t nexthdr;
    uint8_t hdrlen;             /* 0: 8 bytes in all. */
    uint8_t opt_type;           /* JUMBO_OPT_TYPE. */
    uint8_t opt_len;            /* JUMBO_OPT_LEN. */
    ovs_16aligned_be32 jumbo_len; /* Payload length, this header included. */
};
BUILD_ASSERT_DECL(sizeof(struct jumbo_hbh) == BIGTCP_JUMBO_HBH_LEN);

/* Returns the offset of the network header in the Ethernet frame in 'b',
 * skipping VLAN tags, and stores its Ethertype in '*eth_type'.  Returns 0
 * if the frame is too short to tell. */
static size_t
l3_offset(const struct dp_packet *b, ovs_be16 *eth_type)
{
    const uint8_t *data = dp_packet_data(b);
    size_t size = dp_packet_size(b);
    size_t ofs = 2 * ETH_ADDR_LEN;

    for (;;) {
        ovs_be16 type;

        if (size < ofs + sizeof type) {
            return 0;
        }
        memcpy(&type, data + ofs, sizeof type);
        ofs += sizeof type;
        if (type != htons(ETH_TYPE_VLAN_8021Q)
            && type != htons(ETH_TYPE_VLAN_8021AD)) {
            *eth_type = type;
            return ofs;
        }
        ofs += 2;               /* Tag control information. */
    }
}

/* If the Ethernet frame in 'b' is an IPv6 packet with a payload length of 0
 * followed by a Hop-by-Hop header that carries only a jumbo payload option
 * (the BIG TCP framing of Linux), removes that header and stores its size
 * in '*stripped'; otherwise stores 0 there.  Call it before the packet's
 * layer offsets are set: it moves the Ethernet and IPv6 headers.
 *
 * Returns 0 on success, or EINVAL if the jumbo option is malformed: its
 * length is not larger than 65535, or disagrees with the packet's size, or
 * the option sits behind a non-zero payload length. */
int
bigtcp_frame_strip_jumbo(struct dp_packet *b, size_t *stripped)
{
    struct ovs_16aligned_ip6_hdr *ip6;
    const struct jumbo_hbh *hbh;
    size_t l3_ofs, payload;
    ovs_be16 eth_type;
    uint32_t jumbo_len;
    uint8_t nexthdr;

    *stripped = 0;
    l3_ofs = l3_offset(b, &eth_type);
    if (!l3_ofs || eth_type != htons(ETH_TYPE_IPV6)
        || dp_packet_size(b) < l3_ofs + IPV6_HEADER_LEN + sizeof *hbh) {
        return 0;
    }

    ip6 = dp_packet_at_assert(b, l3_ofs, IPV6_HEADER_LEN);
    hbh = dp_packet_at_assert(b, l3_ofs + IPV6_HEADER_LEN, sizeof *hbh);
    if (ip6->ip6_nxt != IPPROTO_HOPOPTS || hbh->hdrlen
        || hbh->opt_type != JUMBO_OPT_TYPE) {
        return 0;
    }

    payload = dp_packet_size(b) - l3_ofs - IPV6_HEADER_LEN;
    jumbo_len = ntohl(get_16aligned_be32(&hbh->jumbo_len));
    if (ip6->ip6_plen || hbh->opt_len != JUMBO_OPT_LEN
        || jumbo_len <= UINT16_MAX || jumbo_len != payload) {
        return EINVAL;
    }

    nexthdr = hbh->nexthdr;
    memmove((char *) dp_packet_data(b) + sizeof *hbh, dp_packet_data(b),
            l3_ofs + IPV6_HEADER_LEN);
    dp_packet_pull(b, sizeof *hbh);
    ip6 = dp_packet_at_assert(b, l3_ofs, IPV6_HEADER_LEN);
    ip6->ip6_nxt = nexthdr;
    *stripped = sizeof *hbh;
    return 0;
}

/* Returns the length of what follows the IPv6 header of 'b', if 'b' is a
 * TSO packet over IPv6 whose payload is longer than 65535 bytes (so its
 * payload length is 0) and has no Hop-by-Hop header: a BIG TCP packet in
 * Open vSwitch's framing, and in Linux 7.x's.  Otherwise returns 0. */
size_t
bigtcp_frame_ipv6_big_len(const struct dp_packet *b)
{
    const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(b);
    size_t payload;

    if (!dp_packet_get_tso_segsz(b) || !ip6 || !dp_packet_l4(b)
        || dp_packet_size(b) < b->l3_ofs + IPV6_HEADER_LEN
        || IP_VER(ip6->ip6_vfc) != 6 || ip6->ip6_plen
        || ip6->ip6_nxt == IPPROTO_HOPOPTS) {
        return 0;
    }
    payload = dp_packet_size(b) - b->l3_ofs - IPV6_HEADER_LEN
              - dp_packet_l2_pad_size(b);
    return payload > UINT16_MAX ? payload : 0;
}

/* If 'b' is a BIG TCP packet over IPv6 (see bigtcp_frame_ipv6_big_len()),
 * inserts a Hop-by-Hop header with a jumbo payload option in front of its
 * first extension or upper-layer header, as Linux 6.x expects of BIG TCP
 * packets, and updates the layer offsets.  'b' must not be a tunnel packet.
 * Returns the number of bytes inserted, 0 or BIGTCP_JUMBO_HBH_LEN. */
size_t
bigtcp_frame_insert_jumbo(struct dp_packet *b)
{
    size_t payload = bigtcp_frame_ipv6_big_len(b);
    struct ovs_16aligned_ip6_hdr *ip6;
    struct jumbo_hbh *hbh;
    size_t l3_end;
    uint8_t nexthdr;

    if (!payload) {
        return 0;
    }

    ip6 = dp_packet_l3(b);
    nexthdr = ip6->ip6_nxt;
    l3_end = b->l3_ofs + IPV6_HEADER_LEN;
    dp_packet_push_uninit(b, sizeof *hbh);
    memmove(dp_packet_data(b), (char *) dp_packet_data(b) + sizeof *hbh,
            l3_end);
    b->l4_ofs += sizeof *hbh;

    ip6 = dp_packet_l3(b);
    ip6->ip6_nxt = IPPROTO_HOPOPTS;
    hbh = dp_packet_at_assert(b, l3_end, sizeof *hbh);
    hbh->nexthdr = nexthdr;
    hbh->hdrlen = 0;
    hbh->opt_type = JUMBO_OPT_TYPE;
    hbh->opt_len = JUMBO_OPT_LEN;
    put_16aligned_be32(&hbh->jumbo_len, htonl(payload + sizeof *hbh));
    return sizeof *hbh;
}

/* Inserts a Hop-by-Hop header with a jumbo payload option behind the fixed
 * IPv6 header 'ip6', in a buffer of headers: moves the 'rest' bytes of
 * headers that follow 'ip6' (extension headers and TCP) 8 bytes on, so the
 * buffer must have room for that.  'payload' is the length of what follows
 * the IPv6 header, extension and TCP headers and TCP payload, without the
 * option.  For headers built apart from their payload (zero copy); see
 * bigtcp_frame_insert_jumbo() for a whole packet. */
void
bigtcp_frame_jumbo_hdr(struct ovs_16aligned_ip6_hdr *ip6, size_t rest,
                       uint32_t payload)
{
    struct jumbo_hbh *hbh = ALIGNED_CAST(struct jumbo_hbh *, ip6 + 1);

    memmove((char *) hbh + sizeof *hbh, hbh, rest);
    hbh->nexthdr = ip6->ip6_nxt;
    hbh->hdrlen = 0;
    hbh->opt_type = JUMBO_OPT_TYPE;
    hbh->opt_len = JUMBO_OPT_LEN;
    put_16aligned_be32(&hbh->jumbo_len, htonl(payload + sizeof *hbh));
    ip6->ip6_nxt = IPPROTO_HOPOPTS;
    ip6->ip6_plen = htons(0);
}

/* If the 'size' bytes at 'ip6' hold an IPv6 jumbogram (RFC 2675): a payload
 * length of 0 and a Hop-by-Hop header with a well-formed jumbo payload
 * option (4 bytes of data, at an offset of 4n+2 in the header), whose
 * length is more than 65535 and is what the 'size' bytes hold (a jumbogram
 * has no link-layer padding), returns that length (what follows the fixed
 * IPv6 header, the Hop-by-Hop header included).  Otherwise, returns 0. */
uint32_t
bigtcp_frame_jumbogram_len(const struct ovs_16aligned_ip6_hdr *ip6,
                           size_t size)
{
    const uint8_t *hbh = (const uint8_t *) (ip6 + 1);
    size_t hbh_len, ofs;

    if (size < IPV6_HEADER_LEN + BIGTCP_JUMBO_HBH_LEN || ip6->ip6_plen
        || ip6->ip6_nxt != IPPROTO_HOPOPTS) {
        return 0;
    }
    hbh_len = (hbh[1] + 1) * 8;
    if (hbh_len > size - IPV6_HEADER_LEN) {
        return 0;
    }

    ofs = 2;
    while (ofs < hbh_len) {
        uint8_t type = hbh[ofs];
        uint8_t len;

        if (type == 0) {
            ofs++;              /* Pad1. */
            continue;
        }
        if (ofs + 2 > hbh_len || ofs + 2 + hbh[ofs + 1] > hbh_len) {
            return 0;
        }
        len = hbh[ofs + 1];
        if (type == JUMBO_OPT_TYPE) {
            ovs_be32 value;
            uint32_t jumbo_len;

            if (len != JUMBO_OPT_LEN || (ofs & 3) != 2) {
                return 0;
            }
            memcpy(&value, &hbh[ofs + 2], sizeof value);
            jumbo_len = ntohl(value);
            return (jumbo_len > UINT16_MAX
                    && jumbo_len == size - IPV6_HEADER_LEN ? jumbo_len : 0);
        }
        ofs += 2 + len;
    }
    return 0;
}

/* Returns 0 if an IP length of 'ip_len' bytes (0: none) describes an IP
 * packet followed by padding in 'l3_len' bytes, with no more padding than
 * flow extraction accepts (65535 bytes), otherwise EMSGSIZE. */
static int
ip_len_describes(size_t ip_len, size_t l3_len)
{
    return (ip_len && ip_len <= l3_len && l3_len - ip_len <= UINT16_MAX
            ? 0 : EMSGSIZE);
}

/* Checks the Ethernet frame in 'b', a packet that is not a TSO packet,
 * for an IP length of 0 (an IPv4 total length or IPv6 payload length)
 * behind its Ethernet header and VLAN tags while more than 65535 bytes
 * follow them.  Such a frame can only be an IPv6 jumbogram (RFC 2675):
 * stores its length, fixed header included, in '*jumbo_len' and returns 0
 * if it is a well-formed one, and returns EMSGSIZE otherwise (the BIG TCP
 * framing of a TSO packet on a packet that is not one).  A frame whose IP
 * header gives its length gets 0 in '*jumbo_len'; it returns 0 if that
 * length describes the frame, with at most 65535 bytes of padding after
 * it, as flow extraction requires, and EMSGSIZE otherwise (a length cut to
 * 16 bits, as a tunnel header pushed onto a jumbogram would have).  A
 * frame that is not IP, or at most 65535 bytes behind its link-layer
 * headers, returns 0. */
int
bigtcp_frame_check_jumbogram(const struct dp_packet *b, size_t *jumbo_len)
{
    ovs_be16 eth_type;
    size_t l3_ofs, l3_len;

    *jumbo_len = 0;
    l3_ofs = l3_offset(b, &eth_type);
    l3_len = l3_ofs ? dp_packet_size(b) - l3_ofs : 0;
    if (l3_len <= UINT16_MAX) {
        return 0;
    }

    if (eth_type == htons(ETH_TYPE_IP)) {
        const struct ip_header *ip = dp_packet_at_assert(b, l3_ofs,
                                                         IP_HEADER_LEN);

        return ip_len_describes(ntohs(ip->ip_tot_len), l3_len);
    } else if (eth_type == htons(ETH_TYPE_IPV6)) {
        const struct ovs_16aligned_ip6_hdr *ip6;
        uint32_t len;

        ip6 = dp_packet_at_assert(b, l3_ofs, IPV6_HEADER_LEN);
        if (ip6->ip6_plen) {
            return ip_len_describes(IPV6_HEADER_LEN + ntohs(ip6->ip6_plen),
                                    l3_len);
        }
        len = bigtcp_frame_jumbogram_len(ip6, l3_len);
        if (!len) {
            return EMSGSIZE;
        }
        *jumbo_len = IPV6_HEADER_LEN + len;
    }
    return 0;
}
