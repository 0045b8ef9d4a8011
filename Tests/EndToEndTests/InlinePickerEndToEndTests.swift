import Foundation
import Testing

/// `perch switch` with no account and `perch pick`: the account sheet drawn inline below the
/// prompt, driven by keys and SGR mouse reports in tmux; the screen is read before and after.
@Suite("Inline picker", .serialized, .currentBinary)
struct InlinePickerEndToEndTests {
    /// A session running `perch arguments` below a line `BEFORE`, with the state at `current`.
    private func session(_ arguments: [String], current: String? = "personal", fill: Int = 0, width: Int = 80) throws -> TmuxSession {
        let home = try TmuxSession.makeScratchHome()
        if let current {
            let cli = try PerchCommandLine(home: home)
            #expect(try cli.run(["switch", current]).status == 0)
        }
        let launcher = fill > 0 ? ["sh", "-c", "seq \(fill); exec \"$@\"", "sh"] : []
        let session = try TmuxSession(width: width, height: 24, arguments: arguments, home: home, launcher: launcher)
        return session
    }

    /// The row of the first screen line containing `text`.
    private func row(of text: String, in screen: [String]) -> Int? {
        screen.firstIndex { $0.contains(text) }
    }

    @Test("perch switch draws the sheet below the prompt without the alternate screen; Enter switches and leaves one line")
    func enterSwitches() throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        let shown = try session.waitFor("Switch account")
        let screen = try session.screen()
        try #require(shown, "\(screen)")
        #expect(screen[0] == "BEFORE")
        #expect(screen[1].isEmpty, "the cursor's line (empty here) is kept: \(screen[1])")
        #expect(screen[2].contains("━━━"), "the grabber is on the row under the cursor's line: \(screen[2])")
        #expect(screen[3].contains("Switch account"))
        for (index, name) in ["Work", "Personal", "Open Source", "Side Project"].enumerated() {
            #expect(screen[4 + index].contains(name), "row \(4 + index): \(screen[4 + index])")
        }
        #expect(screen[8] == " type to filter · ↑↓ move · Enter switch · Esc cancel", "the picker's own keys: \(screen[8])")
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "main screen, mouse on once the cursor report came")
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT="))
        let after = try session.screen()
        #expect(after[0] == "BEFORE")
        #expect(after[1] == "Switched to oss: Open Source (@ada-oss), was personal: Personal (@ada).", "\(after)")
        #expect(after[2] == "EXIT=0")
        #expect(after[3...].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "rows of the sheet are cleared: \(after)")
        #expect(try session.terminalRestored())
        let cli = try PerchCommandLine(home: session.home)
        #expect(try cli.run(["current", "--field", "id"]).stdout == "oss\n")
    }

    @Test("Typing filters at once; Enter picks the first match", arguments: ["side", "SIDE", "analyt"])
    func typingFilters(text: String) throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        try session.sendLiteral(text)
        let narrowed = try session.waitFor("1 of 4")
        let filtered = try session.screen().joined(separator: "\n")
        #expect(narrowed, "\(filtered)")
        #expect(try !session.screen().contains { $0.contains("Open Source") }, "the filter narrowed the list")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.screen()[1].hasPrefix("Switched to side: Side Project"))
    }

    // Bug: Ctrl-C in the picker exited 1, but 130 at every prompt.
    @Test(
        "Esc (exit 1) and Ctrl-C (exit 130, as at a prompt) leave nothing on the screen; nothing is switched",
        arguments: [("Escape", "EXIT=1"), ("C-c", "EXIT=130")])
    func cancelLeavesNothing(key: String, exit: String) throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        try session.sendLiteral("op")
        #expect(try session.waitFor("1 of 4"))
        try session.send(key)
        #expect(try session.waitFor("EXIT="))
        let after = try session.screen()
        #expect(after[0] == "BEFORE")
        #expect(after[1] == exit, "the cursor is back on the row under the prompt: \(after)")
        #expect(after[2...].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(after)")
        #expect(try session.terminalRestored())
        let cli = try PerchCommandLine(home: session.home)
        #expect(try cli.run(["current", "--field", "id"]).stdout == "personal\n")
    }

    // Issue 20: the picker's `+ Add account…` row led nowhere (at first it did nothing, then it
    // ended with a message); the picker has no room for the form, so the row is not offered.
    @Test("The picker offers no Add account… row: End then Enter picks the last account, and + filters")
    func noAddAccountRow() throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        #expect(try !session.screen().contains { $0.contains("Add account") }, "no Add account row")
        try session.send("End")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.screen().contains { $0.hasPrefix("Switched to side: Side Project") })
        #expect(try session.terminalRestored())
        // `+` (Add account in the interface's sheet) is text for the filter here; Enter on no match does nothing.
        let filtering = try self.session(["switch"])
        defer { try? FileManager.default.removeItem(at: filtering.home) }
        #expect(try filtering.waitFor("Switch account"))
        try filtering.sendLiteral("+")
        #expect(try filtering.waitFor("0 of 4"), "+ went to the filter")
        try filtering.send("Enter")
        try filtering.send("Escape")
        #expect(try filtering.waitFor("EXIT=1"))
        #expect(try !filtering.screen().contains { $0.contains("add an account") || $0.contains("Add account") })
    }

    @Test("At the bottom of a full screen the picker takes its rows by scrolling, and a click picks")
    func bottomOfScreenAndMouse() throws {
        let session = try session(["switch"], fill: 40, width: 100)
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        let screen = try session.screen()
        let last = try #require(screen.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(last == 23, "the sheet ends on the last row: \(screen)")
        #expect(screen.contains("40"), "the shell's output scrolled up, not cleared")
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "mouse on once the cursor report came")
        let sideRow = try #require(row(of: "Side Project", in: screen))
        try session.mousePress(column: 6, row: sideRow)
        try session.mouseRelease(column: 6, row: sideRow)
        #expect(try session.waitFor("EXIT=0"))
        let after = try session.screen()
        let switched = try #require(row(of: "Switched to side", in: after), "\(after)")
        #expect(after[switched - 1] == "40", "the line under the prompt holds the message: \(after)")
        #expect(after[switched + 1] == "EXIT=0")
        #expect(!after.contains { $0.contains("Add account") })
    }

    @Test("--height caps the rows and the list scrolls under the cursor")
    func heightScrolls() throws {
        let session = try session(["switch", "--height", "5"], current: nil)
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        var screen = try session.screen()
        #expect(screen[2 + 5].trimmingCharacters(in: .whitespaces).isEmpty, "five rows only: \(screen)")
        #expect(screen.filter { $0.contains("@") }.count == 2, "two account rows show: \(screen)")
        #expect(screen[6].hasSuffix("Esc cancel · 1–2 of 4"), "the footer says where the list is: \(screen[6])")
        try session.send("End")
        #expect(try session.waitFor("3–4 of 4"))
        try session.send("Up")
        #expect(try session.waitFor("Open Source"))
        screen = try session.screen()
        #expect(!screen.contains { $0.contains("Work ") }, "scrolled past the first rows: \(screen)")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.screen()[1] == "Switched to oss: Open Source (@ada-oss).")
    }

    @Test("perch pick prints the chosen id, draws on stderr when stdout is a pipe, and switches nothing")
    func pickPrintsID() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let out = home.appendingPathComponent("picked.txt").path
        let session = try TmuxSession(arguments: ["pick"], home: home, launcher: ["sh", "-c", "exec \"$@\" > \(out)", "sh"])
        #expect(try session.waitFor("Switch account"))
        #expect(try session.waitFor("Enter pick · Esc cancel"))
        try session.send("Down")
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "oss\n")
        let after = try session.screen()
        #expect(after[1] == "EXIT=0", "\(after)")
        let cli = try PerchCommandLine(home: home)
        #expect(try cli.run(["current"]).status == 1, "pick does not switch")
    }

    @Test(
        "Two long names alike but for their end: whole where the width allows (not cut at 32 columns), cut in the middle in a narrow terminal so both ends show; a filter on the end picks"
    )
    func longNamesAlikeAtTheStart() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try PerchCommandLine(home: home).writeConfig(
            #"""
            {"accounts": [
              {"id": "west", "name": "Platform Engineering — Europe West", "handle": "@pe-west"},
              {"id": "north", "name": "Platform Engineering — Europe North", "handle": "@pe-north"},
              {"id": "me", "name": "Personal", "handle": "@ada"}
            ]}
            """#)
        let out = home.appendingPathComponent("picked.txt").path
        for width in [80, 36] {
            let session = try TmuxSession(
                width: width, height: 24, arguments: ["pick"], home: home, launcher: ["sh", "-c", "exec \"$@\" > \(out)", "sh"])
            #expect(try session.waitFor("Switch account"))
            let screen = try session.screen()
            let west = screen.first { $0.contains("@pe-west") || $0.contains("West") } ?? ""
            let north = screen.first { $0.contains("@pe-north") || $0.contains("North") } ?? ""
            if width == 80 {
                #expect(west.contains("Platform Engineering — Europe West") && west.contains("@pe-west"), "\(screen)")
                #expect(north.contains("Platform Engineering — Europe North") && north.contains("@pe-north"), "\(screen)")
            } else {
                #expect(west.contains("Platform") && west.contains("…") && west.contains("West"), "\(screen)")
                #expect(north.contains("Platform") && north.contains("…") && north.contains("North"), "\(screen)")
                #expect(screen.contains { $0.contains("Personal") })
            }
            try session.sendLiteral("north")
            #expect(try session.waitFor("1 of 3"))
            try session.send("Enter")
            #expect(try session.waitFor("EXIT=0"))
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "north\n")
        }
    }

    @Test("The mouse wheel moves the cursor; after a resize the sheet is drawn again at the new width, and a pick still works")
    func wheelAndResize() throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        try session.resize(width: 50, height: 24)
        let redrawn = try session.waitUntil { lines in
            lines.contains { $0.hasPrefix("─") && $0.count == 50 } && lines.contains { $0.contains("Switch account") }
        }
        let screen = try session.screen()
        #expect(redrawn, "the grabber row spans the new width: \(screen)")
        #expect(!screen.contains { $0.count > 50 })
        // The rows were taken again and placed by a new cursor report: the mouse is on once it came.
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "mouse on again")
        let personal = try #require(row(of: "Personal", in: screen))
        try session.wheelDown(column: 5, row: personal)
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        let after = try session.screen()
        #expect(after.contains { $0.hasPrefix("Switched to oss") }, "the wheel moved from personal to oss: \(after)")
        #expect(!after.contains { $0.contains("Add account") || $0.contains("━━━") }, "nothing of the sheet is left: \(after)")
    }

    @Test("SIGTERM while the picker is up restores the terminal, clears its rows and exits 143")
    func terminated() throws {
        let session = try session(["switch"])
        defer { try? FileManager.default.removeItem(at: session.home) }
        #expect(try session.waitFor("Switch account"))
        kill(try session.perchPID(), SIGTERM)
        #expect(try session.waitFor("EXIT="))
        let after = try session.screen()
        // Perch ends itself with 128 + the signal, as the interface does, with the cursor back on its line.
        #expect(after[1] == "EXIT=143", "\(after)")
        #expect(after[2...].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "the rows are cleared: \(after)")
        #expect(try session.terminalRestored())
    }

    // fzf #2446: `fzf --height` erased the text on the cursor's line; a script's question went with it.
    @Test("The picker keeps the line it started on: the question stays, the sheet opens below, the cursor goes back after it (fzf #2446)")
    func keepsTheQuestion() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let question = "Pick an account for the deploy:"
        let launcher = ["sh", "-c", "printf 'Pick an account for the deploy: '; exec \"$@\"", "sh"]
        let session = try TmuxSession(arguments: ["pick"], home: home, launcher: launcher)
        #expect(try session.waitFor("Enter pick · Esc cancel"))
        let screen = try session.screen()
        #expect(screen[1] == question, "the question is still on its line: \(screen)")
        #expect(screen[2].contains("━━━"), "the sheet opens on the row below: \(screen)")
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        let after = try session.screen()
        #expect(after[1] == question + " personal", "the id is printed where the cursor was, after the question: \(after)")
        #expect(after[2] == "EXIT=0")
        #expect(after[3...].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "the rows are cleared: \(after)")
        #expect(try session.terminalRestored())
    }

    // On the interface's loop the picker takes a stop as the interface does (it ignored SIGTSTP
    // on its own loop): the rows go and the shell's modes are back while it is stopped.
    // Bug: Ctrl-Z pressed in the picker did nothing (raw mode delivers it as a key), and what
    // was typed next went into its filter.
    @Test(
        "Stopped by SIGTSTP or by Ctrl-Z pressed in it, the picker gives the shell its screen and modes; fg takes its rows again and a pick still works",
        arguments: ["SIGTSTP", "C-z"])
    func stopAndContinue(stop: String) throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let cli = try PerchCommandLine(home: home)
        #expect(try cli.run(["switch", "personal"]).status == 0)
        let session = try TmuxSession(arguments: ["switch"], home: home, interactiveShell: true)
        #expect(try session.waitFor("Switch account"))
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "mouse on")
        if stop == "SIGTSTP" { kill(try session.perchPID(), SIGTSTP) } else { try session.send(stop) }
        #expect(try session.waitFor("Stopped"), "the shell reports the stopped job")
        #expect(try session.waitUntil { lines in !lines.contains { $0.contains("Switch account") } }, "the rows are cleared")
        // (The terminal's line modes are readline's now, at bash's prompt: not Perch's to check.)
        #expect(try session.terminalRestored(), "mouse off, cursor shown while stopped")
        try session.sendLiteral("fg")
        try session.send("Enter")
        #expect(try session.waitFor("Switch account"), "the sheet is drawn again")
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "mouse on again after the new cursor report")
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("Switched to oss"))
        #expect(try session.terminalRestored())
    }

    // Issue 21: killed by SIGUSR1 or SIGSEGV, the picker's own loop left its sheet on the shell's screen.
    @Test(
        "Ended by SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 or SIGSEGV, the picker leaves the shell's screen and terminal modes as they were",
        arguments: [SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGSEGV])
    func signalsLeaveTheScreenClean(signal: Int32) throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let before = home.appendingPathComponent("stty-before.txt").path
        // The shell's terminal modes, read on the pane's terminal just before Perch starts.
        let launcher = ["sh", "-c", "stty -a > \(TmuxSession.quote(before)); exec \"$@\"", "sh"]
        let session = try TmuxSession(arguments: ["switch"], home: home, launcher: launcher)
        #expect(try session.waitFor("Switch account"))
        #expect(try session.waitUntil { _ in (try? session.terminalModes()) == "0 1" }, "mouse on")
        let raw = try session.stty()
        #expect(raw.contains("-icanon") && raw.contains("-echo "), "raw mode while the picker is up: \(raw)")
        kill(try session.perchPID(), signal)
        #expect(try session.waitFor("EXIT=\(128 + signal)"))
        let after = try session.screen()
        // The shell's own lines: its report of a crash, then the status.
        let shell = (signal == SIGSEGV ? ["Segmentation fault"] : []) + ["EXIT=\(128 + signal)"]
        #expect(after[0] == "BEFORE")
        #expect(Array(after[1...shell.count]) == shell, "the cursor is back on the row under the prompt: \(after)")
        let below = after[(shell.count + 1)...]
        #expect(below.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "the rows are cleared: \(after)")
        #expect(try session.terminalRestored(), "mouse off, main screen, cursor shown")
        let modes = try String(contentsOfFile: before, encoding: .utf8)
        #expect(try session.stty() == modes, "the shell's terminal modes are back (stty -a)")
    }
}
