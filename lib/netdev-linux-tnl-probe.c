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
#include "netdev-linux-tnl-probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/if_addr.h>
#include <linux/if_tun.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bigtcp-tnl.h"
#include "coverage.h"
#include "csum.h"
#include "netdev-linux-probe.h"
#include "netdev-linux-tnl.h"
#include "netdev-vport.h"
#include "netlink.h"
#include "netlink-socket.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux_tnl_probe);

/* The probe's answers, one per outer IP version asked. */
COVERAGE_DEFINE(netdev_linux_tnl_probe_yes);
COVERAGE_DEFINE(netdev_linux_tnl_probe_no);
COVERAGE_DEFINE(netdev_linux_tnl_probe_unknown);

/* The probe's packet: a TCP GSO packet in a Geneve tunnel whose inner TCP
 * payload, and so its inner and outer IP packets, are over 64 KiB, in
 * segments of PROBE_MSS bytes (small enough for an IPv6 underlay with
 * the tap's MTU of 1500). */
#define PROBE_PAYLOAD (UINT16_MAX + 1000)
#define PROBE_MSS 1300

/* Bytes the probe's Geneve header has, and the payload of its sentinel. */
#define PROBE_GENEVE_LEN 8
static const char probe_sentinel[] = "ovs-bigtcp tunnel probe sentinel";

/* How long the probe waits for its sentinel to come back before it gives
 * up with "unknown".  Never "no": a kernel that takes a while under load
 * is not a kernel that drops the packet. */
#define PROBE_WAIT_MS 10000

/* Room for a frame the tap gives back: the probe's packet whole, if the
 * tap takes GSO packets that large. */
#define PROBE_RX_SIZE (NETDEV_LINUX_TNL_VNET_HDR_LEN + 1024 + PROBE_PAYLOAD)

/* The probe's tap, in the probing thread's own network namespace.  The
 * packets written to it come from PROBE_SRC_MAC to the tap's own address,
 * and are routed back out of it to PROBE_DST_MAC. */
#define PROBE_TAP "ovs-tnlprobe"
static const struct eth_addr probe_tap_mac = ETH_ADDR_C(02,00,00,00,00,01);
static const struct eth_addr probe_dst_mac = ETH_ADDR_C(02,00,00,00,00,02);
static const struct eth_addr probe_src_mac = ETH_ADDR_C(02,00,00,00,00,03);

/* Addresses from the documentation prefixes (RFC 5737, RFC 3849): the
 * tap's own, the destination and the source, each on the tap's link. */
#define PROBE_IP4(N) htonl(0xc0000200 | (N))       /* 192.0.2.N */
static const struct in6_addr probe_ip6[] = {
    { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } } },
    { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 } } },
    { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3 } } },
};

/* The answers, per outer IP version ([0] IPv4, [1] IPv6). */
static atomic_int answers[2] = { NETDEV_TSO_TNL_BIG_PENDING,
                                 NETDEV_TSO_TNL_BIG_PENDING };

/* What the thread found, for the log. */
struct probe_result {
    enum netdev_tso_tnl_big answer;
    const char *why;            /* Why "no" or "unknown". */
    uint32_t n_frames;          /* Frames of the packet that came back. */
    uint32_t payload;           /* Inner TCP payload they carried. */
};

/* Writes 'value' into the sysctl file 'path' of the thread's namespace. */
static int
probe_sysctl(const char *path, const char *value)
{
    int fd = open(path, O_WRONLY);
    int error = 0;

    if (fd < 0) {
        return errno;
    }
    if (write(fd, value, strlen(value)) < 0) {
        error = errno;
    }
    close(fd);
    return error;
}

/* Gives the probe's tap with index 'ifindex' its address of IP version
 * 'ver' and a permanent neighbour entry for the probe's source and
 * destination. */
