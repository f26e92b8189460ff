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
#include "netdev-linux-probe.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bigtcp-framing.h"
#include "coverage.h"
#include "dp-packet.h"
#include "netlink.h"
#include "netlink-socket.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux_probe);

/* IPv6 BIG TCP packets sent to Linux ports, by framing. */
COVERAGE_DEFINE(netdev_linux_tx_ipv6_jumbo_option);
COVERAGE_DEFINE(netdev_linux_tx_ipv6_plen0);
/* Probes that ended without an answer: "unknown". */
COVERAGE_DEFINE(netdev_linux_probe_unknown);

/* The probe's packet: a TCP packet whose payload is just over what an IPv6
 * payload length can say, in segments of PROBE_MSS bytes. */
#define PROBE_PAYLOAD (UINT16_MAX + 1000)
#define PROBE_MSS 1400

/* Room for what the probe's raw socket receives: more than the packet, so
 * that a longer one shows. */
#define PROBE_RX_SIZE (TCP_HEADER_LEN + PROBE_PAYLOAD + 1)

/* The TCP source port of the probe's packets, and of the sentinels: TCP
 * packets without payload, each with a sequence number of its own, one
 * sent right after each probe packet.  The probing thread stays on one
 * CPU, so both take the same CPU's backlog, in order: once the sentinel is
 * delivered, the probe packet has been too, if the kernel delivers it at
 * all.  Before the first probe packet, sentinels alone are sent until one
 * is delivered: until then the new veth may still drop what it is given
 * (its queue is activated a little after it comes up).  A sentinel that
 * does not come within PROBE_WAIT_MS leaves the answer unknown. */
#define PROBE_PORT 9
#define PROBE_SENTINEL_PORT 10
#define PROBE_WAIT_MS 5000

/* The probe's veth pair, in the probing thread's own network namespace:
 * packets go from PROBE_TX to an address of PROBE_RX. */
#define PROBE_TX "bigtcp-probe0"
#define PROBE_RX "bigtcp-probe1"
static const struct eth_addr probe_tx_mac = ETH_ADDR_C(02,00,00,00,00,01);
static const struct eth_addr probe_rx_mac = ETH_ADDR_C(02,00,00,00,00,02);

/* Addresses from the documentation prefix (RFC 3849). */
static const struct in6_addr probe_src = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0,
                                               0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               1 } } };
static const struct in6_addr probe_dst = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0,
                                               0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               2 } } };

const char *
netdev_linux_probe_bigtcp_to_string(enum netdev_linux_probe_bigtcp framing)
{
    switch (framing) {
    case NETDEV_LINUX_IPV6_BIGTCP_HBH:
        return "jumbo option";
    case NETDEV_LINUX_IPV6_BIGTCP_PLAIN:
        return "payload length 0";
    case NETDEV_LINUX_IPV6_BIGTCP_NONE:
        return "none";
    case NETDEV_LINUX_IPV6_BIGTCP_UNKNOWN:
    default:
        return "unknown";
    }
}

/* Sends rtnetlink request 'msg' on 'sock', frees it, and waits for the
 * kernel's answer.  Not nl_transact(): its sockets may belong to another
 * network namespace than a probing thread's.  For the probes of
 * netdev-linux-tnl-probe.c too. */
int
netdev_linux_probe_transact(struct nl_sock *sock, struct ofpbuf *msg)
{
    uint64_t stub[1024 / 8];
    struct ofpbuf reply;
    int error;

    nl_msg_nlmsghdr(msg)->nlmsg_flags |= NLM_F_ACK;
    error = nl_sock_send(sock, msg, true);
    ofpbuf_uninit(msg);
    if (error) {
        return error;
    }
    ofpbuf_use_stub(&reply, stub, sizeof stub);
    error = nl_sock_recv(sock, &reply, NULL, true);
    if (!error && !nl_msg_nlmsgerr(&reply, &error, NULL)) {
        error = EPROTO;
    }
    ofpbuf_uninit(&reply);
    return error;
}

/* Starts in 'msg' an RTM_NEWLINK request with 'flags' for the device with
 * index 'ifindex' (0 for a new one). */
void
netdev_linux_probe_newlink(struct ofpbuf *msg, int flags, int ifindex)
{
    struct ifinfomsg *ifi;

    ofpbuf_init(msg, 0);
    nl_msg_put_nlmsghdr(msg, 0, RTM_NEWLINK, NLM_F_REQUEST | flags);
    ifi = ofpbuf_put_zeros(msg, sizeof *ifi);
    ifi->ifi_family = AF_UNSPEC;
    ifi->ifi_index = ifindex;
}

