import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private let identityConfig = #"""
    {"version": 1, "accounts": [
      {"id": "work", "name": "Work", "kube": {"context": "prod"}, "gh": {"user": "ada-work"}, "aws": {"profile": "work-admin"},
       "env": {"TEAM": "web's"}, "git": {"email": "ada@work.example"}},
      {"id": "home", "name": "Home", "kube": {"context": "dev"}, "env": {"HOBBY": "birds"}}
    ]}
    """#

/// `perch` with tool identities, in a scratch HOME whose PATH starts with fake `kubectl` and
/// `gh` programs that record their arguments; git, when installed, is the real one.
private struct IdentityHome {
    var cli: PerchCommandLine
    var bin: URL { cli.home.appendingPathComponent("bin") }
    var kubeconfig: String { cli.home.appendingPathComponent("kubeconfig").path }

    init(config: String? = identityConfig) throws {
        cli = try PerchCommandLine()
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent("calls"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent("gh"), withIntermediateDirectories: true)
        try install(
            "kubectl",
            #"""
            echo "$*" >> "$HOME/calls/kubectl.log"
            if [ "$1 $2" = "config use-context" ]; then
              grep -q "name: $3\$" "$KUBECONFIG" || { echo "error: no context exists with the name: \"$3\"" >&2; exit 1; }
              sed -i "s/^current-context:.*/current-context: $3/" "$KUBECONFIG"
            fi
            """#)
        try install(
            "gh",
            #"""
            echo "$*" >> "$HOME/calls/gh.log"
            printf '%s:\n    user: %s\n' "$4" "$6" > "$GH_CONFIG_DIR/hosts.yml"
            """#)
        try writeKubeconfig(current: "dev", contexts: ["dev", "prod"])
        cli.extraEnvironment = [
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "KUBECONFIG": kubeconfig,
            "GH_CONFIG_DIR": cli.home.appendingPathComponent("gh").path, "GIT_CONFIG_NOSYSTEM": "1",
            "CLOUDSDK_CONFIG": cli.home.appendingPathComponent("gcloud").path, "SHELL": "/bin/bash",
        ]
        if let config { try cli.writeConfig(config) }
    }

    func install(_ name: String, _ script: String) throws {
        writeExecutable("#!/bin/sh\n" + script, to: bin.appendingPathComponent(name).path)
    }

    func writeKubeconfig(current: String, contexts: [String]) throws {
        let entries = contexts.map { "- context:\n    cluster: c\n  name: \($0)\n" }.joined()
        try "apiVersion: v1\ncontexts:\n\(entries)current-context: \(current)\n".write(
            toFile: kubeconfig, atomically: true, encoding: .utf8)
    }

    func calls(_ program: String) -> [String] {
        let text = (try? String(contentsOfFile: cli.home.appendingPathComponent("calls/\(program).log").path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Every file under HOME but the call logs and the fakes, with its bytes.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: cli.home.path)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasPrefix("calls"), !relative.hasPrefix("bin") else { continue }
            var folder: ObjCBool = false
            let path = cli.home.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &folder), !folder.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    func run(_ arguments: String...) throws -> Spawn.Result { try cli.run(arguments) }

    /// Runs `script` with bash (no rc files) in this HOME's environment.
    func bash(_ script: String) throws -> Spawn.Result {
        var environment = cli.environment
        environment["PATH"] = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        return try Spawn.run(["bash", "--norc", "--noprofile", "-c", script], environment: environment)
    }
}

@Suite("Command line: tool identities", .currentBinary)
struct IdentityCommandLineTests {
    @Test("perch switch applies each tool and prints its result; a failed tool exits 3, every tool is put back and the account kept")
    func switchApplies() throws {
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        #expect(try scratch.run("config", "check").stdout.hasSuffix("valid, 2 accounts, 2 with tool identities.\n"))
        let result = try scratch.run("switch", "work")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  kube: applied (prod)"))
        #expect(result.stdout.contains("  gh: applied (ada-work on github.com)"))
        #expect(
            !scratch.calls("kubectl").contains { $0.hasPrefix("config use-context") }, "current-context is written, not asked of kubectl")
        #expect(scratch.calls("gh") == ["auth switch --hostname github.com --user ada-work"])
        try scratch.writeKubeconfig(current: "prod", contexts: ["prod"])  // "dev" is gone
        let before = scratch.snapshot()
        let failed = try scratch.run("switch", "home")
        #expect(failed.status == 3)
        #expect(failed.stderr.contains(#"kube: failed (no context "dev" in the kubeconfig"#), "\(failed.stderr)")
        #expect(failed.stderr.contains("Still on work: Work."))
        #expect(try scratch.run("current", "--field", "id").stdout == "work\n", "nothing half switched")
        #expect(scratch.snapshot().filter { !$0.key.hasSuffix(".lock") } == before.filter { !$0.key.hasSuffix(".lock") })
    }

    // Issue 33: a failed switch listed `env: applied` under "every tool was put back", and a
    // failed --force listed as rolled back tools it had left as they were.
    @Test("a failed switch lists as put back only the tools it changed: not env, not a tool a --force left as it was")
    func failedSwitchListsOnlyChangedTools() throws {
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        #expect(try scratch.run("switch", "work").status == 0)
        try scratch.writeKubeconfig(current: "prod", contexts: ["prod"])  // "dev" is gone
        let failed = try scratch.run("switch", "home")
        #expect(failed.status == 3)
        #expect(failed.stderr.contains("could not switch to home: kube failed;"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("env:"), "env was never applied: \(failed.stderr)")
        #expect(!failed.stderr.contains("kube: rolled back") && !failed.stderr.contains("could not be put back"), "\(failed.stderr)")
        #expect(failed.stderr.contains("Still on work: Work."))
        try scratch.install("gh", #"echo "error: gh is down" >&2; exit 1"#)
        let forced = try scratch.run("switch", "work", "--force")
        #expect(forced.status == 3)
        #expect(forced.stderr.contains("gh: failed"), "\(forced.stderr)")
        #expect(!forced.stderr.contains("rolled back"), "kube and git were left as they were: \(forced.stderr)")
        #expect(forced.stderr.contains("no tool was changed"), "\(forced.stderr)")
    }

    @Test("perch switch --dry-run prints what would change, tool by tool, and changes no file")
    func dryRun() throws {
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        let before = scratch.snapshot()
        let result = try scratch.run("switch", "work", "--dry-run")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Would switch to work: Work.\n"))
        #expect(result.stdout.contains("  kube: prod (now: dev)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  gh: ada-work on github.com (now: (none) on github.com)\n"))
        #expect(result.stdout.contains("  env: per shell: TEAM=web's (perch env)\n"))
        #expect(result.stdout.hasSuffix("Nothing was changed (dry run).\n"))
        #expect(scratch.snapshot() == before, "no file written, not even the state")
        #expect(
            !scratch.calls("kubectl").contains { $0.hasPrefix("config use-context") || $0.hasPrefix("config set-context") }, "only reading")
        #expect(scratch.calls("gh").isEmpty)
    }

    /// The status said "changed since" for a tool the last switch never set (an ssh include
    /// never set up, a tool named in the config after the switch): nothing had changed.
    @Test("perch status says a tool the last switch did not set is not in effect, not that it changed since")
    func notInEffectIsNotDrift() throws {
        let scratch = try IdentityHome(config: #"{"accounts": [{"id": "work", "name": "Work", "gh": {"user": "ada-work"}}]}"#)
        defer { scratch.cli.remove() }
        try scratch.writeKubeconfig(current: "dev", contexts: ["dev", "prod"])
        #expect(try scratch.run("switch", "work").status == 0)
        // The account's kube context is written into the config after the switch.
        try #"{"accounts": [{"id": "work", "name": "Work", "gh": {"user": "ada-work"}, "kube": {"context": "prod"}}]}"#.write(
            toFile: scratch.cli.configPath, atomically: true, encoding: .utf8)
        let status = try scratch.run("status")
        #expect(status.status == 1, "the tool does not use the account's identity")
        #expect(status.stdout.contains("  ✗ kube  expected prod, not in effect: tool reports dev\n"), "\(status.stdout)")
        #expect(!status.stdout.contains("changed since"), "\(status.stdout)")
    }

    @Test("perch status: ✓ when every tool matches (exit 0), ✗ after a change by hand (exit 1); --json and --files")
    func statusAndDrift() throws {
        let scratch = try IdentityHome(
            config: #"{"accounts": [{"id": "work", "name": "Work", "kube": {"context": "prod"}, "gh": {"user": "ada-work"}}]}"#)
        defer { scratch.cli.remove() }
        #expect(try scratch.run("switch", "work").status == 0)
        let clean = try scratch.run("status")
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("  ✓ kube  prod\n"))
        #expect(clean.stdout.contains("  ✓ gh    ada-work on github.com\n"))
        // Someone runs kubectl config use-context by hand.
        try scratch.writeKubeconfig(current: "dev", contexts: ["dev", "prod"])
        let drifted = try scratch.run("status")
        #expect(drifted.status == 1)
        #expect(drifted.stdout.contains("  ✗ kube  expected prod, changed since: tool reports dev\n"), "\(drifted.stdout)")
        let json = try scratch.run("status", "--json")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["drift"] as? Bool == true)
        #expect((object["checks"] as? [[String: Any]])?.first?["actual"] as? String == "dev")
        let files = try scratch.run("status", "--files")
        let listed: [String] = files.stdout.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        let home = scratch.cli.home.path
        let expected: [String] =
            ["config/perch/git/identity.gitconfig", "config/perch/git/directories.gitconfig", "config/perch/ssh/config"].map {
                home + "/" + $0
            }
            + ["identities", "journal", "baseline", "undo"].map { home + "/state/perch/state.\($0).json" }
        #expect(listed == expected)
        // issue 18 case 5: a plain switch to the current account puts right what drifted.
        let putRight = try scratch.run("switch", "work")
        #expect(putRight.status == 0)
        #expect(putRight.stdout.contains("put right what had changed:\n  kube: applied (prod)\n"), "\(putRight.stdout)")
        #expect(try scratch.run("status").status == 0)
    }

    @Test("perch env in bash: eval sets the account's variables; shell-init makes perch switch update this shell")
    func envAndShellInit() throws {
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        _ = try scratch.run("switch", "work")
        let env = try scratch.bash(#"eval "$(perch env)"; printf '%s|%s|%s' "$PERCH_ACCOUNT" "$AWS_PROFILE" "$TEAM""#)
        #expect(env.stdout == "work|work-admin|web's")
        let shell = try scratch.bash(
            #"eval "$(perch shell-init bash)"; perch switch home >/dev/null; printf '%s|%s|%s|%s' "$PERCH_ACCOUNT" "${AWS_PROFILE-unset}" "${TEAM-unset}" "$HOBBY""#
        )
        #expect(shell.stdout == "home|unset|unset|birds", "\(shell.stderr)")
    }

    // Bug (guard issue): with a newer bash-preexec (PROMPT_COMMAND joined by line breaks), every
    // prompt added another copy of Perch's hook: after 27 prompts each prompt took 3.7 s.
    @Test(
        "the bash prompt hook is there exactly once, and runs once a prompt, after 30 prompts beside bash-preexec's old and new shapes",
        arguments: ["new", "old"])
    func promptHookOnceWithBashPreexec(_ shape: String) throws {
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        // bash-preexec's shapes of PROMPT_COMMAND (0.5: its own first and last, joined by line
        // breaks, `bash_preexec_imported`; before: joined by `; `, `__bp_imported`), sourced last
        // as it asks; its precmd runner calls precmd_functions in order.
        let install =
            shape == "new"
            ? #"bash_preexec_imported=defined; PROMPT_COMMAND=$'__bp_precmd_invoke_cmd\n'"$PROMPT_COMMAND"$'\n__bp_interactive_mode'"#
            : #"__bp_imported=defined; PROMPT_COMMAND="__bp_precmd_invoke_cmd; $PROMPT_COMMAND; __bp_interactive_mode""#
        let run = try scratch.bash(
            #"""
            eval "$(perch shell-init bash)"
            eval "$(declare -f __perch_hook | sed '1s/__perch_hook/__perch_hook_real/')"
            runs=0
            __perch_hook() { runs=$((runs + 1)); __perch_hook_real; }
            precmd_functions=()
            __bp_precmd_invoke_cmd() { local s=$? f; for f in "${precmd_functions[@]}"; do "$f"; done; return $s; }
            __bp_interactive_mode() { :; }
            \#(install)
            for i in $(seq 30); do eval "$PROMPT_COMMAND"; done
            copies=$(printf '%s\n%s\n' "$PROMPT_COMMAND" "${precmd_functions[*]}" | grep -ow '__perch_hook' | grep -c .)
            printf '%s|%s' "$copies" "$runs"
            """#)
        #expect(run.stdout == "1|30", "\(run.stdout) \(run.stderr)")
    }

    @Test(
        "perch setup git asks for consent: without a terminal or --yes nothing changes; --yes adds the include once; --undo removes it (and the file it made)"
    )
    func setupGit() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        let gitconfig = scratch.cli.home.appendingPathComponent(".gitconfig").path
        let refused = try scratch.run("setup", "git")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("run it again with --yes to agree"))
        #expect(!FileManager.default.fileExists(atPath: gitconfig))
        #expect(try scratch.run("setup", "git", "--yes").status == 0)
        _ = try scratch.run("switch", "work")
        let email = try Spawn.run(["git", "-C", scratch.cli.home.path, "config", "user.email"], environment: scratch.cli.environment)
        #expect(email.stdout == "ada@work.example\n")
        #expect(try scratch.run("setup", "git", "--undo", "--yes").status == 0)
        #expect(!FileManager.default.fileExists(atPath: gitconfig), "setup made the file, so the undo removes it: there was none")
        // Bug: after the undo, status's summary offered `perch switch work`, and the switch then
        // said every tool had its identity, while git used none: advice in a circle.
        let status = try scratch.run("status")
        #expect(status.status == 1)
        #expect(status.stderr.contains("`perch setup git` puts it right"), "\(status.stderr)")
        #expect(!status.stderr.contains("`perch switch work`"), "\(status.stderr)")
        let again = try scratch.run("switch", "work")
        #expect(again.status == 0)
        #expect(!again.stdout.contains("every tool has its identity"), "\(again.stdout)")
        #expect(again.stdout.contains("not every tool uses its identity") && again.stdout.contains("perch setup git"), "\(again.stdout)")
    }

    // Bug: undo (and undo again, a redo) with Perch's git file not included said "(none)
    // written", though the file it wrote held the account's name and email.
    @Test("an undo while git does not include Perch's file names the identity it wrote")
    func undoNamesWhatItWrote() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        var environment = cli.environment
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work", "git": {"name": "Ada W", "email": "ada@work.example"}}, {"id": "home", "name": "Home", "git": {"name": "Ada H", "email": "ada@home.example"}}]}"#
        )
        func run(_ arguments: String...) throws -> Spawn.Result {
            try Spawn.run([TmuxSession.binary] + arguments, environment: environment)
        }
        #expect(try run("setup", "git", "--yes").status == 0)
        #expect(try run("switch", "work").status == 0)
        #expect(try run("switch", "home").status == 0)
        #expect(try run("setup", "git", "--undo", "--yes").status == 0)
        let undo = try run("undo")
        #expect(undo.stdout.contains("git: skipped (Ada W <ada@work.example> written; run `perch setup git` to use it)"), "\(undo.stdout)")
        let redo = try run("undo")
        #expect(redo.stdout.contains("Ada H <ada@home.example> written") && !redo.stdout.contains("(none)"), "\(redo.stdout)")
    }

    @Test(
        "bug: with the user's rules in ~/.config/git/config, setup git made ~/.gitconfig, whose include beat their includeIf and status said ✓; now the include goes before their rules in that file"
    )
    func setupGitInXDGFile() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        let home = scratch.cli.home.path
        let xdg = home + "/config/git/config"  // XDG_CONFIG_HOME is HOME/config here
        try FileManager.default.createDirectory(atPath: home + "/config/git", withIntermediateDirectories: true)
        let rules = "[user]\n\tname = Me\n\temail = me@home.example\n[includeIf \"gitdir:~/clients/\"]\n\tpath = ~/.gitconfig-client\n"
        try rules.write(toFile: xdg, atomically: true, encoding: .utf8)
        try "[user]\n\temail = me@client.example\n".write(toFile: home + "/.gitconfig-client", atomically: true, encoding: .utf8)
        #expect(try Spawn.run(["git", "init", "-q", home + "/clients/repo"], environment: scratch.cli.environment).status == 0)
        func author(in folder: String) throws -> String {
            try scratch.bash("cd '\(folder)' && git var GIT_AUTHOR_IDENT").stdout
        }
        func gitStatusLine(in folder: String) throws -> (line: String, status: Int32) {
            let status = try scratch.bash("cd '\(folder)' && perch status")
            return (status.stdout.split(separator: "\n").first { $0.contains(" git ") }.map(String.init) ?? "", status.status)
        }

        let setup = try scratch.run("setup", "git", "--yes")
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(setup.stdout.contains("~/config/git/config"), "it says it writes the file holding the rules: \(setup.stdout)")
        #expect(!FileManager.default.fileExists(atPath: home + "/.gitconfig"), "no ~/.gitconfig made to outrank the XDG file")
        let placed = try String(contentsOfFile: xdg, encoding: .utf8)
        let include = try #require(placed.range(of: "identity.gitconfig"))
        #expect(include.lowerBound < placed.range(of: "[includeIf")!.lowerBound, "before the user's includeIf")
        #expect(try scratch.run("switch", "work").status == 0)
        #expect(try author(in: home + "/clients/repo").contains("<me@client.example>"), "the user's directory rule wins in its folder")
        #expect(try author(in: home).contains("<ada@work.example>"), "the account everywhere else")
        let inRule = try gitStatusLine(in: home + "/clients/repo")
        #expect(!inRule.line.contains("✓"), "no ✓ where the user's rule wins: \(inRule.line)")
        #expect(try gitStatusLine(in: home).line.contains("✓ git"))

        // Where an earlier setup left the include in ~/.gitconfig (read after the XDG file), the
        // account beats the rule there: status says so and fails; setup moves the include.
        #expect(try scratch.run("setup", "git", "--undo", "--yes").status == 0)
        #expect(try String(contentsOfFile: xdg, encoding: .utf8) == rules, "the undo gives the XDG file back byte for byte")
        let stale =
            "# Added by `perch setup git`; `perch setup git --undo` removes these lines.\n[include]\n\tpath = ~/config/perch/git/identity.gitconfig\n"
        try stale.write(toFile: home + "/.gitconfig", atomically: true, encoding: .utf8)
        #expect(try author(in: home + "/clients/repo").contains("<ada@work.example>"), "the stale include beats the rule")
        let beaten = try gitStatusLine(in: home + "/clients/repo")
        #expect(beaten.line.contains("✗ git"), "\(beaten.line)")
        #expect(beaten.status == 1)
        #expect(try scratch.run("setup", "git", "--yes").status == 0)
        #expect(try String(contentsOfFile: home + "/.gitconfig", encoding: .utf8) == "", "moved out of ~/.gitconfig")
        #expect(try author(in: home + "/clients/repo").contains("<me@client.example>"))
    }

    // Issue 33: perch status still said "git: skipped … run `perch setup git`" after it was run,
    // until the next switch.
    @Test("perch status after perch setup git no longer says to run it: the git the switch wrote is applied")
    func statusAfterSetupGit() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
        let scratch = try IdentityHome()
        defer { scratch.cli.remove() }
        #expect(try scratch.run("switch", "work").status == 0)
        let before = try scratch.run("status")
        #expect(before.stdout.contains("run `perch setup git` to use it"), "\(before.stdout)")
        #expect(try scratch.run("setup", "git", "--yes").status == 0)
        let after = try scratch.run("status")
        #expect(!after.stdout.contains("perch setup git"), "\(after.stdout)")
        #expect(after.stdout.contains("  git: applied (<ada@work.example>)"), "\(after.stdout)")
        #expect(after.stdout.contains("✓ git"), "\(after.stdout)")
    }

    // Issue 33: perch status showed `✓ ssh ~/.ssh/id_acme` for a key file that does not exist.
    @Test("a missing ssh key file is ✗ in perch status, never ✓, and config check warns about it")
    func missingKeyFile() throws {
        let scratch = try IdentityHome(
            config: #"{"accounts": [{"id": "acme", "name": "Acme", "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_acme"}}]}"#)
        defer { scratch.cli.remove() }
        let check = try scratch.run("config", "check")
        #expect(check.status == 0, "a warning, not a refusal: \(check.stderr)")
        #expect(check.stderr.contains(#"accounts[0].ssh.identityFile: "~/.ssh/id_acme" does not exist"#), "\(check.stderr)")
        _ = try scratch.run("setup", "ssh", "--yes")
        _ = try scratch.run("switch", "acme")
        let status = try scratch.run("status")
        #expect(!status.stdout.contains("✓ ssh"), "\(status.stdout)")
        #expect(status.stdout.contains("✗ ssh") && status.stdout.contains("the key file does not exist"), "\(status.stdout)")
        // With the file there, the warning goes.
        try FileManager.default.createDirectory(at: scratch.cli.home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try "key".write(toFile: scratch.cli.home.appendingPathComponent(".ssh/id_acme").path, atomically: true, encoding: .utf8)
        #expect(!(try scratch.run("config", "check").stderr.contains("does not exist")))
    }

    @Test("perch import proposes accounts and changes nothing; --write adds them and keeps a .bak")
    func importAccounts() throws {
        let scratch = try IdentityHome(config: #"{"accounts": [{"id": "a", "name": "A"}]}"#)
        defer { scratch.cli.remove() }
        let config = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        let dry = try scratch.run("import")
        #expect(dry.status == 0)
        #expect(dry.stdout.contains(#"{"id": "kube-dev", "name": "dev", "group": "Kubernetes", "kube": {"context": "dev"}}"#))
        #expect(try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8) == config)
        let written = try scratch.run("import", "--write")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: scratch.cli.configPath + ".bak", encoding: .utf8) == config)
        let list = try scratch.run("list")
        #expect(list.stdout.contains("kube-dev") && list.stdout.contains("kube-prod"))
        #expect(try scratch.run("import").stdout.contains("Found no identities to import"), "what is in the config is not proposed again")
    }

    @Test("the sample accounts (no config) touch no tool: only Perch's results file is written")
    func samples() throws {
        let scratch = try IdentityHome(config: nil)
        defer { scratch.cli.remove() }
        let result = try scratch.run("switch", "work")
        #expect(result.status == 0)
        #expect(result.stdout == "Switched to work: Work (@ada.lovelace).\n", "per-shell tools are recorded, not printed")
        let results = try String(
            contentsOfFile: scratch.cli.home.appendingPathComponent("state/perch/state.identities.json").path, encoding: .utf8)
        #expect(results.contains("SAMPLE_ROLE"))
        #expect(scratch.calls("kubectl").isEmpty && scratch.calls("gh").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.home.appendingPathComponent(".gitconfig").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.home.appendingPathComponent("config/perch/git").path))
        let env = try scratch.bash(#"eval "$(perch env)"; printf '%s' "$SAMPLE_ROLE""#)
        #expect(env.stdout == "employee")
    }
}
