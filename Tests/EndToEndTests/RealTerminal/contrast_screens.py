"""Reads the colours Perch draws in a real terminal from screenshots, and prints them as one JSON
object: for each screen (Overview as it starts, Catalog, Stats, Settings, the account sheet),
every run of text with its glyphs' colour, its background, its WCAG 2.2 contrast ratio and the
ratio it needs, and the selected tab among them.

    python3 contrast_screens.py PERCH_BIN --terminal xterm|kitty [--background COLOUR]
        [--foreground COLOUR] [--theme THEME] [--shots DIR]
    python3 contrast_screens.py PERCH_BIN --palette --terminal xterm|kitty [--background …]

Perch runs with its default theme, so it learns the background from the terminal's answer to
OSC 11 (xterm and kitty answer with their own); `--theme` passes one on. Each screen is waited
for by its text (kitty's remote control, xterm's print-immediate), then photographed once two
shots in a row are the same. `--shots DIR` keeps the screenshots there (XWD files).

A run needs 4.5:1, 3:1 in bold (WCAG 2.2, 1.4.3), or, where the terminal's own default text is
below that, the default text's own ratio. Box-drawing runs (rules and frames, not text) are
measured and listed, and need nothing.

`--palette` checks the reader instead: a shell prints the eight colours plain and bold, and
each is read back from the screenshot (see read_palette).

Exit status 77 (with the reason on stderr) when X or the terminal cannot start here.
"""
import argparse
import collections
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realterm import scratch_environment, skip, start_or_skip  # noqa: E402  (the drivers beside this script)
from screencolors import CellGrid, Screenshot, contrast_ratio, measure_runs, parse_sgr_screen  # noqa: E402

COLOUR_CODE = re.compile(r"\x1b\[([0-9;:]*)m")


def coloured(ansi_text):
    """Whether any cell has a colour (SGR 30–37, 38, 90–97): Perch has chosen colours for the
    background it learnt (before OSC 11's answer it draws none)."""
    for match in COLOUR_CODE.finditer(ansi_text):
        for code in re.split("[;:]", match.group(1)):
            if code.isdigit() and (30 <= int(code) <= 38 or 90 <= int(code) <= 97):
                return True
    return False


def first_row(text):
    return text.split("\n")[0].strip()


# Each screen: the keys that lead to it, and the text that shows it is drawn.
SCREENS = [
    ("Overview", None, lambda s: "Switches so far" in s and "Settings" in s),
    ("Catalog", "2", lambda s: first_row(s).startswith("Catalog")),
    ("Stats", "3", lambda s: first_row(s).startswith("Stats")),
    ("Settings", "4", lambda s: first_row(s).startswith("Settings") and "Colour theme" in s),
    ("account sheet", "1 a", lambda s: "Switch account" in s),
]


def hexcolour(value):
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--terminal", choices=("xterm", "kitty"), default="xterm")
    parser.add_argument("--background")
    parser.add_argument("--foreground")
    parser.add_argument("--theme")
    parser.add_argument("--shots")
    parser.add_argument("--palette", action="store_true")
    options = parser.parse_args()
    if options.palette:
        return read_palette(options)
    home, env = scratch_environment(f"perch-{options.terminal}-contrast-")
    argv = [options.binary, "--reduce-motion", *(("--theme", options.theme) if options.theme else ())]
    result = {"terminal": options.terminal, "background": options.background or "the terminal's own", "screens": []}
    cols, rows = 80, 24
    border = 2 if options.terminal == "xterm" else 0  # xterm's internalBorder; kitty's padding is 0
    try:
        with start_or_skip(argv, env, cols, rows, terminal=options.terminal, background=options.background,
                           foreground=options.foreground, screenshots=True) as term:
            step = 0.05 if options.terminal == "xterm" else 0.01
            if term.wait_for(SCREENS[0][2], timeout=20, step=step) is None:
                skip(f"{options.terminal} started but Perch drew nothing (no usable X display?)")
            # The frame drawn once the background is known: coloured (the default theme draws no
            # colour before it).
            result["themed"] = term.wait_for(coloured, timeout=10, step=step, ansi=True) is not None
            for name, keys, drawn in SCREENS:
                for key in (keys or "").split():
                    term.key(key)
                if term.wait_for(drawn, timeout=10, step=step) is None:
                    result["screens"].append({"name": name, "error": f"not drawn: {term.text()!r}"})
                    continue
                data = term.screenshot()
                if options.shots:
                    os.makedirs(options.shots, exist_ok=True)
                    label = f"{options.terminal}-{options.background or 'own'}-{name.replace(' ', '-')}.xwd".lower()
                    with open(os.path.join(options.shots, label), "wb") as shot_file:
                        shot_file.write(data)
                grid = CellGrid(Screenshot.parse(data), cols, rows, border)
                runs = measure_runs(grid, parse_sgr_screen(term.text(ansi=True), cols, per_cell=options.terminal == "xterm"))
                result["screens"].append(judge(name, grid, runs))
            term.key("Escape")
            term.key("q")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(result))


