import Glibc
import PerchCore
import PerchStore

extension CommandLineTool {
    /// `perch switch` with no account: the inline picker, then the switch as `perch switch ID`.
    func pickAndSwitch() -> Int32 {
        switch runPicker(drawingOn: STDOUT_FILENO) {
        case .picked(let account, let config): return perform(account, config: config)
        case .ended(let status): return status
        }
    }

    /// `perch pick`: the inline picker; prints the chosen id without switching. The picker is
    /// drawn on standard output when it is a terminal, else on standard error (`$(perch pick)`).
    func pick() -> Int32 {
        let output = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO
        switch runPicker(drawingOn: output) {
        case .picked(let account, _):
            console.print(account.id)
            return ExitStatus.ok
        case .ended(let status): return status
        }
    }

    /// Loads the config and state and runs the picker on `output`: the account picked, or the
    /// exit status after saying why there is none (1 cancelled, 2 no terminal or a bad config).
    private func runPicker(drawingOn output: Int32) -> PickerResult {
        guard let config = loadConfig() else { return .ended(ExitStatus.usage) }
        let command = options.command == .pick ? "perch pick" : "perch switch"
        let streams = [(STDIN_FILENO, "standard input"), (output, output == STDERR_FILENO ? "standard error" : "standard output")]
        if let (_, name) = streams.first(where: { isatty($0.0) != 1 }) {
            let hint = options.command == .pick ? "" : "; give an account: perch switch ID-OR-NAME"
            console.error("\(name) is not a terminal; \(command) draws a picker on the terminal\(hint)")
            return .ended(ExitStatus.usage)
        }
        guard let state = loadState(config, repair: options.command != .pick) else { return .ended(ExitStatus.unmet) }
        let noColor = PerchPaths.environment("NO_COLOR").map { !$0.isEmpty } ?? false
        let picker = InlinePicker(
            accounts: config.accounts, saved: state, input: STDIN_FILENO, output: output, height: options.pickerHeight, colors: !noColor,
            verb: options.command == .pick ? "pick" : "switch")
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
