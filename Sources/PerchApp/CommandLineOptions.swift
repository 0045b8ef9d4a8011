import PerchCore
import PerchStore

/// The command line of `perch`: with no command it starts the interface; with one of the
/// commands in ``Command`` it does that and exits. Options may come before or after the
/// command and take their value as the next argument or after `=`; `--` ends the options.
///
/// One table (``Command/all``) both drives parsing (which options a command takes, how many
/// operands) and writes the help, so the two cannot disagree.
public struct CommandLineOptions: Hashable, Sendable {
    /// What the command line asks for.
    public enum Request: Hashable, Sendable {
        /// Carry out the command.
        case run
        /// Print the help of the command (the program's when it is ``Command/interface``).
        case help
        /// Print the version.
        case version
    }

    /// Fields `perch current --field` is often asked for, offered by completion; any key of an
    /// account is accepted, dotted for a tool's (``PerchStore/ConfigLoader/accountKeys``).
    public static let commonFields = [
        "id", "name", "handle", "group", "color", "git.name", "git.email", "kube.context", "kube.namespace", "gcloud.configuration",
        "aws.profile", "gh.user", "gh.host", "ssh.identityFile", "kube.expires", "aws.expires", "switching",
    ]

    /// What to do: run the command (the default), or print help or the version.
    public var request: Request = .run
    /// The command; ``Command/interface`` when none was given.
    public var command: Command = .interface
    /// The account given to `perch switch` (and optionally to `perch env`).
    public var account: String?
    /// The operand of `perch shell-init SHELL` and `perch setup TOOL`.
    public var operand: String?
    /// Tool identity options: `--dry-run` and `--force` of `perch switch`, `--shell` of
    /// `perch env`, `--files` of `perch status`, `--undo` and `--yes` of `perch setup`,
    /// `--write` of `perch import`.
    public var identity = IdentityOptions()
    /// `--config PATH`.
    public var configPath: String?
    /// `--state PATH`.
    public var statePath: String?
    /// `--long-press-ms N`: long-press and key-hold duration in milliseconds.
    public var longPressMilliseconds: Int64 = 500
    /// `--json`: print JSON instead of text.
    public var json = false
    /// `--field PATH` of `perch current`: a key of the account, dotted for a tool's (`kube.context`).
    public var field: String?
    /// `--limit N` of `perch history`: at most this many entries.
    public var limit: Int?
    /// `--since DATE` of `perch report`: the first local day (year, month, day).
    public var since: ReportDate?
    /// `--until DATE` of `perch report`: the last local day, included.
    public var until: ReportDate?
    /// `--csv` of `perch report`.
    public var csv = false
    /// `--exit-after-first-frame`: draw the first full frame, restore the terminal and exit 0
    /// (for measuring start-up).
    public var exitAfterFirstFrame = false
    /// `--reduce-motion`: draw every change of a sheet at once, without animation.
    public var reduceMotion = false
    /// `--no-mouse`: leave the terminal's mouse reporting off for this run.
    public var noMouse = false
    /// `--theme NAME`: the colour theme for this run.
    public var theme: ColorTheme?
    /// The settings given as flags, which override the saved ones for this run.
    public var flaggedSettings: Set<SettingKey> = []
    /// `--key-hold auto|kitty|repeat|off`: how a key hold is recognised.
    public var keyHold: KeyHoldPreference = .auto
    /// `--format F` of `perch list` (`--json` is `--format json`); nil for the default text.
    public var format: OutputFormat?
    /// `--height N` of the inline picker: at most this many rows, in rows.
    public var pickerHeight: Int?
    /// The shell given to `perch completion`.
    public var shell: CompletionShell?
    /// The operands of the account commands (`add ID`, `set ID PATH VALUE`, `unset ID PATH`,
    /// `rename OLD NEW`, `remove ID`), in order.
    public var operands: [String] = []
    /// The command `perch exec ID -- COMMAND [ARGS…]` runs, program first; empty for the others.
    public var commandArguments: [String] = []
    /// `--name`, `--handle` and `--group` of `perch add`.
    public var newName: String?
    public var newHandle: String?
    public var newGroup: String?

    /// Allowed range of `--long-press-ms`, in milliseconds.
    public static let longPressRange: ClosedRange<Int64> = 50...10_000

