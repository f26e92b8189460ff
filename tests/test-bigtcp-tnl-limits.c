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

/* ovstest test-bigtcp-tnl-limits KIND TSO GSO GSO4 GRO GRO4 USER
 *
 * What dpif-netlink-tnl-limits.c does with a kernel datapath tunnel device
 * whose link, of kind KIND, reports tso_max_size TSO, gso_max_size GSO,
 * gso_ipv4_max_size GSO4, gro_max_size GRO and gro_ipv4_max_size GRO4 (0:
 * the kernel does not report the attribute), when the lowest "tso-max-size"
 * option of its tunnel ports, on port "p1", is USER (0: none).  Prints the
 * plan, the attributes of the RTM_SETLINK request that carries it out, if
 * one is needed, and the sentence that the ports' status then shows:
 *
 *   source=SOURCE max_size=N request=ATTR=N,... (or request=none)
 *   limit: SENTENCE
 */

#include <config.h>
#undef NDEBUG
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/rtnetlink.h>

#include "dpif-netlink-tnl-limits.h"
#include "netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "rtnetlink.h"
#include "util.h"

/* Prints the limits that RTM_SETLINK request 'request' sets. */
static void
print_request(const struct ofpbuf *request)
{
    static const struct {
        uint16_t type;
        const char *name;
    } names[] = {
        { OVS_IFLA_GSO_MAX_SIZE, "gso_max_size" },
        { OVS_IFLA_GSO_IPV4_MAX_SIZE, "gso_ipv4_max_size" },
        { OVS_IFLA_GRO_MAX_SIZE, "gro_max_size" },
        { OVS_IFLA_GRO_IPV4_MAX_SIZE, "gro_ipv4_max_size" },
    };
    size_t ofs = NLMSG_HDRLEN + sizeof(struct ifinfomsg);
    const struct nlattr *nla;
    const char *sep = "";
    size_t left;

    printf("request=");
    NL_ATTR_FOR_EACH (nla, left, ofpbuf_at_assert(request, ofs, 0),
                      request->size - ofs) {
        for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
            if (nl_attr_type(nla) == names[i].type) {
                printf("%s%s=%"PRIu32, sep, names[i].name,
                       nl_attr_get_u32(nla));
                sep = ",";
            }
        }
    }
    printf("\n");
}

static void
test_bigtcp_tnl_limits_main(int argc, char *argv[])
{
    struct rtnetlink_change dev = { .gso_max_size = 0 };
    struct dpif_netlink_tnl_plan plan;
    struct ds limit = DS_EMPTY_INITIALIZER;
    uint32_t user;

    if (argc != 8) {
        ovs_fatal(0, "usage: %s KIND TSO GSO GSO4 GRO GRO4 USER", argv[0]);
    }
    dev.primary = argv[1];
    dev.tso_max_size = strtoul(argv[2], NULL, 10);
    dev.gso_max_size = strtoul(argv[3], NULL, 10);
    dev.gso_ipv4_max_size = strtoul(argv[4], NULL, 10);
    dev.gro_max_size = strtoul(argv[5], NULL, 10);
    dev.gro_ipv4_max_size = strtoul(argv[6], NULL, 10);
    user = strtoul(argv[7], NULL, 10);

    dpif_netlink_tnl_limits_plan(&dev, user, &plan);
    printf("source=%s max_size=%"PRIu32" ",
           dpif_netlink_tnl_limits_source_name(plan.source), plan.max_size);
    if (plan.set) {
        struct ofpbuf request;

        ofpbuf_init(&request, 0);
        dpif_netlink_tnl_limits_put_request(&request, "dev", &dev,
                                            plan.max_size);
        print_request(&request);
        ofpbuf_uninit(&request);
    } else {
        printf("request=none\n");
    }

    dpif_netlink_tnl_limits_format(plan.source, plan.max_size,
                                   dev.tso_max_size, dev.primary, "p1",
                                   plan.set ? plan.max_size : 0, 0, &limit);
    printf("limit: %s\n", ds_cstr(&limit));
    ds_destroy(&limit);
}

OVSTEST_REGISTER("test-bigtcp-tnl-limits", test_bigtcp_tnl_limits_main);
