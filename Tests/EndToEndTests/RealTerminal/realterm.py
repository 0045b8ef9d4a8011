"""A real terminal for end-to-end tests: a program run in kitty or xterm on a virtual X display
(Xvfb), driven as a person would drive it, with keys held down and let go, mouse buttons held on
a cell, the screen read back as text (with its SGR attributes when asked) and the window's pixels
read back as a screenshot (`xwd`).

tmux and a bare pseudo-terminal cannot hold a key: a held key is an X event. Here the X server
auto-repeats a key held with `xdotool keydown`, and kitty reports press, repeat and release
events to a program that turns its keyboard protocol on.

kitty's text is asked of it over its remote-control socket. xterm has no remote control: its
text is read through its own print-immediate action (bound to Ctrl+Shift+F12, a key the test
sends and xterm keeps to itself), which writes the screen with its SGR attributes to a file.

Needs Debian's kitty (or xterm), xvfb, xdotool and x11-apps (`xwd`), which `make test-deps`
installs. Python 3's standard library only.

    from realterm import RealTerm, Unavailable
    with RealTerm(["perch", "--reduce-motion"], cols=80, rows=24, env={"HOME": home}) as term:
        term.wait_for(lambda screen: "Overview" in screen)
        term.hold_key("1", 0.8)           # key down, 0.8 s, key up
        term.press_cell(10, 24)           # 1-based column and row; the button stays down
        print(term.text())
        term.release_cell(10, 24)
    with RealTerm(argv, terminal="xterm", background="white") as term:
        image = term.screenshot()         # the window as XWD bytes (see screencolors.py)

Unavailable (a RuntimeError) is raised when the tools are missing or X or the terminal cannot
start, so that a caller can report its test as skipped rather than failed.
"""
import json
import re
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

TOOLS = ("Xvfb", "xdotool")
TERMINALS = ("kitty", "xterm")


class Unavailable(RuntimeError):
    """No real terminal can run here; the message says why."""


def missing_tool(terminal="kitty", screenshots=False):
    """The first of the terminal, Xvfb, xdotool (and xwd, for `screenshots`) not on PATH, or
    None."""
    tools = (terminal, *TOOLS, *(("xwd",) if screenshots else ()))
    return next((tool for tool in tools if shutil.which(tool) is None), None)


def skip(reason):
    """Ends a test script with exit status 77 (skipped), the reason on stderr."""
    print(reason, file=sys.stderr)
    sys.exit(77)


def scratch_environment(prefix):
    """A scratch HOME (a new folder named with `prefix`) and the environment of a program under
    test there: HOME, the XDG folders inside it, and a UTF-8 locale. The caller removes HOME."""
    home = tempfile.mkdtemp(prefix=prefix)
    env = {"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
           "XDG_RUNTIME_DIR": home, "XDG_CACHE_HOME": home + "/cache", "LC_ALL": "C.UTF-8"}
    return home, env


def start_or_skip(argv, env, cols=80, rows=24, terminal="kitty", **options):
    """`argv` in a real `terminal` of `cols` × `rows`, or a skip (exit 77) when none can run
    here."""
    try:
        return RealTerm(argv, cols=cols, rows=rows, env=env, terminal=terminal, **options)
    except Unavailable as error:
        skip(f"a real {terminal} cannot run here: {error}")