def read_palette(options):
    """The reader checked against the terminal's own colours: the eight colours (SGR 30–37)
    printed plain and bold by a shell in the terminal, each read from the screenshot. Prints
    one JSON object: `colours`, a list of {code, bold, foreground, background}."""
    home, env = scratch_environment(f"perch-{options.terminal}-palette-")
    lines = "".join(f"\\033[3{n}mcolour{n}\\033[0m \\033[1;3{n}mbold{n}\\033[0m\\n" for n in range(8))
    argv = ["sh", "-c", f"printf '{lines}ready\\n'; exec sleep 600"]
    cols, rows = 40, 12
    border = 2 if options.terminal == "xterm" else 0
    colours = []
    try:
        with start_or_skip(argv, env, cols, rows, terminal=options.terminal, background=options.background,
                           foreground=options.foreground, screenshots=True) as term:
            if term.wait_for(lambda s: "ready" in s, timeout=20, step=0.05) is None:
                skip(f"{options.terminal} started but the shell drew nothing (no usable X display?)")
            grid = CellGrid(Screenshot.parse(term.screenshot()), cols, rows, border)
            runs = measure_runs(grid, parse_sgr_screen(term.text(ansi=True), cols, per_cell=options.terminal == "xterm"))
            for run in runs:
                match = re.fullmatch(r"(colour|bold)([0-7])", run["text"].strip())
                if match:
                    colours.append({"code": 30 + int(match.group(2)), "bold": match.group(1) == "bold",
                                    "foreground": run["foreground"], "background": run["background"]})
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps({"terminal": options.terminal, "colours": colours}))


def judge(name, grid, runs):
    """The screen's runs with the ratio each needs, its selected tab and its lowest text run."""
    screen_background = grid.window_background()
    plain = collections.Counter((run["foreground"], run["background"]) for run in runs
                                if not (run["bold"] or run["dim"] or run["reverse"] or run["coloured"] or run["graphic"])
                                and run["foreground"])
    default_ratio = None
    if plain:
        foreground, background = plain.most_common(1)[0][0]
        default_ratio = round(contrast_ratio(hexcolour(foreground), hexcolour(background)), 2)
    for run in runs:
        wanted = 3.0 if run["bold"] else 4.5
        run["needed"] = None if run["graphic"] else min(wanted, default_ratio or wanted)
    bottom = [run for run in runs if run["row"] == grid.rows and not run["graphic"]]
    selected = next((run for run in bottom if run["reverse"]), None) or next(
        (run for run in bottom if run["background"] != "#%02x%02x%02x" % screen_background), None)
    text_runs = [run for run in runs if run["needed"] is not None and run["ratio"] is not None]
    lowest = min(text_runs, key=lambda run: run["ratio"] / run["needed"], default=None)
    return {"name": name, "screenBackground": "#%02x%02x%02x" % screen_background, "defaultTextRatio": default_ratio,
            "selectedTab": selected, "lowest": lowest, "runs": runs}


if __name__ == "__main__":
    main()
