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

/* Differential property test of bounded resegmentation (dp-packet-reseg.c).
 *
 * "ovstest test-bigtcp-reseg [N [SEED]]" builds N random TSO packets (IPv4
 * with or without options, IPv6, zero to two VLAN tags, TCP options of 0 to
 * 40 bytes, random payload, MSS, IP ID, sequence number and flags; in 2
 * cases of 5 inside a VXLAN, Geneve or GRE tunnel over IPv4 or IPv6, with
 * or without tunnel checksums, Geneve options or a GRE key) and a random
 * bound for each, and checks:
 *
 *   - dp_packet_reseg_possible() says yes exactly when the bound leaves
 *     room for two segments per output.
 *
 *   - Every output of dp_packet_reseg() fits the bound, carries the
 *     number of segments that the tail policy gives (evenly spread, no
 *     single-segment last output unless two per output force one), the
 *     expected lengths, IP ID, sequence number and flags, and parses as a
 *     valid packet (BIG TCP framing over 64 KiB).
 *
 *   - Every segment of the full segmentation of the input
 *     (dp_packet_gso_batch(), the same engine with one segment per output)
 *     passes the same checks, as an output of one segment; CWR on the first
 *     segment only, URG and the urgent pointer relative to each segment.
 *
 *   - Segmenting every output fully gives exactly the bytes, checksums
 *     included, that segmenting the input fully gives.
 *
 * It prints "N cases passed", then how many cases of each kind ran (and how
 * many of the cut ones were in each kind of tunnel), and
 * aborts on the first failure, after describing it.  The checks are in
 * bigtcp-reseg-check.c, shared with the fuzz target. */

#include <config.h>
#undef NDEBUG
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip6.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigtcp-framing.h"
#include "bigtcp-reseg-check.h"
#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "dp-packet-reseg.h"
#ifdef __linux__
#include "netdev-linux-reseg.h"
#endif
#include "flow.h"
#include "ovstest.h"
#include "packets.h"
#include "random.h"
#include "util.h"

/* Draws a random case number 'no'. */
static void
random_case(struct bigtcp_reseg_case *c, uint32_t no)
{
    static const uint16_t flag_choices[] = {
        TCP_FIN, TCP_PSH, TCP_URG, TCP_ECE, TCP_CWR,
    };
    uint32_t max_payload;
    uint32_t n_segs;
    size_t hdr_len;

    memset(c, 0, sizeof *c);
    c->no = no;

    /* A tunnel in 2 cases of 5: VXLAN, Geneve or GRE, over IPv4 or IPv6,
     * with or without checksums and options. */
    if (random_range(5) < 2) {
        c->tunnel = BIGTCP_RESEG_TNL_VXLAN + random_range(3);
        c->outer_ipv6 = random_range(2);
        c->tnl_csum = random_range(2);
        c->outer_ip_id = random_uint16();
        if (c->tunnel == BIGTCP_RESEG_TNL_GENEVE) {
            c->tnl_opt_len = 4 * random_range(9);
        } else if (c->tunnel == BIGTCP_RESEG_TNL_GRE) {
            c->tnl_opt_len = 4 * random_range(2);
        }
    }

    c->ipv6 = random_range(2);
    c->n_vlans = random_range(4) < 2 ? 0 : random_range(2) + 1;
    c->ip_opt_len = c->ipv6 || random_range(4) ? 0 : 4 * random_range(11);
    c->tcp_opt_len = 4 * random_range(11);
    hdr_len = bigtcp_reseg_case_hdr_len(c);

    /* MSS: small ones often, to get many segments. */
    c->mss = (random_range(2) ? 88 + random_range(1500 - 88 + 1)
              : 88 + random_range(9000 - 88 + 1));

    /* Payload: at least two segments, within 64 KiB of frame half of the
     * time, up to the BIG TCP maximum the other half. */
    max_payload = (random_range(2) ? UINT16_MAX : GSO_MAX_SIZE)
                  - hdr_len;
    c->payload_len = c->mss + 1 + random_range(max_payload - c->mss);
    n_segs = DIV_ROUND_UP(c->payload_len, c->mss);

    c->tcp_flags = TCP_ACK;
    for (size_t i = 0; i < ARRAY_SIZE(flag_choices); i++) {
        if (!random_range(3)) {
            c->tcp_flags |= flag_choices[i];
        }
    }
    if (c->tcp_flags & TCP_URG) {
        /* Within the payload most of the time. */
        c->urg = (random_range(4)
                  ? random_range(MIN(c->payload_len, UINT16_MAX) + 1)
                  : random_uint16());
    } else {
        c->urg = random_range(2) ? random_uint16() : 0;
    }
    c->seq = random_uint32();
    c->ip_id = random_uint16();
    c->df = random_range(2);

    switch (random_range(5)) {
    case 0:
        /* A size bound only, around the packet's size. */
        c->max_segs = 65535;
        c->max_size = hdr_len + random_range(c->payload_len + 2 * c->mss);
        break;
    case 1:
        /* A segment bound only. */
        c->max_size = random_range(2) ? 65536 : GSO_MAX_SIZE;
        c->max_segs = 1 + random_range(n_segs + 1);
        break;
    case 2:
        /* A size bound on or next to a segment boundary, and maybe a
         * segment bound. */
        c->max_size = (hdr_len + random_range(n_segs + 2) * c->mss
                       + (random_range(2) ? 0 : random_range(c->mss)));
        c->max_segs = random_range(2) ? 65535 : 1 + random_range(n_segs + 1);
        break;
    case 4:
        /* The last output's (outer) IP length right on the 16-bit limit of
         * the length fields (65535, or 65536, which needs BIG TCP framing),
         * after one or more outputs of 'm' segments: the last output has 'm'
         * segments too, its last one short, so that the tail policy spreads
         * nothing. */
        if (c->mss < 1500) {
            size_t ip_hdr_len = hdr_len - ETH_HEADER_LEN
                                - (c->tunnel ? 0
                                   : c->n_vlans * VLAN_HEADER_LEN);
            uint32_t rest = UINT16_MAX + random_range(2) - ip_hdr_len;
            uint32_t m = DIV_ROUND_UP(rest, c->mss);
            uint32_t n_full = (GSO_MAX_SIZE - hdr_len - rest)
                              / (m * c->mss);

            if (n_full) {
                c->max_size = hdr_len + m * c->mss;
                c->max_segs = 65535;
                c->payload_len = (1 + random_range(n_full)) * m * c->mss
                                 + rest;
                break;
            }
        }
        /* Fall through. */
    default:
        /* Anything. */
        c->max_size = random_range(600000);
        c->max_segs = random_range(2) ? random_range(100)
                                      : random_range(70000);
        break;
    }
}

