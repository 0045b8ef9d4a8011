import PerchDomain
import PerchIdentities
import PerchStore

/// `perch bind ACCOUNT [PATH]`: the repository at PATH bound to the account, by its remote or its folder.
struct BindCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "bind", summary: "bind the repository here (or at PATH) to an account by its remote, or --folder",
        operands: [Operand(name: "ACCOUNT", completion: .account), Operand(name: "PATH", optional: true, completion: .file)])
    static let details: String =
        "Binds the repository you stand in (or the one at PATH) to ACCOUNT by its remote:\n"
        + "the narrowest pattern of its first remote (origin first), HOST/OWNER/REPO, with an\n"
        + "ssh host alias named by the host it resolves to; git then uses the account in every\n"
        + "clone of it, wherever it is (after perch setup git). --folder binds the\n"
        + "repository's folder instead (or, outside a repository, the folder itself). Shows\n"
        + "what it binds and asks on a terminal; --yes agrees for scripts. The config is\n"
        + "written through the config writer (comments kept, the previous file as .bak)\n"
        + "and git's rules follow at once. perch unbind ACCOUNT [PATH] undoes it.\n"
        + "Exit 1: not a repository, no remote, another account binds it, no consent."
    var files = FileOptions()
    var account = ""
    /// PATH; nil for the folder you stand in.
    var path: String?
    /// `--folder`.
    @Option(BindOption.folder) var folder = false
    /// `--yes`: consent given here.
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) {
        account = operands[0]
        path = operands.count > 1 ? operands[1] : nil
    }
    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).bindPlace(self) }
}

extension CommandLineTool {
    /// `perch bind`: shows what it binds and asks on a terminal (`--yes` for scripts), then adds
    /// it to the account through the config writer (comments kept, a `.bak` left) and brings
    /// git's rules up to date at once. Exit 1 when it cannot (no repository, no remote, another
    /// account binds it already, no consent); 0 when it is bound already.
    func bindPlace(_ options: BindCommand) -> Int32 {
        guard
            let (config, account, target, environment, place) = bindTarget(
                options.account, options.path, folder: options.folder, command: "bind")
        else { return ExitStatus.unmet }
        let what = describe(target)
        if let other = RepositoryBinding.holder(of: target, in: config.accounts, besides: account.id) {
            console.error(shown("bind: \(what) is bound to \(other.id) already; perch unbind \(other.id) first"))
            return ExitStatus.unmet
        }
        guard let edit = RepositoryBinding.binding(target, to: account) else {
            console.print(shown("Nothing to do: \(what) is bound to \(account.id) already."))
            return ExitStatus.ok
        }
        guard consent("perch bind", would: shown("bind \(what) to \(account.id) (\(account.name))")) else { return ExitStatus.unmet }
        do {
            let outcome = try ConfigWriter.apply(edit, to: paths.config)
            console.print(shown("Bound \(what) to \(account.id) in ") + shownPath(outcome.path) + backupNote(outcome) + ".")
        } catch {
            console.error("bind: cannot write the config: \(error)")
            return ExitStatus.unmet
        }
        if let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
        let included = GitDirectoryRules.isIncluded(in: ToolContext(environment: environment))
        if included == false {
            console.note("git follows it after perch setup git (once); the shell hook already does.")
        } else if included == true, let email = account.identities[.git]?.value(as: GitAdapter.Setting.self)?.email,
            RepositoryBinding.topLevel(place, in: environment) != nil,
            let used = RepositoryBinding.authorEmail(place, in: environment), used.lowercased() != email.lowercased()
        {
            // What git itself uses here: a rule of the user's own (an includeIf read after Perch's) or the repository's config wins.
            console.note(
                shown(
                    "git here still uses <\(used)>, not \(account.id)'s <\(email)>: a setting of your own wins here (perch verify \(account.id) names it)"
                ))
        }
        console.note(
            shown("perch unbind \(account.id)\(options.folder ? " --folder" : "")\(options.path.map { " " + $0 } ?? "") undoes it."))
        return ExitStatus.ok
    }
}
