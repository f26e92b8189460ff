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

#include "ofproto-dpif-gso.h"

#include "coverage.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"

COVERAGE_DEFINE(ofproto_dpif_gso_consumer);
COVERAGE_DEFINE(ofproto_dpif_gso_consumer_segs);

/* If 'packet' is a TSO packet, puts its segments into 'segs', each with
 * complete checksums, for a consumer of a userspace() action (see
 * ofproto-dpif-gso.h), and returns true; the caller frees them with
 * ofproto_dpif_gso_segments_destroy().  Otherwise returns false and leaves
 * 'segs' alone: the consumer takes 'packet' as it is.  'packet' itself is
 * not changed either way. */
bool
ofproto_dpif_gso_consumer_segments(const struct dp_packet *packet,
                                   struct dp_packet_batch *segs)
{
    struct dp_packet *seg;

    if (!dp_packet_get_tso_segsz(packet)) {
        return false;
    }

    dp_packet_batch_init(segs);
    dp_packet_gso(dp_packet_clone(packet), segs);
    DP_PACKET_BATCH_FOR_EACH (i, seg, segs) {
        dp_packet_ol_send_prepare(seg, 0);
    }
    COVERAGE_INC(ofproto_dpif_gso_consumer);
    COVERAGE_ADD(ofproto_dpif_gso_consumer_segs, dp_packet_batch_size(segs));
    return true;
}

/* Frees the segments that ofproto_dpif_gso_consumer_segments() put into
 * 'segs', and the batch's own storage. */
void
ofproto_dpif_gso_segments_destroy(struct dp_packet_batch *segs)
{
    dp_packet_delete_batch(segs, true);
    dp_packet_batch_destroy(segs);
}
