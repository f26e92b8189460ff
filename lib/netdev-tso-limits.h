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

#ifndef NETDEV_TSO_LIMITS_H
#define NETDEV_TSO_LIMITS_H 1

/* Per-port TSO limits.
 *
 * Every netdev that takes TSO packets has limits on what it takes: the
 * largest TSO frame, in bytes from the Ethernet header on (as Linux's
 * gso_max_size, which IPv6 uses, and gso_ipv4_max_size, which IPv4 uses),
 * and the most segments one TSO packet may make (gso_max_segs).
 *
 * The netdev provider reports what the device supports with
 * netdev_tso_limits_set_dev(); until it does, a port is assumed to take the
 * 64 KiB of TSO without BIG TCP.  The user may lower the limits with the
 * Interface options "tso-max-size" and "tso-max-segs".  The limits in
 * effect are the lower of the two, and appear in the Interface's status
 * column and in "ovs-appctl netdev-tso/show".
 *
 * A tunnel port of the kernel datapath sends its packets through a tunnel
 * device that Open vSwitch sets up (genev_sys_6081, ...), whose GSO and GRO
 * limits dpif-netlink-tnl-limits.c raises where the kernel allows it.  What
 * it did there, and why, appears in the same places. */

#include <stdint.h>
#include "ovs-atomic.h"
#include "util.h"

struct dp_packet;
struct dp_packet_batch;
struct dp_packet_reseg_plan;
struct netdev;
struct smap;

/* Default size limit of a device: TSO as it was before BIG TCP.  (The
 * largest limits are GSO_MAX_SIZE and GSO_MAX_SEGS, in packets.h.) */
#define NETDEV_TSO_DEFAULT_MAX_SIZE 65536

/* Smallest limit a user may configure: room for two full-sized segments of
 * a standard Ethernet MTU. */
#define NETDEV_TSO_MIN_USER_SIZE 3000

/* The GSO and GRO limits of the tunnel device behind a tunnel port of the
 * kernel datapath, as dpif-netlink-tnl-limits.c left them, for the port's
 * status and netdev-tso/show. */
struct netdev_tso_tnl_dev {
    char *name;                 /* The device, e.g. "genev_sys_6081". */
    uint32_t max_size;          /* Its GSO and GRO limits, IPv4 and IPv6
                                 * alike, or 0 if unknown. */
    uint32_t tso_max_size;      /* Its TSO limit, or 0 if unknown. */
    const char *source;         /* What holds the limits there, a static
                                 * string: "device", "option", "kernel",
                                 * "unreported" or "error". */
    char *limit;                /* Which limit holds and why, a sentence
                                 * for the user. */
};

/* Whether a port takes UDP tunnel (VXLAN, Geneve) TSO packets whose outer
 * IP packet is over 64 KiB, in the framing of Linux 7.3's "BIG TCP for UDP
 * tunnels": outer IPv4 total length or IPv6 payload length 0 (no jumbo
 * option) and UDP length 0, the real lengths written into each segment by
 * the segmentation.  Without it, a tunnel TSO packet's outer lengths must
 * fit in 16 bits.  One answer per outer IP version. */
enum netdev_tso_tnl_big {
    NETDEV_TSO_TNL_BIG_NONE,    /* Not for this port (the default). */
    NETDEV_TSO_TNL_BIG_PENDING, /* The kernel is being asked. */
    NETDEV_TSO_TNL_BIG_UNKNOWN, /* The kernel could not be asked. */
    NETDEV_TSO_TNL_BIG_NO,      /* The kernel does not take them. */
    NETDEV_TSO_TNL_BIG_YES,     /* The kernel takes them. */
};

/* TSO limits of one netdev, embedded in struct netdev. */
struct netdev_tso_limits {
    /* What the device supports (set by its provider). */
    uint32_t dev_max_size;         /* Bytes, IPv6 and other. */
    uint32_t dev_ipv4_max_size;    /* Bytes, IPv4. */
    uint32_t dev_max_segs;         /* Segments. */
    bool dev_reported;             /* The provider has set them once. */

    /* What the user configured, 0 if nothing. */
    uint32_t user_max_size;
    uint32_t user_max_segs;
    char *config_error;            /* Why some of it was ignored, or NULL. */

    /* In effect: the lower of the two.  Read on the transmit path. */
    atomic_uint32_t max_size;
    atomic_uint32_t ipv4_max_size;
    atomic_uint32_t max_segs;

