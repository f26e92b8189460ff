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

/* libFuzzer target: the receive path of a tap or AF_PACKET port with
 * virtio-net headers, and what the datapath then does with the packet.
 *
 * Input: a virtio-net header (struct virtio_net_hdr, 10 bytes, host byte
 * order) followed by an Ethernet frame, as netdev-linux reads them from
 * the kernel.  The target runs netdev_linux_parse_vnet_hdr() (which strips
 * the IPv6 jumbo option of BIG TCP and checks the packet, lib/bigtcp-rx.c)
 * and, on packets it accepts, flow extraction, then what sending does:
 *
 *   - a TSO packet is cut for a port that takes 64 KiB TSO packets
 *     (dp_packet_reseg()), and each output gets the jumbo option that a
 *     Linux port expects of BIG IPv6 packets (bigtcp_frame_insert_jumbo());
 *
 *   - a TSO packet of at most 64 segments is segmented fully for a port
 *     without TSO (dp_packet_gso()); larger ones are left to the property
 *     test and the reseg target, to keep executions fast;
 *
 *   - every packet that goes to a port without offloads gets its
 *     checksums completed (dp_packet_ol_send_prepare()).
 *
 * It asserts what the receive checks promise of an accepted TSO packet:
 * TCP over IPv4 or IPv6, a segment size that makes 2 to 65535 segments,
 * at most 524280 bytes of IP packet; that every resegmented output fits
 * the bound; and that a packet of more than 65535 bytes of IP without TSO
 * that flow extraction took for an IPv6 jumbogram is one that output
 * (bigtcp_frame_check_jumbogram()) lets through. */

#include <config.h>

#include <string.h>

#include "bigtcp-framing.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dp-packet-reseg.h"
#include "flow.h"
#include "netdev-linux.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bound of the resegmentation: a port that keeps 64 KiB TSO. */
#define FUZZ_PORT_MAX_SIZE 65536

/* Completes the checksums of every packet in 'batch' for a port without
 * offloads, and frees them. */
static void
send_plain(struct dp_packet_batch *batch)
{
    struct dp_packet *p;

    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        dp_packet_ol_send_prepare(p, 0);
    }
    dp_packet_delete_batch(batch, true);
}

/* Cuts TSO packet 'p' (a copy) for a 64 KiB port. */
static void
send_resegmented(const struct dp_packet *p)
{
    struct dp_packet *copy = dp_packet_clone(p);
    struct dp_packet_batch out;
    struct dp_packet *o;

    dp_packet_batch_init(&out);
    if (dp_packet_reseg_possible(copy, FUZZ_PORT_MAX_SIZE, 65535)) {
        dp_packet_reseg(copy, FUZZ_PORT_MAX_SIZE, 65535, &out);
    } else {
        dp_packet_batch_add(&out, copy);
    }
    DP_PACKET_BATCH_FOR_EACH (i, o, &out) {
        if (dp_packet_get_tso_segsz(o)) {
            if (dp_packet_batch_size(&out) > 1) {
                ovs_assert(dp_packet_size(o) <= FUZZ_PORT_MAX_SIZE);
            }
            bigtcp_frame_insert_jumbo(o);
        }
    }
    dp_packet_delete_batch(&out, true);
    dp_packet_batch_destroy(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool initialized;
    struct dp_packet_batch batch;
    struct dp_packet *p;
    struct flow flow;
    uint16_t segsz;

    if (!initialized) {
        vlog_set_verbosity("off");
        initialized = true;
    }

    p = dp_packet_new_with_headroom(size, 128);
    dp_packet_put(p, data, size);
    if (netdev_linux_parse_vnet_hdr(p)) {
        dp_packet_delete(p);
        return 0;
    }

    flow_extract(p, &flow);
    segsz = dp_packet_get_tso_segsz(p);
    if (segsz) {
        uint32_t payload = dp_packet_get_tcp_payload_length(p);

        ovs_assert(dp_packet_l4_proto_tcp(p) && dp_packet_l3(p));
        ovs_assert(payload > segsz);
        ovs_assert(DIV_ROUND_UP(payload, segsz) <= 65535);
        ovs_assert(dp_packet_l3_size(p) <= GSO_MAX_SIZE);

        send_resegmented(p);
        if (dp_packet_gso_nr_segs(p) <= 64) {
            dp_packet_batch_init(&batch);
            dp_packet_gso(p, &batch);
            send_plain(&batch);
            dp_packet_batch_destroy(&batch);
        } else {
            dp_packet_delete(p);
        }
    } else {
        size_t jumbo_len;

        if (flow.dl_type == htons(ETH_TYPE_IPV6) && dp_packet_l4(p)
            && dp_packet_l3_size(p) > UINT16_MAX) {
            ovs_assert(!bigtcp_frame_check_jumbogram(p, &jumbo_len));
        }
        dp_packet_batch_init_packet(&batch, p);
        send_plain(&batch);
        dp_packet_batch_destroy(&batch);
    }
    return 0;
}
