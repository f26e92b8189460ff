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

#ifndef NETDEV_LINUX_PROBE_H
#define NETDEV_LINUX_PROBE_H 1

/* What the running kernel does with an IPv6 BIG TCP packet that Open
 * vSwitch sends through an AF_PACKET socket.
 *
 * A system port (a veth, a NIC) takes TSO packets from Open vSwitch through
 * an AF_PACKET socket with a virtio-net header.  For IPv4 the kernel takes a
 * BIG TCP packet (total length 0) as it is.  For IPv6 what it takes has
 * changed over time: Linux 6.x frames a BIG TCP packet with a Hop-by-Hop
 * jumbo option, 7.x with a payload length of 0 alone (7.2 still takes the
 * option), and some kernels strip the option on the AF_PACKET send path
 * while their receive path still requires it, so that a peer's IPv6 stack
 * drops every such packet as a header error and the TCP flow stalls.  A
 * kernel's version string does not say which, so the kernel is asked: once
 * per process, a thread moves to a network namespace of its own, makes a
 * veth pair there and sends one IPv6 BIG TCP packet in each framing from
 * one end to an address of the other, and looks at what the other end's
 * IPv6 stack delivered to a raw socket: the whole packet, or not.
 *
 * The answer bounds the IPv6 TSO limit of system ports (to
 * NETDEV_LINUX_IPV6_PLAIN_MAX_FRAME where no framing is delivered, see
 * netdev-linux.c) and tells the send path of
 * system ports and taps which framing to write: the jumbo option where the
 * kernel delivers it (Linux 6.12 and 7.2 deliver both framings), payload
 * length 0 alone where the kernel delivers only that. */

#include <stdbool.h>
#include <stddef.h>

struct dp_packet;
struct nl_sock;
struct ofpbuf;

enum netdev_linux_probe_bigtcp {
    NETDEV_LINUX_IPV6_BIGTCP_UNKNOWN, /* Could not be asked (no privilege to
                                       * make a namespace, for example), or
                                       * did not answer (coverage counter
                                       * netdev_linux_probe_unknown): the
                                       * jumbo option, as before. */
    NETDEV_LINUX_IPV6_BIGTCP_HBH,     /* Delivered with the jumbo option
                                       * (and maybe without). */
    NETDEV_LINUX_IPV6_BIGTCP_PLAIN,   /* Delivered with payload length 0
                                       * alone, not with the option. */
    NETDEV_LINUX_IPV6_BIGTCP_NONE,    /* Delivered in neither framing. */
};

/* The IPv6 TSO limit of a system port where the answer is
 * NETDEV_LINUX_IPV6_BIGTCP_NONE: the largest Ethernet frame whose IPv6
 * payload length holds its size, which needs no BIG TCP framing (what
 * Linux's own GRO builds for 64 KiB limits is within it). */
#define NETDEV_LINUX_IPV6_PLAIN_MAX_FRAME \
    (ETH_HEADER_LEN + IPV6_HEADER_LEN + UINT16_MAX)

enum netdev_linux_probe_bigtcp netdev_linux_probe_ipv6_bigtcp(void);
bool netdev_linux_probe_ipv6_plen0(void);
void netdev_linux_probe_count_tx(bool jumbo_option);
size_t netdev_linux_probe_frame_tx(struct dp_packet *);
const char *netdev_linux_probe_bigtcp_to_string(
    enum netdev_linux_probe_bigtcp);

/* For the kernel probes: rtnetlink in the probing thread's namespace. */
int netdev_linux_probe_transact(struct nl_sock *, struct ofpbuf *);
void netdev_linux_probe_newlink(struct ofpbuf *, int flags, int ifindex);

#endif /* netdev-linux-probe.h */
