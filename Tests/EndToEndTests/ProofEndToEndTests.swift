import Foundation
import PerchTestSupport
import Testing

/// `perch verify` (each tool's own answer), accounts chosen by a repository's remote, and the
/// guard against a commit or push as the wrong account: the release binary with the real git,
/// ssh, ssh-keygen and kubectl in a scratch home (``ScopedHome``).
@Suite(
    "Proof: verify, remotes and the guard", .serialized, .currentBinary,
    .enabled(if: ["git", "ssh", "ssh-keygen", "kubectl"].allSatisfy(ShellEndToEndTests.installed)))
struct ProofEndToEndTests {
    /// Two accounts with git, ssh and kube; `work` owns `github.com/acme/*` by remote. Their
    /// keys are made with ssh-keygen; git is set up (Perch's include in ~/.gitconfig).
    func home() throws -> ScopedHome {
        let home = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "kube": {"context": "prod"}, "remotes": ["github.com/acme/*"]}"#,
                #"{"id": "home", "name": "Home", "git": {"name": "Ada", "email": "ada@home.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_home"}, "kube": {"context": "dev"}}"#,
            ], contexts: ["dev", "prod"], configurations: ["default"])
        try FileManager.default.createDirectory(atPath: home.home + "/.ssh", withIntermediateDirectories: true)
        for key in ["id_work", "id_home"] {
            let made = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f", home.home + "/.ssh/" + key])
            #expect(made.status == 0, "\(made.stderr)")
        }
        for tool in ["git", "ssh"] { #expect(try home.cli.run(["setup", tool, "--yes"]).status == 0) }
        return home
    }

    /// `perch arguments` run in `folder` (the home when nil) with `extra` variables.
    func run(_ home: ScopedHome, _ arguments: [String], in folder: String? = nil, extra: [String: String] = [:]) throws -> Spawn.Result {
        try shell(home, ([TmuxSession.binary] + arguments).map(TmuxSession.quote).joined(separator: " "), in: folder, extra: extra)
    }

    /// `command` run by sh in `folder` with the home's environment and `extra`.
    func shell(_ home: ScopedHome, _ command: String, in folder: String? = nil, extra: [String: String] = [:]) throws -> Spawn.Result {
        var environment = home.cli.environment
        environment.merge(extra) { $1 }
        return try Spawn.run(["sh", "-c", "cd \(TmuxSession.quote(folder ?? home.home)) && \(command)"], environment: environment)
    }

    /// A new repository at `path` (under the home) with `remote` as its origin.
    func repository(_ home: ScopedHome, _ path: String, remote: String?) throws -> String {
        let folder = home.home + "/" + path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try shell(home, "git init -q && git config commit.gpgsign false", in: folder).status == 0)
        if let remote { #expect(try shell(home, "git remote add origin \(TmuxSession.quote(remote))", in: folder).status == 0) }
        return folder
    }

    /// The author git itself resolves in `folder`, without its time.
    func author(_ home: ScopedHome, in folder: String) throws -> String {
        let run = try shell(home, "git var GIT_AUTHOR_IDENT", in: folder)
        return String(run.stdout.split(separator: ">").first ?? "") + ">"
    }

    @Test(
        "perch verify agrees after a switch, and for another account says each disagreement with its fix; running the fix agrees (exit 0, 3, 0)"
    )
    func verifyMismatchAndFix() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let agrees = try run(home, ["verify"])
        #expect(agrees.status == 0, "\(agrees.stdout)\(agrees.stderr)")
        #expect(agrees.stdout.contains("Verifying home: Home (the global account)"), "\(agrees.stdout)")
        #expect(agrees.stdout.contains("✓ git") && agrees.stdout.contains("Ada <ada@home.example>"), "\(agrees.stdout)")
        #expect(
            agrees.stdout.contains("✓ ssh github.com") && agrees.stdout.contains("~/.ssh/id_home, IdentitiesOnly yes"), "\(agrees.stdout)")
        #expect(agrees.stdout.contains("✓ kube") && agrees.stdout.contains("dev"), "\(agrees.stdout)")

        let other = try run(home, ["verify", "work"])
        #expect(other.status == 3, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stdout.contains("✗ git") && other.stdout.contains("expected Ada <ada@work.example>; says Ada <ada@home.example>"),
            "\(other.stdout)")
        #expect(
            other.stdout.contains("✗ ssh github.com") && other.stdout.contains("ssh offers ~/.ssh/id_home first for github.com"),
            "\(other.stdout)")
        #expect(other.stdout.contains("✗ kube") && other.stdout.contains("fix: perch switch work"), "\(other.stdout)")
        #expect(other.stderr.contains("disagree with work"), "\(other.stderr)")

        // What the fix line says, run, puts every tool right.
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        let fixed = try run(home, ["verify", "work"])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(!fixed.stdout.contains("✗"), "\(fixed.stdout)")
    }

    @Test("perch verify --json gives the same facts: the account, how it was chosen, and each answer's verdict, reason and fix")
    func verifyJSON() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let run = try run(home, ["verify", "work", "--json"])
        #expect(run.status == 3, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["account"] as? String == "work")
        #expect(json["chosenBy"] as? String == "named on the command line")
        #expect(json["agrees"] as? Bool == false)
        let answers = try #require(json["answers"] as? [[String: Any]])
        let git = try #require(answers.first { $0["tool"] as? String == "git" })
        #expect(git["verdict"] as? String == "disagrees")
        #expect(git["answer"] as? String == "Ada <ada@home.example>")
        #expect(git["asked"] as? String == "git var GIT_AUTHOR_IDENT")
        #expect((git["fix"] as? String)?.isEmpty == false)
    }

    @Test("a variable that beats git's config is named with the command that removes it")
    func verifyVariable() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        let run = try run(home, ["verify"], extra: ["GIT_AUTHOR_EMAIL": "someone@else.example"])
        #expect(run.status == 3)
        #expect(run.stdout.contains("GIT_AUTHOR_EMAIL=someone@else.example in this environment beats"), "\(run.stdout)")
        #expect(run.stdout.contains("fix: unset GIT_AUTHOR_EMAIL"), "\(run.stdout)")
    }

    @Test("inside perch exec, verify judges the exec account, and git and ssh agree with it while the global account is another")
    func verifyInExec() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let run = try run(home, ["exec", "work", "--", TmuxSession.binary, "verify"])
        #expect(run.stdout.contains("Verifying work: Work (given by perch exec)"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ git") && run.stdout.contains("ada@work.example"), "\(run.stdout)")
        #expect(run.stdout.contains("✓ ssh github.com") && run.stdout.contains("~/.ssh/id_work"), "\(run.stdout)")
    }

    @Test("an agent offering another key first is a disagreement when IdentitiesOnly is off, and none while it is on")
    func verifyAgent() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        let socket = home.home + "/agent.sock"
        let agent = try Spawn.run(["ssh-agent", "-a", socket, "-s"], environment: home.cli.environment)
        #expect(agent.status == 0, "\(agent.stderr)")
        let pid = agent.stdout.split(separator: "\n").first { $0.hasPrefix("SSH_AGENT_PID=") }.flatMap {
            Int32($0.dropFirst(14).prefix { $0 != ";" })
        }
        defer { if let pid { kill(pid, SIGTERM) } }
        let extra = ["SSH_AUTH_SOCK": socket]
        #expect(try shell(home, "ssh-add -q ~/.ssh/id_home", extra: extra).status == 0)
        let only = try run(home, ["verify"], extra: extra)
        #expect(only.stdout.contains("✓ ssh github.com"), "IdentitiesOnly yes (Perch's include): \(only.stdout)")
        // Without Perch's ssh include, the user's own config has no IdentitiesOnly.
        #expect(try home.cli.run(["setup", "ssh", "--undo", "--yes"]).status == 0)
        try "Host github.com\n\tIdentityFile ~/.ssh/id_work\n".write(toFile: home.home + "/.ssh/config", atomically: true, encoding: .utf8)
        let offered = try run(home, ["verify"], extra: extra)
        #expect(offered.status == 3, "\(offered.stdout)\(offered.stderr)")
        #expect(
            offered.stdout.contains("IdentitiesOnly is off, so the agent's key id_home is offered before ~/.ssh/id_work"),
            "\(offered.stdout)")
    }

    @Test(
        "a clone whose remote matches an account's remotes commits as that account anywhere, without the shell hook, whatever the URL's form"
    )
    func remotesChooseTheAccount() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let clone = try repository(home, "anywhere/site", remote: "git@GitHub.com:Acme/Site.git")
        #expect(try author(home, in: clone) == "Ada <ada@work.example>")
        // Bug: a trailing slash and git:// chose the account for Perch but not for git.
        for url in [
            "ssh://git@github.com:2222/acme/site", "https://ada@github.com/acme/site.git", "https://github.com/ACME/site",
            "https://github.com/acme/site/", "git://github.com/acme/site.git",
        ] {
            #expect(try shell(home, "git remote set-url origin \(TmuxSession.quote(url))", in: clone).status == 0)
            #expect(try author(home, in: clone) == "Ada <ada@work.example>", "\(url)")
        }
        let other = try repository(home, "anywhere/other", remote: "git@github.com:acme-labs/site.git")
        #expect(try author(home, in: other) == "Ada <ada@home.example>", "another owner's repository")
        let bare = try repository(home, "anywhere/none", remote: nil)
        #expect(try author(home, in: bare) == "Ada <ada@home.example>", "a repository without a remote")
        let verify = try run(home, ["verify"], in: clone)
        #expect(verify.stdout.contains("Verifying work: Work (chosen by remote github.com/acme/*)"), "\(verify.stdout)")
        #expect(verify.stdout.contains("✓ git"), "\(verify.stdout)")
        // Bug: verify said ✗ ssh in a remote-owned clone, whose include gives git the account's key (core.sshCommand).
        #expect(verify.stdout.contains("✓ ssh github.com") && verify.stdout.contains("~/.ssh/id_work"), "\(verify.stdout)")
        let status = try run(home, ["status"], in: clone)
        #expect(status.stdout.contains("Repository: chosen by remote github.com/acme/*: work"), "\(status.stdout)")
    }

    @Test("with the shell hook, a shell inside a matching clone is that account, and the global one again outside it")
    func remotesInTheShell() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let clone = try repository(home, "src/site", remote: "git@github.com:acme/site.git")
        try FileManager.default.createDirectory(atPath: clone + "/deep/er", withIntermediateDirectories: true)
        // The binary's folder first on PATH, as an installed perch would be.
        let script = """
            eval "$(perch shell-init bash)"
            __perch_hook; echo "A=$PERCH_ACCOUNT"
            cd \(TmuxSession.quote(clone))/deep/er; __perch_hook; echo "B=$PERCH_ACCOUNT $PERCH_SCOPE"
            cd \(TmuxSession.quote(home.home)); __perch_hook; echo "C=$PERCH_ACCOUNT"
            """
        var environment = home.cli.environment
        environment["HISTFILE"] = home.home + "/.bash_history_test"
        environment["PATH"] = (TmuxSession.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        let run = try Spawn.run(["bash", "--norc", "--noprofile", "-c", script], environment: environment)
        #expect(run.stdout.contains("A=home\n"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("B=work directory\n"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("C=home\n"), "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("remote github.com/acme/*: this shell is work (Work) here"), "\(run.stderr)")
    }

    @Test(
        "the guard refuses a commit as the wrong account with the fix, lets the right one through, runs the repository's own hook, and --undo leaves ~/.gitconfig byte for byte"
    )
    func guardCommit() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let gitconfig = home.home + "/.gitconfig"
        let before = try Data(contentsOf: URL(fileURLWithPath: gitconfig))
        let installed = try home.cli.run(["guard", "install"])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        #expect(try home.cli.run(["status"]).stdout.contains("Guard: in place"))
        let clone = try repository(home, "src/site", remote: "git@github.com:acme/site.git")
        let marker = home.home + "/repo-hook-ran"
        writeExecutable("#!/bin/sh\necho ran >> \(TmuxSession.quote(marker))\n", to: clone + "/.git/hooks/pre-commit")
        // Bug: with the guard in place, git looked for every hook in its folder, and the repository's
        // other hooks (a commit-msg, a post-commit) stopped running.
        for name in ["commit-msg", "post-commit"] {
            writeExecutable("#!/bin/sh\necho \(name) >> \(TmuxSession.quote(marker + "-others"))\n", to: clone + "/.git/hooks/" + name)
        }
        // The repository's own setting names the wrong person: refused, with where it came from.
        #expect(try shell(home, "git config user.email ada@home.example && echo a > f && git add f", in: clone).status == 0)
        let refused = try shell(home, "git commit -qm one", in: clone)
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(
                "perch guard: this commit would go as Ada <ada@home.example>, but here it belongs to work (chosen by remote github.com/acme/*)"
            ), "\(refused.stderr)")
        #expect(refused.stderr.contains("fix: git config --local --unset user.email"), "\(refused.stderr)")
        // The check runs when the commit would enter the branch (reference-transaction), after
        // the repository's pre-commit and commit-msg: the branch has not moved.
        #expect(try shell(home, "git rev-parse -q --verify HEAD", in: clone).status != 0, "no commit entered the branch")
        // Put right as the fix says: the commit goes through, and the repository's hook ran.
        #expect(try shell(home, "git config --local --unset user.email", in: clone).status == 0)
        let committed = try shell(home, "git commit -qm one", in: clone)
        #expect(committed.status == 0, "\(committed.stderr)")
        #expect(try shell(home, "git log -1 --format=%ae", in: clone).stdout == "ada@work.example\n")
        #expect(FileManager.default.fileExists(atPath: marker), "the repository's own pre-commit hook still runs")
        #expect(
            (try? String(contentsOfFile: marker + "-others", encoding: .utf8))?.hasSuffix("commit-msg\npost-commit\n") == true,
            "and its other hooks")
        let undone = try home.cli.run(["guard", "--undo"])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: gitconfig)) == before, "~/.gitconfig byte for byte")
        #expect(try shell(home, "git config --global --includes --get core.hooksPath").status == 1, "no hooks path is left")
        #expect(try home.cli.run(["status"]).stdout.contains("Guard: not installed"))
    }

    @Test("the guard refuses a push whose ssh key is not the remote owner's, and lets it through once the key is the owner's")
    func guardPush() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        #expect(try home.cli.run(["guard", "install"]).status == 0)
        let bare = home.home + "/served/acme/site.git"
        #expect(try shell(home, "git init -q --bare \(TmuxSession.quote(bare))").status == 0)
        // A stand-in for the server: `ssh -G` is the real ssh's; a connection runs git's
        // receive-pack on the bare repository (no network).
        writeExecutable(
            """
            #!/bin/sh
            for a in "$@"; do [ "$a" = -G ] && exec \(try realSSH()) "$@"; done
            eval "last=\\${$#}"
            cd \(TmuxSession.quote(home.home + "/served")) && exec sh -c "$last"
            """, to: home.bin + "/ssh")
        // A clone of a remote work owns: its include gives git work's key. The repository's own
        // core.sshCommand names home's key instead, and beats it.
        let clone = try repository(home, "src/mine", remote: nil)
        #expect(
            try shell(home, "git remote add acme git@github.com:acme/site.git && echo a > f && git add f && git commit -qm one", in: clone)
                .status == 0)
        #expect(try shell(home, "git config core.sshCommand 'ssh -i ~/.ssh/id_home'", in: clone).status == 0)
        let refused = try shell(home, "git push -q acme HEAD:main", in: clone)
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("perch guard: this push to git@github.com:acme/site.git would go as ~/.ssh/id_home"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("which is ~/.ssh/id_work"), "\(refused.stderr)")
        #expect(try shell(home, "git --git-dir=\(TmuxSession.quote(bare)) rev-parse --verify -q main").status != 0, "nothing was pushed")
        // Without the repository's own setting, the include's key is work's: the push goes through.
        #expect(try shell(home, "git config --unset core.sshCommand", in: clone).status == 0)
        let pushed = try shell(home, "git push -q acme HEAD:main", in: clone)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try shell(home, "git --git-dir=\(TmuxSession.quote(bare)) rev-parse --verify -q main").status == 0)
    }

    @Test(
        "v in Overview asks each tool on the worker and shows its verdict; a kubectl use-context by hand shows as ✗ with the fix at the next v"
    )
    func verifyInTheInterface() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        let session = try TmuxSession.started(width: 120, height: 30, environment: home.cli.extraEnvironment, home: home.cli.home)
        try session.expectAfter("v", shows: "Verified: every tool agrees (v asks again)", timeout: 10)
        let agreed = try session.screen()
        #expect(agreed.contains { $0.contains("✓ git") && $0.contains("ada@work.example") }, "\(agreed.joined(separator: "\n"))")
        #expect(agreed.contains { $0.contains("✓ ssh github.com") }, "\(agreed.joined(separator: "\n"))")
        // By hand, as kubectx would: the next v says so, with the fix.
        #expect(try shell(home, "kubectl config use-context dev").status == 0)
        try session.expectAfter("v", shows: "Verified: 1 disagree (v asks again)", timeout: 10)
        let disagreed = try session.screen()
        #expect(
            disagreed.contains { $0.contains("✗ kube") && $0.contains("says dev") && $0.contains("fix: perch switch work") },
            "\(disagreed.joined(separator: "\n"))")
        try session.expectAfter("q", shows: "EXIT=0")
    }

    // Bug: perch set of an account's directories left git's folder rules as they were until the next switch.
    @Test("perch set of an account's directories brings git's folder rules up to date at once")
    func setDirectoriesRefreshesRules() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let repo = try repository(home, "proj2/repo", remote: nil)
        #expect(try author(home, in: repo) == "Ada <ada@home.example>")
        #expect(try home.cli.run(["set", "work", "directories", #"["~/proj2"]"#]).status == 0)
        #expect(try author(home, in: repo) == "Ada <ada@work.example>", "no switch needed")
    }

    // Bug: in a folder of the user's own includeIf rule, status said – (the rule wins by
    // design) while verify said ✗ and the guard refused every commit.
    @Test("in a folder of your own includeIf rule, verify says your rule wins (–, exit 0) and the guard lets the commit through")
    func usersOwnRule() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        #expect(try home.cli.run(["guard", "install"]).status == 0)
        try "[user]\n\temail = ada@client.example\n".write(toFile: home.home + "/.gitconfig-client", atomically: true, encoding: .utf8)
        #expect(try shell(home, "git config --global 'includeIf.gitdir:~/clients/.path' '~/.gitconfig-client'").status == 0)
        let repo = try repository(home, "clients/c1", remote: nil)
        let verify = try run(home, ["verify"], in: repo)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("– git") && verify.stdout.contains("your own rule wins in this folder"), "\(verify.stdout)")
        let commit = try shell(home, "git commit -q --allow-empty -m one", in: repo)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(try shell(home, "git log -1 --format=%ae", in: repo).stdout == "ada@client.example\n")
    }

    /// The ssh on PATH before the test's own bin folder.
    func realSSH() throws -> String {
        TmuxSession.quote(try Spawn.run(["sh", "-c", "command -v ssh"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Leaks and false alarms at the edges of scopes.
@Suite("Edges: scopes' own variables, tokens, folder spellings", .serialized, .currentBinary)
struct ScopeEdgeEndToEndTests {
    // Bug: status showed ✗ for ssh in every scope and told the user to unset the
    // GIT_SSH_COMMAND that Perch itself set, and exited 1.
    @Test(
        "in perch exec, status takes the GIT_SSH_COMMAND Perch set as expected: ✓ ssh, exit 0",
        .enabled(if: ["git", "ssh", "ssh-keygen", "kubectl"].allSatisfy(ShellEndToEndTests.installed)))
    func scopeOwnVariable() throws {
        let proof = ProofEndToEndTests()
        let home = try proof.home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        let status = try proof.run(home, ["exec", "work", "--", TmuxSession.binary, "status"])
        #expect(status.stdout.contains("✓ ssh"), "\(status.stdout)\(status.stderr)")
        #expect(!status.stdout.contains("unset GIT_SSH_COMMAND"), "\(status.stdout)")
        // A GIT_SSH_COMMAND of someone else's in the same scope still beats it, and is said.
        let other = try proof.run(home, ["exec", "work", "--", "env", "GIT_SSH_COMMAND=ssh -i /elsewhere", TmuxSession.binary, "status"])
        #expect(other.stdout.contains("✗ ssh") && other.stdout.contains("GIT_SSH_COMMAND=ssh -i /elsewhere"), "\(other.stdout)")
    }

    // Bug: perch status printed a whole GH_TOKEN=ghp_… that beat gh's stored user.
    @Test("a token that beats a tool is named with its last 4 characters only, in status and verify, text and JSON")
    func tokenMasked() throws {
        let home = try ScopedHome(
            accounts: [#"{"id": "work", "name": "Work", "gh": {"user": "ada-work"}, "env": {"TEAM": "web"}}"#], contexts: ["dev"],
            configurations: ["default"])
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        let token = "ghp_" + "Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c"
        var environment = home.cli.environment
        environment["GH_TOKEN"] = token
        for arguments in [["status"], ["status", "--json"], ["verify"], ["verify", "--json"]] {
            let run = try Spawn.run([TmuxSession.binary] + arguments, environment: environment)
            #expect(!run.stdout.contains(token) && !run.stderr.contains(token), "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(!run.stdout.contains(String(token.dropLast(4))), "no long prefix either: \(run.stdout)")
        }
        let status = try Spawn.run([TmuxSession.binary, "status"], environment: environment)
        #expect(status.stdout.contains("GH_TOKEN=…eD8c"), "\(status.stdout)")
    }

    // Bug: a bound folder written ~/a/../work or ~//work passed config check and bound nothing.
    @Test(
        "a bound folder with .. or a doubled slash is refused with its JSON path and the plain spelling",
        arguments: ["~/a/../work", "~//work", "/srv/./work"])
    func folderSpelling(_ folder: String) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work", "directories": ["\#(folder)"]}]}"#)
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("accounts[0].directories[0]: \"\(folder)\" holds a . or .. or a doubled /"), "\(check.stderr)")
        #expect(check.stderr.contains(folder == "/srv/./work" ? "as /srv/work" : "as ~/work"), "\(check.stderr)")
    }

    // Bug: a remote pattern with an unclosed [ passed config check, and git's rule for it bound nothing.
    @Test("a remote pattern holding a [ is refused by config check with its JSON path, and the config is left as it was")
    func remoteBracket() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let config =
            #"{"accounts": [{"id": "work", "name": "Work", "git": {"email": "w@example.org"}, "remotes": ["github.com/acme/[site"]}]}"#
        try cli.writeConfig(config)
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("accounts[0].remotes[0]: \"github.com/acme/[site\" holds a [ or ]"), "\(check.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == config)
    }
}

/// Leaks at the edges of a switch: what git carries for a folder, and what beats a switch here.
@Suite(
    "Edges: a folder's ssh key, and a switch's report", .serialized, .currentBinary,
    .enabled(if: ["git", "ssh", "ssh-keygen", "kubectl"].allSatisfy(ShellEndToEndTests.installed)))
struct SwitchEdgeEndToEndTests {
    // Bug: a bound folder's commit was by its account, but a push from it without the shell hook
    // (an IDE, cron, cd && git push) used the global account's key: core.sshCommand was not in
    // the folder's include.
    @Test("a push from a bound folder without the shell hook uses the folder's account's key, as a remote-owned clone's does")
    func folderKeyWithoutHook() throws {
        let proof = ProofEndToEndTests()
        let home = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"email": "ada@work.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "directories": ["~/proj"], "remotes": ["github.com/acme/*"]}"#,
                #"{"id": "home", "name": "Home", "git": {"email": "ada@home.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_home"}}"#,
            ], contexts: ["dev"], configurations: ["default"])
        defer { home.cli.remove() }
        #expect(try home.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try home.cli.run(["switch", "home"]).status == 0)
        // A stand-in ssh that logs the key it is given (-i), as the server's log would.
        writeExecutable(
            """
            #!/bin/sh
            key=none; prev=
            for a in "$@"; do [ "$prev" = -i ] && key=$a; prev=$a; done
            echo "key=$key" >> \(TmuxSession.quote(home.home + "/ssh.log"))
            exit 1
            """, to: home.bin + "/ssh")
        for (folder, remote) in [("proj/site", "git@github.com:someone/site.git"), ("anywhere/api", "git@github.com:acme/api.git")] {
            let repo = try proof.repository(home, folder, remote: remote)
            _ = try proof.shell(home, "git commit -q --allow-empty -m one && git push -q origin HEAD 2>/dev/null", in: repo)
        }
        let log = (try? String(contentsOfFile: home.home + "/ssh.log", encoding: .utf8)) ?? ""
        #expect(log == "key=\(home.home)/.ssh/id_work\nkey=\(home.home)/.ssh/id_work\n", "\(log)")
    }

    static let serverMissing = Loopback.missing([SSHServer.program, "ssh", "ssh-keygen", "git"])

    // The same push against a real sshd and git-receive-pack, both keys let in: sshd's log says
    // which key ssh gave for each push.
    @Test(
        "a push over ssh to a real git server from a bound folder without the shell hook is made with the folder's account's key, one from elsewhere with the global account's",
        .enabled(if: serverMissing == nil, "\(serverMissing ?? "")"),
        .enabled(if: TestUser.cannotCreate == nil, "\(TestUser.cannotCreate ?? "")"))
    func folderKeyPushToRealServer() throws {
        let lab = try GitServerLab()
        defer { lab.stop() }
        try lab.startWithHomeGlobal()
        // As from cron or an IDE: no shell hook ran, no Perch variable, no agent.
        for (folder, account, other) in [("proj/site", "work", "home"), ("elsewhere/api", "home", "work")] {
            let pushed = try lab.push(from: folder)
            let lines = pushed.log.split(whereSeparator: \.isNewline).map(String.init)
            let accepted = lines.filter { $0.contains("Accepted publickey for \(lab.login!.name) from 127.0.0.1") }
            let shown = "sshd's log of that connection:\n\(pushed.log)git push: \(pushed.push.stdout)\(pushed.push.stderr)"
            #expect(pushed.push.status == 0, "the push from ~/\(folder) failed (\(pushed.push.status)); \(shown)")
            #expect(accepted.count == 1, "one connection, one key accepted; \(shown)")
            #expect(
                accepted.allSatisfy { $0.hasSuffix("ssh2: ED25519 \(lab.fingerprints[account]!)") },
                "~/\(folder)'s push was let in with \(account)'s key \(lab.fingerprints[account]!), not \(other)'s \(lab.fingerprints[other]!); \(shown)"
            )
            #expect(pushed.forced == "key=\(account)\n", "the forced command of \(account)'s key ran: \(pushed.forced); \(shown)")
            // The commit is in the server's repository, by the folder's account.
            let log = try lab.asLogin(["git", "--git-dir", lab.repository(folder), "log", "--all", "--format=%ae %s"])
            #expect(log.stdout == "ada@\(account).example one\n", "the server's repository holds: \(log.stdout)\(log.stderr)")
            print("sshd's log of the push from ~/\(folder) (expected \(account)'s key, \(lab.fingerprints[account]!)):\n\(pushed.log)")
        }
    }

    // Bug: where the server refused the folder account's key, ssh went on to the global account's
    // key (Perch's ssh include names it for the same host) and the push from the bound folder
    // went out as the global account.
    @Test(
        "a push from a bound folder whose account's key the server refuses fails, and is never made with the global account's key",
        .enabled(if: serverMissing == nil, "\(serverMissing ?? "")"),
        .enabled(if: TestUser.cannotCreate == nil, "\(TestUser.cannotCreate ?? "")"))
    func folderKeyRefusedNeverFallsBack() throws {
        let lab = try GitServerLab(letIn: ["home"])
        defer { lab.stop() }
        try lab.startWithHomeGlobal()
        let pushed = try lab.push(from: "proj/site")
        let shown = "sshd's log of that connection:\n\(pushed.log)git push: \(pushed.push.stdout)\(pushed.push.stderr)"
        #expect(pushed.push.status != 0, "the push from ~/proj was refused; \(shown)")
        #expect(!pushed.log.contains("Accepted publickey"), "no key was let in; \(shown)")
        #expect(pushed.forced.isEmpty, "no forced command ran: \(pushed.forced)")
        let log = try lab.asLogin(["git", "--git-dir", lab.repository("proj/site"), "log", "--all", "--format=%ae %s"])
        #expect(log.stdout.isEmpty, "the server's repository holds nothing: \(log.stdout)")
        // The control: from elsewhere the global account's key is let in.
        let elsewhere = try lab.push(from: "elsewhere/api")
        #expect(elsewhere.push.status == 0 && elsewhere.forced == "key=home\n", "\(elsewhere.log)\(elsewhere.push.stderr)")
    }

    // Bug: a push from the folder of an account naming no ssh, without the shell hook, went out
    // with the global account's key (no core.sshCommand for it, so Perch's include applied); and
    // perch exec of that account in another account's bound folder pushed with that folder's key.
    @Test(
        "an account naming no ssh pushes with your own ssh alone, from its folder without the hook and in perch exec inside another account's folder: never with the global account's key nor the folder's",
        .enabled(if: serverMissing == nil, "\(serverMissing ?? "")"),
        .enabled(if: TestUser.cannotCreate == nil, "\(TestUser.cannotCreate ?? "")"))
    func noSSHAccountUsesYourOwn() throws {
        let lab = try GitServerLab()
        defer { lab.stop() }
        try lab.startWithHomeGlobal()
        // Your own ~/.ssh/config names no key for gitserver, and ~/.ssh holds only work's and
        // home's: with your own ssh alone no key is offered, and the server lets nobody in.
        let fromFolder = try lab.push(from: "oss/lib")
        #expect(fromFolder.push.status != 0, "refused: \(fromFolder.log)\(fromFolder.push.stderr)")
        #expect(fromFolder.forced.isEmpty && !fromFolder.log.contains("Accepted publickey"), "no key let in: \(fromFolder.log)")
        // perch exec oss inside work's bound folder: not work's key from the folder's rule.
        let made = try lab.runAsUser(
            [
                "sh", "-c",
                "mkdir -p proj/web && cd proj/web && git init -q && git remote add origin \(TmuxSession.quote("\(lab.login!.name)@gitserver:\(lab.repository("proj/web"))"))",
            ],
            environment: lab.plainEnvironment)
        try #require(made.status == 0, "\(made.stderr)")
        let forcedStart = Loopback.text(lab.forcedLog).utf8.count
        let exec = try lab.runAsUser(
            [
                "sh", "-c",
                "cd proj/web && git commit -q --allow-empty -m one && \(TmuxSession.quote(lab.binary)) exec oss -- git push origin HEAD",
            ],
            environment: lab.plainEnvironment.merging(lab.perchEnvironment) { $1 })
        let forced = String(decoding: Loopback.text(lab.forcedLog).utf8.dropFirst(forcedStart), as: UTF8.self)
        #expect(exec.status != 0, "refused: \(exec.stdout)\(exec.stderr)")
        #expect(forced.isEmpty, "no key let in: \(forced)")
    }

    // Bug: with GH_TOKEN set in the shell, a plain perch switch printed "gh: applied" though this
    // shell's gh stayed on the token's user.
    @Test("a switch says which variable of this shell beats a tool it applied, with the token masked")
    func switchSaysWhatBeatsIt() throws {
        let home = try ScopedHome(
            accounts: [#"{"id": "work", "name": "Work", "gh": {"user": "ada-work"}}"#, #"{"id": "home", "name": "Home"}"#],
            contexts: ["dev"],
            configurations: ["default"])
        defer { home.cli.remove() }
        var environment = home.cli.environment
        environment["GH_TOKEN"] = "ghp_" + "T0k3nT0k3nT0k3nT0k3nT0k3nT0k3nWXYZ"
        let run = try Spawn.run([TmuxSession.binary, "switch", "work"], environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("gh: switched, but GH_TOKEN=…WXYZ in this shell beats it here"), "\(run.stderr)")
        #expect(run.stderr.contains("unset GH_TOKEN"), "\(run.stderr)")
        #expect(!run.stderr.contains("T0k3nT0k3n"), "\(run.stderr)")
    }
}

/// A real git server on 127.0.0.1 for a push: sshd letting in a login made for the test, whose
/// bare repositories take `git push` (git-receive-pack) with either of two keys, `work`'s and
/// `home`'s, each forced to note its name in a log before running the command asked. Perch, git
/// and ssh run as a second user made for the test, in a scratch HOME owned by it (ssh finds
/// `~/.ssh` through the password database). `stop()` ends sshd and removes the users and
/// folders, on every way out of the test.
final class GitServerLab {
    let cli: PerchCommandLine
    let serverFolder: URL
    var user: TestUser?
    var login: TestUser?
    var server: SSHServer?
    var binary = TmuxSession.binary
    /// Each key's SHA256 fingerprint, as `ssh-keygen -lf` and sshd's log write it.
    var fingerprints: [String: String] = [:]
    var home: String { cli.home.path }
    var forcedLog: String { serverFolder.path + "/keys.log" }

    static let accounts = #"""
        {"accounts": [
          {"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_work"}, "directories": ["~/proj"]},
          {"id": "home", "name": "Home", "git": {"name": "Ada", "email": "ada@home.example"}, "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_home"}},
          {"id": "oss", "name": "OSS", "git": {"email": "ada@oss.example"}, "directories": ["~/oss"]}
        ]}
        """#

    /// The accounts whose keys the server lets in.
    let letIn: Set<String>

    /// A lab whose server lets in the keys of `letIn` (work's and home's by default).
    init(letIn: Set<String> = ["work", "home"]) throws {
        self.letIn = letIn
        cli = try PerchCommandLine()
        serverFolder = try TmuxSession.makeScratchHome()
    }

    /// The bare repository on the server that the repository at `folder` (under HOME) pushes to.
    func repository(_ folder: String) -> String { serverFolder.path + "/" + (folder as NSString).lastPathComponent + ".git" }

    /// Makes the users, keys, the user's ssh config, git config and the config, starts sshd and
    /// makes the bare repositories. Throws `TestUser.Failure` with the reason when users cannot be made.
    func start() throws {
        if let reason = TestUser.cannotCreate { throw TestUser.Failure(reason) }
        let ssh = home + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        let login = try TestUser.create(TestUser.freshName(), home: serverFolder.path)
        self.login = login
        user = try TestUser.create(TestUser.freshName(), home: home)
        var authorized = ""
        for name in ["work", "home"] {
            let key = ssh + "/id_" + name
            let made = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key])
            try #require(made.status == 0, "ssh-keygen: \(made.stderr)")
            // `256 SHA256:… work (ED25519)`
            let listed = try Spawn.run(["ssh-keygen", "-lf", key + ".pub"])
            let fields = listed.stdout.split(separator: " ")
            try #require(fields.count > 1 && fields[1].hasPrefix("SHA256:"), "ssh-keygen -lf: \(listed.stdout)\(listed.stderr)")
            fingerprints[name] = String(fields[1])
            guard letIn.contains(name) else { continue }
            // The command runs through the login's shell; git's (git-receive-pack '…') is run as asked.
            authorized +=
                "command=\"echo key=\(name) >> \(forcedLog); exec /bin/sh -c \\\"$SSH_ORIGINAL_COMMAND\\\"\",no-pty,no-port-forwarding "
                + Loopback.text(key + ".pub").trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        }
        try #require(fingerprints["work"] != fingerprints["home"])
        try Loopback.write("", to: forcedLog)
        for folder in ["proj/site", "elsewhere/api", "oss/lib", "proj/web"] {
            let made = try Spawn.run(
                ["git", "init", "-q", "--bare", repository(folder)],
                environment: ["HOME": serverFolder.path, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"])
            try #require(made.status == 0, "git init --bare: \(made.stderr)")
            try login.own(repository(folder))
        }
        try login.own(forcedLog)
        let server = try SSHServer.start(in: serverFolder.path, login: login.name, authorizedKeys: authorized)
        self.server = server
        try Loopback.write(server.knownHostsLine, to: ssh + "/known_hosts_test")
        try Loopback.write(
            """
            Host gitserver
              HostName 127.0.0.1
              Port \(server.port)
              UserKnownHostsFile ~/.ssh/known_hosts_test
              BatchMode yes

            """, to: ssh + "/config")
        try Loopback.write("[user]\n\tname = Own Self\n\temail = own@self.example\n", to: home + "/.gitconfig")
        try cli.writeConfig(Self.accounts)
        binary = try TestUser.binaryCopy(in: home)
        try user!.own(home)
    }

    /// ``start()``, then `perch setup git`, `perch setup ssh` and `perch switch home` as the
    /// user; the test is cancelled, with the reason, where users cannot be made.
    func startWithHomeGlobal() throws {
        do {
            try start()
        } catch let failure as TestUser.Failure {
            try Test.cancel("skipped: \(failure.description)")
        }
        for arguments in [["setup", "git", "--yes"], ["setup", "ssh", "--yes"], ["switch", "home"]] {
            let run = try perch(arguments)
            try #require(run.status == 0, "perch \(arguments.joined(separator: " ")): \(run.stdout)\(run.stderr)")
        }
    }

    /// `argv` run as the user in its HOME with `environment`.
    func runAsUser(_ argv: [String], environment: [String: String]) throws -> Spawn.Result {
        let user = try #require(user)
        return try Spawn.run(user.command(["/bin/sh", "-c", "cd \"$HOME\" && exec \"$@\"", "sh"] + argv), environment: environment)
    }

    /// What perch runs with as the user: the scratch XDG folders.
    var perchEnvironment: [String: String] {
        var environment = cli.environment
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        environment["USER"] = user?.name ?? ""
        environment["LOGNAME"] = user?.name ?? ""
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        return environment
    }

    /// `perch arguments` run as the user, with the scratch XDG folders.
    func perch(_ arguments: [String]) throws -> Spawn.Result { try runAsUser([binary] + arguments, environment: perchEnvironment) }

    /// What a program started by cron or an IDE has: no shell hook ran, so no Perch variable,
    /// and no ssh agent. (git's system config is left out, as in every test here.)
    var plainEnvironment: [String: String] {
        [
            "HOME": home, "USER": user?.name ?? "", "LOGNAME": user?.name ?? "", "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh",
            "LC_ALL": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1",
        ]
    }

    /// A new repository at `folder` (under HOME) with the server's bare repository as its origin,
    /// an empty commit in it and `git push origin HEAD`, as the user in ``plainEnvironment``:
    /// the push, the lines sshd logged meanwhile and the lines the forced commands noted.
    func push(from folder: String) throws -> (push: Spawn.Result, log: String, forced: String) {
        let server = try #require(server)
        let remote = "\(login!.name)@gitserver:\(repository(folder))"
        let made = try runAsUser(
            ["sh", "-c", "mkdir -p \(folder) && cd \(folder) && git init -q && git remote add origin \(TmuxSession.quote(remote))"],
            environment: plainEnvironment)
        try #require(made.status == 0, "git init in ~/\(folder): \(made.stderr)")
        let logStart = Loopback.text(server.log).utf8.count
        let forcedStart = Loopback.text(forcedLog).utf8.count
        let push = try runAsUser(
            ["sh", "-c", "cd \(folder) && git commit -q --allow-empty -m one && git push origin HEAD"], environment: plainEnvironment)
        func since(_ path: String, _ start: Int) -> String { String(decoding: Loopback.text(path).utf8.dropFirst(start), as: UTF8.self) }
        // sshd logs the key before the session's command runs; its child may still be writing.
        _ = TmuxSession.eventually(timeout: 5) { push.status != 0 || since(server.log, logStart).contains("Accepted publickey") }
        // sshd writes its log to standard error with \r\n line ends.
        return (push, since(server.log, logStart).replacingOccurrences(of: "\r\n", with: "\n"), since(forcedLog, forcedStart))
    }

    /// `argv` run as the login, with its HOME (the server's folder).
    func asLogin(_ argv: [String]) throws -> Spawn.Result {
        let login = try #require(login)
        return try Spawn.run(
            login.command(argv),
            environment: ["HOME": serverFolder.path, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C.UTF-8"])
    }

    /// Stops sshd and removes the users and folders; safe to call after a partial start. With
    /// PERCH_KEEP_SSHD_LOG set, sshd's log is copied there first.
    func stop() {
        server?.stop()
        if let keep = ProcessInfo.processInfo.environment["PERCH_KEEP_SSHD_LOG"], !keep.isEmpty, let server {
            try? Loopback.write(Loopback.text(server.log), to: keep)
        }
        user?.remove()
        login?.remove()
        cli.remove()
        try? FileManager.default.removeItem(at: serverFolder)
    }
}

/// Issue: other tools' files. gcloud's active_config naming a configuration gcloud does not have.
@Suite("Edges: gcloud's active configuration", .currentBinary)
struct GcloudEdgeEndToEndTests {
    // Bug: "home\n" in active_config showed ✓ although gcloud had no such configuration.
    @Test("a configuration named in active_config that gcloud does not have is ✗ in status, with the command that makes it")
    func missingConfiguration() throws {
        let home = try ScopedHome(
            accounts: [#"{"id": "work", "name": "Work", "gcloud": "ghost"}"#], contexts: ["dev"], configurations: ["default"])
        defer { home.cli.remove() }
        try "ghost\n".write(toFile: home.gcloud + "/active_config", atomically: true, encoding: .utf8)
        // The switch finds the configuration missing and says so; status then agrees.
        _ = try home.cli.run(["switch", "work"])
        let status = try home.cli.run(["status"])
        #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
        #expect(status.stdout.contains("✗ gcloud") && status.stdout.contains("gcloud has no configuration ghost"), "\(status.stdout)")
        try "[core]\naccount = ghost@example.org\n".write(
            toFile: home.gcloud + "/configurations/config_ghost", atomically: true, encoding: .utf8)
        let fixed = try home.cli.run(["status"])
        #expect(fixed.stdout.contains("✓ gcloud"), "\(fixed.stdout)")
    }

    // Bug: in a scope, with gcloud installed but never run (no configuration yet), status said
    // ✗ gcloud "has no configuration default" and exited 1, though gcloud makes default itself.
    @Test(
        "a gcloud never run: status in a scope shows your own default as ✓, and real gcloud then uses default",
        .enabled(if: ShellEndToEndTests.installed("gcloud"), "needs gcloud"))
    func neverRunIsNoDrift() throws {
        let home = try ScopedHome(
            accounts: [#"{"id": "plain", "name": "Plain", "env": {"P": "1"}}"#], contexts: ["dev"], configurations: ["default"])
        // As before gcloud was ever run: no folder of its own at all.
        defer { home.cli.remove() }
        try? FileManager.default.removeItem(atPath: home.gcloud)
        let status = try home.cli.run(["exec", "plain", "--", TmuxSession.binary, "status"])
        #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
        #expect(status.stdout.contains("✓ gcloud  your own: default") && !status.stdout.contains("✗"), "\(status.stdout)")
        let list = try Spawn.run(
            ["gcloud", "config", "configurations", "list", "--format=value(name,is_active)"], environment: home.cli.environment)
        #expect(list.stdout.contains("default\tTrue"), "gcloud makes and uses default: \(list.stdout)\(list.stderr)")
    }

    // Bug: with an empty active_config, a switch to an account without gcloud removed the file,
    // and gcloud then truncated config_default to 0 bytes.
    @Test(
        "an empty active_config, or none, is given back as it was by a switch to an account without gcloud: real gcloud then leaves its files as it does without Perch",
        .enabled(if: ShellEndToEndTests.installed("gcloud"), "needs gcloud"), arguments: ["an empty file", "no file"])
    func baselineFileGivenBack(kind: String) throws {
        let home = try ScopedHome(
            accounts: [#"{"id": "work", "name": "Work", "gcloud": "work"}"#, #"{"id": "plain", "name": "Plain"}"#], contexts: ["dev"],
            configurations: ["default", "work"])
        defer { home.cli.remove() }
        let active = home.gcloud + "/active_config"
        if kind == "no file" {
            try FileManager.default.removeItem(atPath: active)
        } else {
            try Data().write(to: URL(fileURLWithPath: active))
        }
        // An untouched copy: what gcloud does to the same files without Perch (with no
        // active_config at all, gcloud itself empties config_default).
        let untouched = home.home + "/gcloud-untouched"
        try FileManager.default.copyItem(atPath: home.gcloud, toPath: untouched)
        func gcloudActive(_ folder: String? = nil) throws -> String {
            var environment = home.cli.environment
            if let folder { environment["CLOUDSDK_CONFIG"] = folder }
            let list = try Spawn.run(
                ["gcloud", "config", "configurations", "list", "--format=value(name,is_active)"], environment: environment)
            return list.stdout.split(separator: "\n").first { $0.hasSuffix("True") }.map { String($0.split(separator: "\t")[0]) } ?? "?"
        }
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        #expect(try gcloudActive() == "work")
        let back = try home.cli.run(["switch", "plain"])
        #expect(back.status == 0, "\(back.stdout)\(back.stderr)")
        if kind == "no file" {
            #expect(!FileManager.default.fileExists(atPath: active), "active_config is back to none")
        } else {
            #expect(FileManager.default.contents(atPath: active) == Data(), "active_config is back to an empty file")
        }
        #expect(try gcloudActive() == "default")
        #expect(try gcloudActive(untouched) == "default")
        for file in ["active_config", "configurations/config_default", "configurations/config_work"] {
            #expect(
                FileManager.default.contents(atPath: home.gcloud + "/" + file)
                    == FileManager.default.contents(atPath: untouched + "/" + file),
                "\(file) is as gcloud leaves it without Perch")
        }
    }
}
