import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch import`: accounts proposed from the tools' own settings, one per person.
struct ImportCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "import", summary: "propose accounts from git, ssh, kube, gcloud, gh and AWS, one per person")
    static let details: String =
        "Looks at git identities (the global config and its includeIf files), ssh keys\n"
        + "(~/.ssh/*.pub and the Host blocks of ~/.ssh/config), kube contexts, gcloud\n"
        + "configurations, gh hosts and users, and AWS profiles. What belongs to one person\n"
        + "becomes one account: the same whole address first (an ssh key whose comment is a git\n"
        + "email), then a word shared across tools (kube work-prod, gcloud work, aws work-admin\n"
        + "and git ada@work.example make an account work). Identities an account already names\n"
        + "are left out; what belongs with them is proposed as an addition to that account.\n"
        + "--scan DIR also proposes \"directories\" (a folder whose clones are all one account's)\n"
        + "and \"remotes\" from the git clones under DIR. --json prints the proposals for scripts\n"
        + "({id, name, handle, group, identities, directories, remotes, adds}). On a terminal it\n"
        + "shows each proposal and asks: y adds it, n skips it, i and e edit its id or name (an\n"
        + "id of yours adds to that account), q stops. --write adds them all without asking;\n"
        + "elsewhere it prints them as a config fragment and changes nothing. Accounts are added\n"
        + "through the config writer (the previous file kept as .bak); with no config of your\n"
        + "own, the new file holds only the imported accounts."
    var files = FileOptions()
    /// `--write`.
    @Option(.flag("--write", help: "add the proposed accounts to the config (keeping a .bak)")) var write = false
    /// `--json`: print the proposals as JSON, change nothing.
    @Option(SharedOption.json) var json = false
    /// `--scan DIR`, each folder given.
    @Option(
        each: OptionDefinition<String>(
            info: OptionInfo(
                names: ["--scan"], valueName: "DIR", help: "also propose folders and remotes from the git clones under DIR (repeatable)",
                completion: .file),
            parse: { value throws(UsageError) in
                guard !value.isEmpty else { throw UsageError(description: "option --scan needs a folder") }
                return value
            })) var scan: [String] = []

    func validate() throws(UsageError) {
        if json, write { throw UsageError(description: "options --json and --write cannot be used together") }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.importAccounts(self) }
}

extension CommandLineTool {
    // MARK: perch import

    /// `perch import`: on a terminal (standard input and output) the proposals are reviewed one
    /// by one (``reviewImport(_:existing:)``) and those accepted are added; with `--write` all are
    /// added without asking; with `--json` they are printed as JSON; otherwise the fragment is
    /// printed and nothing changes. A proposal whose id is an account of the config adds to it
    /// the tools it does not name yet. Adding goes through ``ConfigWriter`` in one write
    /// (comments kept, a `.bak` left); with no config of the user's own, the new file holds only
    /// the imported accounts, never the samples.
    func importAccounts(_ options: ImportCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        let existing = config.path == nil ? [] : config.accounts
        var proposals = IdentityImport.propose(environment, existing: existing)
        if !options.scan.isEmpty {
            var folders: [String] = []
            for folder in options.scan {
                let path = environment.expandingTilde(folder)
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    console.error(shown("--scan \(folder): not a folder"))
                    return ExitStatus.unmet
                }
                // Resolved, so that bound folders are written without `.`, `..` or a doubled `/`.
                guard let resolved = realpath(path, nil) else { return ExitStatus.unmet }
                folders.append(String(cString: resolved))
                free(resolved)
            }
            let scan = RepositoryScan.scan(folders, in: environment)
            for note in scan.notes { console.note(shown(note)) }
            proposals = RepositoryScan.bind(scan.repositories, under: folders, to: proposals, existing: existing, in: environment)
        }
        if options.json {
            let ids = Set(existing.map(\.id))
            return printJSON(proposals.map { ImportProposalJSON($0, adds: ids.contains($0.id)) })
        }
        if proposals.isEmpty {
            console.print("Found no identities to import (git, ssh, kube, gcloud, gh, AWS).")
            return ExitStatus.ok
        }
        let accepted: [Account]
        if !options.write, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            accepted = reviewImport(proposals, existing: existing)
            guard !accepted.isEmpty else {
                console.print("Nothing changed.")
                return ExitStatus.ok
            }
        } else {
            // Line by line: the fragment's line breaks are its own; what a line holds is shown safe.
            for line in IdentityImport.fragment(proposals, existing: existing).split(separator: "\n") { console.print(shown(String(line))) }
            guard options.write else {
                let ids = Set(existing.map(\.id))
                let adding = proposals.filter { ids.contains($0.id) }.map(\.id)
                let count = proposals.count - adding.count
                let what =
                    (count > 0 ? ["adds these \(count) account\(count == 1 ? "" : "s")"] : [])
                    + (adding.isEmpty ? [] : ["adds to " + adding.joined(separator: ", ")])
                console.note(
                    shown("Nothing changed; `perch import --write` " + what.joined(separator: " and ") + (adding.isEmpty ? " to " : " in "))
                        + shownPath(paths.config) + ".")
                return ExitStatus.ok
            }
            accepted = proposals
        }
        let ids = Set(existing.map(\.id))
        let additions = accepted.filter { ids.contains($0.id) }
        let new = accepted.filter { !ids.contains($0.id) }
        let edits = additions.flatMap { addition in
            existing.first { $0.id == addition.id }.map { IdentityImport.edits(adding: addition, to: $0) } ?? []
        }
        guard !edits.isEmpty || !new.isEmpty else {
            console.print("Nothing changed: the accounts name all of it already.")
            return ExitStatus.ok
        }
        do {
            // With nothing added to an account of the config there may be no file yet: a new one holds the new accounts.
            let outcome =
                edits.isEmpty
                ? try ConfigWriter.append(contentsOf: new, to: paths.config, samples: [])
                : try ConfigWriter.apply(edits, appending: new, to: paths.config, samples: [])
            let kept = outcome.backupPath.map { " (previous file kept as \(shownPath($0)))." } ?? "."
            if !new.isEmpty { console.note("Added \(new.count) account\(new.count == 1 ? "" : "s") to \(shownPath(outcome.path))" + kept) }
            for addition in additions {
                let what =
                    addition.identities.tools.map(\.rawValue) + (addition.identities.directories.isEmpty ? [] : ["directories"])
                    + (addition.identities.remotes.isEmpty ? [] : ["remotes"])
                console.note(shown("Added \(what.joined(separator: ", ")) to \(addition.id) in ") + shownPath(outcome.path) + kept)
            }
        } catch {
            console.error("cannot add the accounts to the config: \(error)")
            return ExitStatus.unmet
        }
        return ExitStatus.ok
    }

    /// Shows each proposal with its tool identities and asks: `y` or Enter accepts it, `n` (or
    /// `s`) declines it, `i` and `e` edit its id or name (checked as the config checks them), `q`
    /// or end of input stops the review. An id of an account of `existing` is accepted as a
    /// target: the proposal then adds to that account the tools it does not name yet (those
    /// it names stay as they are). Returns the accepted accounts, edited, in order: additions
    /// keep the existing account's id and hold only what they add.
    func reviewImport(_ proposals: [Account], existing: [Account]) -> [Account] {
        var taken = Set<String>()  // ids of new accounts accepted in this review
        var accepted: [Account] = []
        let existingByID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        /// What `account` adds to the existing account of its id, after the additions accepted before.
        func addition(_ account: Account) -> Account? {
            guard let target = existingByID[account.id] else { return nil }
            let named = Set(target.identities.tools + accepted.filter { $0.id == account.id }.flatMap(\.identities.tools))
            var result = account
            result.name = target.name
            result.handle = target.handle
            result.group = nil
            result.identities.settings = account.identities.settings.filter { !named.contains($0.tool) }
            result.identities.directories = account.identities.directories.filter { !target.identities.directories.contains($0) }
            result.identities.remotes = account.identities.remotes.filter { !target.identities.remotes.contains($0) }
            return result
        }
        console.print(
            "Perch found \(proposals.count) account\(proposals.count == 1 ? "" : "s") to propose. For each: y adds it, n skips it, i and e edit its id or name (an id of yours adds to that account), q stops."
        )
        review: for (index, proposal) in proposals.enumerated() {
            var account = proposal
            while true {
                console.print("")
                let adds = addition(account)
                let title =
                    adds != nil
                    ? "\(index + 1) of \(proposals.count): adds to \(account.id)  \(adds!.name)"
                    : "\(index + 1) of \(proposals.count): \(account.id)  \(account.name)" + (account.handle.map { "  \($0)" } ?? "")
                console.print(shown(title))
                let settings = account.identities.settings
                let width = settings.map(\.tool.rawValue.count).max() ?? 0
                for setting in settings {
                    let tool = setting.tool.rawValue
                    let kept = adds.map { !$0.identities.tools.contains(setting.tool) } ?? false
                    console.print(
                        shown(
                            "  \(tool)" + String(repeating: " ", count: width - tool.count) + "  \(setting.summary)"
                                + (kept ? "  (left out: \(account.id) names its own)" : "")))
                }
                for folder in account.identities.directories { console.print(shown("  folder  \(folder)")) }
                for remote in account.identities.remotes { console.print(shown("  remote  \(remote)")) }
                console.write("Add it? [Y/n/i/e/q] ")
                guard let answer = readLine()?.trimmingSpaces.lowercased() else { break review }
                switch answer {
                case "", "y", "yes":
                    if let adds {
                        if adds.identities.isEmpty {
                            console.print(shown("\(account.id) already names all of these; edit the id (i) or skip (s)."))
                            continue
                        }
                        accepted.append(adds)
                        continue review
                    }
                    if taken.contains(account.id) {
                        console.print("The id \(account.id) is already taken; edit it (i) or skip (s).")
                        continue
                    }
                    taken.insert(account.id)
                    accepted.append(account)
                    continue review
                case "i":
                    console.write("Id [\(account.id)]: ")
                    guard let id = readLine()?.trimmingSpaces else { break review }
                    if id.isEmpty { continue }
                    if let problem = AccountValidation.idProblem(id) ?? (taken.contains(id) ? .duplicateID(id) : nil) {
                        console.print(shown("id: \(problem.message)"))
                    } else {
                        account.id = id
                    }
                case "e":
                    // Bug: this was `n`, so whoever typed n to decline got a name prompt.
                    console.write("Name [\(account.name)]: ")
                    guard let name = readLine()?.trimmingSpaces else { break review }
                    if name.isEmpty { continue }
                    if let problem = AccountValidation.nameProblem(name) {
                        console.print("name: \(problem.message)")
                    } else {
                        account.name = name
                    }
                case "n", "no", "s", "skip": continue review
                case "q", "quit": break review
                default: console.print("Answer y, n, i, e or q.")
                }
            }
        }
        console.print("")
        return accepted
    }
}

/// One proposal of `perch import --json`: the account as the config would hold it (`id`,
/// `name`, `handle`, `group`, `identities` keyed by tool as the config writes them,
/// `directories`, `remotes`), and `adds`: true when `id` is an account of the config, which
/// the proposal adds to (only what it does not name yet is added).
struct ImportProposalJSON: Encodable {
    var account: Account
    var adds: Bool

    init(_ account: Account, adds: Bool) {
        self.account = account
        self.adds = adds
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, handle, group, identities, directories, remotes, adds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account.id, forKey: .id)
        try container.encode(account.name, forKey: .name)
        try container.encode(account.handle, forKey: .handle)
        try container.encode(account.group, forKey: .group)
        var only = account
        only.identities.directories = []
        only.identities.remotes = []
        try container.encode(EncodableJSON(AccountFields.identities(only)), forKey: .identities)
        try container.encode(account.identities.directories, forKey: .directories)
        try container.encode(account.identities.remotes, forKey: .remotes)
        try container.encode(adds, forKey: .adds)
    }
}
