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

#ifndef BIGTCP_TNL_H
#define BIGTCP_TNL_H 1

/* BIG TCP framing of UDP tunnel (VXLAN, Geneve) TSO packets.
 *
 * Linux 7.3 ("BIG TCP for UDP tunnels") builds VXLAN and Geneve TCP GSO
 * packets whose outer IP packet is over 64 KiB.  Their outer lengths do not
 * fit in 16 bits, so it writes an outer IPv4 total length of 0 (or an IPv6
 * payload length of 0, without a jumbo option) and a UDP length of 0, and
 * its segmentation (__udp_gso_segment(), the UDP tunnel segmentation)
 * writes each segment's real lengths.  A length that fits in 16 bits is
 * written as it is.
 *
 * Open vSwitch writes such packets to taps whose kernel takes them (see
 * netdev-linux-tnl.h), reads them from taps, and decapsulates them.  A
 * length field of such a packet is right if it is the real length, or 0
 * where the real length does not fit in 16 bits and the packet is a TSO
 * packet.  Anything else is a lie: the packet is dropped, counted
 * (bigtcp_tnl_bad_len) and logged. */

#include <stdbool.h>
#include <stdint.h>

struct dp_packet;
struct netdev;

/* Returns the value of a 16-bit length field for a length of 'len' bytes
 * in BIG TCP framing: 'len', or 0 if it does not fit. */
static inline uint16_t
bigtcp_tnl_len16(uint32_t len)
{
    return len <= UINT16_MAX ? len : 0;
}

/* Returns true if 'field', the value of a 16-bit length field of a TSO
 * packet, is right for a real length of 'len' bytes in BIG TCP framing. */
static inline bool
bigtcp_tnl_len_ok(uint16_t field, uint32_t len)
{
    return field == bigtcp_tnl_len16(len);
}

bool bigtcp_tnl_is_big(const struct dp_packet *);
int bigtcp_tnl_check_pop(const struct netdev *, const struct dp_packet *);

#endif /* bigtcp-tnl.h */
