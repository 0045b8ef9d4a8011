import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch home where a tool exists only as a JSON file in `$XDG_CONFIG_HOME/perch/tools/`
/// (no Swift), and the program it describes is `acmectl` (and `betactl`): a fake program,
/// written by the test into `~/bin` first on PATH, standing for a real CLI. It keeps its
/// profile in `~/.NAME/current` as such a CLI keeps its own state, tells where its folder is
/// (`$ACME_HOME`) and who it is signed in as (`$ACME_HOME/user`), and logs every run in
/// `~/calls/NAME.log`, the marker that it was run at all.
struct DescribedToolHome {
    var cli: PerchCommandLine
    var home: String { cli.home.path }
    var tools: String { home + "/config/perch/tools" }

    static let fake = #"""
        #!/bin/sh
        # A fake program standing for a real CLI (acmectl, betactl): its state in ~/.NAME, every run logged.
        name=$(basename "$0")
        echo "$*" >> "$HOME/calls/$name.log"
        case "$1" in
          use)
            fault=$(cat "$HOME/faults/$name" 2>/dev/null) || fault=none
            [ "$fault" = fail ] && { echo "error: injected failure" >&2; exit 1; }
            mkdir -p "$HOME/.$name" && printf '%s\n' "$2" > "$HOME/.$name/current"
            # Perch killed once the change is made, as by a power cut or a closed terminal.
            if [ "$fault" = kill-after ]; then kill -9 $PPID; fi ;;
          current) cat "$HOME/.$name/current" ;;
          where) echo "${ACME_HOME-unset} token=${ACME_TOKEN-unset}" ;;
          whoami) cat "${ACME_HOME:-$HOME/.acme}/user" ;;
          *) echo "acmectl: unknown command $1" >&2; exit 2 ;;
        esac

        """#

    /// A home with `config` (the accounts, as JSON) and the descriptions `tools` (name, JSON).
    init(config: String, tools: [(String, String)]) throws {
        cli = try PerchCommandLine()
        for folder in ["bin", "calls", "faults", "config/perch/tools", "gh"] {
            try FileManager.default.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
        }
        for name in ["acmectl", "betactl"] { writeExecutable(Self.fake, to: home + "/bin/" + name) }
        for (name, json) in tools { try describe(name, json) }
        cli.extraEnvironment = [
            "PATH": home + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "GIT_CONFIG_NOSYSTEM": "1",
            "KUBECONFIG": home + "/kube/config",
            "CLOUDSDK_CONFIG": home + "/gcloud", "GH_CONFIG_DIR": home + "/gh", "AWS_CONFIG_FILE": home + "/aws-config",
            "AWS_SHARED_CREDENTIALS_FILE": home + "/aws-credentials", "DOCKER_CONFIG": home + "/.docker",
        ]
        try cli.writeConfig(config)
    }

    /// Writes the description `NAME.json` (mode 0600).
    func describe(_ name: String, _ json: String) throws {
        try Loopback.write(json, to: tools + "/" + name + ".json", mode: 0o600)
    }

    func run(_ arguments: String...) throws -> Spawn.Result { try cli.run(arguments) }

    /// Runs `argv` (a tool, not Perch; a fake of `~/bin` by its path, as posix_spawnp(3) looks
    /// in this process's PATH) in this home's environment, plus `extra`.
    func tool(_ argv: [String], extra: [String: String] = [:]) throws -> Spawn.Result {
        var argv = argv
        if FileManager.default.isExecutableFile(atPath: home + "/bin/" + argv[0]) { argv[0] = home + "/bin/" + argv[0] }
        return try Spawn.run(argv, environment: cli.environment.merging(extra) { $1 })
    }

    /// What `acmectl current` (or `betactl current`) answers: the tool's own word.
    func current(_ program: String = "acmectl") throws -> String {
        try tool([program, "current"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The arguments of every run of `program`, one line each.
    func calls(_ program: String) -> [String] {
        Loopback.text(home + "/calls/\(program).log").split(separator: "\n").map(String.init)
    }

    /// Makes `program`'s switch (`use`) fail (`fail`), or kill Perch once made (`kill-after`),
    /// or work again (nil).
    func fault(_ program: String, _ kind: String?) throws {
        if let kind { try Loopback.write(kind, to: home + "/faults/" + program) } else { unlink(home + "/faults/" + program) }
    }
}

/// Descriptions the tests use, as a user would write them.
enum ToolDescriptionTexts {
    /// Switched globally by a command, read back by another (`acmectl use NAME`, `acmectl current`).
    static func byCommand(_ tool: String = "acme", program: String = "acmectl") -> String {
        """
        {
          "version": 1,
          "tool": "\(tool)",
          "title": "\(tool.capitalized) CLI",
          "program": "\(program)",
          "settings": {"profile": {"kind": "value", "variable": "\(tool.uppercased())_PROFILE", "required": true}},
          "global": {"command": ["\(program)", "use", "{profile}"], "current": {"command": ["\(program)", "current"]}, "setting": "profile"}
        }
        """
    }

    /// Switched globally by writing one file, which the tool reads.
    static let byFile = #"""
        {
          "version": 1,
          "tool": "acme",
          "program": "acmectl",
          "settings": {"profile": {"kind": "value", "variable": "ACME_PROFILE", "required": true}},
          "global": {"file": "~/.acmectl/current", "setting": "profile"}
        }
        """#

    /// Per shell: a folder in `ACME_HOME`, an identity asked of `acmectl whoami`, an override,
    /// secrets in the folder, and optionally an expiry.
    static func perShell(expiry: Bool = false) -> String {
        """
        {
          "version": 1,
          "tool": "acme",
          "title": "Acme CLI",
          "program": "acmectl",
          "settings": {
            "home": {"kind": "folder", "variable": "ACME_HOME", "required": true, "default": "~/.acme"},
            "user": {"kind": "identity"}
          },
          "overrides": [{"variable": "ACME_TOKEN", "reason": "acmectl uses ACME_TOKEN instead of the signed-in user"}],
          "whoami": {"command": ["acmectl", "whoami"], "expect": "user"},
          "secrets": ["{home}/credentials.json"]\(expiry ? #", "expiry": {"file": "{home}/session.json", "json": "expiresAt", "format": "epoch-s", "renew": "acmectl login"}"# : "")
        }
        """
    }
}

@Suite("A tool described only in a JSON file, like a built-in", .serialized, .currentBinary)
struct DescribedToolEndToEndTests {
    static let globalAccounts = #"""
        {"accounts": [
          {"id": "work", "name": "Work", "acme": {"profile": "work"}},
          {"id": "other", "name": "Other", "acme": {"profile": "other"}}
        ]}
        """#

    /// switch, undo and reset, each judged by what `acmectl current` answers afterwards.
    func switchUndoReset(_ scratch: DescribedToolHome) throws {
        #expect(try scratch.current() == "own", "the user's own profile before Perch")
        let switched = try scratch.run("switch", "work")
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try scratch.current() == "work")
        #expect(try scratch.run("switch", "other").status == 0)
        #expect(try scratch.current() == "other")
        let undone = try scratch.run("undo")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try scratch.current() == "work", "undo gives back the previous account's profile")
        #expect(try scratch.run("current", "--field", "id").stdout == "work\n")
        let reset = try scratch.run("reset", "--yes")
        #expect(reset.status == 0, "\(reset.stdout)\(reset.stderr)")
        #expect(try scratch.current() == "own", "reset gives back the user's own profile from before Perch")
    }

    @Test("global by a command: switch makes acmectl current answer the account's profile; undo the previous; reset the user's own")
    func globalByCommand() throws {
        let scratch = try DescribedToolHome(config: Self.globalAccounts, tools: [("acme", ToolDescriptionTexts.byCommand())])
        defer { scratch.cli.remove() }
        _ = try scratch.tool(["acmectl", "use", "own"])
        try switchUndoReset(scratch)
        #expect(scratch.calls("acmectl").contains("use work"), "Perch ran the tool's own command: \(scratch.calls("acmectl"))")
    }

    // Bug (tools described as data): the global state read back by "current" was the answer as
    // shown (masked when it looked like a secret, cut at 200 characters), so a switch to
    // `ProdAccount2024EuropeWestCluster01` failed ("acme reports …er01 after the switch") and a
    // reset ran `acmectl use …1xyz`, leaving the user's own profile replaced by the masked text.
    @Test("global by a command: profiles that look like secrets are switched to, undone and given back by reset as the tool gave them")
    func secretLookingProfiles() throws {
        let own = "OwnProfile2024EuropeWestCluster01xyz"
        let work = "ProdAccount2024EuropeWestCluster01"
        let config = Self.globalAccounts.replacingOccurrences(of: #"{"profile": "work"}"#, with: #"{"profile": "\#(work)"}"#)
        let scratch = try DescribedToolHome(config: config, tools: [("acme", ToolDescriptionTexts.byCommand())])
        defer { scratch.cli.remove() }
        _ = try scratch.tool(["acmectl", "use", own])
        let switched = try scratch.run("switch", "work")
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try scratch.current() == work)
        #expect(try scratch.run("switch", "other").status == 0)
        #expect(try scratch.run("undo").status == 0)
        #expect(try scratch.current() == work)
        let reset = try scratch.run("reset", "--yes")
        #expect(reset.status == 0, "\(reset.stdout)\(reset.stderr)")
        #expect(try scratch.current() == own, "the user's own profile, not its masked text")
        #expect(!scratch.calls("acmectl").contains { $0.contains("…") }, "\(scratch.calls("acmectl"))")
    }

    @Test("global by a file: the file the tool reads holds the account's profile; undo and reset give back as with a command")
    func globalByFile() throws {
        let scratch = try DescribedToolHome(config: Self.globalAccounts, tools: [("acme", ToolDescriptionTexts.byFile)])
        defer { scratch.cli.remove() }
        _ = try scratch.tool(["acmectl", "use", "own"])
        try switchUndoReset(scratch)
        #expect(scratch.calls("acmectl").filter { $0.hasPrefix("use") } == ["use own"], "a file switch runs no program")
        // Bug (tools described as data): reset wrote the value and a line end alone, so the user's
        // file was not given back as it was. Without a final line end, with CRLF and a comment, and
        // empty: byte for byte.
        let file = scratch.home + "/.acmectl/current"
        for own in ["own", "own\r\n# kept by hand\r\n", "own\n\n# second line", ""] {
            try Loopback.write(own, to: file, mode: 0o640)
            #expect(try scratch.run("switch", "work").status == 0)
            #expect(try scratch.current() == "work")
            #expect(try scratch.run("reset", "--yes").status == 0)
            #expect(FileManager.default.contents(atPath: file) == Data(own.utf8), "\(own.debugDescription)")
            #expect(
                (try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o640, "its mode as it was")
        }
        // A user with no file of their own: reset removes Perch's.
        unlink(scratch.home + "/.acmectl/current")
        _ = try scratch.run("reset", "--yes")
        #expect(try scratch.run("switch", "work").status == 0)
        #expect(try scratch.current() == "work")
        #expect(try scratch.run("reset", "--yes").status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.home + "/.acmectl/current"), "no profile of the user's: none after reset")
    }

    @Test(
        "all or nothing: a failing described tool rolls back a built-in (gh) and another described tool; each failing leaves the others as they were; Perch killed mid-switch is rolled back by the next command"
    )
    func allOrNothing() throws {
        let config = #"""
            {"accounts": [
              {"id": "a", "name": "Alpha", "gh": {"user": "ada-a"}, "acme": {"profile": "pa"}, "beta": {"profile": "pa"}},
              {"id": "b", "name": "Beta", "gh": {"user": "ada-b"}, "acme": {"profile": "pb"}, "beta": {"profile": "pb"}}
            ]}
            """#
        let scratch = try DescribedToolHome(
            config: config,
            tools: [("acme", ToolDescriptionTexts.byCommand()), ("beta", ToolDescriptionTexts.byCommand("beta", program: "betactl"))])
        defer { scratch.cli.remove() }
        // gh: a fake that switches its active user in hosts.yml as the real one does.
        let hosts = "github.com:\n    users:\n        me:\n        ada-a:\n        ada-b:\n    user: %s\n"
        writeExecutable(
            "#!/bin/sh\n[ \"$1 $2\" = \"auth switch\" ] && printf '\(hosts.replacingOccurrences(of: "\n", with: "\\n"))' \"$6\" > \"$GH_CONFIG_DIR/hosts.yml\"\nexit 0\n",
            to: scratch.home + "/bin/gh")
        try Loopback.write(String(format: hosts, "me"), to: scratch.home + "/gh/hosts.yml")
        _ = try scratch.tool(["acmectl", "use", "own"])
        _ = try scratch.tool(["betactl", "use", "own"])
        func uses() throws -> [String] {
            let gh = Loopback.text(scratch.home + "/gh/hosts.yml").split(separator: "\n").last.map {
                String($0.split(separator: " ").last ?? "")
            }
            return [gh ?? "?", try scratch.current("acmectl"), try scratch.current("betactl")]
        }
        #expect(try scratch.run("switch", "a").status == 0)
        #expect(try uses() == ["ada-a", "pa", "pa"], "\((try? uses()) ?? [])")
        let journal = scratch.home + "/state/perch/state.journal.json"
        for (failing, rolledBack) in [("betactl", ["gh", "acme"]), ("acmectl", ["gh", "beta"])] {
            let before = [scratch.home + "/gh/hosts.yml", scratch.home + "/.acmectl/current", scratch.home + "/.betactl/current"].map {
                FileManager.default.contents(atPath: $0)
            }
            try scratch.fault(failing, "fail")
            let failed = try scratch.run("switch", "b")
            try scratch.fault(failing, nil)
            let tool = failing == "betactl" ? "beta" : "acme"
            #expect(failed.status == 3, "\(failing): \(failed.stdout)\(failed.stderr)")
            #expect(failed.stderr.contains("\(tool): failed") && failed.stderr.contains("Still on a: Alpha."), "\(failed.stderr)")
            for other in rolledBack { #expect(failed.stderr.contains("\(other): rolled back"), "\(other): \(failed.stderr)") }
            #expect(try uses() == ["ada-a", "pa", "pa"], "\(failing) failing: \((try? uses()) ?? [])")
            let after = [scratch.home + "/gh/hosts.yml", scratch.home + "/.acmectl/current", scratch.home + "/.betactl/current"].map {
                FileManager.default.contents(atPath: $0)
            }
            #expect(after == before, "\(failing) failing: the tools' files byte for byte")
            #expect(!FileManager.default.fileExists(atPath: journal), "no journal left behind")
            #expect(try scratch.run("current", "--field", "id").stdout == "a\n")
        }
        // Each was asked to change and then to change back: `use pb`, then `use pa`.
        #expect(scratch.calls("betactl").filter { $0.hasPrefix("use") } == ["use own", "use pa", "use pb", "use pb", "use pa"])
        // Perch killed once betactl, the last, has changed: the journal is left, and the next
        // command rolls every tool back, the built-in and both described ones.
        try scratch.fault("betactl", "kill-after")
        let killed = try scratch.run("switch", "b")
        try scratch.fault("betactl", nil)
        #expect(killed.status == 137, "\(killed.stdout)\(killed.stderr)")
        #expect(FileManager.default.fileExists(atPath: journal), "the journal of the killed switch")
        #expect(try scratch.current("betactl") == "pb", "betactl had changed before Perch was killed")
        let next = try scratch.run("list", "--format", "ids")
        #expect(next.stderr.contains("interrupted switch from a to b was rolled back"), "\(next.stderr)")
        #expect(try uses() == ["ada-a", "pa", "pa"], "\((try? uses()) ?? [])")
        #expect(!FileManager.default.fileExists(atPath: journal))
        #expect(try scratch.run("current", "--field", "id").stdout == "a\n")
        #expect(try scratch.run("switch", "b").status == 0)
        #expect(try uses() == ["ada-b", "pb", "pb"], "\((try? uses()) ?? [])")
    }

    static let perShellAccounts = #"""
        {"accounts": [
          {"id": "work", "name": "Work", "acme": {"home": "~/acme-work", "user": "ada-work"}, "directories": ["~/proj"]},
          {"id": "personal", "name": "Personal", "acme": {"home": "~/acme-personal", "user": "ada"}}
        ]}
        """#

    /// A per-shell home: each account's folder holds its user.
    func perShellHome(expiry: Bool = false, accounts: String = perShellAccounts) throws -> DescribedToolHome {
        let scratch = try DescribedToolHome(config: accounts, tools: [("acme", ToolDescriptionTexts.perShell(expiry: expiry))])
        for (folder, user) in [("acme-work", "ada-work"), ("acme-personal", "ada"), ("proj", "")] {
            try FileManager.default.createDirectory(atPath: scratch.home + "/" + folder, withIntermediateDirectories: true)
            if !user.isEmpty { try Loopback.write(user + "\n", to: scratch.home + "/" + folder + "/user") }
        }
        return scratch
    }

    @Test("per shell: perch exec, perch env, perch use and a bound folder give acmectl the account's folder; nothing global changes")
    func perShell() throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        let home = scratch.home
        #expect(try scratch.run("switch", "personal").status == 0)
        let exec = try scratch.run("exec", "work", "--", "acmectl", "where")
        #expect(exec.status == 0, "\(exec.stderr)")
        #expect(exec.stdout == "\(home)/acme-work token=unset\n")
        #expect(try scratch.run("exec", "work", "--", "acmectl", "whoami").stdout == "ada-work\n")
        let env = try scratch.run("env", "work")
        #expect(env.status == 0 && env.stdout.contains("export ACME_HOME='\(home)/acme-work'\n"), "\(env.stdout)\(env.stderr)")
        func bash(_ script: String, in folder: String? = nil) throws -> String {
            var environment = scratch.cli.environment
            environment["PATH"] = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path + ":" + environment["PATH"]!
            let line = (folder.map { "cd \(TmuxSession.quote($0)) && " } ?? "") + script
            let run = try Spawn.run(["bash", "--norc", "--noprofile", "-c", line], environment: environment)
            #expect(run.status == 0, "\(script): \(run.stderr)")
            return run.stdout
        }
        let binary = TmuxSession.quote(TmuxSession.binary)
        #expect(try bash("eval \"$(\(binary) env work)\" && acmectl where") == "\(home)/acme-work token=unset\n")
        #expect(try bash("eval \"$(\(binary) use work --shell bash)\" && acmectl where") == "\(home)/acme-work token=unset\n")
        // A bound folder: shell-init's hook there gives its account; outside it, the global one's.
        #expect(try bash("eval \"$(\(binary) shell-hook bash)\" && acmectl where", in: home + "/proj") == "\(home)/acme-work token=unset\n")
        #expect(try bash("eval \"$(\(binary) shell-hook bash)\" && acmectl where", in: home) == "\(home)/acme-personal token=unset\n")
        // Outside any scope, the tool is the user's own: nothing global was written.
        #expect(try scratch.tool(["acmectl", "where"]).stdout == "unset token=unset\n")
        #expect(try scratch.run("current", "--field", "id").stdout == "personal\n")
    }

    @Test(
        "verify --as-exec: acme whoami ✓, ✗ with exit 3 when acmectl answers another user, ✗ naming ACME_TOKEN when the override is set"
    )
    func verify() throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        let agrees = try scratch.run("verify", "--as-exec", "work")
        #expect(agrees.status == 0, "\(agrees.stdout)\(agrees.stderr)")
        #expect(agrees.stdout.contains("✓ acme whoami") && agrees.stdout.contains("ada-work"), "\(agrees.stdout)")
        // Inside perch exec, verify with no --as-exec asks the same.
        let inside = try scratch.run("exec", "work", "--", TmuxSession.binary, "verify")
        #expect(inside.status == 0 && inside.stdout.contains("✓ acme whoami"), "\(inside.stdout)\(inside.stderr)")
        try Loopback.write("somebody-else\n", to: scratch.home + "/acme-work/user")
        let other = try scratch.run("verify", "--as-exec", "work")
        #expect(other.status == 3, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stdout.contains("✗ acme whoami") && other.stdout.contains("expected ada-work; says somebody-else")
                && other.stdout.contains("Acme CLI says it is somebody-else"), "\(other.stdout)")
        try Loopback.write("ada-work\n", to: scratch.home + "/acme-work/user")
        // perch exec and perch env take the override away; set again afterwards, it beats the account.
        var cli = scratch.cli
        cli.extraEnvironment["ACME_TOKEN"] = "tok-planted-override"
        #expect(try cli.run(["exec", "work", "--", "acmectl", "where"]).stdout.hasSuffix(" token=unset\n"))
        #expect(try cli.run(["verify", "--as-exec", "work"]).status == 0)
        let binary = TmuxSession.quote(TmuxSession.binary)
        let beaten = try Spawn.run(
            ["bash", "--norc", "--noprofile", "-c", "eval \"$(\(binary) env work)\" && export ACME_TOKEN=again && \(binary) verify work"],
            environment: cli.environment)
        #expect(beaten.status == 3, "\(beaten.stdout)\(beaten.stderr)")
        #expect(
            beaten.stdout.contains("✗ acme ")
                && beaten.stdout.contains(
                    "ACME_TOKEN is set in this environment and beats it (acmectl uses ACME_TOKEN instead of the signed-in user)"),
            "\(beaten.stdout)")
        #expect(beaten.stdout.contains("fix: unset ACME_TOKEN"), "\(beaten.stdout)")
    }

    @Test("verify: an answer that looks like a secret is masked, escape sequences never reach the output, a long answer is cut")
    func hostileAnswers() throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        let token = "ghp_Planted0123456789abcdefABCDEFxyz"
        try Loopback.write("\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\(token)\nsecond line\n", to: scratch.home + "/acme-work/user")
        let masked = try scratch.run("verify", "--as-exec", "work")
        let json = try scratch.run("verify", "--as-exec", "--json", "work")
        #expect(masked.status == 3, "\(masked.stdout)\(masked.stderr)")
        #expect(masked.stdout.contains("✗ acme whoami") && masked.stdout.contains("…Fxyz"), "\(masked.stdout)")
        for run in [masked, json] {
            let all = run.stdout + run.stderr
            #expect(!all.contains("Planted0123456789"), "the token: \(all)")
            #expect(
                !all.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "a control character: \(all)")
            #expect(!all.contains("second line"), "only the first line")
        }
        let long = String(repeating: "abcdefghij-", count: 40)
        try Loopback.write(long + "\n", to: scratch.home + "/acme-work/user")
        let cut = try scratch.run("verify", "--as-exec", "work")
        let line = cut.stdout.split(separator: "\n").first { $0.contains("acme whoami") }.map(String.init) ?? ""
        #expect(line.contains(String(long.prefix(200)) + "…") && !line.contains(String(long.prefix(201))), "\(cut.stdout)")
    }

    @Test("audit: a described secrets file readable by others is high, one at 0600 is not named")
    func audit() throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        try Loopback.write(#"{"token": "acme-planted-secret-1"}"#, to: scratch.home + "/acme-work/credentials.json", mode: 0o644)
        try Loopback.write(#"{"token": "acme-planted-secret-2"}"#, to: scratch.home + "/acme-personal/credentials.json", mode: 0o600)
        let audit = try scratch.run("audit")
        let all = audit.stdout + audit.stderr
        #expect(audit.status == 3, "a high finding: \(all)")
        let lines = all.split(separator: "\n")
        #expect(lines.contains { $0.contains("high") && $0.hasSuffix("~/acme-work/credentials.json") }, "\(all)")
        #expect(all.contains("readable by group and others (mode 0644)") && all.contains("accounts: work"), "\(all)")
        #expect(!all.contains("acme-personal/credentials.json"), "\(all)")
        #expect(!all.contains("acme-planted-secret"), "\(all)")
        chmod(scratch.home + "/acme-work/credentials.json", 0o600)
        let fixed = try scratch.run("audit")
        #expect(fixed.status == 0 && !(fixed.stdout + fixed.stderr).contains("credentials.json"), "\(fixed.stdout)\(fixed.stderr)")
    }

    @Test("completion offers acme.home and acme.user; perch set writes them and perch current --field answers")
    func completionAndSet() throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        for shell in ["bash", "zsh", "fish"] {
            let script = try scratch.run("completion", shell)
            #expect(script.status == 0 && script.stdout.contains("acme.home") && script.stdout.contains("acme.user"), "\(shell)")
        }
        #expect(try scratch.run("switch", "work").status == 0)
        #expect(try scratch.run("current", "--field", "acme.home").stdout == "~/acme-work\n")
        let set = try scratch.run("set", "work", "acme.home", "~/acme-other")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        #expect(try scratch.run("current", "--field", "acme.home").stdout == "~/acme-other\n")
        #expect(try scratch.run("exec", "work", "--", "acmectl", "where").stdout == "\(scratch.home)/acme-other token=unset\n")
        let bad = try scratch.run("set", "work", "acme.home", "relative/path")
        #expect(bad.status != 0 && bad.stderr.contains("must start with ~/ or /"), "\(bad.stdout)\(bad.stderr)")
        #expect(try scratch.run("current", "--field", "acme.home").stdout == "~/acme-other\n", "a refused value is not written")
    }

    static let agentAccounts = #"""
        {"accounts": [
          {"id": "bot", "name": "Bot", "agent": true, "git": {"name": "Bot", "email": "bot@example.org"}, "acme": {"home": "~/acme-bot", "user": "bot"}},
          {"id": "plain", "name": "Plain", "agent": true, "git": {"name": "Plain", "email": "plain@example.org"}},
          {"id": "personal", "name": "Personal", "acme": {"home": "~/acme-personal", "user": "ada"}}
        ]}
        """#

    // Bug (tools described as data): perch verify and perch status read the session ends of kube
    // and aws only, and perch exec --agent checked only theirs, so a described tool's ended
    // session was not shown and its agent started.
    @Test("expiry: an ended session is ✗ expired in verify and status with acmectl login, and an agent of that account does not start")
    func expiry() throws {
        let scratch = try perShellHome(expiry: true, accounts: Self.agentAccounts)
        defer { scratch.cli.remove() }
        try FileManager.default.createDirectory(atPath: scratch.home + "/acme-bot", withIntermediateDirectories: true)
        try Loopback.write("bot\n", to: scratch.home + "/acme-bot/user")
        let ended = Int(Date().timeIntervalSince1970) - 3600
        try Loopback.write(#"{"expiresAt": \#(ended)}"#, to: scratch.home + "/acme-bot/session.json")
        let verify = try scratch.run("verify", "--as-exec", "bot")
        #expect(verify.status == 3, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("✗ acme session") && verify.stdout.contains("expired"), "\(verify.stdout)")
        #expect(verify.stdout.contains("fix: acmectl login"), "\(verify.stdout)")
        // The switch stands and says so; status says so too, with what renews it.
        let switched = try scratch.run("switch", "bot")
        #expect(switched.status == 0 && switched.stderr.contains("acme: session of Acme CLI ended 1 h ago"), "\(switched.stderr)")
        let status = try scratch.run("status")
        #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
        #expect(
            status.stdout.contains("✗ acme") && status.stdout.contains("session of Acme CLI ended 1 h ago")
                && status.stdout.contains("renew: acmectl login"), "\(status.stdout)")
        // For prompts, as kube.expires: the end in ISO 8601, offered by completion.
        let expires = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(ended)))
        #expect(try scratch.run("current", "--field", "acme.expires").stdout == expires + "\n")
        #expect(try scratch.run("completion", "bash").stdout.contains("acme.expires"))
        let marker = scratch.home + "/started"
        let refused = try scratch.run("exec", "bot", "--agent", "--", "touch", marker)
        #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("was not started") && refused.stderr.contains("acmectl login"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the agent's command ran")
        // Renewed: it starts.
        try Loopback.write(#"{"expiresAt": \#(ended + 7200)}"#, to: scratch.home + "/acme-bot/session.json")
        let started = try scratch.run("exec", "bot", "--agent", "--", "touch", marker)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test("an agent whose account names nothing for acme gets ACME_HOME at an empty folder of Perch's, never the user's, and no ACME_TOKEN")
    func agentClosed() throws {
        let scratch = try perShellHome(accounts: Self.agentAccounts)
        defer { scratch.cli.remove() }
        var cli = scratch.cli
        cli.extraEnvironment["ACME_HOME"] = scratch.home + "/acme-personal"
        cli.extraEnvironment["ACME_TOKEN"] = "tok-the-users-own"
        let run = try cli.run(["exec", "plain", "--", "sh", "-c", #"echo "$ACME_HOME|${ACME_TOKEN-unset}"; ls -A "$ACME_HOME""#])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let parts = lines.first?.split(separator: "|").map(String.init) ?? []
        #expect(parts.count == 2 && parts[1] == "unset", "\(run.stdout)")
        let folder = parts.first ?? ""
        #expect(folder.hasPrefix(scratch.home + "/state/perch/") && folder.contains("plain.agent"), "Perch's, not the user's: \(folder)")
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty }, "the folder is empty: \(run.stdout)")
        let whoami = try cli.run(["exec", "plain", "--", "acmectl", "whoami"])
        #expect(whoami.stdout.isEmpty && whoami.status != 0, "acmectl sees no user: \(whoami.stdout)")
    }

    @Test(
        "trust: a world-writable description or folder, or a description running sh -c, stops every command with status 2 and runs nothing",
        arguments: ["world-writable file", "world-writable folder", "world-writable folder above", "sh -c"])
    func trust(_ refusal: String) throws {
        let scratch = try perShellHome()
        defer { scratch.cli.remove() }
        let file = scratch.tools + "/acme.json"
        let expected: String
        switch refusal {
        case "world-writable file":
            chmod(file, 0o666)
            expected = "tool description ~/config/perch/tools/acme.json: the file can be written by others (mode 666)"
        case "world-writable folder":
            chmod(scratch.tools, 0o777)
            expected = "the folder ~/config/perch/tools can be written by others (mode 777)"
        case "world-writable folder above":
            chmod(scratch.home + "/config", 0o777)
            expected = "tool description ~/config/perch/tools/acme.json: the folder ~/config can be written by others (mode 777)"
        default:
            try scratch.describe(
                "acme",
                ToolDescriptionTexts.perShell().replacingOccurrences(
                    of: #"["acmectl", "whoami"]"#, with: #"["sh", "-c", "acmectl whoami"]"#))
            expected = "tool description ~/config/perch/tools/acme.json: whoami.command[0]: sh runs its arguments as code"
        }
        for arguments in [
            ["verify", "--as-exec", "work"], ["exec", "work", "--", "acmectl", "where"], ["switch", "work"], ["list"], ["status"],
        ] {
            let run = try scratch.cli.run(arguments)
            #expect(run.status == 2, "\(refusal) \(arguments): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains(expected), "\(refusal) \(arguments): \(run.stderr)")
        }
        #expect(scratch.calls("acmectl").isEmpty, "\(refusal): the fake ran: \(scratch.calls("acmectl"))")
    }
}

/// A registry on 127.0.0.1 answering `GET /-/whoami` as npm's does: `{"username": "ada"}` for
/// the right bearer token, 401 otherwise (a Python http.server the test starts and stops).
private struct LoopbackRegistry {
    var pid: pid_t
    var port: Int

    static func start(in folder: String, token: String) throws -> LoopbackRegistry {
        let script = """
            import http.server, json, sys
            class Registry(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    good = self.path.rstrip("/") == "/-/whoami" and self.headers.get("Authorization") == "Bearer " + sys.argv[1]
                    body = json.dumps({"username": "ada"} if good else {"error": "unauthorized"}).encode()
                    self.send_response(200 if good else 401)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args): pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Registry)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let portFile = folder + "/registry.port"
        let (pid, port) = try Loopback.startServer(
            ["python3", "-c", script, token], output: portFile, errors: folder + "/registry.log", what: "the registry",
            port: Loopback.portLine)
        return LoopbackRegistry(pid: pid, port: port)
    }

    func stop() { Loopback.stop(pid) }
}

