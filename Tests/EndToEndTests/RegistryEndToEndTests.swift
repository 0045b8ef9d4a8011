import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A registry file: `accounts` (JSON objects) and, when `asksEmail`, the `email` value each
/// member fills; with a comment, as maintainers write them (JSONC).
private func registryFile(_ accounts: [String], asksEmail: Bool = false) -> String {
    let values = asksEmail ? #""values": {"email": {"prompt": "Your email at Acme", "example": "ada@acme.example"}},"# + "\n  " : ""
    return "// Acme's shared accounts\n{\"version\": 1,\n  \(values)\"accounts\": [\n    " + accounts.joined(separator: ",\n    ")
        + "\n  ]}\n"
}

/// `text` as a JSON string (quotes and backslashes escaped).
private func jsonString(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// `perch registry` against a registry served by a real sshd on 127.0.0.1 (git-upload-pack over
/// ssh, a key the test makes, a login the test makes), with a second registry over `file://`:
/// what git itself then uses, the diff shown before anything changes, a connection cut in the
/// middle of a fetch, conflicts between registries and the user's own fields over theirs.
@Suite(
    "Registries over ssh: sshd-served git, failures, conflicts and overrides", .serialized, .currentBinary,
    .enabled(if: ["git", "ssh", "ssh-keygen"].allSatisfy(ShellEndToEndTests.installed), "needs git, ssh and ssh-keygen"))
struct RegistrySSHEndToEndTests {
    static let acmeV1 = registryFile(
        [
            #"{"id": "acme", "name": "Acme", "git": {"name": "Ada", "email": "${email}"}}"#,
            #"{"id": "ops", "name": "Acme ops"}"#,
        ], asksEmail: true)
    static let acmeV2 = registryFile(
        [
            #"{"id": "acme", "name": "Acme", "git": {"name": "Ada Lovelace", "email": "${email}"}}"#,
            #"{"id": "web", "name": "Acme web"}"#,
        ], asksEmail: true)

    /// A started server (the test is cancelled, with the reason, where sshd or users are
    /// missing), the acme registry on it at v1, and a home whose Perch reaches it.
    func lab() throws -> (server: RegistryServer, acme: RegistryRepository, home: RegistryHome) {
        if let reason = RegistryServer.missing { try Test.cancel("skipped: \(reason)") }
        let server = try RegistryServer()
        do {
            try server.start()
        } catch let failure as TestUser.Failure {
            server.remove()
            try Test.cancel("skipped: \(failure.description)")
        } catch {
            server.remove()
            throw error
        }
        do {
            let acme = try RegistryRepository(in: server.folder, name: "acme")
            try acme.publish(Self.acmeV1, message: "v1")
            var home = try RegistryHome()
            home.extra = server.clientEnvironment
            return (server, acme, home)
        } catch {
            server.remove()
            throw error
        }
    }

    @Test(
        "a registry fetched over ssh from a real sshd: added with --yes, git then uses its account; a new commit is shown as a per-field diff and changes nothing without --yes, then applies with it"
    )
    func sshServedRegistry() throws {
        let (server, acme, home) = try lab()
        defer {
            home.remove()
            server.remove()
        }
        let config = home.configBytes()
        let url = server.url(acme)
        let v1 = try acme.git(["rev-parse", "main"], in: acme.bare).trimmingCharacters(in: .whitespacesAndNewlines)

        // Without the value it asks for, and no terminal: exit 2, nothing fetched in use.
        let unanswered = try home.perch(["registry", "add", "acme", url, "--yes"])
        #expect(unanswered.status == 2, "\(unanswered.stdout)\(unanswered.stderr)")
        #expect(unanswered.stderr.contains("asks each member for email (Your email at Acme)"), "\(unanswered.stderr)")
        #expect(home.indexBytes() == nil && home.registryNames().isEmpty)

        // Without --yes and no terminal: shown, exit 1, nothing added.
        let shown = try home.perch(["registry", "add", "acme", url, "--set", "email=ada@acme.example"])
        #expect(shown.status == 1, "\(shown.stdout)\(shown.stderr)")
        #expect(
            shown.stdout.contains("  + acme (new account)") && shown.stdout.contains(#"      git.email: "ada@acme.example""#),
            "\(shown.stdout)")
        #expect(shown.stderr.contains("run it again with --yes"), "\(shown.stderr)")
        #expect(try home.registryNames().isEmpty && !home.ids().contains("acme"))

        let added = try home.perch(["registry", "add", "acme", url, "--set", "email=ada@acme.example", "--yes"])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(added.stdout.contains("Added registry acme at \(v1.prefix(7)): 2 accounts"), "\(added.stdout)")
        #expect(home.commit(of: "acme") == v1)
        // Fetched through sshd with the test's key, by git-upload-pack (the forced command saw it).
        #expect(server.acceptedConnections >= 3, "sshd's log: \(Loopback.text(server.server?.log ?? ""))")
        #expect(server.served.contains { $0.hasPrefix("git-upload-pack ") && $0.contains(acme.bare) }, "\(server.served)")
        #expect(try home.ids() == ["me", "acme", "ops"])
        #expect(home.configBytes() == config, "the user's accounts.json is never written")

        // git itself uses the registry's account after a switch.
        #expect(try home.author() == "Own Self <own@self.example>", "the user's own identity before any switch")
        let switched = try home.perch(["switch", "acme"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try home.author() == "Ada <ada@acme.example>")
        let status = try home.perch(["status"])
        #expect(status.stdout.contains("From: registry acme at \(v1.prefix(7)) (default branch"), "\(status.stdout)")

        // A new commit: the per-field diff, and nothing changes without --yes.
        let v2 = try acme.publish(Self.acmeV2, message: "v2")
        let before = try #require(home.indexBytes())
        let asked = try home.perch(["registry", "update"])
        #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
        let diff = [
            "Registry acme (\(url), \(v1.prefix(7)) → default branch at \(v2.prefix(7))):",
            "  ~ acme",
            #"      git.name: "Ada" → "Ada Lovelace""#,
            "  + web (new account)",
            #"      name: "Acme web""#,
            "  - ops (removed)",
        ].joined(separator: "\n")
        #expect(asked.stdout.contains(diff), "\(asked.stdout)")
        #expect(asked.stderr.contains("would apply these changes to 3 accounts; run it again with --yes"), "\(asked.stderr)")
        #expect(home.indexBytes() == before, "nothing changed without --yes")
        #expect(try home.ids() == ["me", "acme", "ops"])
        #expect(try home.author() == "Ada <ada@acme.example>")

        let applied = try home.perch(["registry", "update", "--yes"])
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
        #expect(applied.stdout.contains("Updated: acme at \(v2.prefix(7))."), "\(applied.stdout)")
        #expect(home.commit(of: "acme") == v2)
        #expect(try home.ids() == ["me", "acme", "web"])
        #expect(try home.perch(["switch", "acme"]).status == 0)
        #expect(try home.author() == "Ada Lovelace <ada@acme.example>")
        // Up to date now: said so, nothing written.
        let after = try #require(home.indexBytes())
        let again = try home.perch(["registry", "update"])
        #expect(
            again.status == 0 && again.stdout.contains("Registry acme is up to date at \(v2.prefix(7))"), "\(again.stdout)\(again.stderr)")
        #expect(home.indexBytes() == after)
        #expect(home.configBytes() == config, "the user's accounts.json is never written")
    }

    @Test(
        "the network failing mid-fetch (the ssh connection cut after the fetch began), then sshd gone: update exits 1 with Nothing changed, the index's bytes stay, the last good accounts stay in use"
    )
    func networkFailsMidFetch() throws {
        let (server, acme, home) = try lab()
        defer {
            home.remove()
            server.remove()
        }
        let url = server.url(acme)
        let added = try home.perch(["registry", "add", "acme", url, "--set", "email=ada@acme.example", "--yes"])
        try #require(added.status == 0, "\(added.stdout)\(added.stderr)")
        try acme.publish(Self.acmeV2, message: "v2")
        let index = try #require(home.indexBytes())
        let files = FileManager.default.subpaths(atPath: home.registriesFolder)?.filter { !$0.contains(".git/") && $0.hasSuffix(".json") }

        // A server that lets ssh in and then never answers: --timeout ends the wait.
        try server.holdFetches(true)
        let hung = try home.perch(["registry", "update", "--yes", "--timeout", "2"])
        #expect(hung.status == 1, "\(hung.stdout)\(hung.stderr)")
        #expect(hung.stderr.contains("Nothing changed"), "\(hung.stderr)")
        #expect(home.indexBytes() == index)
        #expect(
            waitUntil(timeout: 10) { RegistryHome.processes(mentioning: acme.bare).isEmpty },
            "git and ssh end with the update: \(RegistryHome.processes(mentioning: acme.bare))")
        #expect(server.heldPID() != nil, "the fetch was held by the server, not refused")
        server.endHeldCommand()

        // The connection is cut while git waits for the server's answer.
        let out = home.home + "/update.out"
        let err = home.home + "/update.err"
        let pid = try Spawn.start(
            [TmuxSession.binary, "registry", "update", "--yes", "--timeout", "60"], environment: home.environment, stdout: out, stderr: err)
        let killed = try? server.dropHeldConnection()
        #expect((killed?.count ?? 0) >= 2, "the held command and its sshd: \(String(describing: killed))")
        let status = try Spawn.wait(pid)
        #expect(status == 1, "\(Loopback.text(out))\(Loopback.text(err))")
        #expect(
            Loopback.text(err).contains("registry update: acme (\(url)): cannot fetch: git fetch")
                && Loopback.text(err).contains("Could not read from remote repository"), "\(Loopback.text(err))")
        #expect(Loopback.text(err).contains("Nothing changed: every registry stays as it was (acme at"), "\(Loopback.text(err))")
        #expect(!Loopback.text(out).contains("Updated"), "\(Loopback.text(out))")
        #expect(home.indexBytes() == index, "the index's bytes are unchanged")
        #expect(
            FileManager.default.subpaths(atPath: home.registriesFolder)?.filter { !$0.contains(".git/") && $0.hasSuffix(".json") } == files)
        #expect(try home.ids() == ["me", "acme", "ops"], "the last good copy stays in use")
        try server.holdFetches(false)

        // sshd gone altogether: refused at once, the same outcome.
        server.stop()
        let refused = try home.perch(["registry", "update", "--yes", "--timeout", "20"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("cannot fetch") && refused.stderr.contains("Nothing changed"), "\(refused.stderr)")
        #expect(home.indexBytes() == index)
        #expect(try home.ids() == ["me", "acme", "ops"])
        let listed = try home.perch(["registry", "list"])
        #expect(listed.status == 0 && listed.stdout.contains("acme  \(url)  default branch@"), "\(listed.stdout)\(listed.stderr)")
        // A switch needs no network: the last good copy is used.
        #expect(try home.perch(["switch", "acme"]).status == 0)
        #expect(try home.author() == "Ada <ada@acme.example>")
    }

    @Test(
        "a second registry over file:// adds its fields to an account; one setting a field differently is refused naming both registries; the user's own field wins over the registry's"
    )
    func secondRegistryConflictAndOverride() throws {
        let (server, acme, home) = try lab()
        defer {
            home.remove()
            server.remove()
        }
        #expect(try home.perch(["registry", "add", "acme", server.url(acme), "--set", "email=ada@acme.example", "--yes"]).status == 0)
        let team = try RegistryRepository(in: home.home, name: "team")
        // The same name (no conflict: the same value) and a field acme's file does not set.
        let teamV1 = try team.publish(
            registryFile([#"{"id": "acme", "name": "Acme", "color": "red"}"#, #"{"id": "team-bot", "name": "Team bot"}"#]))
        let second = try home.perch(["registry", "add", "team", team.url, "--yes"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(home.registryNames() == ["acme", "team"])
        #expect(try home.ids() == ["me", "acme", "ops", "team-bot"])

        // All or none: acme has a new commit, team cannot be fetched: neither moves.
        let acmeCommit = home.commit(of: "acme")
        try acme.publish(Self.acmeV2, message: "v2")
        let moved = team.bare + "-away"
        try FileManager.default.moveItem(atPath: team.bare, toPath: moved)
        let unchanged = try #require(home.indexBytes())
        let partial = try home.perch(["registry", "update", "--yes"])
        #expect(partial.status == 1, "\(partial.stdout)\(partial.stderr)")
        #expect(partial.stderr.contains("registry update: team (\(team.url)): cannot fetch"), "\(partial.stderr)")
        #expect(home.indexBytes() == unchanged && home.commit(of: "acme") == acmeCommit)
        #expect(try home.ids() == ["me", "acme", "ops", "team-bot"])
        try FileManager.default.moveItem(atPath: moved, toPath: team.bare)
        try acme.publish(Self.acmeV1, message: "v1 again")

        // team now sets acme's email: refused by update, naming both registries; nothing changes.
        try team.publish(
            registryFile([
                #"{"id": "acme", "name": "Acme", "color": "red", "git": {"email": "team@acme.example"}}"#,
                #"{"id": "team-bot", "name": "Team bot"}"#,
            ]))
        let index = try #require(home.indexBytes())
        let conflict = try home.perch(["registry", "update", "--yes"])
        #expect(conflict.status == 1, "\(conflict.stdout)\(conflict.stderr)")
        #expect(
            conflict.stderr.contains(
                #"registry update: conflict: account acme, field git.email: registry acme says "ada@acme.example", registry team says "team@acme.example""#
            ), "\(conflict.stderr)")
        #expect(conflict.stderr.contains("Nothing changed"), "\(conflict.stderr)")
        #expect(home.indexBytes() == index)
        #expect(home.commit(of: "team") == teamV1)

        // A third registry giving acme another name: add refuses, naming the registries, and keeps nothing of it.
        let rival = try RegistryRepository(in: home.home, name: "rival")
        try rival.publish(registryFile([#"{"id": "acme", "name": "Rival Acme"}"#]))
        let refused = try home.perch(["registry", "add", "rival", rival.url, "--yes"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains(#"conflict: account acme, field name: registry acme says "Acme", registry rival says "Rival Acme""#),
            "\(refused.stderr)")
        #expect(home.indexBytes() == index)
        #expect(!FileManager.default.fileExists(atPath: home.registriesFolder + "/rival.git"), "the failed add leaves no repository")

        // The user's own field over the registry's (a merge patch naming only that field).
        #expect(try home.perch(["switch", "acme"]).status == 0)
        #expect(try home.author() == "Ada <ada@acme.example>")
        try home.writeConfig([#"{"id": "acme", "git": {"email": "ada@mine.example"}}"#])
        let config = home.configBytes()
        #expect(try home.ids() == ["me", "acme", "ops", "team-bot"], "the override is not a second account")
        let check = try home.perch(["config", "check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let own = try home.perch(["switch", "acme"])
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
        #expect(try home.author() == "Ada <ada@mine.example>", "the user's email, the registry's name")

        // Removing the second registry takes its accounts and fields away, and leaves the user's file alone.
        let removed = try home.perch(["registry", "remove", "team", "--yes"])
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect(try home.ids() == ["me", "acme", "ops"])
        #expect(home.registryNames() == ["acme"])
        #expect(!FileManager.default.fileExists(atPath: home.registriesFolder + "/team.git"))
        #expect(home.configBytes() == config)
        #expect(try home.author() == "Ada <ada@mine.example>")
    }
}

/// `perch registry` against registries over `file://`: signed commits, code that stays inert
/// until trusted, Ctrl-C at the question and SIGKILL at any moment of an update.
@Suite(
    "Registries: signatures, trust, interruptions", .serialized, .currentBinary,
    .enabled(if: ["git", "ssh-keygen"].allSatisfy(ShellEndToEndTests.installed), "needs git and ssh-keygen"))
struct RegistryEndToEndTests {
    @Test(
        "with --allowed-signers only commits signed by a key of the file are used: a signed one is added; an unsigned one, or one signed by another key, is refused with nothing changed"
    )
    func signedAndUnsignedCommits() throws {
        let home = try RegistryHome()
        defer { home.remove() }
        let keys = home.home + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        for name in ["maintainer", "stranger"] {
            let made = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", keys + "/" + name])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let signers = keys + "/allowed_signers"
        let publicKey = Loopback.text(keys + "/maintainer.pub").split(separator: " ").prefix(2).joined(separator: " ")
        try Loopback.write("maintainer@acme.example namespaces=\"git\" \(publicKey)\n", to: signers)
        let repository = try RegistryRepository(in: home.home, name: "signed")
        func file(_ name: String) -> String { registryFile([#"{"id": "acme", "name": "\#(name)"}"#]) }

        // An unsigned commit cannot even be added.
        try repository.publish(file("Unsigned"))
        let unsignedAdd = try home.perch(["registry", "add", "acme", repository.url, "--allowed-signers", signers, "--yes"])
        #expect(unsignedAdd.status == 1, "\(unsignedAdd.stdout)\(unsignedAdd.stderr)")
        #expect(unsignedAdd.stderr.contains("is not signed by a key of \(signers)"), "\(unsignedAdd.stderr)")
        #expect(home.registryNames().isEmpty && !FileManager.default.fileExists(atPath: home.registriesFolder + "/acme.git"))

        let signed = try repository.publish(file("Signed"), signingKey: keys + "/maintainer")
        let added = try home.perch(["registry", "add", "acme", repository.url, "--allowed-signers", signers, "--yes"])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(home.commit(of: "acme") == signed)
        let list = try home.perch(["registry", "list"])
        #expect(list.stdout.contains("signed commits only"), "\(list.stdout)")
        let index = try #require(home.indexBytes())

        for (name, key) in [("Unsigned again", nil), ("Signed by a stranger", keys + "/stranger")] {
            let commit = try repository.publish(file(name), signingKey: key)
            let update = try home.perch(["registry", "update", "--yes"])
            #expect(update.status == 1, "\(name): \(update.stdout)\(update.stderr)")
            #expect(update.stderr.contains("commit \(commit.prefix(7)) is not signed by a key of \(signers)"), "\(name): \(update.stderr)")
            #expect(update.stderr.contains("Nothing changed"), "\(update.stderr)")
            #expect(home.indexBytes() == index, "\(name): the index is unchanged")
            let names = try home.perch(["list"])
            #expect(names.stdout.contains("Signed") && !names.stdout.contains(name), "\(names.stdout)")
        }

        let next = try repository.publish(file("Signed again"), signingKey: keys + "/maintainer")
        let update = try home.perch(["registry", "update", "--yes"])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains(#"name: "Signed" → "Signed again""#), "\(update.stdout)")
        #expect(home.commit(of: "acme") == next)
    }

    @Test(
        "onSwitch from a registry stays inert until trust --commit: the switch says it was left out and runs nothing; trusted, it runs; a commit changing it is inert again; --yes never trusts"
    )
    func onSwitchInertUntilTrusted() throws {
        let home = try RegistryHome()
        defer { home.remove() }
        let repository = try RegistryRepository(in: home.home, name: "acme")
        let marker = home.home + "/marker one"
        let marker2 = home.home + "/marker two"
        func file(name: String = "Acme", onSwitch: String?) -> String {
            let code = onSwitch.map { ", \"onSwitch\": " + jsonString($0) } ?? ""
            return registryFile([
                #"{"id": "acme", "name": "\#(name)", "env": {"TEAM": "core", "BASH_ENV": "/nonexistent/acme-env.sh"}\#(code)}"#
            ])
        }
        try repository.publish(file(onSwitch: nil))
        #expect(try home.perch(["registry", "add", "acme", repository.url, "--yes"]).status == 0)
        #expect(try home.perch(["registry", "list"]).stdout.contains("code inert"), "BASH_ENV is code a shell runs")

        // A commit adding onSwitch: applied with --yes, but its code stays inert.
        let v2 = try repository.publish(file(onSwitch: "touch \(TmuxSession.quote(marker))"))
        let update = try home.perch(["registry", "update", "--yes"])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(update.stdout.contains("  ~ acme  [code: inert until trusted]"), "\(update.stdout)")
        #expect(update.stdout.contains("stays inert"), "\(update.stdout)")
        #expect(try home.perch(["registry", "list"]).stdout.contains("code inert"))
        let inert = try home.perch(["switch", "acme"])
        #expect(inert.status == 0, "\(inert.stdout)\(inert.stderr)")
        #expect(inert.stderr.contains("was left out: not trusted at \(v2.prefix(7))"), "\(inert.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the onSwitch command did not run")
        let env = try home.perch(["env", "acme"])
        #expect(
            env.status == 0 && env.stdout.contains("PERCH_ACCOUNT='acme'") && !env.stdout.contains("BASH_ENV"),
            "inert env left out: \(env.stdout)\(env.stderr)")
        #expect(try home.perch(["status"]).stdout.contains("its code is inert until perch registry trust acme"))

        // --yes never trusts: not an option of trust at all.
        let yes = try home.perch(["registry", "trust", "acme", "--yes"])
        #expect(yes.status == 2, "\(yes.stdout)\(yes.stderr)")
        #expect(yes.stderr.contains("option --yes does not apply to 'perch registry trust'"), "\(yes.stderr)")
        // No terminal, no --commit: the code shown, nothing trusted.
        let shown = try home.perch(["registry", "trust", "acme"])
        #expect(shown.status == 1, "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("acme: onSwitch = "), "\(shown.stdout)")
        #expect(shown.stderr.contains("--commit \(v2)"), "\(shown.stderr)")
        let wrong = try home.perch(["registry", "trust", "acme", "--commit", "0000000"])
        #expect(wrong.status == 1 && wrong.stderr.contains("nothing trusted"), "\(wrong.stdout)\(wrong.stderr)")
        #expect(try home.perch(["registry", "list"]).stdout.contains("code inert"))

        let trusted = try home.perch(["registry", "trust", "acme", "--commit", String(v2.prefix(7))])
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        #expect(try home.perch(["registry", "list"]).stdout.contains("code trusted"))
        #expect(try home.perch(["switch", "me"]).status == 0)
        let runs = try home.perch(["switch", "acme"])
        #expect(runs.status == 0, "\(runs.stdout)\(runs.stderr)")
        #expect(!runs.stderr.contains("was left out"), "\(runs.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker), "trusted, the onSwitch command ran: \(runs.stdout)\(runs.stderr)")
        let trustedEnv = try home.perch(["env", "acme"]).stdout
        #expect(trustedEnv.contains("BASH_ENV") && trustedEnv.contains("TEAM"), "\(trustedEnv)")

        // A commit that leaves the code as it was keeps the trust.
        let v3 = try repository.publish(file(name: "Acme Inc", onSwitch: "touch \(TmuxSession.quote(marker))"))
        #expect(try home.perch(["registry", "update", "--yes"]).status == 0)
        #expect(home.commit(of: "acme") == v3)
        #expect(try home.perch(["registry", "list"]).stdout.contains("code trusted"))
        try FileManager.default.removeItem(atPath: marker)
        #expect(try home.perch(["switch", "me"]).status == 0)
        #expect(try home.perch(["switch", "acme"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: marker), "unchanged code still runs")

        // A commit that changes the code needs trust again: neither the new code nor the old runs.
        let v4 = try repository.publish(file(name: "Acme Inc", onSwitch: "touch \(TmuxSession.quote(marker2))"))
        let changed = try home.perch(["registry", "update", "--yes"])
        #expect(changed.status == 0, "\(changed.stdout)\(changed.stderr)")
        #expect(
            changed.stdout.contains(#"onSwitch: "touch"#) && changed.stdout.contains("[code: inert until trusted]"), "\(changed.stdout)")
        #expect(try home.perch(["registry", "list"]).stdout.contains("code inert"))
        try FileManager.default.removeItem(atPath: marker)
        #expect(try home.perch(["switch", "me"]).status == 0)
        let again = try home.perch(["switch", "acme"])
        #expect(again.stderr.contains("was left out: not trusted at \(v4.prefix(7))"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker2) && !FileManager.default.fileExists(atPath: marker))
        let stale = try home.perch(["registry", "trust", "acme", "--commit", v2])
        #expect(stale.status == 1, "trust names the commit in use, not one trusted before: \(stale.stdout)\(stale.stderr)")
        #expect(try home.perch(["registry", "trust", "acme", "--commit", v4]).status == 0)
        #expect(try home.perch(["switch", "me"]).status == 0)
        #expect(try home.perch(["switch", "acme"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: marker2))
    }

    /// A home with registry acme added at v1 (acme, ops) and v2 (acme renamed, web instead of
    /// ops) published: the update that follows has 3 account changes to ask about.
    func changedRegistry() throws -> (home: RegistryHome, repository: RegistryRepository, v1: String, v2: String) {
        let home = try RegistryHome()
        let repository = try RegistryRepository(in: home.home, name: "acme")
        let v1 = try repository.publish(registryFile([#"{"id": "acme", "name": "Acme"}"#, #"{"id": "ops", "name": "Acme ops"}"#]))
        let added = try home.perch(["registry", "add", "acme", repository.url, "--yes"])
        try #require(added.status == 0, "\(added.stdout)\(added.stderr)")
        let v2 = try repository.publish(registryFile([#"{"id": "acme", "name": "Acme Inc"}"#, #"{"id": "web", "name": "Acme web"}"#]))
        return (home, repository, v1, v2)
    }

    /// `perch ARGUMENTS` typed at an interactive bash in tmux, in `home`, for `body`; the session
    /// is ended after it, and the history bash writes into the home as it ends is waited for
    /// and removed, so that removing the home afterwards is final.
    func onTerminal(_ home: RegistryHome, _ arguments: [String], _ body: (TmuxSession) throws -> Void) throws {
        let history = home.home + "/.bash_history"
        let session = try TmuxSession(
            width: 120, height: 40, arguments: arguments, environment: home.environment, home: URL(fileURLWithPath: home.home),
            interactiveShell: true)
        defer {
            _ = try? session.tmux(["kill-server"])
            _ = waitUntil(timeout: 5) { access(history, F_OK) == 0 }
            unlink(history)
        }
        try body(session)
    }

    /// The `EXIT=N` the pane's shell printed, once it has (the typed command's own `EXIT=$?` is not it).
    func exitStatus(_ session: TmuxSession) throws -> Int? {
        func status(_ lines: [String]) -> Int? {
            lines.compactMap { $0.hasPrefix("EXIT=") ? Int($0.dropFirst(5).prefix { $0.isNumber }) : nil }.last
        }
        let ended = try session.waitUntil(timeout: 30) { status($0) != nil }
        let screen = try session.screen()
        try #require(ended, "perch never ended: \(screen.joined(separator: "\n"))")
        return status(screen)
    }

    @Test(
        "on a terminal: add asks for the value and for agreement (n changes nothing); Ctrl-C at update's question leaves the index's bytes and the accounts; y applies"
    )
    func controlCDuringUpdate() throws {
        // The value asked for, then n: nothing added.
        let home = try RegistryHome()
        defer { home.remove() }
        let asking = try RegistryRepository(in: home.home, name: "asking")
        try asking.publish(registryFile([#"{"id": "asked", "name": "Asked", "git": {"email": "${email}"}}"#], asksEmail: true))
        try onTerminal(home, ["registry", "add", "asking", asking.url]) { session in
            // (tmux leaves out the trailing space of the question)
            #expect(try session.waitFor("asking asks: Your email at Acme (e.g. ada@acme.example):", timeout: 20))
            try session.sendLiteral("ada@typed.example")
            try session.send("Enter")
            #expect(try session.waitFor(#"git.email: "ada@typed.example""#, timeout: 20))
            #expect(try session.waitFor("Go ahead? [y/N]"))
            try session.send("n", "Enter")
            #expect(try exitStatus(session) == 1)
            #expect(try session.screen().contains { $0.contains("Nothing changed.") })
            #expect(home.registryNames().isEmpty && !FileManager.default.fileExists(atPath: home.registriesFolder + "/asking.git"))
        }

        let (changed, _, v1, v2) = try changedRegistry()
        defer { changed.remove() }
        let index = try #require(changed.indexBytes())
        try onTerminal(changed, ["registry", "update"]) { session in
            let asked = try session.waitFor("Go ahead? [y/N]", timeout: 20)
            let screen = try session.screen().joined(separator: "\n")
            #expect(asked, "\(screen)")
            #expect(try session.screen().contains { $0.contains("  - ops (removed)") })
            let pid = try session.perchPID()
            try session.send("C-c")
            #expect(waitUntil(timeout: 30) { TmuxSession.hasEnded(pid) }, "Ctrl-C ends perch")
            // bash drops the rest of the typed line (the echo of EXIT) when its job died of SIGINT;
            // an EXIT line, if any, must not say 0.
            #expect(try session.waitFor("^C"))
            let lines = try session.screen()
            let status = lines.compactMap { $0.hasPrefix("EXIT=") ? Int($0.dropFirst(5).prefix { $0.isNumber }) : nil }.last
            #expect(status != 0, "Ctrl-C ends it unsuccessfully: \(lines.joined(separator: "\n"))")
            #expect(changed.indexBytes() == index, "the index's bytes are unchanged")
            #expect(changed.commit(of: "acme") == v1)
            #expect(try changed.ids() == ["me", "acme", "ops"])
        }
        try onTerminal(changed, ["registry", "update"]) { session in
            #expect(try session.waitFor("Go ahead? [y/N]", timeout: 20))
            try session.send("y", "Enter")
            let status = try exitStatus(session)
            let screen = try session.screen().joined(separator: "\n")
            #expect(status == 0, "\(screen)")
            #expect(changed.commit(of: "acme") == v2)
            #expect(try changed.ids() == ["me", "acme", "web"])
        }
    }

    @Test("trust on a terminal shows the code and asks: n trusts nothing, y trusts the commit in use and the code then runs")
    func trustOnTerminal() throws {
        let home = try RegistryHome()
        defer { home.remove() }
        let marker = home.home + "/trusted-marker"
        let repository = try RegistryRepository(in: home.home, name: "acme")
        let commit = try repository.publish(registryFile([#"{"id": "acme", "name": "Acme", "onSwitch": "touch \#(marker)"}"#]))
        #expect(try home.perch(["registry", "add", "acme", repository.url, "--yes"]).status == 0)
        for (answer, status) in [("n", 1), ("y", 0)] {
            try onTerminal(home, ["registry", "trust", "acme"]) { session in
                #expect(
                    try session.waitFor(
                        "Run this code, as you (tool descriptions: on every switch that names the tool)? [y/N]", timeout: 20))
                // The screen's rows joined: a long line is wrapped at the pane's width.
                let screen = try session.screen().joined()
                #expect(screen.contains("Registry acme (\(repository.url)) at \(commit) asks to run, as you:"), "\(screen)")
                #expect(screen.contains(#"acme: onSwitch = "touch \#(marker)""#), "\(screen)")
                try session.send(answer, "Enter")
                #expect(try exitStatus(session) == status)
                let list = try home.perch(["registry", "list"]).stdout
                #expect(list.contains(answer == "y" ? "code trusted" : "code inert"), "after \(answer): \(list)")
            }
        }
        let switched = try home.perch(["switch", "acme"])
        #expect(switched.status == 0 && !switched.stderr.contains("left out"), "\(switched.stdout)\(switched.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test(
        "SIGKILL at increasing moments of registry update --yes: the index is always the old one byte for byte or the new one whole, and perch list works"
    )
    func killedUpdates() throws {
        let (home, _, _, v2) = try changedRegistry()
        defer { home.remove() }
        let old = try #require(home.indexBytes())
        let stateFolder = (home.statePath as NSString).deletingLastPathComponent
        let snapshot = home.home + "/state-before"
        #expect(try Spawn.run(["cp", "-a", stateFolder, snapshot]).status == 0)
        func restore() throws {
            // Anything still writing there (a git Perch started, in a session of its own) has
            // ended before the folder goes.
            #expect(waitUntil(timeout: 20) { RegistryHome.processes(mentioning: stateFolder).isEmpty })
            try FileManager.default.removeItem(atPath: stateFolder)
            let copied = try Spawn.run(["cp", "-a", snapshot, stateFolder])
            try #require(copied.status == 0, "\(copied.stderr)")
            try #require(home.indexBytes() == old)
        }
        // How long a whole update takes here: the kills span it.
        let start = Date()
        let whole = try home.perch(["registry", "update", "--yes"])
        let duration = Date().timeIntervalSince(start)
        try #require(whole.status == 0 && home.commit(of: "acme") == v2, "\(whole.stdout)\(whole.stderr)")
        try restore()
        // Fine steps over the update's own length (where a kill lands in the fetch, the writes or
        // the rename), then 0–300 ms in steps of 50 ms.
        let delays = (0...19).map { Double($0) * duration * 1.5 / 19 } + stride(from: 0.0, through: 0.3, by: 0.05).map { $0 }
        var outcomes: [String] = []
        var leftovers: Set<String> = []
        for delay in delays {
            let pid = try Spawn.start(
                [TmuxSession.binary, "registry", "update", "--yes"], environment: home.environment, stdout: home.home + "/kill.out",
                stderr: home.home + "/kill.err")
            // The input's own timing (when the kill comes), not a wait for output.
            usleep(useconds_t(delay * 1_000_000))
            kill(pid, SIGKILL)
            let status = try Spawn.wait(pid)
            // git may outlive Perch (it runs in a session of its own): its end is waited for.
            #expect(waitUntil(timeout: 20) { RegistryHome.processes(mentioning: home.registriesFolder).isEmpty })
            let bytes = try #require(home.indexBytes(), "after a kill at \(delay) s there is no index")
            let ids = try home.ids()
            if bytes == old {
                #expect(status != 0, "it ended by itself at \(delay) s, yet the index is the old one")
                #expect(ids == ["me", "acme", "ops"], "at \(delay) s: \(ids)")
                outcomes.append("old")
            } else {
                let json = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any], "the index is JSON")
                let accounts = try #require(json["accounts"] as? String)
                #expect(home.commit(of: "acme") == v2, "at \(delay) s the index is neither the old one nor the new one")
                #expect(FileManager.default.fileExists(atPath: home.registriesFolder + "/" + accounts))
                // The definitions the index names (`file`, or `NAME-COMMIT.json` by the older layout).
                let record = (json["registries"] as? [[String: Any]])?.first
                let definitions = record?["file"] as? String ?? "acme-\(v2).json"
                #expect(FileManager.default.fileExists(atPath: home.registriesFolder + "/" + definitions), "\(definitions)")
                #expect(ids == ["me", "acme", "web"], "at \(delay) s: \(ids)")
                outcomes.append(status == 0 ? "new" : "new (killed after the commit point)")
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: home.registriesFolder)) ?? [] where name.contains(".tmp-") {
                leftovers.insert(name)
            }
            try restore()
        }
        #expect(outcomes.first == "old", "a kill at once leaves the old index")
        // Whatever a kill left, the next update completes.
        let finished = try home.perch(["registry", "update", "--yes"])
        #expect(finished.status == 0 && home.commit(of: "acme") == v2, "\(finished.stdout)\(finished.stderr)")
        print(
            "registry update takes \(Int(duration * 1000)) ms here; kills at \(delays.map { Int($0 * 1000) }) ms: \(outcomes); temporary files left: \(leftovers.sorted())"
        )
    }

    // Bugs (second hostile review): a described tool's setting from an untrusted registry set
    // NPM_CONFIG_USERCONFIG; a registry's folder took the user's own binding; removing the
    // current account's registry left its identity applied; an update that dropped an account
    // the user overrides stopped every command.
    @Test(
        "a described tool's settings are inert until trusted; your own folder stays yours; the current account's registry is not removed under it; an update does not orphan your override"
    )
    func edgesOfTheUsersOwn() throws {
        let home = try RegistryHome()
        defer { home.remove() }
        try home.writeConfig([])
        let work = home.home + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try home.scoped.cli.writeConfig(
            #"{"accounts": [{"id": "me", "name": "Me", "directories": ["~/work"], "git": {"name": "Me Myself", "email": "me@home.example"}}]}"#
                + "\n")
        let repository = try RegistryRepository(in: home.home, name: "acme")
        let commit = try repository.publish(
            registryFile([
                #"{"id": "acme", "name": "Acme", "directories": ["~/work"], "npm": {"userconfig": "~/evil-npmrc"}, "git": {"name": "Ada", "email": "ada@acme.example"}}"#,
                #"{"id": "ops", "name": "Ops"}"#,
            ]))
        let added = try home.perch(["registry", "add", "acme", repository.url, "--yes"])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(added.stdout.contains("[code: inert until trusted]"), "\(added.stdout)")
        let untrusted = try home.perch(["env", "acme", "--shell", "bash"])
        #expect(!untrusted.stdout.contains("NPM_CONFIG_USERCONFIG"), "\(untrusted.stdout)")
        let check = try home.perch(["config", "check"])
        #expect(
            check.stderr.contains("registry account acme: ~/work is bound by an account of your own, which keeps it"), "\(check.stderr)")
        #expect(try home.perch(["registry", "trust", "acme", "--commit", commit]).status == 0)
        let trusted = try home.perch(["env", "acme", "--shell", "bash"])
        #expect(trusted.stdout.contains("NPM_CONFIG_USERCONFIG"), "\(trusted.stdout)")

        // The current account's registry is not removed under it.
        #expect(try home.perch(["switch", "acme"]).status == 0)
        let refused = try home.perch(["registry", "remove", "acme", "--yes"])
        #expect(refused.status == 1 && refused.stderr.contains("acme, the current account, comes from registry acme"), "\(refused.stderr)")
        #expect(home.registryNames() == ["acme"])

        // An update that drops an account you override is refused until your entry goes.
        try home.scoped.cli.writeConfig(#"{"accounts": [{"id": "me", "name": "Me"}, {"id": "ops", "handle": "@mine"}]}"# + "\n")
        try repository.publish(registryFile([#"{"id": "acme", "name": "Acme"}"#]))
        let index = try #require(home.indexBytes())
        let update = try home.perch(["registry", "update", "--yes"])
        #expect(
            update.status == 1 && update.stderr.contains("the registries no longer have ops, which your accounts.json overrides"),
            "\(update.stderr)")
        #expect(home.indexBytes() == index)
        #expect(try home.ids().contains("ops"), "every command still reads the config")
        #expect(try home.perch(["switch", "me"]).status == 0)
        #expect(try home.perch(["registry", "remove", "acme", "--yes"]).status == 1, "your override still names one of its accounts")
    }

    // Found while writing these tests: with no accounts.json of the user's, the registries'
    // accounts are all there is, and a switch treats them as the embedded samples
    // ("git: skipped (sample accounts never change a tool)") while it still runs their trusted onSwitch.
    @Test("with no accounts.json of the user's, a switch to a registry's account changes git")
    func registryOnlyAccountsChangeTools() throws {
        let home = try RegistryHome()
        defer { home.remove() }
        try FileManager.default.removeItem(atPath: home.configPath)
        let repository = try RegistryRepository(in: home.home, name: "acme")
        try repository.publish(registryFile([#"{"id": "acme", "name": "Acme", "git": {"name": "Ada", "email": "ada@acme.example"}}"#]))
        #expect(try home.perch(["registry", "add", "acme", repository.url, "--yes"]).status == 0)
        #expect(try home.ids() == ["acme"], "the registry's accounts, not the samples")
        let switched = try home.perch(["switch", "acme"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let author = try home.author()
        // Bug: samplesOnly was `config.path == nil`, true for a registry's accounts alone too.
        #expect(!switched.stdout.contains("sample accounts never change a tool"), "\(switched.stdout)")
        #expect(author == "Ada <ada@acme.example>")
    }
}
