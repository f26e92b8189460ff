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

#ifndef NETDEV_SHOW_H
#define NETDEV_SHOW_H 1

/* The driver of the unixctl commands that show per-port state of every
 * netdev, or of one ("netdev-tso/show [PORT]", "netdev-gro/show [PORT]"),
 * as text or JSON. */

struct ds;
struct json;
struct netdev;
struct unixctl_conn;

/* Adds the state of 'netdev' to JSON object 'port', if the output is JSON,
 * otherwise to 's', after the port's name and type. */
typedef void netdev_show_port_func(const struct netdev *, struct json *port,
                                   struct ds *s);

void netdev_show_ports(struct unixctl_conn *, int argc, const char *argv[],
                       netdev_show_port_func *);

#endif /* netdev-show.h */
