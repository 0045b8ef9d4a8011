import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch renew [TOOL]`: the tool's own login for the current account, on the terminal.
struct RenewCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "renew", summary: "run the tool's own login for the current account (aws sso login, gcloud auth login)",
        operands: [
            Operand(
                name: "TOOL", optional: true, completion: .values(SessionRenewal.tools.map(\.rawValue)),
                knows: "renews aws, gcloud or kube")
        ])
    static let details: String =
        "Runs the tool's own login for the current account (this shell's own in a scope;\n"
        + "--global: the global one), in the foreground on this terminal: aws sso login\n"
        + "--profile P for an SSO profile, gcloud auth login into the account's gcloud\n"
        + "configuration. For kube, and for AWS profiles no login renews (an assumed role,\n"
        + "plain keys), it says what does. TOOL is aws, gcloud or kube; without it, each of\n"
        + "these the account names. Exit status: the login's when it fails; 1 when the\n"
        + "account names no such tool or none is chosen."
    var files = FileOptions()
    /// The tool as given; nil for every tool of the account that has a login.
    var tool: String?
    /// `--global`: the global account, not this shell's own.
    @Option(SharedOption.global) var global = false

    mutating func bind(operands: [String]) { tool = operands.first }

    func run(_ tool: CommandLineTool) -> Int32 { tool.renew(self) }
}

extension CommandLineTool {
    func renew(_ options: RenewCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        let variables = IdentityEnvironment.current().variables
        // In a shell with an account of its own, that account, as status and current take it.
        let own = options.global ? nil : IdentityScope.kind(variables).flatMap { _ in variables[ShellExports.accountVariable] }
        guard let id = own ?? state.currentAccount, let account = config.accounts.first(where: { $0.id == id }) else {
            console.error(
                own.map { "this shell's account '\(shown($0))' is not in the config; perch use --global follows the global one" }
                    ?? "no account chosen yet; pick one with `perch switch ID` or in the interface")
            return ExitStatus.unmet
        }
        let tool = options.tool.map { IdentityTool($0) }
        if let tool, account.identities[tool] == nil {
            console.error("\(shown(account.id)) names no \(tool.rawValue) identity: nothing to renew")
            return ExitStatus.unmet
        }
        let plans = SessionRenewal.plans(account, tool: tool, in: switcher(config).context)
        if plans.isEmpty {
            console.print("\(shown(account.id)) names no aws, gcloud or kube identity: nothing to renew")
            return ExitStatus.ok
        }
        for plan in plans {
            switch plan {
            case .say(let tool, let text):
                console.print("\(tool.rawValue): \(shown(text))")
            case .run(let tool, let program, let arguments, let variables, let command):
                console.print("\(tool.rawValue): \(shown(command))")
                // On Perch's terminal, in the foreground: the login asks and opens what it needs.
                let ended = TerminalCommand.run(
                    "exec \"$@\"", arguments: [program] + arguments,
                    variables: variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
                if let failure = ended.failure {
                    console.error("\(tool.rawValue): \(shown(command)) \(failure)")
                    return ended.shellStatus
                }
            }
        }
        return ExitStatus.ok
    }
}
