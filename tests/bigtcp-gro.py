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

"""Streams of TCP segments for the GRO tests, and their comparison.

usage: bigtcp-gro.py gen [OPTIONS] [K:FIELD=VALUE...]
       bigtcp-gro.py random SEED [--count N]
       bigtcp-gro.py compare SENT RECEIVED.pcap [--same-id] [--set F=V...]

"gen" prints the frames of one TCP flow, one hex frame a line, as
"ovs-appctl netdev-dummy/receive" takes them: --count segments (default
8) of --mss bytes of payload (default 1000), over IPv4 (or --ip6), from
TCP port --sport (54392), behind an 802.1Q tag of VLAN --vlan if not 0,
with incrementing IPv4 IDs (--fixed-id: all the same, with DF), DF set unless
--no-df, TCP timestamps with --ts, the ACK flag, and valid checksums.
Each K:FIELD=VALUE changes segment K (from 0) before its checksums are
computed, unless the field names a checksum:

  ttl, tos (traffic class for IPv6), label (IPv6 flow label), id (IPv4 ID
  offset from the flow's), df (0 or 1), mf (1: a fragment), ack (ack
  number offset), win, flags (letters F S R P A U E C), seq (offset added
  to the sequence number), len (payload bytes; later segments follow on),
  ts (timestamp value offset), ipopt (1: an IPv4 NOP option word), hbh (1:
  an empty IPv6 Hop-by-Hop header in front of the others), ext (IPv6
  extension headers in front of TCP, comma-separated: hbh, dstopt, rthdr,
  frag; "none": none; --ext6 gives every segment its default), optval
  (the value of the dstopt header's option), iplen (offset added to the IP
  length), pad (bytes of zero padding after the IP packet), padbyte
  (value of the last padding byte), doff (the TCP data offset, in 32-bit
  words, in place of the header's own), csum (bad: a wrong TCP checksum),
  ipcsum (bad: a wrong IPv4 header checksum), src (another source port),
  vlan (an 802.1Q tag of this VLAN; 0: none).

"random SEED" prints a stream of 1 to 3 flows whose segments break a rule
now and then (drawn from SEED): the differential test sends it through
GRO and compares what comes out, segmented again, with it.

"compare" checks that the frames of RECEIVED.pcap are those of SENT (hex
lines), byte for byte and in order per flow (the order of different flows,
and of an IPv4 fragment and the rest of its flow, may differ), and prints
"N frames identical".  A coalesced flow whose IPv4
IDs stayed the same comes back out with incrementing IDs, as from any TSO
packet: --same-id leaves the IDs (and the IPv4 header checksums) of such
flows out of the comparison.  Each --set FIELD=VALUE changes the SENT
frames as an action would before they are compared, and their IPv4 header
and TCP checksums are computed again from scratch: nw_src (an IPv4 or IPv6
address), tp_dst, ttl (IPv4 TTL or IPv6 hop limit), vlan (pushes an
802.1Q tag of this VLAN).
"""

import argparse
import importlib.util
import ipaddress
import os
import random
import struct
import sys

FLAG_BITS = {"F": 0x01, "S": 0x02, "R": 0x04, "P": 0x08,
             "A": 0x10, "U": 0x20, "E": 0x40, "C": 0x80}

SRC_MAC = bytes.fromhex("8abf7e2f0584")
DST_MAC = bytes.fromhex("0a8f394fe073")
IP4_SRC = bytes([192, 168, 123, 2])
IP4_DST = bytes([192, 168, 123, 1])
IP6_SRC = bytes.fromhex("fc00" + "00" * 13 + "02")
IP6_DST = bytes.fromhex("fc00" + "00" * 13 + "01")


