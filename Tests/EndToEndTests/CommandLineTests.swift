import Foundation
import Testing

/// A scratch HOME with XDG folders, and `perch` run in it as a script would run it.
struct PerchCommandLine {
    let home: URL
    var extraEnvironment: [String: String] = [:]

    /// Uses `home`, or a new scratch HOME when nil.
    init(home: URL? = nil) throws {
        self.home = try home ?? TmuxSession.makeScratchHome()
    }

    var configPath: String { home.appendingPathComponent("config/perch/accounts.json").path }
    var statePath: String { home.appendingPathComponent("state/perch/state.json").path }

    var environment: [String: String] {
        var env = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LC_ALL": "C.UTF-8",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        env.merge(extraEnvironment) { $1 }
        return env
    }

    /// Runs `perch arguments`; returns status and output.
    func run(_ arguments: [String]) throws -> Spawn.Result {
        try Spawn.run([TmuxSession.binary] + arguments, environment: environment)
    }

    /// Writes `json` as the config, with `mode`.
    func writeConfig(_ json: String, mode: mode_t = 0o600) throws {
        try TmuxSession.writeConfig(json, home: home)
        chmod(configPath, mode)
    }

    /// The lines of the history log beside the state file.
    func historyLines() throws -> [Substring] {
        let path = (statePath as NSString).deletingPathExtension + ".history.jsonl"
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    }

    /// The state file as JSON.
    func state() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: statePath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func remove() { try? FileManager.default.removeItem(at: home) }
}

/// One step of a golden transcript.
struct Step: Sendable {
    var arguments: [String]
    var environment: [String: String] = [:]
    init(_ arguments: String..., environment: [String: String] = [:]) {
        self.arguments = arguments
        self.environment = environment
    }
}

/// A named sequence of commands whose whole transcript is compared with `Golden/NAME.txt`.
struct Transcript: Sendable, CustomTestStringConvertible {
    var name: String
    var config: String?
    var steps: [Step]
    var testDescription: String { name }
}

