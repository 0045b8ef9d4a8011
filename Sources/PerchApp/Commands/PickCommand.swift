import Glibc
import PerchCore
import PerchStore

/// `perch pick`: an account picked in the inline picker, its id printed, nothing switched.
struct PickCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "pick", summary: "pick an account in the inline picker and print its id")
    static var details: String { CommandDetails.pick }
    static let options: [CommandOption<Self>] = fileOptions + [CommandOption(SharedOption.height) { $0.height = $1 }]
    var files = FileOptions()
    /// `--height N`, in rows; nil: fitted.
    var height: Int?
    func run(_ tool: CommandLineTool) -> Int32 { tool.pick(height: height) }
}

extension CommandLineTool {
    /// `perch switch` with no account: the inline picker, then the switch as `perch switch ID`.
    func pickAndSwitch(height: Int?) -> Int32 {
        switch runPicker(drawingOn: STDOUT_FILENO, picking: false, height: height) {
        case .picked(let account, let config): return perform(account, config: config)
        case .ended(let status): return status
        }
    }

    /// `perch pick`: the inline picker; prints the chosen id without switching. The picker is
    /// drawn on standard output when it is a terminal, else on standard error (`$(perch pick)`).
    func pick(height: Int?) -> Int32 {
        let output = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO
        switch runPicker(drawingOn: output, picking: true, height: height) {
        case .picked(let account, _):
            console.print(account.id)
            return ExitStatus.ok
        case .ended(let status): return status
        }
    }

    /// Loads the config and state and runs the picker on `output`: the account picked, or the
    /// exit status after saying why there is none (1 cancelled, 2 no terminal or a bad config).
    /// `picking`: for `perch pick` (nothing is switched), not `perch switch`; `height` in rows.
    private func runPicker(drawingOn output: Int32, picking: Bool, height: Int?) -> PickerResult {
        guard let config = loadConfig() else { return .ended(ExitStatus.usage) }
        let command = picking ? "perch pick" : "perch switch"
        let streams = [(STDIN_FILENO, "standard input"), (output, output == STDERR_FILENO ? "standard error" : "standard output")]
        if let (_, name) = streams.first(where: { isatty($0.0) != 1 }) {
            let hint = picking ? "" : "; give an account: perch switch ID-OR-NAME"
            console.error("\(name) is not a terminal; \(command) draws a picker on the terminal\(hint)")
            return .ended(ExitStatus.usage)
        }
        guard let state = loadState(config, repair: !picking) else { return .ended(ExitStatus.unmet) }
        let noColor = PerchPaths.environment("NO_COLOR").map { !$0.isEmpty } ?? false
        let picker = InlinePicker(
            accounts: config.accounts, saved: state, input: STDIN_FILENO, output: output, height: height, colors: !noColor,
            verb: picking ? "pick" : "switch")
        do {
            switch try picker.run() {
            case .picked(let account): return .picked(account, config)
            case .cancelled: return .ended(ExitStatus.unmet)
            case .signalled(let signal): return .ended(128 + signal)
            }
        } catch {
            console.error("\(error)")
            return .ended(ExitStatus.usage)
        }
    }
}

/// What ``CommandLineTool`` got from the inline picker.
enum PickerResult {
    case picked(Account, LoadedConfig)
    /// Nothing picked; the exit status.
    case ended(Int32)
}
