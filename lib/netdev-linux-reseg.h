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

#ifndef NETDEV_LINUX_RESEG_H
#define NETDEV_LINUX_RESEG_H 1

/* Zero-copy resegmentation for netdev-linux.
 *
 * A TSO packet over a Linux port's TSO limits is sent as the TSO packets
 * that fit (see dp-packet-reseg.h), each one as a vector of three buffers:
 * its virtio-net header, its own packet headers, and the slice of the
 * original packet's payload that it carries.  The payload is never copied:
 * the kernel copies it once, into the skb, as it does for any packet sent
 * by AF_PACKET or to a tap.
 *
 * A TSO packet over 64 KiB that fits the port is sent the same way, as one
 * output, so that it can be sent again if the kernel refuses it: a tap
 * write or an AF_PACKET send builds the skb of a packet over 64 KiB from
 * high-order (up to 32 KiB) page chunks, since an skb has at most
 * MAX_SKB_FRAGS of them, and fails with ENOBUFS when the kernel has no such
 * pages at hand.  Such a refused output is sent again cut into outputs of
 * at most 64 KiB, which always fit in order-0 pages, and counted in the
 * port's "tso_tx_fallback" statistic: no packet is lost for it. */

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>

#include "dp-packet-reseg.h"
#include "netdev-tso-enforce.h"

struct dp_packet;
struct netdev;

/* Buffers per output: virtio-net header, packet headers, payload. */
#define NETDEV_LINUX_RESEG_IOVS 3

/* The virtio-net header that a port's outputs start with: 'len' bytes,
 * struct virtio_net_hdr first.  For a port that takes tunnel TSO packets
 * (a tap with UDP tunnel GSO), 'tnl_output' completes the headers 'hdr' of
 * an output of a tunnel packet, of 'len' bytes of payload and segment size
 * 'segsz' (0 for one segment), and builds its header 'vnet' (see
 * netdev_linux_tnl_reseg_output()); NULL for other ports. */
struct netdev_linux_reseg_vnet {
    size_t len;
    bool plen0;                 /* IPv6 BIG TCP outputs with payload length
                                 * 0 alone, not the jumbo option (see
                                 * netdev-linux-probe.h). */
    void (*tnl_output)(const struct dp_packet_reseg_plan *, char *hdr,
                       uint32_t len, uint16_t segsz, void *vnet);
};

struct netdev_linux_reseg {
    struct dp_packet_reseg_plan plan;
    struct netdev_linux_reseg_vnet vnet;
    struct iovec *iov;          /* NETDEV_LINUX_RESEG_IOVS per output. */
    char *hdrs;                 /* Every output's headers. */
};

enum netdev_tso_zerocopy netdev_linux_reseg_plan(
    const struct netdev *, const struct dp_packet *,
    struct dp_packet_reseg_plan *);
int netdev_linux_reseg_init(struct netdev_linux_reseg *,
                            const struct dp_packet_reseg_plan *,
                            const struct dp_packet *, int mtu);
int netdev_linux_reseg_init_vnet(struct netdev_linux_reseg *,
                                 const struct dp_packet_reseg_plan *,
                                 const struct dp_packet *, int mtu,
                                 const struct netdev_linux_reseg_vnet *);
void netdev_linux_reseg_destroy(struct netdev_linux_reseg *);

/* Sends one output, the 'n_iov' buffers at 'iov', to the kernel (a tap
 * write, an AF_PACKET send).  Returns 0 or a positive errno value. */
typedef int netdev_linux_reseg_send_cb(void *aux, const struct iovec *iov,
                                       int n_iov);
int netdev_linux_reseg_send(struct netdev *, const struct netdev_linux_reseg *,
                            const struct dp_packet *, int mtu,
                            netdev_linux_reseg_send_cb *, void *aux);

/* How netdev_linux_reseg_send_packet() reaches a Linux port: an AF_PACKET
 * socket or a tap's file descriptor. */
struct netdev_linux_reseg_port {
    struct netdev_linux_reseg_vnet vnet; /* Its outputs' virtio-net header. */

    /* Puts a virtio-net header of 'vnet_hdr_len' bytes in front of 'p', a
     * packet within the port's TSO limits (netdev-linux's own function).
     * Returns 0, or a positive errno value if 'p' cannot be sent. */
    int (*prepend_vnet_hdr)(struct dp_packet *p, int mtu, int vnet_hdr_len);

    netdev_linux_reseg_send_cb *send;   /* Sends one output. */
    void *aux;                          /* 'send''s first argument. */
    uint64_t *tx_dropped;               /* The port's dropped packets. */

    /* If nonnull, netdev_linux_reseg_send_packet() sends a packet cut into
     * more than one output in steps, held here; NULL sends it whole. */
    struct netdev_linux_reseg_steps *steps;
};

/* A resegmented TSO packet that a Linux port sends in steps, one or a few
 * outputs at a time, so that the thread that sends it can serve other
 * ports between the steps instead of being held for the whole packet: on a
 * veth, each output's transmission runs the peer's receive.  The packet's
 * payload stays in its buffer until its last output is sent. */
struct netdev_linux_reseg_steps {
    struct dp_packet *packet;   /* Being sent, owned; NULL if none. */
    struct netdev_linux_reseg r;        /* Its outputs. */
    uint32_t next;              /* Its first output not sent yet. */
    int mtu;
};

int netdev_linux_reseg_send_packet(struct netdev *,
                                   const struct netdev_linux_reseg_port *,
                                   struct dp_packet *, int mtu,
                                   enum netdev_tso_zerocopy,
                                   const struct dp_packet_reseg_plan *);

void netdev_linux_reseg_steps_init(struct netdev_linux_reseg_steps *);
void netdev_linux_reseg_steps_destroy(struct netdev_linux_reseg_steps *);
int netdev_linux_reseg_steps_send(struct netdev *,
                                  const struct netdev_linux_reseg_port *,
                                  struct netdev_linux_reseg_steps *,
                                  uint32_t max);

/* Returns true if 'steps' holds a packet not sent whole yet. */
static inline bool
netdev_linux_reseg_steps_busy(const struct netdev_linux_reseg_steps *steps)
{
    return steps->packet != NULL;
}

void netdev_linux_reseg_register_commands(void);

/* The buffers of output 'k' of 'r'. */
static inline struct iovec *
netdev_linux_reseg_iov(const struct netdev_linux_reseg *r, size_t k)
{
    return &r->iov[k * NETDEV_LINUX_RESEG_IOVS];
}

#endif /* netdev-linux-reseg.h */
