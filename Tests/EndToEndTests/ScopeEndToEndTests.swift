import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch home with real tools' files: a kubeconfig with contexts, gcloud configurations,
/// a global git config, and a config of accounts naming them.
struct ScopedHome {
    let cli: PerchCommandLine
    var home: String { cli.home.path }
    var kubeconfig: String { home + "/kube/config" }
    var gcloud: String { home + "/gcloud" }
    var bin: String { home + "/bin" }

    /// `accounts` as JSON members (without braces of the list); `contexts` and `configurations`
    /// are made for the tools.
    init(accounts: [String], contexts: [String], configurations: [String]) throws {
        var cli = try PerchCommandLine()
        let home = cli.home.path
        for folder in ["kube", "gcloud/configurations", "bin", "calls"] {
            try FileManager.default.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
        }
        var kube =
            "apiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://127.0.0.1:1\nusers:\n- name: ada\n  user:\n    token: x\ncontexts:\n"
        for context in contexts { kube += "- name: \(context)\n  context:\n    cluster: local\n    user: ada\n" }
        kube += "current-context: \(contexts[0])\n"
        try kube.write(toFile: home + "/kube/config", atomically: true, encoding: .utf8)
        for configuration in configurations {
            try "[core]\naccount = \(configuration)@example.org\n".write(
                toFile: home + "/gcloud/configurations/config_\(configuration)", atomically: true, encoding: .utf8)
        }
        try configurations[0].write(toFile: home + "/gcloud/active_config", atomically: true, encoding: .utf8)
        try "[user]\n\tname = Own Self\n\temail = own@self.example\n".write(toFile: home + "/.gitconfig", atomically: true, encoding: .utf8)
        // gh: a fake that records its arguments, prints a token per user, and switches the
        // active user in hosts.yml as the real one does.
        writeExecutable(
            #"""
            #!/bin/sh
            echo "$*" >> "$HOME/calls/gh.log"
            case "$1 $2" in
              "auth token") echo "token-$6" ;;
              "auth switch") mkdir -p "$GH_CONFIG_DIR"; printf '%s:\n    users:\n        %s:\n    user: %s\n' "$4" "$6" "$6" > "$GH_CONFIG_DIR/hosts.yml" ;;
            esac
            exit 0