class RealTerm:
    """`argv` running in a kitty or xterm window of `cols` × `rows` cells on a display of its
    own. `background` and `foreground` (X colour names or `#RRGGBB`) set the terminal's default
    colours; unset, each terminal keeps its own (xterm's black on white, kitty's #dddddd on
    black). `screenshots` also requires `xwd`."""

    def __init__(self, argv, cols=80, rows=24, env=None, start_timeout=15.0, terminal="kitty", background=None,
                 foreground=None, screenshots=False):
        if terminal not in TERMINALS:
            raise ValueError(f"terminal is one of {TERMINALS}, not {terminal!r}")
        tool = missing_tool(terminal, screenshots)
        if tool:
            raise Unavailable(f"{tool} is not installed (make test-deps installs {terminal}, xvfb, xdotool and x11-apps)")
        self.terminal = terminal
        self.cols, self.rows = cols, rows
        self.folder = tempfile.mkdtemp(prefix="perch-realterm-")
        self.xvfb = None
        self.process = None  # the terminal: kitty or xterm
        try:
            self.display = self._start_x(start_timeout)
            self.socket_path = os.path.join(self.folder, "kitty.sock")
            self.dumps = os.path.join(self.folder, "dumps")
            os.mkdir(self.dumps)
            # NO_COLOR from the caller's environment is dropped (the Makefile sets it for SwiftPM's
            # diagnostics, and Perch would then draw no colour); pass it in `env` to test it.
            self.env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
            self.env.update(env or {})
            self.env["DISPLAY"] = self.display
            self._wait_for_clients(start_timeout)
            self.env.setdefault("LANG", "C.UTF-8")
            log = open(os.path.join(self.folder, "terminal.log"), "w")
            if terminal == "kitty":
                colours = [item for option, value in (("background", background), ("foreground", foreground)) if value
                           for item in ("-o", f"{option}={value}")]
                command = ["kitty", "--config", "NONE", "-o", "allow_remote_control=yes", "--listen-on", f"unix:{self.socket_path}",
                           "-o", "remember_window_size=no", "-o", f"initial_window_width={cols}c",
                           "-o", f"initial_window_height={rows}c", "-o", "window_padding_width=0", *colours, *argv]
            else:
                colours = [*(("-bg", background) if background else ()), *(("-fg", foreground) if foreground else ())]
                # DejaVu Sans Mono through Xft: Debian installs no bitmap font with the box-drawing
                # and other characters Perch draws. print-immediate writes the alternate screen
                # (printOptsImmediate 0) with its attributes (printModeImmediate 2) to a file.
                command = ["xterm", "-geometry", f"{cols}x{rows}", "-u8", "-fa", "DejaVu Sans Mono", "-fs", "11", *colours,
                           "-xrm", f"XTerm*printFileImmediate: {self.dumps}/screen", "-xrm", "XTerm*printModeImmediate: 2",
                           "-xrm", "XTerm*printOptsImmediate: 0",
                           "-xrm", "XTerm*VT100.translations: #override Ctrl Shift <Key>F12: print-immediate()",
                           "-e", *argv]
            self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL, stderr=log)
            log.close()
            deadline = time.monotonic() + start_timeout
            self.window = ""
            while time.monotonic() < deadline and not self.window:
                if self.process.poll() is not None:
                    raise Unavailable(f"{terminal} exited with status {self.process.returncode}: {self._log_tail()}")
                visible = ("--onlyvisible",) if terminal == "xterm" else ()
                self.window = self._xdotool("search", *visible, "--class", terminal).split("\n")[0]
                if not self.window:
                    time.sleep(0.05)
            if not self.window:
                raise Unavailable(f"{terminal} opened no window within {start_timeout:.0f} s: {self._log_tail()}")
            if terminal == "kitty":
                self._xdotool("windowactivate", "--sync", self.window)
            else:
                # No window manager runs: X gives the keyboard to the window it is told to (and,
                # with the default PointerRoot focus, to the one under the pointer).
                self._xdotool("mousemove", "--window", self.window, "20", "20")
                self._xdotool("windowfocus", "--sync", self.window)
        except BaseException:
            self.close()
            raise

    def _start_x(self, timeout):
        """Starts Xvfb on a free display, which it picks and reports once it accepts clients
        (`-displayfd`), so nothing waits a fixed time or collides with another display."""
        read_end, write_end = os.pipe()
        try:
            self.xvfb = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as error:
            raise Unavailable(f"Xvfb cannot start: {error}")
        finally:
            os.close(write_end)
        number = b""
        deadline = time.monotonic() + timeout
        try:
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                ready, _, _ = select.select([read_end], [], [], max(0, left))
                if not ready:
                    raise Unavailable(f"Xvfb reported no display within {timeout:.0f} s")
                chunk = os.read(read_end, 16)
                if not chunk:
                    raise Unavailable(f"Xvfb exited with status {self.xvfb.wait()} before it was ready")
                number += chunk
        finally:
            os.close(read_end)
        return ":" + number.decode().strip()

    def _wait_for_clients(self, timeout):
        """Waits until a client can connect to the display: xterm was seen to fail with "Can't
        open display" one start in six right after another run's X server stopped, although
        Xvfb had reported its display."""
        deadline = time.monotonic() + timeout
        while subprocess.run(["xdotool", "getdisplaygeometry"], env=self.env, capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise Unavailable(f"no client can connect to Xvfb's display {self.display} within {timeout:.0f} s")
            time.sleep(0.02)

    def _log_tail(self):
        try:
            with open(os.path.join(self.folder, "terminal.log")) as log:
                return " ".join(log.read().strip().split("\n")[-3:]) or "no output"
        except OSError:
            return "no log"

    def _xdotool(self, *args):
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True).stdout.strip()

    def text(self, ansi=False):
        """The screen as text (with SGR sequences for its attributes when `ansi`): asked of
        kitty over its remote-control socket (about a millisecond, where `kitty @ get-text`
        starts a Python process each time), empty while kitty has not opened its socket yet; or
        written by xterm's print-immediate (always with SGR sequences; stripped unless `ansi`)."""
        if self.terminal == "xterm":
            return self._xterm_text(ansi)
        connection = socket.socket(socket.AF_UNIX)
        try:
            connection.connect(self.socket_path)
        except OSError:
            connection.close()
            return ""
        request = {"cmd": "get-text", "version": [0, 26, 5], "no_response": False, "payload": {"extent": "screen", "ansi": ansi}}
        reply = b""
        try:
            connection.sendall(b"\x1bP@kitty-cmd" + json.dumps(request).encode() + b"\x1b\\")
            while not reply.endswith(b"\x1b\\"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                reply += chunk
        finally:
            connection.close()
        prefix = b"\x1bP@kitty-cmd"
        if not reply.startswith(prefix) or not reply.endswith(b"\x1b\\"):
            return ""
        answer = json.loads(reply[len(prefix):-2] or b"{}")
        return answer.get("data", "") if answer.get("ok") else ""

    def _xterm_text(self, ansi, timeout=5.0):
        """xterm's screen, from the file its print-immediate action writes when Ctrl+Shift+F12
        is pressed (one line a row, each ended by CR LF; read once all rows are written). Empty
        when no file came within `timeout` seconds."""
        for name in os.listdir(self.dumps):
            os.remove(os.path.join(self.dumps, name))
        self._xdotool("key", "ctrl+shift+F12")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            names = os.listdir(self.dumps)
            if names:
                with open(os.path.join(self.dumps, names[0]), "rb") as dump:
                    data = dump.read().decode("utf-8", "replace")
                if data.count("\n") >= self.rows:
                    data = data.replace("\r\n", "\n").replace("\x1b#5", "")
                    return data if ansi else re.sub(r"\x1b\[[0-9;]*m", "", data)
            time.sleep(0.005)
        return ""

    def shot(self):
        """One screenshot of the window as XWD bytes, as it is now (empty if xwd failed)."""
        return subprocess.run(["xwd", "-id", self.window, "-silent", "-nobdrs"], env=self.env, capture_output=True).stdout

    def screenshot(self, stable_timeout=5.0):
        """The window's pixels as an XWD image (bytes; screencolors.Screenshot reads them), taken
        once two shots in a row are the same: the terminal has finished drawing."""
        previous = None
        deadline = time.monotonic() + stable_timeout
        while True:
            shot = self.shot()
            if not shot:
                # The first window `xdotool search` listed can be one kitty drops again (seen one
                # run in four): photograph the visible one instead.
                if time.monotonic() > deadline + 25:
                    raise RuntimeError(f"xwd read nothing from {self.terminal}'s window {self.window}")
                for window in self._xdotool("search", "--onlyvisible", "--class", self.terminal).split("\n"):
                    if window and "WIDTH" in self._geometry(window):
                        self.window = window
                        break
                time.sleep(0.05)
                continue
            if shot == previous or time.monotonic() > deadline:
                return shot
            previous = shot
            time.sleep(0.02)

    def wait_for(self, condition, timeout=5.0, step=0.01, ansi=False):
        """Seconds until condition(screen text) held, or None once `timeout` seconds passed."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if condition(self.text(ansi)):
                return time.monotonic() - start
            time.sleep(step)
        return None

    def key(self, name):
        """Presses and releases a key by its X name (`1`, `Return`, `Escape`, `Down`, `ctrl+c`)."""
        self._xdotool("key", name)

    def key_down(self, name):
        self._xdotool("keydown", name)

    def key_up(self, name):
        self._xdotool("keyup", name)

    def hold_key(self, name, seconds):
        self.key_down(name)
        time.sleep(seconds)
        self.key_up(name)

    def move_pointer(self, x, y):
        """Moves the pointer to the middle of the 1-based cell (x, y)."""
        self._xdotool("mousemove", *self._cell(x, y))

    def _cell(self, x, y):
        """Screen pixel of the middle of the 1-based cell (x, y), from the window's geometry."""
        # A window still being mapped (a loaded machine) reports no geometry yet: ask again, up to
        # 30 s (with every suite running at once on 2 cores, 5 s was seen to be too short).
        # The first window `xdotool search` listed can be one kitty drops again (seen under full
        # load): then the visible kitty windows are searched again for one with a geometry.
        deadline = time.monotonic() + 30
        while True:
            fields = self._geometry(self.window)
            if all(key in fields for key in ("WIDTH", "HEIGHT", "X", "Y")) or time.monotonic() > deadline:
                break
            for window in self._xdotool("search", "--onlyvisible", "--class", self.terminal).split("\n"):
                if window and "WIDTH" in self._geometry(window):
                    self.window = window
                    break
            time.sleep(0.05)
        if not all(key in fields for key in ("WIDTH", "HEIGHT", "X", "Y")):
            raise RuntimeError("kitty's window %s reported no geometry in 30 s: %r" % (self.window, fields))
        width = int(fields["WIDTH"]) / self.cols
        height = int(fields["HEIGHT"]) / self.rows
        return str(int(int(fields["X"]) + (x - 0.5) * width)), str(int(int(fields["Y"]) + (y - 0.5) * height))

    def _geometry(self, window):
        """`xdotool getwindowgeometry --shell` of `window` as a dict (empty when it has none)."""
        output = self._xdotool("getwindowgeometry", "--shell", window) if window else ""
        return dict(line.split("=", 1) for line in output.split("\n") if "=" in line)

    def press_cell(self, x, y, button=1):
        """Moves to the cell and presses `button`, which stays down until release_cell."""
        self.move_pointer(x, y)
        self._xdotool("mousedown", str(button))

    def release_cell(self, x, y, button=1):
        self.move_pointer(x, y)
        self._xdotool("mouseup", str(button))

    def close(self):
        """Ends the terminal and Xvfb (each it started) and removes the scratch folder."""
        for process in (self.process, self.xvfb):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