/* Makes the probe's veth pair in the current network namespace, with
 * BIG TCP limits, up, and gives PROBE_RX the address 'probe_dst'.  Stores
 * the index of PROBE_TX in '*tx_ifindex'. */
static int
probe_make_veths(struct nl_sock *sock, int *tx_ifindex)
{
    const char *names[] = { PROBE_TX, PROBE_RX };
    struct ifaddrmsg *ifa;
    struct ofpbuf msg;
    size_t linkinfo, data, peer;
    int error;

    netdev_linux_probe_newlink(&msg, NLM_F_CREATE | NLM_F_EXCL, 0);
    nl_msg_put_string(&msg, IFLA_IFNAME, PROBE_TX);
    nl_msg_put_unspec(&msg, IFLA_ADDRESS, &probe_tx_mac, ETH_ADDR_LEN);
    linkinfo = nl_msg_start_nested(&msg, IFLA_LINKINFO);
    nl_msg_put_string(&msg, IFLA_INFO_KIND, "veth");
    data = nl_msg_start_nested(&msg, IFLA_INFO_DATA);
    peer = nl_msg_start_nested(&msg, VETH_INFO_PEER);
    ofpbuf_put_zeros(&msg, sizeof(struct ifinfomsg));
    nl_msg_put_string(&msg, IFLA_IFNAME, PROBE_RX);
    nl_msg_put_unspec(&msg, IFLA_ADDRESS, &probe_rx_mac, ETH_ADDR_LEN);
    nl_msg_end_nested(&msg, peer);
    nl_msg_end_nested(&msg, data);
    nl_msg_end_nested(&msg, linkinfo);
    error = netdev_linux_probe_transact(sock, &msg);
    if (error) {
        return error;
    }

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        struct ifinfomsg *ifi;
        int ifindex = if_nametoindex(names[i]);

        if (!ifindex) {
            return errno;
        }
        netdev_linux_probe_newlink(&msg, 0, ifindex);
        ifi = ofpbuf_at_assert(&msg, NLMSG_HDRLEN, sizeof *ifi);
        ifi->ifi_flags = IFF_UP;
        ifi->ifi_change = IFF_UP;
        nl_msg_put_u32(&msg, IFLA_GSO_MAX_SIZE, GSO_MAX_SIZE);
        error = netdev_linux_probe_transact(sock, &msg);
        if (error) {
            return error;
        }
        if (i == 0) {
            *tx_ifindex = ifindex;
            continue;
        }

        ofpbuf_init(&msg, 0);
        nl_msg_put_nlmsghdr(&msg, 0, RTM_NEWADDR,
                            NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL);
        ifa = ofpbuf_put_zeros(&msg, sizeof *ifa);
        ifa->ifa_family = AF_INET6;
        ifa->ifa_prefixlen = 128;
        ifa->ifa_flags = IFA_F_NODAD;
        ifa->ifa_index = ifindex;
        nl_msg_put_in6_addr(&msg, IFA_LOCAL, &probe_dst);
        nl_msg_put_in6_addr(&msg, IFA_ADDRESS, &probe_dst);
        error = netdev_linux_probe_transact(sock, &msg);
        if (error) {
            return error;
        }
    }
    return 0;
}

/* Writes into 'buf' the probe's virtio-net header and frame, an IPv6 TCP
 * TSO packet of PROBE_PAYLOAD bytes of payload to a closed port of
 * 'probe_dst', with a jumbo option if 'hbh'; or, if 'sentinel' is
 * nonzero, sentinel number 'sentinel', a TCP packet without payload from
 * PROBE_SENTINEL_PORT.  Returns its length. */
