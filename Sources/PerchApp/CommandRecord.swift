import PerchCore
import PerchIdentities

/// How a shell completes a value: an operand's or an option's.
public enum CompletionKind: Hashable, Sendable {
    /// Free text: nothing is offered.
    case none
    /// A file name.
    case file
    /// An account id or name of the config in use, asked of `perch list --format tsv` at
    /// completion time (ids that begin with `-` are never offered).
    case account
    /// One of these words.
    case values([String])
    /// A dotted field path of an account (``Completion/fieldPaths``).
    case fieldPath
}

/// An operand of a command: its name in the usage line, whether it may be left out, what a
/// shell completes for it, and what a message says when it is missing or not one of the values.
struct Operand: Sendable {
    /// `ID`, `SHELL`, `ID-OR-NAME|-`.
    var name: String
    var optional = false
    var completion: CompletionKind = .none
    /// What `'perch CMD' needs …` says when it is missing (`a shell: bash, zsh or fish`); the
    /// operands' names when nil.
    var needs: String?
    /// What `'perch CMD' … , not 'x'` says when the value is not one of ``CompletionKind/values(_:)``
    /// (`knows bash, zsh and fish`).
    var knows: String?
    /// Whether the usage line, help and completions leave it out (what a program other than a
    /// person passes, such as the remote a git hook gives).
    var hidden = false
}

/// One command of `perch`: everything parsing, `--help`, the completions of bash, zsh and fish
/// and the man page know of it, and what runs it. ``Command/record`` holds them all, one record
/// per command, as swift-argument-parser keeps one configuration per command.
struct CommandRecord: Sendable {
    /// The words that name it (`config check`); empty for the interface.
    var name: String
    /// One line of summary.
    var summary: String
    /// What the help says beyond the summary, or nothing.
    var details: String = ""
    /// The options it takes, `--help` last.
    var options: [Option]
    /// Its operands, in order.
    var operands: [Operand] = []
    /// Whether it reads or writes Perch's or the tools' files (all but printing a script or the
    /// manual page): refused to root in another user's home.
    var touchesFiles = true
    /// Carries the command out; the exit status. Nil for the interface, which the program runs.
    var run: (@Sendable (CommandLineTool) -> Int32)?
}

extension Option {
    /// What a shell completes for its value; ``CompletionKind/none`` for a flag or free text.
    var completion: CompletionKind {
        switch self {
        case .config, .state: .file
        case .field: .values(CommandLineOptions.commonFields)
        case .format: .values(OutputFormat.allCases.map(\.rawValue))
        // As the command line spells them (`high-contrast`: no space to quote).
        case .theme: .values(ColorTheme.allCases.map { $0.rawValue.replacing(" ", with: "-") })
        case .keyHold: .values(KeyHoldPreference.allCases.map(\.rawValue))
        case .shell: .values(ShellKind.allCases.map(\.rawValue))
        default: .none
        }
    }
}

extension Command {
    private static let shells = ["bash", "zsh", "fish"]

    /// The record of this command.
    var record: CommandRecord { Self.records.first { $0.key == self }!.value }

