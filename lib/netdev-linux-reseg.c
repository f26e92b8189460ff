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
#include "bigtcp-tnl.h"
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "netdev-linux-probe.h"
#include "netdev-provider.h"
#include "netdev-tso-limits.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux_reseg);

COVERAGE_DEFINE(netdev_linux_reseg_zerocopy);
COVERAGE_DEFINE(netdev_linux_tx_fallback);
COVERAGE_DEFINE(netdev_linux_reseg_step);

/* Refusals that "netdev-linux/inject-tx-refusal" asked for: port name to
 * the number of outputs over 64 KiB still to refuse.  'n_injected' is their
 * sum, read without the mutex on the transmit path. */
static struct ovs_mutex inject_mutex = OVS_MUTEX_INITIALIZER;
static struct shash inject_ports OVS_GUARDED_BY(inject_mutex)
    = SHASH_INITIALIZER(&inject_ports);
static atomic_count n_injected = ATOMIC_COUNT_INIT(0);

/* Returns NETDEV_TSO_ZC_CUT if TSO packet 'p' is to be sent to Linux port
 * 'netdev' from iovecs, as the outputs of '*plan': it is over the port's TSO
 * limits and can be resegmented without copying, or it is a plain TSO packet
 * over 64 KiB, or a VXLAN or Geneve TSO packet whose outer lengths do not
 * fit in 16 bits (which only a tap that takes them gets, see
 * netdev-linux-tnl.h), which is sent as one output, its headers written
 * for the port, so that it can be sent again if the kernel refuses it (see
 * netdev_linux_reseg_send()).  Returns
 * NETDEV_TSO_ZC_SEGMENT if 'p' is over the port's limits and cannot be cut
 * within them: then its segments are to be sent instead (see
 * netdev_tso_enforce_segment()).  Otherwise, returns NETDEV_TSO_ZC_NONE:
 * 'p' is sent as it is.  Either way, 'p' is planned once. */
enum netdev_tso_zerocopy
netdev_linux_reseg_plan(const struct netdev *netdev, const struct dp_packet *p,
                        struct dp_packet_reseg_plan *plan)
{
    enum netdev_tso_zerocopy zc;

    zc = netdev_tso_enforce_zerocopy_plan(netdev, p, plan);
    if (zc != NETDEV_TSO_ZC_NONE) {
        return zc;
    }
    return (dp_packet_get_tso_segsz(p)
            && (dp_packet_tunnel(p) ? bigtcp_tnl_is_big(p)
                : dp_packet_size(p) > NETDEV_TSO_DEFAULT_MAX_SIZE)
            && dp_packet_reseg_plan(p, UINT32_MAX, UINT32_MAX, plan)
            ? NETDEV_TSO_ZC_CUT : NETDEV_TSO_ZC_NONE);
}

/* Points the NETDEV_LINUX_RESEG_IOVS buffers 'iov' of an output at its
 * 'vnet_len'-byte virtio-net header 'vnet', its 'hdr_len' bytes of headers
 * 'hdr' and the 'len' bytes of the payload of 'p' at offset 'ofs'. */
static void
netdev_linux_reseg_set_iov(struct iovec *iov, void *vnet, size_t vnet_len,
                           char *hdr, size_t hdr_len,
                           const struct dp_packet *p, uint32_t ofs,
                           uint32_t len)
{
    iov[0].iov_base = vnet;
    iov[0].iov_len = vnet_len;
    iov[1].iov_base = hdr;
    iov[1].iov_len = hdr_len;
    iov[2].iov_base = CONST_CAST(char *, dp_packet_data(p)) + ofs;
    iov[2].iov_len = len;
}

