import PerchCore

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

    /// Which field `perch current --field` prints.
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case id, name, handle
    }

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
    /// `--field F` of `perch current`.
    public var field: Field?
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
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
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
            try apply(option, value: value, usage: Self.guessUsage(words))
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
        try checkShellAndFormat()
        try checkIdentityOperands()
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
                    throw UsageError(description: "unknown command '\(first)' (perch --help lists the commands)")
                }
                command = found
                words = words.dropFirst()
            }
        }
        if command == .switchAccount, account == nil, let first = words.first {
            account = first
            words = words.dropFirst()
        }
        if command == .env, let first = words.first {
            account = first
            words = words.dropFirst()
        }
        if command == .shellInit || command == .setup, let first = words.first {
            operand = first
            words = words.dropFirst()
        }
        if command == .completion, let first = words.first {
            guard let shell = CompletionShell(rawValue: first) else {
                throw UsageError(description: "'perch completion' knows bash, zsh and fish, not '\(first)'", usage: command.usage)
            }
            self.shell = shell
            words = words.dropFirst()
        }
        if let stray = words.first, request == .run {
            throw UsageError(description: "unexpected argument '\(stray)'", usage: command.usage)
        }
    }

    /// The usage line of the command the words so far name, for a message about an option.
    private static func guessUsage(_ words: [String]) -> String {
        let named = words.first == "help" ? Array(words.dropFirst()) : words
        let name = named.first == "config" ? named.prefix(2).joined(separator: " ") : named.first ?? ""
        return (Command.all.first { $0.name == name && $0 != .interface } ?? .interface).usage
    }

    private mutating func apply(_ option: Option, value: String, usage: String) throws(UsageError) {
        switch option {
        case .help:
            request = .help
        case .version:
            if request != .help { request = .version }
        case .config:
            guard !value.isEmpty else { throw UsageError(description: "option --config needs a non-empty path", usage: usage) }
            configPath = value
        case .state:
            guard !value.isEmpty else { throw UsageError(description: "option --state needs a non-empty path", usage: usage) }
            statePath = value
        case .longPress:
            guard let number = Int64(value), Self.longPressRange.contains(number) else {
                throw UsageError(
                    description:
                        "option --long-press-ms needs a whole number of milliseconds from \(Self.longPressRange.lowerBound) to \(Self.longPressRange.upperBound), not '\(value)'",
                    usage: usage)
            }
            longPressMilliseconds = number
            flaggedSettings.insert(.longPress)
        case .json:
            json = true
        case .field:
            guard let field = Field(rawValue: value) else {
                throw UsageError(description: "option --field needs one of id, name, handle, not '\(value)'", usage: usage)
            }
            self.field = field
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
                    description: "option --theme needs one of default, high-contrast, monochrome, not '\(value)'", usage: usage)
            }
            self.theme = theme
            flaggedSettings.insert(.theme)
        case .since, .until:
            guard let date = ReportDate(value) else {
                throw UsageError(description: "option \(option.names.last!) needs a date as YYYY-MM-DD, not '\(value)'", usage: usage)
            }
            if option == .since { since = date } else { until = date }
        case .csv:
            csv = true
        case .keyHold:
            guard let preference = KeyHoldPreference(rawValue: value) else {
                throw UsageError(description: "option --key-hold needs one of auto, kitty, repeat, off, not '\(value)'", usage: usage)
            }
            keyHold = preference
        case .format:
            guard let format = OutputFormat(rawValue: value) else {
                throw UsageError(description: "option --format needs one of ids, tsv, json, not '\(value)'", usage: usage)
            }
            self.format = format
        case .height:
            guard let number = Int(value), (Self.pickerHeightRange).contains(number) else {
                throw UsageError(
                    description:
                        "option --height needs a whole number of rows from \(Self.pickerHeightRange.lowerBound) to \(Self.pickerHeightRange.upperBound), not '\(value)'",
                    usage: usage)
            }
            pickerHeight = number
        case .limit:
            guard let number = Int(value), number >= 0 else {
                throw UsageError(description: "option --limit needs a whole number of entries (0 or more), not '\(value)'", usage: usage)
            }
            limit = number
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes:
            try identity.apply(option, value: value, usage: usage)
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
    // Tool identities (CommandLineOptions+Identities.swift).
    case dryRun, force, keepGoing, shell, files, undo, write, yes

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
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes: identityNames
        }
    }

    /// The name of its value in help, or nil for a flag.
    var valueName: String? {
        switch self {
        case .config, .state: "PATH"
        case .longPress, .limit, .height: "N"
        case .field: "id|name|handle"
        case .since, .until: "DATE"
        case .theme: "NAME"
        case .keyHold: "MODE"
        case .format: "ids|tsv|json"
        case .shell: "bash|zsh|fish"
        case .help, .version, .json, .exitAfterFirstFrame, .reduceMotion, .csv, .noMouse, .dryRun, .force, .keepGoing, .files, .undo, .write, .yes: nil
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
        case .field: text = "print only this field"
        case .limit: text = "print at most N entries"
        case .since: text = "from this local day (YYYY-MM-DD)"
        case .until: text = "to this local day, included (YYYY-MM-DD)"
        case .csv: text = "print CSV instead of text"
        case .format: text = "print ids only, tab-separated fields, or JSON"
        case .height: text = "draw the picker in at most N rows (default: fitted, at most half the terminal)"
        case .dryRun, .force, .keepGoing, .shell, .files, .undo, .write, .yes: text = identityHelp
        }
        return left.padded(toColumns: 26) + text
    }

    /// Options every command takes.
    static let common: [Option] = [.config, .state]
}

