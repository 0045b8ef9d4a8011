@testable import PerchApp

/// The fields the command-line tables check, read from whichever command was parsed (each
/// command keeps its own options): the default when the command has no such field.
extension ParsedCommandLine {
    var interface: InterfaceCommand? { command as? InterfaceCommand }
    var config: String? { command.files.config }
    var state: String? { command.files.state }
    var longPress: Int64 { interface?.longPressMilliseconds ?? SharedOption.defaultLongPress }

    var account: String? {
        (command as? SwitchCommand)?.account ?? (command as? EnvCommand)?.account ?? (command as? ExecCommand)?.account
            ?? (command as? UseCommand)?.account ?? (command as? VerifyCommand)?.account
    }

    var json: Bool {
        (command as? ListCommand)?.json ?? (command as? CurrentCommand)?.json ?? (command as? HistoryCommand)?.json
            ?? (command as? ReportCommand)?.json ?? (command as? StatusCommand)?.json ?? (command as? VerifyCommand)?.json
            ?? (command as? AuditCommand)?.json ?? false
    }

    var field: String? { (command as? CurrentCommand)?.field }
    var limit: Int? { (command as? HistoryCommand)?.limit }
}
