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
