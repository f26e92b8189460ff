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
#include "netdev-linux-tnl.h"

#include <errno.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <string.h>
#include <sys/ioctl.h>

#include "bigtcp-tnl.h"
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dp-packet-reseg.h"
#include "netdev.h"
#include "netdev-linux.h"
#include "netdev-linux-tnl-probe.h"
#include "netdev-tso-limits.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "unaligned.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux_tnl);

/* Linux 6.17's uAPI, for building against older headers. */
#ifndef TUN_F_UDP_TUNNEL_GSO
#define TUN_F_UDP_TUNNEL_GSO 0x080
#define TUN_F_UDP_TUNNEL_GSO_CSUM 0x100
#endif
#ifndef VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4
#define VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4 0x20
#define VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV6 0x40
#define VIRTIO_NET_HDR_F_UDP_TUNNEL_CSUM 8
#endif
#define GSO_UDP_TUNNEL (VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4 \
                        | VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV6)

/* What follows struct virtio_net_hdr in a tunnel tap's header. */
struct tnl_hdr_ext {
    uint8_t unused[10];         /* num_buffers and the hash report. */
    uint8_t outer_th_offset[2]; /* Little endian. */
    uint8_t inner_nh_offset[2]; /* Little endian. */
};
BUILD_ASSERT_DECL(sizeof(struct virtio_net_hdr) + sizeof(struct tnl_hdr_ext)
                  == NETDEV_LINUX_TNL_VNET_HDR_LEN);

COVERAGE_DEFINE(netdev_linux_tnl_rx_tso);
COVERAGE_DEFINE(netdev_linux_tnl_rx_bad);
COVERAGE_DEFINE(netdev_linux_tnl_tx_tso);
COVERAGE_DEFINE(netdev_linux_tnl_rx_big);
COVERAGE_DEFINE(netdev_linux_tnl_tx_big);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static uint16_t
get_le16(const uint8_t p[2])
{
    return p[0] | (p[1] << 8);
}

static void
put_le16(uint8_t p[2], uint16_t x)
{
    p[0] = x;
    p[1] = x >> 8;
}

/* Asks the kernel for UDP tunnel GSO on tap 'tap_fd', with the TUNSETOFFLOAD
 * flags 'oflags' that the tap gets anyway.  Returns true if the kernel took
 * it: the tap then reads and writes NETDEV_LINUX_TNL_VNET_HDR_LEN-byte
 * virtio-net headers and has the offloads in 'oflags'.  Otherwise, returns
 * false and leaves the tap's header as it was (the caller sets 'oflags'). */
bool
netdev_linux_tnl_tap_enable(int tap_fd, unsigned int oflags)
{
    int len = NETDEV_LINUX_TNL_VNET_HDR_LEN;

    if (ioctl(tap_fd, TUNSETVNETHDRSZ, &len)) {
        return false;
    }
    if (ioctl(tap_fd, TUNSETOFFLOAD, oflags | TUN_F_UDP_TUNNEL_GSO
                                     | TUN_F_UDP_TUNNEL_GSO_CSUM)) {
        len = sizeof(struct virtio_net_hdr);
        ioctl(tap_fd, TUNSETVNETHDRSZ, &len);
        return false;
    }
    return true;
}

static int
drop(const struct netdev *netdev, const char *why)
{
    COVERAGE_INC(netdev_linux_tnl_rx_bad);
    VLOG_WARN_RL(&rl, "%s: Dropped packet: tunnel GSO header %s",
                 netdev_get_name(netdev), why);
    return EINVAL;
}

/* Returns true if the inner IP header of tunnel packet 'b', at 'inner_nh',
 * is one of version 'ver' whose TCP header is at 'inner_th' (no IPv6
 * extension headers) and whose length covers the rest of the packet, as
 * segmentation expects it: 0 where it does not fit in 16 bits (BIG TCP, see
 * bigtcp-tnl.h). */