@Suite("The shipped npm description against the real npm", .serialized, .currentBinary)
struct DescribedNpmEndToEndTests {
    @Test(
        "verify --online --as-exec: npm server ✓ ada with the account's userconfig, – with another token (401), ✗ for another user; the token never printed",
        .enabled(if: Loopback.missing(["npm", "python3"]) == nil, "needs npm and python3"))
    func npmWhoami() throws {
        let token = "npm_PlantedGoodToken0123456789abcdef"
        let wrong = "npm_PlantedWrongToken9876543210fedcba"
        let config = #"""
            {"accounts": [
              {"id": "work", "name": "Work", "npm": {"userconfig": "~/.npmrc-work", "user": "ada"}},
              {"id": "other", "name": "Other", "npm": {"userconfig": "~/.npmrc-other", "user": "ada"}},
              {"id": "grace", "name": "Grace", "npm": {"userconfig": "~/.npmrc-work", "user": "grace"}}
            ]}
            """#
        var scratch = try DescribedToolHome(config: config, tools: [])
        defer { scratch.cli.remove() }
        let registry = try LoopbackRegistry.start(in: scratch.home, token: token)
        defer { registry.stop() }
        let url = "127.0.0.1:\(registry.port)"
        for (account, secret) in [("work", token), ("other", wrong)] {
            try Loopback.write(
                "registry=http://\(url)/\n//\(url)/:_authToken=\(secret)\n", to: scratch.home + "/.npmrc-\(account)", mode: 0o600)
        }
        scratch.cli.extraEnvironment["NPM_CONFIG_UPDATE_NOTIFIER"] = "false"
        scratch.cli.extraEnvironment["NPM_CONFIG_CACHE"] = scratch.home + "/npm-cache"
        let work = try scratch.run("verify", "--online", "--as-exec", "work")
        #expect(work.status == 0, "\(work.stdout)\(work.stderr)")
        #expect(work.stdout.contains("✓ npm server") && work.stdout.contains("ada"), "\(work.stdout)")
        // Another token: the registry says 401, npm whoami fails, so the server cannot tell (–).
        let other = try scratch.run("verify", "--online", "--as-exec", "other")
        #expect(other.status == 0 && other.stdout.contains("– npm server  npm whoami: exited with status 1"), "\(other.stdout)")
        #expect(!other.stdout.contains("✓ npm server"), "\(other.stdout)")
        // The right token for another person: the registry names ada, not grace (✗, exit 3).
        let grace = try scratch.run("verify", "--online", "--as-exec", "grace")
        #expect(grace.status == 3, "\(grace.stdout)\(grace.stderr)")
        #expect(
            grace.stdout.contains("✗ npm server  expected grace; says ada") && grace.stdout.contains("npm says it is ada"),
            "\(grace.stdout)")
        let json = try scratch.run("verify", "--online", "--as-exec", "--json", "other")
        for run in [work, other, grace, json, try scratch.run("audit"), try scratch.run("env", "work")] {
            for secret in [token, wrong] {
                #expect(!(run.stdout + run.stderr).contains(secret), "the token was printed: \(run.stdout)\(run.stderr)")
            }
        }
    }
}

/// What a hostile review of tools described as data found, as a user would meet it.
@Suite("A described tool: the review's findings", .serialized, .currentBinary)
struct DescribedToolReviewEndToEndTests {
    // Bug (review): a global file that was a symbolic link to ~/.bashrc had ~/.bashrc
    // overwritten by the profile, and reset gave back its first line only.
    @Test("a global file that is a symbolic link is never written through: the switch fails and the link's target is as it was")
    func globalFileLink() throws {
        let scratch = try DescribedToolHome(
            config: DescribedToolEndToEndTests.globalAccounts, tools: [("acme", ToolDescriptionTexts.byFile)])
        defer { scratch.cli.remove() }
        let bashrc = "# my bashrc\nalias ll='ls -l'\nexport IMPORTANT=1\n"
        try Loopback.write(bashrc, to: scratch.home + "/.bashrc")
        try FileManager.default.createDirectory(atPath: scratch.home + "/.acmectl", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.home + "/.acmectl/current", withDestinationPath: "../.bashrc")
        let switched = try scratch.run("switch", "work")
        #expect(switched.status == 3, "\(switched.stdout)\(switched.stderr)")
        #expect(
            (switched.stdout + switched.stderr).contains("~/.acmectl/current is a symbolic link"), "\(switched.stdout)\(switched.stderr)")
        #expect(Loopback.text(scratch.home + "/.bashrc") == bashrc, "~/.bashrc is as it was")
        #expect(try scratch.run("reset", "--yes").status == 0)
        #expect(Loopback.text(scratch.home + "/.bashrc") == bashrc)
    }

    // Bug (review): an agent whose account named acme's folder but not its profile was given the
    // user's own ACME_PROFILE.
    @Test("an agent whose account names a described tool in part gets none of the user's values for the rest")
    func agentPartlyNamed() throws {
        let description = #"""
            {"version": 1, "tool": "acme", "program": "acmectl",
             "settings": {"home": {"kind": "folder", "variable": "ACME_HOME", "required": true},
                          "cfg": {"kind": "file", "variable": "ACME_CFG"}, "profile": {"kind": "value", "variable": "ACME_PROFILE"}}}
            """#
        let accounts = #"""
            {"accounts": [{"id": "bot", "name": "Bot", "agent": true, "git": {"name": "Bot", "email": "bot@example.org"}, "acme": {"home": "~/acme-bot"}}]}
            """#
        let scratch = try DescribedToolHome(config: accounts, tools: [("acme", description)])
        defer { scratch.cli.remove() }
        try FileManager.default.createDirectory(atPath: scratch.home + "/acme-bot", withIntermediateDirectories: true)
        var cli = scratch.cli
        cli.extraEnvironment["ACME_PROFILE"] = "myprod"
        cli.extraEnvironment["ACME_CFG"] = scratch.home + "/.acmerc-mine"
        let run = try cli.run(["exec", "bot", "--", "sh", "-c", #"echo "$ACME_HOME|${ACME_PROFILE-unset}|$ACME_CFG""#])
        #expect(run.status == 0, "\(run.stderr)")
        let parts = run.stdout.trimmingCharacters(in: .newlines).split(separator: "|").map(String.init)
        #expect(parts.count == 3, "\(run.stdout)")
        #expect(parts.first == scratch.home + "/acme-bot")
        #expect(parts.dropFirst().first == "unset", "your own profile never reaches the agent: \(run.stdout)")
        #expect(
            parts.last?.hasPrefix(scratch.home + "/state/perch/") == true, "an empty file of Perch's, not ~/.acmerc-mine: \(run.stdout)")
    }

    // Bug (review): with a description refused, reset skipped its tool, said every tool was as
    // before and forgot the baseline it had kept.
    @Test("reset with a refused description stops (exit 2) and keeps what it would give back; once mended, it gives it back")
    func resetWithRefusedDescription() throws {
        let scratch = try DescribedToolHome(
            config: DescribedToolEndToEndTests.globalAccounts, tools: [("acme", ToolDescriptionTexts.byCommand())])
        defer { scratch.cli.remove() }
        _ = try scratch.tool(["acmectl", "use", "own"])
        #expect(try scratch.run("switch", "work").status == 0)
        #expect(try scratch.current() == "work")
        chmod(scratch.tools + "/acme.json", 0o666)
        let refused = try scratch.run("reset", "--yes")
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("can be written by others"), "\(refused.stderr)")
        #expect(try scratch.current() == "work")
        chmod(scratch.tools + "/acme.json", 0o600)
        let reset = try scratch.run("reset", "--yes")
        #expect(reset.status == 0, "\(reset.stdout)\(reset.stderr)")
        #expect(try scratch.current() == "own", "the user's own profile, kept through the refusal")
    }

    // Bug (review): with the description moved away, reset dropped the tool's baseline as one of
    // a tool "this Perch does not know", and the user's own profile with it.
    @Test("reset with a description gone keeps what it would give back (exit 2); once it is back, it gives it back")
    func resetWithDescriptionGone() throws {
        let scratch = try DescribedToolHome(
            config: DescribedToolEndToEndTests.globalAccounts, tools: [("acme", ToolDescriptionTexts.byCommand())])
        defer { scratch.cli.remove() }
        _ = try scratch.tool(["acmectl", "use", "own"])
        #expect(try scratch.run("switch", "work").status == 0)
        try FileManager.default.moveItem(atPath: scratch.tools + "/acme.json", toPath: scratch.home + "/acme.json.away")
        let refused = try scratch.run("reset", "--yes")
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("which no tool of this Perch knows now"), "\(refused.stderr)")
        try FileManager.default.moveItem(atPath: scratch.home + "/acme.json.away", toPath: scratch.tools + "/acme.json")
        #expect(try scratch.run("reset", "--yes").status == 0)
        #expect(try scratch.current() == "own")
    }

    // Bug (review): a global file whose folder was a link (~/.acmectl → ~/important) had the file
    // behind the link written.
    @Test("a global file reached through a linked folder is never written: the switch fails and the file behind it is as it was")
    func globalFileInLinkedFolder() throws {
        let scratch = try DescribedToolHome(
            config: DescribedToolEndToEndTests.globalAccounts, tools: [("acme", ToolDescriptionTexts.byFile)])
        defer { scratch.cli.remove() }
        try FileManager.default.createDirectory(atPath: scratch.home + "/important", withIntermediateDirectories: true)
        try Loopback.write("precious\n", to: scratch.home + "/important/current")
        try FileManager.default.createSymbolicLink(atPath: scratch.home + "/.acmectl", withDestinationPath: scratch.home + "/important")
        let switched = try scratch.run("switch", "work")
        #expect(switched.status == 3, "\(switched.stdout)\(switched.stderr)")
        #expect((switched.stdout + switched.stderr).contains("is reached through a symbolic link"), "\(switched.stdout)\(switched.stderr)")
        #expect(Loopback.text(scratch.home + "/important/current") == "precious\n")
    }

    // Bug (review): an agent whose account named a global tool but not its global setting ran on
    // the user's own global profile.
    @Test("an agent whose account names a global tool but not its global setting does not start")
    func agentWithoutGlobalSetting() throws {
        let description = #"""
            {"version": 1, "tool": "acme", "program": "acmectl",
             "settings": {"profile": {"kind": "value", "variable": "ACME_PROFILE"}, "user": {"kind": "identity"}},
             "global": {"command": ["acmectl", "use", "{profile}"], "current": {"command": ["acmectl", "current"]}, "setting": "profile"}}
            """#
        let accounts = #"""
            {"accounts": [{"id": "bot", "name": "Bot", "agent": true, "git": {"name": "Bot", "email": "bot@example.org"}, "acme": {"user": "bot@x"}}]}
            """#
        let scratch = try DescribedToolHome(config: accounts, tools: [("acme", description)])
        defer { scratch.cli.remove() }
        let marker = scratch.home + "/started"
        let refused = try scratch.run("exec", "bot", "--", "touch", marker)
        #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("an agent's account names it"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
