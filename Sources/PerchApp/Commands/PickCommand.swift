import Glibc
import PerchDomain
import PerchInterface
import PerchStore

/// `perch pick`: an account picked in the inline picker, its id printed, nothing switched.
struct PickCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "pick", summary: "pick an account in the inline picker and print its id")
    static let details: String =
        "Draws the account sheet below the prompt, as perch switch with no account does,\n"
        + "and prints the chosen account's id without switching, for\n"
        + "  kubectl --context \"$(perch pick)\" …\n"
        + "Exit status 1 when nothing was picked; 2 when standard input or output is not\n"
        + "a terminal (the picker is drawn on standard error's terminal when stdout is not)."
    var files = FileOptions()
    /// `--height N`, in rows; nil: fitted.
    @Option(SharedOption.height) var height: Int? = nil
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