static bool
inner_ip_matches(const struct dp_packet *b, uint16_t inner_nh,
                 uint16_t inner_th, int ver)
{
    uint32_t len = dp_packet_size(b) - inner_nh;

    if (ver == 4) {
        const struct ip_header *ip = dp_packet_at_assert(b, inner_nh,
                                                         IP_HEADER_LEN);

        return (IP_VER(ip->ip_ihl_ver) == 4
                && IP_IHL(ip->ip_ihl_ver) * 4 == inner_th - inner_nh
                && ip->ip_proto == IPPROTO_TCP
                && bigtcp_tnl_len_ok(ntohs(ip->ip_tot_len), len));
    } else {
        const struct ovs_16aligned_ip6_hdr *ip6 = dp_packet_at_assert(
            b, inner_nh, IPV6_HEADER_LEN);

        return (IP_VER(*(const uint8_t *) ip6) == 6
                && inner_th - inner_nh == IPV6_HEADER_LEN
                && ip6->ip6_nxt == IPPROTO_TCP
                && bigtcp_tnl_len_ok(ntohs(ip6->ip6_plen),
                                     len - IPV6_HEADER_LEN));
    }
}

/* Checks the virtio-net header 'vnet' of a received TCP GSO packet in a UDP
 * tunnel, 'size' bytes with its outer UDP and inner IP headers at 'outer_th'
 * and 'inner_nh': a GSO type of both a tunnel and TCP, an inner TCP checksum
 * to complete, a segment size, and even offsets inside the packet.  Returns 0
 * if it is good, otherwise drop()'s positive errno value. */
static int
check_tunnel_vnet(const struct netdev *netdev,
                  const struct virtio_net_hdr *vnet, uint32_t size,
                  uint16_t outer_th, uint16_t inner_nh)
{
    uint8_t tnl_type = vnet->gso_type & GSO_UDP_TUNNEL;
    uint8_t inner_type = vnet->gso_type & ~(GSO_UDP_TUNNEL
                                            | VIRTIO_NET_HDR_GSO_ECN);
    uint16_t inner_th = (OVS_FORCE uint16_t) vnet->csum_start;
    int inner_ver = inner_type == VIRTIO_NET_HDR_GSO_TCPV4 ? 4 : 6;

    if (tnl_type == GSO_UDP_TUNNEL
        || (inner_type != VIRTIO_NET_HDR_GSO_TCPV4
            && inner_type != VIRTIO_NET_HDR_GSO_TCPV6)) {
        return drop(netdev, "of an unsupported GSO type");
    }
    if (!(vnet->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM)
        || (OVS_FORCE uint16_t) vnet->csum_offset
           != offsetof(struct tcp_header, tcp_csum)
        || !vnet->gso_size) {
        return drop(netdev, "without an inner TCP checksum or segment size");
    }
    if (outer_th < ETH_HEADER_LEN + IP_HEADER_LEN
        || inner_nh < outer_th + UDP_HEADER_LEN + ETH_HEADER_LEN
        || inner_th < inner_nh + (inner_ver == 4 ? IP_HEADER_LEN
                                                 : IPV6_HEADER_LEN)
        || inner_th + TCP_HEADER_LEN > size) {
        return drop(netdev, "offsets outside the packet");
    }
    if ((outer_th | inner_nh | inner_th) & 1) {
        /* Headers are read in 16-bit words; Ethernet, IP, UDP, VXLAN and
         * Geneve headers all have even lengths. */
        return drop(netdev, "offsets that are odd");
    }
    return 0;
}

/* Marks received packet 'b' as VXLAN or Geneve by its tunnel header, which
 * sits between its outer UDP header at 'outer_th' and its inner Ethernet
 * header (its inner IP header is at 'inner_nh'), and returns true; returns
 * false if the header is neither.  Not by the UDP port: the kernel's
 * tunnel devices can use any (Linux's VXLAN devices used 8472 by default),
 * whatever ports Open vSwitch's own tunnel ports use.
 *
 * The two cannot be mistaken.  A VXLAN header is 8 bytes with the I flag
 * (bit 3 of its first byte) set, and not VXLAN-GPE's P flag (bit 2: a GPE
 * packet need not carry Ethernet).  A Geneve header is 8 bytes plus 4 per
 * unit of its option length (the low 6 bits of the first byte, whose top 2
 * bits are the version, 0) and says it carries Ethernet: one of 8 bytes
 * has a first byte of 0. */
