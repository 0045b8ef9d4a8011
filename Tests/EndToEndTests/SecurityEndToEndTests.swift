import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The trust issue ("Nothing from outside runs, leaks or lies"), item by item, with the real
/// binary and the real programs (git, ssh, bash, kubectl): each test reproduces an attack that
/// worked before its change, and checks what the tool itself does afterwards, never only what
/// Perch wrote (docs/security.md).
@Suite("Security: nothing from outside runs, leaks or lies", .serialized, .currentBinary)
struct SecurityEndToEndTests {
    static func installed(_ program: String) -> Bool { ShellEndToEndTests.installed(program) }

    /// A kubeconfig of one cluster on 127.0.0.1:1 and one user (`user`, YAML flow text) whose
    /// contexts are `contexts` (YAML scalars, as written), `current` the current one.
    static func kubeconfig(contexts: [String], current: String, user: String = "{}") -> String {
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"https://127.0.0.1:1\"}\nusers:\n- name: u\n  user: \(user)\ncontexts:\n"
            + contexts.map { "- name: \($0)\n  context: {cluster: c, user: u}\n" }.joined() + "current-context: \(current)\n"
    }

    /// A home with your own global git identity, git set up, a `work` account bound to `~/work`
    /// that names only an email (so your own name and ssh fill the rest), and `home` global.
    func boundHome() throws -> PerchCommandLine {
        var cli = try PerchCommandLine()
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1"]
        try "[user]\n\tname = Own Name\n\temail = own@self.example\n".write(
            toFile: cli.home.path + "/.gitconfig", atomically: true, encoding: .utf8)
        try cli.writeConfig(
            """
            {"accounts": [
              {"id": "work", "name": "Work", "git": {"email": "ada@work.example"}, "directories": ["~/work"]},
              {"id": "home", "name": "Home", "git": {"email": "ada@home.example"}}
            ]}
            """)
        try FileManager.default.createDirectory(atPath: cli.home.path + "/work/repo", withIntermediateDirectories: true)
        #expect(try cli.run(["setup", "git", "--yes"]).status == 0)
        return cli
    }

