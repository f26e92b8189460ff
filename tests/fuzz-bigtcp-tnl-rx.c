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

/* libFuzzer target: the receive path of a tap with UDP tunnel GSO
 * (netdev_linux_tnl_parse(), see lib/netdev-linux-tnl.h), and what the
 * datapath then does with a tunnel TSO packet: segmentation, and the
 * decapsulation's shift of the offload flags.
 *
 * Input: the tap's 24-byte virtio-net header (little endian), then the
 * frame.  A packet that the parser takes must be one the rest of Open
 * vSwitch can handle: a tunnel TSO packet has a VXLAN or Geneve flag, inner
 * headers inside the packet, an inner TCP payload of more than one
 * segment, and segments in software without tripping an assertion. */

#include <config.h>

#include <string.h>

#include "bigtcp-tnl.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dummy.h"
#include "netdev.h"
#include "netdev-linux-tnl.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_tunnel_tso(struct dp_packet *p)
{
    uint16_t segsz = dp_packet_get_tso_segsz(p);
    struct dp_packet_batch batch;
    struct dp_packet *seg;

    ovs_assert(dp_packet_tunnel_vxlan(p) || dp_packet_tunnel_geneve(p));
    ovs_assert(dp_packet_l4_proto_udp(p));
    ovs_assert(dp_packet_inner_l4_proto_tcp(p));
    ovs_assert(dp_packet_inner_l4_checksum_partial(p));
    ovs_assert(dp_packet_inner_l3(p) && dp_packet_inner_l4(p));
    ovs_assert((char *) dp_packet_inner_l4(p) + TCP_HEADER_LEN
               <= (char *) dp_packet_tail(p));
    ovs_assert(dp_packet_get_inner_tcp_payload_length(p) > segsz);

    if (dp_packet_gso_nr_segs(p) > 64) {
        dp_packet_delete(p);
        return;
    }
    dp_packet_batch_init(&batch);
    dp_packet_gso(p, &batch);
    DP_PACKET_BATCH_FOR_EACH (i, seg, &batch) {
        dp_packet_ol_send_prepare(seg, 0);
    }
    dp_packet_delete_batch(&batch, true);
    dp_packet_batch_destroy(&batch);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct netdev *netdev;
    struct dp_packet *p;

    if (!netdev) {
        vlog_set_verbosity("off");
        netdev_dummy_register(DUMMY_OVERRIDE_NONE);
        ovs_assert(!netdev_open("fuzz0", "dummy", &netdev));
    }

    p = dp_packet_new_with_headroom(size, 128);
    dp_packet_put(p, data, size);
    if (netdev_linux_tnl_parse(p, netdev)) {
        dp_packet_delete(p);
        return 0;
    }

    /* A tunnel packet that the parser took has outer lengths that
     * decapsulation takes too: real, or 0 on a TSO packet over 64 KiB. */
    if (dp_packet_tunnel(p)) {
        ovs_assert(!bigtcp_tnl_check_pop(netdev, p));
    }

    if (dp_packet_get_tso_segsz(p) && dp_packet_tunnel(p)) {
        check_tunnel_tso(p);
    } else {
        /* A plain packet, or a tunnel packet of one segment, whose inner
         * checksum the parser completed. */
        if (dp_packet_tunnel(p)) {
            ovs_assert(dp_packet_inner_l4_checksum_good(p));
        }
        dp_packet_ol_send_prepare(p, 0);
        dp_packet_delete(p);
    }
    return 0;
}
