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

#ifndef OFPROTO_DPIF_GSO_H
#define OFPROTO_DPIF_GSO_H 1

/* What the slow path sees of a TSO packet.
 *
 * A TSO packet reaches ofproto-dpif-upcall whole from both datapaths: the
 * userspace datapath keeps TSO packets whole through its actions, and the
 * Linux kernel datapath brings TCP GSO packets up whole when it has the
 * ovs-bigtcp extension's GSO-aware upcalls (lib/dpif-netlink-gso.h).  One
 * rule applies to both:
 *
 *   - A miss, or a packet of a flow that the slow path executes, is
 *     translated and executed whole.  Its output ports take it as TSO
 *     packets or segments, as for any packet.
 *
 *   - A userspace() action that hands the packet to a consumer (a
 *     controller's packet-in, sFlow, IPFIX bridge or flow sampling) hands
 *     it the segments instead, each a packet with complete checksums, as a
 *     datapath that segments before an upcall would.  An OpenFlow
 *     packet-in's length is 16 bits, and sFlow and IPFIX describe packets
 *     as they are on the wire: a sampled TSO packet is reported as the
 *     samples of its segments, one each.
 *
 * The coverage counters ofproto_dpif_gso_consumer (TSO packets segmented for
 * a consumer) and ofproto_dpif_gso_consumer_segs (segments handed over)
 * count it. */

#include <stdbool.h>

struct dp_packet;
struct dp_packet_batch;

bool ofproto_dpif_gso_consumer_segments(const struct dp_packet *,
                                        struct dp_packet_batch *segs);
void ofproto_dpif_gso_segments_destroy(struct dp_packet_batch *segs);

#endif /* ofproto-dpif-gso.h */
