"""Holds 1 on perchkit-demo in a real kitty under Xvfb (through realterm.py) and prints, as one
JSON object, what it saw: the key-hold mode the About tab shows, and for each try the
milliseconds from the key going down to the sheet of colours' first frame.

    python3 kitty_demo_hold.py DEMO_BIN [--tries N]

Exit status 77 (with the reason on stderr) when X or kitty cannot start here; 1 on a failure.
"""
import json, os, shutil, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realterm import scratch_environment, skip, start_or_skip  # noqa: E402  (the driver beside this script)


def sheet_up(screen):
    return "Pick a colour" in screen


def main():
    binary = sys.argv[1]
    tries = int(sys.argv[sys.argv.index("--tries") + 1]) if "--tries" in sys.argv else 3
    home, env = scratch_environment("perchkit-demo-kitty-")
    result = {"mode": None, "key": [], "mouse": []}
    try:
        with start_or_skip([binary, "--reduce-motion"], env) as t:
            if t.wait_for(lambda s: "Colors" in s and "About" in s, timeout=15) is None:
                skip("kitty started but the demo drew nothing (no usable X display?)")
            t.key("2")
            # The answer to the keyboard query may come just after the first frame.
            t.wait_for(lambda s: "kitty keyboard protocol" in s, timeout=3)
            line = next((l for l in t.text().split("\n") if "Key holds:" in l), "")
            result["mode"] = line.split("Key holds:", 1)[1].strip() if line else None
            t.key("1")
            t.wait_for(lambda s: "Picked:" in s)
            for _ in range(tries):
                time.sleep(0.3)
                t.key_down("1")
                took = t.wait_for(sheet_up, timeout=3, step=0.001)
                t.key_up("1")
                result["key"].append(None if took is None else round(took * 1000, 1))
                t.key("Escape")
                t.wait_for(lambda s: not sheet_up(s))
            t.key("q")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
