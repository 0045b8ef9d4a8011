import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private func installed(_ program: String) -> Bool {
    ["/usr/local/bin", "/usr/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + program) }
}

private let realTools = installed("git") && installed("kubectl") && installed("gcloud")

/// The aws CLI on this process's PATH (it may live in a Python environment), or nil.
private let awsPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/aws" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// A scratch HOME with the real git, kubectl and gcloud, and fakes for gh and docker that keep
/// their state in files as the real ones do; each tool's fault can be set by a file
/// (`faults/TOOL`: `missing`, `fail`, `hang`, `kill-before` or `kill-after`; `slow`, which
/// makes its change a second (or `faults/slow-seconds`) after it has started, and `kill-once-started`, which kills Perch
/// once a `slow` program has started).
private struct ToolHome {
    var cli: PerchCommandLine
    var home: String { cli.home.path }
    var bin: String { home + "/bin" }

    static let config = #"""
        {"version": 1, "accounts": [
          {"id": "a", "name": "Alpha", "git": {"name": "Ada", "email": "ada@a.example"}, "kube": {"context": "dev"},
           "gh": {"user": "ada-a"}, "docker": {"context": "ctx-a"}},
          {"id": "b", "name": "Beta", "git": {"email": "ada@b.example"}, "kube": {"context": "prod", "namespace": "web"},
           "gcloud": "work", "gh": {"user": "ada-b"}, "docker": {"context": "ctx-b"}, "aws": "b-admin", "env": {"TEAM": "b"}},
          {"id": "oss", "name": "OSS", "git": {"email": "ada@oss.example"}},
          {"id": "broken", "name": "Broken", "git": {"email": "x@broken.example"}, "kube": {"context": "nope"}}
        ]}
        """#

    init() throws {
        cli = try PerchCommandLine()
        for folder in ["bin", "faults", "gh", ".kube", "gcloud/configurations", "work/api", ".docker"] {
            try FileManager.default.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
        }
        try
            "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:1\n  name: c\ncontexts:\n- context:\n    cluster: c\n    user: u\n  name: dev\n- context:\n    cluster: c\n    user: u\n  name: prod\ncurrent-context: dev\nusers:\n- name: u\n  user: {}\n"
            .write(toFile: home + "/.kube/config", atomically: true, encoding: .utf8)
        try "[core]\naccount = ada@home\n".write(toFile: home + "/gcloud/configurations/config_default", atomically: true, encoding: .utf8)
        try "[core]\naccount = ada@work\n".write(toFile: home + "/gcloud/configurations/config_work", atomically: true, encoding: .utf8)
        try "[user]\n\tname = Me\n\temail = me@home.example\n[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n".write(
            toFile: home + "/.gitconfig", atomically: true, encoding: .utf8)
        try "[user]\n\temail = me@work.example\n".write(toFile: home + "/.gitconfig-work", atomically: true, encoding: .utf8)
        try "github.com:\n    users:\n        me:\n        ada-a:\n        ada-b:\n    user: me\n".write(
            toFile: home + "/gh/hosts.yml", atomically: true, encoding: .utf8)
        // Each fake reads its fault, then does what the real program does to its file.
        let fault = #"""
            fault=$(cat "$HOME/faults/$(basename "$0")" 2>/dev/null)
            changing=$1
            case "$fault:$changing" in
              fail:yes) echo "error: injected failure" >&2; exit 1 ;;
              hang:yes) sleep 30 ;;
              kill-before:yes) kill -9 $PPID; exit 1 ;;
              slow:yes) : > "$HOME/faults/started"; sleep "$(cat "$HOME/faults/slow-seconds" 2>/dev/null || echo 1)" ;;
              kill-once-started:yes)
                i=0; while [ ! -e "$HOME/faults/started" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
                kill -9 $PPID; exit 1 ;;
            esac

            """#
        writeExecutable(
            "#!/bin/sh\nchanging=no; [ \"$1 $2\" = \"auth switch\" ] && changing=yes\n"
                + fault.replacingOccurrences(of: "changing=$1\n", with: "")
                + "if [ $changing = yes ]; then printf 'github.com:\\n    users:\\n        me:\\n        ada-a:\\n        ada-b:\\n    user: %s\\n' \"$6\" > \"$GH_CONFIG_DIR/hosts.yml\"; fi\n"
                + "[ \"$fault:$changing\" = kill-after:yes ] && kill -9 $PPID\nexit 0\n", to: bin + "/gh")
        writeExecutable(
            "#!/bin/sh\nchanging=no; [ \"$1 $2\" = \"context use\" ] && changing=yes\n"
                + fault.replacingOccurrences(of: "changing=$1\n", with: "")
                + "case \"$1 $2\" in \"context use\") printf '%s' \"$3\" > \"$HOME/.docker/context\" ;; \"context show\") cat \"$HOME/.docker/context\" 2>/dev/null || echo default ;; esac\n"
                + "[ \"$fault:$changing\" = kill-after:yes ] && kill -9 $PPID\nexit 0\n", to: bin + "/docker")
        // git and kubectl: the real programs behind a wrapper that injects the fault into the
        // calls that change or verify (git config --includes …; kubectl config set-context/unset).
        for (tool, real, changing) in [
            // The first read of a run is the plan's; the later ones are the apply's and its verification.
            (
                "git", "/usr/bin/git",
                #"case "$*" in *--includes*) n=$(cat "$HOME/faults/git.count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$HOME/faults/git.count"; [ $n -gt 1 ] && changing=yes ;; esac"#
            ),
            (
                "kubectl", Self.which("kubectl") ?? "/usr/bin/kubectl",
                #"n=$(cat "$HOME/faults/kubectl.count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$HOME/faults/kubectl.count"; [ $n -gt 1 ] && changing=yes"#
            ),
        ] {
            writeExecutable(
                "#!/bin/sh\nchanging=no\n\(changing)\n" + fault.replacingOccurrences(of: "changing=$1\n", with: "")
                    + "\(real) \"$@\"; status=$?\n[ \"$fault:$changing\" = kill-after:yes ] && kill -9 $PPID\nexit $status\n",
                to: bin + "/" + tool)
        }
        // PATH is only the fakes' folder (and the few programs they use), so a program taken away is missing.
        for program in ["cat", "basename", "sleep"] {
            let real = ["/bin/", "/usr/bin/"].map { $0 + program }.first { FileManager.default.isExecutableFile(atPath: $0) }!
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + program, withDestinationPath: real)
        }
        cli.extraEnvironment = [
            "PATH": bin, "KUBECONFIG": home + "/.kube/config",
            "CLOUDSDK_CONFIG": home + "/gcloud", "GH_CONFIG_DIR": home + "/gh", "GIT_CONFIG_NOSYSTEM": "1", "PERCH_TOOL_TIMEOUT_MS": "1500",
            "AWS_CONFIG_FILE": home + "/aws-config", "AWS_SHARED_CREDENTIALS_FILE": home + "/aws-credentials",
        ]
        try cli.writeConfig(Self.config)
    }

    static func which(_ program: String) -> String? {
        ["/usr/local/bin", "/usr/bin", "/bin", "/opt/google-cloud-sdk/bin"].map { $0 + "/" + program }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    func run(_ arguments: String...) throws -> Spawn.Result { try cli.run(arguments) }

    /// Waits, at most `timeout` seconds, until no process runs with this HOME (read from
    /// `/proc/PID/environ`): the tools a killed Perch had started keep running to their end,
    /// as they would for a person, who comes back to the shell after them. Returns whether
    /// none is left. Nothing is signalled.
    func waitForOrphans(timeout: Double = 10) -> Bool {
        let variable = Array("HOME=\(home)".utf8)
        /// The pids of the processes with this HOME (each variable of `environ` ends in a NUL), as text.
        func running() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
                guard let pid = Int32(entry), pid != getpid(), let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
                else { return false }
                return environ.split(separator: 0).contains { $0.elementsEqual(variable) }
            }
        }
        return TmuxSession.eventually(timeout: timeout) { running().isEmpty }
    }

    /// Runs a program in this HOME's environment (the fakes first on PATH), in `folder`.
    func tool(_ arguments: [String], in folder: String? = nil) throws -> String {
        var argv = arguments
        if let folder, arguments.first == "git" { argv = ["git", "-C", folder] + arguments.dropFirst() }
        var environment = cli.environment
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        if argv[0] == "gh" || argv[0] == "docker" { argv[0] = bin + "/" + argv[0] }
        return try Spawn.run(argv, environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func fault(_ tool: String, _ kind: String?) throws {
        for counter in ["git", "kubectl"] { try? FileManager.default.removeItem(atPath: home + "/faults/\(counter).count") }
        let file = home + "/faults/" + tool
        if let kind {
            try kind.write(toFile: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: home + "/faults/started")
        }
    }

    /// A switch to `id` that docker's fake kills (SIGKILL) once gh's fake has started a change
    /// it makes a second (or `faults/slow-seconds`) later; the faults are cleared afterwards.
    func killSwitchWhileGhRuns(to id: String) throws -> Spawn.Result {
        try fault("gh", "slow")
        try fault("docker", "kill-once-started")
        let killed = try run("switch", id)
        try fault("gh", nil)
        try fault("docker", nil)
        return killed
    }

    /// What each tool uses now: git's author email (outside any directory rule), kube's current
    /// context, gcloud's active configuration, gh's user and docker's context, as the tools report them.
    func uses() throws -> [String] {
        let gcloud =
            try tool(["gcloud", "config", "configurations", "list", "--format=value(name,is_active)"]).split(separator: "\n")
            .first { $0.hasSuffix("True") }.map { String($0.split(separator: "\t")[0]) } ?? "?"
        return [
            try tool(["git", "config", "user.email"], in: "/"), try tool(["kubectl", "config", "current-context"]), gcloud,
            (try? String(contentsOfFile: home + "/gh/hosts.yml", encoding: .utf8))?.split(separator: "\n").last.map {
                String($0.split(separator: " ").last ?? "")
            } ?? "?",
            try tool(["docker", "context", "show"]),
        ]
    }

    /// The files of the user's tools, byte for byte.
    func toolFiles() -> [String: Data] {
        var files: [String: Data] = [:]
        for file in [
            ".kube/config", ".gitconfig", "gcloud/active_config", "gh/hosts.yml", ".docker/context", "config/perch/git/identity.gitconfig",
        ] {
            files[file] = FileManager.default.contents(atPath: home + "/" + file)
        }
        return files
    }
}

@Suite(
    "A switch you can trust: the real git, kubectl and gcloud, fakes for gh and docker", .serialized,
    .enabled(if: realTools, "needs git, kubectl and gcloud"), .currentBinary)
struct SwitchSessionEndToEndTests {
    static let onA = ["ada@a.example", "dev", "default", "ada-a", "ctx-a"]
    static let onB = ["ada@b.example", "prod", "work", "ada-b", "ctx-b"]

    @Test("issue 18 cases 1, 3, 4 and 6: includeIf kept, a failed switch rolled back whole, tools back to your own, status tells no drift")
    func cases() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        let setup = try scratch.run("setup", "git", "--yes")
        #expect(setup.stdout.contains("before your includeIf rules"), "\(setup.stdout)")
        _ = try Spawn.run(["git", "init", "-q", scratch.home + "/work/api"], environment: scratch.cli.environment)
        // Case 1.
        #expect(try scratch.run("switch", "oss").status == 0)
        #expect(try scratch.tool(["git", "config", "user.email"], in: scratch.home + "/work/api") == "me@work.example")
        #expect(try scratch.tool(["git", "config", "user.email"], in: scratch.home) == "ada@oss.example")
        let status = try Spawn.run(
            ["sh", "-c", "cd \"$1\" && exec \"$0\" status", TmuxSession.binary, scratch.home + "/work/api"],
            environment: scratch.cli.environment)
        #expect(status.stdout.contains("comes from ~/.gitconfig-work"), "\(status.stdout)")
        // Case 3.
        #expect(try scratch.run("switch", "b").status == 0)
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        let before = scratch.toolFiles()
        let failed = try scratch.run("switch", "broken")
        #expect(failed.status == 3)
        #expect(
            failed.stderr.contains("kube: failed") && failed.stderr.contains("git: rolled back")
                && failed.stderr.contains("Still on b: Beta."))
        #expect(scratch.toolFiles() == before, "byte for byte")
        #expect(try scratch.run("current", "--field", "id").stdout == "b\n")
        // Case 6: nothing failed on the account that is current, nothing drifted.
        let clean = try scratch.run("status")
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        // Case 4.
        let back = try scratch.run("switch", "oss")
        #expect(back.stdout.contains("gcloud: back to your own (default)"), "\(back.stdout)")
        #expect(back.stdout.contains("kube: back to your own (dev)"))
        #expect(back.stdout.contains("gh: back to your own (me on github.com)"))
        #expect(back.stdout.contains("docker: back to your own (default)"))
        #expect(try scratch.uses() == ["ada@oss.example", "dev", "default", "me", "default"], "\((try? scratch.uses()) ?? [])")
    }

    @Test("issue 18 case 2: a throwaway --config and --state leave the real identity byte-identical")
    func throwawayConfig() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        _ = try scratch.run("setup", "git", "--yes")
        #expect(try scratch.run("switch", "a").status == 0)
        let before = scratch.toolFiles()
        let other = scratch.home + "/tmp"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try #"{"accounts": [{"id": "b", "name": "B"}]}"#.write(toFile: other + "/x.json", atomically: true, encoding: .utf8)
        let result = try scratch.run("--config", other + "/x.json", "--state", other + "/s.json", "switch", "b")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.toolFiles() == before)
        #expect(try scratch.run("status").status == 0, "the real current account does not drift")
    }

    @Test("perch undo brings back the account and every tool; a second undo redoes; perch reset gives every tool back")
    func undoAndReset() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        _ = try scratch.run("setup", "git", "--yes")
        _ = try scratch.run("switch", "a")
        _ = try scratch.run("switch", "b")
        let undone = try scratch.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        // It says first which switch it undoes, then what it did.
        #expect(undone.stdout.hasPrefix("Undoing the last switch, a → b at "), "\(undone.stdout)")
        #expect(undone.stdout.contains("\nUndone: back to a: Alpha, was b: Beta."), "\(undone.stdout)")
        #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
        #expect(try scratch.run("undo").status == 0)
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        #expect(try scratch.run("current", "--field", "id").stdout == "b\n")
        let reset = try scratch.run("reset", "--yes")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try scratch.uses() == ["me@home.example", "dev", "default", "me", "default"], "\((try? scratch.uses()) ?? [])")
        #expect(!(try String(contentsOfFile: scratch.home + "/.gitconfig", encoding: .utf8)).contains("perch"))
        // Bug: reset gave every tool back but left the account current, so prompts still named it.
        #expect(reset.stdout.contains("No account is current (it was b)"), "\(reset.stdout)")
        let current = try scratch.run("current")
        #expect(current.status == 1 && current.stderr.contains("no account chosen yet"), "\(current.stdout)\(current.stderr)")
    }

    @Test("perch reset with a tool that fails is rolled back as a failed switch is: every tool on the account, the failure named, status 3")
    func resetRolledBack() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        _ = try scratch.run("setup", "git", "--yes")
        #expect(try scratch.run("switch", "a").status == 0)
        #expect(try scratch.run("switch", "b").status == 0)
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        let before = scratch.toolFiles()
        try scratch.fault("docker", "fail")
        let reset = try scratch.run("reset", "--yes")
        try scratch.fault("docker", nil)
        #expect(reset.status == 3, "\(reset.stdout)\(reset.stderr)")
        #expect(reset.stderr.contains("could not reset: docker failed"), "\(reset.stderr)")
        #expect(reset.stderr.contains("docker: failed") && reset.stderr.contains("kube: rolled back"), "\(reset.stderr)")
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        #expect(scratch.toolFiles() == before, "byte for byte")
        #expect(try scratch.run("current", "--field", "id").stdout == "b\n", "the account stays current")
        // Bug (before reset was a session): the other tools were given back and stayed so, and the account stayed current.
        let again = try scratch.run("reset", "--yes")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try scratch.uses() == ["me@home.example", "dev", "default", "me", "default"], "\((try? scratch.uses()) ?? [])")
    }

    /// Sets up git and makes round trips a → b → a, so kubectl has written the kubeconfig in
    /// its own form; every tool is then on a.
    fileprivate static func startOnA(_ scratch: ToolHome) throws {
        _ = try scratch.run("setup", "git", "--yes")
        for id in ["a", "b", "a"] { #expect(try scratch.run("switch", id).status == 0) }
        #expect(try scratch.uses() == onA, "\((try? scratch.uses()) ?? [])")
    }

    @Test(
        "fault injection: each tool missing, failing, hanging, and Perch killed before and after its change; nothing is left half switched")
    func faults() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try Self.startOnA(scratch)
        // After asking gcloud once: it writes its active_config when it has none.
        var onA = scratch.toolFiles()
        var tried = 0
        var survived = 0
        for tool in ["git", "kubectl", "gh", "docker"] {
            for fault in ["missing", "fail", "hang", "kill-before", "kill-after"] {
                tried += 1
                if tool == "kubectl" {
                    // A namespace b must set, so that kubectl has a change to fail in (prod's
                    // namespace is otherwise web already, and nothing but the file is written).
                    _ = try scratch.tool(["kubectl", "config", "set-context", "prod", "--namespace", "other"])
                }
                // The files as they are just before the faulty switch: afterwards they are the same, or the switch is whole.
                onA = scratch.toolFiles()
                let hidden = scratch.bin + "/" + tool + ".hidden"
                if fault == "missing" { try FileManager.default.moveItem(atPath: scratch.bin + "/" + tool, toPath: hidden) }
                try scratch.fault(tool, fault == "missing" ? nil : fault)
                let result = try scratch.run("switch", "b")
                let killed = fault.hasPrefix("kill")
                // The tools the killed Perch had started finish first, as they would before a person's next command.
                if killed { #expect(scratch.waitForOrphans(), "\(tool) \(fault): the killed switch's tools still run after 10 s") }
                let journalLeft = FileManager.default.fileExists(atPath: scratch.home + "/state/perch/state.journal.json")
                try scratch.fault(tool, nil)
                if fault == "missing" { try FileManager.default.moveItem(atPath: hidden, toPath: scratch.bin + "/" + tool) }
                let next = try scratch.run("current", "--field", "id")
                let current = next.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let uses = try scratch.uses()
                #expect(!(result.stderr + next.stderr).contains("perch: perch:"), "one prefix: \(result.stderr)\(next.stderr)")
                var ok = true
                let files = scratch.toolFiles()
                if current == "a" {
                    ok = ok && uses == Self.onA && files == onA
                } else if current == "b" {
                    // A program missing skips its tool (nothing changed there); every other tool is on b.
                    let skipped = ["git": 0, "kubectl": 1, "gh": 3, "docker": 4][tool]!
                    ok =
                        ok
                        && zip(uses, Self.onB).enumerated().allSatisfy {
                            $0.element.0 == $0.element.1 || (fault == "missing" && $0.offset == skipped)
                        }
                } else {
                    ok = false
                }
                // Killed after its journal: the next command says what it did.
                if killed { ok = ok && result.status == 137 && (!journalLeft || next.stderr.contains("interrupted")) }
                if fault == "fail" || fault == "hang" { ok = ok && result.status == 3 && current == "a" }
                let differing = Set(onA.keys).union(files.keys).filter { files[$0] != onA[$0] }.sorted()
                if ok {
                    survived += 1
                } else {
                    Issue.record(
                        "\(tool) \(fault): status \(result.status), current \(current), uses \(uses), files differing \(differing); \(result.stderr) \(next.stderr)"
                    )
                }
                // Back to a whole switch to a for the next fault.
                if current != "a" { _ = try scratch.run("switch", "a") }
                #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
            }
        }
        print("fault injection: \(tried) faults tried, \(survived) survived")
        #expect(survived == tried)
    }

    @Test(
        "a switch killed while another tool's program still runs: the next command (not a prompt's) waits for that program to end before it rolls back, so it is not overtaken"
    )
    func killedWhileAToolRuns() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try Self.startOnA(scratch)
        let killed = try scratch.killSwitchWhileGhRuns(to: "b")
        #expect(killed.status == 137, "\(killed.stderr)")
        // At once, as a prompt would: gh's program, started by the killed Perch, is still asleep;
        // a prompt's perch current does not wait for it, and changes nothing.
        let prompt = try scratch.run("current", "--field", "id")
        #expect(
            prompt.stdout == "a\n" && prompt.stderr.contains("interrupted switch to b is rolled back once"),
            "\(prompt.stdout)\(prompt.stderr)")
        let next = try scratch.run("list", "--format", "ids")
        #expect(next.stderr.contains("interrupted switch from a to b was rolled back"), "\(next.stderr)")
        #expect(scratch.waitForOrphans(), "the killed switch's programs still run after 10 s")
        #expect(try scratch.uses() == Self.onA, "gh's late change must not outlast the rollback: \((try? scratch.uses()) ?? [])")
    }

    @Test("perch remove of the current account gives its tools back to your own; git, kube, gcloud, gh and docker say so themselves")
    func removeCurrent() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try Self.startOnA(scratch)
        #expect(try scratch.run("switch", "b").status == 0)
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        let removed = try scratch.run("remove", "b", "--yes")
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect(
            removed.stdout.contains("no account is current now") && removed.stdout.contains("Its tools are back to your own:"),
            "\(removed.stdout)")
        #expect(removed.stdout.contains("git: back to your own"), "\(removed.stdout)")
        #expect(try scratch.uses() == ["me@home.example", "dev", "default", "me", "default"], "\((try? scratch.uses()) ?? [])")
        #expect(try scratch.tool(["git", "var", "GIT_AUTHOR_IDENT"], in: "/").contains("Me <me@home.example>"))
        // Nothing is recorded as a switch to it: no account is current.
        #expect(try scratch.run("current").status == 1)
        // Removing an account that is not current changes no tool.
        #expect(try scratch.run("switch", "a").status == 0)
        let other = try scratch.run("remove", "oss", "--yes")
        #expect(other.status == 0 && !other.stdout.contains("back to your own"), "\(other.stdout)")
        #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
    }

    @Test(
        "perch remove of the current account changes nothing when its tools cannot be given back: a tool failing, or an interrupted switch still finishing"
    )
    func removeCurrentRefused() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try Self.startOnA(scratch)
        #expect(try scratch.run("switch", "b").status == 0)
        let config = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        // A tool that fails: every tool is put back, the account stays, current and in the config.
        try scratch.fault("gh", "fail")
        let failed = try scratch.run("remove", "b", "--yes")
        try scratch.fault("gh", nil)
        #expect(failed.status == 3, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stderr.contains("nothing was removed"), "\(failed.stderr)")
        #expect(try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8) == config)
        #expect(try scratch.run("current", "--field", "id").stdout == "b\n")
        #expect(try scratch.uses() == Self.onB, "\((try? scratch.uses()) ?? [])")
        // A switch killed while gh's program runs for 4 s more: the removal waits, then changes nothing.
        #expect(try scratch.run("switch", "a").status == 0)
        try "4".write(toFile: scratch.home + "/faults/slow-seconds", atomically: true, encoding: .utf8)
        #expect(try scratch.killSwitchWhileGhRuns(to: "b").status == 137)
        let waiting = try scratch.run("remove", "a", "--yes")
        #expect(waiting.status == 1, "\(waiting.stdout)\(waiting.stderr)")
        #expect(waiting.stderr.contains("still finishing") && waiting.stderr.contains("nothing was changed"), "\(waiting.stderr)")
        #expect(!waiting.stdout.contains("Removed"), "\(waiting.stdout)")
        #expect(try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8) == config)
        #expect(scratch.waitForOrphans(), "the killed switch's programs still run after 10 s")
        let next = try scratch.run("current", "--field", "id")
        #expect(next.stdout == "a\n" && next.stderr.contains("was rolled back"), "\(next.stdout)\(next.stderr)")
        #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
        // A switch meanwhile says so once (it waits under the state lock itself), and changes nothing.
        #expect(try scratch.killSwitchWhileGhRuns(to: "b").status == 137)
        let switching = try scratch.run("switch", "oss")
        #expect(switching.status == 1, "\(switching.stdout)\(switching.stderr)")
        #expect(switching.stderr.components(separatedBy: "still finishing").count == 2, "one line: \(switching.stderr)")
        #expect(scratch.waitForOrphans(), "the killed switch's programs still run after 10 s")
        #expect(try scratch.run("current", "--field", "id").stdout == "a\n")
        #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
    }

    // Bug: while a killed switch's program still ran, every perch current blocked 2 s and perch
    // status 6.8 s; during a slow switch other shells saw no sign of it.
    @Test(
        "a prompt never waits: during a slow switch and after a killed one, perch current answers from the committed account marked switching, and status names the tools on their way"
    )
    func promptsDuringSwitch() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try Self.startOnA(scratch)
        // A switch to b whose gh takes 6 s (its timeout raised above that).
        try "6".write(toFile: scratch.home + "/faults/slow-seconds", atomically: true, encoding: .utf8)
        try scratch.fault("gh", "slow")
        var environment = scratch.cli.environment
        environment["PERCH_TOOL_TIMEOUT_MS"] = "30000"
        let switching = try Spawn.start([TmuxSession.binary, "switch", "b"], environment: environment)
        #expect(TmuxSession.eventually(timeout: 10) { FileManager.default.fileExists(atPath: scratch.home + "/faults/started") })
        func timed(_ arguments: String...) throws -> (result: Spawn.Result, seconds: Double) {
            let start = Date()
            let result = try scratch.cli.run(arguments)
            return (result, Date().timeIntervalSince(start))
        }
        let current = try timed("current")
        #expect(
            current.result.stdout.hasPrefix("a: Alpha") && current.result.stdout.contains("(switching to b)"), "\(current.result.stdout)")
        #expect(current.seconds < 1.5, "perch current took \(current.seconds) s")
        let field = try timed("current", "--field", "switching")
        #expect(field.result.stdout == "b\n", "\(field.result.stdout)\(field.result.stderr)")
        let id = try scratch.run("current", "--field", "id")
        #expect(id.stdout == "a\n" && id.stderr.contains("switching to b"), "\(id.stdout)\(id.stderr)")
        let json = try scratch.run("current", "--json")
        #expect(
            json.stdout.contains(#""switching":{"interrupted":false,"to":"b"}"#) || json.stdout.contains(#""to" : "b""#), "\(json.stdout)")
        let status = try timed("status")
        #expect(status.result.stdout.contains("Switching: switching to b; gh on their way"), "\(status.result.stdout)")
        #expect(status.seconds < 3, "perch status took \(status.seconds) s")
        #expect(try Spawn.wait(switching) == 0)
        try scratch.fault("gh", nil)
        let after = try scratch.run("current")
        #expect(after.stdout.hasPrefix("b: Beta") && !after.stdout.contains("switching"), "\(after.stdout)")
        // A switch killed while gh runs 4 s more: the prompt still answers at once, and says what happens.
        #expect(try scratch.run("switch", "a").status == 0)
        try "4".write(toFile: scratch.home + "/faults/slow-seconds", atomically: true, encoding: .utf8)
        #expect(try scratch.killSwitchWhileGhRuns(to: "b").status == 137)
        let killed = try timed("current")
        #expect(killed.result.stdout.contains("interrupted switch to b is rolled back once its programs end"), "\(killed.result.stdout)")
        #expect(killed.seconds < 1.5, "perch current took \(killed.seconds) s")
        let killedStatus = try timed("status")
        #expect(killedStatus.result.stdout.contains("Switching: an interrupted switch to b"), "\(killedStatus.result.stdout)")
        #expect(killedStatus.seconds < 3, "perch status took \(killedStatus.seconds) s")
        #expect(scratch.waitForOrphans(), "the killed switch's programs still run after 10 s")
        let rolledBack = try scratch.run("current")
        #expect(
            rolledBack.stdout.hasPrefix("a: Alpha") && rolledBack.stderr.contains("was rolled back"),
            "\(rolledBack.stdout)\(rolledBack.stderr)")
        #expect(try scratch.uses() == Self.onA, "\((try? scratch.uses()) ?? [])")
    }

    @Test(
        "botocore #1725: with AWS_DEFAULT_PROFILE set, status never shows ✓ for aws, and eval \"$(perch env)\" makes aws use the account's profile",
        .enabled(if: awsPath != nil, "needs the aws CLI"))
    func awsDefaultProfile() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try "[profile b-admin]\nregion = eu-west-1\n[profile home]\nregion = us-east-1\n".write(
            toFile: scratch.home + "/aws-config", atomically: true, encoding: .utf8)
        _ = try scratch.run("switch", "b")
        var environment = scratch.cli.environment
        environment["AWS_DEFAULT_PROFILE"] = "home"
        environment["PERCH_ACCOUNT"] = "b"
        environment["AWS_PROFILE"] = "b-admin"
        // The aws CLI may run from a Python environment that finds itself through these.
        for name in ["PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV"] { environment[name] = ProcessInfo.processInfo.environment[name] }
        let status = try Spawn.run([TmuxSession.binary, "status"], environment: environment)
        #expect(status.status == 1)
        #expect(status.stdout.contains("✗ aws") && status.stdout.contains("unset AWS_DEFAULT_PROFILE"), "\(status.stdout)")
        environment["PATH"] = [
            URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path,
            URL(fileURLWithPath: awsPath!).deletingLastPathComponent().path, "/usr/local/bin:/usr/bin:/bin",
        ].joined(separator: ":")
        let list = try Spawn.run(["bash", "--norc", "-c", #"eval "$(perch env)"; aws configure list"#], environment: environment)
        let profileLine = list.stdout.split(separator: "\n").first { $0.contains("profile") } ?? ""
        #expect(profileLine.contains("b-admin"), "\(list.stdout)\(list.stderr)")
    }

    @Test("git-town #3614: a [user] appended by git config --global: --force fails and says why; perch setup git puts it right")
    func appendedUser() throws {
        let scratch = try ToolHome()
        defer { scratch.cli.remove() }
        try "[core]\n\tautocrlf = false\n".write(toFile: scratch.home + "/.gitconfig", atomically: true, encoding: .utf8)
        _ = try scratch.run("setup", "git", "--yes")
        _ = try scratch.run("switch", "oss")
        _ = try scratch.tool(["git", "config", "--global", "user.email", "typed@by.hand"])
        let status = try scratch.run("status")
        #expect(status.status == 1)
        #expect(status.stdout.contains("from ~/.gitconfig:"), "names the file and line: \(status.stdout)")
        let forced = try scratch.run("switch", "oss", "--force")
        #expect(forced.status == 3, "never 'applied' while git disagrees")
        #expect(forced.stderr.contains("git: failed") && forced.stderr.contains("perch setup git"), "\(forced.stderr)")
        let repaired = try scratch.run("setup", "git", "--yes")
        #expect(repaired.status == 0)
        #expect(!repaired.stdout.hasPrefix("Nothing to do"))
        #expect(try scratch.tool(["git", "var", "GIT_AUTHOR_IDENT"], in: "/").contains("ada@oss.example"))
        #expect(try scratch.run("status").status == 0)
    }
}
