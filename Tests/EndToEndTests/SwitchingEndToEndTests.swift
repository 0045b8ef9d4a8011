import Foundation
import Testing

/// Switching in the interface beside the command line: hooks that must not touch the screen,
/// and switches made by another process that the open interface picks up.
@Suite(.serialized, .currentBinary)
struct SwitchingEndToEndTests {
    @Test("A hook run from the interface never writes to the terminal; its failure shows as a banner with its last stderr line")
    func hookInInterface() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let out = home.appendingPathComponent("hook.out").path
        // The hook tries every way onto the screen: stdout, stderr, and /dev/tty itself.
        let hook =
            #"printf '\\033[2J\\033]0;HACKED\\007SCRIBBLE'; echo SCRIBBLE-ERR >&2; echo TTY > /dev/tty; env | grep -E '^PERCH_(ACCOUNT|PREVIOUS)' | sort > \"$OUT\"; echo remote rejected >&2; exit 5"#
        try TmuxSession.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "oss", "name": "Open Source", "onSwitch": "\#(hook)"}]}"#, home: home)
        chmod(home.appendingPathComponent("config/perch/accounts.json").path, 0o600)
        let session = try TmuxSession.started(environment: ["OUT": out], home: home)
        let titleBefore = try session.tmux(["display", "-p", "#{pane_title}"])
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Down")
        // The banner comes from the hook's end: whatever it wrote has been written by now.
        try session.expectAfter("Enter", shows: "onSwitch hook for Open Source exited with status 5: remote rejected")
        #expect(try session.waitUntil { $0.contains { $0.contains("Overview") && $0.contains("Settings") } }, "the frame is drawn whole")
        let screen = try session.screen()
        #expect(
            !screen.contains { $0.contains("SCRIBBLE") || $0.contains("TTY") },
            "hook output reached the screen:\n\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("Overview") && $0.contains("Settings") }, "the tab bar is intact")
        #expect(screen.contains { $0.contains("● Open Source") }, "the switch stands")
        #expect(try session.tmux(["display", "-p", "#{pane_title}"]) == titleBefore, "the window title is unchanged")
        let environment = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            environment == "PERCH_ACCOUNT_HANDLE=\nPERCH_ACCOUNT_ID=oss\nPERCH_ACCOUNT_NAME=Open Source\nPERCH_PREVIOUS_ID=\n",
            "\(environment)")
        try session.expectAfter("q", shows: "EXIT=0")
    }

    @Test("The interface stays responsive while a slow hook runs")
    func slowHookDoesNotBlock() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(
            #"{"accounts": [{"id": "a", "name": "Alpha", "onSwitch": "sleep 3"}, {"id": "b", "name": "Beta"}]}"#, home: home)
        chmod(home.appendingPathComponent("config/perch/accounts.json").path, 0o600)
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Enter")
        // Tabs answer at once although the hook sleeps for 3 s.
        try session.expectAfter("2", shows: "Catalog ·", timeout: 2.5)
        try session.expectAfter("4", shows: "Long-press duration", timeout: 2.5)
        try session.expectAfter("q", shows: "EXIT=0", timeout: 2.5)
    }

    @Test("A switch made with `perch switch` while the interface is open shows up in it, with no key pressed")
    func switchFromAnotherProcess() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try TmuxSession.started(home: home)
        #expect(try session.waitFor("No account chosen yet"))
        #expect(try session.waitUntilIdle(), "idle: no polling for the state file")

        let cli = try PerchCommandLine(home: home)
        #expect(try cli.run(["switch", "oss"]).status == 0)
        #expect(try session.waitFor("● Open Source"), "the open interface shows the new current account")
        #expect(try session.waitFor("switched outside this window"))
        #expect(try cli.run(["switch", "side"]).status == 0)
        #expect(try session.waitFor("● Side Project"))
        #expect(try session.waitFor("Switches so far: 2"))
        try session.expectAfter("q", shows: "EXIT=0")
    }

    // Bug: an open interface whose config lacked an account just added elsewhere undid the switch to it.
    @Test("A switch to an account this interface's config does not know is shown, and the state file is left as it is")
    func switchToAccountUnknownHere() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}]}"#, home: home)
        let session = try TmuxSession.started(home: home)
        let cli = try PerchCommandLine(home: home)
        let newer = home.appendingPathComponent("newer.json").path
        try #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "new", "name": "New"}]}"#.write(
            toFile: newer, atomically: true, encoding: .utf8)
        #expect(try cli.run(["--config", newer, "switch", "new"]).status == 0)
        // The banner comes after the interface read the file (it only reads): nothing to wait for more.
        #expect(try session.waitFor("not in this one's config"))
        #expect(try cli.run(["--config", newer, "current", "--field", "id"]).stdout == "new\n", "the switch stands")
        let copies = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("state/perch").path)
            .filter { $0.contains("corrupt") }
        #expect(copies.isEmpty, "\(copies)")
        try session.expectAfter("q", shows: "EXIT=0")
    }

    // Bug: a hook run by `perch switch` was in a background process group: a prompt on /dev/tty stopped it until the timeout.
    @Test("A hook run by perch switch in a terminal can prompt on /dev/tty, and Ctrl-C reaches the hook, not Perch")
    func commandLineHookOwnsTheTerminal() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let out = home.appendingPathComponent("answer").path
        try TmuxSession.writeConfig(
            #"""
            {"accounts": [
              {"id": "ask", "name": "Ask", "onSwitch": "printf 'Passphrase: ' > /dev/tty; read answer < /dev/tty; echo \"got=$answer\" > \"$OUT\""},
              {"id": "slow", "name": "Slow", "onSwitch": "touch \"$HOME/hook-started\"; sleep 30"}
            ]}
            """#, home: home)
        chmod(home.appendingPathComponent("config/perch/accounts.json").path, 0o600)
        let session = try TmuxSession(arguments: ["switch", "ask"], environment: ["OUT": out], home: home, interactiveShell: true)
        #expect(try session.waitFor("Passphrase:"))
        try session.sendLiteral("hello")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "got=hello\n")

        // Perch has the terminal back: the shell's next command runs in the foreground.
        try session.sendLiteral("echo ALIVE-$((1+1))")
        try session.send("Enter")
        #expect(try session.waitFor("ALIVE-2"))

        let command =
            "env HOME=\(TmuxSession.quote(home.path)) XDG_CONFIG_HOME=\(TmuxSession.quote(home.path + "/config")) XDG_STATE_HOME=\(TmuxSession.quote(home.path + "/state")) \(TmuxSession.quote(TmuxSession.binary)) switch slow; echo STATUS=$?"
        try session.sendLiteral(command)
        try session.send("Enter")
        #expect(try session.waitFor("Switched to slow"))
        // The hook is running once it has made its file: then Ctrl-C is for it.
        let started = home.appendingPathComponent("hook-started").path
        #expect(try session.waitUntil { _ in FileManager.default.fileExists(atPath: started) }, "the hook started")
        try session.send("C-c")
        #expect(try session.waitFor("STATUS=3", timeout: 3))
        let screen = try session.screen().joined()  // the message wraps at 80 columns
        #expect(screen.contains("onSwitch hook was ended by signal"), "\(screen)")
        #expect(screen.contains("2 (Interrupt)"), "\(screen)")
        #expect(!screen.contains("crashed"), "\(screen)")
    }

    // Bug: after the state folder was removed, an open interface never saw another switch.
    @Test("An open interface keeps following the state file after its folder is removed and made again")
    func stateFolderRemoved() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try TmuxSession.started(home: home)
        let cli = try PerchCommandLine(home: home)
        #expect(try cli.run(["switch", "oss"]).status == 0)
        #expect(try session.waitFor("● Open Source"))
        let folder = home.appendingPathComponent("state/perch").path
        try FileManager.default.removeItem(atPath: folder)
        // The interface has noticed and watches again when it has made the folder anew itself.
        let remade = try TmuxSession.waitUntil(
            timeout: 5, screen: { [String(FileManager.default.fileExists(atPath: folder))] }, { $0 == ["true"] })
        #expect(remade, "the interface made the state folder again")
        #expect(try cli.run(["switch", "side"]).status == 0)
        #expect(try session.waitFor("● Side Project"))
        #expect(try cli.run(["switch", "personal"]).status == 0)
        #expect(try session.waitFor("● Personal"))
        try session.expectAfter("q", shows: "EXIT=0")
    }
}
