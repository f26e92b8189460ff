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

/* The checks of zero-copy resegmentation, shared by "ovstest
 * test-bigtcp-reseg-zerocopy" and the fuzz target fuzz-bigtcp-reseg.  See
 * bigtcp-reseg-zc-check.h. */

#include <config.h>
#undef NDEBUG
#include "bigtcp-reseg-zc-check.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/virtio_net.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigtcp-framing.h"
#include "bigtcp-reseg-check.h"
#include "csum.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dp-packet-reseg.h"
#include "netdev-linux-tnl.h"
#include "netdev-linux-reseg.h"
#include "packets.h"
#include "util.h"

static void OVS_PRINTF_FORMAT(2, 3) OVS_NO_RETURN
zc_fail(uint32_t no, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "case %"PRIu32": ", no);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    putc('\n', stderr);
    ovs_fatal(0, "zero-copy resegmentation check failed");
}

/* The checksum that a device completes from 'start' in 'frame' of 'len'
 * bytes, the checksum field holding the pseudo-header sum. */
static ovs_be16
device_csum(const uint8_t *frame, size_t len, size_t start)
{
    return csum_finish(csum_continue(0, frame + start, len - start));
}

/* Checks every output of 'r', zero-copy outputs made by 'plan' from packet
 * 'in' of case 'c', against 'outs', the copying engine's outputs of the
 * same cut (see the top of bigtcp-reseg-zc-check.h).  Completes the
 * checksums of 'outs'. */
static void
check_outputs(const struct bigtcp_reseg_case *c, const struct dp_packet *in,
              const struct dp_packet_reseg_plan *plan,
              const struct netdev_linux_reseg *r,
              struct dp_packet_batch *outs,
              struct bigtcp_reseg_zc_stats *stats)
{
    size_t csum_ofs = plan->l4_ofs + offsetof(struct tcp_header, tcp_csum);

