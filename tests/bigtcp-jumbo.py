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

"""IPv6 jumbograms (RFC 2675) for the jumbogram tests.

usage: bigtcp-jumbo.py receive CTL PORT [--payload N] [--count K]
                           [--jumbo-delta D] [--plen P] [--hex FILE]
                           [--no-jumbo-option]
       bigtcp-jumbo.py send IFACE --src ADDR --dst ADDR --dmac MAC
                           [--payload N] [--count K]
       bigtcp-jumbo.py recv [--count K] [--timeout SECONDS]
       bigtcp-jumbo.py check FILE.pcap

"receive" builds --count (1) TCP/IPv6 jumbograms of --payload bytes of TCP
payload (100000): payload length 0, a Hop-by-Hop header with a jumbo
payload option, from port 5000 to 5001, valid TCP checksum, and hands each
to dummy port PORT as "netdev-dummy/receive" does, through the control
socket CTL of ovs-vswitchd (a frame of more than 64 KiB is over the limit of
one command-line argument, so ovs-appctl cannot).  --jumbo-delta adds D to
the jumbo payload length, which then lies about the frame; --plen P writes
P into the IPv6 payload length instead of 0, as a length cut to 16 bits
would be.  --hex writes the frames to FILE, one hex frame a line.
--no-jumbo-option leaves the Hop-by-Hop header out: payload length 0 and
TCP right after the IPv6 header, as Linux 7.x frames IPv6 BIG TCP (with a
TSO virtio-net header on the port, options:ol_vnet_hdr, the frames are
IPv6 BIG TCP packets in either framing).

"send" sends --count such frames from ADDR to ADDR (a plain TCP/IPv6
packet if --payload leaves no more than 65535 bytes of IPv6 payload) on a
packet socket bound to IFACE, to Ethernet address MAC.  "recv" reads TCP
packets to port 5001 from a raw IPv6 socket, the packets that the host's
IPv6 stack accepted, printing the length of each (TCP header and payload),
until --count (1) or --timeout (30 s), then "received N".

"check" prints a line for each frame of FILE.pcap: its length, the jumbo
payload length, the TCP ports and whether the TCP checksum is right.
"""

import argparse
import importlib.util
import json
import os
import socket
import struct
import sys

SRC_MAC = bytes.fromhex("8abf7e2f0584")
DST_MAC = bytes.fromhex("0a8f394fe073")
IP6_SRC = bytes.fromhex("fc00" + "00" * 13 + "02")
IP6_DST = bytes.fromhex("fc00" + "00" * 13 + "01")
HBH_LEN = 8
TCP_LEN = 20

# tests/bigtcp-pcap.py, whose name has a hyphen, for its pcap reader and
# checksum.
_spec = importlib.util.spec_from_file_location(
    "bigtcp_pcap", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "bigtcp-pcap.py"))
_pcap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pcap)
csum16 = _pcap.csum16


def tcp_csum(src, dst, tcp):
    """The TCP checksum over 'tcp' (its checksum field included) with the
    IPv6 pseudo-header, whose length field is 32 bits wide."""
    pseudo = src + dst + struct.pack("!I3xB", len(tcp), 6)
    return csum16(bytes(tcp), csum16(pseudo))