    /// Every command's record. Pairs, not a dictionary: a `Dictionary<Command, …>` is made at
    /// run time from its mangled name, which makes the Swift runtime look up `Command: Hashable`
    /// among every conformance the binary holds (0.4 M instructions and scattered pages of type
    /// descriptors at every start, `perch current` in a prompt included).
    static let records: KeyValuePairs<Command, CommandRecord> = {
        let common = Option.common
        let shellOperand = Operand(
            name: "SHELL", completion: .values(shells), needs: "a shell: bash, zsh or fish", knows: "knows bash, zsh and fish")
        let account = Operand(name: "ID", completion: .account)
        return [
            .interface: CommandRecord(
                name: "", summary: "start the interface",
                options: common + [.longPress, .keyHold, .reduceMotion, .noMouse, .theme, .exitAfterFirstFrame, .version, .help]),
            .list: CommandRecord(
                name: "list", summary: "list the accounts, the current one marked with *", details: CommandDetails.list,
                options: common + [.json, .format, .help], run: { $0.list() }),
            .current: CommandRecord(
                name: "current", summary: "print the current account (for shell prompts)", details: CommandDetails.current,
                options: common + [.json, .field, .global, .help], run: { $0.current() }),
            .switchAccount: CommandRecord(
                name: "switch", summary: "switch to an account by id or name; - for the previous; none: pick",
                details: CommandDetails.switchAccount, options: common + [.height, .dryRun, .force, .keepGoing, .help],
                operands: [Operand(name: "ID-OR-NAME|-", optional: true, completion: .account)],
                run: { tool in tool.options.account.map(tool.switchAccount) ?? tool.pickAndSwitch() }),
            .history: CommandRecord(
                name: "history", summary: "print the recorded switches, newest first", details: CommandDetails.history,
                options: common + [.json, .limit, .help], run: { $0.history() }),
            .report: CommandRecord(
                name: "report", summary: "print the time spent in each account (for timesheets)", details: CommandDetails.report,
                options: common + [.since, .until, .json, .csv, .help], run: { $0.report() }),
            .initConfig: CommandRecord(
                name: "init", summary: "write a starter config (never over an existing one)", details: CommandDetails.initConfig,
                options: common + [.help], run: { $0.initConfig() }),
            .configPath: CommandRecord(
                name: "config path", summary: "print the path of the config file", options: common + [.help],
                run: { tool in
                    tool.console.print(tool.paths.config)
                    return ExitStatus.ok
                }),
            .configCheck: CommandRecord(
                name: "config check", summary: "validate the config and report every problem", options: common + [.help],
                run: { $0.configCheck() }),
            .configEdit: CommandRecord(
                name: "config edit", summary: "edit a copy of the config, install it only when valid", details: CommandDetails.configEdit,
                options: common + [.help], run: { $0.configEdit() }),
            .pick: CommandRecord(
                name: "pick", summary: "pick an account in the inline picker and print its id", details: CommandDetails.pick,
                options: common + [.height, .help], run: { $0.pick() }),
            .completion: CommandRecord(
                name: "completion", summary: "print the completion script for bash, zsh or fish", details: CommandDetails.completion,
                options: [.help], operands: [shellOperand], touchesFiles: false, run: { $0.completion() }),
            .manPage: CommandRecord(
                name: "man-page", summary: "print the manual page (roff), as installed as perch.1", details: CommandDetails.manPage,
                options: [.help], touchesFiles: false,
                run: { tool in
                    tool.console.write(ManPage.text)
                    return ExitStatus.ok
                }),
            .doctor: CommandRecord(
                name: "doctor", summary: "what this terminal gives Perch, and a key-repeat test", details: CommandDetails.doctor,
                options: common + [.longPress, .keyHold, .help],
                run: { tool in Doctor(options: tool.options, console: tool.console, paths: tool.paths).run() }),
            .addAccount: CommandRecord(
                name: "add", summary: "add an account to the config (--name required)", details: CommandDetails.addAccount,
                options: common + [.newName, .newHandle, .newGroup, .help], operands: [Operand(name: "ID")], run: { $0.addAccount() }),
            .setField: CommandRecord(
                name: "set", summary: "set a field of an account: name, git.email, kube.context, env.TEAM, …",
                details: CommandDetails.setField, options: common + [.help],
                operands: [account, Operand(name: "PATH", completion: .fieldPath), Operand(name: "VALUE")], run: { $0.setField() }),
            .unsetField: CommandRecord(
                name: "unset", summary: "remove a field of an account", details: CommandDetails.unsetField, options: common + [.help],
                operands: [account, Operand(name: "PATH", completion: .fieldPath)], run: { $0.unsetField() }),
            .renameAccount: CommandRecord(
                name: "rename", summary: "give an account a new id; its state, history and panes follow",
                details: CommandDetails.renameAccount, options: common + [.help],
                operands: [Operand(name: "OLD", completion: .account), Operand(name: "NEW")], run: { $0.renameAccount() }),
            .removeAccount: CommandRecord(
                name: "remove", summary: "remove an account from the config (asks first; --yes does not)",
                details: CommandDetails.removeAccount, options: common + [.yes, .help], operands: [account], run: { $0.removeAccount() }),
            .status: CommandRecord(
                name: "status", summary: "show each tool's identity against the current account (exit 1 on drift)",
                details: CommandDetails.status, options: common + [.json, .files, .global, .help], run: { $0.status() }),
            .verify: CommandRecord(
                name: "verify", summary: "ask each tool (--online: each server) who it will be here; exit 3 on a disagreement",
                details: CommandDetails.verify, options: common + [.online, .timeout, .json, .help],
                operands: [Operand(name: "ID", optional: true, completion: .account)], run: { $0.verify() }),
            .audit: CommandRecord(
                name: "audit", summary: "report secrets the accounts' tools keep in plain text or open to others; exit 3 on any",
                details: CommandDetails.audit, options: common + [.json, .help], run: { $0.audit() }),
            .guardHooks: CommandRecord(
                name: "guard", summary: "refuse a commit or push as the wrong account (install; --undo removes it)",
                details: CommandDetails.guardHooks, options: common + [.undo, .help],
                operands: [
                    // check-commit and check-push REMOTE URL are what the hooks run.
                    Operand(name: "install", optional: true, needs: "install (or --undo)"),
                    Operand(name: "REMOTE", optional: true, hidden: true), Operand(name: "URL", optional: true, hidden: true),
                ],
                run: { $0.guardCommand() }),
            .env: CommandRecord(
                name: "env", summary: "print the account's variables for this shell (eval \"$(perch env)\")", details: CommandDetails.env,
                options: common + [.shell, .help], operands: [Operand(name: "ACCOUNT", optional: true, completion: .account)],
                run: { $0.env() }),
            .shellInit: CommandRecord(
                name: "shell-init", summary: "print a shell function that keeps this shell's variables in step",
                details: CommandDetails.shellInit, options: common + [.help], operands: [shellOperand], run: { $0.shellInit() }),
            .setup: CommandRecord(
                name: "setup", summary: "include Perch's git or ssh file from your own config, once, with consent",
                details: CommandDetails.setup, options: common + [.undo, .yes, .help],
                // Optional: `perch setup --undo` with no tool is `perch reset` (checked in checkOperands).
                operands: [
                    Operand(
                        name: "TOOL", optional: true, completion: .values(["git", "ssh"]), needs: "a tool: git or ssh",
                        knows: "sets up git or ssh")
                ],
                run: { $0.setup() }),
            .undo: CommandRecord(
                name: "undo", summary: "bring back the account and every tool's state from before the last switch",
                details: CommandDetails.undo, options: common + [.help], run: { $0.undo() }),
            .reset: CommandRecord(
                name: "reset", summary: "give every tool back what it had before Perch, and remove what setup added",
                details: CommandDetails.reset, options: common + [.yes, .help],
                run: { $0.reset() }),
            .exec: CommandRecord(
                name: "exec", summary: "run a command as an account; nothing global changes",
                details: CommandDetails.exec, options: common + [.keepGoing, .help],
                operands: [Operand(name: "ID", completion: .account)], run: { $0.execAccount() }),
            .use: CommandRecord(
                name: "use", summary: "make this shell an account's (--global: follow the global one again)",
                details: CommandDetails.use, options: common + [.global, .shell, .keepGoing, .help],
                operands: [Operand(name: "ID", optional: true, completion: .account)], run: { $0.useAccount() }),
            .shellHook: CommandRecord(
                name: "shell-hook", summary: "what shell-init's prompt hook runs when the state or config changed",
                details: CommandDetails.shellHook, options: common + [.help],
                operands: [shellOperand, Operand(name: "PID", optional: true)], run: { $0.shellHook() }),
            .importAccounts: CommandRecord(
                name: "import", summary: "propose accounts from git, ssh, kube, gcloud, gh and AWS, one per person",
                details: CommandDetails.importAccounts, options: common + [.write, .help], run: { $0.importAccounts() }),
        ]
    }()

    /// The words that name it (`config check`); empty for the interface.
    public var name: String { record.name }

    /// The options it takes.
    var options: [Option] { record.options }

    /// One line of summary.
    var summary: String { record.summary }

    /// What the help says beyond the summary, or nothing.
    var details: String { record.details }

    /// Whether it touches files (``CommandRecord/touchesFiles``).
    var touchesFiles: Bool { record.touchesFiles }

    /// Its operands in the usage line: ` ID PATH VALUE`, ` [ACCOUNT]`.
    var operandText: String {
        record.operands.filter { !$0.hidden }.map { " " + ($0.optional ? "[\($0.name)]" : $0.name) }.joined()
            + (self == .exec ? " -- COMMAND [ARGS…]" : "")
    }
}
