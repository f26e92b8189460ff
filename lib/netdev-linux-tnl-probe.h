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

#ifndef NETDEV_LINUX_TNL_PROBE_H
#define NETDEV_LINUX_TNL_PROBE_H 1

/* Whether the running kernel takes, from a tap with UDP tunnel GSO, a VXLAN
 * or Geneve TCP GSO packet whose outer IP packet is over 64 KiB, in the
 * framing of Linux 7.3's "BIG TCP for UDP tunnels": outer IPv4 total length
 * or IPv6 payload length 0 (no jumbo option) and UDP length 0 (see
 * bigtcp-tnl.h).
 *
 * The tun driver takes such a write on any kernel that has UDP tunnel GSO
 * (6.17 and later): it reads no length from the packet.  What matters is
 * what the host does with it next: route it, and cut it into segments
 * that carry their real lengths and checksums.  A version string does not
 * say, so the kernel is asked, once per process, the first time a tap takes
 * UDP tunnel GSO, by a thread of its own that never holds a port's lock:
 * in a network namespace of its own, the thread makes a tap with UDP tunnel
 * GSO whose host side routes the packets written to it back out of the
 * same tap, and, for each outer IP version, writes one such Geneve packet
 * and then a small Geneve packet of the same flow (the sentinel).  The
 * kernel handles the writes in order, so once the sentinel has come back,
 * everything that the first packet became has come back before it: the
 * answer is yes if that is the whole packet, each frame with the right
 * lengths and outer UDP checksum, no otherwise.  If the namespace or the
 * tap cannot be made, or the sentinel does not come back at all, the answer
 * is unknown, a separate answer with its own counter, and the tap keeps
 * 16-bit outer lengths, as with no. */

#include "netdev-tso-limits.h"

enum netdev_tso_tnl_big netdev_linux_tnl_probe(int ip_version);

#endif /* netdev-linux-tnl-probe.h */
