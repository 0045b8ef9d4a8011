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

    mutating func apply(_ option: Option, value: String, usage: String) throws(CommandLineOptions.UsageError) {
        switch option {
        case .dryRun: dryRun = true
        case .force: force = true
        case .keepGoing: keepGoing = true
        case .files: files = true
        case .undo: undo = true
        case .write: write = true
        case .yes: yes = true
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

extension CommandLineOptions {
    /// Checks the operands of `shell-init` and `setup` once the command is known.
    func checkIdentityOperands() throws(UsageError) {
        switch command {
        case .shellInit:
            guard let operand else {
                throw UsageError(description: "'perch shell-init' needs a shell: bash, zsh or fish", usage: command.usage)
            }
            guard ShellKind(rawValue: operand) != nil else {
                throw UsageError(description: "'perch shell-init' knows bash, zsh and fish, not '\(operand)'", usage: command.usage)
            }
        case .setup:
            guard let operand else {
                if identity.undo { return }  // perch setup --undo: every tool, as perch reset
                throw UsageError(description: "'perch setup' needs a tool: git or ssh", usage: command.usage)
            }
            guard operand == "git" || operand == "ssh" else {
                throw UsageError(description: "'perch setup' sets up git or ssh, not '\(operand)'", usage: command.usage)
            }
        default:
            break
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
        default: ""
        }
    }
}

extension Command {
    var identityName: String {
        switch self {
        case .status: "status"
        case .env: "env"
        case .shellInit: "shell-init"
        case .setup: "setup"
        case .importAccounts: "import"
        case .undo: "undo"
        case .reset: "reset"
        default: ""
        }
    }

    var identityOptions: [Option] {
        switch self {
        case .status: [.json, .files]
        case .env: [.shell]
        case .setup: [.undo, .yes]
        case .importAccounts: [.write]
        case .reset: [.yes]
        default: []
        }
    }

    var identityOperandText: String {
        switch self {
        case .env: " [ACCOUNT]"
        case .shellInit: " SHELL"
        case .setup: " [TOOL]"
        default: ""
        }
    }

    var identitySummary: String {
        switch self {
        case .status: "show each tool's identity against the current account (exit 1 on drift)"
        case .env: "print the account's variables for this shell (eval \"$(perch env)\")"
        case .shellInit: "print a shell function that keeps this shell's variables in step"
        case .setup: "include Perch's git or ssh file from your own config, once, with consent"
        case .importAccounts: "propose accounts from kube, gcloud, AWS, gh and git as a config fragment"
        case .undo: "bring back the account and every tool's state from before the last switch"
        case .reset: "give every tool back what it had before Perch, and remove what setup added"
        default: ""
        }
    }

    var identityDetails: String {
        switch self {
        case .status:
            return "For each tool the current account names, what the tool uses here: ✓ when it is the\n"
                + "account's, ✗ when it failed when applied (with the error) or changed since (drift:\n"
                + "kubectl config use-context by hand, a variable such as AWS_DEFAULT_PROFILE that\n"
                + "beats the selection), – when it cannot be checked here or a rule of yours (git's\n"
                + "includeIf) wins in this folder. Then the results of the last switch. Exit status 1\n"
                + "when a tool drifted or failed or no account is current. --files lists the files Perch\n"
                + "writes for tools instead. --json prints {\"account\", \"checks\", \"lastSwitch\"}."
        case .env:
            return "Prints export lines for PERCH_ACCOUNT, AWS_PROFILE and the account's env values,\n"
                + "and unset lines for the variables of the account this shell had before. With no\n"
                + "ACCOUNT, the current one. In bash or zsh: eval \"$(perch env)\"; in fish:\n"
                + "perch env --shell fish | source."
        case .shellInit:
            return "SHELL is bash, zsh or fish.\n"
                + "Add to ~/.bashrc:  eval \"$(perch shell-init bash)\"\n"
                + "        ~/.zshrc:   eval \"$(perch shell-init zsh)\"\n"
                + "        config.fish: perch shell-init fish | source\n"
                + "Then perch switch, and a pick in the interface started from that shell, update\n"
                + "that shell's variables; other shells keep theirs until they switch or run perch env."
        case .setup:
            return "TOOL is git or ssh. git: puts [include] path = Perch's git file in your global git\n"
                + "config after your own [user] and before your includeIf rules, so they still win in\n"
                + "their folders (run it again to put it back there after git appended a [user]).\n"
                + "ssh: adds an Include line for Perch's ssh file at the top of ~/.ssh/config. Shows\n"
                + "the change and asks first on a terminal; --yes gives consent without asking.\n"
                + "--undo removes it again; --undo with no TOOL is perch reset. Nothing else of your\n"
                + "config is changed."
        case .undo:
            return "Switches back to the account before the last switch and gives each tool the state\n"
                + "it had then (recorded when the switch was made). It is a switch itself, so a second\n"
                + "perch undo redoes. Exit status 1 when there is nothing to undo, 3 when a tool fails\n"
                + "(every tool is then left as it was)."
        case .reset:
            return "The first time Perch changes a tool it records what the tool had (its baseline):\n"
                + "gcloud's configuration, kube's context, gh's user, docker's context. perch reset gives\n"
                + "each one back, empties Perch's own git and ssh files and removes the includes\n"
                + "perch setup added. Asks first on a terminal; --yes gives consent without asking."
        case .importAccounts:
            return "Looks at kube contexts, gcloud configurations, AWS profiles, gh hosts and users,\n"
                + "and git identities (the global config and its includeIf files), and prints the\n"
                + "accounts it proposes as a config fragment. --write adds those not in the config\n"
                + "(keeping the previous file as .bak); without it, nothing changes."
        default:
            return ""
        }
    }
}
