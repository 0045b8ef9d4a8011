import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch exec ID -- COMMAND [ARGS…]`: a command run as an account, nothing global changed.
struct ExecCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "exec", summary: "run a command as an account; nothing global changes", operands: [.account], trailingCommand: true)
    static let details: String =
        "Runs COMMAND with the account's whole identity given to it and its children only:\n"
        + "git's author (GIT_CONFIG_COUNT entries), git's ssh key (GIT_SSH_COMMAND), a\n"
        + "kubeconfig of Perch's first in KUBECONFIG, CLOUDSDK_ACTIVE_CONFIG_NAME, AWS_PROFILE,\n"
        + "DOCKER_CONTEXT, gh's token (GH_TOKEN, from gh auth token), the account's env values,\n"
        + "PERCH_ACCOUNT and PERCH_SCOPE=exec. Nothing global changes. Perch then becomes\n"
        + "COMMAND (execve): its exit status, signals and standard streams are COMMAND's.\n"
        + "Exit status 1 for an unknown account, 3 when a tool's part cannot be made (nothing\n"
        + "is run; --keep-going runs it without that tool's), 126 when COMMAND cannot be run,\n"
        + "127 when it is not found.\n\n"
        + "--agent is for a coding agent: git's author and committer fixed (GIT_AUTHOR_*,\n"
        + "GIT_COMMITTER_*; the account must name git's name and email), your global git\n"
        + "config read through a copy of Perch's (git config --global inside writes there),\n"
        + "signing only as the account says, and every tool the account names nothing for\n"
        + "closed (empty configs of Perch's) instead of left on your own. It fails closed: a\n"
        + "tool that cannot be given the account, a missing ssh key or an ended session\n"
        + "refuses COMMAND (exit status 3) whatever --keep-going says. --json prints, on\n"
        + "stderr before COMMAND starts, one line saying what each tool was given (no secret)."
    var files = FileOptions()
    /// `--keep-going`: run it without a tool whose part cannot be made.
    @Option(SharedOption.keepGoingScope) var keepGoing = false
    /// `--agent`: the command is an agent's (``AgentScope``).
    @Option(
        .flag(
            "--agent",
            help: "a coding agent's command: git's author fixed, every tool not named closed, refused if a credential is missing"))
    var agent = false
    /// `--json`: with `--agent`, the identities given, as one line of JSON on stderr.
    @Option(.flag("--json", help: "with --agent: one line of JSON on stderr saying what each tool was given")) var json = false
    /// The account as given.
    var account: String?
    /// The command to run, program first.
    var commandArguments: [String] = []

    mutating func bind(operands: [String]) { account = operands.first }
    mutating func bind(trailing: [String]) { commandArguments = trailing }

    func validate() throws(UsageError) {
        if commandArguments.isEmpty {
            throw UsageError(description: "'perch exec' needs a command to run: perch exec ID -- COMMAND [ARGS…]")
        }
        if commandArguments.first?.isEmpty == true {
            throw UsageError(description: "'perch exec': the command's name is empty")
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 {
        tool.with(switching: SwitchSettings(keepGoing: keepGoing)).execAccount(self)
    }
}

extension CommandLineTool {
    // MARK: perch exec

    /// Runs the command as the account: its scope's environment, then execve(2), so that the
    /// command's exit status, signals and standard streams are its own and no process of
    /// Perch's waits for it. Returns only when the command could not be started.
    func execAccount(_ options: ExecCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let id = options.account, let account = lookupAccount(id, in: config, command: "exec") else { return ExitStatus.unmet }
        let arguments = options.commandArguments
        var variables: [String: String]
        let agent = options.agent || account.identities.agent
        if options.json, !agent {
            console.error("'perch exec --json' says what an agent was given: use it with --agent (or \"agent\": true on the account)")
            return ExitStatus.usage
        }
        if agent {
            // An agent fails closed, whatever --keep-going says; the tools its account names
            // nothing for are closed, not sealed on your own, so only the named ones are scoped.
            let context = switcher(config).context
            let named = ToolAdapters.registry.filter { account.identities[$0.tool] != nil }
            let scoped = IdentityScope.scoped(account, kind: .exec, over: processVariables, in: context, adapters: named)
            switch AgentScope.give(scoped, account: account, in: context) {
            case .failure(let refusal):
                for reason in refusal.reasons { console.error("exec --agent: \(shown(reason))") }
                console.error(
                    "exec --agent: \(shown(arguments[0])) was not started: an agent never runs without its own credentials (--keep-going does not change that)"
                )
                return ExitStatus.toolFailed
            case .success(let given):
                variables = given.variables
                if options.json { console.note(given.record) }
            }
        } else {
            guard let scoped = scope(account, kind: .exec, config: config, command: "exec") else { return ExitStatus.toolFailed }
            variables = scoped.variablesWithSecrets
        }
        if let parameters = processVariables["GIT_CONFIG_PARAMETERS"], !parameters.isEmpty, account.identities[.git] != nil {
            console.error(
                "exec: GIT_CONFIG_PARAMETERS (git -c) in this environment would beat the account's git identity; its values are put after it"
            )
        }
        let environment = IdentityEnvironment(variables: variables)
        guard let program = environment.which(arguments[0]) else {
            let what = arguments[0].contains("/") ? "cannot be run (not found or not executable)" : "command not found"
            console.error("exec: \(shown(arguments[0])): \(what)")
            return access(arguments[0], F_OK) == 0 ? 126 : 127
        }
        let code = ProcessSpawn.replaceProcess(with: program, arguments: arguments, environment: variables)
        console.error("exec: \(shown(arguments[0])): \(String(cString: strerror(code)))")
        return code == ENOENT ? 127 : 126
    }
}
