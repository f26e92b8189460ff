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

#ifndef NETDEV_GRO_PRIVATE_H
#define NETDEV_GRO_PRIVATE_H 1

/* What the GRO engine (netdev-gro.c) and its header parser
 * (netdev-gro-parse.c) share. */

#include <stdbool.h>
#include <stdint.h>

#include "dp-packet.h"
#include "packets.h"

/* Why a TCP segment did not join its flow's packet, or could not start
 * one (see netdev-gro.h): each such segment counts once, for the first
 * rule it breaks, in coverage counter netdev_gro_refuse_<name>. */
#define GRO_REASONS                                                     \
    GRO_REASON(IP_OPTIONS, ip_options)  /* IPv4 options. */              \
    GRO_REASON(IP_FRAG, ip_frag)        /* IPv4 MF, offset, reserved bit;
                                         * an IPv6 Fragment header. */    \
    GRO_REASON(IP_LEN, ip_len)          /* IP length is not the frame's. */\
    GRO_REASON(PAD, pad)                /* Runt padding is not zeros. */  \
    GRO_REASON(IP_CSUM, ip_csum)        /* Bad IPv4 header checksum. */   \
    GRO_REASON(TCP_HDR, tcp_hdr)        /* Bad TCP data offset. */        \
    GRO_REASON(TSO, tso)                /* Already a TSO packet. */       \
    GRO_REASON(TCP_CSUM, tcp_csum)      /* Bad TCP checksum. */           \
    GRO_REASON(FLAGS, flags)            /* SYN, RST, URG, CWR, others. */ \
    GRO_REASON(NO_PAYLOAD, no_payload)  /* No TCP payload. */             \
    GRO_REASON(TOS, tos)                /* TOS or traffic class. */       \
    GRO_REASON(TTL, ttl)                /* TTL or hop limit. */           \
    GRO_REASON(DF, df)                  /* DF bit. */                     \
    GRO_REASON(IP_ID, ip_id)            /* IPv4 ID neither +1 nor same. */\
    GRO_REASON(ACK, ack)                /* Acknowledgment number. */      \
    GRO_REASON(TCP_WORD, tcp_word)      /* Data offset or window. */      \
    GRO_REASON(TCP_OPTS, tcp_opts)      /* TCP options. */                \
    GRO_REASON(SEQ, seq)                /* Sequence number. */            \
    GRO_REASON(MSS, mss)                /* Payload over the first's. */   \
    GRO_REASON(FULL, full)              /* Packet at gro-max-size. */     \
    GRO_REASON(FLOWS, flows)            /* Too many open flows. */

enum gro_reason {
    GRO_OK,
#define GRO_REASON(ENUM, NAME) GRO_##ENUM,
    GRO_REASONS
#undef GRO_REASON
};

/* The headers of a TCP segment over IPv4 or IPv6, in Ethernet with at most
 * one 802.1Q tag. */
struct gro_hdrs {
    uint16_t l3_ofs;            /* Offset of the IP header. */
    uint16_t l4_ofs;            /* Offset of the TCP header. */
    uint16_t hdr_len;           /* Headers, through the TCP options. */
    uint32_t payload_len;       /* TCP payload. */
    uint8_t ip_version;         /* 4 or 6. */
};

static inline struct ip_header *
gro_ip(const struct dp_packet *p, const struct gro_hdrs *h)
{
    return ALIGNED_CAST(struct ip_header *,
                        (char *) dp_packet_data(p) + h->l3_ofs);
}

static inline struct ovs_16aligned_ip6_hdr *
gro_ip6(const struct dp_packet *p, const struct gro_hdrs *h)
{
    return ALIGNED_CAST(struct ovs_16aligned_ip6_hdr *,
                        (char *) dp_packet_data(p) + h->l3_ofs);
}

static inline struct tcp_header *
gro_tcp(const struct dp_packet *p, const struct gro_hdrs *h)
{
    return ALIGNED_CAST(struct tcp_header *,
                        (char *) dp_packet_data(p) + h->l4_ofs);
}

enum gro_reason netdev_gro_parse(struct dp_packet *, struct gro_hdrs *,
                                 bool *is_tcp);

#endif /* netdev-gro-private.h */