static bool
set_udp_tunnel_kind(struct dp_packet *b, uint16_t outer_th,
                    uint16_t inner_nh)
{
    uint16_t ofs = outer_th + UDP_HEADER_LEN;
    uint16_t len = inner_nh - ETH_HEADER_LEN - ofs;
    const uint8_t *h = dp_packet_at(b, ofs, 4);

    if (!h || len < 8) {
        return false;
    }
    if (len == sizeof(struct vxlanhdr) && h[0] & (VXLAN_FLAGS >> 24)
        && !(h[0] & (VXLAN_HF_GPE >> 24))) {
        dp_packet_tunnel_set_vxlan(b);
        return true;
    }
    if (h[0] >> 6 == 0 && len == 8 + (h[0] & 0x3f) * 4
        && (h[2] << 8 | h[3]) == ETH_TYPE_TEB) {
        dp_packet_tunnel_set_geneve(b);
        return true;
    }
    return false;
}

/* Sets up received packet 'b', behind whose 'vnet' header the kernel put a
 * TCP GSO packet in a UDP tunnel whose outer UDP and inner IP headers are at
 * 'outer_th' and 'inner_nh', as a tunnel TSO packet of Open vSwitch: outer
 * offsets from its headers, inner offsets from the header, the inner TCP
 * checksum partial, the outer UDP checksum partial if the tunnel has
 * checksums (its field holds the pseudo-header sum, as Linux leaves it for
 * the segments) and the tunnel kind from its header.  A packet of one
 * segment gets its inner TCP checksum completed instead.  Returns 0 if
 * successful, otherwise a positive errno value: the packet is to be
 * dropped. */
