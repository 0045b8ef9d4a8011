import Foundation
import Testing

/// End-to-end: `perch doctor`, as a script runs it and in a terminal with a key held.
@Suite(.serialized, .currentBinary)
struct DoctorEndToEndTests {
    static let capabilities = [
        "TERM", "colours", "SGR mouse", "bracketed paste", "kitty keyboard", "key hold", "long-press", "OSC 52 clipboard",
        "UTF-8 locale", "config", "state",
    ]

    @Test("Without a terminal: every capability on its own line with how it was found, the paths with permissions, exit 0")
    func withoutTerminal() throws {
        let perch = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: perch.home) }
        try perch.writeConfig(#"{"accounts": [{"id": "a", "name": "A"}]}"#, mode: 0o640)
        var env = perch.environment
        env["TERM"] = "xterm-256color"
        let result = try Spawn.run([TmuxSession.binary, "doctor", "--long-press-ms", "700"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for name in Self.capabilities {
            #expect(lines.contains { $0.hasPrefix("  " + name + " ") }, "a line for \(name):\n\(result.stdout)")
        }
        #expect(lines.contains { $0.contains("xterm-256color (from the environment); terminfo has an entry") })
        #expect(lines.contains { $0.contains("256 (terminfo colors)") })
        #expect(lines.contains { $0.contains("not a terminal: not asked") })
        #expect(lines.contains { $0.contains("700 ms (--long-press-ms)") })
        #expect(lines.contains { $0.contains(perch.configPath) && $0.contains("rw-r-----") }, "the config's permissions")
        #expect(lines.contains { $0.contains(perch.statePath) && $0.contains("absent") })
        #expect(lines.contains { $0.contains("Key-repeat test: skipped") })
    }

    // Bug: doctor printed the default 500 ms while 700 ms was saved in Settings.
    @Test("perch doctor reports the long-press duration saved in Settings, and a flag over it")
    func savedLongPress() throws {
        let perch = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: perch.home) }
        try perch.writeConfig(#"{"accounts": [{"id": "a", "name": "A"}]}"#, mode: 0o640)
        let settings = (perch.configPath as NSString).deletingLastPathComponent + "/settings.json"
        try #"{"longPressMilliseconds": 700}"#.write(toFile: settings, atomically: true, encoding: .utf8)
        var env = perch.environment
        env["TERM"] = "xterm-256color"
        let saved = try Spawn.run([TmuxSession.binary, "doctor"], environment: env)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("  long-press        700 ms (saved in \(settings))"), "\(saved.stdout)")
        let flagged = try Spawn.run([TmuxSession.binary, "doctor", "--long-press-ms", "900"], environment: env)
        #expect(flagged.stdout.contains("  long-press        900 ms (--long-press-ms)"), "\(flagged.stdout)")
        try FileManager.default.removeItem(atPath: settings)
        let standard = try Spawn.run([TmuxSession.binary, "doctor"], environment: env)
        #expect(standard.stdout.contains("  long-press        500 ms (the default)"), "\(standard.stdout)")
    }

    @Test("In tmux, holding 1 (a press, then repeats every 33 ms from 400 ms): delay, rate and a recognised hold")
    func keyRepeatTest() throws {
        let session = try TmuxSession(width: 120, height: 30, arguments: ["doctor"])
        #expect(try session.waitFor("hold the 1 key"))
        #expect(try session.waitFor("kitty keyboard    no (answered only CSI c)"), "tmux answers only CSI c")
        try session.holdKey("1", delay: 0.4, interval: 0.033, count: 30)
        #expect(try session.waitFor("  hold "), "the test ended")
        let screen = try session.screen()
        let text = screen.joined(separator: "\n")
        #expect(screen.contains { $0.contains("repeat delay") && $0.contains("ms (press to first auto-repeat)") }, "\(text)")
        #expect(screen.contains { $0.contains("repeat rate") && $0.contains("per second") }, "\(text)")
        #expect(screen.contains { $0.contains("recognised,") && $0.contains("long-press 500 ms") }, "\(text)")
        #expect(try session.waitFor("EXIT=0"))
    }
}