def _load_pcap_module():
    """Imports tests/bigtcp-pcap.py, whose name has a hyphen."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "bigtcp-pcap.py")
    spec = importlib.util.spec_from_file_location("bigtcp_pcap", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_pcap = _load_pcap_module()
csum16 = _pcap.csum16


def parse_flags(letters):
    bits = 0
    for c in letters:
        bits |= FLAG_BITS[c]
    return bits


# IPv6 extension headers by name: their Next Header value, and their bytes
# after the Next Header field.  "dstopt" carries an option that a receiver
# skips (type 0x1e) with a 4-byte value (the "optval" field), "rthdr" is a
# Segment Routing header with no segment left (its one segment is the
# destination), "frag" the Fragment header of a first fragment.
EXT6 = {
    "hbh": (0, lambda v: b"\x00\x01\x04\x00\x00\x00\x00"),
    "dstopt": (60, lambda v: b"\x00\x1e\x04" + struct.pack("!I", v)),
    "rthdr": (43, lambda v: struct.pack("!BBBBBH", 2, 4, 0, 0, 0, 0)
              + IP6_DST),
    "frag": (44, lambda v: struct.pack("!BHI", 0, 1, 0x1234)),
}


def ext6_headers(names, optval):
    """Returns the IPv6 Next Header value and the bytes of the extension
    headers 'names' (keys of EXT6) in front of TCP, in that order."""
    nxt = 6
    ext = b""
    for name in reversed(names):
        code, body = EXT6[name]
        ext = bytes([nxt]) + body(optval) + ext
        nxt = code
    return nxt, ext


def build(ip6, seq, payload, mods, base):
    """Returns one frame: segment with sequence number 'seq' and
    'payload', headers from 'base' as changed by 'mods'."""
    m = dict(base)
    m.update(mods)
    flags = parse_flags(m.get("flags", "A"))
    opts = b""
    if m["ts"]:
        tsval = 1000 + int(m.get("tsoff", 0))
        opts = struct.pack("!BBBBII", 1, 1, 8, 10, tsval, 4242)
    doff = int(m.get("doff", (20 + len(opts)) // 4))
    sport = int(m.get("src", m["sport"]))
    tcp = struct.pack("!HHIIBBHHH", sport, 5201,
                      (seq + int(m.get("seq", 0))) & 0xffffffff,
                      (77777 + int(m.get("ack", 0))) & 0xffffffff,
                      doff << 4, flags, int(m.get("win", 502)), 0,
                      0) + opts
    l4 = bytearray(tcp + payload)
    if not ip6:
        ipopt = b"\x01\x01\x01\x01" if int(m.get("ipopt", 0)) else b""
        ihl = 5 + len(ipopt) // 4
        frag = (0x4000 if int(m["df"]) else 0) | \
            (0x2000 if int(m.get("mf", 0)) else 0)
        iplen = ihl * 4 + len(l4) + int(m.get("iplen", 0))
        ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x40 | ihl,
                                   int(m.get("tos", 0)), iplen,
                                   m["ipid"] & 0xffff, frag,
                                   int(m.get("ttl", 64)), 6, 0,
                                   IP4_SRC, IP4_DST) + ipopt)
        struct.pack_into("!H", ip, 10, ~csum16(bytes(ip)) & 0xffff)
        if m.get("ipcsum") == "bad":
            struct.pack_into("!H", ip, 10, (ip[10] << 8 | ip[11]) ^ 0x5a5a)
        pseudo = IP4_SRC + IP4_DST + struct.pack("!xBH", 6, len(l4))
        eth_type = 0x0800
    else:
        names = [x for x in m.get("ext", "").split(",")
                 if x and x != "none"]
        if int(m.get("hbh", 0)):
            names.insert(0, "hbh")
        nxt, ext = ext6_headers(names, int(m.get("optval", 0)))
        vtcfl = (6 << 28) | (int(m.get("tos", 0)) << 20) | \
            int(m.get("label", 0))
        plen = len(ext) + len(l4) + int(m.get("iplen", 0))
        ip = bytearray(struct.pack("!IHBB16s16s", vtcfl, plen, nxt,
                                   int(m.get("ttl", 64)),
                                   IP6_SRC, IP6_DST) + ext)
        pseudo = IP6_SRC + IP6_DST + struct.pack("!IxxxB", len(l4), 6)
        eth_type = 0x86dd
    struct.pack_into("!H", l4, 16, ~csum16(pseudo + bytes(l4)) & 0xffff)
    if m.get("csum") == "bad":
        struct.pack_into("!H", l4, 16, (l4[16] << 8 | l4[17]) ^ 0x5a5a)
    vlan = int(m.get("vlan", 0))
    tag = struct.pack("!HH", 0x8100, vlan) if vlan else b""
    frame = DST_MAC + SRC_MAC + tag + struct.pack("!H", eth_type) + ip + l4
    pad = int(m.get("pad", 0))
    if pad:
        padding = bytearray(pad)
        padding[-1] = int(m.get("padbyte", 0))
        frame += padding
    return frame


def parse_mod(text):
    k, rest = text.split(":", 1)
    field, value = rest.split("=", 1)
    if field == "ts":
        field = "tsoff"
    return int(k), field, value


def gen_flow(ip6, count, mss, mods, fixed_id=False, df=True, ts=False,
             seq0=1, ipid0=100, rng=None, sport=54392, vlan=0, ext6=""):
    base = {"df": 1 if (df or fixed_id) else 0, "ts": ts, "sport": sport,
            "vlan": vlan, "ext": ext6}
    frames = []
    seq = seq0
    for k in range(count):
        m = mods.get(k, {})
        length = int(m.get("len", mss))
        payload = bytes((seq + i) & 0xff for i in range(length))
        if rng:
            payload = bytes(rng.getrandbits(8) for _ in range(length))
        base["ipid"] = ipid0 + (0 if fixed_id else k) + int(m.get("id", 0))
        frames.append(build(ip6, seq, payload, m, base))
        seq += length
    return frames


def cmd_gen(args):
    mods = {}
    for text in args.mods:
        k, field, value = parse_mod(text)
        mods.setdefault(k, {})[field] = value
    for frame in gen_flow(args.ip6, args.count, args.mss, mods,
                          fixed_id=args.fixed_id, df=not args.no_df,
                          ts=args.ts, sport=args.sport, vlan=args.vlan,
                          ext6=args.ext6):
        print(frame.hex())


RANDOM_BREAKS = [("ttl", "63"), ("tos", "4"), ("flags", "AP"),
                 ("flags", "AC"), ("ack", "1"), ("win", "9"),
                 ("seq", "1000"), ("len", "300"), ("csum", "bad"),
                 ("id", "5"), ("flags", "AF")]


def cmd_random(args):
    rng = random.Random(args.seed)
    flows = []
    for f in range(rng.randint(1, 3)):
        # At most 90 segments a stream: netdev-dummy queues 100 packets.
        count = rng.randint(2, 30)
        mods = {}
        for _ in range(rng.randint(0, 3)):
            field, value = rng.choice(RANDOM_BREAKS)
            mods.setdefault(rng.randrange(count), {})[field] = value
        ip6 = rng.random() < 0.5
        frames = gen_flow(ip6, count, rng.choice([536, 1000, 1428]), mods,
                          ts=rng.random() < 0.5,
                          seq0=rng.getrandbits(32),
                          ipid0=rng.getrandbits(16), rng=rng)
        # Distinct flows: distinct source ports.
        flows.append([rewrite_sport(fr, 40000 + f) for fr in frames])
    # Interleave the flows, each in order.
    out = []
    while any(flows):
        fl = rng.choice([fl for fl in flows if fl])
        out.append(fl.pop(0))
    for frame in out:
        print(frame.hex())


def l3_offset(frame):
    """Returns the offset of the IP header of 'frame' (behind at most one
    802.1Q tag) and its EtherType."""
    eth_type, = struct.unpack_from("!H", frame, 12)
    if eth_type == 0x8100:
        eth_type, = struct.unpack_from("!H", frame, 16)
        return 18, eth_type
    return 14, eth_type


def l4_offset(frame):
    l3, eth_type = l3_offset(frame)
    if eth_type == 0x0800:
        return l3 + (frame[l3] & 0xf) * 4, 4
    return _pcap.ipv6_ext_walk(frame, l3)[2], 6


def rewrite_sport(frame, sport):
    """Returns 'frame' with TCP source port 'sport', checksum updated."""
    frame = bytearray(frame)
    ofs, _ = l4_offset(frame)
    old, = struct.unpack_from("!H", frame, ofs)
    csum, = struct.unpack_from("!H", frame, ofs + 16)
    total = csum16(struct.pack("!HH", ~old & 0xffff, sport), ~csum & 0xffff)
    struct.pack_into("!H", frame, ofs, sport)
    struct.pack_into("!H", frame, ofs + 16, ~total & 0xffff)
    return bytes(frame)


def flow_key(frame):
    if len(frame) < 54:
        return None
    l3, _ = l3_offset(frame)
    ofs, ver = l4_offset(frame)
    if ver == 4:
        # An IP fragment is of a datapath flow of its own, which the
        # datapath may handle before the packets received with it.
        frag = struct.unpack_from("!H", frame, l3 + 6)[0] & 0x3fff
        addrs = frame[l3 + 12:l3 + 20] + (b"frag" if frag else b"")
    else:
        frag = any(kind == 44
                   for kind, _ in _pcap.ipv6_ext_walk(frame, l3)[0])
        addrs = frame[l3 + 8:l3 + 40] + (b"frag" if frag else b"")
    return (frame[:l3], ver, addrs, frame[ofs:ofs + 4])


def read_pcap(path):
    with open(path, "rb") as f:
        return [data for data, _ in _pcap.read_pcap(f)]


def mask_id(frame):
    """Returns 'frame' without its IPv4 ID and header checksum."""
    frame = bytearray(frame)
    l3, eth_type = l3_offset(frame)
    if eth_type == 0x0800:
        frame[l3 + 4:l3 + 6] = b"\0\0"
        frame[l3 + 10:l3 + 12] = b"\0\0"
    return bytes(frame)


def apply_sets(frame, sets):
    """Returns 'frame' changed as 'sets' (FIELD=VALUE strings) say, with
    its IPv4 header and TCP checksums computed again."""
    frame = bytearray(frame)
    for item in sets:
        field, value = item.split("=", 1)
        if field == "vlan":
            frame[12:12] = struct.pack("!HH", 0x8100, int(value))
            continue
        l3, _ = l3_offset(frame)
        ofs, ver = l4_offset(frame)
        if field == "nw_src":
            addr = ipaddress.ip_address(value).packed
            start = l3 + 12 if ver == 4 else l3 + 8
            frame[start:start + len(addr)] = addr
        elif field == "tp_dst":
            struct.pack_into("!H", frame, ofs + 2, int(value))
        elif field == "ttl":
            frame[l3 + 8 if ver == 4 else l3 + 7] = int(value)
        else:
            raise ValueError("unknown field %s" % field)
    l3, _ = l3_offset(frame)
    ofs, ver = l4_offset(frame)
    if ver == 4:
        iplen, = struct.unpack_from("!H", frame, l3 + 2)
        struct.pack_into("!H", frame, l3 + 10, 0)
        struct.pack_into("!H", frame, l3 + 10,
                         ~csum16(bytes(frame[l3:ofs])) & 0xffff)
        l4 = frame[ofs:l3 + iplen]
        pseudo = frame[l3 + 12:l3 + 20] + struct.pack("!xBH", 6, len(l4))
    else:
        plen, = struct.unpack_from("!H", frame, l3 + 4)
        l4 = frame[ofs:l3 + 40 + plen]
        pseudo = frame[l3 + 8:l3 + 40] + struct.pack("!IxxxB", len(l4), 6)
    l4[16:18] = b"\0\0"
    struct.pack_into("!H", frame, ofs + 16,
                     ~csum16(bytes(pseudo + l4)) & 0xffff)
    return bytes(frame)


def cmd_compare(args):
    with open(args.sent) as f:
        sent = [bytes.fromhex(line.strip()) for line in f if line.strip()]
    if args.set:
        sent = [apply_sets(frame, args.set) for frame in sent]
    received = read_pcap(args.received)
    if len(sent) != len(received):
        print("sent %d frames, received %d" % (len(sent), len(received)))
        return 1
    per_flow = {}
    for frame in sent:
        per_flow.setdefault(flow_key(frame), []).append(frame)
    for i, frame in enumerate(received):
        queue = per_flow.get(flow_key(frame))
        if not queue:
            print("frame %d: of no flow that was sent" % i)
            return 1
        want = queue.pop(0)
        got = frame
        if args.same_id:
            want, got = mask_id(want), mask_id(got)
        if want != got:
            for j in range(min(len(want), len(got))):
                if want[j] != got[j]:
                    break
            else:
                j = min(len(want), len(got))
            print("frame %d: %d bytes, sent %d; first difference at byte %d"
                  % (i, len(got), len(want), j))
            return 1
    print("%d frames identical" % len(received))
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--ip6", action="store_true")
    g.add_argument("--count", type=int, default=8)
    g.add_argument("--mss", type=int, default=1000)
    g.add_argument("--fixed-id", action="store_true")
    g.add_argument("--no-df", action="store_true")
    g.add_argument("--ts", action="store_true")
    g.add_argument("--sport", type=int, default=54392)
    g.add_argument("--vlan", type=int, default=0)
    g.add_argument("--ext6", default="")
    g.add_argument("mods", nargs="*")
    r = sub.add_parser("random")
    r.add_argument("seed", type=int)
    c = sub.add_parser("compare")
    c.add_argument("sent")
    c.add_argument("received")
    c.add_argument("--same-id", action="store_true")
    c.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    if args.cmd == "gen":
        cmd_gen(args)
        return 0
    if args.cmd == "random":
        cmd_random(args)
        return 0
    return cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
