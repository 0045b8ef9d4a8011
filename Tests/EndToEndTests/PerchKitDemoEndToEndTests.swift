import Foundation
import Testing

/// perchkit-demo, the example app on PerchKit alone, driven in tmux as a person would: a mouse
/// press held on its first tab, a held key, picks by key and by click.
@Suite("perchkit-demo, end to end", .serialized)
struct PerchKitDemoEndToEndTests {
    /// The demo under test: `$PERCHKIT_DEMO_BIN`, else the debug build.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["PERCHKIT_DEMO_BIN"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/perchkit-demo").path
    }

    /// Row (0-based) of the tab labels, and a column of the Colors tab, on an 80×24 pane.
    let tabRow = 23
    let colorsColumn = 17

    func started(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> TmuxSession {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "no perchkit-demo at \(Self.binary): `make test` builds it")
        let session = try TmuxSession(arguments: arguments, environment: environment, program: Self.binary)
        let shown = try session.waitUntil(timeout: 10) { lines in lines.contains { $0.contains("Colors") && $0.contains("About") } }
        let screen = try session.screen().joined(separator: "\n")
        try #require(shown, "perchkit-demo did not draw its tab bar:\n\(screen)")
        return session
    }

    /// Whether the sheet of colours is up: its title and the three colours it must offer.
    static func sheetIsUp(_ lines: [String]) -> Bool {
        let text = lines.joined(separator: "\n")
        return text.contains("Pick a colour") && ["Red", "Green", "Blue"].allSatisfy { text.contains("██ " + $0) }
    }

    /// Holds the mouse on the Colors tab until the sheet has risen and rests, fitted to its 6
    /// colours (grabber, title, 6 rows, footer: its grabber on row 15), then lets go.
    func raiseSheet(_ session: TmuxSession) throws {
        try session.mousePress(column: colorsColumn, row: tabRow)
        let atRest = try session.waitUntil { Self.sheetIsUp($0) && $0.firstIndex { $0.contains("━━━━━━") } == 24 - 9 }
        let screen = try session.screen().joined(separator: "\n")
        try #require(atRest, "no sheet at rest:\n\(screen)")
        try session.mouseRelease(column: colorsColumn, row: tabRow)
    }

    @Test("A mouse press held on the first tab raises the sheet fitted to the colours; picking Green shows it on the Colors pane")
    func holdWithMouseThenPick() throws {
        let session = try started()
        #expect(try session.waitFor("Picked: none"), "none at first")
        try session.mousePress(column: colorsColumn, row: tabRow)
        #expect(try session.waitUntil(Self.sheetIsUp), "the sheet rose while the button was still down")
        // Fitted to its 6 colours: grabber, title, 6 rows and a footer (9 rows) above the bottom.
        let fitted = try session.waitUntil { lines in lines.firstIndex { $0.contains("━━━━━━") } == 24 - 9 }
        let grabber = try session.screen().firstIndex { $0.contains("━━━━━━") }
        #expect(fitted, "the sheet comes to rest as tall as its rows: grabber on row \(String(describing: grabber))")
        try session.mouseRelease(column: colorsColumn, row: tabRow)
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("Picked: Green"), "the pick shows on the first tab's pane")
        #expect(try session.waitUntil { !Self.sheetIsUp($0) }, "the sheet closed")
        #expect(try session.waitFor("Green is colour 2"), "the pane's work came back to it")
        // c copies the name (OSC 52, which tmux takes with set-clipboard on) and says so in a
        // banner above the tab bar, which goes at the next key.
        try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        try session.sendLiteral("c")
        #expect(try session.waitFor("Copied \"Green\" to the clipboard"), "the banner")
        #expect(try session.waitUntil { _ in (try? session.tmux(["show-buffer"])) == "Green" }, "the terminal's clipboard holds the name")
        // The pick lives in the app's model, which the About tab reads too.
        try session.sendLiteral("2")
        #expect(try session.waitFor("Picked so far: Green"), "the second tab shows what the app's model holds")
        // tmux answers the kitty keyboard query's device attributes, not its flags.
        #expect(try session.waitFor("Key holds: from auto-repeat"), "the model heard no kitty answer")
        #expect(try !session.screen().contains { $0.contains("Copied") }, "the banner went at the next key")
    }

    @Test("A click on a row of the sheet picks it; a click outside closes it without a pick")
    func clickRowAndOutside() throws {
        let session = try started()
        try raiseSheet(session)
        let lines = try session.screen()
        let blueRow = try #require(lines.firstIndex { $0.contains("██ Blue") })
        try session.mousePress(column: 10, row: blueRow)
        try session.mouseRelease(column: 10, row: blueRow)
        #expect(try session.waitFor("Picked: Blue"))
        // A sheet sliding away still covers the tab bar (and swallows the pointer) until it is
        // gone, its grabber last.
        #expect(try session.waitUntil { lines in !lines.contains { $0.contains("━━━━━━") } })
        try raiseSheet(session)
        try session.mousePress(column: 10, row: 2)
        try session.mouseRelease(column: 10, row: 2)
        #expect(try session.waitUntil { !Self.sheetIsUp($0) }, "a tap outside closed the sheet")
        #expect(try session.screen().contains { $0.contains("Picked: Blue") }, "and picked nothing")
    }

    @Test("Holding the key 1 (a press, then auto-repeats) raises the sheet; q quits with status 0 and the terminal restored")
    func holdKeyThenQuit() throws {
        let session = try started()
        // A held key: the first auto-repeat after 300 ms, then one every 30 ms, until the sheet shows.
        let up = try session.holdKey("1", count: 90, until: Self.sheetIsUp)
        #expect(up, "holding 1 raised the sheet")
        try session.send("Escape")
        #expect(try session.waitUntil { !Self.sheetIsUp($0) })
        try session.send("q")
        #expect(try session.waitFor("EXIT=0"), "q quits with status 0")
        #expect(try session.terminalRestored(), "the terminal is restored")
    }

    @Test(
        "Below 20×6 the demo draws only a notice and takes no key but quitting; grown again it is as it was, a sheet showing a row from 6 rows up"
    )
    func tooSmallThenGrown() throws {
        let session = try started()
        try raiseSheet(session)
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("Picked: Green"))
        try session.resize(width: 30, height: 5)
        #expect(try session.waitFor("terminal too small"), "a notice instead of a sheet showing no row")
        #expect(try session.screen().contains { $0.contains("needs 20×6") })
        try session.sendLiteral("2")
        try session.resize(width: 30, height: 6)
        #expect(try session.waitFor("Picked: Green"), "the Colors tab as it was: the 2 typed meanwhile did nothing")
        try session.send("Enter")
        #expect(try session.waitUntil { $0.contains { $0.contains("██ Green") } }, "at 30×6 the sheet shows a row: the picked one")
        try session.send("Up")
        #expect(try session.waitUntil { $0.contains { $0.contains("██ Red") } }, "the one row scrolls with the cursor")
        try session.send("Enter")
        #expect(try session.waitFor("Picked: Red"), "and Enter picks it")
        try session.resize(width: 30, height: 5)
        #expect(try session.waitFor("terminal too small"))
        try session.send("q")
        #expect(try session.waitFor("EXIT=0"), "q quits below the minimum too")
        #expect(try session.terminalRestored())
    }

    /// Issue 48: quitting (or SIGTERM) while work ran froze the screen until the work ended, and
    /// keys typed meanwhile landed in the shell.
    @Test(
        "w starts 20 s of slow work; q, or SIGTERM, while it runs restores the terminal and ends the demo at once",
        arguments: ["q", "SIGTERM"])
    func quitWhileWorking(way: String) throws {
        let session = try started()
        try session.sendLiteral("w")
        #expect(try session.waitFor("Working…"), "the slow work started")
        let start = Date()
        if way == "q" {
            try session.sendLiteral("q")
        } else {
            #expect(kill(try session.perchPID(), SIGTERM) == 0)
        }
        let status = way == "q" ? "EXIT=0" : "EXIT=\(128 + SIGTERM)"
        #expect(try session.waitFor(status, timeout: 15), "the demo ended with \(status)")
        let took = Date().timeIntervalSince(start)
        #expect(took < 12, "ended \(took) s after \(way): not after the work's 20 s")
        #expect(try session.terminalRestored(), "the terminal is restored")
    }

    /// Issue 48: a crash restored the terminal but its reason, written while full-screen, went to
    /// the alternate screen and was lost.
    @Test("--allow-crash: ! crashes the demo; the terminal is restored and then the runtime's reason is on the screen")
    func crashShowsReason() throws {
        let help = try Spawn.run([Self.binary, "--help"])
        #expect(help.stdout.contains("--allow-crash") && help.stdout.contains("w starts 20 s of slow work"), "the help says how")
        // With TMPDIR unset, then naming a folder that does not exist: the capture is then made
        // in /tmp instead (it was lost).
        for environment in [[:], ["TMPDIR": "/nonexistent-perchkit-tmp"]] {
            let (screen, restored) = try crash(environment: environment)
            #expect(screen.contains("EXIT=\(128 + SIGILL)") || screen.contains("EXIT=\(128 + SIGTRAP)"), "a runtime trap:\n\(screen)")
            #expect(screen.contains("crashed on purpose"), "the reason is printed after the terminal is back:\n\(screen)")
            #expect(restored, "the terminal is restored")
        }
    }

    /// Starts the demo with `--allow-crash` in `environment`, presses `!` and waits for the
    /// shell's `EXIT=`: the screen then, and whether the terminal's modes are restored.
    func crash(environment: [String: String]) throws -> (screen: String, restored: Bool) {
        let session = try started(["--allow-crash"], environment: environment)
        try session.sendLiteral("!")
        _ = try session.waitUntil(timeout: 15) { lines in lines.contains { $0.hasPrefix("EXIT=") } }
        return (try session.screen().joined(separator: "\n"), try session.terminalRestored())
    }
}
