#!/usr/bin/env python3
"""Perch's benchmark: one table of figures with their budgets, also written as JSON.

    python3 bench/bench.py            # the full bench (`make bench`), about a minute
    python3 bench/bench.py --smoke    # one quick run of each measurement (`make test`)

Whole-process figures (start-up, bytes per action, idle, long-press, input to screen) run the
release binary on a pseudo-terminal made here; in-process figures come from the `perch-bench`
executable (bench/PerchBench). Times come from the monotonic clock, memory from getrusage(2) of the
child, wake-ups from the kernel's context-switch counts in /proc, instructions per frame from
valgrind's callgrind. The bench never fails on a timing; it fails (status 1) when a measurement
breaks (a process that does not start, exits badly or does not draw what it should) and when a
frame takes more instructions than its budget: a count no busy machine can move.
"""

import argparse
import base64
import fcntl
import json
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# PERCH_BIN measures another build of perch (two builds compared in turn, say).
PERCH = os.environ.get("PERCH_BIN") or os.path.join(ROOT, ".build/release/perch")
PERCH_BENCH = os.path.join(ROOT, ".build/release/perch-bench")
# The Debian package to weigh: PERCH_DEB, else the one `make deb` built last.
DEB_LATEST = os.path.join(ROOT, ".build/deb/latest")
BASELINE_SOURCE = os.path.join(ROOT, "bench/baseline.c")
PEAKRSS_SOURCE = os.path.join(ROOT, "bench/peakrss.c")
SIZES = [(80, 24), (200, 60)]
TERM = "xterm-256color"
#: A frame's instruction budget (callgrind's Ir: instructions executed, render + diff + ncurses):
#: a fixed part for what every frame does whatever its size (ncurses' refresh, the tab bar; a
#: frame redrawing the whole screen measured 1.2 M of it at both sizes) and a part per cell, so
#: that a 200×60 frame (12,000 cells) may take 4,000,000 instructions and an 80×24 one (1,920
#: cells) 1,984,000.
FRAME_INSTRUCTIONS_FIXED = 1_600_000
FRAME_INSTRUCTIONS_PER_CELL = 200
#: A machine whose C ncurses floor starts this many times slower than its idle value (the fastest
#: floor start-up of the same run) is busy: a frame's wall-clock time missing its budget there is
#: marked "machine busy" rather than "OVER" (its instruction count still holds it to account).
BUSY_FLOOR_RATIO = 1.3


def frame_instruction_budget(cols, rows):
    """Most instructions one frame of `cols` × `rows` cells may take."""
    return FRAME_INSTRUCTIONS_FIXED + FRAME_INSTRUCTIONS_PER_CELL * cols * rows


class BenchError(Exception):
    """A measurement that broke (not a slow one)."""


# ---------------------------------------------------------------------------------------------
# Statistics


