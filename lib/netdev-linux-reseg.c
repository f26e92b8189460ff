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
#include "netdev-linux-reseg.h"

#include <errno.h>
#include <linux/virtio_net.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "bigtcp-framing.h"
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "packets.h"
#include "util.h"

/* Where the packet headers of an output start, after its virtio-net
 * header, in its share of 'hdrs'.  Keeps the headers 8-byte aligned. */
#define PKT_HDR_OFS ROUND_UP(sizeof(struct virtio_net_hdr), 8)

COVERAGE_DEFINE(netdev_linux_reseg_zerocopy);

/* Prepares in 'r' the outputs of TSO packet 'p' cut as 'plan' says (see
 * netdev_tso_limits_zerocopy_plan()), each as NETDEV_LINUX_RESEG_IOVS
 * buffers for writev() or sendmsg(): a virtio-net header, the output's
 * packet headers with a complete IPv4 header checksum and the TCP checksum
 * left for the kernel (VIRTIO_NET_HDR_F_NEEDS_CSUM, the pseudo-header sum in
 * the checksum field), and its slice of the payload of 'p', which must stay
 * as it is until the buffers are sent.  An IPv6 output whose payload length
 * does not fit in 16 bits gets BIG TCP's jumbo option in its headers, as
 * Linux expects (see bigtcp-framing.h).
 *
 * Returns 0 if successful, EMSGSIZE if the outputs' segments (headers plus
 * MSS) would not fit the port's MTU 'mtu' (the check netdev-linux makes on
 * every TSO packet).  The caller must call netdev_linux_reseg_destroy() in
 * both cases. */
int
netdev_linux_reseg_init(struct netdev_linux_reseg *r,
                        const struct dp_packet_reseg_plan *plan,
                        const struct dp_packet *p, int mtu)
{
    size_t stride = PKT_HDR_OFS + ROUND_UP(plan->hdr_len
                                           + BIGTCP_JUMBO_HBH_LEN, 8);
    int max_packet_len = mtu + ETH_HEADER_LEN + VLAN_HEADER_LEN;

    r->plan = *plan;
    r->iov = NULL;
    r->hdrs = NULL;
    if (plan->hdr_len + plan->mss > max_packet_len) {
        return EMSGSIZE;
    }

    r->iov = xmalloc(plan->n_out * NETDEV_LINUX_RESEG_IOVS * sizeof *r->iov);
    r->hdrs = xmalloc_cacheline(plan->n_out * stride);
    for (uint32_t k = 0; k < plan->n_out; k++) {
        struct virtio_net_hdr *vnet;
        struct iovec *iov = netdev_linux_reseg_iov(r, k);
        char *buf = r->hdrs + k * stride;
        size_t hdr_len = plan->hdr_len;
        size_t l4_ofs = plan->l4_ofs;
        struct tcp_header *tcp;
        struct ip_header *ip;
        uint32_t ofs, len, l4_len, partial;
        uint16_t segsz;
        char *hdr;

        vnet = ALIGNED_CAST(struct virtio_net_hdr *, buf);
        hdr = buf + PKT_HDR_OFS;
        dp_packet_reseg_headers(plan, p, k, hdr, &ofs, &len, &segsz);

        ip = ALIGNED_CAST(struct ip_header *, hdr + plan->l3_ofs);
        l4_len = plan->hdr_len - plan->l4_ofs + len;
        if (IP_VER(ip->ip_ihl_ver) == 4) {
            ip->ip_csum = csum(ip, IP_IHL(ip->ip_ihl_ver) * 4);
            partial = packet_csum_pseudoheader_l4len(ip, l4_len);
        } else {
            struct ovs_16aligned_ip6_hdr *ip6;
            uint32_t payload;

            ip6 = ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *, ip);
            partial = packet_csum_pseudoheader6_l4len(ip6, IPPROTO_TCP,
                                                      l4_len);
            payload = hdr_len - plan->l3_ofs - IPV6_HEADER_LEN + len;
            if (payload > UINT16_MAX) {
                /* A BIG TCP packet: Linux expects the jumbo option. */
                bigtcp_ipv6_jumbo_hdr(ip6, (hdr_len - plan->l3_ofs
                                            - IPV6_HEADER_LEN), payload);
                hdr_len += BIGTCP_JUMBO_HBH_LEN;
                l4_ofs += BIGTCP_JUMBO_HBH_LEN;
            }
        }
        tcp = ALIGNED_CAST(struct tcp_header *, hdr + l4_ofs);
        tcp->tcp_csum = ~csum_finish(partial);

        vnet->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        vnet->csum_start = (OVS_FORCE __virtio16) l4_ofs;
        vnet->csum_offset = (OVS_FORCE __virtio16)
                            offsetof(struct tcp_header, tcp_csum);
        if (segsz) {
            vnet->gso_type = (IP_VER(ip->ip_ihl_ver) == 4
                              ? VIRTIO_NET_HDR_GSO_TCPV4
                              : VIRTIO_NET_HDR_GSO_TCPV6);
            vnet->hdr_len = (OVS_FORCE __virtio16) hdr_len;
            vnet->gso_size = (OVS_FORCE __virtio16) segsz;
        } else {
            vnet->gso_type = VIRTIO_NET_HDR_GSO_NONE;
            vnet->hdr_len = (OVS_FORCE __virtio16) 0;
            vnet->gso_size = (OVS_FORCE __virtio16) 0;
        }

        iov[0].iov_base = vnet;
        iov[0].iov_len = sizeof *vnet;
        iov[1].iov_base = hdr;
        iov[1].iov_len = hdr_len;
        iov[2].iov_base = CONST_CAST(char *, dp_packet_data(p)) + ofs;
        iov[2].iov_len = len;
    }
    COVERAGE_INC(netdev_linux_reseg_zerocopy);
    return 0;
}

void
netdev_linux_reseg_destroy(struct netdev_linux_reseg *r)
{
    free(r->iov);
    free_cacheline(r->hdrs);
}
