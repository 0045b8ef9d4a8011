import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: the key-hold mode chosen from what the terminal answers, the kitty keyboard
/// protocol's flags pushed and popped, and a hold with release events firing at the long-press
/// duration. The release binary runs on a pseudo-terminal played by ``ScriptedTerminal``.
@Suite(.serialized, .currentBinary)
struct KeyHoldEndToEndTests {
    static let push = "\u{1B}[>31u"
    static let pop = "\u{1B}[<u"
    /// The Settings pane's line for each mode.
    static let releaseMode = "press and release (kitty keyboard protocol)"
    static let repeatMode = "from auto-repeat (no release events)"

    /// Starts Perch on `kind` and waits for its first frame (the tab bar).
    func started(_ kind: ScriptedTerminal.Kind, arguments: [String] = []) throws -> ScriptedTerminal {
        let terminal = try ScriptedTerminal(kind: kind, arguments: ["--reduce-motion"] + arguments)
        let shown = terminal.wait(timeout: 10) { $0.contains("Settings") && $0.contains("Overview") }
        try #require(shown != nil, "no first frame; output: \(terminal.text.debugDescription)")
        return terminal
    }

    @Test("A kitty-capable terminal: release events chosen, flags pushed once and popped on quit")
    func kittyTerminal() throws {
        let terminal = try started(.kitty)
        // The first frame does not wait for the answer; the flags are pushed when it comes.
        #expect(terminal.wait { $0.contains(Self.push) } != nil, "flags pushed")
        #expect(terminal.count(Self.push) == 1, "flags pushed once")
        #expect(terminal.count("\u{1B}[?u") == 1 && terminal.count("\u{1B}[c") == 1, "asked once")
        terminal.send("\u{1B}[52u\u{1B}[52;1:3u")  // 4, as a kitty press and release
        #expect(terminal.wait { $0.contains(Self.releaseMode) } != nil, "Settings says release events")
        terminal.send("\u{1B}[99;5u")  // Ctrl-C
        #expect(terminal.waitForExit() == 0)
        let text = terminal.text
        let pushed = try #require(text.range(of: Self.push))
        let popped = try #require(text.range(of: Self.pop, options: .backwards), "flags popped on the way out")
        #expect(pushed.upperBound <= popped.lowerBound)
    }

