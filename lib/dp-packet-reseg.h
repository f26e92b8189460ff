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

#ifndef DP_PACKET_RESEG_H
#define DP_PACKET_RESEG_H 1

/* The userspace segmentation engine for TCP segmentation offload (TSO)
 * packets.
 *
 * A TSO packet that is larger than its next hop accepts (a port's TSO size
 * or segment limit, for example a BIG TCP packet of up to 512 KiB going to
 * a port that takes 64 KiB) does not need to be segmented all the way down
 * to MSS-sized packets.  It can be cut into TSO packets that fit the bound
 * instead, each still carrying the MSS as its segment size, so that the
 * device (or the kernel behind it) keeps doing the per-segment work.  Full
 * segmentation, dp_packet_gso(), is the same cut with one segment per
 * output.
 *
 * The outputs are exactly what segmentation would produce, in bigger
 * pieces: segmenting every output fully gives the same segments, byte for
 * byte, as segmenting the input fully.  Tunnel TSO packets (VXLAN, Geneve,
 * GRE) are cut the same way, their outer headers updated too, for ports
 * that do tunnel TSO.  See dp-packet-reseg.c for the tail policy and the
 * header updates (lengths, IP IDs, sequence numbers, TCP flags, outer
 * headers). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;

/* The kind of tunnel around the TCP packet of a plan. */
enum dp_packet_reseg_tunnel {
    DP_PACKET_RESEG_TNL_NONE,   /* Plain TCP over IP. */
    DP_PACKET_RESEG_TNL_UDP,    /* VXLAN or Geneve: outer IP and UDP. */
    DP_PACKET_RESEG_TNL_GRE,    /* GRE: outer IP and GRE. */
};

/* How one TSO packet is cut (see dp_packet_reseg_plan()).  For a tunnel
 * packet, 'l3_ofs' and 'l4_ofs' are those of the inner (TCP) packet, and
 * 'hdr_len' covers the outer headers too. */
struct dp_packet_reseg_plan {
    uint32_t hdr_len;         /* Headers, from Ethernet to the end of TCP. */
    uint32_t l3_ofs;          /* Offset of the IP header in the headers. */
    uint32_t l4_ofs;          /* Offset of the TCP header in the headers. */
    uint32_t outer_l3_ofs;    /* Tunnel: offset of the outer IP header. */
    uint32_t outer_l4_ofs;    /* Tunnel: offset of the outer UDP or GRE. */
    enum dp_packet_reseg_tunnel tunnel;
    uint32_t payload_len;     /* TCP payload the outputs carry, in bytes. */
    uint32_t segs_per_out;    /* Segments in every output but the last. */
    uint32_t n_out;           /* Number of outputs, 1 if the input fits. */
    uint16_t mss;             /* Segment size of the input. */

    /* A plan covers the whole input, or one output of another plan (see
     * dp_packet_reseg_plan_slice()). */
    uint32_t first_seg;       /* Input segment where output 0 starts. */
    bool ends_input;          /* The last output ends the input. */
};

bool dp_packet_reseg_plan(const struct dp_packet *, uint32_t max_size,
                          uint32_t max_segs, struct dp_packet_reseg_plan *);
bool dp_packet_reseg_plan_segs(const struct dp_packet *, uint32_t per,
                               struct dp_packet_reseg_plan *);
bool dp_packet_reseg_plan_slice(const struct dp_packet_reseg_plan *,
                                uint32_t k, uint32_t max_size,
                                uint32_t max_segs,
                                struct dp_packet_reseg_plan *slice);
void dp_packet_reseg_headers(const struct dp_packet_reseg_plan *,
                             const struct dp_packet *, uint32_t k, void *hdr,
                             uint32_t *payload_ofs, uint32_t *payload_len,
                             uint16_t *segsz);
void dp_packet_reseg_record(size_t n_out);

bool dp_packet_reseg_possible(const struct dp_packet *p, uint32_t max_size,
                              uint32_t max_segs);
size_t dp_packet_reseg_cut(struct dp_packet *,
                           const struct dp_packet_reseg_plan *,
                           struct dp_packet_batch *);
size_t dp_packet_reseg(struct dp_packet *p, uint32_t max_size,
                       uint32_t max_segs, struct dp_packet_batch *batch);

void dp_packet_reseg_copy_metadata(struct dp_packet *dst,
                                   const struct dp_packet *src);

#endif /* dp-packet-reseg.h */