/* Prepares in 'r' the outputs of TSO packet 'p' cut as 'plan' says (see
 * netdev_tso_enforce_zerocopy_plan()), each as NETDEV_LINUX_RESEG_IOVS
 * buffers for writev() or sendmsg(): a virtio-net header, the output's
 * packet headers with a complete IPv4 header checksum and the TCP checksum
 * left for the kernel (VIRTIO_NET_HDR_F_NEEDS_CSUM, the pseudo-header sum in
 * the checksum field), and its slice of the payload of 'p', which must stay
 * as it is until the buffers are sent.  An IPv6 output whose payload length
 * does not fit in 16 bits gets BIG TCP's jumbo option in its headers,
 * unless the port's 'plen0' (see netdev_linux_reseg_init_vnet()).
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
    static const struct netdev_linux_reseg_vnet vnet = {
        .len = sizeof(struct virtio_net_hdr),
    };

    return netdev_linux_reseg_init_vnet(r, plan, p, mtu, &vnet);
}

/* Completes the packet headers 'hdr' of a non-tunnel output of 'plan' that
 * carries 'len' bytes of payload in segments of 'segsz' bytes (0: not a TSO
 * packet), and its virtio-net header 'vnet': a complete IPv4 header
 * checksum, the TCP pseudo-header sum for the kernel to complete, and, for
 * an IPv6 output whose payload length does not fit in 16 bits, the jumbo
 * option unless 'plen0'.  Returns the length of the headers. */
static size_t
reseg_plain_output(const struct dp_packet_reseg_plan *plan, char *hdr,
                   uint32_t len, uint16_t segsz, bool plen0,
                   struct virtio_net_hdr *vnet)
{
    struct ip_header *ip = ALIGNED_CAST(struct ip_header *,
                                        hdr + plan->l3_ofs);
    uint32_t l4_len = plan->hdr_len - plan->l4_ofs + len;
    size_t hdr_len = plan->hdr_len;
    size_t l4_ofs = plan->l4_ofs;
    struct tcp_header *tcp;
    uint32_t partial;

