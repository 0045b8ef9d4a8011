import PerchDomain
import PerchIdentities
import PerchStore

/// `perch env [ACCOUNT]`: the account's variables for this shell.
struct EnvCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "env", summary: "print the account's variables for this shell (eval \"$(perch env)\")",
        operands: [Operand(name: "ACCOUNT", optional: true, completion: .account)])
    static let details: String =
        "Prints export lines for PERCH_ACCOUNT, AWS_PROFILE and the account's env values,\n"
        + "and unset lines for the variables of the account this shell had before. With no\n"
        + "ACCOUNT, the current one. In bash or zsh: eval \"$(perch env)\"; in fish:\n"
        + "perch env --shell fish | source."
    var files = FileOptions()
    /// The account as given; nil for this shell's or the current one.
    var account: String?
    /// `--shell`; nil: from `$SHELL`.
    @Option(SharedOption.shell) var shell: ShellKind? = nil

    mutating func bind(operands: [String]) { account = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.env(self) }
}

extension CommandLineTool {
    // MARK: perch env, shell-init

    func env(_ options: EnvCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let shell = options.shell ?? ShellKind.from(shellPath: PerchPaths.environment("SHELL"))
        var account: Account?
        if let text = options.account {
            guard let found = lookupAccount(text, in: config, command: "env") else { return ExitStatus.unmet }
            account = found
        } else if let kind = IdentityScope.kind(IdentityEnvironment.current().variables),
            let own = PerchPaths.environment(ShellExports.accountVariable).flatMap({ id in config.accounts.first { $0.id == id } })
        {
            // A shell with an account of its own keeps it: its scope, brought up to date.
            let variables = IdentityEnvironment.current().variables
            guard let scoped = scope(own, kind: kind, config: config, command: "env", keepGoing: true) else { return ExitStatus.toolFailed }
            console.write(IdentityScope.script(from: variables, to: scoped, shell: shell))
            return ExitStatus.ok
        } else {
            guard let state = loadState(config) else { return ExitStatus.unmet }
            account = state.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
        }
        for entry in account?.identities.exports ?? [] where entry.value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }) {
            // Quoted correctly all the same; said so that a surprise in a terminal is explained.
            console.error("note: \(entry.name) holds control characters")
        }
        console.write(ShellExports.script(for: account, shell: shell, environment: IdentityEnvironment.current().variables))
        return ExitStatus.ok
    }
}
