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
#include "netdev-jumbo.h"

#include <errno.h>
#include <inttypes.h>

#include "bigtcp-framing.h"
#include "coverage.h"
#include "dp-packet.h"
#include "netdev-provider.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_jumbo);

COVERAGE_DEFINE(netdev_jumbo_over_mtu);
COVERAGE_DEFINE(netdev_jumbo_malformed);

/* Whether netdev_jumbo_enforce() has to look at 'p': a frame of more than
 * 65535 bytes behind an Ethernet header that is not a TSO packet. */
static bool
jumbo_candidate(const struct dp_packet *p)
{
    return (dp_packet_size(p) > UINT16_MAX + ETH_HEADER_LEN
            && !dp_packet_get_tso_segsz(p));
}

/* Drops from 'batch', which is about to leave through 'netdev', the IPv6
 * jumbograms (RFC 2675) that the port's MTU does not allow, and the frames
 * that are not TSO packets, have more than 65535 bytes behind their
 * Ethernet header and an IP length of 0, without being well-formed
 * jumbograms (see bigtcp_frame_check_jumbogram()): they would leave with an
 * IP length that does not describe them.  A jumbogram is never cut or
 * truncated: one over the MTU of its output port is lost, as Linux drops
 * it, but counted.  Other frames are left to the provider, as before. */
void
netdev_jumbo_enforce(const struct netdev *netdev,
                     struct dp_packet_batch *batch)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    struct netdev *dev = CONST_CAST(struct netdev *, netdev);
    size_t n = dp_packet_batch_size(batch);
    struct dp_packet *packet;
    bool any = false;
    int mtu = -1;
    size_t i;

    DP_PACKET_BATCH_FOR_EACH (j, packet, batch) {
        if (jumbo_candidate(packet)) {
            any = true;
            break;
        }
    }
    if (!any) {
        return;
    }

    DP_PACKET_BATCH_REFILL_FOR_EACH (i, n, packet, batch) {
        size_t jumbo_len;
        uint64_t orig;
        int error;

        if (!jumbo_candidate(packet)) {
            dp_packet_batch_add(batch, packet);
            continue;
        }

        error = bigtcp_frame_check_jumbogram(packet, &jumbo_len);
        if (error) {
            COVERAGE_INC(netdev_jumbo_malformed);
            VLOG_WARN_RL(&rl, "%s: dropped a frame of %"PRIu32" bytes that "
                         "is neither a TSO packet nor a well-formed IPv6 "
                         "jumbogram", netdev_get_name(netdev),
                         dp_packet_size(packet));
        } else if (jumbo_len) {
            if (mtu < 0 && netdev_get_mtu(netdev, &mtu)) {
                mtu = 0;
            }
            if (jumbo_len > (size_t) mtu) {
                COVERAGE_INC(netdev_jumbo_over_mtu);
                VLOG_WARN_RL(&rl, "%s: dropped an IPv6 jumbogram of "
                             "%"PRIuSIZE" bytes over the MTU (%d)",
                             netdev_get_name(netdev), jumbo_len, mtu);
                error = EMSGSIZE;
            }
        }
        if (error) {
            atomic_add_relaxed(&dev->n_jumbo_dropped, 1, &orig);
            dp_packet_delete(packet);
        } else {
            dp_packet_batch_add(batch, packet);
        }
    }
}

/* Appends the count of frames that netdev_jumbo_enforce() dropped on their
 * way to 'netdev' to 'stats', as "tx_jumbo_dropped", once it is not 0: a
 * counter that every port would otherwise show as 0. */
void
netdev_jumbo_append_custom_stats(const struct netdev *netdev,
                                 struct netdev_custom_stats *stats)
{
    struct netdev *dev = CONST_CAST(struct netdev *, netdev);
    uint64_t dropped;

    atomic_read_relaxed(&dev->n_jumbo_dropped, &dropped);
    if (dropped) {
        netdev_custom_stats_append(stats, "tx_jumbo_dropped", dropped);
    }
}