static size_t
probe_frame(char *buf, bool hbh, uint32_t sentinel)
{
    struct virtio_net_hdr *vnet = ALIGNED_CAST(struct virtio_net_hdr *, buf);
    struct eth_header *eth = ALIGNED_CAST(struct eth_header *, vnet + 1);
    struct ovs_16aligned_ip6_hdr *ip6;
    struct tcp_header *tcp;
    size_t l4_ofs;

    memset(buf, 0, sizeof *vnet + ETH_HEADER_LEN + IPV6_HEADER_LEN
           + BIGTCP_JUMBO_HBH_LEN + TCP_HEADER_LEN);
    eth->eth_dst = probe_rx_mac;
    eth->eth_src = probe_tx_mac;
    eth->eth_type = htons(ETH_TYPE_IPV6);

    ip6 = ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *, eth + 1);
    put_16aligned_be32(&ip6->ip6_flow, htonl(6 << 28));
    ip6->ip6_plen = htons(sentinel ? TCP_HEADER_LEN : 0);
    ip6->ip6_hlim = 64;
    memcpy(&ip6->ip6_src, &probe_src, sizeof ip6->ip6_src);
    memcpy(&ip6->ip6_dst, &probe_dst, sizeof ip6->ip6_dst);
    ip6->ip6_nxt = IPPROTO_TCP;

    tcp = ALIGNED_CAST(struct tcp_header *, ip6 + 1);
    tcp->tcp_src = htons(sentinel ? PROBE_SENTINEL_PORT : PROBE_PORT);
    tcp->tcp_dst = htons(PROBE_PORT);
    put_16aligned_be32(&tcp->tcp_seq, htonl(sentinel ? sentinel : 1));
    tcp->tcp_ctl = TCP_CTL(TCP_ACK, TCP_HEADER_LEN / 4);
    tcp->tcp_winsz = htons(1000);
    if (hbh) {
        bigtcp_frame_jumbo_hdr(ip6, TCP_HEADER_LEN,
                               TCP_HEADER_LEN + PROBE_PAYLOAD);
        tcp = ALIGNED_CAST(struct tcp_header *,
                           (char *) (ip6 + 1) + BIGTCP_JUMBO_HBH_LEN);
    }

    l4_ofs = (char *) tcp - (char *) eth;
    vnet->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    vnet->csum_start = l4_ofs;
    vnet->csum_offset = offsetof(struct tcp_header, tcp_csum);
    if (sentinel) {
        vnet->gso_type = VIRTIO_NET_HDR_GSO_NONE;
        return sizeof *vnet + l4_ofs + TCP_HEADER_LEN;
    }
    vnet->gso_type = VIRTIO_NET_HDR_GSO_TCPV6;
    vnet->hdr_len = l4_ofs + TCP_HEADER_LEN;
    vnet->gso_size = PROBE_MSS;

    return sizeof *vnet + l4_ofs + TCP_HEADER_LEN + PROBE_PAYLOAD;
}

/* Reads what IPv6 delivers to raw socket 'raw' into 'rx' (PROBE_RX_SIZE
 * bytes) until sentinel number 'sentinel' comes, for at most 'ms'
 * milliseconds.  Returns 1 if the probe's packet came whole before it, 0
 * if not, -2 if the sentinel did not come. */
static int
probe_recv(int raw, char *rx, uint32_t sentinel, int ms)
{
    long long int deadline = time_msec() + ms;
    int whole = 0;

    for (;;) {
        struct pollfd pfd = { .fd = raw, .events = POLLIN };
        long long int now = time_msec();
        const struct tcp_header *tcp;
        ssize_t n;

        if (now >= deadline) {
            return -2;
        }
        if (poll(&pfd, 1, deadline - now) <= 0) {
            continue;           /* Interrupted, or the deadline. */
        }
        n = recv(raw, rx, PROBE_RX_SIZE, MSG_DONTWAIT);
        tcp = ALIGNED_CAST(const struct tcp_header *, rx);
        if (n == TCP_HEADER_LEN + PROBE_PAYLOAD) {
            whole = 1;
        } else if (n == TCP_HEADER_LEN
                   && tcp->tcp_src == htons(PROBE_SENTINEL_PORT)
                   && get_16aligned_be32(&tcp->tcp_seq) == htonl(sentinel)) {
            return whole;
        }
    }
}

/* Sends sentinel number 'sentinel' through AF_PACKET socket 'fd'.  Returns
 * 0, or -1 if the send failed. */
static int
probe_send_sentinel(int fd, char *buf, uint32_t sentinel)
{
    size_t len = probe_frame(buf, false, sentinel);

    return send(fd, buf, len, 0) == len ? 0 : -1;
}

/* Sends sentinels through AF_PACKET socket 'fd', a new one every 100 ms,
 * until one is delivered to 'raw'.  Returns 0 once one is, -1 if a send
 * failed, -2 if none came within PROBE_WAIT_MS.  '*sentinel' is the number
 * of the last one sent. */
