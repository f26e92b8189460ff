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

#ifndef BIGTCP_FRAMING_H
#define BIGTCP_FRAMING_H 1

/* BIG TCP framing.
 *
 * Linux builds TCP GSO packets of up to GSO_MAX_SIZE bytes ("BIG TCP").
 * When such a packet's IP length does not fit in 16 bits, its IPv4 total
 * length is 0, and its IPv6 payload length is 0 with a Hop-by-Hop jumbo
 * payload option (RFC 2675) in front of the TCP header (Linux inserts the
 * option on transmit and expects it on receive).
 *
 * Inside Open vSwitch a BIG IPv6 TSO packet has no jumbo option: its
 * payload length is 0 and the TCP header follows the IPv6 header, as for
 * any other TCP packet, so that flow extraction, actions and segmentation
 * need no special case.  netdev-linux strips the option from packets it
 * receives and inserts it into the packets it sends. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;

/* Size of the Hop-by-Hop header that carries the jumbo payload option. */
#define BIGTCP_JUMBO_HBH_LEN 8

int bigtcp_frame_strip_jumbo(struct dp_packet *, size_t *stripped);
size_t bigtcp_frame_ipv6_big_len(const struct dp_packet *);
size_t bigtcp_frame_insert_jumbo(struct dp_packet *);
struct ovs_16aligned_ip6_hdr;
void bigtcp_frame_jumbo_hdr(struct ovs_16aligned_ip6_hdr *, size_t rest,
                            uint32_t payload);

/* IPv6 jumbograms (RFC 2675) that are not TSO packets: they keep their
 * jumbo option everywhere, as on the wire. */
uint32_t bigtcp_frame_jumbogram_len(const struct ovs_16aligned_ip6_hdr *,
                                    size_t size);
int bigtcp_frame_check_jumbogram(const struct dp_packet *, size_t *jumbo_len);

#endif /* bigtcp-framing.h */
