"""Holds keys and mouse buttons on Perch in a real kitty under Xvfb (through realterm.py) and
prints, as one JSON object, what it saw: the key-hold mode Settings shows, and for each try the
milliseconds from the key or button going down to the account sheet's first frame.

    python3 kitty_hold.py PERCH_BIN [--tries N]

Exit status 77 (with the reason on stderr) when X or kitty cannot start here; 1 on a failure.
"""
import json, os, shutil, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realterm import scratch_environment, skip, start_or_skip  # noqa: E402  (the driver beside this script)


def sheet_up(screen):
    return "Switch account" in screen


def main():
    binary = sys.argv[1]
    tries = int(sys.argv[sys.argv.index("--tries") + 1]) if "--tries" in sys.argv else 5
    home, env = scratch_environment("perch-kitty-")
    result = {"mode": None, "key": [], "mouse": [], "tapOpenedSheet": None, "heldOnStats": None}
    try:
        with start_or_skip([binary, "--reduce-motion"], env) as t:
            if t.wait_for(lambda s: "Overview" in s and "Settings" in s, timeout=15) is None:
                skip("kitty started but Perch drew nothing (no usable X display?)")
            t.key("4")
            t.wait_for(lambda s: "Key hold" in s)
            line = next((l for l in t.text().split("\n") if "Key hold" in l), "")
            result["mode"] = line.split("Key hold", 1)[1].strip()
            t.key("1")
            t.wait_for(lambda s: "Switches so far" in s)
            for kind in ("key", "mouse"):
                for _ in range(tries):
                    time.sleep(0.3)
                    if kind == "key":
                        t.key_down("1")
                    else:
                        # A person moves the pointer onto the tab first. (Without a motion,
                        # kitty reports a press after its pointer hid, 3 s idle, at cell 1;1.)
                        t.move_pointer(5, 5)
                        time.sleep(0.05)
                        t.press_cell(10, 24)
                    took = t.wait_for(sheet_up, timeout=3, step=0.001)
                    if kind == "key":
                        t.key_up("1")
                    else:
                        t.release_cell(10, 24)
                    result[kind].append(None if took is None else round(took * 1000, 1))
                    t.key("Escape")
                    t.wait_for(lambda s: not sheet_up(s))
            # A quick press of 1 is a tap: then 3 shows Stats, and no sheet came up in between.
            time.sleep(0.3)
            t.key("1")
            t.key("3")
            t.wait_for(lambda s: "Stats ·" in s)
            result["tapOpenedSheet"] = sheet_up(t.text())
            # 1 held on Stats: Overview is selected at once (its title on the top row, above the
            # sheet), then the sheet rises over it, as with auto-repeat.
            t.key_down("1")
            overview_first = t.wait_for(lambda s: s.split("\n")[0].strip().startswith("Overview"), timeout=3, step=0.001)
            took = t.wait_for(sheet_up, timeout=3, step=0.001)
            top = t.text().split("\n")[0].strip()
            t.key_up("1")
            result["heldOnStats"] = {"overviewAt": None if overview_first is None else round(overview_first * 1000, 1),
                                     "sheetAt": None if took is None else round(took * 1000, 1), "top": top}
            t.key("Escape")
            t.key("q")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