static int
parse_tunnel_gso(struct dp_packet *b, const struct netdev *netdev,
                 const struct virtio_net_hdr *vnet,
                 uint16_t outer_th, uint16_t inner_nh)
{
    uint8_t tnl_type = vnet->gso_type & GSO_UDP_TUNNEL;
    uint8_t inner_type = vnet->gso_type & ~(GSO_UDP_TUNNEL
                                            | VIRTIO_NET_HDR_GSO_ECN);
    uint16_t inner_th = (OVS_FORCE uint16_t) vnet->csum_start;
    uint16_t gso_size = (OVS_FORCE uint16_t) vnet->gso_size;
    int outer_ver = tnl_type == VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4 ? 4 : 6;
    int inner_ver = inner_type == VIRTIO_NET_HDR_GSO_TCPV4 ? 4 : 6;
    const struct udp_header *udp;
    const struct tcp_header *tcp;
    ovs_be16 dl_type;
    int error;

    error = check_tunnel_vnet(netdev, vnet, dp_packet_size(b), outer_th,
                              inner_nh);
    if (error) {
        return error;
    }

    /* Flow extraction accepts outer lengths of 0 on a TSO packet over
     * 64 KiB only (see bigtcp-tnl.h). */
    dp_packet_set_tso_segsz(b, gso_size);
    parse_tcp_flags(b, &dl_type, NULL, NULL);
    udp = dp_packet_l4(b);
    if (dl_type != htons(outer_ver == 4 ? ETH_TYPE_IP : ETH_TYPE_IPV6)
        || !udp || !dp_packet_l4_proto_udp(b)
        || b->l4_ofs != outer_th
        || IP_VER(*(const uint8_t *) dp_packet_l3(b)) != outer_ver) {
        /* (Flow extraction goes by the Ethertype, decapsulation by the IP
         * header's version: they must agree.) */
        return drop(netdev, "that does not match the outer headers");
    }

    tcp = dp_packet_at_assert(b, inner_th, TCP_HEADER_LEN);
    if (dp_packet_l2_pad_size(b)
        || !bigtcp_tnl_len_ok(ntohs(udp->udp_len),
                              dp_packet_size(b) - outer_th)
        || TCP_OFFSET(tcp->tcp_ctl) * 4 < TCP_HEADER_LEN
        || inner_th + TCP_OFFSET(tcp->tcp_ctl) * 4 >= dp_packet_size(b)
        || !inner_ip_matches(b, inner_nh, inner_th, inner_ver)) {
        return drop(netdev, "that does not match the packet's headers");
    }

    if (!set_udp_tunnel_kind(b, outer_th, inner_nh)) {
        return drop(netdev, "with a tunnel header neither VXLAN's nor "
                    "Geneve's");
    }

    b->inner_l3_ofs = inner_nh;
    b->inner_l4_ofs = inner_th;
    b->offloads |= DP_PACKET_OL_INNER_L4_PROTO_TCP;
    dp_packet_inner_l4_checksum_set_partial(b);
    if (vnet->flags & VIRTIO_NET_HDR_F_UDP_TUNNEL_CSUM) {
        dp_packet_l4_checksum_set_partial(b);
    } else if (!udp->udp_csum) {
        dp_packet_l4_checksum_set_good(b);
    }
    if (dp_packet_get_inner_tcp_payload_length(b) > gso_size) {
        COVERAGE_INC(netdev_linux_tnl_rx_tso);
        if (dp_packet_size(b) - outer_th > UINT16_MAX) {
            COVERAGE_INC(netdev_linux_tnl_rx_big);
        }
    } else if (!udp->udp_len || bigtcp_tnl_is_big(b)) {
        /* Over 64 KiB, a single segment is no packet Linux makes, and one
         * that is not TSO must say its lengths. */
        return drop(netdev, "with a length of 0 on a single segment");
    } else {
        dp_packet_set_tso_segsz(b, 0);
        /* A single segment: a tunnel port's decapsulation keeps no
         * offloads of a packet that is not TSO (see netdev_pop_header()),
         * so its TCP checksum is completed here. */
        packet_tcp_complete_csum(b, true);
    }
    return 0;
}

/* Parses the NETDEV_LINUX_TNL_VNET_HDR_LEN-byte virtio-net header in front
 * of packet 'b', received on tunnel tap 'netdev', and removes it.  A TCP
 * GSO packet in a VXLAN or Geneve tunnel becomes a tunnel TSO packet; any
 * other packet is parsed as one behind a plain virtio-net header (see
 * netdev_linux_parse_vnet_hdr()).  Returns 0 if successful, otherwise a
 * positive errno value: the packet is to be dropped. */
int
netdev_linux_tnl_parse(struct dp_packet *b, const struct netdev *netdev)
{
    struct virtio_net_hdr vnet;
    struct tnl_hdr_ext ext;

    if (dp_packet_size(b) < NETDEV_LINUX_TNL_VNET_HDR_LEN + ETH_HEADER_LEN) {
        return drop(netdev, "on a runt");
    }
    memcpy(&vnet, dp_packet_data(b), sizeof vnet);
    memcpy(&ext, (char *) dp_packet_data(b) + sizeof vnet, sizeof ext);

    if (!(vnet.gso_type & GSO_UDP_TUNNEL)) {
        /* Keep the plain header only, right in front of the frame. */
        dp_packet_pull(b, sizeof ext);
        memcpy(dp_packet_data(b), &vnet, sizeof vnet);
        return netdev_linux_parse_vnet_hdr(b);
    }

    dp_packet_pull(b, NETDEV_LINUX_TNL_VNET_HDR_LEN);
    return parse_tunnel_gso(b, netdev, &vnet, get_le16(ext.outer_th_offset),
                            get_le16(ext.inner_nh_offset));
}

/* Completes the outer UDP checksum of non-TSO tunnel packet 'b' if it is
 * left for the device: a tunnel tap takes the outer checksum of TSO packets
 * only (the virtio-net header has one checksum offset).  Called before the
 * virtio-net header is built. */
