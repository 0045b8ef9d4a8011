import Glibc
import PerchCore
import PerchIdentities
import PerchStore

/// `perch guard install|--undo`, and the checks its hooks run.
struct GuardCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "guard", summary: "refuse a commit or push as the wrong account (install; --undo removes it)",
        operands: [
            // check-commit and check-push REMOTE URL are what the hooks run.
            Operand(name: "install", optional: true, needs: "install (or --undo)"),
            Operand(name: "REMOTE", optional: true, hidden: true), Operand(name: "URL", optional: true, hidden: true),
        ])
    static var details: String { CommandDetails.guardHooks }
    static let options: [CommandOption<Self>] = fileOptions + [CommandOption(SharedOption.undo) { $0.undo = $1 }]

    var files = FileOptions()
    /// `--undo`: remove the guard.
    var undo = false
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
        switch options.action {
        case "install": return guardInstall()
        case "check-commit": return guardCheck(push: nil)
        case "check-push":
            guard options.operands.count >= 3 else {
                console.error("'perch guard check-push' needs the remote's name and URL, as git's pre-push hook gives them")
                return ExitStatus.usage
            }
            return guardCheck(push: options.operands[2])
        default:
            console.error("'perch guard' needs install (or --undo)")
            console.note(Help.usage(of: GuardCommand.self))
            return ExitStatus.usage
        }
    }

    func guardInstall() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard config.path != nil else {
            console.error("the embedded sample accounts name no git identity: perch init writes a config first")
            return ExitStatus.unmet
        }
        let switcher = switcher(config)
        let program = Self.executablePath() ?? "perch"
        let outcome = GitGuard.install(program: program, in: switcher.context) { () throws(FileError) in
            try GitDirectoryRules.write(config.accounts, in: switcher.context)
        }
        switch outcome {
        case .changed(let message), .unchanged(let message):
            console.print(message)
            return ExitStatus.ok
        case .failed(let message):
            console.error(message)
            return ExitStatus.unmet
        }
    }

    /// What a hook runs: nothing printed when the commit or push is the owner's, else the
    /// refusal on stderr and exit 3. Anything that keeps it from telling (no config, no
    /// account) lets the commit through with a note: the guard never blocks work it cannot judge.
    func guardCheck(push url: String?) -> Int32 {
        guard let config = try? ConfigLoader.load(paths), config.path != nil else { return ExitStatus.ok }
        let state = try? StateStore(path: paths.state).peek(accountIDs: Set(config.accounts.map(\.id))).state
        let switcher = switcher(config)
        let variables = processVariables
        let folder = ShellMarker.workingDirectory()
        var owner = PlaceOwner.find(
            in: config.accounts, global: state?.currentAccount, environment: variables, folder: folder,
            home: switcher.context.environment.home)
        // A push goes to the remote's owner, whatever folder it is made from.
        if let url, owner == nil || owner?.reason == .global, let byRemote = RemotePattern.owner(of: [url], in: config.accounts) {
            owner = PlaceOwner(account: byRemote.account, reason: .remote(byRemote.pattern))
        }
        guard let owner, let account = config.accounts.first(where: { $0.id == owner.account }) else { return ExitStatus.ok }
        var context = switcher.context
        context.environment = IdentityEnvironment(
            variables: variables, statePath: context.environment.statePath, ownFilesBesideState: context.environment.ownFilesBesideState)
        context.timeout = 5000
        let proof = ProofContext(tool: context, folder: folder, account: account)
        let refusal =
            url.map { GitGuard.checkPush(url: $0, owner: owner, account: account, in: proof) }
            ?? GitGuard.checkCommit(owner: owner, account: account, in: proof)
        guard let refusal else { return ExitStatus.ok }
        console.note(refusal.split(separator: "\n").map { PerchApp.visibleControls(String($0)) }.joined(separator: "\n"))
        return ExitStatus.disagrees
    }

    /// This program's own path (`/proc/self/exe`), for the hooks to call it by.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
