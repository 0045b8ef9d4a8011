/// The registry of `perch`'s commands, in the order help, the man page and the completions list
/// them; the interface first. A new command is its type's file and one line here.
enum Commands {
    static let all: [any PerchCommand.Type] = [
        InterfaceCommand.self,
        ListCommand.self,
        CurrentCommand.self,
        SwitchCommand.self,
        HistoryCommand.self,
        ReportCommand.self,
        InitCommand.self,
        ConfigPathCommand.self,
        ConfigCheckCommand.self,
        ConfigEditCommand.self,
        PickCommand.self,
        CompletionCommand.self,
        ManPageCommand.self,
        DoctorCommand.self,
        ToolsCommand.self,
        AddCommand.self,
        SetCommand.self,
        UnsetCommand.self,
        RenameCommand.self,
        RemoveCommand.self,
        StatusCommand.self,
        VerifyCommand.self,
        MCPCommand.self,
        RenewCommand.self,
        GuardCommand.self,
        EnvCommand.self,
        ShellInitCommand.self,
        SetupCommand.self,
        ImportCommand.self,
        BindCommand.self,
        UnbindCommand.self,
        RegistryAddCommand.self,
        RegistryUpdateCommand.self,
        RegistryListCommand.self,
        RegistryRemoveCommand.self,
        RegistryTrustCommand.self,
        UndoCommand.self,
        ResetCommand.self,
        AuditCommand.self,
        ExecCommand.self,
        UseCommand.self,
        ShellHookCommand.self,
    ]

    /// Every option of every command once, by spelling: `-h, --help` and `--version` first,
    /// then in the order the commands (``Commands/all``) declare them.
    static var allOptions: [OptionInfo] {
        var options = [SharedOption.help, SharedOption.version]
        for command in Commands.all {
            for option in command.optionInfos where !options.contains(where: { $0.names == option.names }) { options.append(option) }
        }
        return options
    }
}

/// Commands named by two words that share the first (`config path`, `config check`): the first
/// word alone is the group, with a help of its own.
struct CommandGroup: Sendable {
    /// The first word (`config`).
    var name: String
    /// One line of summary.
    var summary: String

    static let all = [
        CommandGroup(name: "config", summary: "the config file"),
        CommandGroup(name: "registry", summary: "accounts shared from git repositories (docs/registries.md)"),
    ]

    /// Its members, in registry order.
    var members: [any PerchCommand.Type] { Commands.all.filter { $0.name.hasPrefix(name + " ") } }

    /// Its members' second words (`path`, `check`, `edit`).
    var memberNames: [String] { members.map { String($0.name.dropFirst(name.count + 1)) } }

    /// `path, check or edit`.
    var memberWords: String {
        let names = memberNames
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