/// A command of `perch`, with what parsing and help need to know of it.
public enum Command: CaseIterable, Hashable, Sendable {
    case interface, list, current, switchAccount, history, report, initConfig, configPath, configCheck, configEdit
    case pick, completion, manPage, doctor
    // Tool identities (CommandLineOptions+Identities.swift).
    case status, env, shellInit, setup, importAccounts, undo, reset

    static let all = allCases

    /// The words that name it (`config check`); empty for the interface.
    public var name: String {
        switch self {
        case .interface: ""
        case .list: "list"
        case .current: "current"
        case .switchAccount: "switch"
        case .history: "history"
        case .report: "report"
        case .initConfig: "init"
        case .configPath: "config path"
        case .configCheck: "config check"
        case .configEdit: "config edit"
        case .doctor: "doctor"
        case .pick: "pick"
        case .completion: "completion"
        case .manPage: "man-page"
        case .status, .env, .shellInit, .setup, .importAccounts, .undo, .reset: identityName
        }
    }

    /// The options it takes.
    var options: [Option] {
        switch self {
        case .interface: Option.common + [.longPress, .keyHold, .reduceMotion, .noMouse, .theme, .exitAfterFirstFrame, .version, .help]
        case .list: Option.common + [.json, .format, .help]
        case .current: Option.common + [.json, .field, .help]
        case .history: Option.common + [.json, .limit, .help]
        case .report: Option.common + [.since, .until, .json, .csv, .help]
        case .switchAccount: Option.common + [.height, .dryRun, .force, .keepGoing, .help]
        case .pick: Option.common + [.height, .help]
        case .initConfig, .configPath, .configCheck, .configEdit: Option.common + [.help]
        case .completion, .manPage: [.help]
        case .doctor: Option.common + [.longPress, .keyHold, .help]
        case .status, .env, .shellInit, .setup, .importAccounts, .undo, .reset: Option.common + identityOptions + [.help]
        }
    }

    /// Its operands in the usage line.
    var operandText: String {
        switch self {
        case .switchAccount: " [ID-OR-NAME|-]"
        case .completion: " SHELL"
        case .env, .shellInit, .setup: identityOperandText
        default: ""
        }
    }

    /// One line of summary.
    var summary: String {
        switch self {
        case .interface: "start the interface"
        case .list: "list the accounts, the current one marked with *"
        case .current: "print the current account (for shell prompts)"
        case .switchAccount: "switch to an account by id or name; - for the previous; none: pick"
        case .history: "print the recorded switches, newest first"
        case .report: "print the time spent in each account (for timesheets)"
        case .initConfig: "write a starter config (never over an existing one)"
        case .configPath: "print the path of the config file"
        case .configCheck: "validate the config and report every problem"
        case .configEdit: "edit a copy of the config, install it only when valid"
        case .pick: "pick an account in the inline picker and print its id"
        case .completion: "print the completion script for bash, zsh or fish"
        case .manPage: "print the manual page (roff), as installed as perch.1"
        case .doctor: "what this terminal gives Perch, and a key-repeat test"
        case .status, .env, .shellInit, .setup, .importAccounts, .undo, .reset: identitySummary
        }
    }

