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

#ifndef DP_PACKET_SEGS_H
#define DP_PACKET_SEGS_H 1

/* The kept segments of a coalesced TCP packet.
 *
 * A TSO packet that GRO made from received TCP segments (netdev-gro.h) is
 * one linear packet, which flow lookup and actions see, and it also keeps
 * the segments it was made of, as they came, as Linux's fraglist GRO keeps
 * them in an skb's frag_list.  When the packet has to be cut into segments
 * again, for a port that does not take TSO packets, dp_packet_gso() sends
 * the kept segments instead of copying the payload into new ones: each
 * gets the packet's headers as actions left them (addresses, ports, TTL,
 * VLAN tags, MPLS labels), with its own IP length, IPv4 ID, sequence number
 * and PSH, FIN and CWR flags, and its TCP checksum adjusted from its own
 * for the changed header words (RFC 1624), not computed over the payload.
 *
 * Kept segments describe the packet only while its TCP payload is the one
 * GRO made: a packet whose payload length no longer is theirs (truncated,
 * cut by resegmentation), whose TCP or IP header length changed, or that
 * was pushed into a tunnel is segmented from its own bytes instead, and the
 * segments are freed.  Code that rewrites a packet's payload in place drops
 * them with dp_packet_segs_drop().  Copies of a packet (dp_packet_clone())
 * do not have them. */

#include <stdbool.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;

/* The segments that a packet keeps. */
struct dp_packet_segs {
    uint32_t n;                 /* Number of segments. */
    uint32_t allocated;         /* Room in 'pkts'. */
    uint32_t payload_len;       /* Their TCP payloads, in all. */
    struct dp_packet *pkts[];   /* In sequence order. */
};

void dp_packet_segs_keep(struct dp_packet *, struct dp_packet *seg,
                         uint16_t l3_ofs, uint16_t l4_ofs,
                         uint32_t payload_len);
void dp_packet_segs_drop(struct dp_packet *);
bool dp_packet_segs_send(struct dp_packet *, struct dp_packet_batch *);

#endif /* dp-packet-segs.h */
