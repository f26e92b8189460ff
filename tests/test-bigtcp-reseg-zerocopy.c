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

/* "ovstest test-bigtcp-reseg-zerocopy [N [SEED]]": zero-copy
 * resegmentation (lib/netdev-linux-reseg.c) against the copying engine on
 * N random TSO packets, each with a random bound (the checks are in
 * bigtcp-reseg-zc-check.c).  Prints "N cases passed", then how many were
 * cut into how many outputs; aborts on the first failure. */

#include <config.h>
#undef NDEBUG
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigtcp-framing.h"
#include "bigtcp-reseg-check.h"
#include "bigtcp-reseg-zc-check.h"
#include "ovstest.h"
#include "packets.h"
#include "random.h"
#include "util.h"

static void
zc_random_case(struct bigtcp_reseg_case *c, uint32_t no)
{
    size_t hdr_len;

    memset(c, 0, sizeof *c);
    c->no = no;
    c->ipv6 = random_range(2);
    c->n_vlans = random_range(3);
    c->ip_opt_len = c->ipv6 ? 0 : 4 * random_range(11);
    c->tcp_opt_len = 4 * random_range(11);
    hdr_len = bigtcp_reseg_case_hdr_len(c);
    c->mss = 88 + random_range(9000 - 88 + 1);
    c->payload_len = (c->mss + 1
                      + random_range(GSO_MAX_SIZE - hdr_len - c->mss));
    c->tcp_flags = TCP_ACK | (random_range(2) ? TCP_PSH : 0)
                   | (random_range(8) ? 0 : TCP_CWR | TCP_FIN);
    c->seq = random_uint32();
    c->ip_id = random_uint16();
    c->df = random_range(2);
    /* A bound for a 64 KiB port most of the time, anything else too. */
    c->max_size = random_range(4) ? 65536 : random_range(600000);
    c->max_segs = random_range(4) ? 65535 : random_range(100);
}

static void
zc_check_case(const struct bigtcp_reseg_case *c, void *stats)
{
    bigtcp_reseg_zc_run_case(c, stats);
}

static void
test_bigtcp_reseg_zerocopy_main(int argc, char *argv[])
{
    struct bigtcp_reseg_zc_stats stats;

    memset(&stats, 0, sizeof stats);
    bigtcp_reseg_run_random(argc, argv, 2000, zc_random_case, zc_check_case,
                            &stats);
    printf("cut %"PRIu32" into %"PRIu32" outputs (%"PRIu32" single-segment, "
           "%"PRIu32" with a jumbo option)\n",
           stats.cut, stats.outputs, stats.single, stats.jumbo);
    printf("cut %"PRIu32" outputs again into %"PRIu32"\n",
           stats.sliced, stats.slice_outputs);
}

OVSTEST_REGISTER("test-bigtcp-reseg-zerocopy",
                 test_bigtcp_reseg_zerocopy_main);
