import Foundation
import Testing

/// End-to-end in a real xterm, on a white background and on a black one: Perch under Xvfb, a
/// key held with `xdotool keydown` and the mouse button held on the Overview tab, through
/// `Tests/EndToEndTests/RealTerminal/xterm_hold.py` (on the drivers beside it, `realterm.py` and
/// `screencolors.py`: while a key is down the sheet is watched for in screenshots, as reading
/// xterm's text takes a key of its own). Reported as skipped, with the reason, where xterm, Xvfb,
/// xdotool or xwd is missing (`make test-deps` installs them) or X or xterm cannot start.
@Suite(.serialized, .currentBinary)
struct RealXtermEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RealTerminal/xterm_hold.py")

    struct Outcome: Decodable {
        var mode: String?
        /// Milliseconds from the key or button going down to the first frame with the sheet,
        /// per try (nil: the sheet did not open within 3 s).
        var key: [Double?]
        var mouse: [Double?]
        var tapOpenedSheet: Bool?
    }

    @Test(
        "In a real xterm, a held 1 opens the sheet at X's first auto-repeat, a held mouse button after 500 ms, a tap does not",
        arguments: [RealTerminalContrastEndToEndTests.setups[0], RealTerminalContrastEndToEndTests.setups[1]])
    func holdInXterm(_ setup: RealTerminalContrastEndToEndTests.Setup) throws {
        if let missing = RealTerminalContrastEndToEndTests.missing("xterm") { try Test.cancel("skipped: \(missing)") }
        var argv = ["python3", Self.script.path, TmuxSession.binary, "--tries", "3"]
        if let background = setup.background { argv += ["--background", background] }
        if let foreground = setup.foreground { argv += ["--foreground", foreground] }
        let result = try Spawn.run(argv)
        if result.status == 77 { try Test.cancel("skipped: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        try #require(result.status == 0, "xterm_hold.py failed: \(result.stderr)")
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(result.stdout.utf8))
        print("hold to sheet in \(setup), ms: key \(outcome.key), mouse \(outcome.mouse)")
        // xterm reports no key releases: the hold is found from X's auto-repeat.
        #expect(outcome.mode == "from auto-repeat (no release events)", "Settings: \(outcome.mode ?? "nothing")")
        #expect(outcome.key.count == 3 && outcome.key.allSatisfy { $0 != nil }, "held 1: \(outcome.key)")
        #expect(outcome.mouse.count == 3 && outcome.mouse.allSatisfy { $0 != nil }, "held button: \(outcome.mouse)")
        // Never early: the button's hold fires at 500 ms after the press; the key's at the first
        // repeat, which X sends 660 ms after the key went down.
        #expect(outcome.mouse.allSatisfy { ($0 ?? 0) >= 500 }, "held button: \(outcome.mouse)")
        #expect(outcome.key.allSatisfy { ($0 ?? 0) >= 600 }, "held 1, from the first repeat: \(outcome.key)")
        #expect(outcome.tapOpenedSheet == false, "a quick 1 is a tap")
    }
}