    if (IP_VER(ip->ip_ihl_ver) == 4) {
        ip->ip_csum = csum(ip, IP_IHL(ip->ip_ihl_ver) * 4);
        partial = packet_csum_pseudoheader_l4len(ip, l4_len);
    } else {
        struct ovs_16aligned_ip6_hdr *ip6;
        uint32_t payload;

        ip6 = ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *, ip);
        partial = packet_csum_pseudoheader6_l4len(ip6, IPPROTO_TCP, l4_len);
        payload = hdr_len - plan->l3_ofs - IPV6_HEADER_LEN + len;
        if (payload > UINT16_MAX) {
            netdev_linux_probe_count_tx(!plen0);
        }
        if (payload > UINT16_MAX && !plen0) {
            /* A BIG TCP packet for a kernel that takes the jumbo option
             * (see netdev-linux-probe.h). */
            bigtcp_frame_jumbo_hdr(ip6, (hdr_len - plan->l3_ofs
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
    return hdr_len;
}

/* Like netdev_linux_reseg_init(), for a port whose virtio-net header is
 * '*vnet_hdr': struct virtio_net_hdr, and zeros for the rest of its length,
 * except for the outputs of a tunnel packet, whose headers
 * vnet_hdr->tnl_output() completes and builds. */
int
netdev_linux_reseg_init_vnet(struct netdev_linux_reseg *r,
                             const struct dp_packet_reseg_plan *plan,
                             const struct dp_packet *p, int mtu,
                             const struct netdev_linux_reseg_vnet *vnet_hdr)
{
    /* Where the packet headers of an output start in its share of 'hdrs',
     * after its virtio-net header: 8-byte aligned. */
    size_t pkt_hdr_ofs = ROUND_UP(vnet_hdr->len, 8);
    size_t stride = pkt_hdr_ofs + ROUND_UP(plan->hdr_len
                                           + BIGTCP_JUMBO_HBH_LEN, 8);
    int max_packet_len = mtu + ETH_HEADER_LEN + VLAN_HEADER_LEN;

    r->plan = *plan;
    r->vnet = *vnet_hdr;
    r->iov = NULL;
    r->hdrs = NULL;
    if (plan->hdr_len + plan->mss > max_packet_len) {
        return EMSGSIZE;
    }

    r->iov = xmalloc(plan->n_out * NETDEV_LINUX_RESEG_IOVS * sizeof *r->iov);
    r->hdrs = xzalloc_cacheline(plan->n_out * stride);
    for (uint32_t k = 0; k < plan->n_out; k++) {
        char *buf = r->hdrs + k * stride;
        struct virtio_net_hdr *vnet = ALIGNED_CAST(struct virtio_net_hdr *,
                                                   buf);
        char *hdr = buf + pkt_hdr_ofs;
        size_t hdr_len = plan->hdr_len;
        uint32_t ofs, len;
        uint16_t segsz;

        dp_packet_reseg_headers(plan, p, k, hdr, &ofs, &len, &segsz);
        if (plan->tunnel != DP_PACKET_RESEG_TNL_NONE) {
            /* Only a port that takes tunnel TSO packets gets them. */
            ovs_assert(vnet_hdr->tnl_output);
            vnet_hdr->tnl_output(plan, hdr, len, segsz, vnet);
        } else {
            hdr_len = reseg_plain_output(plan, hdr, len, segsz,
                                         vnet_hdr->plen0, vnet);
        }
        netdev_linux_reseg_set_iov(netdev_linux_reseg_iov(r, k), vnet,
                                   vnet_hdr->len, hdr, hdr_len, p, ofs, len);
    }
    return 0;
}

void
netdev_linux_reseg_destroy(struct netdev_linux_reseg *r)
{
    free(r->iov);
    free_cacheline(r->hdrs);
}

/* Returns ENOBUFS, as a tap write or an AF_PACKET send returns it when the
 * kernel cannot build the skb, if "netdev-linux/inject-tx-refusal" asked
 * for a refusal of an output of 'size' bytes, over 64 KiB, to 'netdev';
 * otherwise 0. */
static int
inject_refusal(const struct netdev *netdev, size_t size)
{
    int error = 0;

    if (OVS_LIKELY(!atomic_count_get(&n_injected))
        || size <= NETDEV_TSO_DEFAULT_MAX_SIZE) {
        return 0;
    }

    ovs_mutex_lock(&inject_mutex);
    struct shash_node *node = shash_find(&inject_ports,
                                         netdev_get_name(netdev));
    if (node) {
        unsigned int *left = node->data;

        error = ENOBUFS;
        atomic_count_dec(&n_injected);
        *left -= 1;
        if (!*left) {
            free(left);
            shash_delete(&inject_ports, node);
        }
    }
    ovs_mutex_unlock(&inject_mutex);
    return error;
}

/* Returns true if 'error', from sending an output of 'size' bytes, says
 * that the kernel could not take so big a packet whole: ENOBUFS or ENOMEM
 * when it could not allocate the skb's high-order page chunks, EMSGSIZE
 * when the packet is too big for the device, for an output over 64 KiB. */
static bool
refused_as_too_big(int error, size_t size)
{
    return (size > NETDEV_TSO_DEFAULT_MAX_SIZE
            && (error == ENOBUFS || error == ENOMEM || error == EMSGSIZE));
}

/* Returns the size, in bytes, of the 'n' buffers at 'iov'. */
static size_t
iov_size(const struct iovec *iov, int n)
{
    size_t size = 0;

    for (int i = 0; i < n; i++) {
        size += iov[i].iov_len;
    }
    return size;
}

/* Counts a TSO packet over 64 KiB that the kernel refused to take whole
 * from 'netdev', which sent it again as 'n_out' packets of at most 64 KiB,
 * in the port's TSO counters (see netdev-tso-limits.h). */
static void
count_tx_fallback(struct netdev *netdev, size_t n_out)
{
    struct netdev_tso_limits *l = &netdev->tso_limits;
    uint64_t orig;

    atomic_add_relaxed(&l->n_tx_fallback, 1, &orig);
    atomic_add_relaxed(&l->n_tx_fallback_packets, n_out, &orig);
}

/* Sends output 'k' of 'r', which the kernel refused, cut into outputs of at
 * most 64 KiB, through 'send'.  Returns 0 if successful, otherwise a
 * positive errno value. */
static int
send_fallback(struct netdev *netdev, const struct netdev_linux_reseg *r,
              uint32_t k, const struct dp_packet *p, int mtu,
              netdev_linux_reseg_send_cb *send, void *aux)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
    struct dp_packet_reseg_plan slice;
    struct netdev_linux_reseg fb;
    int error;

    if (!dp_packet_reseg_plan_slice(&r->plan, k, NETDEV_TSO_DEFAULT_MAX_SIZE,
                                    r->plan.segs_per_out, &slice)) {
        return ENOBUFS;
    }
    error = netdev_linux_reseg_init_vnet(&fb, &slice, p, mtu, &r->vnet);
    for (uint32_t j = 0; !error && j < slice.n_out; j++) {
        error = send(aux, netdev_linux_reseg_iov(&fb, j),
                     NETDEV_LINUX_RESEG_IOVS);
    }
    netdev_linux_reseg_destroy(&fb);

    if (!error) {
        COVERAGE_INC(netdev_linux_tx_fallback);
        count_tx_fallback(netdev, slice.n_out);
        VLOG_DBG_RL(&rl, "%s: kernel refused a TSO packet over 64 KiB, sent "
                    "it again as %"PRIu32" packets", netdev_get_name(netdev),
                    slice.n_out);
    }
    return error;
}

/* Sends output 'k' of 'r' (initialized for packet 'p' and MTU 'mtu') to
 * Linux port 'netdev' through 'send'.  An output over 64 KiB that the
 * kernel refuses to take whole (see netdev-linux-reseg.h) is sent again as
 * outputs of at most 64 KiB and counted as a fallback.  Returns 0 if
 * successful, otherwise a positive errno value. */
static int
send_output(struct netdev *netdev, const struct netdev_linux_reseg *r,
            uint32_t k, const struct dp_packet *p, int mtu,
            netdev_linux_reseg_send_cb *send, void *aux)
{
    const struct iovec *iov = netdev_linux_reseg_iov(r, k);
    size_t size = iov_size(iov, NETDEV_LINUX_RESEG_IOVS);
    int error;

    error = inject_refusal(netdev, size);
    if (!error) {
        error = send(aux, iov, NETDEV_LINUX_RESEG_IOVS);
    }
    if (error && refused_as_too_big(error, size)) {
        error = send_fallback(netdev, r, k, p, mtu, send, aux);
    }
    return error;
}

/* Counts the resegmentation of a packet into the outputs of 'r'. */
static void
count_reseg(struct netdev *netdev, const struct netdev_linux_reseg *r)
{
    if (r->plan.n_out > 1) {
        COVERAGE_INC(netdev_linux_reseg_zerocopy);
        netdev_tso_enforce_count_reseg(netdev, r->plan.n_out);
    }
}

/* Sends the outputs that 'r' (initialized for packet 'p' and MTU 'mtu')
 * holds to Linux port 'netdev', each through 'send', in order (see
 * send_output()), and counts a resegmented packet in the port's
 * statistics.  Returns 0 if every output was sent, otherwise the positive
 * errno value of the send that failed, after which nothing more was
 * sent. */
int
netdev_linux_reseg_send(struct netdev *netdev,
                        const struct netdev_linux_reseg *r,
                        const struct dp_packet *p, int mtu,
                        netdev_linux_reseg_send_cb *send, void *aux)
{
    int error = 0;

    count_reseg(netdev, r);
    for (uint32_t k = 0; !error && k < r->plan.n_out; k++) {
        error = send_output(netdev, r, k, p, mtu, send, aux);
    }
    return error;
}

/* Counts a TSO packet that 'netdev' could not send through 'port', for
 * 'error', as dropped, and logs that 'what' failed. */
static void
drop_packet(struct netdev *netdev, const struct netdev_linux_reseg_port *port,
            const char *what, int error)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

    (*port->tx_dropped)++;
    VLOG_WARN_RL(&rl, "%s: %s failed, packet dropped. %s",
                 netdev_get_name(netdev), what, ovs_strerror(error));
}

/* Sends 'p' to 'port' as the outputs of 'plan' (see netdev_linux_reseg_send()
 * for their order and the kernel's refusals).  With 'steps', a packet of
 * more than one output is sent in steps: only its first output is sent
 * now, and 'steps' takes 'p' (see netdev_linux_reseg_steps_send()). */
static int
send_cut(struct netdev *netdev, const struct netdev_linux_reseg_port *port,
         struct dp_packet *p, int mtu,
         const struct dp_packet_reseg_plan *plan,
         struct netdev_linux_reseg_steps *steps)
{
    struct netdev_linux_reseg_vnet vnet = port->vnet;
    struct netdev_linux_reseg r;
    int error;