    /// The usage line.
    public var usage: String {
        let options = self.options.filter { $0 != .help }.map { option in
            "[" + option.names.last! + (option.valueName.map { " " + $0 } ?? "") + "]"
        }
        let words = (name.isEmpty ? "" : " " + name) + operandText
        return "usage: perch\(words) " + (options + ["[--help]"]).joined(separator: " ")
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
                config or no usable terminal; 3 a switch was saved but a tool or its onSwitch hook
                failed; 128 + N ended by signal N, terminal restored.
                """
        default:
            let sections = ["perch \(name): \(summary).", usage, details, "Options:\n" + optionLines]
            return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
    }

    /// What the help says beyond the summary, or nothing.
    var details: String {
        switch self {
        case .list:
            return "Prints one account per line: id, name and handle, with a * before the current one\n"
                + "on a terminal and after it otherwise (so the first column is always the id).\n"
                + "--format ids prints the ids, one per line. --format tsv prints id, name, handle,\n"
                + "group, color and current (true or false), tab-separated, empty where there is none.\n"
                + "--json (--format json) prints [{\"id\", \"name\", \"handle\", \"group\", \"color\",\n"
                + "\"onSwitch\", \"current\"}, …], null where there is nothing."
        case .current:
            return "Prints `id: Name (handle)`; with --field only that field, for prompts:\n"
                + "  PS1='[$(perch current --field name 2>/dev/null)] \\$ '\n"
                + "Exit status 1 when no account has been chosen yet (--json then prints null)."
        case .switchAccount:
            return "The account is its exact id, or its name when exactly one name matches it\n"
                + "(ignoring case); - is the account that was current before (two in a row swap).\n"
                + "With no account, on a terminal, the account sheet is drawn below the prompt to\n"
                + "pick from (type to filter, arrows, Enter, the mouse; Esc or Ctrl-C exits 1).\n"
                + "The switch is saved, then the account's tool identities are applied (git, ssh,\n"
                + "kube, gcloud, gh, aws, env, in that order) and its onSwitch hook runs with its\n"
                + "output passed through; a failed tool or hook exits 3 (the switch stands). A closed\n"
                + "output pipe ends only the printing: the hook still runs, then the exit status is 141.\n"
                + "--dry-run prints what would change, tool by tool, and changes nothing; --force\n"
                + "applies the identities again when the account is already current.\n"
                + "Exit status 1 for an unknown or ambiguous account (with the nearest ones\n"
                + "suggested, never switched to) or no previous account."
        case .status, .env, .shellInit, .setup, .importAccounts, .undo, .reset:
            return identityDetails
        case .history:
            return "Prints `time  source  previous → account`, newest first (at most 10000 are kept).\n"
                + "--json prints [{\"account\", \"previous\", \"time\", \"source\"}, …]."
        case .report:
            return "Time in an account runs from a switch to it until the next switch (or now).\n"
                + "Dates are local (TZ, else the system's zone), shown with the zone; --since is the\n"
                + "first day (default: 29 days before today), --until the last day, included\n"
                + "(default: today). --csv prints id,name,minutes,hours; --json an object with\n"
                + "since, until, timeZone, utcOffset, accounts [{id, name, seconds}] and totalSeconds."
        case .initConfig:
            return "Writes an example config to the config path (see perch config path), with every\n"
                + "field shown once. Exit status 1 when a config is already there."
        case .configEdit:
            return "Opens a copy of the config in $VISUAL, $EDITOR or vi (the starter config when\n"
                + "there is none). A valid copy replaces the config atomically, the old one kept as\n"
                + "<config>.bak. An invalid one is reported with line and column; on a terminal\n"
                + "Perch asks (e)dit again, (d)iscard, (k)eep anyway?; otherwise it is discarded\n"
                + "and the exit status is 2."
        case .pick:
            return "Draws the account sheet below the prompt, as perch switch with no account does,\n"
                + "and prints the chosen account's id without switching, for\n"
                + "  kubectl --context \"$(perch pick)\" …\n"
                + "Exit status 1 when nothing was picked; 2 when standard input or output is not\n"
                + "a terminal (the picker is drawn on standard error's terminal when stdout is not)."
        case .completion:
            return "Load it with, for bash:  source <(perch completion bash)\n"
                + "  zsh:  source <(perch completion zsh)    fish:  perch completion fish | source\n"
                + "Completes commands, options, and the account ids and names of the config in use."
        case .manPage:
            return "Prints perch(1) in man(7) format:  perch man-page | man -l -"
        case .doctor:
            return "Prints, one per line with how each was found: TERM and terminfo, colours, SGR mouse,\n"
                + "bracketed paste, the kitty keyboard protocol and the key-hold mode, OSC 52, the\n"
                + "locale's UTF-8, and the config and state paths with their permissions. On a\n"
                + "terminal it then asks you to hold the 1 key for 2 seconds and reports the repeat\n"
                + "delay and rate, and whether the hold would be recognised with --long-press-ms."
        case .interface, .configPath, .configCheck:
            return ""
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