    for (uint32_t k = 0; k < plan->n_out; k++) {
        const struct iovec *iov = netdev_linux_reseg_iov(r, k);
        const struct virtio_net_hdr *vnet = iov[0].iov_base;
        struct dp_packet *ref = outs->packets[k];
        uint16_t segsz = dp_packet_get_tso_segsz(ref);
        const uint8_t *payload = iov[2].iov_base;
        size_t size = plan->hdr_len + iov[2].iov_len;
        size_t ip6_payload = size - plan->l3_ofs - IPV6_HEADER_LEN;
        size_t jumbo = (c->ipv6 && ip6_payload > UINT16_MAX
                        ? BIGTCP_JUMBO_HBH_LEN : 0);
        uint8_t *frame, *want;

        if (iov[0].iov_len != r->vnet.len
            || !is_all_zeros((const char *) vnet + sizeof *vnet,
                             r->vnet.len - sizeof *vnet)
            || iov[1].iov_len != plan->hdr_len + jumbo
            || payload < (const uint8_t *) dp_packet_data(in)
            || (payload + iov[2].iov_len
                > (const uint8_t *) dp_packet_tail(in))) {
            zc_fail(c->no, "output %"PRIu32": buffers are not a virtio-net "
                    "header, headers%s and a slice of the input", k,
                    jumbo ? " with a jumbo option" : "");
        }
        if (size != dp_packet_size(ref)) {
            zc_fail(c->no, "output %"PRIu32": %"PRIuSIZE" bytes, copy has "
                    "%"PRIu32, k, size, dp_packet_size(ref));
        }

        /* The frame, without its jumbo option if it has one, after checking
         * the option (as Linux builds it for BIG TCP: RFC 2675). */
        frame = xmalloc(size);
        if (jumbo) {
            const uint8_t *h = iov[1].iov_base;
            const uint8_t *hbh = h + plan->l3_ofs + IPV6_HEADER_LEN;
            const struct ovs_16aligned_ip6_hdr *ip6 = (const void *) (h
                + plan->l3_ofs);
            uint8_t want_hbh[BIGTCP_JUMBO_HBH_LEN] = {
                IPPROTO_TCP, 0, 0xc2, 4,
                (ip6_payload + jumbo) >> 24, (ip6_payload + jumbo) >> 16,
                (ip6_payload + jumbo) >> 8, ip6_payload + jumbo,
            };

            if (ip6->ip6_nxt != IPPROTO_HOPOPTS || ip6->ip6_plen
                || memcmp(hbh, want_hbh, sizeof want_hbh)) {
                zc_fail(c->no, "output %"PRIu32": bad jumbo option", k);
            }
            memcpy(frame, h, plan->l3_ofs + IPV6_HEADER_LEN);
            memcpy(frame + plan->l3_ofs + IPV6_HEADER_LEN, hbh + jumbo,
                   plan->hdr_len - plan->l3_ofs - IPV6_HEADER_LEN);
            frame[plan->l3_ofs + offsetof(struct ovs_16aligned_ip6_hdr,
                                         ip6_nxt)] = IPPROTO_TCP;
            stats->jumbo++;
        } else {
            memcpy(frame, iov[1].iov_base, plan->hdr_len);
        }
        memcpy(frame + plan->hdr_len, payload, iov[2].iov_len);

        /* The virtio-net header. */
        if (!(vnet->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM)
            || vnet->csum_start != plan->l4_ofs + jumbo
            || vnet->csum_offset != offsetof(struct tcp_header, tcp_csum)
            || vnet->gso_size != segsz
            || vnet->gso_type != (!segsz ? VIRTIO_NET_HDR_GSO_NONE
                                  : c->ipv6 ? VIRTIO_NET_HDR_GSO_TCPV6
                                  : VIRTIO_NET_HDR_GSO_TCPV4)
            || (segsz && vnet->hdr_len != plan->hdr_len + jumbo)) {
            zc_fail(c->no, "output %"PRIu32": virtio-net header flags %#x "
                    "csum %u+%u gso type %u size %u hdr_len %u, copy has "
                    "segment size %u", k, vnet->flags, vnet->csum_start,
                    vnet->csum_offset, vnet->gso_type, vnet->gso_size,
                    vnet->hdr_len, segsz);
        }

        /* Complete the checksums of both, the device's way and Open
         * vSwitch's way: then the frames are the same, byte for byte. */
        ovs_be16 dev_csum = device_csum(frame, size, plan->l4_ofs);

        memcpy(frame + csum_ofs, &dev_csum, sizeof dev_csum);
        if (!c->ipv6) {
            /* packet_tcp_complete_csum() takes the length from the IPv4
             * header, which is 0 over 64 KiB. */
            struct tcp_header *tcp = dp_packet_l4(ref);
            size_t l4_size = dp_packet_l4_size(ref);

            tcp->tcp_csum = 0;
            tcp->tcp_csum = csum_finish(csum_continue(
                packet_csum_pseudoheader_l4len(dp_packet_l3(ref), l4_size),
                tcp, l4_size));
            dp_packet_ip_set_header_csum(ref, false);
        } else {
            packet_tcp_complete_csum(ref, false);
        }
        want = dp_packet_data(ref);
        if (memcmp(frame, want, size)) {
            size_t i = 0;

            while (frame[i] == want[i]) {
                i++;
            }
            zc_fail(c->no, "output %"PRIu32" of %"PRIu32" (%"PRIuSIZE
                    " bytes, segment size %u) differs from the copy at "
                    "byte %"PRIuSIZE" (TCP checksum at %"PRIuSIZE")",
                    k, plan->n_out, size, segsz, i, csum_ofs);
        }
        free(frame);
        stats->single += !segsz;
    }

}

/* Cuts the packet of case 'c' for its bound both ways, zero copy and
 * copying, and checks the zero-copy outputs against the copying ones (see
 * bigtcp-reseg-zc-check.h).  Aborts on a failure.  Counts what ran in
 * '*stats'. */
void
bigtcp_reseg_zc_run_case(const struct bigtcp_reseg_case *c,
                         struct bigtcp_reseg_zc_stats *stats)
{
    struct dp_packet_reseg_plan plan;
    struct netdev_linux_reseg r;
    struct dp_packet_batch outs;
    struct dp_packet *in, *copy;
    struct netdev_linux_reseg_vnet vnet_hdr = { .tnl_output = NULL };
    int mtu;

