import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: the terminal's answers to Perch's queries never reach the shell, however late
/// they come, and the first frame never waits for them (issue 21; qwen-code PR #2718). The
/// release binary runs on a pseudo-terminal played by ``ScriptedTerminal``; after Perch, the
/// same terminal is read as the shell would read it.
@Suite(.serialized, .currentBinary)
struct LateReplyEndToEndTests {
    /// Shell text that keeps, in `$HOME/leftover`, whatever is left to read on the terminal
    /// (it stops after 0.5 s without input).
    static let readLeftover = "stty -icanon -echo min 0 time 5; cat > \"$HOME/leftover\""

    func leftover(_ terminal: ScriptedTerminal) throws -> String {
        try String(contentsOf: terminal.home.appendingPathComponent("leftover"), encoding: .utf8)
    }

    /// Runs `arguments` on `kind`, presses `key` once the first frame is up, and waits for the
    /// script to end (Perch, then the leftover read).
    func quitEarly(_ kind: ScriptedTerminal.Kind, _ arguments: [String], key: String, shows: String) throws -> ScriptedTerminal {
        let terminal = try ScriptedTerminal(kind: kind, arguments: arguments, then: Self.readLeftover)
        try #require(terminal.wait(timeout: 10) { $0.contains(shows) } != nil, "first frame: \(terminal.text.debugDescription)")
        terminal.send(key)
        #expect(terminal.waitForExit(timeout: 10) != nil, "ended")
        return terminal
    }

    // qwen-code PR #2718: `q` pressed 80 ms after start, the answers to the start-up queries at
    // 300 ms, and `ESC [ ? 1 u ESC [ ? 64 ; … c` was left in the tty for the shell.
    @Test("q before the terminal answered: the late answers are read by Perch, and nothing is left for the shell (qwen-code PR #2718)")
    func lateAnswersAreConsumed() throws {
        let terminal = try quitEarly(.slowKitty, ["--reduce-motion"], key: "q", shows: "Overview")
        #expect(terminal.exitStatus == 0)
        #expect(try leftover(terminal) == "", "nothing left for the shell")
    }

    @Test("The first frame is drawn before the terminal answers (a terminal answering after 300 ms)")
    func firstFrameBeforeTheAnswer() throws {
        let terminal = try ScriptedTerminal(kind: .slowKitty, arguments: ["--reduce-motion"])
        // The query follows the frame's bytes: under load the frame can be read before it is.
        #expect(terminal.wait(timeout: 10) { $0.contains("Overview") && $0.contains("Settings") && $0.contains("\u{1B}[?u") } != nil)
        let query = try #require(terminal.text.range(of: "\u{1B}[?u"), "asked")
        let frame = try #require(terminal.text.range(of: "Overview"))
        #expect(frame.lowerBound < query.lowerBound, "the frame's bytes came before the query")
        #expect(!terminal.text.contains("\u{1B}[>31u"), "no answer yet, so no flags pushed yet")
        terminal.send("\u{1B}[99;5u")
        #expect(terminal.waitForExit() == 0)
    }

    @Test("A silent terminal: Perch still quits, waiting at most about 500 ms for answers, and leaves nothing")
    func silentTerminal() throws {
        let terminal = try quitEarly(.silent, ["--reduce-motion"], key: "q", shows: "Overview")
        #expect(terminal.exitStatus == 0)
        #expect(try leftover(terminal) == "")
    }

    @Test("The inline picker, cancelled before the cursor report came: nothing is left for the shell either")
    func pickerLeavesNothing() throws {
        let terminal = try quitEarly(.slowKitty, ["pick"], key: "\u{1B}", shows: "Esc cancel")
        #expect(terminal.exitStatus == 1)
        #expect(try leftover(terminal) == "")
    }
}
