import Foundation
import Testing

/// End-to-end: hostile terminals and hostile data, with the release binary in tmux.
@Suite(.serialized, .currentBinary)
struct RobustnessEndToEndTests {
    // Bug: on a terminal without an alternate screen (TERM=vt100), the last frame stayed after
    // Perch quit, and the shell wrote its next line over the frame's bottom row.
    @Test("on a terminal without an alternate screen (vt100), quitting clears the frame: the shell gets a clean screen")
    func vt100LeavesNoFrame() throws {
        let session = try TmuxSession(term: "vt100")
        try session.waitForStart()
        try session.send("q")
        #expect(try session.waitFor("EXIT=0"))
        let screen = try session.screen()
        #expect(!screen.contains { $0.contains("Overview") || $0.contains("Catalog") || $0.contains("Settings") }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("EXIT=0") }, "the shell's line starts a row of its own: \(screen)")
    }

    // Bug: under TERM=vt100 the cursor stayed visible: terminfo has no civis, and Perch sent
    // nothing itself.
    @Test("under TERM=vt100 the cursor is hidden while Perch runs (DECTCEM), and shown again after q")
    func vt100HidesCursor() throws {
        let session = try TmuxSession(term: "vt100")
        try session.waitForStart()
        let hidden = try TmuxSession.eventually(timeout: 5) {
            try session.tmux(["display", "-p", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
        #expect(hidden, "tmux's cursor_flag while Perch runs")
        try session.send("q")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.tmux(["display", "-p", "#{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// Starts Perch with `accounts` (JSON objects) as its config.
    func started(accounts: [String], width: Int = 80, height: Int = 24) throws -> (TmuxSession, URL) {
        let home = try TmuxSession.makeScratchHome()
        try TmuxSession.writeConfig(#"{"accounts": [\#(accounts.joined(separator: ","))]}"#, home: home)
        return (try TmuxSession.started(width: width, height: height, home: home), home)
    }

    // Bug (trust issue): names with escape sequences were accepted, and every other program
    // reading the config or `perch list --json` got them raw. They are refused where they enter;
    // the refusal itself shows them with their controls visible.
    @Test(
        "An account name with an OSC title, a clear-screen and an OSC 52 clipboard write is refused, and the refusal changes nothing on the terminal"
    )
    func escapeSequencesInNames() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(
            #"{"accounts": [{"id": "evil", "name": "x\u001b]0;pwned\u0007\u001b[2J", "handle": "\u001b]52;c;aGVsbG8=\u0007@h"}, {"id": "c1", "name": "y\u009b2Jz", "handle": "@c1"}]}"#,
            home: home)
        // Wide enough that each message is one row of the screen.
        let session = try TmuxSession(width: 240, arguments: [], home: home)
        try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        try session.tmux(["set-option", "-g", "allow-rename", "on"])
        let title = try session.tmux(["display", "-p", "#{pane_title}"])
        #expect(try session.waitFor("EXIT=2"), "\((try? session.screen())?.joined(separator: "\n") ?? "")")
        let screen = try session.screen()
        #expect(try session.tmux(["display", "-p", "#{pane_title}"]) == title, "the window title is unchanged")
        #expect(try session.tmux(["list-buffers"]).isEmpty, "nothing reached the clipboard (OSC 52)")
        #expect(
            screen.contains { $0.contains("accounts[0].name: must not hold a control character") },
            "the refusal names the field:\n\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("accounts[1].name: must not hold a control character") }, "a C1 CSI is refused too")
        #expect(screen.contains { $0.contains("fix it with `perch config edit`") }, "the way to mend it: \(screen)")
    }

    // Bug: terminals that join emoji sequences drew a row narrower than ncursesw counted, shifting the rest of it.
    @Test("Names with ZWJ emoji, skin tones, flags and keycaps are drawn in a form every terminal lines up")
    func emojiSequencesLineUp() throws {
        // Each name, how it is shown, and how many of its characters take two columns.
        let names: [(name: String, shown: String, wide: Int)] = [
            ("👨‍👩‍👧 family", "👨👩👧 family", 3), ("👍🏽 thumbs", "👍 thumbs", 1), ("🇯🇵🇫🇷 flags", "🇯🇵🇫🇷 flags", 0), ("1️⃣ ❤️ sign", "1⃣ ❤ sign", 0),
            ("plain", "plain", 0),
        ]
        let accounts = names.enumerated().map { #"{"id": "u\#($0.offset)", "name": "\#($0.element.name)", "handle": "@h\#($0.offset)"}"# }
        let (session, home) = try started(accounts: accounts)
        defer { try? FileManager.default.removeItem(at: home) }
        try session.expectAfter("a", shows: "Switch account")
        #expect(try session.waitUntil { screen in names.indices.allSatisfy { i in screen.contains { $0.contains("@h\(i)") } } })
        let screen = try session.screen()
        var handleColumns = Set<Int>()
        for (index, name) in names.enumerated() {
            let row = try #require(screen.first { $0.contains("@h\(index)") }, "row for \(name.name)")
            let parts = row.components(separatedBy: "@h\(index)")
            #expect(parts[0].trimmingCharacters(in: .whitespaces) == name.shown, "\(row.debugDescription)")
            #expect(parts[1].trimmingCharacters(in: .whitespaces).isEmpty, "stray text after the handle in \(row.debugDescription)")
            handleColumns.insert(parts[0].unicodeScalars.filter { $0.properties.generalCategory != .enclosingMark }.count + name.wide)
        }
        #expect(handleColumns.count == 1, "every handle starts in the same column: \(handleColumns.sorted())")
    }

    @Test("Pasted text is never taken as commands: a paste of q, digits and newlines neither quits nor switches tabs")
    func pasteIsNotCommands() throws {
        let session = try TmuxSession.started()
        try session.tmux(["set-buffer", "q\n2\nq\r3a"])
        try session.tmux(["paste-buffer", "-p"])  // bracketed, because Perch turned mode 2004 on
        // `?` after the paste: its help names the context the paste left, so once it shows, the
        // paste has been taken in.
        try session.send("?")
        #expect(try session.waitFor("Keys · "))
        let screen = try session.screen()
        #expect(!screen.contains { $0.contains("EXIT=") }, "Perch is still running")
        #expect(screen.contains { $0.contains("Keys · Overview") }, "still on Overview:\n\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("Keys · Account sheet") }, "the a in the paste opened nothing")
        try session.send("Escape")
        #expect(try session.waitUntil { !$0.contains { $0.contains("Keys · ") } }, "help closed")
        try session.expectAfter("3", shows: "Stats ·")
    }

    @Test("Resizes from 1×1 to 500×200 faster than frames, with the sheet up: the notice below 20×6, and everything back after")
    func resizeStorm() throws {
        let (session, home) = try TmuxSession.startedSignedIn()
        defer { try? FileManager.default.removeItem(at: home) }
        try session.expectAfter("2", shows: "Catalog ·")
        for _ in 0..<30 { try session.send("j") }
        #expect(try session.waitFor("31/60"))
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Down")
        try session.waitUntilSteady()
        let before = try session.screen()
        for (width, height) in [(1, 1), (500, 200), (3, 2), (19, 6), (20, 5), (200, 60), (1, 200), (500, 1), (20, 6), (7, 7)] {
            try session.resize(width: width, height: height)
        }
        try session.resize(width: 19, height: 6)
        #expect(try session.waitFor("(19×6, needs 20×6)"), "the notice: \((try? session.screen()) ?? [])")
        try session.resize(width: 80, height: 24)
        #expect(
            try session.waitUntil { $0 == before },
            "the same screen as before the resizes:\n\((try? session.screen())?.joined(separator: "\n") ?? "")")
        try session.send("Enter")
        #expect(
            try session.waitFor("Switches so far: 2"),
            "the sheet's cursor survived: Down then Enter picked an account (one switch was made before)")
        try session.expectAfter("q", shows: "EXIT=0")
        #expect(try session.terminalRestored())
    }

    @Test(
        "TERM unset, empty, dumb, unknown or absurdly long: a clear message and status 2, the screen untouched",
        arguments: [
            (["env", "-u", "TERM"], "", "TERM is not set"), ([], "", "TERM is not set"), ([], "dumb", "TERM is not set"),
            ([], "no-such-terminal", "terminal type \"no-such-terminal\" is not in the terminfo database"),
            ([], String(repeating: "x", count: 3000), "terminal type \"xxxxxxxx"),
        ] as [([String], String, String)])
    func unusableTerm(launcher: [String], term: String, message: String) throws {
        let session = try TmuxSession(term: term, launcher: launcher)
        #expect(try session.waitFor("EXIT=2"), "\((try? session.screen())?.joined(separator: "\n") ?? "")")
        let screen = try session.screen().joined(separator: "\n")
        #expect(screen.contains(message))
        #expect(screen.contains("BEFORE"), "the screen was not cleared")
        #expect(screen.count < 600, "one short message, not a screenful")
        #expect(try session.terminalRestored())
    }

    @Test(
        "Standard input or output not a terminal: the interface refuses with status 2 and says which",
        arguments: [
            ("exec \"$@\" > /dev/null", "standard output is not a terminal"),
            ("exec \"$@\" < /dev/null", "standard input is not a terminal"),
        ])
    func notATerminal(redirect: String, message: String) throws {
        let session = try TmuxSession(launcher: ["sh", "-c", redirect, "sh"])
        #expect(try session.waitFor("EXIT=2"))
        #expect(try session.screen().contains { $0.contains(message) })
        #expect(try session.terminalRestored())
    }

    // Perch ends at once; the bound has a margin for a busy machine.
    @Test("When the terminal goes away (its window is killed) Perch ends at once")
    func terminalGoesAway() throws {
        let session = try TmuxSession.started()
        let pid = try session.perchPID()
        try session.tmux(["kill-window"])
        #expect(TmuxSession.eventually(timeout: 3) { TmuxSession.hasEnded(pid) }, "still running 3 s after its terminal went away")
    }

    @Test("After q, bracketed paste is off: a paste into the shell has no markers")
    func bracketedPasteOffAfterExit() throws {
        let session = try TmuxSession.started()
        try session.expectAfter("q", shows: "EXIT=0")
        #expect(try session.terminalRestored())
        try session.tmux(["set-buffer", "pasted-text"])
        try session.tmux(["paste-buffer", "-p"])
        #expect(try session.waitFor("pasted-text"))
        #expect(!(try session.screen()).contains { $0.contains("[200~") }, "the shell got paste markers")
    }

    /// C source of `trap-after PID`: attaches to the process PID with ptrace(2) while it waits in
    /// a system call, writes a trap instruction (what a Swift runtime trap executes: `ud2` on
    /// x86_64, `brk` on arm64) where that call returns to, and detaches. The process executes it
    /// when the call returns, in its own thread. The release binary is statically linked, so a
    /// preloaded library cannot put the trap in its way.
    static let trapAfter = """
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/ptrace.h>
        #include <sys/uio.h>
        #include <sys/user.h>
        #include <sys/wait.h>
        #include <elf.h>
        int main(int argc, char **argv) {
            if (argc != 2) return 2;
            pid_t pid = (pid_t)atoi(argv[1]);
            if (ptrace(PTRACE_ATTACH, pid, 0, 0) != 0) { perror("PTRACE_ATTACH"); return 1; }
            int status;
            if (waitpid(pid, &status, __WALL) != pid) { perror("waitpid"); return 1; }
            struct user_regs_struct regs;
            struct iovec vector = { &regs, sizeof regs };
            if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &vector) != 0) { perror("PTRACE_GETREGSET"); return 1; }
        #if defined(__x86_64__)
            unsigned long at = regs.rip; unsigned long mask = 0xffffUL, trap = 0x0b0fUL;      /* ud2: 0f 0b */
        #elif defined(__aarch64__)
            unsigned long at = regs.pc; unsigned long mask = 0xffffffffUL, trap = 0xd4200000UL; /* brk #0 */
        #else
            fprintf(stderr, "no trap instruction known for this architecture\\n"); return 1;
        #endif
            errno = 0;
            long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)at, 0);
            if (errno != 0) { perror("PTRACE_PEEKTEXT"); return 1; }
            word = (long)(((unsigned long)word & ~mask) | trap);
            if (ptrace(PTRACE_POKETEXT, pid, (void *)at, (void *)word) != 0) { perror("PTRACE_POKETEXT"); return 1; }
            if (ptrace(PTRACE_DETACH, pid, 0, 0) != 0) { perror("PTRACE_DETACH"); return 1; }
            printf("%lx\\n", at);
            return 0;
        }
        """

    @Test("A trap instruction in Perch's main thread, as a Swift runtime trap executes, restores the terminal before the process dies")
    func trapRestoresTerminal() throws {
        let folder = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("trap-after.c")
        try Self.trapAfter.write(to: source, atomically: true, encoding: .utf8)
        let injector = folder.appendingPathComponent("trap-after").path
        let compiled = try Spawn.run(["cc", "-o", injector, source.path])
        try #require(compiled.status == 0, "cc: \(compiled.stderr)")
        let session = try TmuxSession.started()
        try session.expectAfter("a", shows: "Switch account")
        // The main thread waits in poll(2) for input; the trap is where that call returns to.
        let injected = try Spawn.run([injector, String(try session.perchPID())])
        try #require(injected.status == 0, "trap-after: \(injected.stderr)")
        try session.sendLiteral("j")
        #expect(try session.waitUntil { $0.contains { $0.contains("EXIT=\(128 + SIGILL)") || $0.contains("EXIT=\(128 + SIGTRAP)") } })
        #expect(try session.terminalRestored())
    }
}