    if (c->tunnel != BIGTCP_RESEG_TNL_NONE) {
        /* Tunnel packets always take the copying engine. */
        stats->tunnel++;
        return;
    }

    in = bigtcp_reseg_build_packet(c);
    if (!dp_packet_reseg_plan(in, c->max_size, c->max_segs, &plan)) {
        stats->not_possible++;
        dp_packet_delete(in);
        return;
    }

    /* The virtio-net header of an AF_PACKET socket or of a plain tap, or
     * for every other case that of a tunnel tap, which has the tunnel
     * offsets after it, zero here. */
    vnet_hdr.len = (c->no % 2 ? NETDEV_LINUX_TNL_VNET_HDR_LEN
                    : sizeof(struct virtio_net_hdr));

    /* The smallest MTU that takes the segments (netdev-linux allows for a
     * VLAN tag over the MTU), and one byte less: refused. */
    mtu = plan.hdr_len + plan.mss - ETH_HEADER_LEN - VLAN_HEADER_LEN;
    if (netdev_linux_reseg_init_vnet(&r, &plan, in, mtu - 1, &vnet_hdr)
        != EMSGSIZE) {
        zc_fail(c->no, "a segment over the MTU was not refused");
    }
    netdev_linux_reseg_destroy(&r);

    if (netdev_linux_reseg_init_vnet(&r, &plan, in, mtu, &vnet_hdr)) {
        zc_fail(c->no, "netdev_linux_reseg_init_vnet() failed");
    }

    copy = dp_packet_clone(in);
    dp_packet_set_tso_segsz(copy, c->mss);
    dp_packet_batch_init(&outs);
    if (dp_packet_reseg(copy, c->max_size, c->max_segs, &outs) != plan.n_out) {
        zc_fail(c->no, "the two paths make different numbers of outputs");
    }

    struct bigtcp_reseg_zc_stats slice_stats = { 0 };

    /* Cutting an output again, as netdev-linux does when the kernel
     * refuses it (dp_packet_reseg_plan_slice()), gives what the copying
     * engine gives when it cuts that output.  Outputs of 4 segments or more
     * are cut into outputs of half as many. */
    for (uint32_t k = 0; k < plan.n_out; k++) {
        struct dp_packet *out = outs.packets[k];
        uint32_t n = dp_packet_get_tso_segsz(out)
                     ? dp_packet_gso_nr_segs(out) : 1;
        uint32_t bound = plan.hdr_len + (n / 2) * plan.mss;
        struct dp_packet_reseg_plan slice;
        struct netdev_linux_reseg rs;
        struct dp_packet_batch souts;
        struct dp_packet *scopy;

        if (n < 4) {
            continue;
        }
        if (!dp_packet_reseg_plan_slice(&plan, k, bound, UINT32_MAX,
                                        &slice)
            || slice.n_out < 2
            || netdev_linux_reseg_init_vnet(&rs, &slice, in, mtu,
                                       &vnet_hdr)) {
            zc_fail(c->no, "output %"PRIu32" (%"PRIu32" segments) was not "
                    "cut again at %"PRIu32" bytes", k, n, bound);
        }
        scopy = dp_packet_clone(out);
        dp_packet_set_tso_segsz(scopy, c->mss);
        dp_packet_batch_init(&souts);
        if (dp_packet_reseg(scopy, bound, UINT32_MAX, &souts)
            != slice.n_out) {
            zc_fail(c->no, "output %"PRIu32" cut again: the two paths make "
                    "different numbers of outputs", k);
        }
        check_outputs(c, in, &slice, &rs, &souts, &slice_stats);
        stats->sliced++;
        stats->slice_outputs += slice.n_out;
        netdev_linux_reseg_destroy(&rs);
        dp_packet_delete_batch(&souts, true);
        dp_packet_batch_destroy(&souts);
    }

    check_outputs(c, in, &plan, &r, &outs, stats);

    stats->cut += plan.n_out > 1;
    stats->outputs += plan.n_out;
    netdev_linux_reseg_destroy(&r);
    dp_packet_delete_batch(&outs, true);
    dp_packet_batch_destroy(&outs);
    dp_packet_delete(in);
}
