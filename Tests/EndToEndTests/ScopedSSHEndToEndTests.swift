import Foundation
import Testing

/// "ssh itself in a scope": `perch exec work -- ssh|scp|rsync` and `ssh` typed in a shell pinned
/// with `perch use work` used the user's own config and key, not the account's; only git got
/// the key (through `GIT_SSH_COMMAND`). Asked of the real ssh (`ssh -G`), in a scratch HOME
/// whose `~/.ssh/config` is named with `-F` (ssh finds `~` through the password database).
@Suite("Scopes carry ssh: plain ssh in perch exec and perch use", .serialized, .currentBinary)
struct ScopedSSHEndToEndTests {
    static let available = ShellEndToEndTests.installed("ssh")

    /// `work` names github.com with its key and agent, `personal` github.com with its key, `plain`
    /// no ssh; the user's own `~/.ssh/config` offers `id_own` to github.com; Perch's include is
    /// set up and `personal` is the global account.
    static func home() throws -> ScopedHome {
        let scoped = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "ssh": {"host": ["github.com", "*.work.example"], "identityFile": "~/.ssh/id_work", "agent": "~/work agent.sock"}}"#,
                #"{"id": "personal", "name": "Personal", "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_personal"}}"#,
                #"{"id": "plain", "name": "Plain", "env": {"WHO": "plain"}}"#,
            ], contexts: ["own"], configurations: ["own"])
        let home = scoped.home
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        for key in ["id_own", "id_work", "id_personal"] {
            _ = FileManager.default.createFile(atPath: home + "/.ssh/" + key, contents: Data())
        }
        try "Host github.com\n\tIdentityFile ~/.ssh/id_own\n".write(toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        #expect(try scoped.cli.run(["setup", "ssh", "--yes"]).status == 0)
        #expect(try scoped.cli.run(["switch", "personal"]).status == 0)
        return scoped
    }

    /// The `identityfile`, `identitiesonly` and `identityagent` lines `ssh -G HOST` prints,
    /// run by `sh -c` as `prefix` leads it (the scratch HOME's config named with `-F`).
    static func resolved(_ scoped: ScopedHome, _ prefix: [String], host: String = "github.com") throws -> [String] {
        var environment = scoped.cli.environment
        environment["SHELL"] = "/bin/sh"
        let run = try Spawn.run(prefix + ["ssh", "-F", scoped.home + "/.ssh/config", "-G", host], environment: environment)
        #expect(run.status == 0, "\(prefix) ssh -G: \(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("identityfile ") || $0.hasPrefix("identitiesonly ") || $0.hasPrefix("identityagent ")
        }
    }

    @Test(
        "ssh -G in perch exec shows the account's key, IdentitiesOnly and agent for its hosts only; outside, the global account's",
        .enabled(if: available))
    func execCarriesSSH() throws {
        let scoped = try Self.home()
        defer { scoped.cli.remove() }
        let home = scoped.home
        let perch = TmuxSession.binary
        let inWork = try Self.resolved(scoped, [perch, "exec", "work", "--"])
        #expect(inWork.first { $0.hasPrefix("identityfile ") } == "identityfile \(home)/.ssh/id_work", "\(inWork)")
        #expect(inWork.contains("identitiesonly yes"), "\(inWork)")
        #expect(inWork.contains("identityagent \(home)/work agent.sock"), "\(inWork)")
        // A pattern of the account's hosts.
        let pattern = try Self.resolved(scoped, [perch, "exec", "work", "--"], host: "api.work.example")
        #expect(pattern.first { $0.hasPrefix("identityfile ") } == "identityfile \(home)/.ssh/id_work", "\(pattern)")
        // Not for a host the account does not name.
        let other = try Self.resolved(scoped, [perch, "exec", "work", "--"], host: "gitlab.com")
        #expect(!other.contains { $0.contains("id_work") }, "\(other)")
        // Outside the scope: the global account's key (Perch's include), never work's.
        let outside = try Self.resolved(scoped, [])
        // (Perch's include names the key as the config does; ssh -G prints it unexpanded.)
        #expect(outside.first { $0.hasPrefix("identityfile ") } == "identityfile ~/.ssh/id_personal", "\(outside)")
        #expect(!outside.contains { $0.contains("id_work") || $0.contains("agent.sock") }, "\(outside)")
        // An account naming no ssh: your own key; a scope made inside work's does not keep work's.
        let plain = try Self.resolved(scoped, [perch, "exec", "plain", "--"])
        #expect(plain.first { $0.hasPrefix("identityfile ") } == "identityfile ~/.ssh/id_own", "\(plain)")
        let nested = try Self.resolved(scoped, [perch, "exec", "work", "--", perch, "exec", "plain", "--"])
        #expect(nested.first { $0.hasPrefix("identityfile ") } == "identityfile ~/.ssh/id_own", "\(nested)")
        let other2 = try Self.resolved(scoped, [perch, "exec", "work", "--", perch, "exec", "personal", "--"])
        #expect(other2.first { $0.hasPrefix("identityfile ") } == "identityfile \(home)/.ssh/id_personal", "\(other2)")
        #expect(!other2.contains { $0.contains("id_work") }, "\(other2)")
    }

    @Test(
        "ssh -G in a bash pinned with perch use shows the account's key, and the global account's after perch use --global",
        .enabled(if: available))
    func pinnedShellCarriesSSH() throws {
        let scoped = try Self.home()
        defer { scoped.cli.remove() }
        let home = scoped.home
        let folder = home + "/perch-bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        symlink(TmuxSession.binary, folder + "/perch")
        var environment = scoped.cli.environment
        environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["SHELL"] = "/bin/sh"
        environment["HISTFILE"] = "/dev/null"
        let first = #"ssh -F "$HOME/.ssh/config" -G github.com | awk '$1 == "identityfile" {print "key=" $2; exit}'"#
        let script = """
            eval "$(perch shell-init bash)"
            \(first)
            perch use work
            \(first)
            ssh -F "$HOME/.ssh/config" -G github.com | grep -E '^identit(iesonly|yagent) '
            perch use --global
            \(first)
            """
        let run = try Spawn.run(["bash", "--norc", "--noprofile", "-c", script], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("key=") } == [
                "key=~/.ssh/id_personal", "key=\(home)/.ssh/id_work", "key=~/.ssh/id_personal",
            ], "\(run.stdout)\n\(run.stderr)")
        #expect(lines.contains("identitiesonly yes") && lines.contains("identityagent \(home)/work agent.sock"), "\(run.stdout)")
    }
}
