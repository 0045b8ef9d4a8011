#!/usr/bin/env python3
"""Writes the link order of Perch's functions: those its hot paths run, in the order they first run.

Usage: scripts/symbol-order.py BINARY OUTPUT

The statically linked binary holds 18 MiB of code (Perch's, the Swift runtime's and Foundation's,
the C++ runtime's and the C library's), and the kernel maps a file's pages in whole page-cache
folios (16 to 32 pages here), so the two thousand functions a start-up runs, scattered over that
code, made `perch current` resident in 7 to 8 MiB of it. Linked with lld's
`--symbol-ordering-file` (Package.swift), the functions listed here come first, next to each
other, and every start touches far fewer folios (docs/performance.md has the figures).

The functions are read from callgrind (Debian's valgrind) while a copy of BINARY without debug
information (valgrind 3.19 cannot read its DWARF 5) runs, in a scratch home:
  1. `perch current` with a 10,000-account config and its cache in use (the shell prompt's);
  2. `perch --version`;
  3. `perch --exit-after-first-frame` on a pseudo-terminal that answers like xterm, 4 accounts;
  4. the same with the embedded sample accounts and no config;
  5. `perch current` with no cache (the config read);
  6. `perch list`.
Only symbols BINARY defines are written (valgrind's own are not; a dynamically linked BINARY
would also leave out the shared libraries'). A function that is gone
from the code later is skipped by the linker; run `make symbol-order` again after large changes.
"""

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time


def callgrind(argv, env, out, terminal=False):
    """Runs argv under callgrind, writing its profile to `out`; on a pseudo-terminal when asked."""
    command = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + argv
    if not terminal:
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        return
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(command[0], command, env)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        if b"\x1b[c" in data:
            os.write(fd, b"\x1b[?62;22c")  # device attributes, as xterm answers them
    os.waitpid(pid, 0)


def functions(profile):
    """Function names in a callgrind profile, in the order they first appear."""
    names, seen = [], set()
    with open(profile, errors="replace") as file:
        for line in file:
            match = re.match(r"^c?fn=\(\d+\) (\S+)", line)
            if match and match.group(1) not in seen:
                seen.add(match.group(1))
                names.append(match.group(1))
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    binary, output = sys.argv[1], sys.argv[2]
    if shutil.which("valgrind") is None:
        sys.exit("symbol-order: valgrind is needed (apt-get install valgrind)")
    scratch = tempfile.mkdtemp(prefix="perch-order-")
    try:
        copy = os.path.join(scratch, "perch")
        shutil.copy(binary, copy)
        subprocess.run(["strip", "--strip-debug", copy], check=True)
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_STATE_HOME=os.path.join(home, ".local/state"), TERM="xterm-256color",
                   GIT_CONFIG_NOSYSTEM="1", KUBECONFIG=os.path.join(home, "kubeconfig"),
                   CLOUDSDK_CONFIG=os.path.join(home, "gcloud"))
        configs = {}
        for count in (4, 10_000):
            path = os.path.join(scratch, f"accounts-{count}.json")
            accounts = [{"id": f"a{n}", "name": f"Account {n}", "handle": f"@user{n}"} for n in range(1, count + 1)]
            with open(path, "w") as file:
                json.dump({"accounts": accounts}, file)
            configs[count] = path
        state = os.path.join(scratch, "state.json")
        current = [copy, "--state", state, "--config", configs[10_000], "current"]
        subprocess.run([copy, "--state", state, "--config", configs[10_000], "switch", "a5000"], env=env,
                       stdout=subprocess.DEVNULL, check=True)
        time.sleep(2.2)  # the cache is made only from files older than 2 s
        subprocess.run(current, env=env, stdout=subprocess.DEVNULL, check=True)
        runs = [
            (current, False),
            ([copy, "--version"], False),
            ([copy, "--state", os.path.join(scratch, "state-4.json"), "--config", configs[4], "--exit-after-first-frame"], True),
            ([copy, "--state", os.path.join(scratch, "state-samples.json"), "--exit-after-first-frame"], True),
            (None, False),  # `perch current` with the cache removed
            ([copy, "--state", state, "--config", configs[10_000], "list"], False),
        ]
        defined = set()
        listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                defined.add(parts[2])
        order, seen = [], set()
        for index, (argv, terminal) in enumerate(runs):
            if argv is None:
                os.unlink(state + ".current")
                argv = current
            profile = os.path.join(scratch, f"run-{index}.callgrind")
            callgrind(argv, env, profile, terminal)
            for name in functions(profile):
                if name in defined and name not in seen:
                    seen.add(name)
                    order.append(name)
        with open(output, "w") as file:
            file.write("# Link order of Perch's functions (lld --symbol-ordering-file): written by\n")
            file.write("# scripts/symbol-order.py (`make symbol-order`); see that script for how.\n")
            file.write("\n".join(order) + "\n")
        print(f"symbol-order: {len(order)} functions written to {output}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
