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

/* libFuzzer target: userspace GRO (lib/netdev-gro.c) on a stream of
 * received frames, and the software segmentation of what it makes.
 *
 * Input: one byte that says how the port marked the frames' checksums
 * (bits 0-1: unknown, good, partial or bad L4 checksum; bit 2: good IPv4
 * header checksum) and whether coalesced packets keep their segments (bit
 * 3, see dp-packet-segs.h), one byte that picks gro-max-size (3000 + 2048
 * times it), then frames, each a 2-byte big-endian length and that many
 * bytes.
 * The frames go through netdev_gro_receive() in receives of up to 32, as
 * netdev_gro_rxq_recv() would take them.
 *
 * It asserts that GRO passes on no more packets than it received; that a
 * coalesced packet is a TSO packet no larger than gro-max-size whose IP
 * length says its size (or 0, BIG TCP, over 64 KiB), with a valid IPv4
 * header checksum, and whose payload makes at least two segments; that
 * each segments in software (dp_packet_gso()) into as many segments as
 * its payload and segment size say, with valid IPv4 header checksums and,
 * unless the port vouched for checksums that it did not check, valid TCP
 * checksums (kept segments' adjusted from their own); and that the counts
 * GRO reports add up: the segments in coalesced packets, and the packets
 * that merging saved. */

#include <config.h>

#include <string.h>

#include "csum.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "flow.h"
#include "netdev-gro.h"
#include "netdev-provider.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Asserts that segment 'seg', ready to be sent by a port without checksum
 * offloads, has a valid IPv4 header checksum and, if 'check_l4', a valid
 * TCP checksum. */
static void
check_segment(const struct dp_packet *seg, bool check_l4)
{
    const struct ip_header *ip = dp_packet_l3(seg);
    const char *l4 = dp_packet_l4(seg);
    uint32_t l4_len = dp_packet_size(seg) - seg->l4_ofs;
    uint32_t sum;

    if (IP_VER(ip->ip_ihl_ver) == 4) {
        ovs_assert(!csum(ip, IP_HEADER_LEN));
        sum = packet_csum_pseudoheader_l4len(ip, l4_len);
    } else {
        sum = packet_csum_pseudoheader6_l4len(dp_packet_l3(seg), IPPROTO_TCP,
                                              l4_len);
    }
    ovs_assert(!check_l4 || !csum_finish(csum_continue(sum, l4, l4_len)));
}

/* Checks coalesced packet 'p' (see above) and returns the number of
 * segments it makes.  'check_l4': whether the TCP checksums of the
 * segments it was made of were right. */
static size_t
check_coalesced(struct dp_packet *p, uint32_t max_size, bool check_l4)
{
    const struct eth_header *eth = dp_packet_data(p);
    size_t l3_ofs = ETH_HEADER_LEN;
    ovs_be16 eth_type = eth->eth_type;

    if (eth_type == htons(ETH_TYPE_VLAN_8021Q)) {
        const struct vlan_eth_header *veh = dp_packet_data(p);

        eth_type = veh->veth_next_type;
        l3_ofs = VLAN_ETH_HEADER_LEN;
    }

    const char *l3 = (const char *) dp_packet_data(p) + l3_ofs;
    uint32_t l3_len = dp_packet_size(p) - l3_ofs;
    uint16_t segsz = dp_packet_get_tso_segsz(p);
    const struct tcp_header *tcp;
    uint32_t payload, hdr_len;
    struct flow flow;
    size_t n_segs;

    ovs_assert(dp_packet_size(p) <= max_size);
    if (eth_type == htons(ETH_TYPE_IP)) {
        const struct ip_header *ip = ALIGNED_CAST(const struct ip_header *,
                                                  l3);
        uint16_t len = ntohs(ip->ip_tot_len);

        ovs_assert(len == (l3_len <= UINT16_MAX ? l3_len : 0));
        ovs_assert(!csum(ip, IP_HEADER_LEN));
        tcp = ALIGNED_CAST(const struct tcp_header *, l3 + IP_HEADER_LEN);
    } else {
        const struct ovs_16aligned_ip6_hdr *ip6
            = ALIGNED_CAST(const struct ovs_16aligned_ip6_hdr *, l3);
        uint32_t plen = l3_len - IPV6_HEADER_LEN;
        const uint8_t *h = (const uint8_t *) l3 + IPV6_HEADER_LEN;
        uint8_t nxt = ip6->ip6_ctlun.ip6_un1.ip6_un1_nxt;

        ovs_assert(eth_type == htons(ETH_TYPE_IPV6));
        ovs_assert(ntohs(ip6->ip6_ctlun.ip6_un1.ip6_un1_plen)
                   == (plen <= UINT16_MAX ? plen : 0));

        /* TCP behind the extension headers that GRO skips; a packet with
         * any stays within 64 KiB of payload. */
        while (nxt == IPPROTO_HOPOPTS || nxt == IPPROTO_ROUTING
               || nxt == IPPROTO_DSTOPTS) {
            nxt = h[0];
            h += (h[1] + 1) * 8;
        }
        ovs_assert(nxt == IPPROTO_TCP);
        ovs_assert(h == (const uint8_t *) l3 + IPV6_HEADER_LEN
                   || plen <= UINT16_MAX);
        tcp = ALIGNED_CAST(const struct tcp_header *, h);
    }
    hdr_len = (const char *) tcp - (const char *) dp_packet_data(p)
              + TCP_OFFSET(tcp->tcp_ctl) * 4;
    payload = dp_packet_size(p) - hdr_len;
    ovs_assert(segsz && payload > segsz);

    /* What a port without TSO gets: the segments, as many as the payload
     * and the segment size say (the datapath extracts the flow first). */
    flow_extract(p, &flow);
    ovs_assert(dp_packet_get_tcp_payload_length(p) == payload);
    n_segs = dp_packet_gso_nr_segs(p);
    ovs_assert(n_segs == DIV_ROUND_UP(payload, segsz));
    if (n_segs <= 64) {
        struct dp_packet_batch segs;
        struct dp_packet *seg;

        dp_packet_batch_init(&segs);
        dp_packet_gso(p, &segs);
        ovs_assert(dp_packet_batch_size(&segs) == n_segs);
        DP_PACKET_BATCH_FOR_EACH (i, seg, &segs) {
            dp_packet_ol_send_prepare(seg, 0);
            check_segment(seg, check_l4);
        }
        dp_packet_delete_batch(&segs, true);
        dp_packet_batch_destroy(&segs);
    } else {
        dp_packet_delete(p);
    }
    return n_segs;
}

