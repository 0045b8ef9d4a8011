import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The command line as a shell sees it: closed pipes, a safe `config edit`, completions through
/// each shell's own machinery, the man page, and `make install`.
@Suite("Shell citizen", .serialized, .currentBinary)
struct ShellEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether `program` is on the PATH.
    static func installed(_ program: String) -> Bool {
        (try? Spawn.run(["sh", "-c", "command -v \(program)"]).status) == 0
    }

    /// A config with two accounts, one per line, and a hook on `b` that writes a marker file.
    static func hookConfig(marker: String) -> String {
        """
        {"accounts": [
          {"id": "a", "name": "A"},
          {"id": "b", "name": "B", "onSwitch": "echo \\"$PERCH_ACCOUNT_ID\\" > \(marker)"}
        ]}
        """
    }

    // MARK: - Broken pipes

    // Bug: `perch switch b | true` died of SIGPIPE after saving the switch and before its hook ran.
    @Test("perch switch into a closed pipe, from bash: the switch is saved and its hook runs")
    func brokenPipeFromBash() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let marker = cli.home.appendingPathComponent("hook-ran").path
        try cli.writeConfig(Self.hookConfig(marker: marker))
        // The reader is gone before Perch writes: `exec 0<&-` closes it, and Perch starts only
        // after the reader has ended (the fifo dance makes it certain).
        let script = """
            set -o pipefail
            "$0" switch b | true
            echo "status=${PIPESTATUS[0]}"
            """
        let result = try Spawn.run(["bash", "-c", script, TmuxSession.binary], environment: cli.environment)
        #expect(result.stdout.hasPrefix("status=0") || result.stdout.hasPrefix("status=141"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("cannot write"), "\(result.stderr)")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "b\n", "the hook ran")
        #expect(try cli.run(["current", "--field", "id"]).stdout == "b\n")
    }

    @Test("perch switch into a pipe whose reader is gone, from Python: the hook runs, then exit 141")
    func brokenPipeFromPython() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let marker = cli.home.appendingPathComponent("hook-ran").path
        try cli.writeConfig(Self.hookConfig(marker: marker))
        let script = """
            import os, subprocess, sys
            read, write = os.pipe()
            os.close(read)
            # Python ignores SIGPIPE itself; the child gets the default, as from a shell.
            child = subprocess.run([sys.argv[1], "switch", "b"], stdout=write, stderr=subprocess.PIPE,
                                   restore_signals=True)
            os.close(write)
            print(child.returncode)
            sys.stderr.write(child.stderr.decode())
            """
        let result = try Spawn.run(["python3", "-c", script, TmuxSession.binary], environment: cli.environment)
        #expect(result.stdout == "141\n", "the status reports the closed pipe after the work: \(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "b\n", "the hook ran")
        #expect(try cli.run(["current", "--field", "id"]).stdout == "b\n")
    }

    // MARK: - config edit

    static let editConfig = """
        {"accounts": [
          {"id": "a", "name": "A"},
          {"id": "b", "name": "B"}
        ]}

        """

    /// An editor script: its Nth run applies the Nth sed expression to the file.
    static func scriptedEditor(in home: URL, runs: [String]) throws -> String {
        let path = home.appendingPathComponent("editor.sh").path
        var script = "#!/bin/sh\nn=$(cat \"$0.count\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$0.count\"\ncase $n in\n"
        for (index, expression) in runs.enumerated() {
            script += "\(index + 1)) sed -i '\(expression)' \"$1\" ;;\n"
        }
        script += "esac\n"
        writeExecutable(script, to: path)
        return path
    }

    static let duplicate = #"s/"id": "b"/"id": "a"/"#
    static let fixed = #"s/"id": "a", "name": "B"/"id": "c", "name": "B"/"#

    /// The files beside the config other than the config and its .bak (edit copies left behind).
    static func leftovers(_ cli: PerchCommandLine) throws -> [String] {
        let folder = (cli.configPath as NSString).deletingLastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "accounts.json" && $0 != "accounts.json.bak" }
    }

    @Test("config edit without a terminal: valid installs with .bak, unchanged writes nothing, invalid is discarded with exit 2")
    func configEditWithoutTerminal() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(Self.editConfig)
        let backup = cli.configPath + ".bak"

        cli.extraEnvironment = ["EDITOR": "true"]
        let unchanged = try cli.run(["config", "edit"])
        #expect(unchanged.status == 0)
        #expect(unchanged.stdout.contains("no changes"), "\(unchanged.stdout)")
        #expect(!FileManager.default.fileExists(atPath: backup))

        cli.extraEnvironment = ["EDITOR": "sed -i '\(Self.duplicate)'"]
        let invalid = try cli.run(["config", "edit"])
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains(#"line 3, column 10: accounts[1].id: duplicate id "a""#), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("the edit is discarded"))
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == Self.editConfig, "the config is unchanged")
        #expect(!FileManager.default.fileExists(atPath: backup))

        cli.extraEnvironment = ["EDITOR": #"sed -i 's/"name": "A"}/"name": "A"/'"#]
        let syntax = try cli.run(["config", "edit"])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("line 3, column 3: "), "a syntax error has its line and column: \(syntax.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == Self.editConfig)

        chmod(cli.configPath, 0o640)
        cli.extraEnvironment = ["EDITOR": #"sed -i 's/"B"/"Bee"/'"#]
        let valid = try cli.run(["config", "edit"])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("valid, 2 accounts; the previous one is \(backup)"), "\(valid.stdout)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("Bee"))
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == Self.editConfig)
        var info = stat()
        #expect(stat(cli.configPath, &info) == 0 && info.st_mode & 0o777 == 0o640, "the config keeps its mode")

        cli.extraEnvironment = ["EDITOR": "exit 3;"]
        let failed = try cli.run(["config", "edit"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("exited with status 3; the config is unchanged"))
        let left = try Self.leftovers(cli)
        #expect(left.isEmpty, "no edit copy is left behind: \(left)")
    }

    @Test("config edit on a terminal asks (e)dit again, (d)iscard, (k)eep anyway?", arguments: ["e", "d", "k"])
    func configEditOnTerminal(answer: String) throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let cli = try PerchCommandLine(home: home)
        try cli.writeConfig(Self.editConfig)
        let editor = try Self.scriptedEditor(in: home, runs: [Self.duplicate, Self.fixed])
        let session = try TmuxSession(width: 120, arguments: ["config", "edit"], environment: ["EDITOR": editor], home: home)
        #expect(try session.waitFor("(e)dit again, (d)iscard, (k)eep anyway?"))
        let screen = try session.tmux(["capture-pane", "-p", "-J"]).components(separatedBy: "\n")
        #expect(screen.contains { $0.contains(#"line 3, column 10: accounts[1].id: duplicate id "a""#) }, "\(screen)")
        // Bug: the problem named the config, though its line and column are the edited copy's.
        #expect(screen.contains { $0.contains("/.accounts.json.edit-") && $0.contains("line 3, column 10") }, "\(screen)")
        // Bug: a typo (or an empty line) discarded the edit; it asks again.
        for typo in ["x", ""] {
            if !typo.isEmpty { try session.sendLiteral(typo) }
            try session.send("Enter")
        }
        #expect(try session.waitFor("answer e to edit again, d to discard the edit, or k to keep it anyway"))
        try session.sendLiteral(answer)
        try session.send("Enter")
        #expect(try session.waitFor("EXIT="))
        let after = try session.tmux(["capture-pane", "-p", "-J"])
        let config = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let backup = try? String(contentsOfFile: cli.configPath + ".bak", encoding: .utf8)
        switch answer {
        case "e":
            #expect(after.contains("valid, 2 accounts"), "\(after)")
            #expect(after.contains("EXIT=0"))
            #expect(config.contains(#""id": "c""#), "the second edit is installed")
            #expect(backup == Self.editConfig)
        case "d":
            #expect(after.contains("the edit is discarded"), "\(after)")
            #expect(after.contains("EXIT=2"))
            #expect(config == Self.editConfig)
            #expect(backup == nil)
        default:
            #expect(after.contains("kept as written, not valid"), "\(after)")
            #expect(after.contains("EXIT=2"))
            #expect(config.contains(#"{"id": "a", "name": "B"}"#), "the invalid edit is kept")
            #expect(backup == Self.editConfig)
        }
        #expect(try Self.leftovers(cli).isEmpty)
    }

    // Bug: Ctrl-C at the "(e)dit again…" prompt left a hidden copy each time, and the next
    // config edit did not offer it back.
    @Test("Ctrl-C at config edit's prompt keeps the edit, and the next config edit resumes it; nothing is left after")
    func configEditInterruptedIsResumed() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let cli = try PerchCommandLine(home: home)
        try cli.writeConfig(Self.editConfig)
        let editor = try Self.scriptedEditor(in: home, runs: [Self.duplicate, Self.fixed])
        let session = try TmuxSession(width: 120, arguments: ["config", "edit"], environment: ["EDITOR": editor], home: home)
        #expect(try session.waitFor("(e)dit again, (d)iscard, (k)eep anyway?"))
        let pid = try session.perchPID()
        // SIGINT goes to the pane's whole foreground group: Perch ends by it, as at any prompt.
        try session.send("C-c")
        #expect(TmuxSession.eventually(timeout: 5) { TmuxSession.hasEnded(pid) }, "Ctrl-C ends config edit")
        #expect(try Self.leftovers(cli).count == 1, "the interrupted edit is kept")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == Self.editConfig, "the config is untouched")
        let again = try TmuxSession(width: 120, arguments: ["config", "edit"], environment: ["EDITOR": editor], home: home)
        #expect(try again.waitFor("EXIT="))
        let shown = try again.tmux(["capture-pane", "-p", "-J"])
        #expect(shown.contains("Resuming the unfinished edit kept in"), "\(shown)")
        #expect(shown.contains("valid, 2 accounts") && shown.contains("EXIT=0"), "\(shown)")
        #expect(try Self.leftovers(cli).isEmpty, "nothing piles up")
    }

    // MARK: - Completions

    /// A scratch bin folder holding `perch` (the binary under test), for shells to find by name.
    static func binFolder(in home: URL) throws -> String {
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: bin.appendingPathComponent("perch"))
        try FileManager.default.createSymbolicLink(
            atPath: bin.appendingPathComponent("perch").path, withDestinationPath: TmuxSession.binary)
        return bin.path
    }

    static let completionConfig = """
        {"accounts": [
          {"id": "client", "name": "Client Work"},
          {"id": "home", "name": "Home"},
          {"id": "oss", "name": "Open Source"}
        ]}
        """

    /// An interactive `shell` in tmux with perch's completion loaded.
    final class ShellPane {
        let socket = "perch-shell-\(getpid())-\(UUID().uuidString.prefix(8))"

        init(_ command: String, home: URL, bin: String) throws {
            let env = [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path, "PATH": bin + ":/usr/bin:/bin", "PS1": "$ ", "PROMPT": "$ ",
                "TERM": "xterm-256color", "LC_ALL": "C.UTF-8",
            ]
            let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }.joined(separator: " ")
            try tmux(["new-session", "-d", "-x", "120", "-y", "30", "exec env -i \(assignments) \(command)"])
        }

        deinit {
            _ = try? tmux(["kill-server"])
            unlink(TmuxSession.socketPath(socket))
        }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            return try Spawn.run(["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: TmuxSession.tmuxEnvironment)
                .stdout
        }

        func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }
        func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }
        func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

        /// Waits until the screen satisfies `condition` or 5 s pass.
        @discardableResult
        func wait(_ condition: (String) -> Bool) throws -> Bool {
            try TmuxSession.eventually(timeout: 5) { condition(try screen()) }
        }

        /// Clears the line being edited and the screen, for the next attempt.
        func reset() throws {
            try press("C-u")
            try press("C-l")
            try wait { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "$" }
        }
    }

    /// Types `line`, presses Tab, and returns the screen once it shows `expecting`.
    static func complete(_ pane: ShellPane, _ line: String, expecting: String) throws -> String {
        try pane.reset()
        try pane.type(line)
        try pane.press("Tab")
        try pane.wait { $0.contains(expecting) }
        return try pane.screen()
    }

    @Test("bash and zsh complete commands, options and the config's account ids and names, typed with Tab", arguments: ["bash", "zsh"])
    func completionInShell(shell: String) throws {
        try #require(Self.installed(shell), "\(shell) is not installed (make test-deps installs it)")
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(Self.completionConfig, home: home)
        let bin = try Self.binFolder(in: home)
        let pane: ShellPane
        if shell == "bash" {
            pane = try ShellPane("bash --norc --noprofile -i", home: home, bin: bin)
            try pane.wait { $0.contains("$") }
            try pane.type("source <(perch completion bash)")
        } else {
            pane = try ShellPane("zsh -f -i", home: home, bin: bin)
            try pane.wait { $0.contains("$") || $0.contains("%") || $0.contains("#") }
            try pane.type("PROMPT='$ '; autoload -U compinit && compinit -u && source <(perch completion zsh)")
        }
        try pane.press("Enter")
        // capture-pane drops trailing spaces: the completed word's space is not seen.
        var screen = try Self.complete(pane, "perch swi", expecting: "perch switch")
        #expect(screen.contains("$ perch switch\n"), "a command: \(screen)")
        screen = try Self.complete(pane, "perch switch cl", expecting: "perch switch client")
        #expect(screen.contains("perch switch client"), "an account id from the config: \(screen)")
        screen = try Self.complete(pane, "perch switch Op", expecting: "Open")
        #expect(screen.contains(#"perch switch Open\ Source"#), "an account name, quoted: \(screen)")
        if shell == "bash" {
            // Bug: a name begun with a quote was completed as "Open\ Source", which is not the name.
            screen = try Self.complete(pane, #"perch switch "Op"#, expecting: "Source")
            #expect(screen.contains(#"perch switch "Open Source""#), "inside the quote the user opened: \(screen)")
        }
        screen = try Self.complete(pane, "perch list --for", expecting: "--format")
        #expect(screen.contains("$ perch list --format\n"), "an option of the command: \(screen)")
        screen = try Self.complete(pane, "perch list --format t", expecting: "tsv")
        #expect(screen.contains("perch list --format tsv"), "an option's values: \(screen)")
        screen = try Self.complete(pane, "perch config ch", expecting: "config check")
        #expect(screen.contains("perch config check"), "a config subcommand: \(screen)")
        // The accounts are read when completing: a new one shows without reloading the script.
        try TmuxSession.writeConfig(Self.completionConfig.replacingOccurrences(of: "\"home\"", with: "\"homebase\""), home: home)
        screen = try Self.complete(pane, "perch switch homeb", expecting: "homebase")
        #expect(screen.contains("perch switch homebase"), "\(screen)")
    }

    @Test("fish completes commands, options and accounts through complete -C")
    func completionInFish() throws {
        try #require(Self.installed("fish"), "fish is not installed (make test-deps installs it)")
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(Self.completionConfig)
        var environment = cli.environment
        environment["PATH"] = try Self.binFolder(in: cli.home) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        func complete(_ line: String) throws -> [String] {
            let script = "perch completion fish | source; complete -C\(TmuxSession.quote(line))"
            let result = try Spawn.run(["fish", "--no-config", "-c", script], environment: environment)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("perch sw") == ["switch"])
        #expect(try Set(complete("perch switch ")) == ["client", "Client Work", "home", "Home", "oss", "Open Source"])
        #expect(try complete("perch config e") == ["edit"])
        #expect(try Set(complete("perch list --format ")) == ["ids", "tsv", "json"])
        #expect(try complete("perch current --fi") == ["--field"])
        #expect(try complete("perch completion z") == ["zsh"])
    }

    @Test("Every command and option of the table is in each completion script")
    func completionCoversTheTable() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let help = try cli.run(["--help"]).stdout
        // A summary on a line of its own (under a wide usage) is not a command.
        let commands = help.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").filter { !$0.hasPrefix("   ") }.map {
                $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
            }
        #expect(commands.count >= 11, "\(commands)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.run(["completion", shell]).stdout
            for command in commands {
                let last = String(command.split(separator: " ").prefix { !$0.hasPrefix("[") && $0.lowercased() == $0 }.last ?? "")
                #expect(script.contains(last), "\(shell) lacks \(command)")
            }
            for option in ["--config", "--state", "--long-press-ms", "--json", "--field", "--limit", "--format", "--height"] {
                let spelled = shell == "fish" ? "-l " + option.dropFirst(2) : option
                #expect(script.contains(spelled), "\(shell) lacks \(option)")
            }
        }
    }

    // MARK: - Man page and install

    @Test("man -l renders perch.1 without a warning, and it lists every command")
    func manPage() throws {
        try #require(Self.installed("man"), "man is not installed (make test-deps installs man-db)")
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let page = cli.home.appendingPathComponent("perch.1").path
        try cli.run(["man-page"]).stdout.write(toFile: page, atomically: true, encoding: .utf8)
        var environment = cli.environment
        environment["MANWIDTH"] = "80"
        let rendered = try Spawn.run(["man", "--warnings=all", "-l", page], environment: environment)
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "warnings: \(rendered.stderr)")
        let text = rendered.stdout
        for heading in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "KEYS", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
            #expect(text.contains("\n" + heading + "\n"), "no \(heading) section")
        }
        for command in ["perch list", "perch switch", "perch pick", "perch completion", "perch config edit", "perch man-page"] {
            #expect(text.contains(command), "no \(command)")
        }
        #expect(text.contains("--height N"))
    }

    @Test("make install PREFIX puts the binary, perch.1 and the completions where each looks; make uninstall removes exactly those")
    func installAndUninstall() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let prefix = cli.home.appendingPathComponent("prefix").path
        let other = prefix + "/share/man/man1/other.1"
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
        try "keep me".write(toFile: other, atomically: true, encoding: .utf8)
        let make = ["make", "-s", "-C", Self.repository.path, "PREFIX=\(prefix)", "BIN=\(TmuxSession.binary)"]
        let installed = try Spawn.run(make + ["install"])
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let files = [
            "bin/perch", "share/man/man1/perch.1", "share/bash-completion/completions/perch", "share/zsh/site-functions/_perch",
            "share/fish/vendor_completions.d/perch.fish",
        ]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) was not installed")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/perch"))
        if Self.installed("readelf") {  // stripped: no symbol table, no debug sections
            let sections = try DebianPackageTests.symbolSections(prefix + "/bin/perch")
            #expect(sections.isEmpty, "\(sections)")
        }
        let version = try Spawn.run([prefix + "/bin/perch", "--version"])
        #expect(version.stdout.hasPrefix("perch "))
        let script = try String(contentsOfFile: prefix + "/share/bash-completion/completions/perch", encoding: .utf8)
        #expect(script == (try cli.run(["completion", "bash"]).stdout))
        let removed = try Spawn.run(make + ["uninstall"])
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) was left")
        }
        #expect(FileManager.default.fileExists(atPath: other), "uninstall removes only what install wrote")
    }
}
