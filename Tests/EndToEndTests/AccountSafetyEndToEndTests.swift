import Foundation
import Testing

/// Ids that look like options and root in a user's home (issue 22, items 3 and 4), on the
/// real binary in a scratch home.
@Suite("Ids and ownership, end to end", .currentBinary)
struct AccountSafetyEndToEndTests {
    // fish-shell PR #10319: `config check` accepted the ids "-rf" and "--help", and completion offered them.
    @Test("config check refuses ids that begin with '-', with the JSON path and the reason (fish-shell PR #10319)")
    func optionLikeIDs() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "-rf", "name": "A"}, {"id": "--help", "name": "B"}, {"id": "ok", "name": "OK"}]}"#)
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains(#"accounts[0].id: "-rf" must not begin with '-' (it would read as an option)"#))
        #expect(check.stderr.contains(#"accounts[1].id: "--help" must not begin with '-'"#), "\(check.stderr)")
        // Completion asks `perch list`, which refuses the config too: nothing is offered.
        let script = try cli.run(["completion", "bash"]).stdout
        let scriptPath = cli.home.appendingPathComponent("perch.bash").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let complete = """
            source \(TmuxSession.quote(scriptPath)); COMP_WORDS=(\(TmuxSession.quote(TmuxSession.binary)) switch ''); COMP_CWORD=2
            _perch; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let offered = try Spawn.run(["bash", "--norc", "--noprofile", "-c", complete], environment: cli.environment)
        #expect(!offered.stdout.contains("-rf") && !offered.stdout.contains("--help"), "\(offered.stdout)")
    }

    // Issue 33: a name "-" passed config check, bash completed a bare "-", and
    // `perch switch -- -` then went to the previous account.
    @Test("config check refuses names that begin with '-' as it refuses such ids; completion offers none; switch -- - switches nothing")
    func optionLikeNames() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#)
        #expect(try cli.run(["switch", "work"]).status == 0)
        #expect(try cli.run(["switch", "home"]).status == 0)
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}, {"id": "dash", "name": "-"}, {"id": "w", "name": " -Work-"}]}"#
        )
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains(#"accounts[2].name: "-" must not begin with '-' (it would read as an option)"#), "\(check.stderr)")
        #expect(check.stderr.contains(#"accounts[3].name: " -Work-" must not begin with '-'"#), "\(check.stderr)")
        let script = try cli.run(["completion", "bash"]).stdout
        let scriptPath = cli.home.appendingPathComponent("perch.bash").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let complete = """
            source \(TmuxSession.quote(scriptPath)); COMP_WORDS=(\(TmuxSession.quote(TmuxSession.binary)) switch ''); COMP_CWORD=2
            _perch; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let offered = try Spawn.run(["bash", "--norc", "--noprofile", "-c", complete], environment: cli.environment)
        #expect(!offered.stdout.split(separator: "\n").contains { $0.hasPrefix("-") }, "\(offered.stdout)")
        let switched = try cli.run(["switch", "--", "-"])
        #expect(switched.status == 2, "the config is refused: \(switched.stderr)")
        #expect(try cli.run(["current", "--field", "id"]).status == 2)
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#)
        #expect(try cli.run(["current", "--field", "id"]).stdout == "home\n", "still on home, not back on work")
    }

    @Test("after --, an operand that begins with '-' is an operand")
    func afterDoubleDash() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#)
        let unknown = try cli.run(["switch", "--", "-rf"])
        #expect(unknown.status == 1, "an unknown account, not an unknown option: \(unknown.stderr)")
        #expect(unknown.stderr.contains("no account '-rf'"), "\(unknown.stderr)")
    }

    // opentap #637: `sudo -E perch switch work` left root-only folders in the user's home.
    @Test("root with a HOME that belongs to another user is refused with exit 2 and creates nothing (opentap #637)")
    func rootInForeignHome() throws {
        try #require(geteuid() == 0, "needs root, as the report's sudo -E")
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        #expect(chown(cli.home.path, 12345, 12345) == 0)
        for arguments in [["switch", "work"], ["current"], ["list"], ["setup", "git", "--yes"]] {
            let run = try cli.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("HOME belongs to ") && run.stderr.contains("or use sudo without -E"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home.path).isEmpty, "nothing created")
        #expect(try cli.run(["--help"]).status == 0, "help creates nothing and is not refused")
    }

    // The static release binary's glibc loaded the `systemd` source of Debian's default
    // /etc/nsswitch.conf (`passwd: files systemd`) for a uid missing from /etc/passwd, and
    // getpwuid crashed the process with SIGSEGV (exit 139) wherever Perch asked for a user's
    // home (HOME unset) or name (ownership messages).
    @Test("a uid missing from /etc/passwd, with HOME unset, gets Perch's answer and no crash (static glibc's NSS, exit 139)")
    func unknownUser() throws {
        try #require(geteuid() == 0, "needs root to run as a uid no account database knows")
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is not installed")
        let uid = 12345
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        try #require(!passwd.split(separator: "\n").contains { $0.split(separator: ":").dropFirst(2).first == "\(uid)" })
        let folder = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"]
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
        _ = try Spawn.run(["chown", "-R", "\(uid):\(uid)", folder.path])
        let asUser = [setpriv, "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", TmuxSession.binary]
        let current = try Spawn.run(asUser + ["current"], environment: environment)
        #expect(current.status == 1, "exit \(current.status): \(current.stderr)")
        #expect(current.stderr.contains("no account chosen yet"), "\(current.stderr)")
        let list = try Spawn.run(asUser + ["list"], environment: environment)
        #expect(list.status == 0, "exit \(list.status): \(list.stderr)")
        // An owner no database knows either is named by number: another unknown uid owns a
        // folder the user cannot enter.
        let owner = 54321
        try #require(!passwd.split(separator: "\n").contains { $0.split(separator: ":").dropFirst(2).first == "\(owner)" })
        let locked = folder.appendingPathComponent("state/perch")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        _ = try Spawn.run(["chown", "-R", "\(owner):\(owner)", folder.appendingPathComponent("state").path])
        chmod(folder.appendingPathComponent("state").path, 0o700)
        // A state folder of another user's is refused before anything is read or written
        // (docs/security.md, "Files Perch writes are its own"), its owner named by number.
        let switched = try Spawn.run(asUser + ["switch", "personal"], environment: environment)
        #expect(switched.status == 2, "exit \(switched.status): \(switched.stderr)")
        #expect(switched.stderr.contains("/state belongs to \(owner);"), "\(switched.stderr)")
    }

    // opentap #637: a user locked out by root-owned folders got "Permission denied" with no hint about the owner.
    @Test("a user locked out of the state folder is told its owner and the chown to run (opentap #637)")
    func lockedOutUser() throws {
        try #require(geteuid() == 0, "needs root to make the lock-out and to run as another user")
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is not installed")
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}]}"#)
        // The user's home and config are theirs; the state folder is what root left behind.
        _ = try Spawn.run(["chown", "-R", "12345:12345", cli.home.path])
        let stateFolder = cli.home.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateFolder.appendingPathComponent("perch"), withIntermediateDirectories: true)
        chmod(stateFolder.path, 0o700)
        chmod(stateFolder.appendingPathComponent("perch").path, 0o700)
        let asUser = [setpriv, "--reuid=12345", "--regid=12345", "--clear-groups", TmuxSession.binary]
        for arguments in [["current"], ["switch", "work"]] {
            let run = try Spawn.run(asUser + arguments, environment: cli.environment)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr.contains("Permission denied"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("owned by root; run: sudo chown -R 12345 \(stateFolder.path)"), "\(arguments): \(run.stderr)")
        }
    }
}
