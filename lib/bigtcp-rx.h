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

#ifndef BIGTCP_RX_H
#define BIGTCP_RX_H 1

/* Checks of TCP GSO packets received with a virtio-net header.
 *
 * A virtio-net header comes from a kernel (tap, AF_PACKET), or through it
 * from a VM or a container, and says how to treat the packet behind it:
 * its GSO type and segment size, the length of its headers, where its L4
 * checksum starts.  Nothing guarantees that it agrees with the packet.
 * Open vSwitch parses the packet's headers itself, so it only has to make
 * sure that a packet it takes as a TSO packet really is one that it can
 * segment, resegment and send again: TCP over the IP version the GSO type
 * names, complete headers, an IP length that matches the packet and fits
 * GSO_MAX_SIZE (BIG TCP), and a segment size that makes at least two
 * segments and at most GSO_MAX_SEGS (65535), as Linux allows.
 *
 * A packet that fails a check is refused (the caller drops it and counts
 * it in the port's rx_dropped); each reason has its own coverage counter
 * and a rate-limited warning.  A GSO packet whose payload fits a single
 * segment is not refused: it is a plain packet, as Linux treats it. */

#include <stdbool.h>
#include <stdint.h>

struct dp_packet;

int bigtcp_rx_check_vnet(const struct dp_packet *, bool gso_tcp,
                         uint16_t gso_size, uint16_t hdr_len);
int bigtcp_rx_check_tso(struct dp_packet *, int ip_version);

#endif /* bigtcp-rx.h */
