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
#include "netdev-show.h"

#include <stdlib.h>
#include <string.h>

#include "netdev-provider.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/json.h"
#include "unixctl.h"
#include "util.h"

static int
compare_netdevs(const void *a_, const void *b_)
{
    const struct netdev *const *a = a_;
    const struct netdev *const *b = b_;

    return strcmp(netdev_get_name(*a), netdev_get_name(*b));
}

/* Replies to the "show" command 'conn' ("COMMAND [PORT]", 'argc' and
 * 'argv'): for every port, or PORT, in name order, 'format' adds the port
 * to 'port' (JSON output: a member of the reply, named after the port) or
 * to 's' (text).  For netdev-tso/show and netdev-gro/show. */
void
netdev_show_ports(struct unixctl_conn *conn, int argc, const char *argv[],
                  netdev_show_port_func *format)
{
    bool json = (unixctl_command_get_output_format(conn)
                 == UNIXCTL_OUTPUT_FMT_JSON);
    struct json *ports = json_object_create();
    struct ds s = DS_EMPTY_INITIALIZER;
    struct netdev **netdevs;
    size_t n, n_shown = 0;

    netdevs = netdev_get_all(&n);
    qsort(netdevs, n, sizeof *netdevs, compare_netdevs);
    for (size_t i = 0; i < n; i++) {
        const struct netdev *netdev = netdevs[i];

        if (argc > 1 && strcmp(argv[1], netdev_get_name(netdev))) {
            continue;
        }
        n_shown++;
        if (json) {
            struct json *port = json_object_create();

            json_object_put_string(port, "type", netdev_get_type(netdev));
            format(netdev, port, NULL);
            json_object_put(ports, netdev_get_name(netdev), port);
        } else {
            ds_put_format(&s, "%s (%s):", netdev_get_name(netdev),
                          netdev_get_type(netdev));
            format(netdev, NULL, &s);
        }
    }
    for (size_t i = 0; i < n; i++) {
        netdev_close(netdevs[i]);
    }
    free(netdevs);

    if (argc > 1 && !n_shown) {
        unixctl_command_reply_error(conn, "no such port");
        json_destroy(ports);
    } else if (json) {
        unixctl_command_reply_json(conn, ports);
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
        json_destroy(ports);
    }
    ds_destroy(&s);
}