            """#, to: home + "/bin/gh")
        cli.extraEnvironment = [
            "KUBECONFIG": home + "/kube/config", "CLOUDSDK_CONFIG": home + "/gcloud", "GIT_CONFIG_NOSYSTEM": "1",
            "GH_CONFIG_DIR": home + "/gh",
            "PATH": home + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "CLOUDSDK_CORE_DISABLE_PROMPTS": "1", "CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK": "1",
        ]
        try cli.writeConfig("{\"accounts\": [\n" + accounts.joined(separator: ",\n") + "\n]}")
        self.cli = cli
    }

    /// The bytes of the user's kubeconfig and gcloud files.
    func toolFiles() -> [String: Data] {
        var files: [String: Data] = [:]
        for path in [kubeconfig, gcloud + "/active_config"] { files[path] = FileManager.default.contents(atPath: path) }
        return files
    }
}

/// Issue 19: `perch exec` gives one command an account; nothing global changes.
@Suite("perch exec", .serialized, .currentBinary)
struct ExecEndToEndTests {
    static let tools = ["git", "kubectl"].allSatisfy(ShellEndToEndTests.installed)

    func home() throws -> ScopedHome {
        try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"name": "Ada Work", "email": "ada@work.example"}, "kube": {"context": "prod", "namespace": "api"}, "gcloud": "work", "aws": "work-admin", "gh": {"user": "ada-work"}, "env": {"TEAM": "core"}}"#,
                #"{"id": "personal", "name": "Personal", "git": {"email": "ada@home.example"}, "kube": {"context": "dev"}, "gcloud": "home", "aws": "home"}"#,
            ], contexts: ["dev", "prod"], configurations: ["home", "work"])
    }

    @Test(
        "the command uses the account's git, kube, gcloud, aws, gh and env; the global account and the user's files are untouched",
        .enabled(if: tools))
    func wholeIdentity() throws {
        let scoped = try home()
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try scoped.cli.run(["switch", "personal"]).status == 0)
        let before = scoped.toolFiles()
        let script = #"""
            git var GIT_AUTHOR_IDENT | cut -d' ' -f1-3
            git config --show-origin user.email
            kubectl config current-context
            kubectl config view --minify -o 'jsonpath={..namespace}'; echo
            echo "gcloud=$CLOUDSDK_ACTIVE_CONFIG_NAME aws=$AWS_PROFILE team=$TEAM who=$PERCH_ACCOUNT/$PERCH_SCOPE gh-token=${GH_TOKEN-none}"
            """#
        let run = try scoped.cli.run(["exec", "work", "--", "sh", "-c", script])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Ada Work <ada@work.example>", "\(lines)")
        #expect(lines.dropFirst().first == "command line:\tada@work.example")
        #expect(Array(lines.dropFirst(2).prefix(2)) == ["prod", "api"])
        #expect(lines.last == "gcloud=work aws=work-admin team=core who=work/exec gh-token=token-ada-work")
        let gh = try String(contentsOfFile: scoped.home + "/calls/gh.log", encoding: .utf8)
        #expect(gh.contains("auth token --hostname github.com --user ada-work"), "\(gh)")
        // Outside: still personal, and the user's files byte for byte as they were.
        #expect(try scoped.cli.run(["current", "--field", "id"]).stdout == "personal\n")
        let outside = try Spawn.run(["git", "var", "GIT_AUTHOR_IDENT"], environment: scoped.cli.environment).stdout
        #expect(outside.hasPrefix("Own Self <ada@home.example>"), "\(outside)")
        #expect(try Spawn.run(["kubectl", "config", "current-context"], environment: scoped.cli.environment).stdout == "dev\n")
        #expect(scoped.toolFiles() == before)
    }

    @Test(
        "real gcloud in perch exec lists the account's configuration as active; outside it the global one",
        .enabled(if: ShellEndToEndTests.installed("gcloud")))
    func realGcloud() throws {
        let scoped = try home()
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["switch", "personal"]).status == 0)
        let listing = ["gcloud", "config", "configurations", "list", "--format=value(name,is_active)"]
        let inside = try scoped.cli.run(["exec", "work", "--"] + listing)
        #expect(inside.stdout.contains("work\tTrue") && inside.stdout.contains("home\tFalse"), "\(inside.stdout)\(inside.stderr)")
        let outside = try Spawn.run(listing, environment: scoped.cli.environment)
        #expect(outside.stdout.contains("home\tTrue"), "\(outside.stdout)\(outside.stderr)")
    }

    /// Issue 47's budget: `perch exec` asked `kubectl config view` and git at every run (86.8 ms
    /// over `true`); their answers are kept. A kept answer must never outlive the files it came
    /// from: a kubeconfig changed by kubectl and a git file the global config includes.
    @Test(
        "perch exec keeps kubectl's and git's answers, and follows the kubeconfig and an included git file when they change",
        .enabled(if: tools))
    func keptAnswersFollowTheFiles() throws {
        let scoped = try home()
        defer { scoped.cli.remove() }
        try "[include]\n\tpath = more.gitconfig\n".write(toFile: scoped.home + "/.gitconfig", atomically: true, encoding: .utf8)
        try "[user]\n\tname = First Name\n".write(toFile: scoped.home + "/more.gitconfig", atomically: true, encoding: .utf8)
        #expect(try scoped.cli.run(["setup", "git", "--yes"]).status == 0)
        let answers = (scoped.cli.statePath as NSString).deletingPathExtension + ".answers"
        let script = "git var GIT_AUTHOR_IDENT | cut -d' ' -f1-3; kubectl config view --minify -o 'jsonpath={.contexts[0].context.cluster}'"
        func ask(_ account: String) throws -> String {
            let run = try scoped.cli.run(["exec", account, "--", "sh", "-c", script])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        // Until the answers are kept (none is while a file is younger than 2 s), each run asks.
        let deadline = Date().addingTimeInterval(20)
        var kept: [String] = []
        repeat {
            #expect(try ask("work") == "Ada Work <ada@work.example>\nlocal")
            #expect(try ask("personal").hasPrefix("First Name <ada@home.example>\n"))
            kept = (try? FileManager.default.contentsOfDirectory(atPath: answers)) ?? []
        } while kept.count < 2 && Date() < deadline
        #expect(kept.count >= 2, "kubectl's and git's answers are kept: \(kept)")
        // kubectl rewrites the kubeconfig in place: the context's cluster is now another.
        for arguments in [["set-cluster", "other", "--server", "https://127.0.0.1:2"], ["set-context", "prod", "--cluster", "other"]] {
            let kubectl = try Spawn.run(["kubectl", "config"] + arguments, environment: scoped.cli.environment)
            #expect(kubectl.status == 0, "\(kubectl.stderr)")
        }
        #expect(try ask("work") == "Ada Work <ada@work.example>\nother")
        // The included file (which the global config names, not the other way round) changes.
        try "[user]\n\tname = Second Name\n".write(toFile: scoped.home + "/more.gitconfig", atomically: false, encoding: .utf8)
        #expect(try ask("personal").hasPrefix("Second Name <ada@home.example>\n"))
    }

    /// Issue 49, agents as accounts: an agent's command is its account in every tool, with no
    /// way back to the user's own, whatever a repository or the command itself does.
    @Test(
        "perch exec --agent: commits are the account's over a repository's own config, git config --global inside changes nothing of yours, unnamed tools are closed, --json says what was given",
        .enabled(if: tools))
    func agent() throws {
        let scoped = try ScopedHome(
            accounts: [
                #"{"id": "bot", "name": "Bot", "git": {"name": "Bot", "email": "bot@example.org"}, "env": {"TEAM": "bots", "DB_PASSWORD": "hunter2"}}"#,
                #"{"id": "personal", "name": "Personal", "git": {"email": "ada@home.example"}, "kube": {"context": "dev"}, "gh": {"user": "ada"}}"#,
            ], contexts: ["dev", "prod"], configurations: ["home"])
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try scoped.cli.run(["switch", "personal"]).status == 0)
        let repo = scoped.home + "/repo"
        #expect(
            try Spawn.run(["git", "init", "-q", repo], environment: scoped.cli.environment).status == 0)
        // The repository's own config names someone else, and signs with a key of yours.
        try "[user]\n\tname = Someone\n\temail = someone@else.example\n[commit]\n\tgpgsign = true\n".write(
            toFile: repo + "/.git/config", atomically: false, encoding: .utf8)
        // Your credential helper holds your token for github.com (found in review: it reached the agent).
        try "https://ada:ghp_yourOwnToken0123456789@github.com\n".write(
            toFile: scoped.home + "/.git-credentials", atomically: true, encoding: .utf8)
        #expect(
            try Spawn.run(["git", "config", "--global", "credential.helper", "store"], environment: scoped.cli.environment).status == 0)
        let gitconfig = try String(contentsOfFile: scoped.home + "/.gitconfig", encoding: .utf8)
        let script = """
            cd \(TmuxSession.quote(repo)) && git commit -q --allow-empty -m agent && git log -1 --format='%an <%ae>|%cn <%ce>'
            git config --global user.email inside@agent.example
            kubectl config current-context 2>/dev/null || echo no-context
            printf 'protocol=https\nhost=github.com\n\n' | git credential fill 2>/dev/null | grep -c password= || true
            echo "gh=${GH_TOKEN-none} team=$TEAM agent=$PERCH_AGENT sock=${SSH_AUTH_SOCK-none} role=${AWS_ROLE_ARN-none} gac=${GOOGLE_APPLICATION_CREDENTIALS-none} askpass=${GIT_ASKPASS-none}"
            """
        var yours = scoped.cli.environment
        for (name, value) in [
            ("SSH_AUTH_SOCK", scoped.home + "/your-agent.sock"), ("AWS_ROLE_ARN", "arn:aws:iam::1:role/you"),
            ("GOOGLE_APPLICATION_CREDENTIALS", scoped.home + "/you.json"), ("GIT_ASKPASS", "/bin/yours"),
        ] {
            yours[name] = value
        }
        let run = try Spawn.run([TmuxSession.binary, "exec", "bot", "--agent", "--json", "--", "sh", "-c", script], environment: yours)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Bot <bot@example.org>|Bot <bot@example.org>", "\(lines)")
        #expect(lines.dropFirst().first == "no-context", "the user's kubeconfig is closed: \(lines)")
        #expect(lines.dropFirst(2).first == "0", "no credential of yours reaches the agent: \(lines)")
        #expect(lines.last == "gh=none team=bots agent=1 sock=none role=none gac=none askpass=none", "\(lines)")
        #expect(
            try String(contentsOfFile: scoped.home + "/.gitconfig", encoding: .utf8) == gitconfig, "your global git config is untouched")
        // The record: one line of JSON, no secret.
        let record = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("{") })
        #expect(!record.contains("hunter2"), "\(record)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        #expect(object["account"] as? String == "bot")
        #expect((object["tools"] as? [String: String])?["git"] == "Bot <bot@example.org>", "\(object)")
        let closed = Set(object["closed"] as? [String] ?? [])
        #expect(["kube", "gcloud", "gh", "ssh"].allSatisfy(closed.contains), "\(closed)")
        // The next start gets your global config afresh: the agent's write went nowhere.
        let again = try scoped.cli.run(["exec", "bot", "--agent", "--", "git", "config", "--global", "user.email"])
        #expect(again.stdout != "inside@agent.example\n", "\(again.stdout)")
    }

    @Test(
        "an account with \"agent\": {\"coAuthoredBy\": …} is an agent at every perch exec, and the guard's commit-msg names the person in a Co-authored-by trailer",
        .enabled(if: tools))
    func agentCoAuthor() throws {
        let scoped = try ScopedHome(
            accounts: [
                #"{"id": "bot", "name": "Bot", "agent": {"coAuthoredBy": "Ada Lovelace <ada@example.org>"}, "git": {"name": "Bot", "email": "bot@example.org"}}"#,
                #"{"id": "plainbot", "name": "Plain bot", "agent": true, "git": {"name": "Plain", "email": "plain@example.org"}}"#,
                #"{"id": "personal", "name": "Personal", "git": {"name": "Ada", "email": "ada@home.example"}}"#,
            ], contexts: ["dev"], configurations: ["home"])
        defer { scoped.cli.remove() }
        for arguments in [["setup", "git", "--yes"], ["switch", "personal"], ["guard", "install"]] {
            let done = try scoped.cli.run(arguments)
            #expect(done.status == 0, "\(arguments): \(done.stdout)\(done.stderr)")
        }
        let repo = scoped.home + "/repo"
        #expect(try Spawn.run(["git", "init", "-q", repo], environment: scoped.cli.environment).status == 0)
        let script =
            "cd \(TmuxSession.quote(repo)) && git commit -q --allow-empty -m work && git log -1 --format='%an|%(trailers:key=Co-authored-by,valueonly)'"
        var environment = scoped.cli.environment
        environment["PERCH_CO_AUTHORED_BY"] = "Someone Else <else@example.org>"  // not an agent's: ignored
        let results = try ["bot", "plainbot", "personal"].map { id in
            try Spawn.run([TmuxSession.binary, "exec", id, "--", "sh", "-c", script], environment: environment)
        }
        #expect(results.map(\.status) == [0, 0, 0], "\(results.map(\.stderr))")
        #expect(results[0].stdout.hasPrefix("Bot|Ada Lovelace <ada@example.org>"), "\(results[0].stdout)")
        #expect(results[1].stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Plain|", "\(results[1].stdout)")
        #expect(results[2].stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Ada|", "\(results[2].stdout)")
    }

    @Test("perch exec --agent fails closed: a missing ssh key or git email refuses the command before it starts, --keep-going or not")
    func agentFailsClosed() throws {
        let scoped = try ScopedHome(
            accounts: [
                #"{"id": "bot", "name": "Bot", "git": {"name": "Bot", "email": "bot@example.org"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_bot"}}"#,
                #"{"id": "nameless", "name": "Nameless", "git": {"name": "Nameless"}}"#,
                // Found in review: a key path naming a folder, and an agent socket nobody listens on, let the command start.
                #"{"id": "folder", "name": "Folder", "git": {"name": "F", "email": "f@example.org"}, "ssh": {"host": "github.com", "identityFile": "~/keys"}}"#,
                #"{"id": "dead", "name": "Dead", "git": {"name": "D", "email": "d@example.org"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_bot", "agent": "~/dead.sock"}}"#,
            ], contexts: ["dev"], configurations: ["home"])
        defer { scoped.cli.remove() }
        try FileManager.default.createDirectory(atPath: scoped.home + "/keys", withIntermediateDirectories: true)
        // A socket file with no listener: bound, then closed.
        let dead = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in Array((scoped.home + "/dead.sock").utf8).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(dead, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(dead)
        let marker = scoped.home + "/ran"
        for arguments in [
            ["exec", "bot", "--agent"], ["exec", "bot", "--agent", "--keep-going"], ["exec", "nameless", "--agent"],
            ["exec", "folder", "--agent"], ["exec", "dead", "--agent"],
        ] {
            let run = try scoped.cli.run(arguments + ["--", "touch", marker])
            #expect(run.status == 3, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("was not started"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker), "\(arguments) ran the command")
        }
        #expect(try scoped.cli.run(["exec", "bot", "--agent", "--", "true"]).stderr.contains("ssh: the key ~/.ssh/id_bot is not there"))
        #expect(try scoped.cli.run(["exec", "nameless", "--agent", "--", "true"]).stderr.contains("names no email"))
        #expect(try scoped.cli.run(["exec", "folder", "--agent", "--", "true"]).stderr.contains("ssh: the key ~/keys is not there"))
        #expect(try scoped.cli.run(["exec", "dead", "--agent", "--", "true"]).stderr.contains("nothing answers on that socket"))
        // The key made: it starts.
        try FileManager.default.createDirectory(atPath: scoped.home + "/.ssh", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scoped.home + "/.ssh/id_bot", contents: Data())
        let run = try scoped.cli.run(["exec", "bot", "--agent", "--", "touch", marker])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test("the exit status is the command's, stdin reaches it, no Perch process waits, and a signal ends the command itself")
    func becomesTheCommand() throws {
        let scoped = try home()
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["exec", "personal", "--", "sh", "-c", "exit 7"]).status == 7)
        let input = scoped.home + "/input"
        try "typed\n".write(toFile: input, atomically: true, encoding: .utf8)
        let cat = try Spawn.run([TmuxSession.binary, "exec", "personal", "--", "cat"], environment: scoped.cli.environment, stdin: input)
        #expect(cat.stdout == "typed\n")
        // The process Perch started as is the command: its pid runs `sleep` (execve, no wrapper left).
        let pidFile = scoped.home + "/pid"
        let pid = try Spawn.start(
            [TmuxSession.binary, "exec", "personal", "--", "sh", "-c", "echo $$ > \(pidFile); exec sleep 30"],
            environment: scoped.cli.environment)
        var named = ""
        _ = TmuxSession.eventually(timeout: 10) {
            named = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return named == "sleep\n"
        }
        #expect(named == "sleep\n", "the started process became the command: \(named)")
        #expect((try? String(contentsOfFile: pidFile, encoding: .utf8)) == "\(pid)\n")
        kill(pid, SIGTERM)
        #expect(try Spawn.wait(pid) == 128 + SIGTERM, "ended by the signal itself")
        // Bug: `nohup perch exec …` lost nohup: every signal was reset to its default. A signal
        // the parent ignored stays ignored, as a shell's child has it (SigIgn bit 1 is SIGHUP).
        let ignored = try Spawn.run(
            ["sh", "-c", "trap '' HUP; exec '\(TmuxSession.binary)' exec personal -- grep SigIgn /proc/self/status"],
            environment: scoped.cli.environment)
        let mask = UInt64(ignored.stdout.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16) ?? 0
        #expect(mask & 1 == 1, "SIGHUP still ignored: \(ignored.stdout)\(ignored.stderr)")
        // SIGPIPE is at its default again in the command (Perch ignores it itself).
        // (Ignored, `yes` would see EPIPE and say "Broken pipe"; at its default it just ends.)
        // Perch starts with SIGPIPE at its default (`env --default-signal`: the test runner
        // ignores it), ignores it itself, and gives the command back the default.
        let pipe = try Spawn.run(
            ["sh", "-c", "env --default-signal=PIPE '\(TmuxSession.binary)' exec personal -- yes | head -1"],
            environment: scoped.cli.environment)
        #expect(pipe.stdout == "y\n" && !pipe.stderr.contains("Broken pipe"), "\(pipe.stdout)\(pipe.stderr)")
    }

    @Test("bad input: unknown account (1), missing command (2), a command not found (127), a tool that cannot be scoped (3, nothing run)")
    func badInput() throws {
        let scoped = try home()
        defer { scoped.cli.remove() }
        let unknown = try scoped.cli.run(["exec", "wrok", "--", "true"])
        #expect(unknown.status == 1 && unknown.stderr.contains("did you mean 'work'"), "\(unknown.stderr)")
        let missing = try scoped.cli.run(["exec", "work"])
        #expect(missing.status == 2 && missing.stderr.contains("needs a command to run"))
        let notFound = try scoped.cli.run(["exec", "personal", "--", "no-such-program-here"])
        #expect(notFound.status == 127 && notFound.stderr.contains("command not found"))
        try scoped.cli.writeConfig(#"{"accounts": [{"id": "broken", "name": "Broken", "kube": {"context": "gone"}}]}"#)
        let marker = scoped.home + "/ran"
        let broken = try scoped.cli.run(["exec", "broken", "--", "touch", marker])
        #expect(broken.status == 3 && broken.stderr.contains("no context \"gone\""), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "nothing was run")
        let kept = try scoped.cli.run(["exec", "broken", "--keep-going", "--", "touch", marker])
        #expect(kept.status == 0 && FileManager.default.fileExists(atPath: marker))
        // Options of the command are its own after --, and without -- after the id.
        let options = try scoped.cli.run(["exec", "broken", "--keep-going", "--", "sh", "-c", "echo $1", "-", "--help"])
        #expect(options.stdout == "--help\n")
        let bare = try scoped.cli.run(["exec", "--keep-going", "broken", "echo", "--config", "x"])
        #expect(bare.stdout == "--config x\n", "\(bare.stderr)")
    }

    /// 8 commands under `perch exec`, each as another account, each asking git, kubectl and the
    /// environment 50 times (real gcloud every 25th time: it takes a second), while the global account is switched
    /// back and forth: every answer is the command's own account's.
    @Test("isolation: 8 perch exec processes and global switches meanwhile, zero cross-contamination", .enabled(if: tools))
    func isolation() throws {
        let count = 8
        let rounds = 50
        var accounts = (0..<count).map { n in
            #"{"id": "a\#(n)", "name": "A\#(n)", "git": {"email": "a\#(n)@example.org"}, "kube": {"context": "c\#(n)"}, "gcloud": "g\#(n)", "aws": "p\#(n)", "env": {"WHO": "a\#(n)"}}"#
        }
        accounts += ["x", "y"].map { id in
            #"{"id": "\#(id)", "name": "\#(id)", "git": {"email": "\#(id)@global.example"}, "kube": {"context": "c\#(id)"}, "gcloud": "g\#(id)", "aws": "p\#(id)"}"#
        }
        let scoped = try ScopedHome(
            accounts: accounts, contexts: (0..<count).map { "c\($0)" } + ["cx", "cy"],
            configurations: (0..<count).map { "g\($0)" } + ["gx", "gy"])
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try scoped.cli.run(["switch", "x"]).status == 0)
        let before = scoped.toolFiles()
        let gcloud = ShellEndToEndTests.installed("gcloud")
        let script = #"""
            i=0
            while [ $i -lt $1 ]; do
              echo "git $(git config user.email)"
              echo "kube $(kubectl config current-context)"
              echo "env $PERCH_ACCOUNT $WHO $AWS_PROFILE $CLOUDSDK_ACTIVE_CONFIG_NAME"
              if [ $2 = yes ] && [ $((i % 25)) = 0 ]; then echo "gcloud $(gcloud config configurations list --filter=is_active=true --format='value(name)')"; fi
              i=$((i + 1))
            done
            """#
        var pids: [(Int, pid_t, String)] = []
        for n in 0..<count {
            let out = scoped.home + "/out-\(n)"
            let pid = try Spawn.start(
                [TmuxSession.binary, "exec", "a\(n)", "--", "sh", "-c", script, "-", String(rounds), gcloud ? "yes" : "no"],
                environment: scoped.cli.environment, stdout: out, stderr: out + ".err")
            pids.append((n, pid, out))
        }
        // Meanwhile the global account goes back and forth, ending where it began.
        var switches = 0
        while pids.contains(where: { !TmuxSession.hasEnded($0.1) }) || switches % 2 == 1 {
            let result = try scoped.cli.run(["switch", switches % 2 == 0 ? "y" : "x"])
            #expect(result.status == 0, "\(result.stderr)")
            switches += 1
        }
        var operations = 0
        var mismatches: [String] = []
        for (n, pid, out) in pids {
            #expect(try Spawn.wait(pid) == 0, "\(n): \((try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? "")")
            let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            let expected = [
                "git": "git a\(n)@example.org", "kube": "kube c\(n)", "env": "env a\(n) a\(n) p\(n) g\(n)", "gcloud": "gcloud g\(n)",
            ]
            #expect(lines.count >= rounds * 3, "\(n): \(lines.count) lines")
            for line in lines {
                operations += 1
                let tool = String(line.prefix { $0 != " " })
                if expected[tool] != String(line) { mismatches.append("a\(n): \(line)") }
            }
        }
        print(
            "isolation: \(count) processes, \(operations) operations, \(switches) global switches meanwhile, \(mismatches.count) mismatches"
        )
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(operations >= count * rounds * 3)
        #expect(switches >= 2)
        #expect(scoped.toolFiles() == before, "the user's kubeconfig and gcloud files are as they were")
    }
}