    /* The framing of IPv6 BIG TCP that the kernel takes. */
    vnet.plen0 = netdev_linux_probe_ipv6_plen0();
    error = netdev_linux_reseg_init_vnet(&r, plan, p, mtu, &vnet);
    if (OVS_UNLIKELY(error)) {
        drop_packet(netdev, port, "Resegmenting TSO packet", error);
        error = 0;
    } else if (steps && r.plan.n_out > 1) {
        count_reseg(netdev, &r);
        error = send_output(netdev, &r, 0, p, mtu, port->send, port->aux);
        if (!error) {
            ovs_assert(!steps->packet);
            steps->packet = p;
            steps->r = r;
            steps->next = 1;
            steps->mtu = mtu;
            return 0;
        }
    } else {
        error = netdev_linux_reseg_send(netdev, &r, p, mtu, port->send,
                                        port->aux);
    }
    netdev_linux_reseg_destroy(&r);
    return error;
}

/* Sends 'p', which fits 'port''s limits, as one output: its virtio-net
 * header, then the packet. */
static int
send_whole(struct netdev *netdev, const struct netdev_linux_reseg_port *port,
           struct dp_packet *p, int mtu)
{
    struct iovec iov;
    int error;

    error = port->prepend_vnet_hdr(p, mtu, port->vnet.len);
    if (OVS_UNLIKELY(error)) {
        drop_packet(netdev, port, "Prepend vnet hdr", error);
        return 0;
    }
    iov.iov_base = dp_packet_data(p);
    iov.iov_len = dp_packet_size(p);
    return port->send(port->aux, &iov, 1);
}

/* Sends the segments of 'p', which is over 'netdev''s TSO limits and cannot
 * be cut within them (see netdev_tso_enforce_segment()), each as one output,
 * or a segment over 64 KiB as the outputs that netdev_linux_reseg_plan()
 * gives it. */
static int
send_segments(struct netdev *netdev,
              const struct netdev_linux_reseg_port *port,
              const struct dp_packet *p, int mtu)
{
    struct dp_packet_batch segs;
    struct dp_packet *seg;
    int error = 0;

    dp_packet_batch_init(&segs);
    netdev_tso_enforce_segment(netdev, dp_packet_clone(p), &segs);
    DP_PACKET_BATCH_FOR_EACH (i, seg, &segs) {
        struct dp_packet_reseg_plan plan;

        error = (netdev_linux_reseg_plan(netdev, seg, &plan)
                 == NETDEV_TSO_ZC_CUT
                 ? send_cut(netdev, port, seg, mtu, &plan, NULL)
                 : send_whole(netdev, port, seg, mtu));
        if (error) {
            break;
        }
    }
    dp_packet_delete_batch(&segs, true);
    dp_packet_batch_destroy(&segs);
    return error;
}

/* Sends TSO packet 'p' to Linux port 'netdev' through 'port', as
 * netdev_linux_reseg_plan() said with 'zc' (not NETDEV_TSO_ZC_NONE) and
 * 'plan': cut into the outputs of 'plan' without copying its payload, or
 * as its segments.  A packet that cannot be sent (its outputs would not fit
 * the MTU 'mtu', a virtio-net header cannot describe it) is dropped,
 * counted in the port's tx_dropped and logged; that is not an error.
 * Returns 0 if successful, otherwise the positive errno value of the send
 * that failed, after which nothing more of 'p' was sent.
 *
 * With 'port->steps' (which must hold no packet), a packet cut into more
 * than one output is sent in steps: this sends its first output, and
 * 'port->steps' takes 'p' for netdev_linux_reseg_steps_send() to send the
 * rest.  Otherwise, 'p' is left to the caller. */
int
netdev_linux_reseg_send_packet(struct netdev *netdev,
                               const struct netdev_linux_reseg_port *port,
                               struct dp_packet *p, int mtu,
                               enum netdev_tso_zerocopy zc,
                               const struct dp_packet_reseg_plan *plan)
{
    return (zc == NETDEV_TSO_ZC_CUT
            ? send_cut(netdev, port, p, mtu, plan, port->steps)
            : send_segments(netdev, port, p, mtu));
}

/* Frees the packet that 'steps' holds, if any, and its outputs. */
static void
steps_clear(struct netdev_linux_reseg_steps *steps)
{
    if (steps->packet) {
        netdev_linux_reseg_destroy(&steps->r);
        dp_packet_delete(steps->packet);
        steps->packet = NULL;
    }
}

void
netdev_linux_reseg_steps_init(struct netdev_linux_reseg_steps *steps)
{
    steps->packet = NULL;
}

/* Frees what 'steps' holds, without sending it. */
void
netdev_linux_reseg_steps_destroy(struct netdev_linux_reseg_steps *steps)
{
    steps_clear(steps);
}

/* Sends at most 'max' more outputs of the packet that 'steps' holds through
 * 'port', in order, and frees the packet once its last output is sent.  If
 * a send fails, the rest of the packet is dropped, counted in the port's
 * tx_dropped and logged.  Returns 0 if successful, otherwise the positive
 * errno value of the send that failed. */
int
netdev_linux_reseg_steps_send(struct netdev *netdev,
                              const struct netdev_linux_reseg_port *port,
                              struct netdev_linux_reseg_steps *steps,
                              uint32_t max)
{
    uint32_t n_out = steps->packet ? steps->r.plan.n_out : 0;
    int error = 0;

    for (uint32_t n = 0; steps->next < n_out && n < max; n++) {
        error = send_output(netdev, &steps->r, steps->next, steps->packet,
                            steps->mtu, port->send, port->aux);
        if (error) {
            drop_packet(netdev, port, "Sending the rest of a resegmented "
                        "TSO packet", error);
            break;
        }
        steps->next++;
        COVERAGE_INC(netdev_linux_reseg_step);
    }
    if (error || steps->next >= n_out) {
        steps_clear(steps);
    }
    return error;
}

/* "netdev-linux/inject-tx-refusal PORT N": the next N outputs over 64 KiB
 * that PORT sends are refused as if the kernel could not build their skb
 * (ENOBUFS).  For tests of the fallback. */
static void
inject_tx_refusal(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[], void *aux OVS_UNUSED)
{
    unsigned int n, *left;

    if (!str_to_uint(argv[2], 10, &n) || !n) {
        unixctl_command_reply_error(conn, "N must be a positive integer");
        return;
    }

    ovs_mutex_lock(&inject_mutex);
    left = shash_find_data(&inject_ports, argv[1]);
    if (!left) {
        left = xzalloc(sizeof *left);
        shash_add(&inject_ports, argv[1], left);
    }
    *left += n;
    atomic_count_set(&n_injected, atomic_count_get(&n_injected) + n);
    ovs_mutex_unlock(&inject_mutex);
    unixctl_command_reply(conn, NULL);
}

void
netdev_linux_reseg_register_commands(void)
{
    unixctl_command_register("netdev-linux/inject-tx-refusal", "port n",
                             2, 2, inject_tx_refusal, NULL);
}