    /* UDP tunnel TSO packets over 64 KiB of outer IP packet, per outer IP
     * version ([0] IPv4, [1] IPv6): whether the port takes them, and up to
     * what frame size (the device's limit for them, in bytes from the
     * Ethernet header on).  'tnl_max_size' is what the transmit path reads:
     * that size if the answer is yes and it is over 64 KiB, otherwise 0:
     * the outer lengths of tunnel TSO packets then fit in 16 bits. */
    atomic_int tnl_big[2];         /* enum netdev_tso_tnl_big. */
    uint32_t tnl_dev_max_size[2];
    atomic_uint32_t tnl_max_size[2];

    /* TSO packets over the limits, sent through this port. */
    atomic_uint64_t n_resegmented; /* Cut into TSO packets that fit. */
    atomic_uint64_t n_reseg_packets;   /* The TSO packets that made. */
    atomic_uint64_t n_segmented;   /* Segmented fully, in software. */

    /* TSO packets over 64 KiB that the kernel refused to take whole from
     * the provider, sent again as outputs of at most 64 KiB. */
    atomic_uint64_t n_tx_fallback;
    atomic_uint64_t n_tx_fallback_packets; /* The packets that made. */

    /* The tunnel device behind a tunnel port of the kernel datapath, or
     * NULL.  Written and read by the main thread only. */
    struct netdev_tso_tnl_dev *tnl_dev;
};

void netdev_tso_limits_init(struct netdev_tso_limits *);
void netdev_tso_limits_destroy(struct netdev_tso_limits *);

/* For netdev providers. */
void netdev_tso_limits_set_dev(struct netdev *, uint32_t max_size,
                               uint32_t ipv4_max_size, uint32_t max_segs);
void netdev_tso_limits_set_tnl_big(struct netdev *, int ip_version,
                                   enum netdev_tso_tnl_big,
                                   uint32_t max_size);
const char *netdev_tso_limits_tnl_big_to_string(enum netdev_tso_tnl_big);

/* For the kernel datapath's tunnel devices (dpif-netlink-tnl-limits.c). */
uint32_t netdev_tso_limits_get_user_max_size(const struct netdev *);
void netdev_tso_limits_set_tnl_dev(struct netdev *,
                                   const struct netdev_tso_tnl_dev *);

/* For lib/netdev.c. */
void netdev_tso_limits_set_config(struct netdev *, struct smap *args);
const char *netdev_tso_limits_get_error(const struct netdev *);
void netdev_tso_limits_get_status(const struct netdev *, struct smap *);
void netdev_tso_limits_register_commands(void);
struct ds;
struct netdev_custom_stats;
void netdev_tso_limits_append_custom_stats(const struct netdev *,
                                           struct netdev_custom_stats *);
void netdev_tso_limits_append_counters(struct netdev_custom_stats *,
                                       uint64_t resegmented,
                                       uint64_t reseg_packets,
                                       uint64_t segmented);
bool netdev_tso_limits_format_counters(const struct netdev_custom_stats *,
                                       struct ds *);

/* For the transmit path: the limits in effect for a TSO packet of IP
 * version 'ip_version' (4 or 6). */
static inline void
netdev_tso_limits_get(const struct netdev_tso_limits *l, int ip_version,
                      uint32_t *max_size, uint32_t *max_segs)
{
    if (ip_version == 4) {
        atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *,
                                        l)->ipv4_max_size, max_size);
    } else {
        atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *,
                                        l)->max_size, max_size);
    }
    atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *, l)->max_segs,
                        max_segs);
}

/* For the transmit path: the largest frame of a UDP tunnel TSO packet whose
 * outer IP packet is over 64 KiB, with outer IP version 'ip_version', that
 * the port takes (see enum netdev_tso_tnl_big), or 0 if such a packet's
 * outer lengths must fit in 16 bits. */
static inline uint32_t
netdev_tso_limits_get_tnl_max(const struct netdev_tso_limits *l,
                              int ip_version)
{
    uint32_t max_size;

    atomic_read_relaxed(&CONST_CAST(struct netdev_tso_limits *, l)
                        ->tnl_max_size[ip_version == 4 ? 0 : 1], &max_size);
    return max_size;
}

#endif /* netdev-tso-limits.h */