void
netdev_linux_tnl_prepare(struct dp_packet *b)
{
    if (!dp_packet_tunnel(b) || dp_packet_get_tso_segsz(b)
        || !dp_packet_l4_checksum_partial(b)) {
        return;
    }
    if (!packet_udp_tunnel_csum(b)) {
        if (dp_packet_inner_l4_checksum_partial(b)) {
            if (dp_packet_inner_l4_proto_tcp(b)) {
                packet_tcp_complete_csum(b, true);
            } else if (dp_packet_inner_l4_proto_udp(b)) {
                packet_udp_complete_csum(b, true);
            }
        }
        packet_udp_complete_csum(b, false);
    }
}

/* The pseudo-header sum of the outer IPv4 or IPv6 header 'l3' of a UDP
 * tunnel packet whose UDP header and payload are 'udp_len' bytes: 32 bits
 * of length, as Linux sums it, since a packet over 64 KiB has a UDP length
 * of 0 (see bigtcp-tnl.h). */
static uint32_t
outer_pseudo_sum(const void *l3, uint32_t udp_len)
{
    return (IP_VER(*(const uint8_t *) l3) == 4
            ? packet_csum_pseudoheader_l4len(l3, udp_len)
            : packet_csum_pseudoheader6_l4len(l3, IPPROTO_UDP, udp_len));
}

/* Makes 'vnet' and 'ext' the header of a TSO packet in a UDP tunnel whose
 * outer IP header is 'outer_l3', with the outer UDP header 'udp' and the
 * inner IP header at 'outer_th' and 'inner_nh' from the frame's start, and
 * 'udp_len' bytes from the UDP header on ('vnet' has the inner GSO type).
 * If 'udp_csum', the kernel is to fill each segment's outer UDP checksum:
 * the field gets the pseudo-header sum. */
static void
set_tunnel_gso(struct virtio_net_hdr *vnet, struct tnl_hdr_ext *ext,
               const void *outer_l3, struct udp_header *udp,
               size_t outer_th, size_t inner_nh, uint32_t udp_len,
               bool udp_csum)
{
    vnet->gso_type |= (IP_VER(*(const uint8_t *) outer_l3) == 4
                       ? VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4
                       : VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV6);
    put_le16(ext->outer_th_offset, outer_th);
    put_le16(ext->inner_nh_offset, inner_nh);
    if (udp_csum) {
        udp->udp_csum = ~csum_finish(outer_pseudo_sum(outer_l3, udp_len));
        vnet->flags |= VIRTIO_NET_HDR_F_UDP_TUNNEL_CSUM;
    }
}

/* Builds into 'vnet_hdr' the NETDEV_LINUX_TNL_VNET_HDR_LEN-byte virtio-net
 * header of the TCP GSO packet 'frame' in a UDP tunnel: the outer IP
 * header at 'outer_l3', the outer UDP header at 'outer_th', the inner IPv4
 * or IPv6 header at 'inner_nh', the inner TCP header of 'tcp_len' bytes at
 * 'inner_th' (its checksum field holds the inner pseudo-header sum), 'len'
 * bytes in all, segment size 'gso_size'.  If 'udp_csum', the kernel is to
 * fill each segment's outer UDP checksum: the field gets the outer
 * pseudo-header sum. */
void
netdev_linux_tnl_gso_hdr(void *vnet_hdr, void *frame, size_t len,
                         size_t outer_l3, size_t outer_th, size_t inner_nh,
                         size_t inner_th, size_t tcp_len, uint16_t gso_size,
                         bool udp_csum)
{
    struct virtio_net_hdr *vnet = vnet_hdr;
    struct tnl_hdr_ext *ext = (struct tnl_hdr_ext *) (vnet + 1);
    const uint8_t *inner_ip = (const uint8_t *) frame + inner_nh;

    memset(vnet, 0, NETDEV_LINUX_TNL_VNET_HDR_LEN);
    vnet->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    vnet->csum_start = (OVS_FORCE __virtio16) inner_th;
    vnet->csum_offset = (OVS_FORCE __virtio16)
                        offsetof(struct tcp_header, tcp_csum);
    vnet->gso_type = (IP_VER(*inner_ip) == 4 ? VIRTIO_NET_HDR_GSO_TCPV4
                                             : VIRTIO_NET_HDR_GSO_TCPV6);
    vnet->hdr_len = (OVS_FORCE __virtio16) (inner_th + tcp_len);
    vnet->gso_size = (OVS_FORCE __virtio16) gso_size;
    set_tunnel_gso(vnet, ext, (char *) frame + outer_l3,
                   ALIGNED_CAST(struct udp_header *,
                                (char *) frame + outer_th),
                   outer_th, inner_nh, len - outer_th, udp_csum);
}