def build(seq, payload_len, jumbo_delta, macs=(DST_MAC, SRC_MAC),
          addrs=(IP6_SRC, IP6_DST), plen=None, jumbo_option=True):
    """One TCP/IPv6 frame from port 5000 to 5001 with 'payload_len' bytes of
    payload: a jumbogram if that makes more than 65535 bytes of IPv6
    payload (without its jumbo option if not 'jumbo_option'), otherwise a
    plain packet."""
    src, dst = addrs
    payload = bytes((seq + i) & 0xff for i in range(payload_len))
    tcp = bytearray(struct.pack("!HHIIBBHHH", 5000, 5001, seq, 1,
                                TCP_LEN // 4 << 4, 0x18, 65535, 0, 0))
    tcp += payload
    struct.pack_into("!H", tcp, 16, 0xffff - tcp_csum(src, dst, tcp))
    if len(tcp) > 0xffff and not jumbo_option:
        hbh = b""
        ip6 = struct.pack("!IHBB", 6 << 28, 0, 6, 64) + src + dst
    elif len(tcp) > 0xffff - HBH_LEN:
        jumbo = HBH_LEN + len(tcp) + jumbo_delta
        hbh = struct.pack("!BBBBI", 6, 0, 0xc2, 4, jumbo)
        ip6 = struct.pack("!IHBB", 6 << 28, 0, 0, 64) + src + dst
    else:
        hbh = b""
        ip6 = struct.pack("!IHBB", 6 << 28, len(tcp), 6, 64) + src + dst
    if plen is not None:
        ip6 = ip6[:4] + struct.pack("!H", plen) + ip6[6:]
    return macs[0] + macs[1] + b"\x86\xdd" + ip6 + hbh + bytes(tcp)


def unixctl(path, method, params):
    """One JSON-RPC request to the control socket 'path'; returns the
    result, or exits with the error."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(path)
    sock.sendall(json.dumps({"id": 0, "method": method,
                             "params": params}).encode())
    decoder = json.JSONDecoder()
    buf = ""
    while True:
        data = sock.recv(65536)
        if not data:
            sys.exit("%s: connection closed" % path)
        buf += data.decode()
        try:
            reply, _ = decoder.raw_decode(buf)
        except ValueError:
            continue
        break
    sock.close()
    if reply.get("error") is not None:
        sys.exit("%s: %s" % (method, reply["error"]))
    return reply.get("result")


def cmd_receive(args):
    frames = [build(1000 + i * args.payload, args.payload, args.jumbo_delta,
                    plen=args.plen, jumbo_option=not args.no_jumbo_option)
              for i in range(args.count)]
    if args.hex:
        with open(args.hex, "w") as f:
            for frame in frames:
                f.write(frame.hex() + "\n")
    for frame in frames:
        unixctl(args.ctl, "netdev-dummy/receive", [args.port, frame.hex()])


def cmd_send(args):
    with open("/sys/class/net/%s/address" % args.iface) as f:
        smac = bytes.fromhex(f.read().strip().replace(":", ""))
    dmac = bytes.fromhex(args.dmac.replace(":", ""))
    addrs = (socket.inet_pton(socket.AF_INET6, args.src),
             socket.inet_pton(socket.AF_INET6, args.dst))
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((args.iface, 0))
    for i in range(args.count):
        frame = build(1000 + i * args.payload, args.payload, 0, (dmac, smac),
                      addrs)
        sock.send(frame)
    print("sent %d frames of %d bytes" % (args.count, len(frame)))


def cmd_recv(args):
    """Receives TCP/IPv6 packets to port 5001 on a raw socket (what the
    host's IPv6 stack accepted), and prints each one's length, until
    --count packets or --timeout seconds."""
    sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_TCP)
    sock.settimeout(args.timeout)
    print("listening", flush=True)
    n = 0
    while n < args.count:
        try:
            data = sock.recv(1 << 20)
        except socket.timeout:
            break
        if len(data) >= TCP_LEN and struct.unpack("!H", data[2:4])[0] == 5001:
            print("tcp len=%d" % len(data), flush=True)
            n += 1
    print("received %d" % n, flush=True)


def cmd_check(args):
    with open(args.pcap, "rb") as f:
        frames = [frame for frame, _ in _pcap.read_pcap(f)]
    for frame in frames:
        ip6 = frame[14:54]
        plen, nxt = struct.unpack("!HB", ip6[4:7])
        if frame[12:14] != b"\x86\xdd" or plen or nxt != 0:
            print("len=%d not a jumbogram" % len(frame))
            continue
        hbh = frame[54:62]
        jumbo = struct.unpack("!I", hbh[4:8])[0]
        tcp = frame[62:]
        sport, dport = struct.unpack("!HH", tcp[:4])
        ok = tcp_csum(ip6[8:24], ip6[24:40], tcp) == 0xffff
        print("len=%d jumbo=%d sport=%d dport=%d csum=%s"
              % (len(frame), jumbo, sport, dport, "ok" if ok else "bad"))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("receive")
    p.add_argument("ctl")
    p.add_argument("port")
    p.add_argument("--payload", type=int, default=100000)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--jumbo-delta", type=int, default=0)
    p.add_argument("--plen", type=int)
    p.add_argument("--hex")
    p.add_argument("--no-jumbo-option", action="store_true")
    p.set_defaults(func=cmd_receive)
    p = sub.add_parser("send")
    p.add_argument("iface")
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--dmac", required=True)
    p.add_argument("--payload", type=int, default=100000)
    p.add_argument("--count", type=int, default=1)
    p.set_defaults(func=cmd_send)
    p = sub.add_parser("recv")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--timeout", type=float, default=30)
    p.set_defaults(func=cmd_recv)
    p = sub.add_parser("check")
    p.add_argument("pcap")
    p.set_defaults(func=cmd_check)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
