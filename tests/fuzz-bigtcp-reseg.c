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

/* libFuzzer target: bounded resegmentation (lib/dp-packet-reseg.c).
 *
 * Each input describes one TSO packet and one bound, as the random cases
 * of "ovstest test-bigtcp-reseg" do (tests/bigtcp-reseg-check.h), and the
 * target asserts the same properties, the differential one included:
 * segmenting every output of dp_packet_reseg() gives exactly the bytes
 * that segmenting the input gives.  The same packet is then cut without
 * copying, as netdev-linux sends it, and checked against the copying
 * engine (tests/bigtcp-reseg-zc-check.h).  A failed check aborts.
 *
 * Input: 30 bytes, read as the fields below; missing bytes are 0, extra
 * bytes are ignored.  Every field is folded into the range that the
 * engine's callers guarantee (at least two segments of 88 to 9000 bytes,
 * at most 524280 bytes of frame, options in multiples of 4 bytes), and
 * the bound is anything.  The last 3 bytes put the packet in a tunnel
 * (VXLAN, Geneve or GRE over IPv4 or IPv6, with or without checksums and
 * options); an input of 27 bytes or fewer is a plain packet, as before. */

#include <config.h>
#include "bigtcp-reseg-check.h"
#include "bigtcp-reseg-zc-check.h"

#include <string.h>

#include "bigtcp-framing.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "random.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads the next 'n' bytes (1 to 4) of the input, big-endian. */
static uint32_t
take(const uint8_t **data, size_t *size, size_t n)
{
    uint32_t value = 0;

    for (size_t i = 0; i < n; i++) {
        value <<= 8;
        if (*size) {
            value |= **data;
            (*data)++;
            (*size)--;
        }
    }
    return value;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint16_t flag_choices[] = {
        TCP_FIN, TCP_PSH, TCP_URG, TCP_ECE, TCP_CWR,
    };
    static struct bigtcp_reseg_zc_stats zc_stats;
    static struct bigtcp_reseg_stats stats;
    static bool initialized;
    struct bigtcp_reseg_case c;
    uint32_t kind, flags, max_payload, raw_payload, tunnel, seed;

    if (!initialized) {
        vlog_set_verbosity("off");
        initialized = true;
    }

    memset(&c, 0, sizeof c);
    kind = take(&data, &size, 1);
    c.ipv6 = kind & 1;
    c.n_vlans = (kind >> 1) % 3;
    c.df = (kind >> 3) & 1;
    c.ip_opt_len = c.ipv6 ? 0 : 4 * (take(&data, &size, 1) % 11);
    c.tcp_opt_len = 4 * (take(&data, &size, 1) % 11);
    c.mss = 88 + take(&data, &size, 2) % (9000 - 88 + 1);
    raw_payload = take(&data, &size, 3);

    flags = take(&data, &size, 1);
    c.tcp_flags = TCP_ACK;
    for (size_t i = 0; i < ARRAY_SIZE(flag_choices); i++) {
        if (flags & (1u << i)) {
            c.tcp_flags |= flag_choices[i];
        }
    }
    c.urg = take(&data, &size, 2);
    c.seq = take(&data, &size, 4);
    c.ip_id = take(&data, &size, 2);
    c.max_size = take(&data, &size, 3) % 600000;
    c.max_segs = take(&data, &size, 3) % 70000;

    /* Addresses, untouched header fields, options and payload. */
    seed = take(&data, &size, 4) | 1;
    random_set_seed(seed);

    /* Tunnel: kind (bits 0-1), outer IPv6 (bit 2), checksums (bit 3),
     * Geneve options or GRE key (bits 4-7); outer IPv4 ID. */
    tunnel = take(&data, &size, 1);
    c.tunnel = tunnel & 3;
    c.outer_ipv6 = (tunnel >> 2) & 1;
    c.tnl_csum = (tunnel >> 3) & 1;
    if (c.tunnel == BIGTCP_RESEG_TNL_GENEVE) {
        c.tnl_opt_len = 4 * ((tunnel >> 4) % 9);
    } else if (c.tunnel == BIGTCP_RESEG_TNL_GRE) {
        c.tnl_opt_len = 4 * ((tunnel >> 4) & 1);
    }
    c.outer_ip_id = take(&data, &size, 2);

    max_payload = GSO_MAX_SIZE - bigtcp_reseg_case_hdr_len(&c);
    c.payload_len = c.mss + 1 + raw_payload % (max_payload - c.mss);
    bigtcp_reseg_run_case(&c, &stats);

    /* The same packet (the same seed) cut without copying, as netdev-linux
     * sends it, against the copying engine (plain packets only: tunnel
     * packets always take the copying engine). */
    random_set_seed(seed);
    bigtcp_reseg_zc_run_case(&c, &zc_stats);
    return 0;
}
