import PerchCore
import PerchIdentities

/// The options of the tool identity commands (`perch status`, `env`, `shell-init`, `setup`,
/// `import`) and of `perch switch --dry-run/--force`.
public struct IdentityOptions: Hashable, Sendable {
    /// `--dry-run` of `perch switch`: print what would change and change nothing.
    public var dryRun = false
    /// `--force` of `perch switch`: apply every tool identity again, not only those that drifted.
    public var force = false
    /// `--keep-going` of `perch switch`: keep a partial switch when a tool fails.
    public var keepGoing = false
    /// `--shell` of `perch env`; nil: from `$SHELL`.
    public var shell: ShellKind?
    /// `--files` of `perch status`: list Perch's own identity files.
    public var files = false
    /// `--undo` of `perch setup`.
    public var undo = false
    /// `--write` of `perch import`.
    public var write = false
    /// `--yes` of `perch setup`: consent given on the command line.
    public var yes = false
    /// `--global` of `perch use` (follow the global account again) and of `perch current` (the
    /// global account, not this shell's).
    public var global = false
    /// `--online` of `perch verify`: ask the servers too.
    public var online = false
    /// `--timeout MS` of `perch verify`: how long each check may take, in milliseconds.
    public var timeout: Int64 = 5000

    mutating func apply(_ option: Option, value: String, usage: String) throws(CommandLineOptions.UsageError) {
        switch option {
        case .dryRun: dryRun = true
        case .force: force = true
        case .keepGoing: keepGoing = true
        case .files: files = true
        case .undo: undo = true
        case .write: write = true
        case .yes: yes = true
        case .global: global = true
        case .online: online = true
        case .timeout:
            guard let number = Int64(value), (1...600_000).contains(number) else {
                throw CommandLineOptions.UsageError(
                    description: "option --timeout needs a whole number of milliseconds from 1 to 600000, not '\(value)'", usage: usage)
            }
            timeout = number
        case .shell:
            guard let kind = ShellKind(rawValue: value) else {
                throw CommandLineOptions.UsageError(
                    description: "option --shell needs one of bash, zsh, fish, not '\(value)'", usage: usage)
            }
            shell = kind
        default: break
        }
    }
}

extension Option {
    var identityNames: [String] {
        switch self {
        case .dryRun: ["--dry-run"]
        case .force: ["--force"]
        case .keepGoing: ["--keep-going"]
        case .shell: ["--shell"]
        case .files: ["--files"]
        case .undo: ["--undo"]
        case .write: ["--write"]
        case .yes: ["--yes"]
        case .global: ["--global"]
        case .online: ["--online"]
        case .timeout: ["--timeout"]
        default: []
        }
    }

    var identityHelp: String {
        switch self {
        case .dryRun: "print what would change, tool by tool, and change nothing"
        case .force: "apply every tool identity again, not only those that drifted"
        case .keepGoing: "keep a partial switch when a tool fails (says which tools are on the new account)"
        case .shell: "the shell to write for (default: from $SHELL, else bash)"
        case .files: "list the files Perch writes for tool identities"
        case .undo: "remove the include Perch added (with no TOOL: every one, and every baseline back, as perch reset)"
        case .write: "add the proposed accounts to the config (keeping a .bak)"
        case .yes: "do it without asking (consent given here)"
        case .global: "the global account, not this shell's own (perch use: follow it again)"
        case .online: "ask the servers too (ssh -T, gh api user, aws sts get-caller-identity, kubectl auth whoami)"
        case .timeout: "how long each check may take, in milliseconds (default 5000)"
        default: ""
        }
    }
}
