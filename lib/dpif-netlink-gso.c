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

#include <config.h>

#include "dpif-netlink-gso.h"

#include <errno.h>

#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* Parses 'nest', an OVS_DP_ATTR_GSO_STATS attribute, into '*stats'.  Both
 * counters must be present as u64 attributes; unknown attributes in the
 * nest (counters that a newer kernel adds) are ignored.  Returns 0 if
 * successful, otherwise EINVAL, and then '*stats' is unchanged. */
int
dpif_netlink_gso_stats_parse(const struct nlattr *nest,
                             struct dpif_netlink_gso_stats *stats)
{
    static const struct nl_policy policy[] = {
        [OVS_DP_GSO_STATS_RESEG] = { .type = NL_A_U64 },
        [OVS_DP_GSO_STATS_RESEG_OUT] = { .type = NL_A_U64 },
    };
    struct nlattr *a[ARRAY_SIZE(policy)];

    if (!nl_parse_nested(nest, policy, a, ARRAY_SIZE(a))) {
        return EINVAL;
    }
    stats->n_reseg = nl_attr_get_u64(a[OVS_DP_GSO_STATS_RESEG]);
    stats->n_reseg_out = nl_attr_get_u64(a[OVS_DP_GSO_STATS_RESEG_OUT]);
    return 0;
}

/* Appends to 'buf' an OVS_DP_ATTR_GSO_STATS attribute that holds 'stats',
 * as the kernel writes it. */
void
dpif_netlink_gso_stats_put(struct ofpbuf *buf,
                           const struct dpif_netlink_gso_stats *stats)
{
    size_t offset = nl_msg_start_nested(buf, OVS_DP_ATTR_GSO_STATS);

    nl_msg_put_u64(buf, OVS_DP_GSO_STATS_RESEG, stats->n_reseg);
    nl_msg_put_u64(buf, OVS_DP_GSO_STATS_RESEG_OUT, stats->n_reseg_out);
    nl_msg_end_nested(buf, offset);
}
