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

#ifndef NETDEV_LINUX_TNL_H
#define NETDEV_LINUX_TNL_H 1

/* UDP tunnel TSO on tap ports.
 *
 * Since Linux 6.17 the tun driver takes and gives TCP GSO packets inside a
 * UDP tunnel (VXLAN, Geneve): a tap whose owner sets TUN_F_UDP_TUNNEL_GSO
 * (and TUN_F_UDP_TUNNEL_GSO_CSUM for tunnels with UDP checksums) with
 * TUNSETOFFLOAD reads and writes packets behind a longer virtio-net header:
 *
 *     struct virtio_net_hdr            10 bytes, gso_type ORed with
 *                                      VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4
 *                                      or _IPV6 (the outer IP version),
 *                                      csum_start at the inner TCP header
 *     num_buffers, hash report          10 bytes, zero
 *     outer_th_offset, inner_nh_offset  2 + 2 bytes, little endian: the
 *                                      outer UDP and inner IP headers
 *
 * With it, Open vSwitch hands the tap a VXLAN or Geneve TSO packet whole,
 * and the kernel segments it (or passes it whole to a device that takes
 * tunnel GSO) instead of Open vSwitch cutting it into MSS-sized packets;
 * and the kernel hands Open vSwitch tunnel GSO packets that a tunnel port
 * decapsulates whole.  Whether the running kernel has it is asked of each
 * tap when it is opened: older kernels refuse the offload flags.
 *
 * A VXLAN or Geneve TSO packet whose outer IP packet is over 64 KiB goes
 * to such a tap whole, with outer lengths 0 (BIG TCP framing, see
 * bigtcp-tnl.h), up to the tap's GSO limit (gso_ipv4_max_size for an outer
 * IPv4 header, gso_max_size for IPv6), if the kernel takes such packets
 * (see netdev-linux-tnl-probe.h); otherwise, and on a tap whose GSO limit
 * is 64 KiB (the stock tun driver's), it is cut into packets whose outer
 * lengths fit in 16 bits, as before.  Such packets are also read from the
 * tap, as its virtio-net header describes them. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_reseg_plan;
struct netdev;

/* The length of the virtio-net header of a tap with UDP tunnel GSO. */
#define NETDEV_LINUX_TNL_VNET_HDR_LEN 24

bool netdev_linux_tnl_tap_enable(int tap_fd, unsigned int oflags);
int netdev_linux_tnl_parse(struct dp_packet *, const struct netdev *);
void netdev_linux_tnl_prepare(struct dp_packet *);
void netdev_linux_tnl_push(struct dp_packet *, void *vnet);
void netdev_linux_tnl_gso_hdr(void *vnet_hdr, void *frame, size_t len,
                              size_t outer_l3, size_t outer_th,
                              size_t inner_nh, size_t inner_th,
                              size_t tcp_len, uint16_t gso_size,
                              bool udp_csum);
void netdev_linux_tnl_update_limits(struct netdev *, uint32_t gso_max_size,
                                    uint32_t gso_ipv4_max_size);
void netdev_linux_tnl_reseg_output(const struct dp_packet_reseg_plan *,
                                   char *hdr, uint32_t len, uint16_t segsz,
                                   void *vnet_hdr);

#endif /* netdev-linux-tnl.h */