static int
probe_open_path(int fd, int raw, char *buf, char *rx, uint32_t *sentinel)
{
    long long int deadline = time_msec() + PROBE_WAIT_MS;

    while (time_msec() < deadline) {
        *sentinel += 1;
        if (probe_send_sentinel(fd, buf, *sentinel)) {
            return -1;
        }
        if (probe_recv(raw, rx, *sentinel, 100) == 0) {
            return 0;
        }
    }
    return -2;
}

/* Sends the probe's packet with framing 'hbh', then sentinel number
 * '*sentinel' + 1, through AF_PACKET socket 'fd' bound to PROBE_TX.
 * Returns 1 if the peer's IPv6 stack delivered the packet whole to its
 * upper layer, 0 if not (dropped, cut short or segmented), -1 if a send
 * failed, -2 if the sentinel did not come (no answer).  'raw', a raw IPv6
 * socket for TCP in the peer's namespace, gets a copy of each TCP packet
 * that IPv6 delivers, from its TCP header on, into 'rx' (PROBE_RX_SIZE
 * bytes).  The length is what tells: a stack that does not know the
 * framing may take payload length 0 at its word and deliver a TCP packet
 * of no bytes, which still counts in Ip6InDelivers. */
static int
probe_send(int fd, int raw, char *buf, char *rx, bool hbh,
           uint32_t *sentinel)
{
    size_t len = probe_frame(buf, hbh, 0);

    *sentinel += 1;
    if (send(fd, buf, len, 0) != len
        || probe_send_sentinel(fd, buf, *sentinel)) {
        return -1;
    }
    return probe_recv(raw, rx, *sentinel, PROBE_WAIT_MS);
}

/* Keeps the calling thread on the CPU it runs on (see
 * PROBE_SENTINEL_PORT).  Returns 0 or an errno value. */
static int
probe_stay_on_cpu(void)
{
    cpu_set_t cpus;
    int cpu = sched_getcpu();

    if (cpu < 0) {
        return errno;
    }
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    return sched_setaffinity(0, sizeof cpus, &cpus) ? errno : 0;
}

static const char *
probe_verdict(int sent)
{
    return (sent == 1 ? "delivered"
            : sent == 0 ? "not delivered"
            : sent == -1 ? "not sent"
            : "not answered (no sentinel)");
}

static void *
probe_thread(void *result_)
{
    enum netdev_linux_probe_bigtcp *result = result_;
    struct sockaddr_ll sll;
    struct nl_sock *sock;
    int fd, raw, error, hbh, plain;
    uint32_t sentinel = 0;
    int ifindex = 0;
    int on = 1;
    char *buf, *rx;

    *result = NETDEV_LINUX_IPV6_BIGTCP_UNKNOWN;
    if (unshare(CLONE_NEWNET)) {
        VLOG_INFO("cannot make a network namespace to ask the kernel how "
                  "it takes IPv6 BIG TCP packets (%s)", ovs_strerror(errno));
        return NULL;
    }
    error = nl_sock_create(NETLINK_ROUTE, &sock);
    if (error) {
        VLOG_INFO("probe: netlink socket failed (%s)", ovs_strerror(error));
        return NULL;
    }
    error = probe_make_veths(sock, &ifindex);
    nl_sock_destroy(sock);
    if (error) {
        VLOG_INFO("probe: veth pair failed (%s)", ovs_strerror(error));
        return NULL;
    }

    fd = socket(AF_PACKET, SOCK_RAW, 0);
    if (fd < 0) {
        VLOG_INFO("probe: AF_PACKET socket failed (%s)", ovs_strerror(errno));
        return NULL;
    }
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_ifindex = ifindex;
    if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &on, sizeof on)
        || bind(fd, (struct sockaddr *) &sll, sizeof sll)) {
        VLOG_INFO("probe: AF_PACKET setup failed (%s)", ovs_strerror(errno));
        close(fd);
        return NULL;
    }

    raw = socket(AF_INET6, SOCK_RAW, IPPROTO_TCP);
    if (raw < 0) {
        VLOG_INFO("probe: raw socket failed (%s)", ovs_strerror(errno));
        close(fd);
        return NULL;
    }
    error = probe_stay_on_cpu();
    if (error) {
        VLOG_INFO("probe: cannot keep the probe on one CPU (%s)",
                  ovs_strerror(error));
        close(raw);
        close(fd);
        return NULL;
    }
    buf = xzalloc(sizeof(struct virtio_net_hdr) + 256 + PROBE_PAYLOAD);
    rx = xmalloc(PROBE_RX_SIZE);
    plain = hbh = probe_open_path(fd, raw, buf, rx, &sentinel);
    if (!plain) {
        plain = probe_send(fd, raw, buf, rx, false, &sentinel);
        hbh = probe_send(fd, raw, buf, rx, true, &sentinel);
    }
    free(rx);
    free(buf);
    close(raw);
    close(fd);

    VLOG_INFO("probe: an IPv6 BIG TCP packet with payload length 0 alone "
              "was %s, one with the jumbo option %s",
              probe_verdict(plain), probe_verdict(hbh));
    if (hbh == 1) {
        *result = NETDEV_LINUX_IPV6_BIGTCP_HBH;
    } else if (plain == 1) {
        *result = NETDEV_LINUX_IPV6_BIGTCP_PLAIN;
    } else if (hbh == 0 && plain == 0) {
        *result = NETDEV_LINUX_IPV6_BIGTCP_NONE;
    }
    /* The namespace, and the veths in it, go with this thread. */
    return NULL;
}

