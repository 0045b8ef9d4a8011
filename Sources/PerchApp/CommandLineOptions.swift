/// The command line of `perch`: `perch [--config PATH] [--state PATH] [--long-press-ms N]`,
/// plus `--help` and `--version`. Options take their value as the next argument or after `=`.
public struct CommandLineOptions: Hashable, Sendable {
    /// What the command line asks for.
    public enum Request: Hashable, Sendable {
        case runInterface
        case help
        case version
    }

    /// What to do: run the interface (the default), or print help or the version.
    public var request: Request = .runInterface
    /// `--config PATH`.
    public var configPath: String?
    /// `--state PATH`.
    public var statePath: String?
    /// `--long-press-ms N`: long-press and key-hold duration in milliseconds.
    public var longPressMilliseconds: Int64 = 500
    /// `--exit-after-first-frame`: draw the first full frame, restore the terminal and exit 0
    /// (for measuring start-up).
    public var exitAfterFirstFrame = false

    /// Allowed range of `--long-press-ms`, in milliseconds.
    public static let longPressRange: ClosedRange<Int64> = 50...10_000

    /// The one-line usage printed after a usage error.
    public static let usage = "usage: perch [--config PATH] [--state PATH] [--long-press-ms N] [--help] [--version]"

    /// The text `--help` prints.
    public static let help = """
        perch: a terminal account switcher.

        \(usage)

        Options:
          --config PATH        accounts file (default: $XDG_CONFIG_HOME/perch/accounts.json,
                               else ~/.config/perch/accounts.json; sample accounts when absent)
          --state PATH         state file (default: $XDG_STATE_HOME/perch/state.json,
                               else ~/.local/state/perch/state.json)
          --long-press-ms N    how long a press or key must be held, \(longPressRange.lowerBound)–\(longPressRange.upperBound) ms (default 500)
          --exit-after-first-frame
                               draw the first full frame, restore the terminal and exit 0
                               (measures start-up)
          -h, --help           show this help and exit
          --version            show the version and exit

        Keys:
          1–4, Tab, Shift-Tab  select a tab          a        open the account sheet
          hold 1 / hold the Overview tab with the mouse: open the account sheet
          j k ↑ ↓ PgUp PgDn Home End, mouse wheel: move in a list
          Enter                pick / activate       Esc      close the sheet
          q                    quit                  Ctrl-C   quit at any time
          Ctrl-Z               suspend

        Environment: NO_COLOR (non-empty) draws without colour.
        Exit status: 0 fine; 2 bad usage, bad config or no usable terminal;
        128 + N ended by signal N, with the terminal restored.
        """

    /// A command line that cannot be used; ``description`` is the one-line message.
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init() {}

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown option, a missing or bad value, or a stray argument.
    public init(parsing arguments: [String]) throws(UsageError) {
        var index = 0
        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError(description: "option \(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if inline != nil, name == "--help" || name == "--version" {
                throw UsageError(description: "option \(name) takes no value")
            }
            switch name {
            case "-h", "--help":
                request = .help
            case "--version":
                if request != .help { request = .version }
            case "--exit-after-first-frame":
                if inline != nil { throw UsageError(description: "option \(name) takes no value") }
                exitAfterFirstFrame = true
            case "--config":
                configPath = try value(for: name, inline: inline)
                if configPath!.isEmpty { throw UsageError(description: "option --config needs a non-empty path") }
            case "--state":
                statePath = try value(for: name, inline: inline)
                if statePath!.isEmpty { throw UsageError(description: "option --state needs a non-empty path") }
            case "--long-press-ms":
                let text = try value(for: name, inline: inline)
                guard let number = Int64(text), Self.longPressRange.contains(number) else {
                    throw UsageError(
                        description:
                            "option --long-press-ms needs a whole number of milliseconds from \(Self.longPressRange.lowerBound) to \(Self.longPressRange.upperBound), not '\(text)'"
                    )
                }
                longPressMilliseconds = number
            default:
                if argument.hasPrefix("-") {
                    throw UsageError(description: "unknown option '\(name)'")
                }
                throw UsageError(description: "unexpected argument '\(argument)'")
            }
            index += 1
        }
    }
}
