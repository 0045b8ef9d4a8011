import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
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

/// `perch shell-hook SHELL [PID]`: what shell-init's prompt hook runs when something changed.
struct ShellHookCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "shell-hook", summary: "what shell-init's prompt hook runs when the state or config changed",
        operands: [.shell, Operand(name: "PID", optional: true)])
    static let details: String =
        "Prints the shell text that brings this shell up to date: the scope it is pinned to,\n"
        + "the account of the bound folder it is in, or the global account; then touches\n"
        + "this shell's marker (PID) so the prompt hook starts no process until the state\n"
        + "or the config changes again. shell-init's hook runs it; not meant to be typed."
    var files = FileOptions()
    /// The shell as given (bash, zsh or fish: checked by the parser).
    var shell: String?
    /// The operands as given.
    var operands: [String] = []
    /// The shell's process id, whose marker is touched; nil when not given.
    var pid: Int32? { operands.count > 1 ? Int32(operands[1]) : nil }

    mutating func bind(operands: [String]) {
        self.operands = operands
        shell = operands.first
    }

    func validate() throws(UsageError) {
        if operands.count > 1, Int32(operands[1]).map({ $0 > 0 }) != true {
            throw UsageError(description: "'perch shell-hook': the shell's process id must be a number, not '\(operands[1])'")
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.shellHook(self) }
}

/// Scopes: `perch exec ID -- COMMAND`, `perch use ID|--global` and `perch shell-hook`, which
/// give one process or one shell an account of its own through variables only
/// (``IdentityScope``), nothing global changed.
extension CommandLineTool {
    /// The process's variables.
    var processVariables: [String: String] { IdentityEnvironment.current().variables }

    /// `account`'s scope over this process's environment, with the tools' failures said on
    /// stderr; nil when one failed and `--keep-going` was not given.
    func scope(_ account: Account, kind: ScopeKind, config: LoadedConfig, command: String, keepGoing: Bool? = nil) -> ScopedEnvironment? {
        let switcher = switcher(config)
        // The embedded samples name variables only: no program is started for them.
        let adapters = switcher.samplesOnly ? ToolAdapters.registry.filter(\.isPerShell) : ToolAdapters.registry
        let scoped = IdentityScope.scoped(account, kind: kind, over: processVariables, in: switcher.context, adapters: adapters)
        for failure in scoped.failures {
            console.error("\(command): \(failure.tool.rawValue): \(failure.why)")
        }
        if !scoped.failures.isEmpty, !(keepGoing ?? switching.keepGoing) {
            console.error(
                "\(command): nothing was changed (--keep-going goes on without \(scoped.failures.map(\.tool.rawValue).joined(separator: ", ")))"
            )
            return nil
        }
        return scoped
    }

    /// Brings git's rules for the config's bound folders up to date (``GitDirectoryRules``);
    /// said on stderr when they cannot be written. Nothing for the embedded samples.
    func refreshGitDirectoryRules(_ config: LoadedConfig) {
        guard !config.isSamples else { return }
        let switcher = switcher(config)
        let hasRules = config.accounts.contains { !$0.identities.directories.isEmpty || !$0.identities.remotes.isEmpty }
        guard hasRules || access(switcher.files.gitDirectories, F_OK) == 0 || access(switcher.files.gitGuard, F_OK) == 0 else { return }
        do {
            try GitDirectoryRules.write(config.accounts, in: switcher.context)
        } catch {
            console.error("cannot write git's rules for the bound folders: \(error)")
        }
    }

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

    // MARK: perch shell-hook

    /// What shell-init's prompt hook evaluates when the state or config changed (or the shell
    /// entered or left a bound folder): the text that brings this shell to its scope's account,
    /// the bound folder's, or the global one; the bound folders for the hook to match, and the
    /// variables it watches (``ShellMarker/held(_:shell:)``); then the shell's marker is touched
    /// (``ShellMarker``).
    func shellHook(_ options: ShellHookCommand) -> Int32 {
        guard let shell = options.shell.flatMap(ShellKind.init(rawValue:)) else { return ExitStatus.usage }
        let files = switcher(nil).files
        let marker = options.pid.map { ShellMarker(folder: files.shells, pid: $0) }
        // Touched whatever happens below, so a broken config is said once, not at every prompt.
        defer { marker?.touch(after: [paths.state, paths.config]) }
        guard let config = loadConfig() else { return ExitStatus.usage }
        // The config may have changed: git's folder rules follow it too.
        refreshGitDirectoryRules(config)
        let variables = processVariables
        let home = IdentityEnvironment(variables: variables).home
        let rules = DirectoryRules.rules(config.accounts, home: home)
        var text = ShellMarker.folderList(rules.map(\.folder), shell: shell)
        // The hook also watches which repository it is in when a folder or a remote can bind one:
        // git decides a bound folder by the repository's git folder (a worktree, a symlink).
        let watchesRepositories = config.accounts.contains { !$0.identities.remotes.isEmpty || !$0.identities.directories.isEmpty }
        text += ShellMarker.remotesFlag(watchesRepositories, shell: shell)
        let kind = IdentityScope.kind(variables)
        let own = variables[ShellExports.accountVariable].flatMap { id in config.accounts.first { $0.id == id } }
        var target: ScopedEnvironment?
        if kind == .pinned || kind == .exec {
            if let own {
                target = scope(own, kind: kind!, config: config, command: "this shell", keepGoing: true)
            } else {
                console.error(
                    "this shell's account '\(shown(variables[ShellExports.accountVariable] ?? ""))' is no longer in the config; it follows the global account again"
                )
            }
        } else if let place = PlaceOwner.find(
            in: config.accounts, global: nil, environment: [:], folder: variables["PWD"] ?? ShellMarker.workingDirectory(), home: home,
            aliases: SSHAliases.load(switcher(config).files)?.aliases ?? [:]),
            let account = config.accounts.first(where: { $0.id == place.account })
        {
            // A bound folder, else a repository's remote (the same rule git's includes follow).
            target = scope(account, kind: .directory, config: config, command: "this shell", keepGoing: true)
            if target != nil, kind != .directory || own?.id != account.id, variables["PERCH_DIRECTORY_NOTICE"] != "0" {
                let place: String =
                    switch place.reason {
                    case .directory(let written): shown(written)
                    case .remote(let pattern): "remote \(shown(pattern))"
                    default: place.description
                    }
                console.error("\(place): this shell is \(shown(account.id)) (\(shown(account.name))) here")
            }
        }
        if target == nil {
            let state = loadState(config)
            let global = state?.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
            if kind == .directory, variables["PERCH_DIRECTORY_NOTICE"] != "0" {
                console.error("left the bound folder: this shell follows the global account" + (global.map { ", \(shown($0.id))" } ?? ""))
            }
            target = IdentityScope.following(global, over: variables)
        }
        text += IdentityScope.script(from: variables, to: target!, shell: shell)
        text += ShellMarker.held(target!.held, shell: shell)
        text += ShellMarker.place(
            pwd: variables["PWD"] ?? ShellMarker.workingDirectory(), folders: rules.map(\.folder), repositories: watchesRepositories,
            scope: target!.kind, shell: shell)
        console.write(text)
        return ExitStatus.ok
    }
}
