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

/* "ovstest test-bigtcp-gro MAX-SIZE < FRAMES": receives the Ethernet
 * frames on standard input (one a line, in hex, as "bigtcp-gro.py gen"
 * prints them) into one GRO engine (lib/netdev-gro.c) with gro-max-size
 * MAX-SIZE, all before one flush, as a port would if one receive call
 * were not bounded (NETDEV_GRO_MAX_PACKETS), and prints what the engine
 * made, one line per run of identical outputs:
 *
 *     N x len=L segsz=S segs=K
 *
 * (a packet's length, its TSO segment size, 0 if it is not a TSO packet,
 * and the segments its TCP payload makes), then "N frames in, M packets
 * out".  It shows the engine's own bounds, such as the most segments in
 * one packet, which no port can deliver in one call. */

#include <config.h>
#undef NDEBUG
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "dp-packet-gso.h"
#include "flow.h"
#include "netdev-gro.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "packets.h"
#include "util.h"

/* The segments that 'p', as the engine made it, makes: as the datapath
 * counts them, once it has extracted the flow. */
static uint32_t
gro_out_segs(struct dp_packet *p)
{
    struct flow flow;

    if (!dp_packet_get_tso_segsz(p)) {
        return 1;
    }
    flow_extract(p, &flow);
    return dp_packet_gso_nr_segs(p);
}

/* Prints the run of 'n' identical outputs described by 'last', if any. */
static void
print_run(const struct ds *last, size_t n)
{
    if (n) {
        printf("%"PRIuSIZE" x %s\n", n, ds_cstr_ro(last));
    }
}

static void
test_bigtcp_gro_main(int argc, char *argv[])
{
    struct ds line = DS_EMPTY_INITIALIZER;
    struct ds last = DS_EMPTY_INITIALIZER;
    struct ds cur = DS_EMPTY_INITIALIZER;
    size_t n_in = 0, n_out = 0, n_run = 0;
    struct netdev_gro *gro;
    unsigned int max_size;

    if (argc != 2 || !str_to_uint(argv[1], 10, &max_size)) {
        ovs_fatal(0, "usage: %s MAX-SIZE < FRAMES", argv[0]);
    }

    gro = netdev_gro_create();
    while (!ds_get_line(&line, stdin)) {
        struct ofpbuf frame;
        struct dp_packet *p;
        const char *end;

        ofpbuf_init(&frame, 0);
        end = ofpbuf_put_hex(&frame, ds_cstr(&line), NULL);
        if (*end || !frame.size) {
            ovs_fatal(0, "line %"PRIuSIZE": not a frame in hex", n_in + 1);
        }
        p = dp_packet_new_with_headroom(frame.size, NETDEV_GRO_HEADROOM);
        dp_packet_put(p, frame.data, frame.size);
        ofpbuf_uninit(&frame);
        netdev_gro_receive(gro, p, max_size, false);
        n_in++;
    }
    netdev_gro_flush(gro);

    while (netdev_gro_n_pending(gro)) {
        struct dp_packet_batch batch;
        struct dp_packet *p;

        dp_packet_batch_init(&batch);
        netdev_gro_pop(gro, &batch);
        DP_PACKET_BATCH_FOR_EACH (i, p, &batch) {
            ds_clear(&cur);
            ds_put_format(&cur, "len=%"PRIu32" segsz=%"PRIu16" segs=%"PRIu32,
                          dp_packet_size(p), dp_packet_get_tso_segsz(p),
                          gro_out_segs(p));
            if (strcmp(ds_cstr(&cur), ds_cstr(&last))) {
                print_run(&last, n_run);
                ds_swap(&cur, &last);
                n_run = 0;
            }
            n_run++;
            n_out++;
        }
        dp_packet_delete_batch(&batch, true);
        dp_packet_batch_destroy(&batch);
    }
    print_run(&last, n_run);
    printf("%"PRIuSIZE" frames in, %"PRIuSIZE" packets out\n", n_in, n_out);

    netdev_gro_destroy(gro);
    ds_destroy(&line);
    ds_destroy(&last);
    ds_destroy(&cur);
}

OVSTEST_REGISTER("test-bigtcp-gro", test_bigtcp_gro_main);
