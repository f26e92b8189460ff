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

/* "ovstest test-dp-packet-pool": the life of a pool's buffers
 * (lib/dp-packet-pool.c).
 *
 *   - A packet from a pool has the pool's buffer size, the headroom asked
 *     for, and a buffer that comes back to the pool when the packet is
 *     freed: the next packet gets the same buffer, with its bytes as they
 *     were (no new allocation, no page touched anew).
 *
 *   - The pool keeps at most its bound of unused buffers: packets freed
 *     beyond it free their buffers.
 *
 *   - dp_packet_resize() and dp_packet_steal_data() move the data to a
 *     buffer of its own and give the pool's buffer back.
 *
 *   - A pool destroyed while packets still hold its buffers frees them when
 *     the packets are freed (AddressSanitizer, in "make check-asan", sees
 *     any leak or use after free).
 *
 * Prints what it counted; aborts on a failure. */

#include <config.h>
#undef NDEBUG
#include <string.h>

#include "coverage.h"
#include "dp-packet.h"
#include "dp-packet-pool.h"
#include "ovstest.h"
#include "util.h"

#define BUF_SIZE (512 * 1024)
#define MAX_FREE 4

/* The pool's coverage counters (lib/dp-packet-pool.c), read directly: the
 * test runs in one thread. */
extern struct coverage_counter counter_dp_packet_pool_alloc;
extern struct coverage_counter counter_dp_packet_pool_reuse;

static unsigned long long int
counter(struct coverage_counter *c)
{
    c->total += c->count();
    return c->total;
}

static void
test_dp_packet_pool_main(int argc OVS_UNUSED, char *argv[] OVS_UNUSED)
{
    struct dp_packet *p[2 * MAX_FREE];
    struct dp_packet_pool *pool;
    unsigned long long int alloc0, reuse0;
    struct dp_packet *b;
    void *base;

    alloc0 = counter(&counter_dp_packet_pool_alloc);
    reuse0 = counter(&counter_dp_packet_pool_reuse);
    pool = dp_packet_pool_create(BUF_SIZE, MAX_FREE);
    ovs_assert(dp_packet_pool_buf_size(pool) == BUF_SIZE);

    /* A packet with a pool's buffer, which comes back when it is freed. */
    b = dp_packet_pool_get(pool, 100);
    ovs_assert(b->source == DPBUF_POOL);
    ovs_assert(dp_packet_headroom(b) == 100);
    ovs_assert(dp_packet_tailroom(b) == BUF_SIZE - 100);
    ovs_assert(dp_packet_size(b) == 0);
    memset(dp_packet_put_uninit(b, BUF_SIZE - 100), 0xa5, BUF_SIZE - 100);
    base = dp_packet_base(b);
    dp_packet_delete(b);

    b = dp_packet_pool_get(pool, 200);
    ovs_assert(dp_packet_base(b) == base);
    ovs_assert(dp_packet_headroom(b) == 200);
    ovs_assert(((const uint8_t *) base)[BUF_SIZE - 1] == 0xa5);
    dp_packet_delete(b);
    ovs_assert(counter(&counter_dp_packet_pool_alloc) - alloc0 == 1);
    ovs_assert(counter(&counter_dp_packet_pool_reuse) - reuse0 == 1);

    /* At most MAX_FREE unused buffers are kept.  (The first of these
     * packets takes the one buffer the pool has.) */
    for (int i = 0; i < ARRAY_SIZE(p); i++) {
        p[i] = dp_packet_pool_get(pool, 0);
    }
    ovs_assert(counter(&counter_dp_packet_pool_alloc) - alloc0
               == ARRAY_SIZE(p));
    ovs_assert(counter(&counter_dp_packet_pool_reuse) - reuse0 == 2);
    for (int i = 0; i < ARRAY_SIZE(p); i++) {
        dp_packet_delete(p[i]);
    }
    for (int i = 0; i < ARRAY_SIZE(p); i++) {
        p[i] = dp_packet_pool_get(pool, 0);
    }
    ovs_assert(counter(&counter_dp_packet_pool_reuse) - reuse0
               == 2 + MAX_FREE);
    ovs_assert(counter(&counter_dp_packet_pool_alloc) - alloc0
               == 2 * ARRAY_SIZE(p) - MAX_FREE);

    /* A resize moves the data out; the buffer goes back. */
    dp_packet_put(p[0], "abcdef", 6);
    dp_packet_resize(p[0], 10, 10);
    ovs_assert(p[0]->source == DPBUF_MALLOC);
    ovs_assert(!memcmp(dp_packet_data(p[0]), "abcdef", 6));
    dp_packet_delete(p[0]);

    /* So does stealing the data. */
    dp_packet_put(p[1], "ghij", 4);
    base = dp_packet_steal_data(p[1]);
    ovs_assert(!memcmp(base, "ghij", 4));
    free(base);
    dp_packet_delete(p[1]);

    /* Destroyed with buffers in use: they are freed with their packets. */
    dp_packet_pool_destroy(pool);
    for (int i = 2; i < ARRAY_SIZE(p); i++) {
        dp_packet_put(p[i], "x", 1);
        dp_packet_delete(p[i]);
    }
    dp_packet_pool_destroy(NULL);

    printf("%llu buffers allocated, %llu reused\n",
           counter(&counter_dp_packet_pool_alloc) - alloc0,
           counter(&counter_dp_packet_pool_reuse) - reuse0);
}

OVSTEST_REGISTER("test-dp-packet-pool", test_dp_packet_pool_main);
