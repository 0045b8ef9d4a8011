import Foundation
import PerchTestSupport
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
        // Bug (everyday issue): doctor named these by their whole paths, where the rest says `~/…`.
        #expect(lines.contains { $0.hasPrefix("  config            ~/config/perch/accounts.json (exists, rw-r-----") }, "\(result.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("  state             ~/state/perch/state.json (absent; ~ exists and is writable)") },
            "\(result.stdout)")
        #expect(!result.stdout.contains(perch.home.path + "/"), "\(result.stdout)")
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
        #expect(saved.stdout.contains("  long-press        700 ms (saved in ~/config/perch/settings.json)"), "\(saved.stdout)")
        let flagged = try Spawn.run([TmuxSession.binary, "doctor", "--long-press-ms", "900"], environment: env)
        #expect(flagged.stdout.contains("  long-press        900 ms (--long-press-ms)"), "\(flagged.stdout)")
        try FileManager.default.removeItem(atPath: settings)
        let standard = try Spawn.run([TmuxSession.binary, "doctor"], environment: env)
        #expect(standard.stdout.contains("  long-press        500 ms (the default)"), "\(standard.stdout)")
    }

    // Bug (everyday issue): with Debian's gh 2.23 (no gh auth switch), doctor said nothing of
    // it; only status hinted, after a switch that could not work.
    @Test("perch doctor says when an account names gh and the gh on PATH has no gh auth switch, with the fix; not when it has")
    func ghTooOld() throws {
        let perch = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: perch.home) }
        try perch.writeConfig(#"{"accounts": [{"id": "work", "name": "Work", "gh": {"user": "ada-work"}}, {"id": "a", "name": "A"}]}"#)
        let bin = perch.home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        func doctor(_ gh: String) throws -> String {
            writeExecutable("#!/bin/sh\n" + gh, to: bin + "/gh")
            var env = perch.environment
            env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
            env["GH_CONFIG_DIR"] = perch.home.path + "/gh"
            let result = try Spawn.run([TmuxSession.binary, "doctor"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        // As Debian's gh 2.23 answers (gh --version; gh auth switch --help exits 1).
        let old = try doctor(
            """
            [ "$1" = "--version" ] && { echo "gh version 2.23.0 (2023-02-27 Debian 2.23.0+dfsg1-1)"; exit 0; }
            [ "$1 $2" = "auth switch" ] && { echo 'unknown command "switch" for "gh auth"' >&2; exit 1; }
            exit 0
            """)
        #expect(
            old.contains("  gh                gh 2.23.0 at ~/bin/gh (account work names gh): this gh has no gh auth switch"),
            "\(old)")
        #expect(old.contains("upgrade gh, or leave gh out of the account"), "\(old)")
        let new = try doctor(
            """
            [ "$1" = "--version" ] && { echo "gh version 2.45.0 (2024-03-04)"; exit 0; }
            [ "$1 $2 $3" = "auth switch --help" ] && { echo "Switch the active account"; exit 0; }
            exit 1
            """)
        #expect(new.contains("  gh                gh 2.45.0 at ~/bin/gh (account work names gh): has gh auth switch"), "\(new)")
        #expect(!new.contains("upgrade"), "\(new)")
    }

    @Test("perch doctor asks the real gh whether it has gh auth switch", .enabled(if: ShellEndToEndTests.installed("gh")))
    func realGh() throws {
        let perch = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: perch.home) }
        try perch.writeConfig(#"{"accounts": [{"id": "work", "name": "Work", "gh": {"user": "ada-work"}}]}"#)
        var env = perch.environment
        env["GH_CONFIG_DIR"] = perch.home.path + "/gh"
        let help = try Spawn.run(["gh", "auth", "switch", "--help"], environment: env)
        let result = try Spawn.run([TmuxSession.binary, "doctor"], environment: env)
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("  gh ") }.map(String.init) ?? ""
        #expect(line.contains(help.status == 0 ? "has gh auth switch" : "this gh has no gh auth switch"), "\(result.stdout)")
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
