import Glibc
import PerchCore
import PerchStore
import PerchTerminal

/// Exit statuses of `perch` (also listed in `--help` and the README).
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// A request that cannot be met: an unknown or ambiguous account, no current account, a
    /// config that already exists, a state file that cannot be read or written.
    public static let unmet: Int32 = 1
    /// Bad usage, a bad config, or no usable terminal.
    public static let usage: Int32 = 2
    /// A switch was saved but its `onSwitch` hook failed or timed out.
    public static let hookFailed: Int32 = 3
}

/// The `perch` program: parses the command line, loads config and state, and runs the
/// interface or a command.
public enum PerchApp {
    /// The version `--version` prints.
    public static let version = "0.2.0"

    /// Runs `perch` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let console = Console()
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(parsing: arguments)
        } catch {
            console.error("\(error)")
            console.note(error.usage)
            return ExitStatus.usage
        }
        switch options.request {
        case .help:
            console.print(options.helpText)
            return ExitStatus.ok
        case .version:
            console.print("perch \(version)")
            return ExitStatus.ok
        case .run where options.command == .interface:
            return runInterface(options)
        case .run:
            return CommandLineTool(options: options, console: console).run()
        }
    }

    private static func runInterface(_ options: CommandLineOptions) -> Int32 {
        let paths = PerchPaths(config: options.configPath, state: options.statePath)
        let config: LoadedConfig
        do {
            config = try ConfigLoader.load(paths)
        } catch {
            for line in error.lines { printError("perch: " + line) }
            return ExitStatus.usage
        }
        if let refusal = terminalRefusal() {
            printError("perch: \(refusal)")
            return ExitStatus.usage
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        let noColor = PerchPaths.environment("NO_COLOR").map { !$0.isEmpty } ?? false
        let backend: NcursesBackend
        do {
            backend = try NcursesBackend(colors: !noColor)
        } catch {
            printError("perch: \(error)")
            return ExitStatus.usage
        }
        let store = StateStore(path: paths.state)
        var banner: String?
        var saved = SavedState()
        do {
            let loaded = try store.load(accountIDs: Set(config.accounts.map(\.id)))
            saved = loaded.state
            banner = loaded.warning
        } catch {
            banner = "Could not read the state file: \(error)"
        }
        let info = RunInfo(
            longPressMilliseconds: options.longPressMilliseconds, configDescription: config.description, statePath: paths.state)
        var state = AppState(
            accounts: config.accounts, saved: saved, size: backend.size, info: info, reduceMotion: options.reduceMotion)
        state.banner = banner
        let gestures = GestureRecognizer.Configuration(longPressMilliseconds: options.longPressMilliseconds)
        // Measuring start-up needs no watch on the state folder.
        let watcher = options.exitAfterFirstFrame ? nil : StateWatcher(watching: paths.state)
        let loop = EventLoop(state: state, backend: backend, store: store, gestures: gestures, watcher: watcher)
        return loop.run(exitAfterFirstFrame: options.exitAfterFirstFrame)
    }

    /// Why the interface cannot start on these standard streams, or nil when both are terminals.
    /// Checked after the config (whose errors say more) and before any signal or terminal is touched.
    static func terminalRefusal() -> String? {
        let streams = [(STDIN_FILENO, "standard input"), (STDOUT_FILENO, "standard output")]
        guard let (_, name) = streams.first(where: { isatty($0.0) != 1 }) else { return nil }
        return "\(name) is not a terminal; the interface needs a terminal on standard input and output"
    }

    /// Writes `message` as one line to stderr, with control characters (newlines included) shown
    /// as visible escapes (`^[`, `^J`, `\u{9B}`), so text from a config can never drive the
    /// terminal or pose as another line.
    static func printError(_ message: String) {
        let text = visibleControls(message) + "\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `text` with C0 controls in caret notation and C1 controls as `\u{XX}`.
    static func visibleControls(_ text: String) -> String {
        // C1 controls are encoded as 0xC2 0x80–0x9F in UTF-8; without these bytes there is nothing to do.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            case 0x80..<0xA0: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
