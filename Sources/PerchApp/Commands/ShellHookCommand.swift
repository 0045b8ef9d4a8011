import PerchDomain
import PerchIdentities
import PerchStore

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

extension CommandLineTool {
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
