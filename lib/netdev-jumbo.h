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

#ifndef NETDEV_JUMBO_H
#define NETDEV_JUMBO_H 1

/* IPv6 jumbograms (RFC 2675) on output.
 *
 * A frame that is not a TSO packet and has more than 65535 bytes behind its
 * Ethernet header can only be an IPv6 jumbogram: its IP length is 0 and a
 * Hop-by-Hop jumbo payload option carries the real one.  Such a frame must
 * fit its output port's MTU whole, as Linux requires: it is never cut or
 * truncated.  netdev_send() drops, and counts per port, the jumbograms over
 * the port's MTU and the frames over 64 KiB whose IP length does not
 * describe them. */

struct dp_packet_batch;
struct netdev;
struct netdev_custom_stats;

void netdev_jumbo_enforce(const struct netdev *, struct dp_packet_batch *);
void netdev_jumbo_append_custom_stats(const struct netdev *,
                                      struct netdev_custom_stats *);

#endif /* netdev-jumbo.h */