static int
probe_addresses(struct nl_sock *sock, int ifindex, int ver)
{
    int family = ver == 4 ? AF_INET : AF_INET6;
    struct ifaddrmsg *ifa;
    struct ofpbuf msg;
    int error;

    ofpbuf_init(&msg, 0);
    nl_msg_put_nlmsghdr(&msg, 0, RTM_NEWADDR,
                        NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL);
    ifa = ofpbuf_put_zeros(&msg, sizeof *ifa);
    ifa->ifa_family = family;
    ifa->ifa_prefixlen = ver == 4 ? 24 : 64;
    ifa->ifa_flags = IFA_F_NODAD;
    ifa->ifa_index = ifindex;
    if (ver == 4) {
        nl_msg_put_be32(&msg, IFA_LOCAL, PROBE_IP4(1));
        nl_msg_put_be32(&msg, IFA_ADDRESS, PROBE_IP4(1));
    } else {
        nl_msg_put_in6_addr(&msg, IFA_LOCAL, &probe_ip6[0]);
        nl_msg_put_in6_addr(&msg, IFA_ADDRESS, &probe_ip6[0]);
    }
    error = netdev_linux_probe_transact(sock, &msg);

    for (int i = 2; !error && i <= 3; i++) {
        const struct eth_addr *mac = i == 2 ? &probe_dst_mac : &probe_src_mac;
        struct ndmsg *ndm;

        ofpbuf_init(&msg, 0);
        nl_msg_put_nlmsghdr(&msg, 0, RTM_NEWNEIGH,
                            NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL);
        ndm = ofpbuf_put_zeros(&msg, sizeof *ndm);
        ndm->ndm_family = family;
        ndm->ndm_ifindex = ifindex;
        ndm->ndm_state = NUD_PERMANENT;
        if (ver == 4) {
            nl_msg_put_be32(&msg, NDA_DST, PROBE_IP4(i));
        } else {
            nl_msg_put_in6_addr(&msg, NDA_DST, &probe_ip6[i - 1]);
        }
        nl_msg_put_unspec(&msg, NDA_LLADDR, mac, ETH_ADDR_LEN);
        error = netdev_linux_probe_transact(sock, &msg);
    }
    return error;
}

/* Makes the probe's tap in the thread's network namespace, with UDP tunnel
 * GSO, up, with addresses and neighbours, and turns on forwarding.
 * Returns its file descriptor, or a negative errno value. */
/* The tun device, and the forwarding switches of the probe's namespace. */
static const char tun_dev[] = "/dev/net/tun";
static const char ipv4_forwarding[] = "/proc/sys/net/ipv4/ip_forward";
static const char ipv6_forwarding[] = "/proc/sys/net/ipv6/conf/all/forwarding";

static int
probe_make_tap(const char **why)
{
    unsigned int oflags = (TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6);
    struct ifinfomsg *ifi;
    struct nl_sock *sock;
    struct ofpbuf msg;
    struct ifreq ifr;
    int fd, ifindex, error;

    fd = open(tun_dev, O_RDWR | O_NONBLOCK);
    if (fd < 0) {
        *why = "cannot open /dev/net/tun";
        return -errno;
    }
    memset(&ifr, 0, sizeof ifr);
    ovs_strzcpy(ifr.ifr_name, PROBE_TAP, sizeof ifr.ifr_name);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR;
    if (ioctl(fd, TUNSETIFF, &ifr)) {
        *why = "cannot make a tap";
        error = errno;
        goto error;
    }
    if (!netdev_linux_tnl_tap_enable(fd, oflags)) {
        *why = "the tap takes no UDP tunnel GSO";
        error = EOPNOTSUPP;
        goto error;
    }
    ifindex = if_nametoindex(PROBE_TAP);
    if (!ifindex) {
        *why = "the tap has no index";
        error = errno;
        goto error;
    }

    error = nl_sock_create(NETLINK_ROUTE, &sock);
    if (error) {
        *why = "no netlink socket";
        goto error;
    }
    netdev_linux_probe_newlink(&msg, 0, ifindex);
    ifi = ofpbuf_at_assert(&msg, NLMSG_HDRLEN, sizeof *ifi);
    ifi->ifi_flags = IFF_UP;
    ifi->ifi_change = IFF_UP;
    nl_msg_put_unspec(&msg, IFLA_ADDRESS, &probe_tap_mac, ETH_ADDR_LEN);
    error = netdev_linux_probe_transact(sock, &msg);
    if (!error) {
        error = probe_addresses(sock, ifindex, 4);
    }
    if (!error) {
        error = probe_addresses(sock, ifindex, 6);
    }
    nl_sock_destroy(sock);
    if (error) {
        *why = "cannot set up the tap";
        goto error;
    }

    error = probe_sysctl(ipv4_forwarding, "1");
    if (!error) {
        error = probe_sysctl(ipv6_forwarding, "1");
    }
    if (error) {
        *why = "cannot turn on forwarding";
        goto error;
    }
    return fd;

error:
    close(fd);
    return -error;
}

