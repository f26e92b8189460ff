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

#ifndef NETDEV_GRO_H
#define NETDEV_GRO_H 1

/* Generic receive offload (GRO) for the userspace datapath.
 *
 * A port that receives a TCP flow as MSS-sized packets (a sender without
 * TSO, a device without LRO) costs the datapath a flow lookup, an action
 * execution and a share of a system call per segment.  GRO coalesces the
 * in-order segments of one flow, as they are received, into one TSO packet
 * before the datapath sees them, as Linux does in napi_gro_receive(), so
 * that the datapath handles one packet per up to 'gro-max-size' bytes, and
 * a port that takes TSO packets sends it as one.
 *
 * The rules are Linux's (tcp_gro_receive(), inet_gro_receive(),
 * ipv6_gro_receive()): the segments of one packet have the same Ethernet
 * header (with at most one 802.1Q tag), addresses, ports, TOS or traffic
 * class, TTL or hop limit, DF bit, flow label, TCP header length, flags,
 * acknowledgment number, window and options; IPv4 IDs that increment by
 * one per segment, or (with DF) stay the same; valid checksums; no IP
 * options, fragments or IPv6 extension headers; sequence numbers that
 * follow on; and each segment but the last carries the first one's payload
 * size.  A segment with SYN, RST or URG,
 * without payload, or that breaks a rule is passed on as it came, after the
 * packet that its flow had so far.  PSH or FIN, or a shorter segment, ends
 * the packet.  A short IPv4 segment padded to the minimum Ethernet frame
 * with zeros is trimmed and coalesced (as Linux does since the padded-runt
 * fix); other trailing bytes stop a merge.
 *
 * The coalesced packet is the first segment's headers (with its lengths,
 * flags and checksums updated) followed by the payloads, marked as a TSO
 * packet whose segment size is the first segment's payload: a packet that
 * the resegmentation engine or the device cuts back into the same
 * segments.  Packets over 64 KiB use the BIG TCP framing (see
 * bigtcp-framing.h).  It also keeps the segments it was made of
 * (dp-packet-segs.h), unless Interface option "gro-keep-segments" is
 * false: a port that takes no TSO packets sends those, with the headers
 * that actions gave the packet, instead of segmenting it again.  Segments
 * that a device or the engine cuts from the packet itself differ from the
 * kept ones in one way: a flow whose IPv4 IDs stay the same gets
 * incrementing IDs, as from any other TSO packet.
 *
 * GRO never holds a packet after netdev_rxq_recv() returns: it receives up
 * to NETDEV_GRO_MAX_PACKETS packets in a row, while the port has some and
 * what it made so far fits in one batch, and returns what it coalesced.
 * Packets beyond one batch wait for the next call, which returns them
 * before it receives again. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;

/* Most packets received in a row for one netdev_rxq_recv(): 16 batches. */
#define NETDEV_GRO_MAX_PACKETS 512

/* Headroom of a coalesced packet's buffer, for headers pushed later. */
#define NETDEV_GRO_HEADROOM 128

/* The engine (lib/netdev-gro.c): one receive queue's coalescing state. */
struct netdev_gro *netdev_gro_create(void);
void netdev_gro_destroy(struct netdev_gro *);
void netdev_gro_receive(struct netdev_gro *, struct dp_packet *,
                        uint32_t max_size, bool keep_segs);
void netdev_gro_flush(struct netdev_gro *);
size_t netdev_gro_pop(struct netdev_gro *, struct dp_packet_batch *);
size_t netdev_gro_n_pending(const struct netdev_gro *);
void netdev_gro_take_counts(struct netdev_gro *, uint64_t *packets,
                            uint64_t *segments);

#endif /* netdev-gro.h */