/* Pushes onto packet 'b', for a tunnel tap, what follows virtio-net header
 * 'vnet' (built for 'b', not yet pushed): for a VXLAN or Geneve TSO packet
 * the tunnel offsets, with the tunnel's GSO type and checksum flag added to
 * 'vnet' and the outer UDP checksum field set to the pseudo-header sum if
 * the tunnel has checksums; zeros for any other packet. */
void
netdev_linux_tnl_push(struct dp_packet *b, void *vnet_)
{
    struct virtio_net_hdr *vnet = vnet_;
    struct tnl_hdr_ext ext;

    memset(&ext, 0, sizeof ext);
    if (dp_packet_get_tso_segsz(b)
        && (dp_packet_tunnel_geneve(b) || dp_packet_tunnel_vxlan(b))) {
        struct udp_header *udp = dp_packet_l4(b);
        const char *data = dp_packet_data(b);

        set_tunnel_gso(vnet, &ext, dp_packet_l3(b), udp,
                       (char *) udp - data,
                       (char *) dp_packet_inner_l3(b) - data,
                       (char *) dp_packet_tail(b) - (char *) udp,
                       udp->udp_csum && !dp_packet_l4_checksum_good(b));
        COVERAGE_INC(netdev_linux_tnl_tx_tso);
    }
    dp_packet_push(b, &ext, sizeof ext);
}

/* Completes the headers 'hdr' of output 'k' of tunnel 'plan' (UDP tunnel,
 * headers written by dp_packet_reseg_headers(), 'len' bytes of payload,
 * segment size 'segsz' or 0 for a single segment) for a tunnel tap, and
 * builds its NETDEV_LINUX_TNL_VNET_HDR_LEN-byte virtio-net header into
 * 'vnet_hdr':
 *
 *   - the IPv4 header checksums, outer and inner, complete;
 *   - the inner TCP checksum left for the kernel (VIRTIO_NET_HDR_F_NEEDS_CSUM
 *     at the inner TCP header, the pseudo-header sum in the field);
 *   - for a TSO output, the tunnel GSO type and offsets, and if the tunnel
 *     has UDP checksums the outer pseudo-header sum in the outer UDP
 *     checksum field and VIRTIO_NET_HDR_F_UDP_TUNNEL_CSUM, so that the
 *     kernel fills each segment's;
 *   - for a single segment, the outer UDP checksum complete, computed
 *     without reading the payload: the inner TCP header and payload, once
 *     their checksum is complete, add up to the complement of the inner
 *     pseudo-header sum, whatever the payload. */
