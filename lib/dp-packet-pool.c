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
#include "dp-packet-pool.h"

#include <stdlib.h>

#include "coverage.h"
#include "dp-packet.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "util.h"

COVERAGE_DEFINE(dp_packet_pool_alloc);
COVERAGE_DEFINE(dp_packet_pool_reuse);

struct dp_packet_pool {
    size_t buf_size;            /* Bytes of every buffer, headroom included. */
    struct ovs_refcount ref_cnt; /* The owner, and each buffer in use. */

    struct ovs_mutex mutex;
    size_t max_free OVS_GUARDED; /* 0 once the owner destroyed the pool. */
    size_t n_free OVS_GUARDED;
    void **free OVS_GUARDED;     /* 'n_free' unused buffers. */
};

/* What precedes the 'buf_size' bytes of every buffer of a pool: the pool,
 * padded to a cache line so that the packet data stays aligned as malloc()
 * aligns it. */
struct dp_packet_pool_hdr {
    union {
        struct dp_packet_pool *pool;
        uint8_t pad[CACHE_LINE_SIZE];
    };
};

/* Creates a pool of buffers of 'buf_size' bytes that keeps at most
 * 'max_free' unused ones. */
struct dp_packet_pool *
dp_packet_pool_create(size_t buf_size, size_t max_free)
{
    struct dp_packet_pool *pool = xzalloc(sizeof *pool);

    pool->buf_size = buf_size;
    ovs_refcount_init(&pool->ref_cnt);
    ovs_mutex_init(&pool->mutex);
    ovs_mutex_lock(&pool->mutex);
    pool->max_free = max_free;
    pool->free = xmalloc(max_free * sizeof *pool->free);
    ovs_mutex_unlock(&pool->mutex);
    return pool;
}

static void
dp_packet_pool_unref(struct dp_packet_pool *pool)
{
    if (ovs_refcount_unref(&pool->ref_cnt) == 1) {
        void **bufs;

        ovs_mutex_lock(&pool->mutex);
        bufs = pool->free;
        ovs_mutex_unlock(&pool->mutex);
        ovs_mutex_destroy(&pool->mutex);
        free(bufs);
        free(pool);
    }
}

/* Frees 'pool''s unused buffers, and the pool once none of its buffers is
 * in use any more.  Buffers in use are freed when their packets are. */
void
dp_packet_pool_destroy(struct dp_packet_pool *pool)
{
    if (!pool) {
        return;
    }

    ovs_mutex_lock(&pool->mutex);
    for (size_t i = 0; i < pool->n_free; i++) {
        free(pool->free[i]);
    }
    pool->n_free = 0;
    pool->max_free = 0;
    ovs_mutex_unlock(&pool->mutex);
    dp_packet_pool_unref(pool);
}

/* Returns a new packet, empty, with a buffer of 'pool' whose first
 * 'headroom' bytes are its headroom and the rest its tailroom.  The buffer
 * goes back to 'pool' when the packet is freed (or moves to a buffer of its
 * own, see dp_packet_resize()). */
struct dp_packet *
dp_packet_pool_get(struct dp_packet_pool *pool, size_t headroom)
{
    struct dp_packet_pool_hdr *hdr = NULL;
    struct dp_packet *b;

    ovs_assert(headroom <= pool->buf_size);

    ovs_mutex_lock(&pool->mutex);
    if (pool->n_free) {
        hdr = pool->free[--pool->n_free];
    }
    ovs_mutex_unlock(&pool->mutex);

    if (hdr) {
        COVERAGE_INC(dp_packet_pool_reuse);
    } else {
        COVERAGE_INC(dp_packet_pool_alloc);
        hdr = xmalloc(sizeof *hdr + pool->buf_size);
        hdr->pool = pool;
    }
    ovs_refcount_ref(&pool->ref_cnt);

    b = dp_packet_new(0);
    dp_packet_use_pool(b, hdr + 1, pool->buf_size);
    dp_packet_reserve(b, headroom);
    return b;
}

/* Returns the size of the buffers of 'pool', in bytes. */
size_t
dp_packet_pool_buf_size(const struct dp_packet_pool *pool)
{
    return pool->buf_size;
}

void
dp_packet_pool_put(void *base)
{
    struct dp_packet_pool_hdr *hdr = base;
    struct dp_packet_pool *pool;

    hdr--;
    pool = hdr->pool;

    ovs_mutex_lock(&pool->mutex);
    if (pool->n_free < pool->max_free) {
        pool->free[pool->n_free++] = hdr;
        hdr = NULL;
    }
    ovs_mutex_unlock(&pool->mutex);

    free(hdr);
    dp_packet_pool_unref(pool);
}
