import PerchDomain
import PerchIdentities
import PerchStore

/// `perch unbind ACCOUNT [PATH]`: what `perch bind` added for PATH taken off the account again.
struct UnbindCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "unbind", summary: "take off an account what perch bind added for PATH",
        operands: [Operand(name: "ACCOUNT", completion: .account), Operand(name: "PATH", optional: true, completion: .file)])
    static let details: String =
        "Takes off ACCOUNT exactly what perch bind would add for the repository at PATH (the\n"
        + "folder you stand in by default): its remote pattern, or with --folder its folder.\n"
        + "A broader pattern that also matches (github.com/acme/*) is left as it is. Exit 1\n"
        + "when the account does not list it."
    var files = FileOptions()
    var account = ""
    /// PATH; nil for the folder you stand in.
    var path: String?
    /// `--folder`.
    @Option(BindOption.folder) var folder = false

    mutating func bind(operands: [String]) {
        account = operands[0]
        path = operands.count > 1 ? operands[1] : nil
    }
    func run(_ tool: CommandLineTool) -> Int32 { tool.unbindPlace(self) }
}

extension CommandLineTool {
    /// `perch unbind`: takes off the account exactly what `perch bind` would add for PATH. Exit
    /// 1 when the account does not list it (naming the pattern that binds it, if another does).
    func unbindPlace(_ options: UnbindCommand) -> Int32 {
        guard let (_, account, target, _, _) = bindTarget(options.account, options.path, folder: options.folder, command: "unbind")
        else { return ExitStatus.unmet }
        let what = describe(target)
        guard let edit = RepositoryBinding.unbinding(target, from: account) else {
            console.error(shown("unbind: \(account.id) does not list \(what)"))
            return ExitStatus.unmet
        }
        do {
            let outcome = try ConfigWriter.apply(edit, to: paths.config)
            console.print(shown("Unbound \(what) from \(account.id) in ") + shownPath(outcome.path) + backupNote(outcome) + ".")
        } catch {
            console.error("unbind: cannot write the config: \(error)")
            return ExitStatus.unmet
        }
        if let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
        return ExitStatus.ok
    }
}