/* Writes into 'buf' the virtio-net header and frame of the probe's packet
 * for outer IP version 'ver': the Geneve TCP GSO packet over 64 KiB if
 * 'big', in BIG TCP framing and with an outer UDP checksum for the kernel
 * to fill, otherwise the sentinel, a plain packet of the same flow.
 * Returns its length. */
static size_t
probe_frame(char *buf, int ver, bool big)
{
    struct virtio_net_hdr *vnet = ALIGNED_CAST(struct virtio_net_hdr *, buf);
    uint32_t payload = big ? PROBE_PAYLOAD : sizeof probe_sentinel;
    size_t outer_l3 = ETH_HEADER_LEN;
    size_t outer_th = outer_l3 + (ver == 4 ? IP_HEADER_LEN : IPV6_HEADER_LEN);
    size_t inner_nh = outer_th + UDP_HEADER_LEN + PROBE_GENEVE_LEN
                      + ETH_HEADER_LEN;
    size_t inner_th = inner_nh + IP_HEADER_LEN;
    size_t len = inner_th + TCP_HEADER_LEN + payload;
    char *frame = buf + NETDEV_LINUX_TNL_VNET_HDR_LEN;
    struct eth_header *eth = ALIGNED_CAST(struct eth_header *, frame);
    struct udp_header *udp;
    struct ip_header *ip;
    struct tcp_header *tcp;
    uint32_t partial;
    uint8_t *geneve;

    memset(buf, 0, NETDEV_LINUX_TNL_VNET_HDR_LEN + inner_th + TCP_HEADER_LEN);
    eth->eth_dst = probe_tap_mac;
    eth->eth_src = probe_src_mac;
    eth->eth_type = htons(ver == 4 ? ETH_TYPE_IP : ETH_TYPE_IPV6);
    if (ver == 4) {
        ip = ALIGNED_CAST(struct ip_header *, frame + outer_l3);
        ip->ip_ihl_ver = IP_IHL_VER(5, 4);
        ip->ip_tot_len = htons(bigtcp_tnl_len16(len - outer_l3));
        ip->ip_ttl = 64;
        ip->ip_proto = IPPROTO_UDP;
        put_16aligned_be32(&ip->ip_src, PROBE_IP4(3));
        put_16aligned_be32(&ip->ip_dst, PROBE_IP4(2));
        ip->ip_csum = csum(ip, IP_HEADER_LEN);
        partial = packet_csum_pseudoheader_l4len(ip, len - outer_th);
    } else {
        struct ovs_16aligned_ip6_hdr *ip6;

        ip6 = ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *, frame + outer_l3);
        put_16aligned_be32(&ip6->ip6_flow, htonl(6 << 28));
        ip6->ip6_plen = htons(bigtcp_tnl_len16(len - outer_th));
        ip6->ip6_nxt = IPPROTO_UDP;
        ip6->ip6_hlim = 64;
        memcpy(&ip6->ip6_src, &probe_ip6[2], sizeof ip6->ip6_src);
        memcpy(&ip6->ip6_dst, &probe_ip6[1], sizeof ip6->ip6_dst);
        partial = packet_csum_pseudoheader6_l4len(ip6, IPPROTO_UDP,
                                                  len - outer_th);
    }

    udp = ALIGNED_CAST(struct udp_header *, frame + outer_th);
    udp->udp_src = htons(49152);
    udp->udp_dst = htons(GENEVE_DST_PORT);
    udp->udp_len = htons(bigtcp_tnl_len16(len - outer_th));
    geneve = (uint8_t *) (udp + 1);
    geneve[2] = ETH_TYPE_TEB >> 8;
    geneve[3] = ETH_TYPE_TEB & 0xff;

    eth = ALIGNED_CAST(struct eth_header *, geneve + PROBE_GENEVE_LEN);
    eth->eth_dst = probe_dst_mac;
    eth->eth_src = probe_src_mac;
    eth->eth_type = htons(ETH_TYPE_IP);
    ip = ALIGNED_CAST(struct ip_header *, frame + inner_nh);
    ip->ip_ihl_ver = IP_IHL_VER(5, 4);
    ip->ip_tot_len = htons(bigtcp_tnl_len16(len - inner_nh));
    ip->ip_ttl = 64;
    ip->ip_proto = IPPROTO_TCP;
    put_16aligned_be32(&ip->ip_src, htonl(0x0a000001));
    put_16aligned_be32(&ip->ip_dst, htonl(0x0a000002));
    ip->ip_csum = csum(ip, IP_HEADER_LEN);

    tcp = ALIGNED_CAST(struct tcp_header *, frame + inner_th);
    tcp->tcp_src = htons(9);
    tcp->tcp_dst = htons(9);
    put_16aligned_be32(&tcp->tcp_seq, htonl(1));
    tcp->tcp_ctl = TCP_CTL(TCP_ACK, TCP_HEADER_LEN / 4);
    tcp->tcp_winsz = htons(1000);
    if (big) {
        uint8_t *p = (uint8_t *) (tcp + 1);

        for (uint32_t i = 0; i < payload; i++) {
            p[i] = i * 7;
        }
        /* The kernel completes the inner TCP checksum and fills each
         * segment's outer UDP checksum, as for Open vSwitch's own tunnel
         * TSO packets (see netdev_linux_tnl_reseg_output()). */
        tcp->tcp_csum = ~csum_finish(packet_csum_pseudoheader_l4len(
                                         ip, len - inner_th));
        udp->udp_csum = ~csum_finish(partial);
        netdev_linux_tnl_gso_hdr(vnet, frame, len, outer_l3, outer_th,
                                 inner_nh, inner_th, TCP_HEADER_LEN,
                                 PROBE_MSS, true);
    } else {
        memcpy(tcp + 1, probe_sentinel, sizeof probe_sentinel);
        tcp->tcp_csum = csum_finish(csum_continue(
                                        packet_csum_pseudoheader(ip), tcp,
                                        TCP_HEADER_LEN + payload));
    }
    return NETDEV_LINUX_TNL_VNET_HDR_LEN + len;
}

