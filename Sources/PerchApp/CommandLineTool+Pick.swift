import Glibc
import PerchCore
import PerchStore

extension CommandLineTool {
    /// `perch switch` with no account: the inline picker, then the switch.
    func pickAndSwitch() -> Int32 {
        console.error("'perch switch' needs an account id or name")
        return ExitStatus.usage
    }

    /// `perch pick`: the inline picker; prints the chosen id.
    func pick() -> Int32 {
        console.error("not yet")
        return ExitStatus.usage
    }
}
