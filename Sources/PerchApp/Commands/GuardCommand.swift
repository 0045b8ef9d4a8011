import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch guard install|--undo`, and the checks its hooks run.
struct GuardCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "guard", summary: "refuse a commit or push as the wrong account (install, status, check; --undo)",
        operands: [
            // check-refs and check-push REMOTE URL are what the hooks run.
            Operand(name: "ACTION", optional: true, needs: "install, status or check (or --undo)"),
            Operand(name: "REMOTE", optional: true, hidden: true), Operand(name: "URL", optional: true, hidden: true),
        ])
    static let details: String =
        "install makes git's global core.hooksPath Perch's own hooks folder (through Perch's\n"
        + "git include: run perch setup git first). Every commit that would enter a branch or\n"
        + "HEAD (commit, merge, pull, revert, cherry-pick, rebase, am, amend, update-ref) is\n"
        + "checked by git's reference-transaction hook before any ref moves: its committer, and\n"
        + "its author unless it is someone else's kept author, must be the account owning the\n"
        + "repository (its perch exec or perch use account, a bound folder's, a remote's, else\n"
        + "the global one). Before each push, the credentials (the key ssh -G resolves, the\n"
        + "user git credential fill names) and each commit the remote does not have. Each\n"
        + "refusal names the commit or key, why, the fix and what to run after it, and exits 3.\n"
        + "When the guard cannot tell (a config that does not load, Perch gone from the path\n"
        + "recorded at install and from PATH, git failing) it refuses too. PERCH_GUARD=off\n"
        + "before a git command skips it once (--no-verify does not skip reference-transaction).\n"
        + "The repository's own hooks (.git/hooks), a core.hooksPath set before, and hooks\n"
        + "another program wrote into the guard's folder still run after the check.\n"
        + "status says whether each of the guard's hooks runs in the repository here and why\n"
        + "not (a local core.hooksPath such as husky's, a replaced hook): exit 0, 3 where it does\n"
        + "not run, 1 when not installed. check is the pre-commit check for a hook manager's\n"
        + "config (husky, lefthook, the pre-commit framework); check-refs and check-push REMOTE\n"
        + "URL are what the hooks run. --undo removes Perch's files only."
    var files = FileOptions()
    /// `--undo`: remove the guard.
    @Option(SharedOption.guardUndo) var undo = false
    /// `--strict`, with install.
    @Option(
        .flag(
            "--strict",
            help: "with install: refuse too a commit your own includeIf rule makes as someone else where an account owns the place"))
    var strict = false
    /// The operands as given: the action (`install`, `check-commit`, `check-push`), then a
    /// push's remote and URL.
    var operands: [String] = []
    /// The action; nil when none was given.
    var action: String? { operands.first }

    mutating func bind(operands: [String]) { self.operands = operands }
    func run(_ tool: CommandLineTool) -> Int32 { tool.guardCommand(self) }
}

/// `perch guard install|--undo` and the checks its hooks run (`perch guard check-commit`,
/// `perch guard check-push REMOTE URL`): see ``GitGuard``.
extension CommandLineTool {
    func guardCommand(_ options: GuardCommand) -> Int32 {
        if options.undo {
            guard let config = loadConfig() else { return ExitStatus.usage }
            let switcher = switcher(config)
            let removed = GitGuard.remove(in: switcher.context)
            refreshGitDirectoryRules(config)
            console.print(
                removed
                    ? "the guard is removed: git runs each repository's own hooks again" : "the guard was not installed: nothing to remove")
            return ExitStatus.ok
        }
        if options.strict, options.action != "install" {
            console.error("'perch guard --strict' goes with install: perch guard install --strict")
            return ExitStatus.usage
        }
        switch options.action {
        case "install": return guardInstall(strict: options.strict)
        case "status": return guardStatus()
        // `check` is the pre-commit check a hook manager calls (husky, lefthook, the pre-commit
        // framework); check-commit is its older name, kept for hooks written before.
        case "check", "check-commit": return guardCheck(.commit)
        case "check-refs":
            // Most ref updates (a fetch, a tag, a deletion) give no branch or HEAD a new value:
            // done before the config is read.
            let updates = GitGuard.RefUpdate.parse(Self.standardInput())
            guard !updates.isEmpty else { return ExitStatus.ok }
            // A new branch where a commit already is brings no new commit: one git, no config.
            guard let commits = GitGuard.newCommits(updates, environment: .current(), folder: ShellMarker.workingDirectory()) else {
                console.note(
                    "perch guard: cannot check this commit: git rev-list could not list the new commits; \(GitGuard.skip("git commit"))")
                return ExitStatus.usage
            }
            guard !commits.isEmpty else { return ExitStatus.ok }
            return guardCheck(.refs(commits))
        case "check-push":
            guard options.operands.count >= 3 else {
                console.error("'perch guard check-push' needs the remote's name and URL, as git's pre-push hook gives them")
                return ExitStatus.usage
            }
            return guardCheck(.push(remote: options.operands[1], url: options.operands[2], input: Self.standardInput()))
        default:
            console.error("'perch guard' needs install, status or check (or --undo)")
            console.note(Help.usage(of: GuardCommand.self))
            return ExitStatus.usage
        }
    }

    /// All of standard input (the lines a hook is given), or empty on a terminal.
    static func standardInput() -> String {
        guard isatty(STDIN_FILENO) == 0 else { return "" }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `perch guard status`: whether each of the guard's hooks runs in the repository here, and
    /// if not why (exit 0 when they do, 3 when they do not here, 1 when it is not installed).
    func guardStatus() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let switcher = switcher(config)
        let report = GitGuard.report(in: switcher.context, folder: ShellMarker.workingDirectory())
        for line in report.lines { console.print(PerchApp.visibleControls(line)) }
        switch report.state {
        case .runs: return ExitStatus.ok
        case .notInstalled: return ExitStatus.unmet
        case .bypassed: return ExitStatus.disagrees
        }
    }

    func guardInstall(strict: Bool = false) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard !config.isSamples else {
            console.error("the embedded sample accounts name no git identity: perch init writes a config first")
            return ExitStatus.unmet
        }
        let switcher = switcher(config)
        let program = FileSystem.executablePath() ?? "perch"
        let outcome = GitGuard.install(program: program, strict: strict, in: switcher.context) { () throws(FileError) in
            try GitDirectoryRules.write(config.accounts, in: switcher.context)
        }
        switch outcome {
        case .changed(let message), .unchanged(let message):
            console.print(message)
            for line in GitGuard.report(in: switcher.context, folder: ShellMarker.workingDirectory()).managerNotes {
                console.print(PerchApp.visibleControls(line))
            }
            return ExitStatus.ok
        case .failed(let message):
            console.error(message)
            return ExitStatus.unmet
        }
    }

    /// What a hook asks of the guard.
    enum GuardCheck {
        /// The commit about to be made (`perch guard check`, for a hook manager's pre-commit).
        case commit
        /// The new commits reference-transaction's ref updates bring.
        case refs([GitGuard.Commit])
        /// pre-push's remote, URL and input.
        case push(remote: String, url: String, input: String)
    }

    /// What a hook runs: nothing printed when the commits or push are the owner's, else the
    /// refusal on stderr and exit 3. When it cannot tell (the config does not load, git fails
    /// or times out) it refuses too, with one line that says why and how past (fail closed):
    /// exit 2. No owner, or an owner naming no git identity, lets everything through.
    func guardCheck(_ check: GuardCheck) -> Int32 {
        let command: String
        switch check {
        case .commit, .refs: command = "git commit"
        case .push: command = "git push"
        }
        func cannot(_ why: String) -> Int32 {
            console.note("perch guard: cannot check this \(command == "git push" ? "push" : "commit"): \(why); \(GitGuard.skip(command))")
            return ExitStatus.usage
        }
        let config: LoadedConfig
        do {
            config = try ConfigLoader.load(paths)
        } catch {
            return cannot(
                "the config does not load (\(PerchApp.visibleControls(error.lines.first ?? "\(error)"))): fix it with perch config edit")
        }
        guard !config.isSamples else {
            return cannot("there is no config at \(paths.config) (perch init writes one; perch guard --undo removes the guard)")
        }
        let state = try? StateStore(path: paths.state).peek(accountIDs: Set(config.accounts.map(\.id))).state
        let switcher = switcher(config)
        let variables = processVariables
        let folder = ShellMarker.workingDirectory()
        var owner = PlaceOwner.find(
            in: config.accounts, global: state?.currentAccount, environment: variables, folder: folder,
            home: switcher.context.environment.home, aliases: SSHAliases.load(switcher.files)?.aliases ?? [:])
        // A push goes to the remote's owner, whatever folder it is made from.
        if case .push(_, let url, _) = check, owner == nil || owner?.reason == .global,
            let byRemote = RemotePattern.owner(of: [url], in: config.accounts, aliases: SSHAliases.load(switcher.files)?.aliases ?? [:])
        {
            owner = PlaceOwner(account: byRemote.account, reason: .remote(byRemote.pattern))
        }
        guard let owner, let account = config.accounts.first(where: { $0.id == owner.account }) else { return ExitStatus.ok }
        var context = switcher.context
        context.environment = IdentityEnvironment(
            variables: variables, statePath: context.environment.statePath, ownFilesBesideState: context.environment.ownFilesBesideState)
        context.timeout = 5000
        let proof = ProofContext(tool: context, folder: folder, account: account)
        let judge = GitGuard.Judge(owner: owner, account: account, accounts: config.accounts)
        var refusals: [String] = []
        switch check {
        case .commit:
            if let refusal = GitGuard.checkCommit(owner: owner, account: account, in: proof) { refusals.append(refusal) }
        case .refs(let commits):
            switch GitGuard.checkRefs(commits, judge: judge, in: proof) {
            case .allowed: break
            case .refused(let text): refusals.append(text)
            case .failure(let why): return cannot(why)
            }
        case .push(let remote, let url, let input):
            if let refusal = GitGuard.checkPush(url: url, owner: owner, account: account, in: proof) { refusals.append(refusal) }
            switch GitGuard.checkPushedCommits(input, remote: remote, judge: judge, in: proof) {
            case .allowed: break
            case .refused(let text): refusals.append(text)
            case .failure(let why): return cannot(why)
            }
        }
        guard !refusals.isEmpty else { return ExitStatus.ok }
        let text = refusals.joined()
        console.note(text.split(separator: "\n").map { PerchApp.visibleControls(String($0)) }.joined(separator: "\n"))
        return ExitStatus.disagrees
    }
}
