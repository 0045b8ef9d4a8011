import CSystem
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKitTerminal
import PerchStore

/// Exit statuses of `perch` (also listed in `--help` and `docs/command-line.md`).
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// A request that cannot be met: an unknown or ambiguous account, no current account, a
    /// config that already exists, a state file that cannot be read or written.
    public static let unmet: Int32 = 1
    /// Bad usage, a bad config, or no usable terminal.
    public static let usage: Int32 = 2
    /// A switch was saved but its `onSwitch` hook failed or timed out (the same status as
    /// ``toolFailed``).
    public static let hookFailed: Int32 = 3
    /// A tool could not be given the account's identity: the switch was not saved (every tool
    /// it had changed put back, the account unchanged), or saved partly with `--keep-going`.
    public static let toolFailed: Int32 = 3
    /// A tool's own answer (or a server's) disagrees with the account (`perch verify`), or the
    /// guard refused a commit or push.
    public static let disagrees: Int32 = 3
    /// The output pipe was closed before everything was printed (the work itself was done):
    /// 128 + SIGPIPE, what a shell shows for a program that a closed pipe ended.
    public static let outputClosed: Int32 = 128 + SIGPIPE
}

/// The `perch` program: parses the command line, loads config and state, and runs the
/// interface or a command.
public enum PerchApp {
    /// The version `--version` prints.
    public static let version = "0.2.0"

    /// Runs `perch` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        // Before any user lookup: the static release binary reads the user database from files
        // only (CSystem.h says why).
        _ = perch_static_user_lookup_files_only()
        // Before any config is read: the tools the config may name.
        ToolAdapters.install()
        let console = Console()
        let parsed: ParsedCommandLine
        do {
            parsed = try CommandLineParser.parse(arguments)
        } catch {
            console.error("\(error)")
            console.note(error.usage)
            return ExitStatus.usage
        }
        let command = parsed.command
        // The registries' trusted tool descriptions are beside the state file the command names.
        if parsed.request == .run {
            ToolAdapters.install(statePath: PerchPaths(config: command.files.config, state: command.files.state).state)
        }
        // Root in another user's home (`sudo -E perch …`) would leave root-owned files there
        // and lock that user out (opentap #637): refused before anything is created.
        if parsed.request == .run, type(of: command).configuration.touchesFiles {
            let paths = PerchPaths(config: command.files.config, state: command.files.state)
            if let refusal = Ownership.refusal(paths: paths, home: PerchPaths.environment("HOME"))
                ?? Ownership.sharedFolderRefusal(paths: paths)
            {
                console.error(refusal)
                return ExitStatus.usage
            }
        }
        switch parsed.request {
        case .help:
            console.print(parsed.helpText)
            return ExitStatus.ok
        case .version:
            console.print("perch \(version)")
            return ExitStatus.ok
        case .run where type(of: command).name.isEmpty:
            // The interface finds its own paths: nothing a command needs is made first.
            return (command as? InterfaceCommand).map(runInterface) ?? ExitStatus.usage
        case .run:
            // A closed pipe must end only the printing, not a switch before its hook has run:
            // writes fail with EPIPE instead, and the status says so once the work is done.
            ProcessSpawn.inheritedPipeAction = (true, signal(SIGPIPE, SIG_IGN))
            let status = CommandLineTool(files: command.files, console: console).run(command)
            if let code = console.outputFailure {
                console.error("cannot write the output: \(String(cString: strerror(code)))")
                return status == ExitStatus.ok ? ExitStatus.unmet : status
            }
            if console.outputClosed, status == ExitStatus.ok { return ExitStatus.outputClosed }
            return status
        }
    }

    /// The identities of a run with `paths`: the process's environment, Perch's own files for
    /// this config (beside its state file when it is not the default one, so a throwaway config
    /// never changes the real identity), and samples never touch a tool.
    /// - Parameter scoped: whether the tools are asked in this process's own scope (`perch
    ///   status` in a pinned shell); by default in the environment as it was before any scope
    ///   (``IdentityScope/unscoped(_:)``), since a switch changes the global identity.
    static func identitySwitcher(_ paths: PerchPaths, config: LoadedConfig?, scoped: Bool = false) -> IdentitySwitcher {
        let defaults = PerchPaths()
        let besideState = paths.config != defaults.config || paths.state != defaults.state
        var environment = IdentityEnvironment.current(statePath: paths.state, ownFilesBesideState: besideState)
        if !scoped { environment.variables = IdentityScope.unscoped(environment.variables) }
        return IdentitySwitcher(environment: environment, timeout: toolTimeout, samplesOnly: config.map(\.isSamples) ?? false)
    }

    /// How long one tool's program may run, in milliseconds: `$PERCH_TOOL_TIMEOUT_MS` (100 to
    /// 600000), else 10000.
    static var toolTimeout: Int64 {
        guard let text = PerchPaths.environment("PERCH_TOOL_TIMEOUT_MS"), let value = Int64(text), (100...600_000).contains(value) else {
            return ProgramRunner.defaultTimeoutMilliseconds
        }
        return value
    }

    /// Writes `message` as one line to stderr, with control characters (newlines included) shown
    /// as visible escapes (`^[`, `^J`, `\u{9B}`), so text from a config can never drive the
    /// terminal or pose as another line.
    static func printError(_ message: String) {
        let text = visibleControls(message) + "\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `text` with C0 controls in caret notation, and C1 controls and bidirectional formatting
    /// characters (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069, which can make a line
    /// read differently from what it is) as `\u{XX}`.
    static func visibleControls(_ text: String) -> String {
        // Without these lead bytes (C0, DEL, C1 as 0xC2 0x80–0x9F, and the 0xD8/0xE2 of the bidi
        // characters) there is nothing to do: the common case costs one scan.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            case _ where isInvisibleControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is a C1 control or a bidirectional formatting character.
    static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// JSON text with C1 controls and bidirectional formatting characters written as `\uXXXX`
    /// escapes (RFC 8259 §7), which Foundation's encoder leaves as they are; the value is the same.
    static func escapingInvisibleControls(inJSON json: String) -> String {
        guard json.unicodeScalars.contains(where: isInvisibleControl) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isInvisibleControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