/* Checks frame 'frame' of 'len' bytes, which the probe's tap gave back
 * behind virtio-net header 'vnet', for outer IP version 'ver'.  Returns 1
 * if it is the sentinel, -1 if it is no frame of the probe (a neighbour
 * solicitation, a redirect), otherwise 0 after adding the TCP payload it
 * carries to '*payload', or 0 with '*bad' set if it is a frame of the
 * probe's packet with wrong lengths or a wrong outer UDP checksum. */
static int
probe_check_frame(uint8_t *frame, size_t len,
                  const struct virtio_net_hdr *vnet, int ver,
                  uint32_t *payload, bool *bad)
{
    size_t outer_th = ETH_HEADER_LEN + (ver == 4 ? IP_HEADER_LEN
                                        : IPV6_HEADER_LEN);
    size_t inner_th = (outer_th + UDP_HEADER_LEN + PROBE_GENEVE_LEN
                       + ETH_HEADER_LEN + IP_HEADER_LEN);
    const struct eth_header *eth = ALIGNED_CAST(struct eth_header *, frame);
    struct udp_header *udp;
    uint32_t partial;
    uint16_t ip_len;

    if (len < inner_th + TCP_HEADER_LEN
        || eth->eth_type != htons(ver == 4 ? ETH_TYPE_IP : ETH_TYPE_IPV6)) {
        return -1;
    }
    udp = ALIGNED_CAST(struct udp_header *, frame + outer_th);
    if (ver == 4) {
        const struct ip_header *ip = ALIGNED_CAST(const struct ip_header *,
                                                  frame + ETH_HEADER_LEN);

        if (ip->ip_ihl_ver != IP_IHL_VER(5, 4)
            || ip->ip_proto != IPPROTO_UDP
            || get_16aligned_be32(&ip->ip_dst) != PROBE_IP4(2)) {
            return -1;
        }
        ip_len = ntohs(ip->ip_tot_len);
        partial = packet_csum_pseudoheader_l4len(ip, len - outer_th);
        if (!bigtcp_tnl_len_ok(ip_len, len - ETH_HEADER_LEN)) {
            *bad = true;
        }
    } else {
        const struct ovs_16aligned_ip6_hdr *ip6;

        ip6 = ALIGNED_CAST(const struct ovs_16aligned_ip6_hdr *,
                           frame + ETH_HEADER_LEN);
        if (ip6->ip6_nxt != IPPROTO_UDP
            || memcmp(&ip6->ip6_dst, &probe_ip6[1], sizeof ip6->ip6_dst)) {
            return -1;
        }
        ip_len = ntohs(ip6->ip6_plen);
        partial = packet_csum_pseudoheader6_l4len(ip6, IPPROTO_UDP,
                                                  len - outer_th);
        if (!bigtcp_tnl_len_ok(ip_len, len - outer_th)) {
            *bad = true;
        }
    }
    if (udp->udp_dst != htons(GENEVE_DST_PORT)) {
        return -1;
    }
    if (vnet->gso_type == VIRTIO_NET_HDR_GSO_NONE
        && len == inner_th + TCP_HEADER_LEN + sizeof probe_sentinel
        && !memcmp(frame + inner_th + TCP_HEADER_LEN, probe_sentinel,
                   sizeof probe_sentinel)) {
        return 1;
    }

    if (!bigtcp_tnl_len_ok(ntohs(udp->udp_len), len - outer_th)) {
        *bad = true;
    }
    if (vnet->gso_type == VIRTIO_NET_HDR_GSO_NONE) {
        /* A segment: its outer UDP checksum must be complete once the
         * inner checksum that the kernel left to the tap's user is (its
         * field holds the pseudo-header sum, the checksum of the rest
         * completes it). */
        if (vnet->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
            size_t start = vnet->csum_start;
            size_t ofs = start + vnet->csum_offset;

            if (start >= len || ofs + 2 > len) {
                *bad = true;
                return 0;
            }
            ovs_be16 sum = csum(frame + start, len - start);

            memcpy(frame + ofs, &sum, sizeof sum);
        }
        if (!udp->udp_csum
            || csum_finish(csum_continue(partial, udp, len - outer_th))) {
            *bad = true;
        }
    }
    *payload += len - inner_th - TCP_HEADER_LEN;
    return 0;
}