    /// `command` run by sh in `folder` with the home's environment.
    func sh(_ cli: PerchCommandLine, _ command: String, in folder: String) throws -> Spawn.Result {
        var environment = cli.environment
        environment["PATH"] = (TmuxSession.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        return try Spawn.run(["sh", "-c", "cd \(TmuxSession.quote(folder)) && \(command)"], environment: environment)
    }

    /// A repository at `~/evil` whose own `.git/config` names a command and an identity.
    func evilRepository(_ cli: PerchCommandLine, marker: String) throws -> String {
        let evil = cli.home.path + "/evil"
        try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: true)
        #expect(try sh(cli, "git init -q", in: evil).status == 0)
        let config = evil + "/.git/config"
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try
            (text
            + "[core]\n\tsshCommand = \"touch \(marker)-ssh; ssh\"\n[user]\n\tname = Evil\n\temail = evil@attacker.example\n"
            + "[credential]\n\thelper = \"!touch \(marker)-credential; echo username=evil; :\"\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        return evil
    }

    // Bug (trust issue): run inside a folder whose .git/config set core.sshCommand and user.*,
    // those were taken as "your own" and written into the file every bound folder includes: a
    // later fetch there ran the repository's command, and commits carried its email.
    @Test("a repository's own config never becomes your own: switch, set and setup typed inside it leave git in bound folders as you are")
    func repositoryConfigIsNotYourOwn() throws {
        try #require(Self.installed("git"))
        let cli = try boundHome()
        defer { cli.remove() }
        let marker = cli.home.path + "/PWNED"
        let evil = try evilRepository(cli, marker: marker)
        #expect(try sh(cli, "perch switch home", in: evil).status == 0)
        #expect(try sh(cli, "perch setup git --yes", in: evil).status == 0)
        let repo = cli.home.path + "/work/repo"
        #expect(try sh(cli, "git init -q", in: repo).status == 0)
        let ident = try sh(cli, "git var GIT_AUTHOR_IDENT", in: repo).stdout
        #expect(ident.hasPrefix("Own Name <ada@work.example>"), "git in the bound folder: \(ident)")
        let command = try sh(cli, "git config --get core.sshCommand", in: repo).stdout
        #expect(!command.contains("touch"), "the repository's command reached the bound folder: \(command)")
        let files = try sh(
            cli, "cat \"$XDG_CONFIG_HOME\"/perch/git/accounts/* \"$XDG_CONFIG_HOME\"/perch/git/*.gitconfig 2>/dev/null", in: repo)
        #expect(!files.stdout.contains("Evil") && !files.stdout.contains("attacker") && !files.stdout.contains("PWNED"), "\(files.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker + "-ssh"))
    }

    // Bug (trust issue): perch verify ran a repository's core.sshCommand and credential.helper.
    @Test("perch verify in a repository never runs the command its config names, and says so")
    func verifyNeverRunsRepositoryCommands() throws {
        try #require(Self.installed("git") && Self.installed("ssh"))
        var cli = try PerchCommandLine()
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1"]
        defer { cli.remove() }
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work", "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "gh": {"user": "ada"}}]}"#
        )
        // gh is named for verify's credential line, not switched: where gh cannot switch (not
        // installed, or before 2.40), --keep-going keeps the rest.
        let switched = try cli.run(["switch", "work", "--keep-going"])
        #expect(switched.status == 0 || (switched.status == 3 && switched.stderr.contains("gh failed")), "\(switched.stderr)")
        let marker = cli.home.path + "/PWNED"
        let evil = try evilRepository(cli, marker: marker)
        let verify = try sh(cli, "perch verify", in: evil)
        #expect(!FileManager.default.fileExists(atPath: marker + "-ssh"), "core.sshCommand ran: \(verify.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker + "-credential"), "credential.helper ran: \(verify.stdout)")
        #expect(
            verify.stdout.contains("this repository sets core.sshCommand in its own config, not plain ssh: not run"), "\(verify.stdout)")
        #expect(verify.stdout.contains("this repository sets credential.helper in its own config: not run"), "\(verify.stdout)")
    }

    // Bug (trust issue): "ssh.host": "github.com=exec=CMD" passed config check, and ssh read
    // Perch's `Match originalhost …` line as `Match … exec CMD` and ran it on every ssh.
    @Test("an ssh host or path ssh would read as syntax is refused before any switch, and ssh never runs what it names")
    func sshValuesNeverBecomeSyntax() throws {
        try #require(Self.installed("ssh"))
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let marker = cli.home.path + "/PWNED"
        try cli.writeConfig(
            #"{"accounts": [{"id": "x", "name": "X", "ssh": {"host": "github.com=exec=/usr/bin/touch=\#(marker)", "identityFile": "~/.ssh/id"}}, {"id": "q", "name": "Q", "ssh": {"host": "gitlab.com", "identityFile": "~/.ssh/id\"work"}}]}"#
        )
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("accounts[0].ssh.host: must be one host pattern"), "\(check.stderr)")
        #expect(check.stderr.contains("accounts[1].ssh.identityFile: must be a plain path, without a quote"), "\(check.stderr)")
        #expect(try cli.run(["setup", "ssh", "--yes"]).status == 0, "the include is added; the config's values never reach it")
        #expect(try cli.run(["switch", "x"]).status == 2)
        _ = try Spawn.run(["ssh", "-G", "-F", cli.home.path + "/.ssh/config", "github.com"], environment: cli.environment)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test("an identity file with spaces, # and = is the one ssh -G uses after a switch")
    func sshReadsTheExactPath() throws {
        try #require(Self.installed("ssh"))
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let key = cli.home.path + "/keys/my key #1=work"
        try cli.writeConfig(#"{"accounts": [{"id": "w", "name": "W", "ssh": {"host": "github.com", "identityFile": "\#(key)"}}]}"#)
        #expect(try cli.run(["setup", "ssh", "--yes"]).status == 0)
        let switched = try cli.run(["switch", "w"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let resolved = try Spawn.run(["ssh", "-G", "-F", cli.home.path + "/.ssh/config", "github.com"], environment: cli.environment)
        #expect(resolved.status == 0, "ssh read its whole config: \(resolved.stderr)")
        #expect(
            resolved.stdout.split(separator: "\n").first { $0.hasPrefix("identityfile ") } == "identityfile \(key)"[...],
            "\(resolved.stdout)")
    }

    // Bug (trust issue): a kube context named like a YAML number was written unquoted into
    // current-context, and kubectl could not load the kubeconfig at all; Perch said "applied".
    @Test("a kube context named 123 or yes is the one kubectl uses after a switch", .enabled(if: installed("kubectl")))
    func kubeContextNamedLikeANumber() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let kubeconfig = cli.home.path + "/kubeconfig"
        try Self.kubeconfig(contexts: ["\"123\"", "\"yes\"", "dev"], current: "dev").write(
            toFile: kubeconfig, atomically: true, encoding: .utf8)
        var withKube = cli
        withKube.extraEnvironment = ["KUBECONFIG": kubeconfig]
        try withKube.writeConfig(
            #"{"accounts": [{"id": "n", "name": "N", "kube": {"context": "123"}}, {"id": "y", "name": "Y", "kube": {"context": "yes"}}]}"#)
        for (account, context) in [("n", "123"), ("y", "yes")] {
            let switched = try withKube.run(["switch", account])
            #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
            let current = try Spawn.run(["kubectl", "config", "current-context"], environment: withKube.environment)
            #expect(current.status == 0 && current.stdout == context + "\n", "kubectl: \(current.stdout)\(current.stderr)")
        }
    }

    // Bug (trust issue): bash completion of an account name inside an open quote inserted the
    // name verbatim: a name holding $(…) ran on Enter.
    @Test("bash completes a name holding $(…) inside a double quote escaped, and Enter runs nothing")
    func bashCompletionQuotesNames() throws {
        try #require(Self.installed("bash") && Self.installed("tmux"))
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(
            #"{"accounts": [{"id": "evil", "name": "$(touch PWNED)x"}, {"id": "tick", "name": "`touch TICK`y"}, {"id": "bang", "name": "!#;touch HIST;#"}]}"#,
            home: home)
        let bin = try ShellEndToEndTests.binFolder(in: home)
        let pane = try ShellEndToEndTests.ShellPane("bash --norc --noprofile -i", home: home, bin: bin)
        try pane.wait { $0.contains("$") }
        try pane.type("cd \"$HOME\" && source <(perch completion bash)")
        try pane.press("Enter")
        var screen = try ShellEndToEndTests.complete(pane, #"perch switch "$(to"#, expecting: "PWNED")
        #expect(screen.contains(#"perch switch "\$(touch PWNED)x""#), "escaped inside the quote: \(screen)")
        try pane.press("Enter")
        #expect(try pane.wait { $0.contains("Switched to evil") || $0.contains("perch:") })
        screen = try ShellEndToEndTests.complete(pane, "perch switch '`to", expecting: "TICK")
        #expect(screen.contains("perch switch '`touch TICK`y'"), "as it is inside single quotes: \(screen)")
        try pane.press("Enter")
        #expect(try pane.wait { $0.contains("Switched to tick") || $0.contains("perch:") })
        // Bug (trust issue): inside double quotes, bash's history expansion read a `!` in the name
        // (`!#` is the line so far), closing the quote, and the rest ran.
        screen = try ShellEndToEndTests.complete(pane, #"perch switch "!"#, expecting: "HIST")
        try pane.press("Enter")
        #expect(try pane.wait { $0.contains("Switched to bang") || $0.contains("perch:") }, "\(screen)")
        let last = try pane.screen()
        #expect(!FileManager.default.fileExists(atPath: home.path + "/HIST"), "\(last)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/PWNED"), "\(last)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/TICK"), "\(last)")
    }

    // Bug (trust issue): a config others could write was refused only with onSwitch or a Catalog
    // command; its env set PROMPT_COMMAND, which ran at the next prompt, or PERCH_SCOPE*.
    @Test("env that a shell runs needs a config only you can write; Perch's own variables never come from a config")
    func codeBearingEnvironmentNeedsTrust() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A", "env": {"PROMPT_COMMAND": "touch ~/PWNED"}}]}"#, mode: 0o664)
        let shared = try cli.run(["switch", "a"])
        #expect(shared.status == 2, "\(shared.stdout)\(shared.stderr)")
        #expect(shared.stderr.contains("writable by group or others (mode 664); run: chmod go-w"), "\(shared.stderr)")
        let env = try cli.run(["env", "a"])
        #expect(env.status == 2 && !env.stdout.contains("PROMPT_COMMAND"), "\(env.stdout)")
        chmod(cli.configPath, 0o600)
        #expect(try cli.run(["config", "check"]).status == 0, "your own config may set it")
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A", "env": {"PERCH_SCOPE": "exec", "PERCH_SCOPE_SAVED": "{}"}}]}"#)
        let own = try cli.run(["config", "check"])
        #expect(own.status == 2, "\(own.stdout)")
        #expect(own.stderr.contains("accounts[0].env.PERCH_SCOPE: PERCH_ variables are Perch's own"), "\(own.stderr)")
    }

    // Bug (trust issue): names with an escape sequence or a newline were accepted by add and
    // config check, and reached every other program that reads the config or list --json raw.
    @Test("names, handles and groups with control characters are refused by perch add and config check")
    func controlCharactersRefused() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A"}]}"#)
        let added = try cli.run(["add", "b", "--name", "Bad\u{1B}[2Jname"])
        #expect(added.status == 2, "\(added.stdout)\(added.stderr)")
        #expect(added.stderr.contains("must not hold a control character"), "\(added.stderr)")
        #expect(!(try String(contentsOfFile: cli.configPath, encoding: .utf8)).contains("Bad"), "nothing was written")
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A\nB", "group": "G\u001b[31m"}]}"#)
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("accounts[0].name: must not hold a control character"), "\(check.stderr)")
        #expect(check.stderr.contains("accounts[0].group: must not hold a control character"), "\(check.stderr)")
    }

    /// Every run of 8 characters of `secret` found in `text`.
    static func leaks(of secret: String, in text: String) -> [String] {
        let characters = Array(secret)
        return (0...(characters.count - 8)).map { String(characters[$0..<($0 + 8)]) }.filter { text.contains($0) }
    }

    // Bug (trust issue): a token in an account's env was masked on status's check line only, and
    // printed whole on its "Last applied" lines (text and --json), by list --json and current
    // --json, on Overview and in the Catalog's field list.
    @Test("a token in env shows as …last4 in status, list, current and Overview, text and JSON")
    func envTokensNeverShown() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let token = "ghp_Zq8mW3vT1xY6uA9bC2dE5fG7hJ0kL4nP1rS3"
        let password = "correct horse battery"
        try cli.writeConfig(
            #"{"accounts": [{"id": "a", "name": "A", "env": {"API_TOKEN": "\#(token)", "DB_PASSWORD": "\#(password)", "TEAM": "web"}}]}"#)
        #expect(try cli.run(["switch", "a"]).status == 0)
        for arguments in [
            ["status"], ["status", "--json"], ["list", "--json"], ["current", "--json"], ["current", "--field", "env.API_TOKEN"],
            ["history"],
            ["verify"], ["verify", "--json"], ["switch", "a", "--dry-run"], ["switch", "a"],
        ] {
            let run = try cli.run(arguments)
            let output = run.stdout + run.stderr
            #expect(Self.leaks(of: token, in: output).isEmpty, "perch \(arguments.joined(separator: " ")): \(output)")
            #expect(!output.contains(password), "perch \(arguments.joined(separator: " ")): \(output)")
        }
        let status = try cli.run(["status"]).stdout
        #expect(status.contains("API_TOKEN=…1rS3"), "\(status)")
        #expect(status.contains("TEAM=web"), "what is not secret stays readable: \(status)")
        let session = try TmuxSession.started(home: cli.home)
        try session.waitForStart()
        let overview = try session.screen().joined(separator: "\n")
        #expect(overview.contains("env"), "\(overview)")
        #expect(Self.leaks(of: token, in: overview).isEmpty && !overview.contains(password), "\(overview)")
        try session.expectAfter("q", shows: "EXIT=0")
    }

    // Bug (trust issue): --state in a shared sticky folder followed another user's links planted
    // at the names Perch writes beside it, and overwrote the targets.
    @Test("a state or config folder others can write is refused, naming it; a link planted there is never followed")
    func sharedFoldersRefused() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A"}]}"#)
        let shared = cli.home.path + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o1777)
        let target = cli.home.path + "/precious"
        try "keep me\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: shared + "/state.history.jsonl", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: shared + "/state.json", withDestinationPath: target)
        let run = try cli.run(["--state", shared + "/state.json", "switch", "a"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("--state: \(shared) can be written by others (mode 1777)"), "\(run.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        let nested = try cli.run(["--state", shared + "/new/state.json", "list"])
        #expect(nested.status == 2 && nested.stderr.contains(shared), "a folder to be made there is refused too: \(nested.stderr)")
        try FileManager.default.copyItem(atPath: cli.configPath, toPath: shared + "/accounts.json")
        let config = try cli.run(["--config", shared + "/accounts.json", "list"])
        #expect(config.status == 2 && config.stderr.contains("--config: \(shared)"), "\(config.stderr)")
    }

    // Bug (trust issue): the duplicate check of an account's folders compared each with every
    // earlier one: 100,000 bound folders took over 120 s on every command.
    @Test("config check with 100,000 bound folders and remotes ends in well under the 120 s it took (a wide bound; make bench measures it)")
    func manyBoundFoldersAreLinear() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let folders = (0..<100_000).map { "\"~/f/\($0)\"" }.joined(separator: ",")
        let remotes = (0..<100_000).map { "\"github.com/o/r\($0)\"" }.joined(separator: ",")
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A", "directories": [\#(folders)], "remotes": [\#(remotes)]}]}"#)
        let start = Date()
        let check = try cli.run(["config", "check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
    }
}

extension SecurityEndToEndTests {
    // Bug (trust issue): a FIFO reached through a repository's config ([include] path = fifo, or
    // the config itself) froze the prompt hook for 20 s on cd and perch status for 30 s.
    @Test("a repository whose config is or includes a FIFO freezes nothing: status, verify and the prompt hook answer at once and say why")
    func fifoInRepositoryConfig() throws {
        try #require(Self.installed("git"))
        let cli = try boundHome()
        defer { cli.remove() }
        #expect(try cli.run(["switch", "home"]).status == 0)
        for (name, fifoIsConfig) in [("included", false), ("itself", true)] {
            let repo = cli.home.path + "/" + name
            try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
            #expect(try sh(cli, "git init -q", in: repo).status == 0)
            if fifoIsConfig {
                try FileManager.default.removeItem(atPath: repo + "/.git/config")
                #expect(mkfifo(repo + "/.git/config", 0o600) == 0)
            } else {
                #expect(mkfifo(repo + "/.git/fifo", 0o600) == 0)
                let config = try String(contentsOfFile: repo + "/.git/config", encoding: .utf8)
                try (config + "[include]\n\tpath = fifo\n").write(toFile: repo + "/.git/config", atomically: true, encoding: .utf8)
            }
            for command in ["perch status", "perch verify", "perch shell-hook bash"] {
                let start = Date()
                let run = try sh(cli, command, in: repo)
                let seconds = Date().timeIntervalSince(start)
                // Before: 10 s per git asked (its timeout), 20–30 s in all; a wide bound for a busy machine.
                #expect(seconds < 8, "\(command) in a repository whose config \(name) is a FIFO took \(seconds) s")
                if command != "perch shell-hook bash" {
                    #expect(run.stdout.contains(", a FIFO, which git would wait on"), "\(command): \(run.stdout)\(run.stderr)")
                }
            }
        }
    }

    // Bug (trust issue): GITHUB_TOKEN stayed set in perch exec of an account with gh, and your own
    // AWS_SECRET_ACCESS_KEY, removed so the account's profile wins, reached the command inside
    // PERCH_SCOPE_SAVED.
    @Test("perch exec gives the command no token of yours under any name, and the account's gh token to gh")
    func execPassesNoOtherSecrets() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        let bin = cli.home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        writeExecutable(
            "#!/bin/sh\n[ \"$1 $2\" = \"auth token\" ] && echo gho_accountTokenForAda0000000000 && exit 0\nexit 0\n", to: bin + "/gh")
        let runtime = cli.home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let own = [
            "GITHUB_TOKEN": "ghp_yourOwnGithubToken111111111111111", "AWS_SECRET_ACCESS_KEY": "yourOwnSecretAccessKey/2222222222222",
            "AWS_ACCESS_KEY_ID": "AKIAYOUROWN3333333333", "GH_TOKEN": "ghp_yourOwnGhToken4444444444444444444",
        ]
        cli.extraEnvironment = own.merging([
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "XDG_RUNTIME_DIR": runtime,
        ]) { $1 }
        try cli.writeConfig(#"{"accounts": [{"id": "ada", "name": "Ada", "gh": {"user": "ada"}, "aws": {"profile": "ada"}}]}"#)
        let run = try cli.run(["exec", "ada", "--", "env"])
        #expect(run.status == 0, "\(run.stderr)")
        for (name, value) in own {
            #expect(Self.leaks(of: value, in: run.stdout).isEmpty, "your own \(name) reached the command: \(run.stdout)")
        }
        #expect(run.stdout.contains("GH_TOKEN=gho_accountTokenForAda0000000000"), "the account's token, for gh: \(run.stdout)")
        #expect(!run.stdout.contains("GITHUB_TOKEN="), "\(run.stdout)")
    }
}

extension SecurityEndToEndTests {
    // The trust issue's secrets item: a distinct token in every place Perch reads one, and the
    // output of every command that reads them: no token, and no run of 8 of its characters.
    @Test("a token planted in every place Perch reads one shows in no command's output, text or JSON")
    func tokensInToolFilesNeverShown() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        let h = cli.home.path
        let tokens = [
            "environment": "ghp_TchSFVXBEgAHU6HV92uCsEJT52KP93ydEscK",
            "config": "glpat-xDCMWSY4zWGcFB3XW5ax",
            "hosts.yml": "gho_2kvmtzs6xuSqvDhZPYKt5BRhysdUPca8aKqf",
            "git-credentials": "ghp_nFnaDjsBs9mvtk4UWVLMAsTDbGAspyZsTfeN",
            "docker": "XTRutkvQhBKBrS9gGMsP5EFExJb5rLFvxv3ye99au8Ta4baL==",
            "aws": "ykBEWqu8xcQWZepP7bkm/yAwcqC9t9fu6qvDQpQQ",
            "kubeconfig": "eyJDDFs5ZpuU7We6k8xaqDy.4bvf2apCaR8aDFZxTF8nKaWQ.AcW2JvEqs42crq6G",
        ]
        for folder in ["gh", ".docker", ".aws", ".kube"] {
            try FileManager.default.createDirectory(atPath: h + "/" + folder, withIntermediateDirectories: true)
        }
        try
            "github.com:\n    oauth_token: \(tokens["hosts.yml"]!)\n    user: ada\n    git_protocol: https\n    users:\n        ada:\n            oauth_token: \(tokens["hosts.yml"]!)\n"
            .write(toFile: h + "/gh/hosts.yml", atomically: true, encoding: .utf8)
        try "https://ada:\(tokens["git-credentials"]!)@github.com\n".write(
            toFile: h + "/.git-credentials", atomically: true, encoding: .utf8)
        try #"{"auths": {"registry.example": {"auth": "\#(tokens["docker"]!)"}}}"#.write(
            toFile: h + "/.docker/config.json", atomically: true, encoding: .utf8)
        try "[work]\naws_access_key_id = AKIA9VMVJT36RFZAJUVT\naws_secret_access_key = \(tokens["aws"]!)\n".write(
            toFile: h + "/.aws/credentials", atomically: true, encoding: .utf8)
        try "[profile work]\nregion = eu-west-1\n".write(toFile: h + "/.aws/config", atomically: true, encoding: .utf8)
        try Self.kubeconfig(contexts: ["work"], current: "work", user: "{token: \(tokens["kubeconfig"]!)}").write(
            toFile: h + "/.kube/config", atomically: true, encoding: .utf8)
        cli.extraEnvironment = [
            "GH_TOKEN": tokens["environment"]!, "GH_CONFIG_DIR": h + "/gh", "KUBECONFIG": h + "/.kube/config", "GIT_CONFIG_NOSYSTEM": "1",
            "AWS_CONFIG_FILE": h + "/.aws/config", "AWS_SHARED_CREDENTIALS_FILE": h + "/.aws/credentials", "DOCKER_CONFIG": h + "/.docker",
        ]
        try "[credential]\n\thelper = store\n[user]\n\temail = ada@work.example\n".write(
            toFile: h + "/.gitconfig", atomically: true, encoding: .utf8)
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work", "git": {"email": "ada@work.example"}, "gh": {"user": "ada"}, "aws": "work", "kube": {"context": "work"}, "docker": "default", "env": {"DEPLOY_KEY": "\#(tokens["config"]!)"}}]}"#
        )
        _ = try cli.run(["switch", "work", "--keep-going"])
        for arguments in [
            ["audit"], ["audit", "--json"], ["status"], ["status", "--json"], ["verify"], ["verify", "--json"], ["doctor"], ["import"],
            ["list", "--json"], ["current", "--json"], ["env"], ["history"], ["switch", "work", "--dry-run"],
        ] {
            let run = try cli.run(arguments)
            for (place, token) in tokens {
                // `perch env` must print the config's own value: it is the shell code that sets it.
                if arguments == ["env"], place == "config" { continue }
                #expect(
                    Self.leaks(of: token, in: run.stdout + run.stderr).isEmpty,
                    "perch \(arguments.joined(separator: " ")) showed the \(place) token")
            }
        }
        let exec = try cli.run(["exec", "work", "--keep-going", "--", "env"])
        // The account's own values are the command's by design: its env, and its gh token (from
        // gh's hosts.yml, where gh is installed).
        for (place, token) in tokens where place != "config" && place != "hosts.yml" {
            #expect(
                Self.leaks(of: token, in: exec.stdout).isEmpty,
                "perch exec gave the command the \(place) token under some name: \(exec.stdout)")
        }
    }
}

