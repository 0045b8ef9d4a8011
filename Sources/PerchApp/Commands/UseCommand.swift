import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch use ID|--global`: this shell made an account's, or the global one's again.
struct UseCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "use", summary: "make this shell an account's (--global: follow the global one again)",
        operands: [Operand(name: "ID", optional: true, completion: .account)])
    static let details: String =
        "Gives this shell the account's identity as perch exec gives a command, until\n"
        + "perch use --global; a switch made elsewhere leaves it alone, and it beats the\n"
        + "account of a bound folder. Works through perch shell-init, which evaluates what\n"
        + "this prints; run by hand, eval \"$(perch use ID)\" does the same. On a terminal\n"
        + "without shell-init it says how to set that up (exit status 2)."
    var files = FileOptions()
    /// The account as given; nil with `--global`.
    var account: String?
    /// `--global`: follow the global account again.
    @Option(SharedOption.global) var global = false
    /// `--shell`; nil: from `$SHELL`.
    @Option(SharedOption.shell) var shell: ShellKind? = nil
    /// `--keep-going`.
    @Option(SharedOption.keepGoingScope) var keepGoing = false

    mutating func bind(operands: [String]) { account = operands.first }

    func validate() throws(UsageError) {
        if (account == nil) != global {
            throw UsageError(description: global ? "'perch use --global' takes no account" : "'perch use' needs an account, or --global")
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 {
        tool.with(switching: SwitchSettings(keepGoing: keepGoing)).useAccount(self)
    }
}

extension CommandLineTool {
    // MARK: perch use

    /// Prints the shell text that pins this shell to the account (or, with `--global`, lets it
    /// follow the global account again), for shell-init's `perch` function to evaluate.
    func useAccount(_ options: UseCommand) -> Int32 {
        let shell = options.shell ?? ShellKind.from(shellPath: PerchPaths.environment("SHELL"))
        if isatty(STDOUT_FILENO) == 1 {
            console.error("perch use changes this shell only, through perch shell-init; add to your shell's startup file:")
            console.note(
                "  bash: eval \"$(perch shell-init bash)\"   zsh: eval \"$(perch shell-init zsh)\"   fish: perch shell-init fish | source")
            console.note("or run it by hand: eval \"$(perch use \(options.account ?? "--global"))\"")
            return ExitStatus.usage
        }
        guard let config = loadConfig() else { return ExitStatus.usage }
        let variables = processVariables
        if options.global {
            guard let state = loadState(config) else { return ExitStatus.unmet }
            let global = state.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
            let target = IdentityScope.following(global, over: variables)
            console.write(IdentityScope.script(from: variables, to: target, shell: shell) + ShellMarker.held(target.held, shell: shell))
            console.error(
                "this shell follows the global account again"
                    + (global.map { ": \(shown($0.id)) (\(shown($0.name)))" } ?? " (none chosen yet)"))
            return ExitStatus.ok
        }
        guard let id = options.account, let account = lookupAccount(id, in: config, command: "use") else { return ExitStatus.unmet }
        guard let scoped = scope(account, kind: .pinned, config: config, command: "use") else { return ExitStatus.toolFailed }
        console.write(IdentityScope.script(from: variables, to: scoped, shell: shell))
        console.error(
            "this shell is \(shown(account.id)) (\(shown(account.name))) until perch use --global; switches made elsewhere leave it alone")
        return ExitStatus.ok
    }
}