/* Asks the kernel, through the probe's tap 'fd', for outer IP version
 * 'ver' (see netdev-linux-tnl-probe.h). */
static void
probe_ask(int fd, int ver, char *buf, struct probe_result *r)
{
    long long int deadline;
    bool bad = false;
    size_t len;

    memset(r, 0, sizeof *r);
    while (read(fd, buf, PROBE_RX_SIZE) >= 0) {
        continue;               /* Left by an earlier question. */
    }
    len = probe_frame(buf, ver, true);
    if (write(fd, buf, len) != len) {
        r->answer = errno == EINVAL ? NETDEV_TSO_TNL_BIG_NO
                                    : NETDEV_TSO_TNL_BIG_UNKNOWN;
        r->why = errno == EINVAL ? "the tap refused the write"
                                 : "the write failed";
        return;
    }
    len = probe_frame(buf, ver, false);
    if (write(fd, buf, len) != len) {
        r->answer = NETDEV_TSO_TNL_BIG_UNKNOWN;
        r->why = "the sentinel's write failed";
        return;
    }

    deadline = time_msec() + PROBE_WAIT_MS;
    for (;;) {
        struct virtio_net_hdr vnet;
        ssize_t n = read(fd, buf, PROBE_RX_SIZE);
        int sentinel;

        if (n < 0) {
            struct pollfd pfd = { .fd = fd, .events = POLLIN };
            long long int now = time_msec();

            if (errno != EAGAIN && errno != EINTR) {
                r->answer = NETDEV_TSO_TNL_BIG_UNKNOWN;
                r->why = "the tap's read failed";
                return;
            }
            if (now >= deadline) {
                r->answer = NETDEV_TSO_TNL_BIG_UNKNOWN;
                r->why = "the sentinel did not come back";
                return;
            }
            poll(&pfd, 1, deadline - now);
            continue;
        }
        if (n < NETDEV_LINUX_TNL_VNET_HDR_LEN) {
            continue;
        }
        memcpy(&vnet, buf, sizeof vnet);
        sentinel = probe_check_frame((uint8_t *) buf
                                     + NETDEV_LINUX_TNL_VNET_HDR_LEN,
                                     n - NETDEV_LINUX_TNL_VNET_HDR_LEN,
                                     &vnet, ver, &r->payload, &bad);
        if (sentinel == 1) {
            break;
        } else if (sentinel == 0) {
            r->n_frames++;
        }
    }

    if (bad) {
        r->answer = NETDEV_TSO_TNL_BIG_NO;
        r->why = "it came back with wrong lengths or checksums";
    } else if (r->payload != PROBE_PAYLOAD) {
        r->answer = NETDEV_TSO_TNL_BIG_NO;
        r->why = (r->n_frames ? "it came back incomplete"
                  : "the kernel dropped it");
    } else {
        r->answer = NETDEV_TSO_TNL_BIG_YES;
    }
}

