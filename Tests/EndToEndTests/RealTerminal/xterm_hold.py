"""Holds a key and a mouse button on Perch in a real xterm under Xvfb (through realterm.py) and
prints, as one JSON object, what it saw: the key-hold mode Settings shows, and for each try the
milliseconds from the key or button going down to the first frame with the account sheet.

    python3 xterm_hold.py PERCH_BIN [--tries N] [--background COLOUR --foreground COLOUR]

xterm has no keyboard protocol with release events, so a held key reaches Perch as X's
auto-repeat. Its text is read by a key of its own (print-immediate), and a second key pressed
would end the first one's repeat: while a key or button is down, the sheet is watched for in
screenshots instead (the rows it covers change), and its text is read once it is let go.

Exit status 77 (with the reason on stderr) when X or xterm cannot start here; 1 on a failure.
"""
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realterm import scratch_environment, skip, start_or_skip  # noqa: E402  (the drivers beside this script)
from screencolors import CellGrid, Screenshot  # noqa: E402

COLS, ROWS = 80, 24
# The rows the account sheet covers at 80×24 above the tab bar (its grabber, title and first
# accounts), empty on Overview.
BAND = (17, 22)


def sheet_up(screen):
    return "Switch account" in screen


def band(term):
    """The pixels of the rows the sheet covers, or None when xwd read nothing."""
    data = term.shot()
    return CellGrid(Screenshot.parse(data), COLS, ROWS, border=2).rows_band(*BAND) if data else None


def wait_for_change(term, before, timeout=3.0):
    """Seconds until the sheet's rows differ from `before` (polled by screenshots), or None."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        now = band(term)
        if now is not None and now != before:
            return time.monotonic() - start
    return None


def main():
    binary = sys.argv[1]
    tries = int(sys.argv[sys.argv.index("--tries") + 1]) if "--tries" in sys.argv else 3
    colours = {name: sys.argv[sys.argv.index(f"--{name}") + 1] for name in ("background", "foreground")
               if f"--{name}" in sys.argv}
    home, env = scratch_environment("perch-xterm-hold-")
    result = {"mode": None, "key": [], "mouse": [], "tapOpenedSheet": None}
    try:
        with start_or_skip([binary, "--reduce-motion"], env, COLS, ROWS, terminal="xterm", screenshots=True, **colours) as t:
            if t.wait_for(lambda s: "Switches so far" in s and "Settings" in s, timeout=20, step=0.05) is None:
                skip("xterm started but Perch drew nothing (no usable X display?)")
            t.key("4")
            t.wait_for(lambda s: "Key hold" in s, step=0.05)
            line = next((l for l in t.text().split("\n") if "Key hold" in l), "")
            result["mode"] = line.split("Key hold", 1)[1].strip()
            t.key("1")
            t.wait_for(lambda s: "Switches so far" in s, step=0.05)
            for kind in ("key", "mouse"):
                for _ in range(tries):
                    if kind == "mouse":
                        # A person moves the pointer onto the tab first.
                        t.move_pointer(5, 5)
                    t.screenshot()  # drawn and still
                    before = band(t)
                    if kind == "key":
                        t.key_down("1")
                    else:
                        t.press_cell(10, 24)
                    took = wait_for_change(t, before)
                    if kind == "key":
                        t.key_up("1")
                    else:
                        t.release_cell(10, 24)
                    shown = t.wait_for(sheet_up, timeout=3, step=0.05) is not None
                    result[kind].append(round(took * 1000, 1) if took is not None and shown else None)
                    t.key("Escape")
                    t.wait_for(lambda s: not sheet_up(s), step=0.05)
            # A quick press of 1 is a tap: then 3 shows Stats, and no sheet came up in between.
            t.key("1")
            t.key("3")
            t.wait_for(lambda s: "Stats ·" in s, step=0.05)
            result["tapOpenedSheet"] = sheet_up(t.text())
            t.key("q")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
