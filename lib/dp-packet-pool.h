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

#ifndef DP_PACKET_POOL_H
#define DP_PACKET_POOL_H 1

/* Reusable large packet buffers.
 *
 * A receive queue that takes TSO packets receives each one into a buffer
 * as large as the largest packet it may get (512 KiB with BIG TCP), and the
 * packet leaves the queue with its buffer.  A buffer that large is beyond
 * malloc()'s mmap threshold: allocated afresh for every packet, its pages
 * are mapped, faulted in and zeroed by the kernel each time, one page fault
 * per 4 KiB moved.  A pool keeps such buffers instead: a packet whose
 * buffer came from a pool (DPBUF_POOL) gives it back when it is freed, and
 * the next receive takes it again, pages already in place.
 *
 * A pool keeps at most 'max_free' unused buffers; more are freed.  A pool
 * is destroyed by its owner (a receive queue); buffers still in use then
 * are freed, not kept, when their packets are freed, and the pool itself
 * goes with its last buffer.  A pool may be used from any thread. */

#include <stddef.h>

struct dp_packet;
struct dp_packet_pool;

struct dp_packet_pool *dp_packet_pool_create(size_t buf_size,
                                             size_t max_free);
void dp_packet_pool_destroy(struct dp_packet_pool *);
struct dp_packet *dp_packet_pool_get(struct dp_packet_pool *,
                                     size_t headroom);
size_t dp_packet_pool_buf_size(const struct dp_packet_pool *);

/* For dp-packet.c: gives back the buffer 'base' of a DPBUF_POOL packet. */
void dp_packet_pool_put(void *base);

#endif /* dp-packet-pool.h */