/* Returns the framing in which the running kernel delivers an IPv6 BIG TCP
 * packet that Open vSwitch sends through an AF_PACKET socket (see
 * netdev-linux-probe.h).  The kernel is asked once per process, the first
 * time; the answer is logged. */
enum netdev_linux_probe_bigtcp
netdev_linux_probe_ipv6_bigtcp(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static enum netdev_linux_probe_bigtcp result;

    if (ovsthread_once_start(&once)) {
        xpthread_join(ovs_thread_create("bigtcp_probe", probe_thread,
                                        &result), NULL);
        if (result == NETDEV_LINUX_IPV6_BIGTCP_UNKNOWN) {
            COVERAGE_INC(netdev_linux_probe_unknown);
            VLOG_WARN("how the kernel delivers IPv6 BIG TCP packets from "
                      "AF_PACKET sockets is unknown: Open vSwitch writes "
                      "the jumbo option");
        } else if (result == NETDEV_LINUX_IPV6_BIGTCP_NONE) {
            VLOG_INFO("the kernel does not deliver IPv6 BIG TCP packets "
                      "from AF_PACKET sockets in either framing: IPv6 TSO "
                      "packets to system ports are resegmented to frames "
                      "of %d bytes", NETDEV_LINUX_IPV6_PLAIN_MAX_FRAME);
        } else {
            VLOG_INFO("IPv6 BIG TCP packets from AF_PACKET sockets: "
                      "delivered framing: %s, which Open vSwitch writes",
                      netdev_linux_probe_bigtcp_to_string(result));
        }
        ovsthread_once_done(&once);
    }
    return result;
}

/* Returns true if IPv6 BIG TCP packets that Open vSwitch sends to a Linux
 * port, a system port or a tap, are to go with payload length 0 alone, not
 * with the jumbo option: if the kernel was asked and delivered them only
 * so.  Asks the kernel the first time (see
 * netdev_linux_probe_ipv6_bigtcp()). */
bool
netdev_linux_probe_ipv6_plen0(void)
{
    return netdev_linux_probe_ipv6_bigtcp() == NETDEV_LINUX_IPV6_BIGTCP_PLAIN;
}

/* Counts an IPv6 BIG TCP packet sent to a Linux port, with the jumbo option
 * if 'jumbo_option', with payload length 0 alone otherwise. */
void
netdev_linux_probe_count_tx(bool jumbo_option)
{
    if (jumbo_option) {
        COVERAGE_INC(netdev_linux_tx_ipv6_jumbo_option);
    } else {
        COVERAGE_INC(netdev_linux_tx_ipv6_plen0);
    }
}

/* Frames 'b' for a Linux port if it is an IPv6 BIG TCP packet (see
 * bigtcp_frame_ipv6_big_len()): inserts the jumbo option unless
 * netdev_linux_probe_ipv6_plen0(), and counts it.  Returns the number of
 * bytes inserted. */
size_t
netdev_linux_probe_frame_tx(struct dp_packet *b)
{
    bool plen0;

    if (!bigtcp_frame_ipv6_big_len(b)) {
        return 0;
    }
    plen0 = netdev_linux_probe_ipv6_plen0();
    netdev_linux_probe_count_tx(!plen0);
    return plen0 ? 0 : bigtcp_frame_insert_jumbo(b);
}
