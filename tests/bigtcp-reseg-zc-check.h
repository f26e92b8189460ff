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

#ifndef BIGTCP_RESEG_ZC_CHECK_H
#define BIGTCP_RESEG_ZC_CHECK_H 1

/* Zero-copy resegmentation (lib/netdev-linux-reseg.c) against the copying
 * engine (dp_packet_reseg()).
 *
 * bigtcp_reseg_zc_run_case() builds the TSO packet of one case (see
 * bigtcp-reseg-check.h), cuts it for the case's bound both ways and
 * checks, for every output:
 *
 *   - Its buffers are a virtio-net header, its packet headers and a slice
 *     of the input's payload, in place: the payload is not copied.  An
 *     IPv6 output over 64 KiB has BIG TCP's jumbo option, as Linux expects
 *     it; the option is checked, then left out of the comparisons.
 *
 *   - Headers and payload are the bytes of the copying engine's output, but
 *     for the two checksums, which the copying engine leaves for later.
 *
 *   - The virtio-net header says what the kernel needs: GSO type and size
 *     (none for a single segment), header length, and a checksum to
 *     complete from the TCP header on.
 *
 *   - Completing the TCP checksum as the virtio-net header asks (the ones'
 *     complement sum from csum_start to the end, the pseudo-header sum
 *     being in the field) gives the checksum that Open vSwitch computes in
 *     software for the copying engine's output; the IPv4 header checksum
 *     is the one Open vSwitch computes.  So a kernel that segments or sends
 *     the output puts valid checksums on the wire.
 *
 * Every output of 4 segments or more is also cut again, into outputs of
 * half as many segments, as netdev-linux cuts an output that the kernel
 * refused (dp_packet_reseg_plan_slice()), and the outputs are checked the
 * same way against the copying engine's outputs of that output.
 *
 * It also checks that an output whose segments would not fit the MTU is
 * refused with EMSGSIZE.  A failure aborts, after describing the case. */

#include <stdint.h>

struct bigtcp_reseg_case;

struct bigtcp_reseg_zc_stats {
    uint32_t tunnel;            /* Tunnel packets: never zero copy. */
    uint32_t not_possible;      /* The bound leaves no room for 2 MSS. */
    uint32_t cut;               /* Cut into two outputs or more. */
    uint32_t outputs;           /* Outputs, of every case. */
    uint32_t single;            /* Outputs of a single segment. */
    uint32_t jumbo;             /* IPv6 outputs with a jumbo option. */
    uint32_t sliced;            /* Outputs cut again, as refused ones are. */
    uint32_t slice_outputs;     /* The outputs that made. */
};

void bigtcp_reseg_zc_run_case(const struct bigtcp_reseg_case *,
                              struct bigtcp_reseg_zc_stats *);

#endif /* bigtcp-reseg-zc-check.h */
