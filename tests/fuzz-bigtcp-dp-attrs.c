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

/* libFuzzer target: the userspace side of the kernel datapath's GSO
 * interface, in both numberings (upstream's, OVS_DP_ATTR_GSO_STATS and
 * OVS_VPORT_ATTR_GSO_STATS; the out-of-tree module's,
 * OVS_DP_ATTR_BIGTCP_VERSION, _FEATURES, _GSO_STATS and
 * OVS_VPORT_ATTR_BIGTCP_GSO_STATS), which dpif-netlink reads from the kernel
 * datapath's replies (lib/dpif-netlink-gso.c) and netdev-linux from vport
 * replies.
 *
 * Input: the attributes of a datapath reply, what follows its struct
 * ovs_header (any bytes), with a first byte of user features.  Parsing never
 * fails the reply; the target asserts that it takes nothing from a reply
 * that shows neither numbering (well-formed upstream statistics, or a
 * well-formed version attribute; ASan checks that it reads nothing beyond
 * the input), that it takes the GSO-aware upcall feature from the user
 * features only in upstream's numbering, and that the counters it does
 * take survive a round trip: written back as the kernel writes them in the
 * numbering found and parsed again, they read the same.  The same bytes
 * are also read as a vport reply's attributes in each numbering: a vport
 * statistics attribute gives all three counters or none. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "dpif-netlink-gso.h"
#include "netdev.h"
#include "netdev-tso-limits.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_vport(const struct ofpbuf *attrs, enum dpif_netlink_gso_uapi uapi)
{
    /* A well-formed vport GSO statistics attribute gives the three
     * counters, under the names that "dpctl/show -s" reads back. */
    const struct nlattr *vport_stats = dpif_netlink_gso_vport_parse(attrs,
                                                                    uapi);
    if (vport_stats) {
        struct ds s = DS_EMPTY_INITIALIZER;
        struct netdev_custom_stats custom;

        memset(&custom, 0, sizeof custom);

        if (!dpif_netlink_gso_vport_stats_append(vport_stats, &custom)) {
            ovs_assert(custom.size == 3);
            ovs_assert(netdev_tso_limits_format_counters(&custom, &s));
        } else {
            ovs_assert(!custom.size);
        }
        ds_destroy(&s);
        free(custom.counters);
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dpif_netlink_gso_stats unreported, again;
    struct dpif_netlink_bigtcp bigtcp;
    uint32_t user_features;
    struct ofpbuf attrs;

    if (!size) {
        return 0;
    }
    user_features = data[0];
    /* Netlink attributes are 4-byte aligned, as the kernel's messages are:
     * the attributes after the first byte go in a buffer of their own. */
    ofpbuf_init(&attrs, size - 1);
    ofpbuf_put(&attrs, data + 1, size - 1);

    ovs_assert(!dpif_netlink_gso_vport_parse(&attrs,
                                             DPIF_NETLINK_GSO_UAPI_NONE));
    check_vport(&attrs, DPIF_NETLINK_GSO_UAPI_UPSTREAM);
    check_vport(&attrs, DPIF_NETLINK_GSO_UAPI_BIGTCP);

    memset(&unreported, 0xff, sizeof unreported);
    dpif_netlink_gso_dp_parse(&attrs, user_features, &bigtcp);
    ovs_assert(dpif_netlink_gso_uapi() == bigtcp.uapi);

    switch (bigtcp.uapi) {
    case DPIF_NETLINK_GSO_UAPI_NONE:
        /* Neither numbering: nothing is taken from the reply. */
        ovs_assert(!bigtcp.version && !bigtcp.gso_upcall);
        ovs_assert(!memcmp(&bigtcp.stats, &unreported, sizeof unreported));
        break;
    case DPIF_NETLINK_GSO_UAPI_UPSTREAM:
        /* Upstream's: the statistics showed it, the feature is a user
         * feature.  (A counter that the kernel reports may hold any value,
         * UINT64_MAX too, which then reads as unreported, as Open vSwitch's
         * counters do; so nothing is asserted of the counters' values.) */
        ovs_assert(!bigtcp.version);
        ovs_assert(bigtcp.gso_upcall
                   == !!(user_features & OVS_DP_F_GSO_UPCALL));
        break;
    case DPIF_NETLINK_GSO_UAPI_BIGTCP:
        ovs_assert(bigtcp.version);
        break;
    default:
        OVS_NOT_REACHED();
    }

    if (bigtcp.uapi != DPIF_NETLINK_GSO_UAPI_NONE
        && bigtcp.stats.n_reseg != UINT64_MAX) {
        struct ofpbuf buf;

        ofpbuf_init(&buf, 0);
        dpif_netlink_gso_stats_put(&buf, bigtcp.uapi, &bigtcp.stats);
        ovs_assert(!dpif_netlink_gso_stats_parse(buf.data, &again));
        ovs_assert(!memcmp(&again, &bigtcp.stats, sizeof again));
        ofpbuf_uninit(&buf);
    }
    ofpbuf_uninit(&attrs);
    return 0;
}
