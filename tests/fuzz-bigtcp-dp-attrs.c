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

/* libFuzzer target: the userspace side of the project's new netlink
 * attribute, OVS_DP_ATTR_GSO_STATS, which dpif-netlink reads from the
 * kernel datapath's replies (lib/dpif-netlink-gso.c).
 *
 * Input: the payload of the nested attribute (any bytes, at most what an
 * attribute can hold).  The target asserts that parsing either fails or
 * gives counters that survive a round trip: written back as the kernel
 * writes them and parsed again, they read the same. */

#include <config.h>

#include <string.h>

#include "dpif-netlink-gso.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dpif_netlink_gso_stats stats, again;
    struct ofpbuf buf;

    if (size > UINT16_MAX - NLA_HDRLEN) {
        return 0;
    }

    ofpbuf_init(&buf, 0);
    nl_msg_put_unspec(&buf, OVS_DP_ATTR_GSO_STATS, data, size);
    memset(&stats, 0xa5, sizeof stats);
    if (!dpif_netlink_gso_stats_parse(buf.data, &stats)) {
        ofpbuf_clear(&buf);
        dpif_netlink_gso_stats_put(&buf, &stats);
        ovs_assert(!dpif_netlink_gso_stats_parse(buf.data, &again));
        ovs_assert(!memcmp(&again, &stats, sizeof stats));
    } else {
        /* A refused attribute leaves the counters alone. */
        struct dpif_netlink_gso_stats untouched;

        memset(&untouched, 0xa5, sizeof untouched);
        ovs_assert(!memcmp(&stats, &untouched, sizeof stats));
    }
    ofpbuf_uninit(&buf);
    return 0;
}
