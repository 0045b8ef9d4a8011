/// How `perch list` prints the accounts (`--format`).
public enum OutputFormat: String, CaseIterable, Hashable, Sendable {
    /// One id per line.
    case ids
    /// One line per account: id, name, handle, group, color, current, separated by tabs.
    case tsv
    /// A JSON array with every field of every account.
    case json
}

/// A shell `perch completion` writes a script for.
public enum CompletionShell: String, CaseIterable, Hashable, Sendable {
    case bash, zsh, fish
}

extension CommandLineOptions {
    /// Allowed range of `--height`, in rows.
    public static let pickerHeightRange: ClosedRange<Int> = 4...200

    /// The format `perch list` prints: `--format`, or JSON for `--json`.
    public var listFormat: OutputFormat? { format ?? (json ? .json : nil) }

    /// Checks the operand of `perch completion` and that `--json` and `--format` agree.
    /// - Throws: ``UsageError``.
    mutating func checkShellAndFormat() throws(UsageError) {
        if json, let format, format != .json {
            throw UsageError(description: "use either --json or --format \(format.rawValue), not both", usage: command.usage)
        }
    }
}
