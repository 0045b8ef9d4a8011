import Glibc
import PerchDomain
import PerchInterface
import PerchStore

/// What starts the inline picker for `perch pick` and `perch switch` with no account.
extension CommandLineTool {
    /// Loads the config and state and runs the picker on `output`: the account picked, or the
    /// exit status after saying why there is none (1 cancelled, 2 no terminal or a bad config).
    /// `picking`: for `perch pick` (nothing is switched), not `perch switch`; `height` in rows.
    func runPicker(drawingOn output: Int32, picking: Bool, height: Int?) -> PickerResult {
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
