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

"""perf around the benchmark's runs: "perf stat" on ovs-vswitchd (the
userspace runs' counters) and "perf record" of the whole machine
(--profile, userspace and kernel), with profile.md's sections."""

import collections
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

from .common import say

PERF_EVENTS = "page-faults,context-switches,task-clock"


def perf_usable():
    """Whether "perf stat" counts software events here."""
    if not shutil.which("perf"):
        return False
    try:
        p = subprocess.run(["perf", "stat", "-x,", "-e", PERF_EVENTS,
                            "true"], capture_output=True, text=True,
                           timeout=20)
    except subprocess.TimeoutExpired:
        return False
    return any(l.split(",")[2:3] == ["task-clock"]
               for l in p.stderr.splitlines())


def perf_start(args, out, secs):
    """perf ARGS writing to OUT, bounded to SECS + 60 s."""
    return subprocess.Popen(["timeout", "-s", "INT", str(secs + 60),
                             "perf"] + args + ["-o", out],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def perf_record_start(args, out, secs):
    """"perf record ARGS" writing to OUT, as perf_start(), but returns only
    once perf samples: under TCG, perf's setup (synthesizing every task's
    maps) can outlast a short run, which it then misses.  perf starts with
    its events disabled and enables them when told to through its control
    FIFO; its acknowledgement ends the wait (at most 120 s)."""
    d = tempfile.mkdtemp(prefix="ovs-bigtcp-perf-")
    ctl, ack = os.path.join(d, "ctl"), os.path.join(d, "ack")
    os.mkfifo(ctl)
    os.mkfifo(ack)
    proc = perf_start(args + ["-D", "-1", "--control",
                              "fifo:%s,%s" % (ctl, ack)], out, secs + 120)
    deadline = time.monotonic() + 120
    ack_fd = os.open(ack, os.O_RDONLY | os.O_NONBLOCK)
    ctl_fd = None
    try:
        while ctl_fd is None and proc.poll() is None:
            try:
                ctl_fd = os.open(ctl, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.1)
        if ctl_fd is not None:
            os.write(ctl_fd, b"enable\n")
            reply = b""
            while (b"\n" not in reply and proc.poll() is None
                   and time.monotonic() < deadline):
                if select.select([ack_fd], [], [], 1)[0]:
                    try:
                        reply += os.read(ack_fd, 64)
                    except BlockingIOError:
                        pass
            if b"ack" not in reply:
                say("perf record: no acknowledgement, the profile may "
                    "miss the run's start")
        else:
            say("perf record: did not start")
    finally:
        if ctl_fd is not None:
            os.close(ctl_fd)
        os.close(ack_fd)
        shutil.rmtree(d, ignore_errors=True)
    return proc


def perf_stop(proc):
    """Stops a perf_start(): timeout passes SIGINT on to perf."""
    if proc:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def perf_counters(path):
    """The counters of a "perf stat -x," output file: {event: value}."""
    found = {}
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split(",")
        try:
            found[fields[2].split(":")[0]] = float(fields[0])
        except (IndexError, ValueError):
            pass
    return found


def profile_section(data, state, proto, res, top=12):
    """A Markdown section from a "perf record -a -g -e cpu-clock" of one
    run: the run's throughput, the idle share (samples of the idle task,
    "swapper") and the TOP symbols by share of all samples."""
    gbps = ("%.2f Gbit/s" % res["gbps"]) if res["ok"] else "iperf3 failed"
    try:
        text = subprocess.run(
            ["perf", "report", "-i", data, "--stdio", "--no-children",
             "-g", "none", "--sort", "comm,dso,sym", "--percent-limit",
             "0"], capture_output=True, text=True, timeout=300).stdout
    except (OSError, subprocess.SubprocessError) as e:
        return "## %s %s\n\nperf report failed: %s\n\n" % (state, proto, e)
    rows = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0].endswith("%") and not line.startswith("#"):
            try:
                rows.append((float(f[0][:-1]), f[1], f[2],
                             " ".join(f[3:])))
            except ValueError:
                pass
    idle = sum(r[0] for r in rows if r[1] == "swapper")
    by_comm = collections.Counter()
    for pct, comm, _, _ in rows:
        by_comm[comm] += pct
    comms = ", ".join("%s %.1f%%" % c for c in by_comm.most_common(5))
    md = ["## %s %s: %s, idle %.1f%%" % (state, proto, gbps, idle), "",
          "By process: %s." % comms, "",
          "| share | process | symbol |", "|---|---|---|"]
    for pct, comm, _, sym in [r for r in rows if r[1] != "swapper"][:top]:
        md.append("| %.1f%% | %s | %s |" % (pct, comm, sym.replace("|", "/")))
    return "\n".join(md) + "\n\n"