/* Logs the answer 'r' for outer IP version 'ver' and publishes it (it is
 * counted where it is read, see netdev_linux_tnl_probe()). */
static void
probe_record(int ver, const struct probe_result *r)
{
    if (r->answer == NETDEV_TSO_TNL_BIG_YES) {
        VLOG_INFO("probe: a Geneve TSO packet over 64 KiB with outer "
                  "IPv%d and UDP lengths 0, written to a tap, came back "
                  "whole as %"PRIu32" frames: such packets go to taps up to "
                  "their GSO limit", ver, r->n_frames);
    } else {
        VLOG_INFO("probe: a Geneve TSO packet over 64 KiB with outer "
                  "IPv%d and UDP lengths 0, written to a tap: %s (%s, %"
                  PRIu32" frames, %"PRIu32" of %d bytes back): such packets "
                  "keep 16-bit outer lengths", ver,
                  netdev_tso_limits_tnl_big_to_string(r->answer), r->why,
                  r->n_frames, r->payload, PROBE_PAYLOAD);
    }
    atomic_store(&answers[ver == 4 ? 0 : 1], r->answer);
}

static void *
probe_thread(void *aux OVS_UNUSED)
{
    struct probe_result r;
    const char *why = NULL;
    char *buf;
    int fd;

    memset(&r, 0, sizeof r);
    r.answer = NETDEV_TSO_TNL_BIG_UNKNOWN;
    if (unshare(CLONE_NEWNET)) {
        r.why = "no network namespace of its own";
        probe_record(4, &r);
        probe_record(6, &r);
        return NULL;
    }
    fd = probe_make_tap(&why);
    if (fd < 0) {
        r.why = why;
        probe_record(4, &r);
        probe_record(6, &r);
        return NULL;
    }

    buf = xmalloc(PROBE_RX_SIZE);
    for (int ver = 4; ver <= 6; ver += 2) {
        probe_ask(fd, ver, buf, &r);
        probe_record(ver, &r);
    }
    free(buf);
    close(fd);
    /* The namespace, and the tap in it, go with this thread. */
    return NULL;
}

/* Returns whether the running kernel takes UDP tunnel TSO packets over
 * 64 KiB with outer IP version 'ip_version' from a tap (see
 * netdev-linux-tnl-probe.h).  The first call starts asking the kernel, in
 * a thread of its own; until it has its answer, this returns
 * NETDEV_TSO_TNL_BIG_PENDING. */
enum netdev_tso_tnl_big
netdev_linux_tnl_probe(int ip_version)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static atomic_bool counted[2] = { false, false };
    int i = ip_version == 4 ? 0 : 1;
    int answer;

    if (ovsthread_once_start(&once)) {
        pthread_detach(ovs_thread_create("tnl_probe", probe_thread, NULL));
        ovsthread_once_done(&once);
    }
    atomic_read(&answers[i], &answer);
    if (answer != NETDEV_TSO_TNL_BIG_PENDING) {
        /* Counted here, once: a coverage counter incremented in the
         * probing thread, which ends at once, would never reach the
         * totals. */
        if (!atomic_exchange(&counted[i], true)) {
            if (answer == NETDEV_TSO_TNL_BIG_YES) {
                COVERAGE_INC(netdev_linux_tnl_probe_yes);
            } else if (answer == NETDEV_TSO_TNL_BIG_NO) {
                COVERAGE_INC(netdev_linux_tnl_probe_no);
            } else {
                COVERAGE_INC(netdev_linux_tnl_probe_unknown);
            }
        }
    }
    return answer;
}
