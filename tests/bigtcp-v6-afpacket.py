#! /usr/bin/env python3
# Copyright (c) 2026 The ovs-bigtcp authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at:
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""bigtcp-v6-afpacket.py: how the running kernel delivers an IPv6 BIG TCP
packet written to an AF_PACKET socket, found without Open vSwitch.

usage: bigtcp-v6-afpacket.py

Run it in a network namespace of its own (ip netns exec NS ...): it makes
a veth pair there with BIG TCP limits, writes an IPv6 TCP TSO packet of
66535 bytes of payload with a virtio-net header to one end, once with
payload length 0 alone and once with a Hop-by-Hop jumbo option, each
followed by a small TCP packet (a marker, numbered), and reads what IPv6
delivers on the other end from a raw socket.  Once the marker has come,
the TSO packet has been delivered whole or not at all (both go through one
CPU's backlog, in order).  Markers alone go first, until one comes: a new
veth drops what it is given until its queue is activated.  Prints one
line: "jumbo option" (delivered with the option), "payload length 0"
(only without it) or "none"; exits 1 if a
marker does not come in 5 s, or if a TSO packet of 60000 bytes of
payload, sent first, is not delivered whole (the check would see
nothing)."""

import os
import select
import socket
import struct
import subprocess
import sys
import time

TX, RX = "v6afp0", "v6afp1"
SRC, DST = "2001:db8::1", "2001:db8::2"
PAYLOAD = 65535 + 1000
MSS = 1400
PORT, MARKER_PORT = 9, 10
SOL_PACKET, PACKET_VNET_HDR = 263, 15
VIRTIO_NET_HDR_F_NEEDS_CSUM = 1
VIRTIO_NET_HDR_GSO_NONE, VIRTIO_NET_HDR_GSO_TCPV6 = 0, 4
TCP_HLEN = 20


def ip(*args):
    subprocess.run(["ip"] + list(args), check=True)


def frame(hbh, marker, payload=PAYLOAD):
    """The virtio-net header and Ethernet frame to write: a TSO packet of
    PAYLOAD bytes (BIG TCP over 65535 bytes of IPv6 payload, with the
    jumbo option if HBH), or marker number MARKER (if nonzero)."""
    eth = (bytes.fromhex("020000000002") + bytes.fromhex("020000000001")
           + struct.pack("!H", 0x86dd))
    if marker:
        payload = 0
    ext = b""
    nxt = 6
    if hbh:
        ext = struct.pack("!BBBBI", 6, 0, 0xc2, 4, 8 + TCP_HLEN + payload)
        nxt = 0
    plen = TCP_HLEN + payload if TCP_HLEN + payload <= 65535 else 0
    ip6 = (struct.pack("!IHBB", 6 << 28, plen, nxt, 64)
           + socket.inet_pton(socket.AF_INET6, SRC)
           + socket.inet_pton(socket.AF_INET6, DST))
    tcp = struct.pack("!HHIIBBHHH", MARKER_PORT if marker else PORT, PORT,
                      marker or 1, 0, (TCP_HLEN // 4) << 4, 0x10, 1000, 0,
                      0)
    l4 = len(eth) + len(ip6) + len(ext)
    if marker:
        vnet = struct.pack("<BBHHHH", VIRTIO_NET_HDR_F_NEEDS_CSUM,
                           VIRTIO_NET_HDR_GSO_NONE, 0, 0, l4, 16)
    else:
        vnet = struct.pack("<BBHHHH", VIRTIO_NET_HDR_F_NEEDS_CSUM,
                           VIRTIO_NET_HDR_GSO_TCPV6, l4 + TCP_HLEN, MSS, l4,
                           16)
    return vnet + eth + ip6 + ext + tcp + bytes(payload)


class Prober:
    """Writes to AF_PACKET socket TX and reads what IPv6 delivers to raw
    socket RAW."""

    def __init__(self, tx, raw):
        self.tx, self.raw, self.marker = tx, raw, 0

    def until_marker(self, secs, payload=PAYLOAD):
        """Reads until the last marker sent comes, for at most SECS seconds:
        True if a packet of PAYLOAD bytes came whole before it, False if
        not, None if the marker did not come."""
        whole = False
        deadline = time.monotonic() + secs
        while time.monotonic() < deadline:
            if not select.select([self.raw], [], [],
                                 max(0, deadline - time.monotonic()))[0]:
                continue
            data = self.raw.recv(1 << 20)
            if len(data) == TCP_HLEN + payload:
                whole = True
            elif (len(data) == TCP_HLEN
                  and struct.unpack("!HHI", data[:8])
                  == (MARKER_PORT, PORT, self.marker)):
                return whole
        return None

    def send_marker(self):
        self.marker += 1
        self.tx.send(frame(False, self.marker))

    def open_path(self):
        """Sends markers, a new one every 0.1 s, until one comes: the new
        veth drops what it is given until its queue is activated, a little
        after it comes up."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            self.send_marker()
            if self.until_marker(0.1) is not None:
                return
        sys.exit("bigtcp-v6-afpacket.py: no marker came in 5 s")

    def delivered(self, hbh, payload=PAYLOAD):
        """True if IPv6 delivered the TSO packet whole before the
        marker."""
        self.tx.send(frame(hbh, 0, payload))
        self.send_marker()
        whole = self.until_marker(5, payload)
        if whole is None:
            sys.exit("bigtcp-v6-afpacket.py: the marker did not come in 5 s")
        return whole


def main():
    # Both writes from one CPU: they take its backlog in order.
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    ip("link", "add", TX, "address", "02:00:00:00:00:01", "type", "veth",
       "peer", "name", RX, "address", "02:00:00:00:00:02")
    try:
        for dev in (TX, RX):
            ip("link", "set", dev, "gso_max_size", "524280", "up")
        ip("addr", "add", DST + "/128", "dev", RX, "nodad")
        tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        tx.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
        tx.bind((TX, 0))
        raw = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                            socket.IPPROTO_TCP)
        p = Prober(tx, raw)
        p.open_path()
        # A TSO packet within 64 KiB must come whole: what shows that
        # this check sees a delivered packet.
        if not p.delivered(False, 60000):
            sys.exit("bigtcp-v6-afpacket.py: a TSO packet of 60000 bytes "
                     "of payload was not delivered whole")
        plain = p.delivered(False)
        hbh = p.delivered(True)
    finally:
        subprocess.run(["ip", "link", "del", TX], check=False)
    print("jumbo option" if hbh else "payload length 0" if plain
          else "none")


if __name__ == "__main__":
    main()
