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

#ifndef BIGTCP_RESEG_CHECK_H
#define BIGTCP_RESEG_CHECK_H 1

/* The differential property of bounded resegmentation (dp-packet-reseg.c),
 * checked on one TSO packet.  Shared by "ovstest test-bigtcp-reseg", which
 * draws cases with a pseudo-random generator, and the fuzz target
 * tests/fuzz-bigtcp-reseg.c, which builds them from its input.
 *
 * bigtcp_reseg_run_case() builds the case's TSO packet, resegments it for
 * the case's bound and checks that dp_packet_reseg_possible() says yes
 * exactly when the bound leaves room for two segments per output; that
 * every output fits the bound and carries the expected number of segments,
 * lengths, IP ID, sequence number and flags, and parses as a valid packet;
 * and that segmenting every output fully gives exactly the bytes,
 * checksums included, that segmenting the input fully gives.  On the first
 * failure, it describes the case and the failure on stderr and aborts, so
 * that a fuzzer keeps the input.
 *
 * A case may wrap the TCP packet in a VXLAN, Geneve or GRE tunnel over
 * IPv4 or IPv6, as Open vSwitch's tunnel ports push it; the checks then
 * cover the outer headers too (lengths, outer IPv4 ID, UDP length, GRE
 * checksum).
 *
 * The packet's addresses, header fields that resegmentation does not
 * touch, TCP options and payload come from random.h's generator: seed it
 * (random_set_seed()) for a case to be repeatable. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;

/* The tunnel around the TCP packet of a case. */
enum bigtcp_reseg_tunnel {
    BIGTCP_RESEG_TNL_NONE,
    BIGTCP_RESEG_TNL_VXLAN,
    BIGTCP_RESEG_TNL_GENEVE,
    BIGTCP_RESEG_TNL_GRE,
};

/* One random test case. */
struct bigtcp_reseg_case {
    uint32_t no;                /* Case number, from 0. */
    bool ipv6;                  /* IPv6 (true) or IPv4 (false). */
    int n_vlans;                /* Number of VLAN tags, 0 to 2. */
    size_t ip_opt_len;          /* IPv4 options length, multiple of 4. */
    size_t tcp_opt_len;         /* TCP options length, multiple of 4. */
    uint16_t mss;               /* Segment size (tso_segsz). */
    uint32_t payload_len;       /* TCP payload length. */
    uint16_t tcp_flags;         /* TCP flags of the input. */
    uint16_t urg;               /* Urgent pointer of the input. */
    uint32_t seq;               /* Sequence number of the input. */
    uint16_t ip_id;             /* IPv4 ID of the input. */
    bool df;                    /* IPv4 DF bit of the input. */
    uint32_t max_size;          /* Bound: frame size. */
    uint32_t max_segs;          /* Bound: segments. */

    /* Tunnel: the fields above describe the inner packet. */
    enum bigtcp_reseg_tunnel tunnel;
    bool outer_ipv6;            /* Outer IPv6 (true) or IPv4 (false). */
    bool tnl_csum;              /* Outer UDP checksum or GRE checksum. */
    size_t tnl_opt_len;         /* Geneve options or GRE key, bytes. */
    uint16_t outer_ip_id;       /* Outer IPv4 ID of the input. */
};

/* Counts of the kinds of cases that ran, to show that each kind did. */
struct bigtcp_reseg_stats {
    uint32_t not_possible;      /* The bound leaves no room for 2 MSS. */
    uint32_t fits;              /* Possible, and the input already fits. */
    uint32_t cut;               /* Cut into two outputs or more. */
    uint32_t outputs;           /* Outputs of the cut cases. */
    uint32_t big_outputs;       /* Outputs with an IP length over 65535. */
    uint32_t limit_outputs;     /* Outputs with an IP length of 65535 or
                                 * 65536. */
    uint32_t single_last;       /* Last outputs of a single segment. */
    uint32_t urg_cut;           /* Outputs that lost URG. */
    uint32_t urg_moved;         /* Outputs with a moved urgent pointer. */
    uint32_t tunnel_cut[4];     /* Cut cases, by enum bigtcp_reseg_tunnel. */
};

size_t bigtcp_reseg_case_hdr_len(const struct bigtcp_reseg_case *);
struct dp_packet *bigtcp_reseg_build_packet(const struct bigtcp_reseg_case *);
void bigtcp_reseg_run_case(const struct bigtcp_reseg_case *,
                           struct bigtcp_reseg_stats *);

/* Runs "[N [SEED]]" random cases: see bigtcp_reseg_run_random(). */
typedef void bigtcp_reseg_draw_func(struct bigtcp_reseg_case *, uint32_t no);
typedef void bigtcp_reseg_check_func(const struct bigtcp_reseg_case *,
                                     void *stats);
uint32_t bigtcp_reseg_run_random(int argc, char *argv[], uint32_t n_default,
                                 bigtcp_reseg_draw_func *,
                                 bigtcp_reseg_check_func *, void *stats);

#endif /* bigtcp-reseg-check.h */
