import Glibc
import PerchDomain
import PerchInterface
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
}