private let groupsConfig = #"""
    {"version": 1, "accounts": [
      {"id": "work", "name": "Work", "handle": "@ada.work", "group": "Jobs", "color": "blue"},
      {"id": "work-old", "name": "work", "colour": "red"},
      {"id": "home", "name": "家のアカウント", "handle": "@ada"}
    ]}
    """#

/// The command line as a script sees it: golden transcripts of every command (help included)
/// and error path, hooks, and the state file under concurrent and killed writers.
@Suite("Command line", .currentBinary)
struct CommandLineTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(
        "Golden transcripts of each command and error path, with exit statuses",
        arguments: [
            Transcript(
                name: "help",
                steps: [
                    Step("--help"), Step("help", "switch"), Step("list", "--help"), Step("current", "--help"), Step("switch", "--help"),
                    Step("history", "--help"), Step("init", "--help"), Step("config", "--help"), Step("config", "path", "--help"),
                    Step("config", "check", "--help"), Step("config", "edit", "--help"), Step("status", "--help"), Step("env", "--help"),
                    Step("shell-init", "--help"), Step("setup", "--help"), Step("import", "--help"), Step("mcp", "--help"),
                    Step("--version"),
                ]),
            Transcript(
                name: "samples",
                steps: [
                    Step("list"), Step("current"), Step("history"), Step("switch", "personal"), Step("switch", "personal"),
                    Step("switch", "SIDE PROJECT"), Step("current"), Step("current", "--field", "id"), Step("current", "--field", "handle"),
                    Step("current", "--json"), Step("list"), Step("list", "--json"), Step("history"),
                    Step("history", "--limit", "1", "--json"), Step("history", "--limit", "0"),
                    Step("switch", "nope"), Step("switch", "pers"),
                ]),
            Transcript(
                name: "config",
                steps: [
                    Step("config", "path"), Step("config", "check"), Step("init"), Step("init"), Step("config", "check"), Step("list"),
                    Step("config", "path", "--config", "/elsewhere/accounts.json"),
                ]),
            Transcript(
                name: "groups", config: groupsConfig,
                steps: [Step("config", "check"), Step("list"), Step("switch", "WORK"), Step("switch", "work"), Step("current")]),
            Transcript(
                name: "bad-config", config: #"{"accounts": [{"id": "Bad Id", "name": ""}, {"id": "x", "name": "X", "color": 3}]}"#,
                steps: [Step("config", "check"), Step("list"), Step("current"), Step("switch", "x")]),
            Transcript(
                name: "usage-errors",
                steps: [
                    Step("bogus"), Step("list", "extra"), Step("list", "--field", "id"), Step("switch"), Step("config"),
                    Step("config", "show"), Step("current", "--json", "--field", "id"), Step("history", "--limit", "many"),
                    Step("--long-press-ms", "5"),
                ]),
            Transcript(
                name: "previous",
                steps: [
                    Step("-"), Step("switch", "-"), Step("switch", "work"), Step("-"), Step("switch", "oss"), Step("-"),
                    Step("switch", "-"),
                    Step("-"), Step("current", "--field", "id"), Step("history", "--limit", "2"),
                ]),
            Transcript(
                name: "pipes", config: groupsConfig,
                steps: [
                    Step("current", "--json"), Step("list", "--format", "ids"), Step("list", "--format", "tsv"), Step("switch", "home"),
                    Step("list"), Step("list", "--format", "tsv"), Step("list", "--json"), Step("list", "--format", "json"),
                    Step("current", "--json"), Step("switch", "hmoe"), Step("switch", "wrok"), Step("switch", "WROK-OLD"),
                    Step("switch", "zzzzzz"), Step("switch", "家のアカウソト"),
                ]),
            Transcript(
                name: "shell-usage",
                steps: [
                    Step("switch"), Step("pick"), Step("completion"), Step("completion", "tcsh"), Step("list", "--format", "yaml"),
                    Step("list", "--json", "--format", "ids"), Step("switch", "--height", "2"), Step("pick", "--height", "x"),
                    Step("completion", "bash", "--config", "x"), Step("help", "completion"), Step("pick", "--help"),
                    Step("man-page", "--help"),
                ]),
        ])
    func golden(_ transcript: Transcript) throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        if let config = transcript.config { try cli.writeConfig(config) }
        var text = ""
        for step in transcript.steps {
            cli.extraEnvironment = step.environment
            let result = try cli.run(step.arguments)
            text += "$ perch " + step.arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n"
            text += result.stdout + (result.stderr.isEmpty ? "" : "[stderr]\n" + result.stderr) + "[exit \(result.status)]\n\n"
        }
        text = Self.normalized(text, home: cli.home.path)
        let file = Self.goldenFolder.appendingPathComponent(transcript.name + ".txt")
        if ProcessInfo.processInfo.environment["PERCH_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenFolder, withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "transcript differs from \(file.lastPathComponent); PERCH_RECORD_GOLDEN=1 records it anew")
        if text != expected {
            let got = text.components(separatedBy: "\n")
            let want = expected.components(separatedBy: "\n")
            if let index = (0..<max(got.count, want.count)).first(where: {
                got.indices.contains($0) != want.indices.contains($0) || got[$0] != want[$0]
            }) {
                let shown = { (lines: [String]) in lines.indices.contains(index) ? lines[index] : "(none)" }
                Issue.record("first difference at line \(index + 1):\n got: \(shown(got))\nwant: \(shown(want))")
            }
        }
    }

    /// `text` with the scratch home shown as `$HOME` and times as `<time>`.
    static func normalized(_ text: String, home: String) -> String {
        var result = text.replacingOccurrences(of: home, with: "$HOME")
        let time = try! NSRegularExpression(pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z(-[0-9]+)?")
        result = time.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "<time>")
        return result
    }

    // Bug: perch history printed the machine words `tui` and `cli` where Stats and the banner
    // speak of this window, another window and the command line.
    @Test("perch history says where each switch was made in words (interface, command line); --json keeps tui and cli")
    func historyInWords() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        #expect(try cli.run(["switch", "work"]).status == 0)
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        let history = """
            {"account":"home","previous":null,"source":"tui","time":"2026-11-29T08:00:00Z"}
            {"account":"work","previous":"home","source":"cli","time":"2026-11-29T09:00:00Z"}

            """
        try history.write(toFile: folder + "/state.history.jsonl", atomically: true, encoding: .utf8)
        let text = try cli.run(["history"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.count == 2 && lines[0].hasSuffix("  command line  home → work") && lines[1].hasSuffix("  interface     (none) → home"),
            "\(lines)")
        #expect(!text.stdout.contains("tui") && !text.stdout.contains("cli"))
        let json = try cli.run(["history", "--json"])
        #expect(json.stdout.contains(#""source":"tui""#) || json.stdout.contains(#""source" : "tui""#), "\(json.stdout)")
    }

    @Test("config edit opens $VISUAL, then $EDITOR, then vi, and validates afterwards")
    func configEdit() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        cli.extraEnvironment = ["EDITOR": "sed -i s/Personal/Private/"]
        let edited = try cli.run(["config", "edit"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("valid, 3 accounts"), "no config yet: the starter is edited: \(edited.stdout)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("Private"))

        cli.extraEnvironment = ["VISUAL": "sed -i s/Private/Mine/", "EDITOR": "false"]
        #expect(try cli.run(["config", "edit"]).status == 0, "VISUAL wins over EDITOR")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("Mine"))

        cli.extraEnvironment = ["EDITOR": #"sed -i 's/"id": "oss"/"id": "work"/'"#]
        let broken = try cli.run(["config", "edit"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains(#"accounts[2].id: duplicate id "work" (first at accounts[0])"#), "\(broken.stderr)")
        #expect(broken.stderr.contains("the edit is discarded; the config is unchanged"), "\(broken.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains(#""id": "oss""#), "an invalid edit is not kept")

        cli.extraEnvironment = ["EDITOR": "exit 4;"]
        let failed = try cli.run(["config", "edit"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("exited with status 4"), "\(failed.stderr)")
    }

    // Bug: `perch list > /dev/full` printed nothing and exited 0.
    @Test("Output that cannot be written is an error with exit status 1; a closed pipe is not")
    func outputFailure() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let full = try Spawn.run(["sh", "-c", "\"$0\" list > /dev/full", TmuxSession.binary], environment: cli.environment)
        #expect(full.status == 1)
        #expect(full.stderr == "perch: cannot write the output: No space left on device\n")
        let piped = try Spawn.run(["sh", "-c", "\"$0\" list | head -c 1 >/dev/null", TmuxSession.binary], environment: cli.environment)
        #expect(!piped.stderr.contains("cannot write"), "\(piped.stderr)")
    }

    @Test("perch init writes a starter config that is valid, mode 0600, and never overwrites one")
    func initConfig() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        #expect(try cli.run(["init"]).status == 0)
        var info = stat()
        #expect(stat(cli.configPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let check = try cli.run(["config", "check"])
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "the starter has no warnings: \(check.stderr)")
        try "{\"accounts\": [{\"id\": \"mine\", \"name\": \"Mine\"}]}".write(toFile: cli.configPath, atomically: true, encoding: .utf8)
        #expect(try cli.run(["init"]).status == 1)
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("mine"), "the existing config is untouched")
    }

    /// Issue 33: the starter config said "JSON has no comments" and showed no tool identity.
    /// It is JSON with Comments: the identities are shown, commented out where they would fail
    /// on a machine without them, and a switch to its first account still succeeds.
    @Test("perch init's starter shows the tool identities, commented out where they would fail, and its accounts switch")
    func starterShowsIdentities() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        #expect(try cli.run(["init"]).status == 0)
        let text = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        for key in ["git", "ssh", "kube", "gcloud", "aws", "gh", "docker"] {
            #expect(text.contains("// \"\(key)\": "), "\(key) is shown commented out: \(text)")
        }
        let switched = try cli.run(["switch", "work"])
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(try cli.run(["current", "--field", "env.TEAM"]).stdout == "web\n")
    }

    /// Issue 33: the embedded samples and the starter config share ids (`work`, `personal`,
    /// `oss`), so switches among the samples carried over into the real config's state and
    /// history after `perch init`. `perch init` moves the samples' to `state.samples.json`.
    // Bug: `perch config edit` over the samples (no config yet) kept their state, as init did not.
    @Test(
        "switches among the samples do not carry over into the first config, written by perch init or perch config edit",
        arguments: ["init", "config edit"])
    func samplesStateStaysApart(command: String) throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        cli.extraEnvironment = ["EDITOR": "true", "VISUAL": ""]  // the edit installs the starter config as it is
        #expect(try cli.run(["switch", "work"]).status == 0)
        #expect(try cli.run(["switch", "personal"]).status == 0)
        #expect(try cli.run(["current", "--field", "id"]).stdout == "personal\n")
        let wrote = try cli.run(command.split(separator: " ").map(String.init))
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.configPath))
        // Bug: the samples' undo stayed, and `perch undo` brought a sample switch back.
        let undo = try cli.run(["undo"])
        #expect(undo.status != 0 && !undo.stdout.contains("back to"), "nothing of the samples to undo: \(undo.stdout) \(undo.stderr)")
        #expect(try cli.run(["current", "--field", "id"]).stdout.isEmpty)
        let current = try cli.run(["current", "--field", "id"])
        #expect(current.stdout.isEmpty, "no sample switch is current: \(current.stdout)")
        let history = try cli.run(["history", "--json"])
        #expect(history.status == 0 && !history.stdout.contains("personal") && !history.stdout.contains("work"), "\(history.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.statePath), "the config's state starts empty")
        let samples = (cli.statePath as NSString).deletingPathExtension + ".samples"
        #expect(FileManager.default.fileExists(atPath: samples + ".json"), "the samples' state is kept apart")
        #expect(try String(contentsOfFile: samples + ".history.jsonl", encoding: .utf8).split(separator: "\n").count == 2)
        // A switch in the new config starts its own history.
        #expect(try cli.run(["switch", "oss"]).status == 0)
        #expect(try cli.historyLines().count == 1)
        #expect(try cli.state()["switchCount"] as? Int == 1)
    }

    // Bug: perch init took any file it could not read for "no config" and replaced it: a config over 16 MiB, a FIFO, /dev/null.
    @Test(
        "perch init writes nothing over a file it cannot read, a folder, a FIFO or a device",
        arguments: ["large", "fifo", "folder", "device"])
    func initNeverReplaces(kind: String) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let folder = (cli.configPath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var path = cli.configPath
        switch kind {
        case "large":
            let large = "{\"accounts\": [" + String(repeating: "{\"id\": \"a\", \"name\": \"x\"},", count: 600_000) + "]}"
            try large.write(toFile: path, atomically: true, encoding: .utf8)
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        default: path = "/dev/null"
        }
        var before = stat()
        #expect(stat(path, &before) == 0)
        let result = try cli.run(["--config", path, "init"])
        #expect(result.status == 1, "\(kind): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("perch init writes only where there is no file"), "\(result.stderr)")
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(
            after.st_mode == before.st_mode && after.st_size == before.st_size && after.st_ino == before.st_ino, "\(kind) left as it was")
    }

    @Test("A hook gets the account in its environment, stdin at end of file, and its output passes through")
    func hookEnvironment() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        let out = cli.home.appendingPathComponent("hook.out").path
        cli.extraEnvironment = ["OUT": out]
        try cli.writeConfig(
            #"""
            {"accounts": [
              {"id": "a", "name": "Alpha One", "handle": "@a", "onSwitch": "env | grep ^PERCH_ | sort > \"$OUT\"; cat >> \"$OUT\"; echo to-stdout; echo to-stderr >&2"},
              {"id": "b", "name": "Beta", "onSwitch": "env | grep ^PERCH_ | sort > \"$OUT\""}
            ]}
            """#)
        let first = try cli.run(["switch", "a"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("to-stdout"))
        #expect(first.stderr == "to-stderr\n")
        #expect(
            try String(contentsOfFile: out, encoding: .utf8)
                == "PERCH_ACCOUNT_HANDLE=@a\nPERCH_ACCOUNT_ID=a\nPERCH_ACCOUNT_NAME=Alpha One\nPERCH_PREVIOUS_ID=\n")
        #expect(try cli.run(["switch", "b"]).status == 0)
        #expect(
            try String(contentsOfFile: out, encoding: .utf8)
                == "PERCH_ACCOUNT_HANDLE=\nPERCH_ACCOUNT_ID=b\nPERCH_ACCOUNT_NAME=Beta\nPERCH_PREVIOUS_ID=a\n")
    }

    @Test("A failing hook: exit status 3, the reason on stderr, and the switch stands")
    func hookFailure() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A", "onSwitch": "echo no such remote >&2; exit 7"}]}"#)
        let result = try cli.run(["switch", "a"])
        #expect(result.status == 3)
        #expect(result.stderr == "no such remote\nperch: the switch to a is saved, but its onSwitch hook exited with status 7\n")
        #expect(try cli.run(["current", "--field", "id"]).stdout == "a\n")
    }

    // Bug: `perch switch work --state <the config>` replaced the config with a state file, with no copy kept.
    @Test("The config given as --state is refused and left as it was; exit 1")
    func configAsState() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"version": 1, "accounts": [{"id": "work", "name": "Work"}]}"#)
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let result = try cli.run(["switch", "work", "--state", cli.configPath])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a Perch config (it lists accounts), not a state file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before)
        #expect(try cli.run(["list"]).status == 0, "the config still loads")
    }

    // Bug: a `perch switch` that failed on an account unknown to its config cleared the shared current account.
    @Test("A switch that fails (an account this config lacks) leaves the state file as it was")
    func failedSwitchChangesNothing() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "oss", "name": "Open Source"}]}"#)
        #expect(try cli.run(["switch", "oss"]).status == 0)
        let before = try String(contentsOfFile: cli.statePath, encoding: .utf8)
        let other = cli.home.appendingPathComponent("other.json").path
        try #"{"accounts": [{"id": "work", "name": "Work"}]}"#.write(toFile: other, atomically: true, encoding: .utf8)
        let result = try cli.run(["switch", "Wrk", "--config", other])
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: cli.statePath, encoding: .utf8) == before)
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: (cli.statePath as NSString).deletingLastPathComponent)).contains {
                $0.contains(".corrupt-")
            }, "no copy set aside")
    }

    @Test("A config with hooks that others can write is refused with the chmod to run, exit 2")
    func unsafeConfig() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A", "onSwitch": "true"}]}"#, mode: 0o664)
        let result = try cli.run(["switch", "a"])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("run: chmod go-w \(cli.configPath)\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.statePath), "nothing was switched")
    }

    @Test("Two processes switching 200 times each at once: 400 switches, 400 history entries, never invalid JSON")
    func concurrentSwitches() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(
            #"{"accounts": [{"id": "a1", "name": "A1"}, {"id": "a2", "name": "A2"}, {"id": "b1", "name": "B1"}, {"id": "b2", "name": "B2"}]}"#
        )
        let done = cli.home.appendingPathComponent("done").path
        let readerOut = cli.home.appendingPathComponent("reader.out").path
        // Each process alternates between its own two accounts, so no switch is a no-op.
        let loop = { (x: String, y: String) in
            "for i in $(seq 100); do \"$PERCH\" switch \(x) >/dev/null || exit 1; \"$PERCH\" switch \(y) >/dev/null || exit 1; done"
        }
        let reader = """
            import json, os, sys
            path, done = sys.argv[1], sys.argv[2]
            reads = bad = 0
            while not os.path.exists(done):
                try:
                    with open(path) as f:
                        text = f.read()
                except FileNotFoundError:
                    continue
                reads += 1
                try:
                    json.loads(text)
                except ValueError:
                    bad += 1
            print(reads, bad)
            """
        var environment = cli.environment
        environment["PERCH"] = TmuxSession.binary
        let readerPID = try Spawn.start(["python3", "-c", reader, cli.statePath, done], environment: environment, stdout: readerOut)
        let first = try Spawn.start(["bash", "-c", loop("a1", "a2")], environment: environment)
        let second = try Spawn.start(["bash", "-c", loop("b1", "b2")], environment: environment)
        #expect(try Spawn.wait(first) == 0)
        #expect(try Spawn.wait(second) == 0)
        _ = FileManager.default.createFile(atPath: done, contents: nil)
        #expect(try Spawn.wait(readerPID) == 0)
        let state = try cli.state()
        #expect(state["switchCount"] as? Int == 400)
        #expect(try cli.historyLines().count == 400)
        let counts = try #require(state["switchesPerAccount"] as? [String: Int])
        #expect(counts == ["a1": 100, "a2": 100, "b1": 100, "b2": 100])
        let figures = try String(contentsOfFile: readerOut, encoding: .utf8).split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(figures.count == 2)
        #expect(figures.first ?? 0 > 0, "the reader read the file while it was being written")
        #expect(figures.last == 0, "the reader saw invalid JSON \(figures.last ?? -1) times")
    }

    @Test(
        "Hostile config files: one clear line naming the file, exit 2, the file untouched",
        arguments: [
            ("empty", "", "the file is empty; write a starter config with `perch init`"),
            ("truncated", #"{"accounts": [{"id": "a", "na"#, "line 1, column 30:"),
            ("binary garbage", "\u{0}\u{1}\u{FFFD}\u{7F}PK\u{3}\u{4}", "line 1, column 1:"),
            ("a folder", "<folder>", "is a folder, not a file"),
        ])
    func hostileConfig(kind: String, contents: String, message: String) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        if contents == "<folder>" {
            try FileManager.default.createDirectory(atPath: cli.configPath, withIntermediateDirectories: true)
        } else {
            try cli.writeConfig(contents)
        }
        for command in [["list"], ["switch", "a"], ["current"], ["config", "check"]] {
            let result = try cli.run(command)
            #expect(result.status == 2, "\(kind), perch \(command.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.hasPrefix("perch: config \(cli.configPath): "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(kind): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        if contents != "<folder>" {
            #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == contents, "the config is untouched")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.statePath), "nothing was switched")
    }

    @Test(
        "Hostile state files: kept aside and said once, or refused with a clear message; never lost",
        arguments: [
            ("empty", "", true), ("truncated", #"{"version": 2, "currentAcc"#, true), ("binary garbage", "\u{0}\u{FFFD}\u{1B}[2J", true),
            ("a folder", "<folder>", false),
        ])
    func hostileState(kind: String, contents: String, setAside: Bool) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if contents == "<folder>" {
            try FileManager.default.createDirectory(atPath: cli.statePath, withIntermediateDirectories: true)
        } else {
            try contents.write(toFile: cli.statePath, atomically: true, encoding: .utf8)
        }
        let result = try cli.run(["switch", "work"])
        if setAside {
            #expect(result.status == 0, "\(kind): \(result.stderr)")
            #expect(result.stderr.contains("State file could not be parsed; kept it as state.json.corrupt-"), "\(result.stderr)")
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(copies.count == 1)
            #expect(
                try String(contentsOfFile: folder + "/" + copies[0], encoding: .utf8) == contents, "the bad file is kept, byte for byte")
            #expect(try cli.state()["currentAccount"] as? String == "work")
            #expect(!(try cli.run(["current"])).stderr.contains("could not be parsed"), "said once")
        } else {
            #expect(result.status == 1, "\(kind): \(result.stderr)")
            #expect(result.stderr == "perch: cannot read the state: \(cli.statePath): is a folder, not a file\n")
            var info = stat()
            #expect(stat(cli.statePath, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR, "left alone")
        }
    }

    @Test("A state file on a read-only file system: a clear message and exit 1, nothing half-written")
    func readOnlyState() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        // sysfs refuses new files for everyone, root included.
        let result = try cli.run(["--state", "/sys/perch-state.json", "switch", "work"])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("perch: could not save the switch: /sys/perch-state.json.lock: cannot open the lock file: "),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/sys/perch-state.json"))
    }

    @Test("SIGKILL at random moments during switches always leaves a complete state file")
    func killedWhileSwitching() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]}"#)
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"{"version": 2, "switchCount": 9990, "switchesPerAccount": {"a": 9990}}"#.write(
            toFile: cli.statePath, atomically: true, encoding: .utf8)
        let line = #"{"account":"a","previous":null,"source":"cli","time":"2026-01-01T00:00:00Z"}"# + "\n"
        try String(repeating: line, count: 9990).write(toFile: folder + "/state.history.jsonl", atomically: true, encoding: .utf8)
        srand48(42)  // the C library's generator, seeded, so that a failing run can be repeated
        var previousCount = 9990
        var previousEntries = 9990
        for round in 0..<60 {
            let pid = try Spawn.start([TmuxSession.binary, "switch", round % 2 == 0 ? "b" : "a"], environment: cli.environment)
            usleep(UInt32(lrand48() % 25_001))
            kill(pid, SIGKILL)
            _ = try Spawn.wait(pid)
            let state = try cli.state()
            let count = try #require(state["switchCount"] as? Int, "round \(round): no count")
            #expect(count == previousCount || count == previousCount + 1, "round \(round): count went from \(previousCount) to \(count)")
            // Every complete line parses; a torn last line is all a kill may leave.
            let lines = try cli.historyLines()
            let complete =
                try String(contentsOfFile: folder + "/state.history.jsonl", encoding: .utf8).hasSuffix("\n") ? lines : lines.dropLast()
            for entry in complete {
                #expect((try? JSONSerialization.jsonObject(with: Data(entry.utf8))) != nil, "round \(round): bad line \(entry)")
            }
            let entries = min(complete.count, 10_000)
            #expect(
                entries == previousEntries || entries == previousEntries + 1,
                "round \(round): entries went from \(previousEntries) to \(entries)")
            #expect(entries <= count, "round \(round): \(entries) history entries for \(count) switches: one was invented")
            previousCount = count
            previousEntries = entries
        }
        // The next switch that completes clears the temporary files of killed writers.
        #expect(try cli.run(["switch", "c"]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("perch current answers from its cache while nothing changed, and never shows a config changed in place")
    func currentCache() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#)
        #expect(try cli.run(["switch", "work"]).status == 0)
        // The cache is only made from files older than 2 s: ask until it appears, with a deadline.
        let cache = cli.statePath + ".current"
        var answers: Set<String> = []
        let made = try TmuxSession.eventually(timeout: 10) {
            answers.insert(try cli.run(["current", "--field", "name"]).stdout)
            return FileManager.default.fileExists(atPath: cache)
        }
        #expect(made, "no cache after 10 s")
        #expect(answers == ["Work\n"], "the same answer while the cache was made: \(answers)")
        #expect(try cli.run(["current", "--field", "name"]).stdout == "Work\n")
        // The same number of bytes, in place: same inode, same size.
        let handle = try #require(FileHandle(forWritingAtPath: cli.configPath))
        try handle.write(contentsOf: Data(#"{"accounts": [{"id": "work", "name": "Wörk"}, {"id": "home", "name": "Hom"}]}"#.utf8))
        try handle.close()
        #expect(try cli.run(["current", "--field", "name"]).stdout == "Wörk\n")
        #expect(try cli.run(["current", "--json"]).stdout.contains("Wörk"))
    }
}