/* Takes the packets that 'gro' has made, checks them (see
 * check_coalesced()), and frees them.  Returns how many there were; adds
 * the segments of coalesced ones to '*n_segs'. */
static size_t
drain(struct netdev_gro *gro, uint32_t max_size, bool check_l4,
      uint64_t *n_segs)
{
    size_t n = 0;

    netdev_gro_flush(gro);
    while (netdev_gro_n_pending(gro)) {
        struct dp_packet_batch batch;
        struct dp_packet *p;

        dp_packet_batch_init(&batch);
        n += netdev_gro_pop(gro, &batch);
        DP_PACKET_BATCH_FOR_EACH (i, p, &batch) {
            if (dp_packet_get_tso_segsz(p)) {
                *n_segs += check_coalesced(p, max_size, check_l4);
            } else {
                dp_packet_delete(p);
            }
        }
        dp_packet_batch_destroy(&batch);
    }
    return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialized;
    uint64_t packets, segments, n_segs = 0;
    size_t n_in = 0, n_out = 0, n_round = 0;
    struct netdev_gro *gro;
    uint32_t max_size;
    uint8_t marks;

    if (!initialized) {
        vlog_set_verbosity("off");
        initialized = true;
    }
    if (size < 2) {
        return 0;
    }
    marks = data[0];
    max_size = MIN(NETDEV_TSO_MIN_USER_SIZE + 2048 * data[1], GSO_MAX_SIZE);
    data += 2;
    size -= 2;

    gro = netdev_gro_create();
    while (size >= 2) {
        size_t len = MIN((data[0] << 8) | data[1], size - 2);
        struct dp_packet *p = dp_packet_new_with_headroom(len, 128);

        dp_packet_put(p, data + 2, len);
        data += 2 + len;
        size -= 2 + len;

        switch (marks & 3) {
        case 1:
            dp_packet_l4_checksum_set_good(p);
            break;
        case 2:
            dp_packet_l4_checksum_set_partial(p);
            break;
        case 3:
            dp_packet_l4_checksum_set_bad(p);
            break;
        }
        if (marks & 4) {
            dp_packet_ip_checksum_set_good(p);
        }
        netdev_gro_receive(gro, p, max_size, marks & 8);
        n_in++;
        if (++n_round == NETDEV_MAX_BURST) {
            n_out += drain(gro, max_size, (marks & 3) != 1, &n_segs);
            n_round = 0;
        }
    }
    n_out += drain(gro, max_size, (marks & 3) != 1, &n_segs);

    ovs_assert(n_out <= n_in);
    netdev_gro_take_counts(gro, &packets, &segments);
    ovs_assert(segments == n_segs);
    ovs_assert(n_in - n_out == segments - packets);
    netdev_gro_destroy(gro);
    return 0;
}
