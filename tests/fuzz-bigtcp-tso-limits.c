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

/* libFuzzer target: the Interface options of a netdev, as the bridge hands
 * them to netdev_set_config(): the per-port TSO limits (tso-max-size,
 * tso-max-segs, lib/netdev-tso-limits.c), and then the options of a dummy
 * port, whose virtio-net header option (ol_vnet_hdr) and TSO model
 * (ol_tso_*) are parsed from strings too.
 *
 * Input: lines "KEY=VALUE" (any bytes; a line without '=' is a key with an
 * empty value).  After each configuration, the target asserts that the
 * limits in effect are within what the device supports, that a limit the
 * user set is within its documented range, and that an error is reported
 * exactly when an option was refused. */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "dummy.h"
#include "netdev.h"
#include "netdev-provider.h"
#include "netdev-tso-limits.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "smap.h"
#include "userspace-tso.h"
#include "util.h"

/* The entry point that libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct netdev *netdev;

static void
init(void)
{
    struct smap other_config = SMAP_INITIALIZER(&other_config);

    vlog_set_verbosity("off");
    /* The dummy port parses its TSO model only with userspace TSO. */
    smap_add(&other_config, "userspace-tso-enable", "true");
    userspace_tso_init(&other_config);
    smap_destroy(&other_config);
    netdev_dummy_register(DUMMY_OVERRIDE_NONE);
    ovs_assert(!netdev_open("fuzz0", "dummy", &netdev));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct netdev_tso_limits *l;
    struct smap args = SMAP_INITIALIZER(&args);
    uint32_t max_size, ipv4_max_size, max_segs;
    char *text, *line, *save_ptr = NULL;
    bool size_given, segs_given;
    char *error = NULL;

    if (!netdev) {
        init();
    }

    text = xmemdup0((const char *) data, size);
    for (line = strtok_r(text, "\n", &save_ptr); line;
         line = strtok_r(NULL, "\n", &save_ptr)) {
        char *eq = strchr(line, '=');

        if (eq) {
            *eq = '\0';
        }
        smap_replace(&args, line, eq ? eq + 1 : "");
    }
    free(text);
    size_given = smap_get(&args, "tso-max-size") != NULL;
    segs_given = smap_get(&args, "tso-max-segs") != NULL;

    netdev_set_config(netdev, &args, &error);
    free(error);

    l = &netdev->tso_limits;
    netdev_tso_limits_get(l, 6, &max_size, &max_segs);
    netdev_tso_limits_get(l, 4, &ipv4_max_size, &max_segs);
    ovs_assert(max_size && max_size <= l->dev_max_size);
    ovs_assert(ipv4_max_size && ipv4_max_size <= l->dev_ipv4_max_size);
    ovs_assert(max_segs && max_segs <= l->dev_max_segs);
    ovs_assert(!l->user_max_size
               || (l->user_max_size >= NETDEV_TSO_MIN_USER_SIZE
                   && l->user_max_size <= GSO_MAX_SIZE));
    ovs_assert(!l->user_max_segs
               || (l->user_max_segs >= 2
                   && l->user_max_segs <= GSO_MAX_SEGS));
    ovs_assert(size_given || !l->user_max_size);
    ovs_assert(segs_given || !l->user_max_segs);
    ovs_assert(!l->config_error
               == ((!size_given || l->user_max_size)
                   && (!segs_given || l->user_max_segs)));

    smap_destroy(&args);
    return 0;
}
