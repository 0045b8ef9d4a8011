#!/usr/bin/env python3
"""Proves that the tests leave the runner's HOME and tmux's socket folder as they were.

    home-guard.py snapshot FILE   record every entry under HOME and tmux's socket folder
    home-guard.py check FILE      compare with FILE; print each change and exit 1 if any

An entry is its path, its type, its size (bytes) and its modification time (nanoseconds);
links are recorded, never followed. Nothing is left out: `make test` takes the snapshot after
the build (SwiftPM's caches under ~/.cache and ~/.swiftpm are the build's) and checks it after
the tests and the benchmark's smoke run, which must write only into scratch folders of their own.
HOME_GUARD_ROOTS (colon-separated) replaces the folders watched, for the guard's own test.
"""

import json
import os
import stat
import sys


def roots():
    """HOME and tmux's socket folder (`$TMUX_TMPDIR`, else /tmp, then `tmux-UID`)."""
    if os.environ.get("HOME_GUARD_ROOTS"):
        return [r for r in os.environ["HOME_GUARD_ROOTS"].split(":") if r]
    tmux = os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", "tmux-%d" % os.getuid())
    return [os.path.expanduser("~"), tmux]


def entry(path):
    info = os.lstat(path)
    kind = "link" if stat.S_ISLNK(info.st_mode) else "folder" if stat.S_ISDIR(info.st_mode) else "file"
    # A folder's size and time change with what is in it, which is listed entry by entry.
    if kind == "folder":
        return [kind, 0, 0]
    return [kind, info.st_size, info.st_mtime_ns]


def snapshot():
    entries = {}
    for root in roots():
        if not os.path.lexists(root):
            continue
        entries[root] = entry(root)
        for folder, folders, files in os.walk(root, followlinks=False, onerror=lambda error: None):
            for name in folders + files:
                path = os.path.join(folder, name)
                try:
                    entries[path] = entry(path)
                except OSError:
                    pass  # gone meanwhile: the check sees it as removed
    return entries


def changes(before, after):
    lines = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None:
            lines.append("added    %s (%s, %d bytes)" % (path, new[0], new[1]))
        elif new is None:
            lines.append("removed  %s (%s)" % (path, old[0]))
        else:
            lines.append("changed  %s (%s, %d → %d bytes, modified again)" % (path, new[0], old[1], new[1]))
    return lines


def main(argv):
    if len(argv) != 3 or argv[1] not in ("snapshot", "check"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    if argv[1] == "snapshot":
        with open(argv[2], "w") as out:
            json.dump(snapshot(), out)
        return 0
    with open(argv[2]) as stored:
        before = json.load(stored)
    found = changes(before, snapshot())
    if found:
        print("home-guard: the tests changed %d entr%s outside their scratch folders:" % (len(found), "y" if len(found) == 1 else "ies"))
        for line in found[:50]:
            print("  " + line)
        if len(found) > 50:
            print("  … and %d more" % (len(found) - 50))
        return 1
    print("home-guard: HOME and tmux's socket folder are as they were (%s)" % ", ".join(roots()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