def median(samples):
    ordered = sorted(samples)
    return ordered[len(ordered) // 2]


def p99(samples):
    """The nearest-rank 99th percentile."""
    ordered = sorted(samples)
    rank = -(-99 * len(ordered) // 100) - 1
    return ordered[max(0, min(len(ordered) - 1, rank))]


def evict(path):
    """Drops the file's clean pages from the page cache (posix_fadvise(2), POSIX_FADV_DONTNEED), so
    that the next run reads it from disk as after a reboot. The kernel maps a file's pages in
    whole page-cache folios, whose size depends on how the pages came into the cache (read ahead
    from disk, or written by the linker), so without this a binary's peak RSS would depend on how
    it was last written or read."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def now_ms():
    return time.monotonic_ns() / 1e6


# ---------------------------------------------------------------------------------------------
# A program on a pseudo-terminal


class Session:
    """A program started on a new pseudo-terminal of `cols` × `rows`. Like a terminal, it answers
    a primary device attributes request (`CSI c`), as one without the kitty keyboard protocol
    does: at once, after `reply_delay` seconds (a terminal over ssh to a far host), or never
    (`reply_delay` None). `first_frame` is when the first frame's bytes (`Overview`) arrived."""

    def __init__(self, argv, env, cols=80, rows=24, reply_delay=0.0):
        self.reply_delay = reply_delay
        self.replies = []  # (monotonic ms, bytes) still to send
        self.first_frame = None
        self.start = now_ms()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd, self.argv = pid, fd, argv
        self.output = bytearray()
        self.status = None
        self.rusage = None

    def read(self, timeout):
        """One read of what the program wrote, with the time it arrived; (None, b"") on timeout,
        (time, b"") at the end of output."""
        self.send_due_replies()
        if self.replies:
            timeout = max(0.0, min(timeout, (self.replies[0][0] - now_ms()) / 1000))
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None, b""
        stamp = now_ms()
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program closed the terminal
            data = b""
        before = len(self.output)
        self.output += data
        if self.first_frame is None and b"Overview" in self.output:
            self.first_frame = stamp
        # The request may be cut between two reads: look from just before this one.
        if b"\x1b[c" in self.output[max(0, before - 2):] and self.reply_delay is not None:
            self.replies.append((stamp + self.reply_delay * 1000, b"\x1b[?62;22c"))
            self.send_due_replies()
        return stamp, data

    def send_due_replies(self):
        while self.replies and self.replies[0][0] <= now_ms():
            try:
                os.write(self.fd, self.replies.pop(0)[1])
            except OSError:  # the program has already closed the terminal
                pass

    def settle(self, quiet=0.1, limit=10.0):
        """Reads until the program has been quiet for `quiet` seconds; returns what it wrote."""
        got = bytearray()
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            stamp, data = self.read(quiet)
            if stamp is None or not data:
                return bytes(got)
            got += data
        raise BenchError("the program never stopped drawing")

    def send(self, data):
        """Writes `data` as typed; returns the time just before the write, in ms."""
        stamp = now_ms()
        os.write(self.fd, data)
        return stamp

    def frame_after(self, data, quiet=0.03, limit=5.0):
        """Sends `data`, then reads the frame that answers it: (ms from the write to the frame's
        first byte, the frame's bytes)."""
        sent = self.send(data)
        first, chunk = self.read(limit)
        if first is None or not chunk:
            raise BenchError(f"no frame answered {data!r}")
        return first - sent, chunk + self.settle(quiet)

    def repaint(self, quiet=0.03):
        """The bytes of a full repaint of the current screen: after SIGWINCH Perch redraws every
        cell (ncurses clearok), the reference an action's bytes are compared with."""
        os.kill(self.pid, signal.SIGWINCH)
        first, chunk = self.read(5.0)
        if first is None or not chunk:
            raise BenchError("no repaint after SIGWINCH")
        return chunk + self.settle(quiet)

    def finish(self, limit=10.0):
        """Reads to the end of output and reaps the program; returns its exit status."""
        deadline = time.monotonic() + limit
        while True:
            stamp, data = self.read(0.5)
            if stamp is not None and not data:
                break
            if time.monotonic() > deadline:
                os.kill(self.pid, 9)
                os.wait4(self.pid, 0)
                os.close(self.fd)
                raise BenchError(f"{os.path.basename(self.argv[0])} did not exit within {limit:g} s")
        _, status, self.rusage = os.wait4(self.pid, 0)
        os.close(self.fd)
        self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def quit(self):
        self.send(b"\x03")  # Ctrl-C quits from anywhere
        if self.finish() != 0:
            raise BenchError(f"perch exited with {self.status} after Ctrl-C")

    def counters(self):
        """(context switches of all the program's threads, CPU time in ms) from /proc."""
        switches = 0
        for task in os.listdir(f"/proc/{self.pid}/task"):
            with open(f"/proc/{self.pid}/task/{task}/status") as status:
                for line in status:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switches += int(line.split()[1])
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return switches, ticks * 1000 / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------------------------
# The figures


class Bench:
    def __init__(self, smoke, scratch):
        self.smoke = smoke
        self.scratch = scratch
        self.rows = []
        self.env = {
            "TERM": TERM,
            "HOME": os.path.join(scratch, "home"),
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        }
        os.makedirs(self.env["HOME"], exist_ok=True)
        self.configs = {n: self.write_config(n) for n in (4, 1_000, 10_000, 100_000)}
        # Every start-up of the C ncurses floor this run, in ms: the fastest is the machine's idle
        # value, against which the floor measured beside the frames tells a busy machine.
        self.floor_samples = []
        # The floor measured just before each size's frames were timed, by size.
        self.frame_floors = {}


    def runs(self, full):
        return 1 if self.smoke else full

    def row(self, id, label, unit, budget, samples=None, median_value=None, p99_value=None, ok=None, note="",
            cpu_samples=None, cpu_ok=None):
        """Adds one row of the table. `ok` is None for a figure with no budget of its own. With
        `cpu_samples`, the CPU time of the same runs is shown beside; a figure that misses while
        `cpu_ok` says its CPU time holds is marked "OVER, CPU ok" (it waited for a busy core)."""
        if samples is not None:
            median_value, p99_value = median(samples), p99(samples)
        status = "not built yet" if median_value is None else ("info" if ok is None else ("ok" if ok else "OVER"))
        if status == "OVER" and cpu_ok:
            status = "OVER, CPU ok"
        self.rows.append(
            {
                "id": id,
                "figure": label,
                "unit": unit,
                "median": median_value,
                "p99": p99_value,
                "runs": len(samples) if samples is not None else (1 if median_value is not None else 0),
                "budget": budget,
                "cpu_median": median(cpu_samples) if cpu_samples else None,
                "cpu_p99": p99(cpu_samples) if cpu_samples else None,
                "status": status,
                "note": note,
            }
        )

    def from_figure(self, f, label, budget, limit, stat="p99", note=""):
        """Adds a row from one of perch-bench's figures, within budget when its `stat` (median or
        p99) is at most `limit`. The CPU time of the same runs is shown beside the wall clock; a
        figure whose wall-clock time misses while its CPU time holds is marked as such: the
        thread was waiting for a core of a busy machine, not working."""
        ok = f[stat] <= limit
        self.row(f["id"], label, f["unit"], budget, median_value=f["median"], p99_value=f["p99"], ok=ok, note=note)
        row = self.rows[-1]
        row["runs"] = f["runs"]
        cpu = f.get("cpuMedian" if stat == "median" else "cpuP99")
        row["cpu_median"], row["cpu_p99"] = f.get("cpuMedian"), f.get("cpuP99")
        if not ok and cpu is not None and cpu <= limit:
            row["status"] = "OVER, CPU ok"

    def not_built(self, id, label, budget, why):
        self.row(id, label, "", budget, note=why)

    def write_config(self, count):
        path = os.path.join(self.scratch, f"accounts-{count}.json")
        accounts = [{"id": f"a{i}", "name": f"Account {i}", "handle": f"@user{i}"} for i in range(1, count + 1)]
        with open(path, "w") as file:
            json.dump({"accounts": accounts}, file, indent=1)
        return path

    def sign_in(self):
        """Makes the sample account `personal` current in the state file, so that the Catalog lists
        its entries (with no account chosen it is empty); a run with another config clears it."""
        with open(os.path.join(self.scratch, "state.json"), "w") as file:
            json.dump({"version": 2, "currentAccount": "personal", "switchCount": 1, "switchesPerAccount": {"personal": 1}}, file)

    def perch(self, *arguments, config=None):
        argv = [PERCH, "--state", os.path.join(self.scratch, "state.json")]
        if config:
            argv += ["--config", config]
        return argv + list(arguments)

    # 0. Sizes on disk ------------------------------------------------------------------------------

    def sizes(self):
        """The binary as `make install` installs it (stripped), put in a scratch root by
        `make install` itself, and the Debian package `make deb` built (PERCH_DEB, else
        .build/deb/latest), with the size of the binary inside it."""
        root = os.path.join(self.scratch, "install")
        env = dict(self.env, PATH=os.environ.get("PATH", "/usr/bin:/bin"))
        result = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "install", f"BIN={PERCH}", "PREFIX=/usr",
                                 f"DESTDIR={root}"], env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise BenchError(f"make install exited with {result.returncode}: {result.stderr}")
        installed = os.path.join(root, "usr/bin/perch")
        size = os.path.getsize(installed) / 1e6
        kind = subprocess.run(["file", "-b", installed], capture_output=True, text=True).stdout.strip()
        self.row("size_installed", "installed binary (make install, stripped)", "MB", "≤ 25 MB", median_value=size,
                 p99_value=size, ok=size <= 25 and "not stripped" not in kind,
                 note=f"built binary {os.path.getsize(PERCH) / 1e6:.1f} MB; " + ", ".join(
                     part for part in kind.split(", ") if "linked" in part or "stripped" in part))
        package = os.environ.get("PERCH_DEB")
        if not package and os.path.exists(DEB_LATEST):
            with open(DEB_LATEST) as file:
                package = file.read().strip()
        if not package or not os.path.exists(package):
            self.not_built("size_deb", ".deb package", "≤ 8 MB", "no package: build it with `make deb`")
            return
        size = os.path.getsize(package) / 1e6
        listing = subprocess.run(["dpkg-deb", "-c", package], capture_output=True, text=True, check=True).stdout
        inside = [line.split() for line in listing.splitlines() if line.endswith("./usr/bin/perch")]
        note = os.path.basename(package)
        if inside:
            note += f"; usr/bin/perch {int(inside[0][2]) / 1e6:.1f} MB inside"
        if os.path.getmtime(package) < os.path.getmtime(PERCH):
            note += "; older than the built binary (`make deb` again)"
        self.row("size_deb", ".deb package (make deb)", "MB", "≤ 8 MB", median_value=size, p99_value=size, ok=size <= 8,
                 note=note)

    # 1. Start-up to first frame ----------------------------------------------------------------

    def startup(self):
        baseline = self.baseline()
        peakrss = os.path.join(self.scratch, "peakrss")
        subprocess.run(["cc", "-O2", PEAKRSS_SOURCE, "-o", peakrss], check=True)
        rss_file = os.path.join(self.scratch, "rss")
        counts = (4, 1_000, 10_000, 100_000)
        # Each count has its own state file with account a1 current, and the cache `perch current`
        # keeps of it (made once both files are older than the cache's 2 s racy window): the
        # first frame comes from the cache. `_cold` runs remove the cache first, as the first run
        # after an edit of the config finds it (the run reads the config, then keeps the cache).
        states = {n: os.path.join(self.scratch, f"startup-state-{n}.json") for n in counts}
        for n in counts:
            with open(states[n], "w") as file:
                json.dump({"version": 2, "currentAccount": "a1", "switchCount": 1, "switchesPerAccount": {"a1": 1}}, file)
        time.sleep(0 if self.smoke else 2.2)

        def startup_argv(n):
            return [PERCH, "--state", states[n], "--config", self.configs[n], "--exit-after-first-frame"]

        def forget(n):
            def remove():
                try:
                    os.unlink(states[n] + ".current")
                except FileNotFoundError:
                    pass
            return remove

        def cache(n):
            def make():
                if not os.path.exists(states[n] + ".current"):
                    subprocess.run([PERCH, "--state", states[n], "--config", self.configs[n], "current"], env=self.env,
                                   capture_output=True, check=True)
            return make

        # Each program with the delay of its terminal's answer (None: it never answers) and what
        # to do before each run.
        programs = {"baseline": ([baseline], 0.0, None)}
        programs.update({f"perch_{n}": (startup_argv(n), 0.0, cache(n)) for n in counts})
        programs.update({f"perch_{n}_cold": (startup_argv(n), 0.0, forget(n)) for n in counts})
        terminals = {"perch_4_80ms": 0.080, "perch_4_never": None}
        programs.update({name: (startup_argv(4), delay, cache(4)) for name, delay in terminals.items()})
        times = {name: [] for name in programs}
        exits = {name: [] for name in programs}
        memory = {name: [] for name in programs}
        cpu = {name: [] for name in programs}
        for run in range(self.runs(40)):
            for name, (argv, delay, before) in programs.items():  # interleaved, so that noise falls on all alike
                if name == "perch_100000_cold" and run % 4:
                    continue  # 10 runs are plenty for a figure without a budget
                if before:
                    before()
                session = Session([peakrss, rss_file] + argv, self.env, reply_delay=delay)
                session.finish()
                if session.status != 0 or session.first_frame is None:
                    raise BenchError(f"{name} exited with {session.status} without drawing its frame")
                # From start to the first frame's bytes on the terminal, not to the exit: on the
                # way out Perch reads the answers it still expects.
                times[name].append(session.first_frame - session.start)
                exits[name].append(now_ms() - session.start)
                with open(rss_file) as file:
                    peak, used = file.read().split()
                memory[name].append(int(peak) / 1024)  # KiB → MiB
                cpu[name].append(int(used) / 1000)  # µs → ms, the whole process (to its exit)
        floor, floor_rss = median(times["baseline"]), median(memory["baseline"])
        floor_cpu = median(cpu["baseline"])
        self.floor_rss = floor_rss
        self.floor_samples += times["baseline"]
        self.row("startup_baseline", "start-up, C ncurses floor (80×24)", "ms", "the floor", times["baseline"],
                 cpu_samples=cpu["baseline"])
        self.row("rss_baseline", "peak RSS, C ncurses floor", "MiB", "the floor", memory["baseline"])
        # With the cache matching, the first frame never waits for the config; without it (the
        # first run after an edit) the config is read first.
        budgets = {4: 3, 10_000: 3, 100_000: 3}
        cold_budgets = {10_000: 10}
        for count in counts:
            for name, limit, label in ((f"perch_{count}", budgets.get(count), "cache in use"),
                                       (f"perch_{count}_cold", cold_budgets.get(count), "no cache: config read")):
                over = [t - floor for t in times[name]]
                cpu_over = [c - floor_cpu for c in cpu[name]]
                self.row(name.replace("perch", "startup"), f"first frame over the floor, {count:,} accounts, {label}" +
                         (", terminal answering at once" if count == 4 else ""), "ms",
                         f"≤ {limit} ms median" if limit else "(how it grows)", over,
                         ok=(median(over) <= limit) if limit else None, cpu_samples=cpu_over,
                         cpu_ok=(median(cpu_over) <= limit) if limit else None)
            if count == 4:
                for name, label in (("perch_4_80ms", "answering after 80 ms"), ("perch_4_never", "never answering")):
                    over = [t - floor for t in times[name]]
                    cpu_over = [c - floor_cpu for c in cpu[name]]
                    self.row(f"startup_4_{name.split('_')[-1]}", f"first frame over the floor, 4 accounts, terminal {label}",
                             "ms", "≤ 3 ms median", over, ok=median(over) <= 3, cpu_samples=cpu_over,
                             cpu_ok=median(cpu_over) <= 3,
                             note=f"process exit {median(exits[name]) - median(exits['baseline']):.0f} ms over the floor's"
                                  " (the answers are read before the terminal is given back)")
        rss = [m - floor_rss for m in memory["perch_4"]]
        self.row("rss_4", "peak RSS over the floor, 4 accounts", "MiB", "≤ 8 MiB", rss, ok=median(rss) <= 8)
        rss = [m - floor_rss for m in memory["perch_10000"]]
        self.row("rss_10000", "peak RSS over the floor, 10,000 accounts", "MiB", "(info)", rss)
        growth = ", ".join(f"{n:,}: {median(times[f'perch_{n}']) - floor:.1f} / {median(times[f'perch_{n}_cold']) - floor:.1f} ms"
                           for n in counts)
        self.rows[-1]["note"] = f"first frame over the floor by accounts, cache in use / not: {growth}"

    # 1b. `perch current` in a prompt ---------------------------------------------------------

    def current(self):
        """`perch current` with 10,000 accounts, as a shell prompt runs it: after a switch made
        more than 2 s before (the cache of the current account is then in use), and the first run
        after a change (the config is read). Beside it, a C program that only starts and exits."""
        start_source = os.path.join(self.scratch, "start.c")
        with open(start_source, "w") as file:
            file.write("#include <stdio.h>\nint main(void) { puts(\"a1\"); return 0; }\n")
        start = os.path.join(self.scratch, "start")
        subprocess.run(["cc", "-O2", start_source, "-o", start], check=True)
        peakrss = os.path.join(self.scratch, "peakrss")
        if not os.access(peakrss, os.X_OK):  # built by startup(), unless it was left out (--only)
            subprocess.run(["cc", "-O2", PEAKRSS_SOURCE, "-o", peakrss], check=True)
        rss_file = os.path.join(self.scratch, "rss")
        state = os.path.join(self.scratch, "current-state.json")
        config = self.configs[10_000]

        def perch(*arguments):
            return [PERCH, "--state", state, "--config", config] + list(arguments)

        switch = subprocess.run(perch("switch", "a5000"), env=self.env, capture_output=True)
        if switch.returncode != 0:
            raise BenchError(f"perch switch exited with {switch.returncode}: {switch.stderr!r}")
        time.sleep(0 if self.smoke else 2.2)  # the cache is only made from files older than 2 s

        def measure(argv, before=None):
            if before:
                before()
            started = now_ms()
            result = subprocess.run([peakrss, rss_file] + argv, env=self.env, capture_output=True)
            elapsed = now_ms() - started
            if result.returncode != 0 or not result.stdout.strip():
                raise BenchError(f"{argv[0]} exited with {result.returncode}: {result.stderr!r}")
            with open(rss_file) as file:
                return elapsed, int(file.read().split()[0]) / 1024

        def forget():
            try:
                os.unlink(state + ".current")
            except FileNotFoundError:
                pass

        samples = {"start": [], "warm": [], "cold": []}
        for _ in range(self.runs(40)):
            samples["start"].append(measure([start]))
            samples["warm"].append(measure(perch("current")))
            samples["cold"].append(measure(perch("current"), before=forget))
        times = {k: [t for t, _ in v] for k, v in samples.items()}
        memory = {k: [m for _, m in v] for k, v in samples.items()}
        self.row("start_floor", "process start, C floor (a program that prints one line)", "ms", "the floor", times["start"],
                 note=f"peak RSS {median(memory['start']):.2f} MiB")
        floor_rss = getattr(self, "floor_rss", None)
        self.row("current_10000", "perch current, 10,000 accounts (prompt: cache in use)", "ms", "≤ 10 ms median",
                 times["warm"], ok=median(times["warm"]) <= 10)
        if floor_rss is not None:
            rss = [m - floor_rss for m in memory["warm"]]
            self.row("current_rss_10000", "perch current peak RSS over the C ncurses floor, 10,000 accounts", "MiB",
                     "≤ 4 MiB", rss, ok=median(rss) <= 4, note=f"{median(memory['warm']):.2f} MiB in all")
        self.row("current_cold_10000", "perch current, 10,000 accounts, first run after a change (config read)", "ms",
                 "(info)", times["cold"], note=f"peak RSS {median(memory['cold']):.2f} MiB")
        if floor_rss is not None:
            rss = [m - floor_rss for m in memory["cold"]]
            self.row("current_cold_rss_10000", "perch current peak RSS over the C ncurses floor, 10,000 accounts, config read",
                     "MiB", "(info)", rss)

    def registry(self):
        """A registry of 5,000 accounts (`perch registry add` from a git repository on disk) against
        the same machine with none: the first frame with the cache in use, and `perch current` with
        the cache in use and on the first run after a change (the config and the registry read).
        Runs of the two are interleaved, so that noise falls on both alike."""
        repository = os.path.join(self.scratch, "registry-repo")
        os.makedirs(repository, exist_ok=True)
        env = dict(self.env, GIT_CONFIG_NOSYSTEM="1")
        def git(*arguments):
            subprocess.run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", *arguments], cwd=repository,
                           env=env, check=True, capture_output=True)
        git("init", "-q", "-b", "main")
        accounts = [{"id": f"r{i}", "name": f"Registry account {i}", "handle": f"@r{i}"} for i in range(1, 5_001)]
        with open(os.path.join(repository, "perch-registry.json"), "w") as file:
            json.dump({"version": 1, "accounts": accounts}, file, indent=1)
        git("add", "-A")
        git("commit", "-qm", "5,000 accounts")
        states = {name: os.path.join(self.scratch, f"registry-{name}", "state.json") for name in ("none", "registry")}
        for path in states.values():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as file:
                json.dump({"version": 2, "currentAccount": "a1", "switchCount": 1, "switchesPerAccount": {"a1": 1}}, file)
        config = self.configs[4]
        added = subprocess.run([PERCH, "--state", states["registry"], "--config", config, "registry", "add", "team",
                                "file://" + repository, "--yes"], env=env, capture_output=True, text=True)
        if added.returncode != 0:
            raise BenchError(f"perch registry add exited with {added.returncode}: {added.stderr}")
        time.sleep(0 if self.smoke else 2.2)  # the cache is only made from files older than 2 s
        for path in states.values():
            subprocess.run([PERCH, "--state", path, "--config", config, "current"], env=env, capture_output=True, check=True)
        frames = {name: [] for name in states}
        warm = {name: [] for name in states}
        cold = {name: [] for name in states}
        for _ in range(self.runs(40)):
            for name, state in states.items():
                session = Session([PERCH, "--state", state, "--config", config, "--exit-after-first-frame"], env)
                session.finish()
                if session.status != 0 or session.first_frame is None:
                    raise BenchError(f"the first frame with registry {name} exited with {session.status}")
                frames[name].append(session.first_frame - session.start)
                started = now_ms()
                subprocess.run([PERCH, "--state", state, "--config", config, "current"], env=env, capture_output=True, check=True)
                warm[name].append(now_ms() - started)
                try:
                    os.unlink(state + ".current")
                except FileNotFoundError:
                    pass
                started = now_ms()
                subprocess.run([PERCH, "--state", state, "--config", config, "current"], env=env, capture_output=True, check=True)
                cold[name].append(now_ms() - started)
                # The next frame finds the cache again, as a prompt leaves it (the files are old).
                subprocess.run([PERCH, "--state", state, "--config", config, "current"], env=env, capture_output=True, check=True)
        # Each run's pair, with the registry and without, measured one after the other.
        def deltas(samples):
            return [with_registry - without for with_registry, without in zip(samples["registry"], samples["none"])]
        frame = deltas(frames)
        self.row("registry_first_frame", "first frame, a 5,000-account registry against none (cache in use)", "ms",
                 "≤ 3 ms more", frame, ok=median(frame) <= 3,
                 note=f"{median(frames['none']):.2f} ms without, {median(frames['registry']):.2f} ms with")
        current = deltas(warm)
        self.row("registry_current", "perch current, a 5,000-account registry against none (cache in use)", "ms",
                 "≤ 5 ms more", current, ok=median(current) <= 5,
                 note=f"{median(warm['none']):.2f} ms without, {median(warm['registry']):.2f} ms with")
        first = deltas(cold)
        self.row("registry_current_cold", "perch current, a 5,000-account registry against none, first run after a change",
                 "ms", "(info)", first,
                 note=f"{median(cold['none']):.2f} ms without, {median(cold['registry']):.2f} ms with (registry read)")

    def current_expires(self):
        """`perch current --field kube.expires` with 10,000 accounts, as a prompt asks it: the
        current account's kube context has a client certificate, whose end is read by kubectl and
        openssl the first time and from the cache while no file it came from changed; beside it,
        each run with that cache forgotten (what every prompt paid before it)."""
        if not all(shutil.which(p, path=os.environ.get("PATH")) for p in ("kubectl", "openssl")):
            self.not_built("current_expires_10000", "perch current --field kube.expires, 10,000 accounts", "≤ 5 ms median",
                           "kubectl or openssl is not installed")
            return
        folder = os.path.join(self.scratch, "expires")
        os.makedirs(folder, exist_ok=True)
        key, cert = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", key, "-out", cert, "-days", "30", "-subj", "/CN=bench"], check=True, capture_output=True,
                       env=dict(os.environ, OPENSSL_CONF="/dev/null"))
        with open(cert, "rb") as file:
            data = base64.b64encode(file.read()).decode()
        kubeconfig = os.path.join(folder, "kubeconfig")
        with open(kubeconfig, "w") as file:
            file.write("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n"
                       f"users:\n- name: ada\n  user:\n    client-certificate-data: {data}\n"
                       "contexts:\n- name: bench\n  context:\n    cluster: c\n    user: ada\ncurrent-context: bench\n")
        config = os.path.join(folder, "accounts.json")
        accounts = [{"id": f"a{i}", "name": f"Account {i}", "handle": f"@user{i}"} for i in range(1, 10_001)]
        accounts[4999]["kube"] = {"context": "bench"}
        with open(config, "w") as file:
            json.dump({"accounts": accounts}, file, indent=1)
        state = os.path.join(folder, "state.json")
        env = dict(self.env, PATH=os.environ.get("PATH", "/usr/bin:/bin"), KUBECONFIG=kubeconfig)
        argv = [PERCH, "--state", state, "--config", config, "current", "--field", "kube.expires"]
        switch = subprocess.run([PERCH, "--state", state, "--config", config, "switch", "a5000"], env=env, capture_output=True)
        if switch.returncode != 0:
            raise BenchError(f"perch switch exited with {switch.returncode}: {switch.stderr!r}")
        time.sleep(0 if self.smoke else 2.2)  # the caches are only made from files older than 2 s
        subprocess.run(argv, env=env, capture_output=True)

        def measure(before=None):
            if before:
                before()
            started = now_ms()
            result = subprocess.run(argv, env=env, capture_output=True)
            elapsed = now_ms() - started
            if result.returncode != 0 or not result.stdout.strip():
                raise BenchError(f"perch current --field kube.expires exited with {result.returncode}: {result.stderr!r}")
            return elapsed

        def forget():
            try:
                os.unlink(state + ".kube.expires")
            except FileNotFoundError:
                pass

        warm, cold = [], []
        for _ in range(self.runs(40)):
            warm.append(measure())
            cold.append(measure(before=forget))
            subprocess.run(argv, env=env, capture_output=True)  # the cache again, for the next warm run
        self.row("current_expires_10000", "perch current --field kube.expires, 10,000 accounts (prompt: cache in use)", "ms",
                 "≤ 5 ms median", warm, ok=median(warm) <= 5)
        self.row("current_expires_cold_10000", "perch current --field kube.expires, 10,000 accounts, its cache forgotten "
                 "(kubectl and openssl)", "ms", "(info)", cold)

    # 2, 3, 4. In-process figures (perch-bench) ---------------------------------------------------

    def baseline(self):
        """The C ncurses floor (bench/baseline.c), built once into the scratch folder."""
        path = os.path.join(self.scratch, "baseline")
        if not os.access(path, os.X_OK):
            subprocess.run(["cc", "-O2", BASELINE_SOURCE, "-o", path, "-lncursesw"], check=True)
        return path

    def floor_startups(self, runs):
        """`runs` start-ups of the C ncurses floor to its frame, in ms (also kept in
        `floor_samples`)."""
        samples = []
        for _ in range(runs):
            session = Session([self.baseline()], self.env)
            session.finish()
            if session.status != 0 or session.first_frame is None:
                raise BenchError(f"the C ncurses floor exited with {session.status} without drawing its frame")
            samples.append(session.first_frame - session.start)
        self.floor_samples += samples
        return samples

    def in_process(self):
        figures = {}
        smoke = ["--smoke"] if self.smoke else []
        out = os.path.join(self.scratch, "core.json")
        subprocess.run([PERCH_BENCH, "core", "--out", out, "--scratch", self.scratch] + smoke, check=True)
        figures.update({f["id"]: f for f in json.load(open(out))})
        for cols, rows in SIZES:
            # The machine's state as the frames are timed: the floor's start-up just before.
            self.frame_floors[(cols, rows)] = median(self.floor_startups(self.runs(8)))
            out = os.path.join(self.scratch, f"frames-{cols}x{rows}.json")
            session = Session([PERCH_BENCH, "frames", "--out", out] + smoke, self.env, cols, rows)
            if session.finish(limit=120) != 0:
                raise BenchError(f"perch-bench frames at {cols}×{rows} exited with {session.status}")
            figures.update({f["id"]: f for f in json.load(open(out))})
        return figures

    #: The screens perch-bench draws (its Scenarios.screens, in order) and their labels.
    SCREENS = {"overview": "Overview", "catalog": "Catalog", "stats": "Stats", "settings": "Settings",
               "sheet": "Sheet (sheet up)", "context_menu": "Catalog context menu", "cover": "item cover (full screen)",
               "alert": "alert (Delete… over the context menu)", "help": "help overlay (over the Catalog)",
               "form": "account form (full screen)"}

    def frames(self, figures):
        """Each frame's wall-clock time (p99 ≤ 1 ms), beside the floor's start-up measured just
        before it was timed: a row over its budget while that floor is over BUSY_FLOOR_RATIO times
        its idle value (the fastest floor start-up of this run) is marked "machine busy"."""
        idle = min(self.floor_samples)
        for cols, rows in SIZES:
            floor = self.frame_floors[(cols, rows)]
            busy = floor > BUSY_FLOOR_RATIO * idle
            note = f"floor start-up {floor:.2f} ms just before, idle {idle:.2f} ms" + (" (machine busy)" if busy else "")
            labels = dict(self.SCREENS, cursor_move="Catalog cursor move",
                          source_cursor_move="Catalog cursor move, 100,000 lines from a source")
            for screen in labels:
                f = figures[f"frame_{screen}_{cols}x{rows}"]
                self.from_figure(f, f"frame, {labels[screen]}, {cols}×{rows}", "p99 ≤ 1 ms", 1, note=note)
                if busy and self.rows[-1]["status"].startswith("OVER"):
                    self.rows[-1]["status"] = "machine busy"

    def instructions(self):
        """Instructions per frame of every screen (each pane and each layer) at each size, counted
        by callgrind in `perch-bench instructions` (FrameBench.countInstructions): collection is on
        only inside measuredFrame (render, diff, ncurses, the bytes written), and a dump after each
        screen's frames holds that screen's count alone, which is divided by its frames. A frame
        is the one a person sees after a key: a tab's after another tab, a layer's the one it opens
        on, over the screen it opens from (Scenarios.Screen; DECISIONS.md, 2026-12-03). Hashing
        is made deterministic (SWIFT_DETERMINISTIC_HASHING), so a count is the same from run to
        run. Without valgrind a smoke run says so and goes on; a full run breaks."""
        valgrind = shutil.which("valgrind")
        if not valgrind:
            if not self.smoke:
                raise BenchError("valgrind is not installed (`make bench` installs it)")
            for cols, rows in SIZES:
                self.not_built(f"instructions_{cols}x{rows}", f"instructions per frame, {cols}×{rows}", "—",
                               "skipped: valgrind is not installed")
            return
        frames = self.runs(5)
        env = dict(self.env, SWIFT_DETERMINISTIC_HASHING="1")
        for cols, rows in SIZES:
            out = os.path.join(self.scratch, f"instructions-{cols}x{rows}.json")
            dumps = os.path.join(self.scratch, f"callgrind-{cols}x{rows}.out")
            log = os.path.join(self.scratch, f"callgrind-{cols}x{rows}.log")
            argv = [valgrind, "--tool=callgrind", f"--log-file={log}", f"--callgrind-out-file={dumps}",
                    "--collect-atstart=no", "--toggle-collect=*measuredFrame*", "--dump-after=*instructionCheckpoint*",
                    PERCH_BENCH, "instructions", "--out", out, "--runs", str(frames)]
            started = now_ms()
            session = Session(argv, env, cols, rows)
            if session.finish(limit=600) != 0:
                with open(log) as file:
                    raise BenchError(f"perch-bench instructions at {cols}×{rows} under callgrind exited with "
                                     f"{session.status}: {file.read()[-2000:]}")
            elapsed = (now_ms() - started) / 1000
            figures = json.load(open(out))
            counts = self.callgrind_dumps(dumps)
            if len(counts) < len(figures):
                raise BenchError(f"callgrind wrote {len(counts)} dumps for {len(figures)} screens at {cols}×{rows}")
            budget = frame_instruction_budget(cols, rows)
            for f, total in zip(figures, counts):
                screen = f["id"][len("instructions_"):].rsplit("_", 1)[0]
                per_frame = total / f["median"]
                self.row(f["id"], f"instructions per frame, {self.SCREENS[screen]}, {cols}×{rows}", "instructions",
                         f"≤ {budget / 1e6:g} M", median_value=per_frame, p99_value=None, ok=per_frame <= budget,
                         note=f"{per_frame / 1e6:.2f} M; {int(f['median'])} frame(s) counted")
                self.rows[-1]["runs"] = int(f["median"])
            self.rows[-1]["note"] += f"; callgrind run of every screen at {cols}×{rows}: {elapsed:.1f} s"

    @staticmethod
    def callgrind_dumps(path):
        """The instructions of each of callgrind's dumps written at `path` (`path.1`, `path.2`, …,
        in the order they were written), from each file's `summary:` (or `totals:`) line."""
        counts = []
        part = 1
        while os.path.exists(f"{path}.{part}"):
            total = None
            with open(f"{path}.{part}") as file:
                for line in file:
                    if line.startswith(("summary:", "totals:")):
                        total = int(line.split()[1])
                        break
            if total is None:
                raise BenchError(f"callgrind's dump {path}.{part} holds no total")
            counts.append(total)
            part += 1
        return counts

    def sheet(self, figures):
        for count in (4, 1_000, 100_000):
            f = figures[f"sheet_open_{count}"]
            self.from_figure(f, f"sheet open, {count:,} accounts (update + render + diff)", "p99 ≤ 2 ms", 2)
        for count in (1_000, 100_000):
            f = figures[f"sheet_filter_key_{count}"]
            self.from_figure(f, f"sheet filter keystroke, {count:,} accounts (update + render + diff)", "p99 ≤ 5 ms", 5)
        f = figures["sheet_filter_all_100000"]
        self.from_figure(f, "sheet filter keystroke, 100,000 accounts, all match (first key a)", "p99 ≤ 5 ms", 5,
                         note=f.get("note") or "")
        f = figures["sheet_filter_next_100000"]
        self.from_figure(f, "sheet filter keystroke, 100,000 accounts, second key (a, then 1)", "p99 ≤ 5 ms", 5,
                         note=f.get("note") or "")

    def store(self, figures):
        key = "config_load_smoke" if self.smoke else "config_load_100000"
        f = figures[key]
        label = "config load + validation, " + ("1,000 accounts (smoke)" if self.smoke else "100,000 accounts")
        self.from_figure(f, label, "median ≤ 100 ms", 100, stat="median", note=f.get("note") or "")
        f = figures["state_save_0"]
        self.from_figure(f, "state save (lock, read, atomic write, fsync), no history", "p99 ≤ 5 ms", 5)
        f = figures["state_save_10000"]
        self.from_figure(f, "state save, 10,000-entry history (one line appended to the log)", "p99 ≤ 5 ms", 5)

    # 5. Bytes per action -------------------------------------------------------------------------

    def bytes_per_action(self, figures):
        actions = [
            ("tab_switch", "tab switch (Overview → Catalog)", b"2", None),
            ("cursor_move", "Catalog cursor move", b"j", 64),
            ("sheet_open", "sheet open (from Catalog)", b"a", None),
            ("sheet_cursor_move", "sheet cursor move", b"\x1b[B", 64),
        ]
        self.sign_in()
        for cols, rows in SIZES:
            # Each action's whole answer; the sheet's rise is measured on its own below.
            session = Session(self.perch("--reduce-motion"), self.env, cols, rows)
            session.settle(0.3)
            if b"Overview" not in session.output:
                raise BenchError("perch drew no first frame")
            total = cols * rows
            for id, label, key, limit in actions:
                _, frame = session.frame_after(key)
                full = len(session.repaint())
                cells = figures.get(f"cells_{id}_{cols}x{rows}")
                changed = int(cells["median"]) if cells else None
                if limit:
                    budget, ok = f"< {limit} bytes", len(frame) < limit
                else:
                    budget, ok = "< a full repaint", len(frame) < full or changed == total
                self.row(f"bytes_{id}_{cols}x{rows}", f"bytes, {label}, {cols}×{rows}", "bytes", budget,
                         median_value=len(frame), p99_value=len(frame), ok=ok,
                         note=f"{changed} of {total} cells changed; a full repaint of this screen is {full} bytes")
            session.quit()
        self.animation_frames()

    def animation_frames(self):
        """Bytes of each frame of the sheet's 150 ms rise at 80×24: frames come every 16 ms,
        so a pause of 8 ms ends one."""
        session = Session(self.perch(), self.env)
        session.settle(0.3)
        full = len(session.repaint())
        session.send(b"a")
        frames = []
        while True:
            stamp, chunk = session.read(0.3 if not frames else 0.1)
            if stamp is None or not chunk:
                break
            frames.append(chunk + session.settle(0.008))
        session.quit()
        if len(frames) < 2:
            raise BenchError(f"the sheet rose in {len(frames)} frame(s); an animation has several")
        sizes = [len(f) for f in frames]
        self.row("bytes_animation_frame", "bytes, one frame of the sheet's rise, 80×24", "bytes", "< a full repaint",
                 median_value=median(sizes), p99_value=max(sizes), ok=max(sizes) < full,
                 note=f"{len(frames)} frames; a full repaint of this screen is {full} bytes")

    # 6. Idle ----------------------------------------------------------------------------------

    def idle(self):
        seconds = 0.5 if self.smoke else 5.0
        session = Session(self.perch(), self.env)
        session.settle(0.3)
        for id, label, key in (("idle", "idle", None), ("idle_sheet", "idle, sheet open", b"a")):
            if key:
                session.frame_after(key)
                session.settle(0.3)
            switches, cpu = session.counters()
            stamp, data = session.read(seconds)
            if stamp is not None and not data:
                raise BenchError(f"perch ended while idle, with status {session.finish()}")
            if stamp is not None:
                raise BenchError(f"perch wrote {data!r} while idle")
            switches_after, cpu_after = session.counters()
            wakeups = switches_after - switches
            self.row(f"{id}_wakeups", f"{label}: wake-ups in {seconds:g} s", "wake-ups", "0", median_value=wakeups,
                     p99_value=wakeups, ok=wakeups == 0)
            self.row(f"{id}_cpu", f"{label}: CPU in {seconds:g} s", "ms", "0 (no wake-ups)",
                     median_value=cpu_after - cpu, p99_value=cpu_after - cpu)
        session.send(b"\x1b")
        session.settle(0.1)
        session.quit()

    # 7. Long-press accuracy --------------------------------------------------------------------

    def long_press(self):
        threshold = 100
        # Without the sheet's rise animation, the first frame after the deadline is the whole
        # sheet: what is measured is when the gesture fires, not how long the rise takes.
        session = Session(self.perch("--long-press-ms", str(threshold), "--reduce-motion"), self.env)
        session.settle(0.3)
        lateness = []
        for _ in range(self.runs(200)):
            # Press on the Overview tab (column 5 of the last row), then wait for the sheet.
            delay, frame = session.frame_after(b"\x1b[<0;5;24M", limit=threshold / 1000 + 5)
            if "Switch account".encode() not in frame:
                raise BenchError(f"a long-press drew {frame!r}, not the sheet")
            lateness.append(delay - threshold)
            session.send(b"\x1b[<0;5;24m")  # release
            session.frame_after(b"\x1b[<0;5;2M\x1b[<0;5;2m")  # click above the sheet: it closes
        early = min(lateness) < 0
        self.row("long_press", f"long-press fire minus threshold ({threshold} ms)", "ms", "p99 ≤ 5 ms, never early",
                 lateness, ok=p99(lateness) <= 5 and not early, note=f"earliest {min(lateness):+.2f} ms")
        session.quit()

    # 8. Input to screen ------------------------------------------------------------------------

    def input_to_screen(self):
        self.sign_in()
        session = Session(self.perch(), self.env)
        session.settle(0.3)
        session.frame_after(b"2")
        delays = []
        for index in range(self.runs(200)):
            delay, _ = session.frame_after(b"j" if index % 2 == 0 else b"k", quiet=0.01)
            delays.append(delay)
        self.row("input_to_screen", "key byte → first byte of its frame (Catalog j/k)", "ms", "p99 ≤ 2 ms", delays,
                 ok=p99(delays) <= 2)
        session.quit()

    def switch_tools(self):
        """A whole `perch switch` with git, ssh, kube, gcloud, aws, docker and env identities,
        back and forth between two accounts, timed as whole processes; beside it, one `gcloud
        config configurations activate` (what a switch started before the gcloud file was written
        directly). Real git, kubectl and gcloud where installed, fakes where not (docker always)."""
        def perch(*arguments):
            return [PERCH] + list(arguments)

        home = os.path.join(self.scratch, "switch-home")
        bin_dir = os.path.join(home, "bin")
        for folder in (bin_dir, os.path.join(home, ".kube"), os.path.join(home, "gcloud", "configurations"), os.path.join(home, "config", "perch")):
            os.makedirs(folder, exist_ok=True)
        env = dict(self.env, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"),
                   KUBECONFIG=os.path.join(home, ".kube", "config"), CLOUDSDK_CONFIG=os.path.join(home, "gcloud"),
                   GIT_CONFIG_NOSYSTEM="1", PATH=bin_dir + ":/usr/local/bin:/usr/bin:/bin")
        with open(env["KUBECONFIG"], "w") as f:
            f.write("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:1\n  name: c\ncontexts:\n"
                    "- context:\n    cluster: c\n    user: u\n  name: dev\n- context:\n    cluster: c\n    user: u\n  name: prod\n"
                    "current-context: dev\nusers:\n- name: u\n  user: {}\n")
        for name in ("default", "work", "home"):
            with open(os.path.join(home, "gcloud", "configurations", "config_" + name), "w") as f:
                f.write("[core]\naccount = ada@%s\n" % name)
        # The accounts' AWS profiles exist (a switch to one that does not asks the aws CLI, slowly, to say so).
        os.makedirs(os.path.join(home, ".aws"), exist_ok=True)
        with open(os.path.join(home, ".aws", "config"), "w") as f:
            f.write("[profile x-admin]\nregion = eu-west-1\n[profile y-admin]\nregion = eu-west-1\n")
        docker = os.path.join(bin_dir, "docker")
        with open(docker, "w") as f:
            f.write('#!/bin/sh\ncase "$1 $2" in "context use") printf %s "$3" > "$HOME/docker-context" ;; '
                    '"context show") cat "$HOME/docker-context" 2>/dev/null || echo default ;; esac\n')
        os.chmod(docker, 0o755)
        fakes = []
        if not shutil.which("kubectl", path="/usr/local/bin:/usr/bin:/bin"):
            fakes.append("kubectl")
            with open(os.path.join(bin_dir, "kubectl"), "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(os.path.join(bin_dir, "kubectl"), 0o755)
        accounts = []
        for id, context, gcloud, docker_context in (("x", "prod", "work", "remote"), ("y", "dev", "home", "default")):
            accounts.append(
                '{"id": "%s", "name": "%s", "git": {"email": "ada@%s.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_%s"}, '
                '"kube": {"context": "%s", "namespace": "ns-%s"}, "gcloud": "%s", "aws": "%s-admin", "docker": "%s", "env": {"TEAM": "%s"}}'
                % (id, id.upper(), id, id, context, id, gcloud, id, docker_context, id))
        # An agent's account: git's name and email, its own env; every other tool closed.
        accounts.append('{"id": "bot", "name": "Bot", "git": {"name": "Bot", "email": "bot@example.org"}, "env": {"TEAM": "bots"}}')
        with open(os.path.join(home, "config", "perch", "accounts.json"), "w") as f:
            f.write('{"version": 1, "accounts": [%s]}' % ", ".join(accounts))
        subprocess.run(perch("setup", "git", "--yes"), env=env, capture_output=True)
        subprocess.run(perch("setup", "ssh", "--yes"), env=env, capture_output=True)
        samples = []
        for run in range(self.runs(30)):
            target = "x" if run % 2 == 0 else "y"
            start = now_ms()
            result = subprocess.run(perch("switch", target), env=env, capture_output=True)
            samples.append(now_ms() - start)
            if result.returncode != 0:
                raise BenchError("perch switch %s failed: %s" % (target, result.stderr.decode(errors="replace")))
        note = "real git, kubectl" + (" (fake)" if fakes else "") + ", gcloud file; fake docker; 2 cores"
        self.row("switch_tools", "perch switch, git+ssh+kube+gcloud+aws+docker+env", "ms", "≤ 100 median", samples=samples,
                 ok=median(samples) <= 100, note=note)
        # An agent's command through perch exec, against the same command alone; and perch status.
        # The first exec after a switch asks kubectl and git (their answers are kept only from
        # files older than 2 s): timed once, then the steady state an agent's thousands of
        # commands see.
        floor, scoped, statuses, agents = [], [], [], []
        true = shutil.which("true") or "/bin/true"
        start = now_ms()
        subprocess.run(perch("exec", "x", "--", true), env=env, capture_output=True)
        first = now_ms() - start
        time.sleep(0 if self.smoke else 2.2)
        for run in range(self.runs(30)):
            start = now_ms()
            subprocess.run([true], env=env, capture_output=True)
            floor.append(now_ms() - start)
            start = now_ms()
            result = subprocess.run(perch("exec", "x", "--", true), env=env, capture_output=True)
            scoped.append(now_ms() - start)
            if result.returncode != 0:
                raise BenchError("perch exec x -- true failed: %s" % result.stderr.decode(errors="replace"))
            start = now_ms()
            subprocess.run(perch("status"), env=env, capture_output=True)
            statuses.append(now_ms() - start)
            start = now_ms()
            result = subprocess.run(perch("exec", "bot", "--agent", "--", true), env=env, capture_output=True)
            agents.append(now_ms() - start)
            if result.returncode != 0:
                raise BenchError("perch exec bot --agent -- true failed: %s" % result.stderr.decode(errors="replace"))
        over = [s - median(floor) for s in scoped]
        self.row("exec_true", "perch exec ACCOUNT -- true, over true alone", "ms", "≤ 10 ms median", samples=over,
                 ok=median(over) <= 10, note=f"true alone {median(floor):.1f} ms; the first exec after a switch {first:.1f} ms (asks kubectl and git; later ones use their kept answers); " + note)
        self.row("exec_agent_true", "perch exec ACCOUNT --agent -- true, over true alone", "ms", "≤ 10 ms median",
                 samples=[a - median(floor) for a in agents], ok=median(agents) - median(floor) <= 10,
                 note="an agent's account naming git and env; ssh, kube, gcloud, aws, docker and gh closed")
        self.row("status_tools", "perch status, git+ssh+kube+gcloud+aws+docker+env, no server asked", "ms", "≤ 100 ms median",
                 samples=statuses, ok=median(statuses) <= 100, note=note)
        gcloud = shutil.which("gcloud", path="/usr/local/bin:/usr/bin:/bin")
        if gcloud:
            activations = []
            for run in range(self.runs(3)):
                start = now_ms()
                subprocess.run([gcloud, "config", "configurations", "activate", "work" if run % 2 else "home", "--quiet"],
                               env=env, capture_output=True)
                activations.append(now_ms() - start)
            self.row("gcloud_activate", "gcloud config configurations activate (for comparison)", "ms", "—", samples=activations,
                     note="what a switch no longer starts")

    def prompt_hook(self):
        """shell-init's prompt hook when nothing changed, per shell: the mean time of one hook
        call over 1,000 calls in a row, timed inside the shell (bash and zsh's EPOCHREALTIME,
        fish with one `date` before and after), with a config of 2 bound folders so the folder
        loop runs. Every `perch` the hook starts is logged by a stand-in on PATH: once the first
        call has made the shell's marker, none may start."""
        home = os.path.join(self.scratch, "hook-home")
        bin_dir = os.path.join(home, "bin")
        os.makedirs(os.path.join(home, "config", "perch"), exist_ok=True)
        os.makedirs(bin_dir, exist_ok=True)
        log = os.path.join(home, "perch-calls.log")
        shim = os.path.join(bin_dir, "perch")
        with open(shim, "w") as f:
            f.write('#!/bin/sh\necho "$*" >> %s\nexec %s "$@"\n' % (log, PERCH))
        os.chmod(shim, 0o755)
        with open(os.path.join(home, "config", "perch", "accounts.json"), "w") as f:
            f.write('{"accounts": [{"id": "work", "name": "Work", "aws": "w", "directories": ["~/work", "~/work/oss"]},'
                    ' {"id": "home", "name": "Home", "aws": "h"}]}')
        env = dict(self.env, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"),
                   PATH=bin_dir + ":/usr/local/bin:/usr/bin:/bin")
        subprocess.run([PERCH, "switch", "home"], env=env, capture_output=True, check=True)
        # The state must be older than the racy window (2 s) for the marker to hold.
        state = os.path.join(home, "state", "perch", "state.json")
        old = time.time() - 10
        os.utime(state, (old, old))
        os.utime(os.path.join(home, "config", "perch", "accounts.json"), (old, old))
        calls = 1000 if not self.smoke else 50
        scripts = {
            "bash": ["bash", "--norc", "--noprofile", "-c",
                     'eval "$(perch shell-init bash)"; __perch_hook; s=$EPOCHREALTIME; for ((i=0;i<%d;i++)); do __perch_hook; done; '
                     'e=$EPOCHREALTIME; echo "$s $e"' % calls],
            "zsh": ["zsh", "-f", "-c",
                    'zmodload zsh/datetime; eval "$(perch shell-init zsh)"; __perch_hook; s=$EPOCHREALTIME; '
                    'for ((i=0;i<%d;i++)); do __perch_hook; done; e=$EPOCHREALTIME; echo "$s $e"' % calls],
            "fish": ["fish", "--no-config", "-c",
                     'perch shell-init fish | source; __perch_hook; set -l r (seq %d); set -l s (date +%%s.%%N); '
                     'for i in $r; __perch_hook; end; set -l e (date +%%s.%%N); echo "$s $e"' % calls],
        }
        for shell, argv in scripts.items():
            if not shutil.which(shell):
                self.not_built("prompt_hook_" + shell, "shell-init prompt hook, nothing changed: " + shell, "≤ 2 ms", shell + " not installed")
                continue
            if os.path.exists(log):
                os.unlink(log)
            result = subprocess.run(argv, env=env, capture_output=True, cwd=home)
            try:
                start, end = (float(x) for x in result.stdout.decode().split()[-2:])
            except ValueError:
                raise BenchError("%s hook timing failed: %s" % (shell, result.stderr.decode(errors="replace")))
            with open(log) as f:
                started = sum(1 for line in f if line.startswith("shell-hook"))
            per_call = (end - start) * 1000 / calls
            # The calls while nothing changed: all but the first (which makes the marker).
            quiet = max(0, started - 1)
            self.row("prompt_hook_" + shell, "shell-init prompt hook, nothing changed: " + shell, "ms", "≤ 2 ms", median_value=per_call,
                     p99_value=None, ok=per_call <= 2 and quiet == 0,
                     note="mean of %d calls; perch started %d times after the first" % (calls, quiet))

    def bound_config(self):
        """Checks over the config are linear: `perch config check` with 100,000 bound folders and
        100,000 remotes in one account, and the same spread over 1,000 accounts (budget 1 s each);
        and shell-init's prompt hook in bash, nothing changed, with 10,000 bound folders (budget
        2 ms a prompt). Before the duplicate checks used sets, one account with 100,000 folders
        took over 120 s on every command."""
        home = os.path.join(self.scratch, "bound-home")
        os.makedirs(os.path.join(home, "config", "perch"), exist_ok=True)
        env = dict(self.env, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"))
        config = os.path.join(home, "config", "perch", "accounts.json")
        count = 100_000 if not self.smoke else 10_000
        layouts = {
            "one": [{"id": "a", "name": "A", "directories": ["~/f/%d" % i for i in range(count)],
                     "remotes": ["github.com/o/r%d" % i for i in range(count)]}],
            "spread": [{"id": "a%d" % n, "name": "A%d" % n,
                        "directories": ["~/f/%d/%d" % (n, i) for i in range(count // 1000)],
                        "remotes": ["github.com/o%d/r%d" % (n, i) for i in range(count // 1000)]} for n in range(1000)],
        }
        for name, accounts in layouts.items():
            with open(config, "w") as f:
                json.dump({"accounts": accounts}, f)
            samples = []
            for _ in range(self.runs(3)):
                start = now_ms()
                result = subprocess.run([PERCH, "config", "check"], env=env, capture_output=True)
                samples.append(now_ms() - start)
                if result.returncode != 0:
                    raise BenchError("config check of %s exited %d: %s" % (name, result.returncode, result.stderr.decode(errors="replace")))
            label = ("perch config check, %s bound folders and %s remotes " % (f"{count:,}", f"{count:,}")
                     + ("in one account" if name == "one" else "over 1,000 accounts"))
            self.row("config_check_bound_" + name, label, "ms", "≤ 1000 ms", samples=samples, ok=median(samples) <= 1000)
        if not shutil.which("bash"):
            self.not_built("prompt_hook_bound", "prompt hook, 10,000 bound folders: bash", "≤ 2 ms", "bash not installed")
            return
        with open(config, "w") as f:
            json.dump({"accounts": [{"id": "work", "name": "Work", "directories": ["~/w/%d" % i for i in range(10_000)]},
                                    {"id": "home", "name": "Home"}]}, f)
        subprocess.run([PERCH, "switch", "home"], env=env, capture_output=True, check=True)
        old = time.time() - 10
        os.utime(os.path.join(home, "state", "perch", "state.json"), (old, old))
        os.utime(config, (old, old))
        calls = 1000 if not self.smoke else 50
        bin_dir = os.path.dirname(PERCH)
        hook_env = dict(env, PATH=bin_dir + ":/usr/local/bin:/usr/bin:/bin")
        result = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                                 'eval "$(perch shell-init bash)"; __perch_hook; s=$EPOCHREALTIME; for ((i=0;i<%d;i++)); do __perch_hook; done; '
                                 'e=$EPOCHREALTIME; echo "$s $e"' % calls], env=hook_env, capture_output=True, cwd=home)
        try:
            start, end = (float(x) for x in result.stdout.decode().split()[-2:])
        except ValueError:
            raise BenchError("bound-folder hook timing failed: %s" % result.stderr.decode(errors="replace"))
        per_call = (end - start) * 1000 / calls
        self.row("prompt_hook_bound", "prompt hook, 10,000 bound folders, nothing changed: bash", "ms", "≤ 2 ms", median_value=per_call,
                 p99_value=None, ok=per_call <= 2, note="mean of %d calls" % calls)

    def verify_guard(self):
        """`perch verify` with git, ssh, kube, docker and env identities, beside the slowest of
        the tools' own commands it runs (each timed alone, as whole processes); and what the
        guard adds to a commit (`git commit` with it, less without). Real git, ssh and kubectl
        where installed; a fake docker."""
        if not all(shutil.which(tool, path="/usr/local/bin:/usr/bin:/bin") for tool in ("git", "ssh", "ssh-keygen")):
            self.not_built("verify", "perch verify, git+ssh+kube+docker+env", "≤ slowest tool + 30 ms", "git or ssh not installed")
            return
        home = os.path.join(self.scratch, "verify-home")
        bin_dir = os.path.join(home, "bin")
        for folder in (bin_dir, os.path.join(home, ".kube"), os.path.join(home, ".ssh"), os.path.join(home, "config", "perch")):
            os.makedirs(folder, exist_ok=True)
        env = dict(self.env, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"),
                   KUBECONFIG=os.path.join(home, ".kube", "config"), GIT_CONFIG_NOSYSTEM="1", TEAM="web",
                   PATH=bin_dir + ":/usr/local/bin:/usr/bin:/bin")
        with open(env["KUBECONFIG"], "w") as f:
            f.write("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:1\n  name: c\ncontexts:\n"
                    "- context:\n    cluster: c\n    user: u\n  name: prod\ncurrent-context: prod\nusers:\n- name: u\n  user: {}\n")
        docker = os.path.join(bin_dir, "docker")
        with open(docker, "w") as f:
            f.write('#!/bin/sh\ncase "$1 $2" in "context use") printf %s "$3" > "$HOME/docker-context" ;; '
                    '"context show") cat "$HOME/docker-context" 2>/dev/null || echo default ;; esac\n')
        os.chmod(docker, 0o755)
        if not shutil.which("kubectl", path="/usr/local/bin:/usr/bin:/bin"):
            with open(os.path.join(bin_dir, "kubectl"), "w") as f:
                f.write("#!/bin/sh\nprintf 'prod\\tc\\tu\\t'\n")
            os.chmod(os.path.join(bin_dir, "kubectl"), 0o755)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(home, ".ssh", "id_work")], env=env, check=True)
        with open(os.path.join(home, "config", "perch", "accounts.json"), "w") as f:
            f.write('{"accounts": [{"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, '
                    '"ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "kube": {"context": "prod"}, '
                    '"docker": "default", "env": {"TEAM": "web"}}, '
                    '{"id": "agent", "name": "Agent", "git": {"name": "Ada Agent", "email": "agent@work.example"}, '
                    '"ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "env": {"TEAM": "agents"}}]}')
        for arguments in (("setup", "git", "--yes"), ("setup", "ssh", "--yes"), ("switch", "work")):
            subprocess.run([PERCH] + list(arguments), env=env, capture_output=True, check=True)

        def timed(argv, cwd=home, runs=20, expect=0):
            samples = []
            for _ in range(self.runs(runs)):
                start = now_ms()
                result = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
                samples.append(now_ms() - start)
                if result.returncode != expect:
                    raise BenchError("%s exited %d: %s" % (" ".join(argv), result.returncode, result.stderr.decode(errors="replace")))
            return samples

        tools = {
            "git var": ["git", "var", "GIT_AUTHOR_IDENT"],
            "ssh -G": ["ssh", "-F", os.path.join(home, ".ssh", "config"), "-G", "github.com"],
            "kubectl config view --minify": ["kubectl", "config", "view", "--minify"],
            "docker context show": ["docker", "context", "show"],
        }
        singles = {name: median(timed(argv)) for name, argv in tools.items()}
        slowest = max(singles, key=singles.get)
        verify = timed([PERCH, "verify"])
        limit = singles[slowest] + 30
        self.row("verify", "perch verify, git+ssh+kube+docker+env", "ms", "≤ slowest tool + 30 ms", samples=verify,
                 ok=median(verify) <= limit,
                 note="slowest tool alone: %s %.1f ms (limit %.1f); %s" % (
                     slowest, singles[slowest], limit, ", ".join("%s %.1f" % (n, v) for n, v in singles.items())))

        self.mcp_whoami(env, home, max(singles["git var"], singles["ssh -G"]))

        repo = os.path.join(home, "repo")
        subprocess.run(["git", "init", "-q", repo], env=env, check=True)
        commit = ["git", "commit", "-q", "--allow-empty", "-m", "bench"]
        without = timed(commit, cwd=repo)
        subprocess.run([PERCH, "guard", "install"], env=env, capture_output=True, check=True)
        with_guard = timed(commit, cwd=repo)
        # A ref update with no new commit: a new branch where HEAD is (Perch starts and finds
        # no new commit), and a remote-tracking ref as a fetch writes it (no Perch at all).
        branch = ["sh", "-c", "git branch -f bench-branch HEAD && git branch -q -D bench-branch"]
        tracking = ["sh", "-c", "git update-ref refs/remotes/o/x HEAD && git update-ref -d refs/remotes/o/x"]
        branch_with = timed(branch, cwd=repo)
        tracking_with = timed(tracking, cwd=repo)
        # pre-push over 1,000 new commits: the hook's check alone, given git's input.
        for n in range(1000):
            subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "c%d" % n], env=dict(env, PERCH_GUARD="off"), cwd=repo, check=True)
        head = subprocess.run(["git", "rev-parse", "HEAD"], env=env, cwd=repo, capture_output=True, check=True).stdout.decode().strip()
        push_input = ("refs/heads/main %s refs/heads/main %s\n" % (head, "0" * 40)).encode()
        push_samples = []
        for _ in range(self.runs(10)):
            start = now_ms()
            result = subprocess.run([PERCH, "guard", "check-push", "origin", "git@github.com:acme/site.git"], env=env, cwd=repo,
                                    input=push_input, capture_output=True)
            push_samples.append(now_ms() - start)
            if result.returncode != 0:
                raise BenchError("perch guard check-push exited %d: %s" % (result.returncode, result.stderr.decode(errors="replace")))
        subprocess.run([PERCH, "guard", "--undo"], env=env, capture_output=True, check=True)
        branch_without = timed(branch, cwd=repo)
        tracking_without = timed(tracking, cwd=repo)
        # The floor: git starts every hook that exists (6 for a commit: pre-commit,
        # prepare-commit-msg, commit-msg, reference-transaction twice, post-commit), and the
        # guard's folder must hold each to run the repository's own. Empty hooks, measured alike.
        empty = os.path.join(self.scratch, "empty-hooks")
        os.makedirs(empty, exist_ok=True)
        for name in ("pre-commit", "prepare-commit-msg", "commit-msg", "reference-transaction", "post-commit"):
            with open(os.path.join(empty, name), "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(os.path.join(empty, name), 0o755)
        floor = timed(["git", "-c", "core.hooksPath=" + empty] + commit[1:], cwd=repo)
        added = median(with_guard) - median(without)
        self.row("guard_commit", "the guard's cost to a git commit", "ms", "≤ 5 ms", median_value=added, p99_value=None,
                 ok=added <= 5, note="git commit %.1f ms with the guard, %.1f ms without, %.1f ms with 5 empty hooks (git's floor for any hook chain: it starts each hook, 7 a commit); the guard's own part over that floor %.1f ms (medians)" % (
                     median(with_guard), median(without), median(floor), median(with_guard) - median(floor)))
        for name, label, with_, without_ in (("guard_branch", "the guard's cost to a new branch (no new commit)", branch_with, branch_without),
                                             ("guard_fetch_ref", "the guard's cost to a remote-tracking ref update (as fetch)", tracking_with, tracking_without)):
            cost = (median(with_) - median(without_)) / 2
            self.row(name, label, "ms", "≤ 3 ms", median_value=cost, p99_value=None, ok=cost <= 3,
                     note="per ref update (two a sample): %.1f ms with the guard, %.1f ms without" % (median(with_), median(without_)))
        self.row("guard_push_1000", "pre-push check over 1,000 new commits", "ms", "≤ 100 ms", samples=push_samples,
                 ok=median(push_samples) <= 100, note="perch guard check-push with git's input, 1,000 commits the remote lacks")

    def mcp_whoami(self, env, home, slowest):
        """`perch mcp`'s whoami for an account with git, ssh and env, the server kept running as
        an agent keeps it (started by `perch exec agent`, so whoami answers for that account);
        each call timed from the request written to the answer read, against verify's budget."""
        server = subprocess.Popen([PERCH, "exec", "agent", "--", PERCH, "mcp"], env=env, cwd=home, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

        def ask(message):
            server.stdin.write((json.dumps(message) + "\n").encode())
            server.stdin.flush()
            ready, _, _ = select.select([server.stdout], [], [], 30)
            line = server.stdout.readline() if ready else b""
            if not line:
                raise BenchError("perch mcp gave no answer to %s" % message["method"])
            return json.loads(line)

        samples = []
        try:
            ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                 "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
            for n in range(self.runs(20)):
                start = now_ms()
                answer = ask({"jsonrpc": "2.0", "id": n + 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}})
                samples.append(now_ms() - start)
                result = answer.get("result") or {}
                if result.get("isError") or (result.get("structuredContent") or {}).get("account") != "agent":
                    raise BenchError("perch mcp's whoami: %s" % answer)
        finally:
            server.stdin.close()
            server.wait(timeout=10)
        limit = slowest + 30
        self.row("mcp_whoami", "perch mcp's whoami, git+ssh+env (server running)", "ms", "≤ slowest tool + 30 ms", samples=samples,
                 ok=median(samples) <= limit, note="the verify budget: slower of git var and ssh -G alone %.1f ms (limit %.1f)" % (slowest, limit))

    #: The measurements, in the order they run; `--only` picks some of them by these names.
    SECTIONS = ("sizes", "startup", "current", "current_expires", "registry", "prompt_hook", "bound_config", "switch_tools", "verify_guard", "frames", "instructions", "sheet", "store",
                "bytes_per_action", "idle", "long_press", "input_to_screen")

    def run(self, only=None):
        """Takes every measurement, or those named in `only` (names from ``SECTIONS``)."""
        evict(PERCH)
        figures = self.in_process() if only is None or {"frames", "sheet", "store", "bytes_per_action"} & set(only) else {}
        for name in self.SECTIONS:
            if only is not None and name not in only:
                continue
            method = getattr(self, name)
            if name in ("frames", "sheet", "store", "bytes_per_action"):
                method(figures)
            else:
                method()


# ---------------------------------------------------------------------------------------------
# Output


def format_value(value, unit):
    if value is None:
        return "—"
    if unit in ("bytes", "cells", "wake-ups"):
        return f"{value:.0f}"
    if unit == "instructions":
        return f"{value:,.0f}"
    return f"{value:.2f}" if abs(value) < 100 else f"{value:.0f}"


def table(rows, header):
    lines = [header, ""]
    columns = ["figure", "median", "p99", "CPU median", "CPU p99", "runs", "budget", "status", "note"]
    cells = [columns] + [
        [
            r["figure"],
            format_value(r["median"], r["unit"]) + (f" {r['unit']}" if r["median"] is not None else ""),
            format_value(r["p99"], r["unit"]),
            format_value(r["cpu_median"], "ms"),
            format_value(r["cpu_p99"], "ms"),
            str(r["runs"]),
            r["budget"],
            r["status"],
            r["note"],
        ]
        for r in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    for index, row in enumerate(cells):
        lines.append("| " + " | ".join(text.ljust(widths[i]) for i, text in enumerate(row)) + " |")
        if index == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one quick run of each measurement")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/results.json"), help="where the JSON goes")
    parser.add_argument("--only", help="comma-separated measurements to take: " + ", ".join(Bench.SECTIONS)
                        + " (the table then holds only theirs, and bench/results.json is left alone unless --out is given)")
    options = parser.parse_args()
    only = None
    if options.only:
        only = [name.strip() for name in options.only.split(",") if name.strip()]
        unknown = [name for name in only if name not in Bench.SECTIONS]
        if unknown:
            parser.error(f"unknown measurement {', '.join(unknown)}; choose from {', '.join(Bench.SECTIONS)}")
    in_process = only is None or {"frames", "instructions", "sheet", "store", "bytes_per_action"} & set(only)
    for binary in (PERCH, PERCH_BENCH) if in_process else (PERCH,):
        if not os.access(binary, os.X_OK):
            sys.exit(f"bench: {binary} is missing; build with `make bench`")
    scratch = tempfile.mkdtemp(prefix="perch-bench-")
    bench = Bench(options.smoke, scratch)
    try:
        bench.run(only)
    except (BenchError, subprocess.CalledProcessError, KeyError) as error:
        print(f"bench: a measurement broke: {error!r}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load = os.getloadavg()
    header = (
        f"Perch bench{' (smoke: one run each, timings meaningless)' if options.smoke else ''}: "
        f"{os.cpu_count()} cores, load average {load[0]:.2f} at the end, TERM={TERM}, "
        f"terminal 80×24 unless a row says otherwise"
    )
    if options.smoke:
        # One run each on a machine busy with the tests: a figure says the measurement works,
        # never whether a budget holds, so no row gets a verdict, but sizes on disk (no timing).
        for row in bench.rows:
            if row["status"] != "not built yet" and row["unit"] != "MB":
                row["status"] = "ran"
    print(table(bench.rows, header))
    if options.smoke:
        missing = [r["figure"] for r in bench.rows if r["status"] == "not built yet"]
        print(f"\nSmoke run: {len(bench.rows) - len(missing)} measurement(s) ran"
              + (f", {len(missing)} not built: " + "; ".join(missing) if missing else "")
              + "; no timing is judged (`make bench` compares figures with their budgets).")
    else:
        over = [r["figure"] for r in bench.rows if r["status"].startswith("OVER")]
        print(f"\n{len(over)} budget(s) missed" + (": " + "; ".join(over) if over else ""))
        busy = [r["figure"] for r in bench.rows if r["status"] == "machine busy"]
        if busy:
            print(f"{len(busy)} wall-clock budget(s) missed while the machine was busy (its floor over "
                  f"{BUSY_FLOOR_RATIO}× its idle value): " + "; ".join(busy))
    if (not options.smoke and only is None) or options.out != parser.get_default("out"):
        with open(options.out, "w") as file:
            json.dump({"header": header, "cores": os.cpu_count(), "load_average": load, "rows": bench.rows}, file, indent=2)
            file.write("\n")
    # Instructions are no timing: a count over its budget fails the bench, whatever the machine.
    missed = [r["figure"] for r in bench.rows if r["unit"] == "instructions" and r["status"] == "OVER"]
    if missed:
        print(f"bench: {len(missed)} frame(s) over their instruction budget: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