    @Test("A terminal that answers only CSI c: auto-repeat chosen, nothing pushed or popped")
    func primaryAttributesOnlyTerminal() throws {
        let terminal = try started(.primaryAttributesOnly)
        terminal.send("4")
        #expect(terminal.wait { $0.contains(Self.repeatMode) } != nil, "Settings says auto-repeat")
        terminal.send("q")
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.count(Self.push) == 0 && terminal.count(Self.pop) == 0, "nothing pushed or popped")
    }

    @Test("A silent terminal: start-up does not wait for it, and auto-repeat is chosen")
    func silentTerminal() throws {
        // The time to the first frame on a terminal that answers, and on one that does not.
        let answering = try started(.primaryAttributesOnly)
        let answered = ScriptedTerminal.now() - answering.started
        let silent = try started(.silent)
        let waited = ScriptedTerminal.now() - silent.started
        // A wide bound (two processes on a busy machine); the order of the bytes is checked in LateReplyEndToEndTests.
        #expect(waited - answered < 0.100 + 0.080, "the first frame did not wait for an answer (\(waited) s vs \(answered) s)")
        silent.send("4")
        #expect(silent.wait { $0.contains(Self.repeatMode) } != nil)
        #expect(silent.count(Self.push) == 0)
        silent.send("q")
        #expect(silent.waitForExit() == 0)
    }

    /// Holds `1` on the Overview tab of a kitty-capable terminal (press, repeats every 33 ms from
    /// 400 ms, release after the sheet is up) and returns the milliseconds from the press to
    /// the sheet's first frame.
    func holdToSheet(_ terminal: ScriptedTerminal) throws -> Double {
        let before = terminal.output.count
        let start = ScriptedTerminal.now()
        terminal.send("\u{1B}[49u")
        var nextRepeat = start + 0.4
        var shownAt: Double?
        while ScriptedTerminal.now() - start < 2 {
            terminal.pump(for: 0.001)
            if terminal.contains("Switch account", after: before) {
                shownAt = ScriptedTerminal.now()
                break
            }
            if ScriptedTerminal.now() >= nextRepeat {
                terminal.send("\u{1B}[49;1:2u")
                nextRepeat += 0.033
            }
        }
        terminal.send("\u{1B}[49;1:3u")
        let shown = try #require(shownAt, "the sheet opened")
        return (shown - start) * 1000
    }

    @Test("With release events a held 1 opens the sheet at the long-press duration ±5 ms, a quick one does not")
    func holdFiresAtDuration() throws {
        let terminal = try started(.kitty)
        var times: [Double] = []
        for _ in 0..<5 {
            times.append(try holdToSheet(terminal))
            terminal.send("\u{1B}[27u\u{1B}[27;1:3u")  // Esc closes the sheet
            terminal.pump(for: 0.3)
        }
        // Never early. The hold itself fires at the deadline exactly (the recogniser's tests, on
        // virtual time); here the figure includes drawing and this script reading the
        // pseudo-terminal, so it is bounded with room for a machine busy with other tests (quiet,
        // the median is 500–505 ms).
        let shown = times.map { String(format: "%.1f", $0) }.joined(separator: ", ")
        print("hold to sheet with release events: \(shown) ms")
        #expect(times.sorted()[2] >= 500 && times.sorted()[2] <= 515, "median hold to sheet, of: \(shown) ms")
        #expect(times.allSatisfy { $0 >= 500 && $0 <= 600 }, "every hold to sheet: \(shown) ms")
        // A press released at 300 ms is a tap: 2 then 1 (tab switches), and no sheet.
        let sheets = terminal.count("Switch account")
        terminal.send("\u{1B}[50u\u{1B}[50;1:3u")
        #expect(terminal.wait { $0.contains("Catalog ·") } != nil)
        terminal.send("\u{1B}[49u")
        terminal.pump(for: 0.3)
        terminal.send("\u{1B}[49;1:3u\u{1B}[51u\u{1B}[51;1:3u")  // then 3: Stats
        #expect(terminal.wait { $0.contains("Stats ·") } != nil)
        #expect(terminal.count("Switch account") == sheets, "no sheet after a press released before the deadline")
        terminal.send("\u{1B}[99;5u")
        #expect(terminal.waitForExit() == 0)
    }

    @Test("The flags are popped on suspend, pushed again on resume, and popped by the fatal-signal restore")
    func popOnEveryWayOut() throws {
        let terminal = try started(.kitty)
        // The flags are pushed once the terminal answers the query asked in passing: on a busy
        // machine a stop sent before that found nothing to pop (a flaky run of this test).
        #expect(terminal.wait { $0.contains(Self.push) } != nil, "pushed at start")
        // Perch leads its own session here, so the kernel discards the stop itself (an orphaned
        // process group): it gives the terminal back and takes it again at once.
        #expect(kill(terminal.pid, SIGTSTP) == 0)
        #expect(terminal.wait { $0.components(separatedBy: Self.push).count - 1 == 2 } != nil, "pushed again on resume")
        let text = terminal.text
        let firstPop = try #require(text.range(of: Self.pop), "popped on suspend")
        #expect(text.range(of: Self.push, options: .backwards)!.lowerBound > firstPop.lowerBound, "the pop came before the new push")
        #expect(kill(terminal.pid, SIGSEGV) == 0)
        #expect(terminal.waitForExit() == 128 + SIGSEGV)
        #expect(terminal.count(Self.pop) == 2, "popped by the emergency restore")
        let after = terminal.text
        #expect(after.range(of: Self.pop, options: .backwards)!.lowerBound > text.range(of: Self.push, options: .backwards)!.lowerBound)
    }

    // Found in a real kitty: started cold, it answered after the 100 ms the probe waits.
    @Test("A kitty terminal that answers after the probe gave up: release events are turned on when the answer comes")
    func lateAnswer() throws {
        let terminal = try started(.slowKitty)
        #expect(terminal.wait { $0.contains(Self.push) } != nil, "flags pushed when the late answer came")
        terminal.send("\u{1B}[52u\u{1B}[52;1:3u")
        #expect(terminal.wait { $0.contains(Self.releaseMode) } != nil, "Settings says release events")
        terminal.send("\u{1B}[99;5u")
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.count(Self.pop) == 1)
    }

    @Test("--key-hold repeat neither asks nor pushes on a kitty terminal; --key-hold kitty pushes without asking")
    func forcedModes() throws {
        let repeatTerminal = try started(.kitty, arguments: ["--key-hold", "repeat"])
        repeatTerminal.send("4")
        #expect(repeatTerminal.wait { $0.contains(Self.repeatMode) } != nil)
        #expect(repeatTerminal.count("\u{1B}[?u") == 0 && repeatTerminal.count(Self.push) == 0)
        repeatTerminal.send("q")
        #expect(repeatTerminal.waitForExit() == 0)
        let kittyTerminal = try started(.silent, arguments: ["--key-hold", "kitty"])
        #expect(kittyTerminal.count("\u{1B}[?u") == 0 && kittyTerminal.count(Self.push) == 1)
        kittyTerminal.send("q")
        #expect(kittyTerminal.waitForExit() == 0)
        #expect(kittyTerminal.count(Self.pop) == 1)
    }
}