static void
check_case(const struct bigtcp_reseg_case *c, void *stats)
{
    bigtcp_reseg_run_case(c, stats);
}

static void
test_bigtcp_reseg_main(int argc, char *argv[])
{
    struct bigtcp_reseg_stats stats;

    memset(&stats, 0, sizeof stats);
    bigtcp_reseg_run_random(argc, argv, 10000, random_case, check_case,
                            &stats);
    printf("not possible %"PRIu32", fits %"PRIu32", cut %"PRIu32
           " into %"PRIu32" outputs (%"PRIu32" over 64 KiB, %"PRIu32
           " on the limit, %"PRIu32" single-segment last), URG moved %"PRIu32
           ", URG cleared %"PRIu32"\n", stats.not_possible, stats.fits,
           stats.cut, stats.outputs, stats.big_outputs, stats.limit_outputs,
           stats.single_last, stats.urg_moved, stats.urg_cut);
    printf("cut in a tunnel: VXLAN %"PRIu32", Geneve %"PRIu32", GRE %"PRIu32
           "\n", stats.tunnel_cut[BIGTCP_RESEG_TNL_VXLAN],
           stats.tunnel_cut[BIGTCP_RESEG_TNL_GENEVE],
           stats.tunnel_cut[BIGTCP_RESEG_TNL_GRE]);
}

OVSTEST_REGISTER("test-bigtcp-reseg", test_bigtcp_reseg_main);

/* "test-bigtcp-reseg-bench MODE FRAME-SIZE N": the engine micro-benchmark
 * behind "ovs-bigtcp-bench --engine".  N times, clones one IPv4 TSO packet
 * of FRAME-SIZE bytes (MSS 1448, no options) and, with MODE "reseg", cuts
 * it for a 64 KiB port with dp_packet_reseg(); with "zerocopy", prepares
 * the same outputs as netdev-linux sends them without copying (headers,
 * checksums and virtio-net headers, the payload left in place: see
 * netdev-linux-reseg.c); with "gso", segments it
 * fully with dp_packet_gso(); with "clone", does nothing more (the cost of
 * the clone, to subtract).  Frees everything.  Run under callgrind, the
 * instruction counts are repeatable. */
static void
test_bigtcp_reseg_bench_main(int argc, char *argv[])
{
    struct bigtcp_reseg_case c;
    size_t n_out = 0, n_zerocopy = 0;
    struct dp_packet *in;
    uint32_t n;

    if (argc != 4) {
        ovs_fatal(0, "usage: %s reseg|zerocopy|gso|clone FRAME-SIZE N",
                  argv[0]);
    }
    random_set_seed(1);
    memset(&c, 0, sizeof c);
    c.mss = 1448;
    c.tcp_flags = TCP_ACK;
    c.max_size = 65536;
    c.max_segs = 65535;
    c.payload_len = strtoul(argv[2], NULL, 10) - bigtcp_reseg_case_hdr_len(&c);
    n = strtoul(argv[3], NULL, 10);
    in = bigtcp_reseg_build_packet(&c);

    for (uint32_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_clone(in);
        struct dp_packet_batch out;

        dp_packet_set_tso_segsz(p, c.mss);
        dp_packet_batch_init(&out);
        if (!strcmp(argv[1], "reseg")) {
            dp_packet_reseg(p, c.max_size, c.max_segs, &out);
        } else if (!strcmp(argv[1], "gso")) {
            dp_packet_gso(p, &out);
#ifdef __linux__
        } else if (!strcmp(argv[1], "zerocopy")) {
            struct dp_packet_reseg_plan plan;
            struct netdev_linux_reseg r;

            ovs_assert(dp_packet_reseg_plan(p, c.max_size, c.max_segs,
                                            &plan));
            ovs_assert(!netdev_linux_reseg_init(&r, &plan, p, 1500));
            netdev_linux_reseg_destroy(&r);
            dp_packet_batch_add(&out, p);
            n_zerocopy = plan.n_out;
#endif
        } else {
            dp_packet_batch_add(&out, p);
        }
        n_out = n_zerocopy ? n_zerocopy : dp_packet_batch_size(&out);
        dp_packet_delete_batch(&out, true);
        dp_packet_batch_destroy(&out);
    }
    dp_packet_delete(in);
    printf("%s %s: %"PRIu32" packets, %"PRIuSIZE" outputs each\n",
           argv[1], argv[2], n, n_out);
}

OVSTEST_REGISTER("test-bigtcp-reseg-bench", test_bigtcp_reseg_bench_main);
