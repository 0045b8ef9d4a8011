import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch HOME owned by a user made for the test, where ssh finds its `~/.ssh` (through the
/// password database), a real sshd on 127.0.0.1 letting in `git` with one forced greeting per
/// key, and Perch run as that user. `stop()` ends every process it started (by PID) and removes
/// the users, on every way out of the test.
final class SSHLab {
    let cli: PerchCommandLine
    let serverFolder: URL
    var user: TestUser?
    var gitUser: TestUser?
    /// The binary under test, copied where the user can run it (``TestUser/binaryCopy(in:)``).
    var binary = TmuxSession.binary
    var server: SSHServer?
    var silent: SilentListener?
    var agent: pid_t = 0
    var home: String { cli.home.path }
    var agentSocket: String { home + "/agent.sock" }

    /// The greeting of each key's account, as authorized_keys forces it.
    static let greetings: [(key: String, greeting: String, toStderr: Bool)] = [
        ("work", "Hi ada-work! You've successfully authenticated, but GitHub does not provide shell access.", true),
        ("home", "Hi ada-home! You've successfully authenticated, but GitHub does not provide shell access.", true),
        ("lab", "Welcome to GitLab, @ada-lab!", false),
        ("odd", "Greetings from the forge: ada-odd", true),
    ]

    static let accounts = #"""
        {"accounts": [
          {"id": "work", "name": "Work", "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_work"}, "expect": {"ssh": "ada-work"}},
          {"id": "home", "name": "Home", "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_home"}, "expect": {"ssh": "ada-home"}},
          {"id": "lab", "name": "Lab", "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_lab"}},
          {"id": "odd", "name": "Odd", "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_odd"}, "expect": {"ssh": "ada-odd"}},
          {"id": "silent", "name": "Silent", "ssh": {"host": "silent", "identityFile": "~/.ssh/id_work"}, "expect": {"ssh": "ada-work"}},
          {"id": "new", "name": "New", "ssh": {"host": "newserver", "identityFile": "~/.ssh/id_work"}, "expect": {"ssh": "ada-work"}}
        ]}
        """#

    init() throws {
        cli = try PerchCommandLine()
        serverFolder = try TmuxSession.makeScratchHome()
    }

    /// Makes the users, the keys, the user's ssh config and the config, starts sshd and the
    /// silent listener. Throws `TestUser.Failure` with the reason when users cannot be made.
    func start() throws {
        if let reason = TestUser.cannotCreate { throw TestUser.Failure(reason) }
        let ssh = home + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        var authorized = ""
        for entry in Self.greetings {
            let key = ssh + "/id_" + entry.key
            let made = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", entry.key, "-f", key])
            try #require(made.status == 0, "ssh-keygen: \(made.stderr)")
            authorized += SSHServer.forcedGreeting(entry.greeting, toStderr: entry.toStderr, key: Loopback.text(key + ".pub"))
        }
        gitUser = try TestUser.create("git", home: serverFolder.path)
        user = try TestUser.create(TestUser.freshName(), home: home)
        let server = try SSHServer.start(in: serverFolder.path, login: "git", authorizedKeys: authorized)
        self.server = server
        let silent = try SilentListener.start(in: serverFolder.path)
        self.silent = silent
        try Loopback.write(server.knownHostsLine, to: ssh + "/known_hosts_test")
        try Loopback.write(
            """
            Host gitserver
              HostName 127.0.0.1
              Port \(server.port)
              UserKnownHostsFile ~/.ssh/known_hosts_test
            Host newserver
              HostName 127.0.0.1
              Port \(server.port)
              UserKnownHostsFile ~/.ssh/known_hosts_new
            Host silent
              HostName 127.0.0.1
              Port \(silent.port)
              UserKnownHostsFile ~/.ssh/known_hosts_test

            """, to: ssh + "/config")
        try cli.writeConfig(Self.accounts)
        binary = try TestUser.binaryCopy(in: home)
        try user!.own(home)
        let setup = try perch(["setup", "ssh", "--yes"])
        try #require(setup.status == 0, "perch setup ssh: \(setup.stdout)\(setup.stderr)")
    }

    /// The environment of the user's programs: the scratch HOME and XDG folders, and a PATH
    /// the user can read (root's own folders are closed to it).
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = cli.environment
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        environment["USER"] = user?.name ?? ""
        environment["LOGNAME"] = user?.name ?? ""
        environment.merge(extra) { $1 }
        return environment
    }

    /// `argv` run as the user in its HOME.
    func runAsUser(_ argv: [String], extra: [String: String] = [:]) throws -> Spawn.Result {
        let user = try #require(user)
        let script = "cd \"$HOME\" && exec \"$@\""
        return try Spawn.run(user.command(["/bin/sh", "-c", script, "sh"] + argv), environment: environment(extra))
    }

    /// `perch arguments` run as the user.
    func perch(_ arguments: [String], extra: [String: String] = [:]) throws -> Spawn.Result {
        try runAsUser([binary] + arguments, extra: extra)
    }

    /// `ssh -T git@HOST` as the user, as a person would test the connection: what the server said.
    func greeting(_ host: String, extra: [String: String] = [:]) throws -> String {
        let result = try runAsUser(
            ["ssh", "-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "git@" + host], extra: extra)
        return result.stdout + result.stderr
    }

    /// Starts an ssh-agent as the user on ``agentSocket`` (its PID is the agent's: setpriv
    /// execs it) and waits for the socket.
    func startAgent() throws {
        let user = try #require(user)
        agent = try Spawn.start(
            user.command(["/usr/bin/ssh-agent", "-D", "-a", agentSocket]), environment: environment(),
            stdout: serverFolder.path + "/agent.log", stderr: serverFolder.path + "/agent.log")
        try #require(
            TmuxSession.eventually(timeout: 10) { access(agentSocket, F_OK) == 0 || !Loopback.running(agent) }
                && access(agentSocket, F_OK) == 0, "ssh-agent did not start: \(Loopback.text(serverFolder.path + "/agent.log"))")
    }

    /// Every path under HOME.
    func fileList() -> [String] {
        (FileManager.default.subpaths(atPath: home) ?? []).sorted()
    }

    /// Stops what was started and removes the users and folders; safe to call after a partial start.
    func stop() {
        if agent > 0 { Loopback.stop(agent) }
        silent?.stop()
        server?.stop()
        user?.remove()
        gitUser?.remove()
        cli.remove()
        try? FileManager.default.removeItem(at: serverFolder)
    }
}

/// A scratch HOME for Perch run as root (git and aws read `$HOME`), with git's system config
/// off and the kube and gcloud folders scratch too.
private func scratchCommandLine(_ config: String, extra: [String: String] = [:]) throws -> PerchCommandLine {
    var cli = try PerchCommandLine()
    cli.extraEnvironment = [
        "GIT_CONFIG_NOSYSTEM": "1", "KUBECONFIG": cli.home.appendingPathComponent("kubeconfig").path,
        "CLOUDSDK_CONFIG": cli.home.appendingPathComponent("gcloud").path, "GH_CONFIG_DIR": cli.home.appendingPathComponent("gh").path,
        "SHELL": "/bin/bash",
    ].merging(extra) { $1 }
    try cli.writeConfig(config)
    return cli
}

/// `perch arguments` in `folder`, with `extra` variables.
private func perch(_ cli: PerchCommandLine, _ arguments: [String], in folder: String? = nil, extra: [String: String] = [:]) throws
    -> Spawn.Result
{
    var environment = cli.environment
    environment.merge(extra) { $1 }
    let quoted = ([TmuxSession.binary] + arguments).map(TmuxSession.quote).joined(separator: " ")
    return try Spawn.run(["sh", "-c", "cd \(TmuxSession.quote(folder ?? cli.home.path)) && exec \(quoted)"], environment: environment)
}

/// `script` run by bash (no rc files) in the scratch environment with perch on its PATH; its
/// output is the transcript a person would see, each command echoed after `$ ` (`set -x`).
private func bashTranscript(_ cli: PerchCommandLine, _ script: String, extra: [String: String] = [:]) throws -> Spawn.Result {
    var environment = cli.environment
    environment.merge(extra) { $1 }
    environment["PATH"] = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    // bash takes no PS4 from the environment when run as root: it is set in the script.
    return try Spawn.run(
        ["bash", "--norc", "--noprofile", "-c", "cd \"$HOME\"; exec 2>&1; PS4='$ '; set -x\n" + script], environment: environment)
}

/// The line of `output` starting with `mark` and `tool` (`✗ ssh gitserver (server)`), and the
/// `fix:` line that follows it, if any.
private func answerLine(_ output: String, _ mark: String, _ tool: String) -> (line: String, fix: String?)? {
    let lines = output.split(separator: "\n").map(String.init)
    // The tool's column is padded and followed by two spaces: `ssh gitserver` is not `ssh gitserver (server)`.
    guard let index = lines.firstIndex(where: { $0.hasPrefix("  \(mark) \(tool)  ") }) else { return nil }
    let fix = lines[(index + 1)...].prefix { $0.hasPrefix("      ") }.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("fix: ") }
    return (lines[index], fix.map { String($0.trimmingCharacters(in: .whitespaces).dropFirst(5)) })
}

/// Issue: `perch verify [ID] [--online]` end to end, with real programs on loopback only: a
/// real sshd greeting each key's account as GitHub and GitLab do, the real aws CLI against
/// moto's server, real git in a scratch HOME.
@Suite("perch verify end to end", .serialized, .currentBinary)
struct VerifyEndToEndTests {
    static let sshMissing = Loopback.missing([SSHServer.program, "ssh", "ssh-keygen", "ssh-agent", "ssh-add"])

    /// Makes and starts an ``SSHLab``, or cancels the test (reported as skipped) with the reason.
    func startLab() throws -> SSHLab {
        let lab = try SSHLab()
        do {
            try lab.start()
        } catch let failure as TestUser.Failure {
            lab.stop()
            try Test.cancel("skipped: \(failure.description)")
        } catch {
            lab.stop()
            throw error
        }
        return lab
    }

    @Test(
        "ssh: the server greets the account whose key ssh offers; verify follows switch, exec and the agent, and a mismatch's fix puts it right",
        .enabled(if: sshMissing == nil, "\(sshMissing ?? "")"), .enabled(if: TestUser.cannotCreate == nil, "\(TestUser.cannotCreate ?? "")")
    )
    func sshAgainstRealServer() throws {
        let lab = try startLab()
        defer { lab.stop() }
        #expect(try lab.perch(["switch", "work"]).status == 0)
        // The server itself, asked as a person would: the key Perch set is ada-work's.
        #expect(try lab.greeting("gitserver").contains("Hi ada-work!"))
        let work = try lab.perch(["verify", "--online"])
        #expect(work.status == 0, "\(work.stdout)\(work.stderr)")
        #expect(work.stdout.contains("Verifying work: Work (the global account)"), "\(work.stdout)")
        #expect(answerLine(work.stdout, "✓", "ssh gitserver (server)")?.line.hasSuffix(" ada-work (GitHub)") == true, "\(work.stdout)")
        #expect(
            answerLine(work.stdout, "✓", "ssh gitserver")?.line.contains("~/.ssh/id_work, IdentitiesOnly yes") == true, "\(work.stdout)")

        #expect(try lab.perch(["switch", "home"]).status == 0)
        let home = try lab.perch(["verify", "--online"])
        #expect(home.status == 0, "\(home.stdout)\(home.stderr)")
        #expect(answerLine(home.stdout, "✓", "ssh gitserver (server)")?.line.hasSuffix(" ada-home (GitHub)") == true, "\(home.stdout)")

        // The mismatch: work asked for while home is the global account.
        let mismatch = try lab.perch(["verify", "work", "--online"])
        #expect(mismatch.status == 3, "\(mismatch.stdout)\(mismatch.stderr)")
        let server = answerLine(mismatch.stdout, "✗", "ssh gitserver (server)")
        #expect(server?.line.contains("expected ada-work; says ada-home (GitHub)") == true, "\(mismatch.stdout)")
        #expect(mismatch.stdout.contains("the server knows the key ssh offers as ada-home, not ada-work"), "\(mismatch.stdout)")
        #expect(server?.fix?.hasPrefix("perch switch work if the ssh line above is ✗") == true, "a fix is named: \(mismatch.stdout)")
        let local = try #require(answerLine(mismatch.stdout, "✗", "ssh gitserver"), "\(mismatch.stdout)")
        let fix = try #require(local.fix, "\(mismatch.stdout)")
        #expect(fix == "perch switch work")
        // The fix as printed, run as printed.
        let words = fix.split(separator: " ").map(String.init)
        try #require(words.first == "perch")
        let fixed = try lab.perch(Array(words.dropFirst()))
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        let after = try lab.perch(["verify", "work", "--online"])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(answerLine(after.stdout, "✓", "ssh gitserver (server)")?.line.hasSuffix(" ada-work (GitHub)") == true, "\(after.stdout)")
        print(
            "ssh mismatch transcript:\n$ perch verify work --online\n\(mismatch.stdout)\(mismatch.stderr)[exit \(mismatch.status)]\n$ \(fix)\n\(fixed.stdout)$ perch verify work --online\n\(after.stdout)[exit \(after.status)]"
        )

        // perch exec: the process's account, while the global one is home.
        #expect(try lab.perch(["switch", "home"]).status == 0)
        let exec = try lab.perch(["exec", "work", "--", lab.binary, "verify", "--online"])
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")
        #expect(exec.stdout.contains("Verifying work: Work (given by perch exec)"), "\(exec.stdout)")
        #expect(answerLine(exec.stdout, "✓", "ssh gitserver (server)")?.line.hasSuffix(" ada-work (GitHub)") == true, "\(exec.stdout)")
        #expect(try lab.perch(["current", "--field", "id"]).stdout == "home\n", "the global account is still home")

        // An agent holding home's key, first: IdentitiesOnly (Perch's include sets it) keeps it out.
        #expect(try lab.perch(["switch", "work"]).status == 0)
        try lab.startAgent()
        let agent = ["SSH_AUTH_SOCK": lab.agentSocket]
        #expect(try lab.runAsUser(["ssh-add", lab.home + "/.ssh/id_home"], extra: agent).status == 0)
        #expect(try lab.runAsUser(["ssh-add", "-l"], extra: agent).stdout.contains(" home (ED25519)"))
        let withAgent = try lab.perch(["verify", "--online"], extra: agent)
        #expect(withAgent.status == 0, "\(withAgent.stdout)\(withAgent.stderr)")
        #expect(
            answerLine(withAgent.stdout, "✓", "ssh gitserver (server)")?.line.hasSuffix(" ada-work (GitHub)") == true, "\(withAgent.stdout)"
        )
        #expect(try lab.greeting("gitserver", extra: agent).contains("Hi ada-work!"))

        // IdentitiesOnly no in the user's own block, below Perch's include: ssh takes the first
        // value it reads (ssh_config(5)), Perch's yes, so nothing changes, and verify says so.
        let config = lab.home + "/.ssh/config"
        let original = Loopback.text(config)
        try Loopback.write(original.replacingOccurrences(of: "Host gitserver\n", with: "Host gitserver\n  IdentitiesOnly no\n"), to: config)
        let below = try lab.perch(["verify", "--online"], extra: agent)
        #expect(below.status == 0, "\(below.stdout)")
        #expect(try lab.greeting("gitserver", extra: agent).contains("Hi ada-work!"))

        // Above the include it wins: ssh offers the agent's key first, the server greets ada-home.
        try Loopback.write("Host gitserver\n  IdentitiesOnly no\n" + original, to: config)
        #expect(try lab.greeting("gitserver", extra: agent).contains("Hi ada-home!"), "the real ssh offers the agent's key first")
        let above = try lab.perch(["verify", "--online"], extra: agent)
        #expect(above.status == 3, "\(above.stdout)\(above.stderr)")
        let offered = answerLine(above.stdout, "✗", "ssh gitserver")
        #expect(
            offered?.line.contains("IdentitiesOnly no") == true && offered?.line.contains("the agent offers key home first") == true,
            "\(above.stdout)")
        #expect(above.stdout.contains("IdentitiesOnly is off, so the agent's key home is offered before ~/.ssh/id_work"), "\(above.stdout)")
        #expect(answerLine(above.stdout, "✗", "ssh gitserver (server)")?.line.contains("says ada-home (GitHub)") == true, "\(above.stdout)")
    }

    @Test(
        "ssh: a silent server with --timeout 500 and an unknown host key give – and exit 0, writing no file; a greeting with nothing expected or in an unknown form is shown, not judged",
        .enabled(if: sshMissing == nil, "\(sshMissing ?? "")"), .enabled(if: TestUser.cannotCreate == nil, "\(TestUser.cannotCreate ?? "")")
    )
    func sshBadInput() throws {
        let lab = try startLab()
        defer { lab.stop() }
        #expect(try lab.perch(["switch", "silent"]).status == 0)
        let start = Date()
        let silent = try lab.perch(["verify", "--online", "--timeout", "500"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(silent.status == 0, "\(silent.stdout)\(silent.stderr)")
        #expect(elapsed < 5, "ended within a bounded time: \(elapsed) s")
        #expect(answerLine(silent.stdout, "–", "ssh silent (server)")?.line.contains("no answer in time") == true, "\(silent.stdout)")
        #expect(!silent.stdout.contains("✗"), "\(silent.stdout)")

        #expect(try lab.perch(["switch", "new"]).status == 0)
        let before = lab.fileList()
        let unknown = try lab.perch(["verify", "--online"])
        #expect(unknown.status == 0, "\(unknown.stdout)\(unknown.stderr)")
        #expect(
            answerLine(unknown.stdout, "–", "ssh newserver (server)")?.line.contains("the host key of newserver is not known here") == true,
            "\(unknown.stdout)")
        #expect(lab.fileList() == before, "no known_hosts or other file written")
        #expect(!before.contains(".ssh/known_hosts_new") && !before.contains(".ssh/known_hosts"))

        #expect(try lab.perch(["switch", "lab"]).status == 0)
        let lab1 = try lab.perch(["verify", "--online"])
        #expect(lab1.status == 0, "\(lab1.stdout)\(lab1.stderr)")
        #expect(
            answerLine(lab1.stdout, "–", "ssh gitserver (server)")?.line.hasSuffix(
                " ada-lab (GitLab)  (nothing expected: shown, not judged)")
                == true, "\(lab1.stdout)")

        #expect(try lab.perch(["switch", "odd"]).status == 0)
        let odd = try lab.perch(["verify", "--online"])
        #expect(odd.status == 0, "\(odd.stdout)\(odd.stderr)")
        #expect(
            answerLine(odd.stdout, "–", "ssh gitserver (server)")?.line.hasSuffix(
                " Greetings from the forge: ada-odd  (a greeting in a form Perch does not know)") == true, "\(odd.stdout)")
    }

    @Test(
        "aws: against moto's server, a shell on the wrong profile disagrees (exit 3) until perch env's AWS_PROFILE; each profile's account is asked",
        .enabled(if: MotoServer.missing == nil, "\(MotoServer.missing ?? "")"))
    func awsAgainstMoto() throws {
        let folder = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: folder) }
        let moto = try MotoServer.start(in: folder.path)
        defer { moto.stop() }
        let cli = try scratchCommandLine(
            #"""
            {"accounts": [
              {"id": "work", "name": "Work", "aws": "work-admin", "expect": {"aws": "123456789012"}},
              {"id": "home", "name": "Home", "aws": "home", "expect": {"aws": "210987654321"}},
              {"id": "audit", "name": "Audit", "aws": "home", "expect": {"aws": "123456789012"}}
            ]}
            """#,
            extra: [
                "AWS_CONFIG_FILE": folder.path + "/aws-config", "AWS_SHARED_CREDENTIALS_FILE": folder.path + "/aws-credentials",
                "AWS_EC2_METADATA_DISABLED": "true",
            ])
        defer { cli.remove() }
        let profile = { (name: String) in "[profile \(name)]\nregion = us-east-1\nendpoint_url = \(moto.endpoint)\n" }
        try Loopback.write(profile("boot") + profile("work-admin") + profile("home"), to: folder.path + "/aws-config")
        try Loopback.write(
            "[boot]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = boot\n", to: folder.path + "/aws-credentials",
            mode: 0o600)
        func aws(_ arguments: [String]) throws -> [String] {
            let result = try Spawn.run(["aws", "--profile", "boot", "--output", "text"] + arguments, environment: cli.environment)
            try #require(result.status == 0, "aws \(arguments): \(result.stderr)")
            return result.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).map(String.init)
        }
        // work-admin: an IAM user's key in moto's default account; home: a role's session in another.
        _ = try aws(["iam", "create-user", "--user-name", "ada-work"])
        let key = try aws(["iam", "create-access-key", "--user-name", "ada-work", "--query", "AccessKey.[AccessKeyId,SecretAccessKey]"])
        let role = try aws([
            "sts", "assume-role", "--role-arn", "arn:aws:iam::210987654321:role/home", "--role-session-name", "ada-home", "--query",
            "Credentials.[AccessKeyId,SecretAccessKey,SessionToken]",
        ])
        try #require(key.count == 2 && role.count == 3)
        try Loopback.write(
            Loopback.text(folder.path + "/aws-credentials")
                + "[work-admin]\naws_access_key_id = \(key[0])\naws_secret_access_key = \(key[1])\n"
                + "[home]\naws_access_key_id = \(role[0])\naws_secret_access_key = \(role[1])\naws_session_token = \(role[2])\n",
            to: folder.path + "/aws-credentials", mode: 0o600)

        let wrong = try perch(cli, ["verify", "work", "--online"], extra: ["AWS_PROFILE": "home"])
        #expect(wrong.status == 3, "\(wrong.stdout)\(wrong.stderr)")
        let local = answerLine(wrong.stdout, "✗", "aws")
        #expect(local?.line.contains("expected work-admin; says home (env") == true, "\(wrong.stdout)")
        #expect(local?.fix?.hasPrefix("eval \"$(perch env work)\"") == true, "\(wrong.stdout)")
        // The server is asked as aws runs in this shell (AWS_PROFILE=home): it answers for home's
        // credentials, which is not the account work expects. (It asked with work's --profile
        // before, and said ✓ for credentials this shell's aws would not use.)
        #expect(
            answerLine(wrong.stdout, "✗", "aws (server)")?.line.contains("expected 123456789012; says account 210987654321") == true,
            "\(wrong.stdout)")

        // The fix, in a shell: perch env's AWS_PROFILE (what eval "$(perch env work)" sets).
        let transcript = try bashTranscript(
            cli,
            "export AWS_PROFILE=home\nperch verify work --online\necho \"[exit $?]\"\neval \"$(perch env work --shell bash)\"\nperch verify work --online\necho \"[exit $?]\""
        )
        let parts = transcript.stdout.components(separatedBy: "$ eval ")
        #expect(parts.count == 2, "\(transcript.stdout)")
        #expect(parts.first.map { answerLine($0, "✗", "aws") != nil && $0.contains("[exit 3]") } == true, "\(transcript.stdout)")
        #expect(parts.last.map { answerLine($0, "✓", "aws")?.line.contains("work-admin (env") == true } == true, "\(transcript.stdout)")
        #expect(transcript.stdout.hasSuffix("[exit 0]\n"), "\(transcript.stdout)")
        print("aws mismatch transcript:\n\(transcript.stdout)")

        // Another profile, another account; and an account expecting another than its profile's.
        let home = try perch(cli, ["verify", "home", "--online"], extra: ["AWS_PROFILE": "home"])
        #expect(home.status == 0, "\(home.stdout)\(home.stderr)")
        #expect(
            answerLine(home.stdout, "✓", "aws (server)")?.line.contains(
                "account 210987654321, arn:aws:sts::210987654321:assumed-role/home/ada-home") == true, "\(home.stdout)")
        let audit = try perch(cli, ["verify", "audit", "--online"], extra: ["AWS_PROFILE": "home"])
        #expect(audit.status == 3, "\(audit.stdout)\(audit.stderr)")
        #expect(
            answerLine(audit.stdout, "✗", "aws (server)")?.line.contains("expected 123456789012; says account 210987654321") == true,
            "\(audit.stdout)")
        #expect(
            audit.stdout.contains("the credentials of home belong to arn:aws:sts::210987654321:assumed-role/home/ada-home"),
            "\(audit.stdout)")
    }

    static let gitConfig = #"""
        {"accounts": [
          {"id": "work", "name": "Work", "git": {"name": "Ada Lovelace", "email": "ada@work.example"}},
          {"id": "acme", "name": "Acme", "git": {"name": "Ada Lovelace", "email": "ada@acme.example"}, "remotes": ["github.com/acme/*"]}
        ]}
        """#

    @Test(
        "git: a GIT_AUTHOR_EMAIL is ✗ with fix unset GIT_AUTHOR_EMAIL; the user's includeIf is ✗ naming the file; a remote chooses its account in every URL form",
        .enabled(if: ShellEndToEndTests.installed("git")))
    func gitMismatches() throws {
        let cli = try scratchCommandLine(Self.gitConfig)
        defer { cli.remove() }
        let home = cli.home.path
        #expect(try perch(cli, ["setup", "git", "--yes"]).status == 0)
        #expect(try perch(cli, ["switch", "work"]).status == 0)
        let clean = try perch(cli, ["verify"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(answerLine(clean.stdout, "✓", "git")?.line.hasSuffix(" Ada Lovelace <ada@work.example>") == true, "\(clean.stdout)")

        let transcript = try bashTranscript(
            cli, "export GIT_AUTHOR_EMAIL=x@y\nperch verify\necho \"[exit $?]\"\nunset GIT_AUTHOR_EMAIL\nperch verify\necho \"[exit $?]\"")
        let parts = transcript.stdout.components(separatedBy: "$ unset GIT_AUTHOR_EMAIL")
        #expect(parts.count == 2, "\(transcript.stdout)")
        let wrong = parts.first ?? ""
        #expect(
            answerLine(wrong, "✗", "git")?.line.contains("expected Ada Lovelace <ada@work.example>; says Ada Lovelace <x@y>") == true,
            "\(wrong)")
        #expect(answerLine(wrong, "✗", "git")?.fix == "unset GIT_AUTHOR_EMAIL", "\(wrong)")
        #expect(wrong.contains("[exit 3]") && wrong.contains("1 answer disagrees with work"), "\(wrong)")
        #expect(
            parts.last.map { answerLine($0, "✓", "git") != nil } == true && transcript.stdout.hasSuffix("[exit 0]\n"),
            "\(transcript.stdout)")
        print("git mismatch transcript:\n\(transcript.stdout)")

        // The user's own rule for a folder, after Perch's include: it wins there by design, so
        // verify says so with its file (–, as status does), and the guard lets such a commit through.
        try Loopback.write("[user]\n\temail = ada@client.example\n", to: home + "/.gitconfig-client")
        try Loopback.write(
            Loopback.text(home + "/.gitconfig") + "[includeIf \"gitdir:~/client/\"]\n\tpath = ~/.gitconfig-client\n",
            to: home + "/.gitconfig")
        try FileManager.default.createDirectory(atPath: home + "/client/app", withIntermediateDirectories: true)
        #expect(try Spawn.run(["git", "init", "-q", home + "/client/app"], environment: cli.environment).status == 0)
        let client = try perch(cli, ["verify"], in: home + "/client/app")
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        let rule = answerLine(client.stdout, "–", "git")
        #expect(rule?.line.contains("Ada Lovelace <ada@client.example>") == true, "\(client.stdout)")
        #expect(client.stdout.contains("your own rule wins in this folder: user.email comes from ~/.gitconfig-client"), "\(client.stdout)")
        #expect(try perch(cli, ["verify"]).status == 0, "outside the folder the rule does not hold")

        // Repositories whose remote is acme's, written in every form git takes.
        let owned = [
            "https://github.com/acme/api.git", "https://github.com:443/acme/port", "ssh://git@github.com:22/acme/ssh-port.git",
            "git@GitHub.com:ACME/Mixed-Case.git", "https://ada@github.com/acme/user-no-suffix", "github.com:acme/scp-no-user",
        ]
        for (index, url) in (owned + ["git@github.com:other/api.git"]).enumerated() {
            let repo = home + "/repos/r\(index)"
            try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
            #expect(try Spawn.run(["git", "init", "-q", repo], environment: cli.environment).status == 0)
            #expect(try Spawn.run(["git", "-C", repo, "remote", "add", "origin", url], environment: cli.environment).status == 0)
            let result = try perch(cli, ["verify"], in: repo)
            if index < owned.count {
                #expect(result.stdout.contains("Verifying acme: Acme (chosen by remote github.com/acme/*)"), "\(url): \(result.stdout)")
                #expect(result.stdout.contains("<ada@acme.example>"), "git is judged against acme's identity: \(result.stdout)")
                // git itself follows the remote (Perch's includeIf "hasconfig:remote.*.url:" rules).
                #expect(
                    answerLine(result.stdout, "✓", "git")?.line.hasSuffix(" <ada@acme.example>") == true,
                    "git itself follows \(url): \(result.stdout)")
                #expect(result.status == 0, "\(url): \(result.stdout)\(result.stderr)")
            } else {
                #expect(result.stdout.contains("Verifying work: Work (the global account)"), "\(url): \(result.stdout)")
            }
        }
    }

    @Test(
        "git credential fill asked by verify never runs an askpass program (GIT_ASKPASS, core.askPass, SSH_ASKPASS), though git would",
        .enabled(if: ShellEndToEndTests.installed("git")))
    func credentialNeverPrompts() throws {
        let cli = try scratchCommandLine(
            #"{"accounts": [{"id": "work", "name": "Work", "gh": {"user": "ada-work"}, "git": {"email": "ada@work.example"}}]}"#)
        defer { cli.remove() }
        let home = cli.home.path
        let marker = home + "/askpass-ran"
        for name in ["askpass-env", "askpass-config", "askpass-ssh"] {
            writeExecutable("#!/bin/sh\necho \"\(name) $*\" >> \(marker)\necho secret\n", to: home + "/" + name)
        }
        // A helper that has nothing stored: git then asks for a user name, by askpass or terminal.
        writeExecutable("#!/bin/sh\necho \"$1\" >> \(home)/helper-ran\n", to: home + "/helper")
        try Loopback.write(
            "[core]\n\taskPass = \(home)/askpass-config\n[credential]\n\thelper = \(home)/helper\n", to: home + "/.gitconfig")
        #expect(try perch(cli, ["setup", "git", "--yes"]).status == 0)
        // gh is named for its credential check, not switched: where gh cannot switch (not
        // installed, or before 2.40), the switch says so and --keep-going keeps git's part.
        let switched = try perch(cli, ["switch", "work", "--keep-going"])
        #expect(
            switched.status == 0 || (switched.status == 3 && switched.stderr.contains("gh failed")), "\(switched.stdout)\(switched.stderr)")
        let askpass = ["GIT_ASKPASS": home + "/askpass-env", "SSH_ASKPASS": home + "/askpass-ssh", "SSH_ASKPASS_REQUIRE": "force"]
        // git itself, asked in this environment, runs the askpass: the marker can appear.
        var environment = cli.environment
        environment.merge(askpass) { $1 }
        try Loopback.write("protocol=https\nhost=github.com\n\n", to: home + "/request")
        let direct = try Spawn.run(["git", "credential", "fill"], environment: environment, stdin: home + "/request")
        #expect(Loopback.text(marker).contains("askpass-env Username for 'https://github.com'"), "git ran the askpass: \(direct.stderr)")
        unlink(marker)
        unlink(home + "/helper-ran")

        let start = Date()
        let verify = try perch(cli, ["verify"], extra: askpass)
        #expect(Date().timeIntervalSince(start) < 10, "no prompt waited for")
        #expect(access(marker, F_OK) != 0, "an askpass ran: \(Loopback.text(marker))")
        #expect(Loopback.text(home + "/helper-ran").contains("get"), "git asked the helper: \(verify.stdout)")
        #expect(
            answerLine(verify.stdout, "–", "git https github.com")?.line.contains(
                "would prompt: no stored credential answers for https://github.com without asking on the terminal") == true,
            "\(verify.stdout)\(verify.stderr)")
        #expect(answerLine(verify.stdout, "✓", "git") != nil, "\(verify.stdout)")
        // A gh that cannot switch (before 2.40, as Debian's) is a disagreement whose fix is an
        // upgrade, never a switch that cannot work.
        let ghTooOld = answerLine(verify.stdout, "✗", "gh")?.fix == "upgrade gh to 2.40 or later"
        #expect(verify.status == 0 || (verify.status == 3 && ghTooOld), "\(verify.stdout)\(verify.stderr)")
        #expect(!verify.stdout.contains("perch switch"), "\(verify.stdout)")
    }
}
