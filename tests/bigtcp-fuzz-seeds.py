#!/usr/bin/env python3
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

"""Writes the seed corpora of the libFuzzer targets.

usage: bigtcp-fuzz-seeds.py DIR

Writes DIR/fuzz-bigtcp-rx/ (a virtio-net header and a frame: every case of
bigtcp-malformed.py, valid TSO packets, and IPv6 BIG TCP packets in both
framings: with a jumbo option, as Linux 6.x sends them, and with payload
length 0 alone, as Linux 7.x does), DIR/fuzz-bigtcp-reseg/ (27-byte case descriptions, 30
with a tunnel, see tests/fuzz-bigtcp-reseg.c), DIR/fuzz-bigtcp-tso-limits/
(Interface options, one KEY=VALUE a line), DIR/fuzz-bigtcp-dp-attrs/
(a byte of user features and the attributes of datapath replies, in both
numberings of the GSO interface) and
DIR/fuzz-bigtcp-gro/ (streams of TCP segments from bigtcp-gro.py, see
tests/fuzz-bigtcp-gro.c) and DIR/fuzz-bigtcp-tnl-rx/ (a tunnel tap's
24-byte virtio-net header and a VXLAN or Geneve TCP GSO packet, over
64 KiB with Linux 7.3's outer lengths of 0 too, and with lengths that lie,
see tests/fuzz-bigtcp-tnl-rx.c).  The files in
tests/fuzz-corpus/ were written by it; run it again after changing it."""

import contextlib
import importlib.util
import io
import os
import struct
import sys

from bigtcp_genl import OVS_BIGTCP_ATTR_BASE


