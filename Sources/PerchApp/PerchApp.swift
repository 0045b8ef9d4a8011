import Glibc
import PerchCore
import PerchStore
import PerchTerminal

/// The `perch` program: parses the command line, loads config and state, and runs the interface.
public enum PerchApp {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Exit statuses (also listed in `--help` and the README).
    public enum ExitStatus {
        public static let ok: Int32 = 0
        public static let usage: Int32 = 2
    }

    /// Runs `perch` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(parsing: arguments)
        } catch {
            printError("perch: \(error)")
            printError(CommandLineOptions.usage)
            return ExitStatus.usage
        }
        switch options.request {
        case .help:
            print(CommandLineOptions.help)
            return ExitStatus.ok
        case .version:
            print("perch \(version)")
            return ExitStatus.ok
        case .runInterface:
            return runInterface(options)
        }
    }

    private static func runInterface(_ options: CommandLineOptions) -> Int32 {
        let paths = PerchPaths(config: options.configPath, state: options.statePath)
        let config: LoadedConfig
        do {
            config = try ConfigLoader.load(paths)
        } catch {
            printError("perch: \(error)")
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
            let loaded = try store.load()
            saved = loaded.state
            banner = loaded.warning
        } catch {
            banner = "Could not read the state file: \(error)"
        }
        let info = RunInfo(
            longPressMilliseconds: options.longPressMilliseconds, configDescription: config.description, statePath: paths.state)
        var state = AppState(accounts: config.accounts, saved: saved, size: backend.size, info: info)
        state.banner = banner
        let gestures = GestureRecognizer.Configuration(longPressMilliseconds: options.longPressMilliseconds)
        let loop = EventLoop(state: state, backend: backend, store: store, gestures: gestures)
        return loop.run()
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
