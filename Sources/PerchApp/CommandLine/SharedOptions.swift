import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit

/// The options more than one command takes, declared once; each command lists those it takes
/// and keeps their values in fields of its own. An option only one command takes is declared
/// in that command's file.
enum SharedOption {
    /// `-h, --help`: read by the parser itself, listed last by every command.
    static let help = OptionInfo(names: ["-h", "--help"], help: "show this help and exit")
    /// `--version`: read by the parser itself; only the interface takes it.
    static let version = OptionInfo(names: ["--version"], help: "show the version and exit")

    static let config = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--config"], valueName: "PATH",
            help: """
                accounts file (default: $XDG_CONFIG_HOME/perch/accounts.json,
                                          else ~/.config/perch/accounts.json; sample accounts when absent)
                """,
            completion: .file, common: true),
        parse: { value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "option --config needs a non-empty path") }
            return value
        })

    static let state = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--state"], valueName: "PATH",
            help: """
                state file (default: $XDG_STATE_HOME/perch/state.json,
                                          else ~/.local/state/perch/state.json)
                """,
            completion: .file, common: true),
        parse: { value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "option --state needs a non-empty path") }
            return value
        })

    /// Allowed range of `--long-press-ms`, in milliseconds: the one the settings file and
    /// Settings take too.
    static var longPressRange: ClosedRange<Int64> { Settings.longPressRange }
    /// `--long-press-ms` when not given, in milliseconds.
    static let defaultLongPress: Int64 = 500

    /// `--long-press-ms N`: long-press and key-hold duration, in milliseconds (``longPressRange``).
    static let longPress = OptionDefinition<Int64>.number(
        OptionInfo(
            names: ["--long-press-ms"], valueName: "N",
            help:
                "how long a press or key must be held, \(longPressRange.lowerBound)–\(longPressRange.upperBound) ms (default \(defaultLongPress))"
        ),
        in: longPressRange, unit: "milliseconds")

    /// `--key-hold auto|kitty|repeat|off`: how a key hold is recognised.
    static let keyHold = OptionDefinition<KeyHoldPreference>.choice(
        "--key-hold", valueName: "MODE",
        help: """
            how a key hold is told: auto (default), kitty (release
                                      events), repeat (auto-repeat) or off
            """)

    static let json = OptionDefinition.flag("--json", help: "print JSON instead of text")

    /// `--global` of `perch use` (follow the global account again) and of `perch current` and
    /// `perch status` (the global account, not this shell's).
    static let global = OptionDefinition.flag(
        "--global", help: "the global account, not this shell's own (perch use: follow it again)")

    /// `--shell bash|zsh|fish` of `perch env` and `perch use`; not given: from `$SHELL`.
    static let shell = OptionDefinition<ShellKind>.choice(
        "--shell", valueName: "bash|zsh|fish", help: "the shell to write for (default: from $SHELL, else bash)")

    /// `--keep-going`: keep a partial switch (or scope) when a tool fails.
    static let keepGoing = OptionDefinition.flag(
        "--keep-going", help: "keep a partial switch when a tool fails (says which tools are on the new account)")

    /// `--keep-going` of `perch exec` and `perch use`: a scope, not a switch.
    // Bug (everyday issue): exec and use described --keep-going as "keep a partial switch".
    static let keepGoingScope = OptionDefinition.flag(
        "--keep-going", help: "go on without a tool that cannot be given the account (says which); nothing global changes")

    /// `--yes`: consent given on the command line.
    static let yes = OptionDefinition.flag("--yes", help: "do it without asking (consent given here)")

    /// `--undo` of `perch guard`.
    // Bug (everyday issue): perch guard --help described --undo with setup's text.
    static let guardUndo = OptionDefinition.flag(
        "--undo", help: "remove the guard: Perch's hooks and its git file (your git config is as before)")

    /// `--undo` of `perch setup`.
    static let undo = OptionDefinition.flag(
        "--undo", help: "remove the include Perch added (with no TOOL: every one, and every baseline back, as perch reset)")

    /// Allowed range of `--height`, in rows.
    static let pickerHeightRange: ClosedRange<Int> = 4...200

    /// `--height N` of the inline picker: at most this many rows (``pickerHeightRange``).
    static let height = OptionDefinition<Int>.number(
        OptionInfo(
            names: ["--height"], valueName: "N", help: "draw the picker in at most N rows (default: fitted, at most half the terminal)"),
        in: pickerHeightRange, unit: "rows")
}

/// A command that takes the interface's hold settings, `--long-press-ms` and `--key-hold`: the
/// interface, and `perch doctor`, which tests them.
protocol TakesHoldSettings: ReadsPerchFiles {
    /// `--long-press-ms N`, in milliseconds.
    var longPressMilliseconds: Int64 { get set }
    /// `--key-hold MODE`.
    var keyHold: KeyHoldPreference { get set }
    /// The settings given as flags, which override the saved ones for this run.
    var flaggedSettings: Set<SettingKey> { get }
}
