import PerchCore

/// The account commands: `perch add`, `set`, `unset`, `rename` and `remove`, which change the
/// config through its text-keeping writer (``PerchStore/ConfigWriter``).
extension Command {
    var accountCommandName: String {
        switch self {
        case .addAccount: "add"
        case .setField: "set"
        case .unsetField: "unset"
        case .renameAccount: "rename"
        case .removeAccount: "remove"
        default: ""
        }
    }

    /// How many operands it takes, or nil for a command that is not an account command.
    var accountOperandCount: Int? {
        switch self {
        case .addAccount, .removeAccount: 1
        case .unsetField, .renameAccount: 2
        case .setField: 3
        default: nil
        }
    }

    var accountCommandOptions: [Option] {
        switch self {
        case .addAccount: [.newName, .newHandle, .newGroup]
        case .removeAccount: [.yes]
        default: []
        }
    }

    var accountOperandText: String {
        switch self {
        case .addAccount: " ID"
        case .setField: " ID PATH VALUE"
        case .unsetField: " ID PATH"
        case .renameAccount: " OLD NEW"
        case .removeAccount: " ID"
        default: ""
        }
    }

    var accountCommandSummary: String {
        switch self {
        case .addAccount: "add an account to the config (--name required)"
        case .setField: "set a field of an account: name, git.email, kube.context, env.TEAM, …"
        case .unsetField: "remove a field of an account"
        case .renameAccount: "give an account a new id; its state, history and panes follow"
        case .removeAccount: "remove an account from the config (asks first; --yes does not)"
        default: ""
        }
    }

    var accountCommandDetails: String {
        let writer =
            "The config is changed as text: its comments, key order and trailing commas stay,\n"
            + "the previous file is kept as <config>.bak, and a change that would leave a config\n"
            + "that does not load (or a key it would ignore) is refused with the reason (exit 2).\n"
            + "With no config yet, one is written holding the sample accounts and the change."
        switch self {
        case .addAccount:
            return "ID is a–z, 0–9, '.', '_' and '-', not beginning with '-', and not used yet.\n"
                + "  perch add client --name 'Client Work' --handle @ada --group Jobs\n" + writer
        case .setField:
            return "PATH is a key of the account, dotted for a tool's key: name, handle, group,\n"
                + "color, onSwitch, git.name, git.email, git.signingKey, ssh.host, ssh.identityFile,\n"
                + "kube.context, kube.namespace, gcloud.configuration, aws.profile, gh.user, gh.host,\n"
                + "env.NAME, catalog.command. VALUE is written as a string, or as it is when it is a\n"
                + "JSON list or object ('[\"github.com\", \"gitlab.com\"]'). It is checked as\n"
                + "perch config check checks it. The id is changed with perch rename.\n" + writer
        case .unsetField:
            return "Removes the key at PATH (as for perch set); a tool's object left empty goes too.\n"
                + "The id and name cannot be removed.\n" + writer
        case .renameAccount:
            return "NEW follows the rules of an id. The current and previous account, the switch\n"
                + "history, the switch counts, the pane state and Perch's identity files follow the\n"
                + "new id, so perch current, perch - and perch history go on as before.\n" + writer
        case .removeAccount:
            return "Asks first on a terminal; --yes removes without asking (needed without a\n"
                + "terminal). The history keeps the account's entries (perch history lists them);\n"
                + "its switch count and pane state go, and when it was current no account is.\n" + writer
        default:
            return ""
        }
    }
}