def load_test_module(name):
    """Imports tests/bigtcp-NAME.py, whose name has a hyphen."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "bigtcp-%s.py" % name)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = [
    "gso-size-zero", "gso-size-over-payload", "hdr-len-beyond",
    "csum-start-beyond", "csum-offset-beyond", "jumbo-disagrees",
    "tcp-doff-small", "tcp-doff-beyond", "tcp-truncated", "ip-truncated",
    "gso-not-tcp", "gso-wrong-version", "stacked-vlans", "ip-options",
    "ipv6-ext-headers", "plen0-small", "plen0-hbh-not-jumbo",
]


def rx_seeds(m):
    seeds = {}
    for name in CASES:
        hdr, frame = m.case(name)
        seeds[name] = hdr + frame
    # Valid TSO packets with a partial checksum, as Linux sends them.
    v4 = m.eth(m.ipv4(m.tcp(4000)))
    seeds["tso-ipv4"] = m.vnet(1, m.GSO_TCPV4, 54, 1448, 34, 16) + v4
    v6 = m.eth(m.ipv6(m.tcp(4000)), 0x86dd)
    seeds["tso-ipv6"] = m.vnet(1, m.GSO_TCPV6, 74, 1448, 54, 16) + v6
    seeds["plain"] = m.vnet() + m.eth(m.ipv4(m.tcp(100)))
    # IPv6 BIG TCP: payload length 0 and a jumbo option, 65600 bytes.
    seg = m.tcp(65600 - 14 - 40 - 8 - 20)
    hbh = struct.pack("!BBBBI", 6, 0, 0xc2, 4, 8 + len(seg))
    big = m.eth(m.ipv6(seg, ext=hbh, ext_proto=0, plen=0), 0x86dd)
    seeds["bigtcp-ipv6-jumbo"] = m.vnet(1, m.GSO_TCPV6, 82, 1428, 62, 16) + big
    # IPv6 BIG TCP as Linux 7.x frames it: payload length 0 and no jumbo
    # option; and the same with a Hop-by-Hop header (PadN) that is not a
    # jumbo option in front of TCP.
    seg = m.tcp(65600 - 14 - 40 - 20)
    big = m.eth(m.ipv6(seg, plen=0), 0x86dd)
    seeds["bigtcp-ipv6-plen0"] = m.vnet(1, m.GSO_TCPV6, 74, 1428, 54, 16) + big
    hbh = struct.pack("!BBBB", 6, 0, 1, 4) + bytes(4)
    big = m.eth(m.ipv6(seg, ext=hbh, ext_proto=0, plen=0), 0x86dd)
    seeds["bigtcp-ipv6-plen0-hbh-padn"] = (m.vnet(1, m.GSO_TCPV6, 82, 1428,
                                                  62, 16) + big)
    # BIG TCP framing around one segment (gso_size is the payload): no
    # plain packet can carry it.
    seg = m.tcp(65520)
    hbh = struct.pack("!BBBBI", 6, 0, 0xc2, 4, 8 + len(seg))
    big = m.eth(m.ipv6(seg, ext=hbh, ext_proto=0, plen=0), 0x86dd)
    seeds["one-segment-ipv6-jumbo"] = (m.vnet(1, m.GSO_TCPV6, 82, 65520, 62,
                                              16) + big)
    big = m.eth(m.ipv4(m.tcp(65500), tot_len=0))
    seeds["one-segment-ipv4-len-0"] = (m.vnet(1, m.GSO_TCPV4, 54, 65500, 34,
                                              16) + big)
    # A non-GSO IPv6 jumbogram, and one whose jumbo length lies.
    seg = m.tcp(70000)
    for name, delta in (("jumbogram-ipv6", 0), ("jumbogram-ipv6-lying", 8)):
        hbh = struct.pack("!BBBBI", 6, 0, 0xc2, 4, 8 + len(seg) + delta)
        big = m.eth(m.ipv6(seg, ext=hbh, ext_proto=0, plen=0), 0x86dd)
        seeds[name] = m.vnet() + big
    # The largest plain IPv6 packet (65575 bytes of IP), with trailing
    # bytes: over 64 KiB behind the Ethernet header, yet no jumbogram.
    seeds["ipv6-max-padded"] = (m.vnet()
                                + m.eth(m.ipv6(m.tcp(65535 - 20)), 0x86dd)
                                + bytes(33))
    return seeds


def reseg_seed(kind, ip_opt, tcp_opt, mss, payload, flags, urg, seq, ip_id,
               max_size, max_segs, seed, tunnel=None, outer_id=0):
    seed = (struct.pack("!BBBH", kind, ip_opt, tcp_opt, mss - 88)
            + payload.to_bytes(3, "big") + struct.pack("!BHIH", flags, urg,
                                                       seq, ip_id)
            + max_size.to_bytes(3, "big") + max_segs.to_bytes(3, "big")
            + struct.pack("!I", seed))
    if tunnel is not None:
        seed += struct.pack("!BH", tunnel, outer_id)
    return seed


def reseg_seeds():
    return {
        # IPv4, 512 KiB for a 64 KiB port.
        "ipv4-big-64k": reseg_seed(0, 0, 3, 1448, 524000, 0, 0, 1, 7,
                                   65536, 65535, 1),
        # IPv6 with two VLAN tags, URG and CWR, bound by segments.
        "ipv6-vlans-urg": reseg_seed(5, 0, 10, 1428, 100000, 0x14, 5000, 9,
                                     0, 524280, 20, 2),
        # IPv4 options, PSH and FIN, a bound on a segment boundary.
        "ipv4-opts-fin": reseg_seed(8, 10, 0, 1000, 30000, 0x03, 0, 5, 65535,
                                    54 + 40 + 10000, 65535, 3),
        # A bound too small for two segments.
        "too-small": reseg_seed(0, 0, 0, 9000, 20000, 0, 0, 0, 0, 9000, 1, 4),
        # VXLAN over IPv4, 512 KiB for a 64 KiB port.
        "vxlan-big-64k": reseg_seed(0, 0, 3, 1448, 524000, 0, 0, 1, 7,
                                    65536, 65535, 5, 1, 100),
        # Geneve with options and checksums over IPv6, inner IPv6.
        "geneve6-csum": reseg_seed(1, 0, 0, 1400, 200000, 0x03, 0, 3, 0,
                                   65536, 65535, 6, 0x2e, 65535),
        # GRE with a checksum and a key over IPv4, bound by segments.
        "gre-csum-key": reseg_seed(0, 0, 5, 1000, 60000, 0x10, 0, 8, 9,
                                   524280, 10, 7, 0x1b, 3),
    }


def limits_seeds():
    return {
        "sizes": b"tso-max-size=65536\ntso-max-segs=64\n",
        "invalid": b"tso-max-size=abc\ntso-max-segs=1\n",
        "bounds": b"tso-max-size=3000\ntso-max-segs=65535\n",
        "dummy": (b"ol_tso_segsz=1000\nol_tso_max_size=32000\n"
                  b"ol_tso_max_segs=32\nol_vnet_hdr=00013600940500000000\n"),
        "vnet-short": b"ol_vnet_hdr=0001\n",
    }


def nla(kind, data):
    """A netlink attribute, padded to 4 bytes."""
    length = 4 + len(data)
    return struct.pack("=HH", length, kind) + data + b"\0" * (-length % 4)


def dp_attrs_seeds():
    """Inputs of fuzz-bigtcp-dp-attrs: a byte of user features, then the
    attributes of a datapath reply (what follows struct ovs_header), in
    upstream's numbering, in the out-of-tree module's, as other kernels
    might write them, and variations."""
    base = OVS_BIGTCP_ATTR_BASE
    version, stats, features = base, base + 1, base + 2
    up_stats, up_vport_stats = 10, 11
    gso_upcall = bytes([1 << 4])
    no_features = b"\0"
    reseg, out, pad = 1, 2, 3
    u32 = lambda v: struct.pack("=I", v)
    u64 = lambda v: struct.pack("=Q", v)
    name = nla(1, b"ovs-system\0")
    gso = nla(pad, b"") + nla(reseg, u64(331)) + nla(pad, b"") \
        + nla(out, u64(1775))
    vport_gso = nla(1, u64(2600)) + nla(4, b"") + nla(2, u64(7797)) \
        + nla(3, u64(12))
    vport = nla(1, u32(2)) + nla(2, u32(1)) + nla(3, b"ovs-p1\0")
    return {
        "upstream": gso_upcall + name + nla(5, u32(1 << 4))
        + nla(up_stats, gso),
        "upstream-off": no_features + name + nla(up_stats, gso),
        "upstream-bad-stats": gso_upcall + name
        + nla(up_stats, nla(reseg, b"\1\2\3\4") + nla(out, u64(1))),
        "kernel": no_features + name + nla(version, u32(1))
        + nla(features, u32(1)) + nla(stats, gso),
        "stock": no_features + name + nla(5, u32(0)),
        "no-version": no_features + name + nla(stats, gso),
        "future-upstream": gso_upcall + name + nla(10, u32(4))
        + nla(11, u32(7)) + nla(12, b"\1\2"),
        "bad-version": no_features + name + nla(version, b"\1\0")
        + nla(stats, gso),
        "bad-stats": no_features + name + nla(version, u32(1))
        + nla(stats, nla(reseg, b"\1\2\3\4") + nla(out, u64(1))),
        "newer-module": no_features + name + nla(version, u32(2))
        + nla(stats, gso + nla(9, u64(3))) + nla(base + 9, u64(5)),
        # A vport reply's attributes, with its GSO statistics (resegmented,
        # reseg_packets, segmented) in either numbering, well formed and
        # not.
        "vport": no_features + vport + nla(base, vport_gso),
        "vport-upstream": no_features + vport + nla(up_vport_stats,
                                                    vport_gso),
        "vport-short": no_features + nla(3, b"ovs-p1\0")
        + nla(base, nla(1, u64(2600)) + nla(2, u64(7797))),
    }


def gro_seeds():
    """Inputs of fuzz-bigtcp-gro: checksum marks, a gro-max-size selector,
    then frames, each behind its 2-byte length."""
    g = load_test_module("gro")

    def stream(marks, size_sel, frames):
        return bytes([marks, size_sel]) + b"".join(
            struct.pack("!H", len(f)) + f for f in frames)

    def flow(ip6=False, count=8, mss=1000, mods=None, **kw):
        return g.gen_flow(ip6, count, mss, mods or {}, **kw)

    seeds = {
        "ipv4-8": stream(0, 31, flow()),
        "ipv6-8": stream(2, 31, flow(ip6=True)),
        "ipv4-vlan": stream(0, 31, flow(vlan=10)),
        "ipv4-ts-good-csum": stream(5, 31, flow(ts=True)),
        "ipv4-fixed-id": stream(0, 31, flow(fixed_id=True)),
        "ipv4-full": stream(0, 0, flow(count=6)),
        "ipv4-psh": stream(0, 31, flow(mods={3: {"flags": "AP"}})),
        "ipv4-runt": stream(0, 31, flow(count=2, mss=100,
                                        mods={1: {"len": "1",
                                                  "pad": "5"}})),
        "ipv4-bad-pad": stream(0, 31, flow(count=2, mss=100,
                                           mods={1: {"len": "1", "pad": "5",
                                                     "padbyte": "1"}})),
        "ipv6-hbh": stream(0, 31, flow(ip6=True, mods={2: {"hbh": "1"}})),
        "ipv6-ext": stream(2, 31, flow(ip6=True, ext6="hbh,dstopt,rthdr")),
        "ipv6-ext-differ": stream(2, 31, flow(ip6=True, ext6="dstopt",
                                              mods={3: {"optval": "1"}})),
        "ipv6-ext-frag": stream(2, 31, flow(ip6=True, ext6="dstopt",
                                            mods={2: {"ext": "frag"}})),
        "ipv4-bad-csum": stream(0, 31, flow(mods={2: {"csum": "bad"}})),
        "ipv4-marked-bad": stream(3, 31, flow()),
        "ipv4-seq-gap": stream(0, 31, flow(mods={4: {"seq": "1000"}})),
    }
    for seed in (1, 2, 3):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            g.cmd_random(type("A", (), {"seed": seed})())
        frames = [bytes.fromhex(x) for x in out.getvalue().split()]
        seeds["random-%d" % seed] = stream(0, 31, frames[:40])
    return seeds


def ip_csum(hdr):
    s = sum(struct.unpack("!%dH" % (len(hdr) // 2), hdr))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def tnl_rx_seed(kind, udp_csum, payload, gso_size=1000, lie=None):
    """A tunnel tap's virtio-net header (struct virtio_net_hdr, 10 zero
    bytes, the outer UDP and inner IP header offsets, little endian) and a
    TCP GSO packet over IPv4 in a KIND ("vxlan" or "geneve", with OVN's one
    option) tunnel over IPv4, with an outer UDP checksum if UDP_CSUM.  A
    length that does not fit in 16 bits is 0, as Linux 7.3 writes the UDP
    tunnel packets of BIG TCP; LIE ("udp", "ip", "inner") cuts the outer
    UDP, outer IP or inner IP length to 16 bits instead, or ("zero") makes
    both outer lengths 0 whatever the size, or ("version") gives the outer
    IPv4 header version 6 (found by the target: flow extraction goes by
    the Ethertype, decapsulation by the version)."""
    def len16(n, cut):
        if lie == "zero" and cut in ("udp", "ip"):
            return 0
        return n & 0xffff if lie == cut else (n if n <= 0xffff else 0)

    def ip4(proto, length, src, dst):
        ver_ihl = 0x65 if lie == "version" and proto == 17 else 0x45
        h = struct.pack("!BBHHHBBH4s4s", ver_ihl, 0, length, 1, 0x4000, 64,
                        proto, 0, bytes(src), bytes(dst))
        return h[:10] + struct.pack("!H", ip_csum(h)) + h[12:]

    tcp = struct.pack("!HHIIBBHHH", 40000, 5201, 1, 1, 5 << 4, 0x10, 1000,
                      0, 0)
    ieth = bytes([10, 0, 0, 0, 0, 2, 10, 0, 0, 0, 0, 1, 8, 0])
    inner = ieth + ip4(6, len16(40 + payload, "inner"), (10, 0, 0, 1),
                       (10, 0, 0, 2)) + tcp
    if kind == "vxlan":
        th, port = struct.pack("!II", 0x08000000, 5 << 8), 4789
    else:
        th = (struct.pack("!BBHI", 1, 0, 0x6558, 5 << 8)
              + struct.pack("!HBBI", 0x0102, 0x80, 1, 0x10002))
        port = 6081
    udp_len = 8 + len(th) + len(inner) + payload
    udp = struct.pack("!HHHH", 12345, port, len16(udp_len, "udp"),
                      0xffff if udp_csum else 0)
    oeth = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 8, 0])
    outer = oeth + ip4(17, len16(20 + udp_len, "ip"), (172, 31, 1, 1),
                       (172, 31, 1, 100))
    inner_nh = len(outer) + len(udp) + len(th) + len(ieth)
    inner_th = inner_nh + 20
    flags = 1 | (8 if udp_csum else 0)     # NEEDS_CSUM, UDP_TUNNEL_CSUM
    vnet = (struct.pack("<BBHHHH", flags, 1 | 0x20, inner_th + 20, gso_size,
                        inner_th, 16)
            + bytes(10) + struct.pack("<HH", len(outer), inner_nh))
    return vnet + outer + udp + th + inner + bytes(payload)


def tnl_rx_seeds():
    return {"vxlan-gso": tnl_rx_seed("vxlan", False, 3000),
            "geneve-gso-csum": tnl_rx_seed("geneve", True, 3000),
            "geneve-one-segment": tnl_rx_seed("geneve", False, 800),
            "geneve-big-len0": tnl_rx_seed("geneve", True, 70000, 1400),
            "vxlan-big-len0": tnl_rx_seed("vxlan", False, 70000, 1400),
            "geneve-big-udp-lie": tnl_rx_seed("geneve", True, 70000, 1400,
                                              "udp"),
            "geneve-big-ip-lie": tnl_rx_seed("geneve", False, 70000, 1400,
                                             "ip"),
            "geneve-big-inner-lie": tnl_rx_seed("geneve", False, 70000,
                                                1400, "inner"),
            "geneve-len0-small": tnl_rx_seed("geneve", False, 3000, 1000,
                                             "zero"),
            "geneve-outer-version-6": tnl_rx_seed("geneve", False, 800, 277,
                                                  "version")}


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    out = sys.argv[1]
    m = load_test_module("malformed")
    for target, seeds in (("fuzz-bigtcp-rx", rx_seeds(m)),
                          ("fuzz-bigtcp-reseg", reseg_seeds()),
                          ("fuzz-bigtcp-tso-limits", limits_seeds()),
                          ("fuzz-bigtcp-dp-attrs", dp_attrs_seeds()),
                          ("fuzz-bigtcp-gro", gro_seeds()),
                          ("fuzz-bigtcp-tnl-rx", tnl_rx_seeds())):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