    /// A command line that cannot be used; ``description`` is the one-line message and
    /// ``usage`` the usage line of the command it was meant for.
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public var usage: String = Command.interface.usage
    }

    public init() {}

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown command or option, an option the command does not
    ///   take, a missing or bad value, or a missing or stray operand.
    public init(parsing arguments: [String]) throws(UsageError) {
        var words: [String] = []
        var seen: [Option] = []
        var index = 0
        var optionsEnded = false
        // `perch exec ID`: what follows `--` (or, with no `--`, everything after the id) is the command.
        var execTakesRest = false
        while index < arguments.count {
            if words.count == 2, words[0] == "exec", !execTakesRest {
                execTakesRest = true
                if optionsEnded || !arguments[index...].contains("--") {
                    commandArguments = Array(arguments[index...])
                    break
                }
            }
            let argument = arguments[index]
            index += 1
            if execTakesRest, argument == "--" {
                commandArguments = Array(arguments[index...])
                break
            }
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = Option.all.first(where: { $0.names.contains(name) }) else {
                throw UsageError(description: "unknown option '\(name)'", usage: Self.guessUsage(words))
            }
            var value = ""
            if option.valueName != nil {
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw UsageError(description: "option \(name) needs a value", usage: Self.guessUsage(words))
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inline != nil {
                throw UsageError(description: "option \(name) takes no value", usage: Self.guessUsage(words))
            }
            try apply(option, value: value, usage: Self.guessUsage(words))  // made only for a message
            seen.append(option)
        }
        try interpret(words)
        if request == .version, command != .interface {
            throw UsageError(description: "option --version does not apply to 'perch \(command.name)'", usage: command.usage)
        }
        if request != .run { return }
        for option in seen where !command.options.contains(option) {
            throw UsageError(description: "option \(option.names.last!) does not apply to 'perch \(command.name)'", usage: command.usage)
        }
        try checkOperands()
        try checkShellAndFormat()
        if json, csv { throw UsageError(description: "options --json and --csv do not go together", usage: command.usage) }
        if let since, let until, until < since {
            throw UsageError(description: "--until \(until) is before --since \(since)", usage: command.usage)
        }
    }

    /// Takes the words that are not options: `help`, the command, and the account of `switch`.
    private mutating func interpret(_ words: [String]) throws(UsageError) {
        var words = words[...]
        if words.first == "help" {
            request = .help
            words = words.dropFirst()
            if words.first == "help" { words = words.dropFirst() }  // `perch help help`: the program's help
        }
        if let first = words.first {
            if first == "-", request == .run {
                // `perch -`: the previous account, as `cd -` and `kubectx -`.
                command = .switchAccount
                account = "-"
                words = words.dropFirst()
            } else if first == "config" {
                guard words.count >= 2 else {
                    if request == .help {
                        configGroup = true
                        return
                    }
                    throw UsageError(description: "'perch config' needs path, check or edit", usage: Command.configUsage)
                }
                guard let found = Command.all.first(where: { $0.name == "config " + words[words.startIndex + 1] }) else {
                    throw UsageError(description: "unknown command 'config \(words[words.startIndex + 1])'", usage: Command.configUsage)
                }
                command = found
                words = words.dropFirst(2)
            } else {
                guard let found = Command.all.first(where: { $0.name == first }), found != .interface else {
                    throw UsageError(
                        description: "unknown command '\(first)'" + Self.commandGuess(first) + " (perch --help lists the commands)")
                }
                command = found
                words = words.dropFirst()
            }
        }
        // The operands its record names, in order; checked once the options are known.
        if !(command == .switchAccount && account == "-") {
            let count = command.record.operands.count
            operands = Array(words.prefix(count))
            words = words.dropFirst(count)
            switch command {
            case .switchAccount, .env, .exec, .use, .verify: account = operands.first
            case .shellInit, .setup, .shellHook, .guardHooks: operand = operands.first
            case .completion: shell = operands.first.flatMap(CompletionShell.init(rawValue:))
            default: break
            }
        }
        if let stray = words.first, request == .run {
            throw UsageError(description: "unexpected argument '\(stray)'", usage: command.usage)
        }
    }

    /// Checks the operands against the command's record: every one that may not be left out is
    /// there, and one with fixed values is one of them.
    private func checkOperands() throws(UsageError) {
        let record = command.record
        for (index, operand) in record.operands.enumerated() {
            guard index < operands.count else {
                if operand.optional { break }
                let needs = operand.needs ?? record.operands.map(\.name).joined(separator: " ")
                throw UsageError(description: "'perch \(record.name)' needs \(needs)", usage: command.usage)
            }
            if case .values(let allowed) = operand.completion, !allowed.contains(operands[index]) {
                let knows = operand.knows ?? "takes " + allowed.joined(separator: ", ")
                throw UsageError(description: "'perch \(record.name)' \(knows), not '\(operands[index])'", usage: command.usage)
            }
        }
        if command == .setup, operands.isEmpty, !identity.undo {
            throw UsageError(description: "'perch setup' needs a tool: git or ssh", usage: command.usage)
        }
        if command == .exec, commandArguments.isEmpty {
            throw UsageError(description: "'perch exec' needs a command to run: perch exec ID -- COMMAND [ARGS…]", usage: command.usage)
        }
        if command == .exec, commandArguments.first?.isEmpty == true {
            throw UsageError(description: "'perch exec': the command's name is empty", usage: command.usage)
        }
        if command == .use, operands.isEmpty != identity.global {
            throw UsageError(
                description: identity.global ? "'perch use --global' takes no account" : "'perch use' needs an account, or --global",
                usage: command.usage)
        }
        if command == .shellHook, operands.count > 1, Int32(operands[1]).map({ $0 > 0 }) != true {
            throw UsageError(
                description: "'perch shell-hook': the shell's process id must be a number, not '\(operands[1])'", usage: command.usage)
        }
    }

    /// ` (did you mean 'switch'?)` for a mistyped command, or "".
    static func commandGuess(_ typed: String) -> String {
        let words = Completion.commandWords.filter { $0 != "-" }
        let near = Account.suggestions(for: typed, in: words.map { Account(id: $0, name: $0) })
        guard !near.isEmpty else { return "" }
        return "; did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// The usage line of the command the words so far name, for a message about an option.
    private static func guessUsage(_ words: [String]) -> String {
        let named = words.first == "help" ? Array(words.dropFirst()) : words
        let name = named.first == "config" ? named.prefix(2).joined(separator: " ") : named.first ?? ""
        return (Command.all.first { $0.name == name && $0 != .interface } ?? .interface).usage
    }

    private mutating func apply(_ option: Option, value: String, usage: @autoclosure () -> String) throws(UsageError) {
        switch option {
        case .help:
            request = .help
        case .version:
            if request != .help { request = .version }
        case .config:
            guard !value.isEmpty else { throw UsageError(description: "option --config needs a non-empty path", usage: usage()) }
            configPath = value
        case .state:
            guard !value.isEmpty else { throw UsageError(description: "option --state needs a non-empty path", usage: usage()) }
            statePath = value
        case .longPress:
            guard let number = Int64(value), Self.longPressRange.contains(number) else {
                throw UsageError(
                    description:
                        "option --long-press-ms needs a whole number of milliseconds from \(Self.longPressRange.lowerBound) to \(Self.longPressRange.upperBound), not '\(value)'",
                    usage: usage())
            }
            longPressMilliseconds = number
            flaggedSettings.insert(.longPress)
        case .json:
            json = true
        case .field:
            // Any key of an account, dotted for a tool's key (git.email), as the config names it.
            let first = String(value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            // And `switching`: the account a switch under way goes to (not an account's key).
            guard value == "switching" || (ConfigLoader.accountKeys.contains(first) && !value.hasSuffix(".") && !value.contains(".."))
            else {
                throw UsageError(
                    description:
                        "option --field needs a field of an account (id, name, handle, group, kube.context, git.email, aws.profile, …), not '\(value)'",
                    usage: usage())
            }
            self.field = value
        case .exitAfterFirstFrame:
            exitAfterFirstFrame = true
        case .reduceMotion:
            reduceMotion = true
            flaggedSettings.insert(.reduceMotion)
        case .noMouse:
            noMouse = true
            flaggedSettings.insert(.mouse)
        case .theme:
            guard let theme = ColorTheme(rawValue: value) ?? (value == "high-contrast" ? .highContrast : nil) else {
                throw UsageError(
                    description: "option --theme needs one of default, high-contrast, monochrome, not '\(value)'", usage: usage())
            }
            self.theme = theme
            flaggedSettings.insert(.theme)
        case .since, .until:
            guard let date = ReportDate(value) else {
                throw UsageError(description: "option \(option.names.last!) needs a date as YYYY-MM-DD, not '\(value)'", usage: usage())
            }
            if option == .since { since = date } else { until = date }
        case .csv:
            csv = true
        case .keyHold:
            guard let preference = KeyHoldPreference(rawValue: value) else {
                throw UsageError(description: "option --key-hold needs one of auto, kitty, repeat, off, not '\(value)'", usage: usage())
            }
            keyHold = preference
        case .format:
            guard let format = OutputFormat(rawValue: value) else {
                throw UsageError(description: "option --format needs one of ids, tsv, json, not '\(value)'", usage: usage())
            }
            self.format = format
        case .height:
            guard let number = Int(value), (Self.pickerHeightRange).contains(number) else {
                throw UsageError(
                    description:
                        "option --height needs a whole number of rows from \(Self.pickerHeightRange.lowerBound) to \(Self.pickerHeightRange.upperBound), not '\(value)'",
                    usage: usage())
            }
            pickerHeight = number
        case .limit:
            guard let number = Int(value), number >= 0 else {
                throw UsageError(description: "option --limit needs a whole number of entries (0 or more), not '\(value)'", usage: usage())
            }
            limit = number
        case .newName: newName = value
        case .newHandle: newHandle = value
        case .newGroup: newGroup = value
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes, .global, .online, .timeout:
            try identity.apply(option, value: value, usage: usage())
        }
    }

    /// Whether `perch config` was asked for help without a subcommand.
    public var configGroup = false

    /// The help text for ``command``: the program's overview for ``Command/interface``.
    public var helpText: String {
        guard configGroup else { return command.help }
        let lines = [Command.configPath, .configCheck, .configEdit].map { "  " + $0.name.padded(toColumns: 24) + $0.summary }
        return "perch config: the config file.\n\n\(Command.configUsage)\n\n" + lines.joined(separator: "\n")
    }

    /// The program's usage line.
    public static var usage: String { Command.interface.usage }
    /// The program's help.
    public static var help: String { Command.interface.help }
}

/// An option of the command line.
public enum Option: CaseIterable, Hashable, Sendable {
    case help, version, config, state, longPress, keyHold, reduceMotion, exitAfterFirstFrame, json, field, limit
    case format, height, noMouse, theme, since, until, csv
    // `perch add` (CommandLineOptions+Accounts.swift).
    case newName, newHandle, newGroup
    // Tool identities (CommandLineOptions+Identities.swift).
    case dryRun, force, keepGoing, shell, files, undo, write, yes, global, online, timeout

    static let all = allCases

    /// Its spellings; the last is the one used in messages.
    var names: [String] {
        switch self {
        case .help: ["-h", "--help"]
        case .version: ["--version"]
        case .config: ["--config"]
        case .state: ["--state"]
        case .longPress: ["--long-press-ms"]
        case .keyHold: ["--key-hold"]
        case .exitAfterFirstFrame: ["--exit-after-first-frame"]
        case .reduceMotion: ["--reduce-motion"]
        case .json: ["--json"]
        case .field: ["--field"]
        case .limit: ["--limit"]
        case .since: ["--since"]
        case .until: ["--until"]
        case .csv: ["--csv"]
        case .noMouse: ["--no-mouse"]
        case .theme: ["--theme"]
        case .format: ["--format"]
        case .height: ["--height"]
        case .newName: ["--name"]
        case .newHandle: ["--handle"]
        case .newGroup: ["--group"]
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes, .global, .online, .timeout: identityNames
        }
    }

    /// The name of its value in help, or nil for a flag.
    var valueName: String? {
        switch self {
        case .config, .state: "PATH"
        case .longPress, .limit, .height: "N"
        case .field: "PATH"
        case .since, .until: "DATE"
        case .theme: "NAME"
        case .keyHold: "MODE"
        case .format: "ids|tsv|json"
        case .shell: "bash|zsh|fish"
        case .newName: "NAME"
        case .newHandle: "HANDLE"
        case .newGroup: "GROUP"
        case .help, .version, .json, .exitAfterFirstFrame, .reduceMotion, .csv, .noMouse, .dryRun, .force, .keepGoing, .files, .undo,
            .write, .yes, .global, .online:
            nil
        case .timeout: "MS"
        }
    }

    /// Its line in help.
    var helpLine: String {
        let left = "  " + (self == .help ? "-h, --help" : names.last!) + (valueName.map { " " + $0 } ?? "")
        let text: String
        switch self {
        case .help: text = "show this help and exit"
        case .version: text = "show the version and exit"
        case .config:
            text =
                "accounts file (default: $XDG_CONFIG_HOME/perch/accounts.json,\n"
                + "                          else ~/.config/perch/accounts.json; sample accounts when absent)"
        case .state:
            text =
                "state file (default: $XDG_STATE_HOME/perch/state.json,\n"
                + "                          else ~/.local/state/perch/state.json)"
        case .longPress:
            text =
                "how long a press or key must be held, \(CommandLineOptions.longPressRange.lowerBound)–\(CommandLineOptions.longPressRange.upperBound) ms (default 500)"
        case .keyHold:
            text =
                "how a key hold is told: auto (default), kitty (release\n" + "".padded(toColumns: 26)
                + "events), repeat (auto-repeat) or off"
        case .exitAfterFirstFrame:
            return "  --exit-after-first-frame\n" + "".padded(toColumns: 26)
                + "draw the first full frame, restore the terminal and exit 0\n"
                + "".padded(toColumns: 26) + "(measures start-up)"
        case .reduceMotion: text = "show sheets at once, without animation"
        case .noMouse: text = "leave mouse reporting off (this run; Settings keeps a choice)"
        case .theme: text = "colour theme: default, high-contrast or monochrome (this run)"
        case .json: text = "print JSON instead of text"
        case .field: text = "print only this field (name, kube.context, git.email, …)"
        case .limit: text = "print at most N entries"
        case .since: text = "from this local day (YYYY-MM-DD)"
        case .until: text = "to this local day, included (YYYY-MM-DD)"
        case .csv: text = "print CSV instead of text"
        case .format: text = "print ids only, tab-separated fields, or JSON"
        case .height: text = "draw the picker in at most N rows (default: fitted, at most half the terminal)"
        case .newName: text = "the new account's name (required)"
        case .newHandle: text = "its handle, e.g. @ada (optional)"
        case .newGroup: text = "its group in the sheet (optional)"
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes, .global, .online, .timeout: text = identityHelp
        }
        return left.padded(toColumns: 26) + text
    }

    /// Options every command takes.
    static let common: [Option] = [.config, .state]
}

/// A command of `perch`. What parsing, help, completions and the man page know of it is its
/// record (``record``, in CommandRecord.swift), one per command.
public enum Command: CaseIterable, Hashable, Sendable {
    case interface, list, current, switchAccount, history, report, initConfig, configPath, configCheck, configEdit
    case pick, completion, manPage, doctor
    // Accounts from the command line (CommandLineTool+Accounts.swift).
    case addAccount, setField, unsetField, renameAccount, removeAccount
    // Tool identities (CommandLineTool+Identities.swift, CommandLineTool+Switch.swift).
    case status, verify, guardHooks, env, shellInit, setup, importAccounts, undo, reset
    // Secrets in plain text (CommandLineTool+Audit.swift).
    case audit
    // Scopes (CommandLineTool+Scope.swift).
    case exec, use, shellHook

    static let all = allCases

    /// The usage line.
    public var usage: String {
        // A required option is shown first and without brackets (bug: `perch add [--name NAME]`).
        let required: [Option] = self == .addAccount ? [.newName] : []
        let options = (required + self.options.filter { $0 != .help && !required.contains($0) }).map { option in
            let text = option.names.last! + (option.valueName.map { " " + $0 } ?? "")
            return required.contains(option) ? text : "[" + text + "]"
        }
        // `perch setup --undo` with no tool is `perch reset`, not a use of `perch setup`: the
        // usage line shows TOOL as required (bug: `perch setup [TOOL]`).
        let operandText = self == .setup ? self.operandText.replacing("[TOOL]", with: "TOOL") : self.operandText
        // `perch exec`'s command comes last: what follows `--` is the command's own.
        let command = " -- COMMAND [ARGS…]"
        let trailing = operandText.hasSuffix(command) ? command : ""
        let words = (name.isEmpty ? "" : " " + name) + operandText.dropLast(trailing.count)
        return "usage: perch\(words) " + (options + ["[--help]"]).joined(separator: " ") + trailing
    }

    /// The Keys section of `perch --help`, made from ``KeyBindings`` (the table the interface
    /// looks keys up in and `?` lists), so the two cannot disagree: the panes' keys and gestures,
    /// then those the account sheet adds.
    static var keyHelp: String {
        // A row is listed once: in the panes, the first pane's meaning of a key (Stats' `↑` scrolls
        // where the Catalog's moves); in the sheet, whatever it adds.
        var seen = Set<String>()
        func rows(_ context: InputContext, byLabel: Bool) -> [String] {
            KeyBindings.table(for: context).compactMap { binding in
                let row = binding.label + "\t" + binding.summary
                guard !seen.contains(row), seen.insert(byLabel ? binding.label : row).inserted else { return nil }
                seen.insert(row)
                return "  " + binding.label.padded(toColumns: 23) + binding.summary
            }
        }
        let panes = Tab.allCases.flatMap { rows(.pane($0), byLabel: true) }
        let sheet = rows(.accountSheet, byLabel: false) + rows(.accountSheetFilter, byLabel: false)
        return "Keys (? lists those of the screen you are on):\n" + panes.joined(separator: "\n") + "\n\nIn the account sheet:\n"
            + sheet.joined(separator: "\n")
    }

    static let configUsage = "usage: perch config path|check|edit [--config PATH] [--state PATH] [--help]"

    /// The full help text.
    public var help: String {
        let optionLines = options.map(\.helpLine).joined(separator: "\n")
        switch self {
        case .interface:
            let commands = Command.all.dropFirst().map { "  " + ($0.name + $0.operandText).padded(toColumns: 24) + $0.summary }
            return """
                perch: a terminal account switcher.

                \(usage)
                       perch COMMAND [OPTIONS]     (perch COMMAND --help for its options)

                Commands:
                \(commands.joined(separator: "\n"))

                Options:
                \(optionLines)

                \(Self.keyHelp)

                Environment: NO_COLOR (non-empty) draws without colour; VISUAL, EDITOR for config edit.
                Exit status: 0 fine; 1 a request that cannot be met (unknown account, no current
                account, config exists) or a tool that drifted (perch status); 2 bad usage, bad
                config or no usable terminal; 3 a tool failed (the switch is not saved: every tool
                it changed is put back; --keep-going saves it without that tool), the onSwitch
                hook of a saved switch failed, perch verify found a tool that disagrees, perch
                audit found a finding, or the guard refused a commit or push; 128 + N ended by
                signal N, terminal restored.
                """
        default:
            let sections = ["perch \(name): \(summary).", usage, details, "Options:\n" + optionLines]
            return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
    }
}

extension String {
    /// This text followed by spaces up to `columns` display columns (``DisplayWidth``), or by one
    /// space when it is that wide already (never cut). Not Foundation's `padding(toLength:…)`,
    /// which counts characters and cuts.
    func padded(toColumns columns: Int) -> String {
        let width = DisplayWidth.columns(of: self)
        return width >= columns ? self + " " : self + String(repeating: " ", count: columns - width)
    }
}

/// A calendar date given on the command line (`2026-11-30`), read in the local time zone.
public struct ReportDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `YYYY-MM-DD`; nil when it is not a date that exists.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1970, (1...12).contains(month)
        else { return nil }
        // A day that does not exist (2026-02-30) comes back as another date.
        let civil = WallTime.civil(fromDays: WallTime.days(year: year, month: month, day: day))
        guard civil.year == year, civil.month == month, civil.day == day else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Days since 1970-01-01.
    public var days: Int64 { WallTime.days(year: year, month: month, day: day) }

    /// The date `count` days later.
    public func adding(days count: Int64) -> ReportDate {
        let civil = WallTime.civil(fromDays: days + count)
        return ReportDate(year: civil.year, month: civil.month, day: civil.day)
    }

    public static func < (a: ReportDate, b: ReportDate) -> Bool { a.days < b.days }
}
