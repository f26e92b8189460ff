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
#include "bigtcp-tnl.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip6.h>

#include "coverage.h"
#include "dp-packet.h"
#include "netdev.h"
#include "openvswitch/vlog.h"
#include "packets.h"

VLOG_DEFINE_THIS_MODULE(bigtcp_tnl);

/* A tunnel packet dropped before decapsulation for an outer length that
 * lies. */
COVERAGE_DEFINE(bigtcp_tnl_bad_len);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static int
bad_len(const struct netdev *netdev, const char *field, uint32_t value,
        uint32_t len, bool tso)
{
    COVERAGE_INC(bigtcp_tnl_bad_len);
    VLOG_WARN_RL(&rl, "%s: dropped tunnel packet: outer %s length %"PRIu32
                 " on %s of %"PRIu32" bytes", netdev_get_name(netdev),
                 field, value, tso ? "a TSO packet" : "a packet that is "
                 "not TSO", len);
    return EINVAL;
}

/* Returns true if 'p' is a VXLAN or Geneve TSO packet whose outer lengths do
 * not fit in 16 bits: its outer IP packet (IPv4) or payload (IPv6) is over
 * 65535 bytes. */
bool
bigtcp_tnl_is_big(const struct dp_packet *p)
{
    const struct ip_header *ip = dp_packet_l3(p);
    uint32_t l3_len;

    if (!ip || !dp_packet_get_tso_segsz(p)
        || !(dp_packet_tunnel_vxlan(p) || dp_packet_tunnel_geneve(p))) {
        return false;
    }
    l3_len = dp_packet_size(p) - ((const char *) ip
                                  - (const char *) dp_packet_data(p));
    return (IP_VER(ip->ip_ihl_ver) == 4 ? l3_len
            : l3_len - IPV6_HEADER_LEN) > UINT16_MAX;
}

/* Returns true if a length field of 'field' is right for 'len' bytes in a
 * packet that is a TSO packet if 'tso'.  Only a TSO packet over 64 KiB may
 * say 0; a TSO packet, and any packet over 64 KiB, must say its real length
 * otherwise; the length field of any other packet is left to the usual
 * checks (a packet may be padded). */
static bool
len_ok(uint16_t field, uint32_t len, bool tso)
{
    if (tso) {
        return bigtcp_tnl_len_ok(field, len);
    }
    return field && len <= UINT16_MAX;
}

/* Checks the outer IP and UDP lengths of packet 'p', which tunnel port
 * 'netdev' is about to decapsulate, against BIG TCP framing (see
 * bigtcp-tnl.h): a length of 0 only on a TSO packet whose outer length
 * does not fit in 16 bits, the real length on a TSO packet or on a packet
 * over 64 KiB.  Returns 0 if they are right or 'p' has no outer IP header
 * (decapsulation refuses it), otherwise EINVAL, after counting and logging:
 * the caller drops 'p'. */
int
bigtcp_tnl_check_pop(const struct netdev *netdev, const struct dp_packet *p)
{
    const char *data = dp_packet_data(p);
    const struct ip_header *ip = dp_packet_l3(p);
    bool tso = dp_packet_get_tso_segsz(p) != 0;
    uint32_t l3_len;
    uint8_t proto;

    if (!ip || (const char *) ip > data + dp_packet_size(p) - IP_HEADER_LEN) {
        return 0;
    }
    l3_len = dp_packet_size(p) - ((const char *) ip - data);
    if (IP_VER(ip->ip_ihl_ver) == 4) {
        uint16_t tot_len = ntohs(ip->ip_tot_len);

        if (!len_ok(tot_len, l3_len, tso)
            && (tso || !tot_len || l3_len > UINT16_MAX)) {
            return bad_len(netdev, "IPv4 total", tot_len, l3_len, tso);
        }
        proto = ip->ip_proto;
    } else if (IP_VER(ip->ip_ihl_ver) == 6
               && l3_len >= IPV6_HEADER_LEN) {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_l3(p);
        uint16_t plen = ntohs(ip6->ip6_plen);

        if (!len_ok(plen, l3_len - IPV6_HEADER_LEN, tso)
            && (tso || !plen || l3_len - IPV6_HEADER_LEN > UINT16_MAX)) {
            return bad_len(netdev, "IPv6 payload", plen,
                           l3_len - IPV6_HEADER_LEN, tso);
        }
        proto = ip6->ip6_nxt;
    } else {
        return 0;
    }

    if (proto == IPPROTO_UDP && dp_packet_l4(p)
        && dp_packet_l4_size(p) >= UDP_HEADER_LEN) {
        const struct udp_header *udp = dp_packet_l4(p);
        uint32_t l4_len = dp_packet_size(p) - ((const char *) udp - data);
        uint16_t udp_len = ntohs(udp->udp_len);

        if (!len_ok(udp_len, l4_len, tso)
            && (tso || !udp_len || l4_len > UINT16_MAX)) {
            return bad_len(netdev, "UDP", udp_len, l4_len, tso);
        }
    }
    return 0;
}