void
netdev_linux_tnl_reseg_output(const struct dp_packet_reseg_plan *plan,
                              char *hdr, uint32_t len, uint16_t segsz,
                              void *vnet_hdr)
{
    struct virtio_net_hdr *vnet = vnet_hdr;
    struct ip_header *ip = ALIGNED_CAST(struct ip_header *,
                                        hdr + plan->l3_ofs);
    struct ip_header *oip = ALIGNED_CAST(struct ip_header *,
                                         hdr + plan->outer_l3_ofs);
    struct udp_header *udp = ALIGNED_CAST(struct udp_header *,
                                          hdr + plan->outer_l4_ofs);
    struct tcp_header *tcp = ALIGNED_CAST(struct tcp_header *,
                                          hdr + plan->l4_ofs);
    uint32_t l4_len = plan->hdr_len - plan->l4_ofs + len;
    bool inner_v4 = IP_VER(ip->ip_ihl_ver) == 4;
    bool outer_v4 = IP_VER(oip->ip_ihl_ver) == 4;
    uint32_t partial;

    ovs_assert(plan->tunnel == DP_PACKET_RESEG_TNL_UDP);
    if (outer_v4) {
        oip->ip_csum = 0;
        oip->ip_csum = csum(oip, IP_IHL(oip->ip_ihl_ver) * 4);
    }
    if (inner_v4) {
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, IP_IHL(ip->ip_ihl_ver) * 4);
        partial = packet_csum_pseudoheader_l4len(ip, l4_len);
    } else {
        partial = packet_csum_pseudoheader6_l4len(
            ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *, ip), IPPROTO_TCP,
            l4_len);
    }
    tcp->tcp_csum = ~csum_finish(partial);

    if (segsz) {
        /* Over 64 KiB, its outer lengths are 0 (dp_packet_reseg_headers()
         * writes them so); the pseudo-header sum takes the real one. */
        if (plan->hdr_len - plan->outer_l4_ofs + len > UINT16_MAX) {
            COVERAGE_INC(netdev_linux_tnl_tx_big);
        }
        netdev_linux_tnl_gso_hdr(vnet, hdr, plan->hdr_len + len,
                                 plan->outer_l3_ofs, plan->outer_l4_ofs,
                                 plan->l3_ofs, plan->l4_ofs,
                                 plan->hdr_len - plan->l4_ofs, segsz,
                                 udp->udp_csum != 0);
        COVERAGE_INC(netdev_linux_tnl_tx_tso);
        return;
    }

    memset(vnet, 0, NETDEV_LINUX_TNL_VNET_HDR_LEN);
    vnet->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    vnet->csum_start = (OVS_FORCE __virtio16) plan->l4_ofs;
    vnet->csum_offset = (OVS_FORCE __virtio16)
                        offsetof(struct tcp_header, tcp_csum);
    if (udp->udp_csum) {
        /* The inner part's contribution is the complement of the field that
         * holds the inner pseudo-header sum.  UDP, VXLAN, Geneve, Ethernet
         * and IP headers never make an odd length, so the inner TCP header
         * is on a 16-bit word boundary of the outer UDP checksum. */
        udp->udp_csum = 0;
        partial = csum_continue(outer_pseudo_sum(oip, plan->hdr_len
                                                 - plan->outer_l4_ofs + len),
                                udp,
                                plan->l4_ofs - plan->outer_l4_ofs);
        partial = csum_add16(partial, ~tcp->tcp_csum);
        udp->udp_csum = csum_finish(partial);
        if (!udp->udp_csum) {
            udp->udp_csum = htons(0xffff);
        }
    }
    COVERAGE_INC(netdev_linux_tnl_tx_tso);
}

/* Updates what tunnel tap 'netdev' takes of UDP tunnel TSO packets whose
 * outer IP packet is over 64 KiB: the kernel's answer (asked the first
 * time, see netdev-linux-tnl-probe.h) and the tap's GSO limits, which the
 * host's stack goes by for what it sends on as one packet:
 * 'gso_ipv4_max_size' for an outer IPv4 header (0 if the kernel did not
 * report it: the same as 'gso_max_size'), 'gso_max_size' for IPv6.  Called
 * whenever the tap's limits are read, so that a later answer takes
 * effect. */
void
netdev_linux_tnl_update_limits(struct netdev *netdev, uint32_t gso_max_size,
                               uint32_t gso_ipv4_max_size)
{
    netdev_tso_limits_set_tnl_big(netdev, 4, netdev_linux_tnl_probe(4),
                                  (gso_ipv4_max_size ? gso_ipv4_max_size
                                   : gso_max_size));
    netdev_tso_limits_set_tnl_big(netdev, 6, netdev_linux_tnl_probe(6),
                                  gso_max_size);
}