extension SecurityEndToEndTests {
    // Bug (trust issue): the prompt hook compared $PWD with every bound folder in a shell loop:
    // with 10,000 bound folders each prompt took 35 ms. It now looks $PWD's folders up in a set;
    // folder names that are syntax in a shell pattern or a subscript must still be found.
    @Test(
        "the prompt hook finds the deepest bound folder by lookup, names with ] * ' and spaces included, in bash, zsh and fish",
        arguments: ["bash", "zsh", "fish"])
    func hookFindsBoundFoldersBySet(shell: String) throws {
        try #require(Self.installed(shell), "\(shell) is not installed (make test-deps installs it)")
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1", "PERCH_DIRECTORY_NOTICE": "0"]
        let odd = "odd ]*' [x]"
        let many = (0..<2000).map { "\"~/filler/\($0)\"" }.joined(separator: ", ")
        try cli.writeConfig(
            """
            {"accounts": [
              {"id": "outer", "name": "Outer", "env": {"TEAM": "outer"}, "directories": ["~/w", \(many)]},
              {"id": "inner", "name": "Inner", "env": {"TEAM": "inner"}, "directories": ["~/w/\(odd)"]},
              {"id": "home", "name": "Home", "env": {"TEAM": "home"}}
            ]}
            """)
        #expect(try cli.run(["switch", "home"]).status == 0)
        let h = cli.home.path
        for folder in ["w/\(odd)/deep/er", "w/plain", "elsewhere", "filler/1999/x"] {
            try FileManager.default.createDirectory(atPath: h + "/" + folder, withIntermediateDirectories: true)
        }
        var environment = cli.environment
        environment["PATH"] = (TmuxSession.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        environment["HISTFILE"] = h + "/.history"
        // One shell: the first prompt asks perch; each later one finds its folder in the set and
        // asks perch again only when the place changed.
        let visits = [
            ("w/\(odd)/deep/er", "inner"), ("w/plain", "outer"), ("elsewhere", "home"), ("filler/1999/x", "outer"), ("w/\(odd)", "inner"),
        ]
        let steps = visits.map { "cd \(TmuxSession.quote(h + "/" + $0.0)); __perch_hook; echo \"$PERCH_ACCOUNT\"" }.joined(separator: "; ")
        let argv: [String] =
            switch shell {
            case "bash": ["bash", "--norc", "--noprofile", "-c", "eval \"$(perch shell-init bash)\"; \(steps)"]
            case "zsh": ["zsh", "-f", "-c", "eval \"$(perch shell-init zsh)\"; \(steps)"]
            default: ["fish", "--no-config", "-c", "perch shell-init fish | source; \(steps)"]
            }
        let run = try Spawn.run(argv, environment: environment)
        let said = run.stdout.split(separator: "\n").map(String.init)
        #expect(said == visits.map(\.1), "\(shell): \(run.stdout)\(run.stderr)")
    }
}
