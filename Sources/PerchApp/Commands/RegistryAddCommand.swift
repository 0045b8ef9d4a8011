import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch registry add NAME URL`: a team's accounts from a git repository.
struct RegistryAddCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry add", summary: "add a registry: accounts shared from a git repository, shown before they are added",
        operands: [Operand(name: "NAME"), Operand(name: "URL")])
    static let details: String =
        "A registry is a git repository holding perch-registry.json: accounts in the shape of\n"
        + "accounts.json, shared by a team (docs/registries.md). add and update show, account by\n"
        + "account and field by field, what would change and apply only on yes (or --yes); the\n"
        + "commit used is recorded and moves only on update. A fetch that fails changes nothing\n"
        + "and exits 1; update applies every registry or none. Code (onSwitch, catalog commands,\n"
        + "env a shell acts on) stays inert until perch registry trust NAME, for that code only:\n"
        + "a commit that changes it needs trust again, and --yes never grants it. Your own\n"
        + "accounts.json wins field by field: an entry with a registry account's id names only\n"
        + "what it overrides. Two registries that set a field differently are a conflict (exit 1).\n"
        + "Registry files live beside the state file; your own files are never rewritten."
    var files = FileOptions()
    var name = ""
    var url = ""
    @Option(RegistryOption.ref) var ref: String? = nil
    @Option(RegistryOption.path) var path: String? = nil
    @Option(RegistryOption.allowedSigners) var allowedSigners: String? = nil
    /// `--signing-key`.
    @Option(RegistryOption.signingKey) var signingKey: String? = nil
    @Option(each: RegistryOption.set) var values: [String: String] = [:]
    @Option(RegistryOption.timeout) var timeout = 60
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) {
        name = operands[0]
        url = operands[1]
    }

    func validate() throws(UsageError) {
        guard RegistryRecord.isValidName(name) else {
            throw UsageError(
                description:
                    "a registry's name is made of a–z, 0–9, '.', '_', '-' (not first), and starts neither tools- nor accounts-, not '\(PerchApp.visibleControls(name))'"
            )
        }
        guard !url.isEmpty, !url.hasPrefix("-"), url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            throw UsageError(description: "URL must be a URL or path git can fetch, not '\(PerchApp.visibleControls(url))'")
        }
        if allowedSigners != nil, signingKey != nil {
            throw UsageError(description: "use either --allowed-signers (ssh keys) or --signing-key (an OpenPGP key), not both")
        }
        // The URL is kept in Perch's files and shown by list, update and status: never a secret.
        if Self.holdsSecret(url) {
            throw UsageError(
                description:
                    "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            )
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).registryAdd(self) }

    /// Whether `url` carries a secret: a password in its user part (`user:password@`, also
    /// percent-encoded), a user part that looks like a token (`ghp_…@`, scp-like `TOKEN@host:`
    /// too), or a query whose parameter names a secret or whose value looks like one.
    static func holdsSecret(_ url: String) -> Bool {
        func decoded(_ text: Substring) -> String { text.percentDecoded }
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let authority = url.contains("://") ? afterScheme.prefix { $0 != "/" && $0 != "?" } : afterScheme.prefix { $0 != ":" && $0 != "/" }
        if let at = authority.lastIndex(of: "@") {
            let user = decoded(authority[..<at])
            if user.contains(":") || EnvironmentEntry.looksLikeSecret(user) { return true }
        }
        // A query, a fragment and path parameters (`;token=…`) are read alike.
        if let question = url.firstIndex(where: { $0 == "?" || $0 == "#" || $0 == ";" }) {
            for pair in url[url.index(after: question)...].split(whereSeparator: { $0 == "&" || $0 == ";" || $0 == "#" || $0 == "?" }) {
                let parts = pair.split(separator: "=", maxSplits: 1)
                let name = decoded(parts[0])
                let value = parts.count > 1 ? decoded(parts[1]) : ""
                if EnvironmentEntry.isSecretName(name) || EnvironmentEntry.looksLikeSecret(value) { return true }
            }
        }
        return false
    }
}

extension CommandLineTool {
    func registryAdd(_ options: RegistryAddCommand) -> Int32 {
        let command = "registry add"
        guard var index = registryIndex(command), var definitions = acceptedDefinitions(index, command: command) else {
            return ExitStatus.unmet
        }
        if index.record(options.name) != nil {
            console.error(
                "registry add: there is a registry \(options.name) already; perch registry update \(options.name) fetches it again")
            return ExitStatus.unmet
        }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        let signers = options.allowedSigners.map { path -> String in
            let expanded = environment.expandingTilde(path)
            return expanded.hasPrefix("/") ? expanded : ShellMarker.workingDirectory() + "/" + expanded
        }
        if let signers, access(signers, R_OK) != 0 {
            console.error("registry add: cannot read the allowed signers file \(shownPath(signers))")
            return ExitStatus.usage
        }
        let repository = registryPaths.repository(options.name)
        let fetched: RegistryFetch.Fetched
        do {
            fetched = try RegistryFetch.fetch(
                url: options.url, ref: options.ref, path: options.path, repository: repository, allowedSigners: signers,
                environment: environment, openPGPKey: options.signingKey, timeout: Int64(options.timeout) * 1000)
        } catch {
            RegistryStore.removeTree(repository)
            rmdir(registryPaths.folder)  // only when it is empty: a first add that failed leaves nothing
            console.error("registry add: \(options.name) (\(shown(options.url))): \(shown(error.description))")
            console.error("Nothing changed.")
            return ExitStatus.unmet
        }
        var values = options.values
        var status = ExitStatus.ok
        guard let found = readDefinitions(fetched, name: options.name, values: &values, command: command, status: &status) else {
            RegistryStore.removeTree(repository)
            return status
        }
        var record = RegistryRecord(
            name: options.name, url: options.url, ref: options.ref, path: options.path, commit: fetched.commit,
            fetched: CurrentAccountCache.realTimeNanoseconds() / 1_000_000_000, values: values)
        record.allowedSigners = signers
        record.signingKey = options.signingKey
        let order = index.registries.map { ($0.name, definitions[$0.name]!) } + [(record.name, found)]
        let conflicts = RegistryStore.conflicts(order, overridden: ownEntryFields())
        if !conflicts.isEmpty {
            for conflict in conflicts { console.error("registry add: conflict: \(shown(conflict.description))") }
            console.error(
                "Nothing changed: registries may not disagree; ask one of them to drop the field, or set it in your own accounts.json.")
            RegistryStore.removeTree(repository)
            return ExitStatus.unmet
        }
        if let refused = ownAccountCollision(
            Set(found.accounts.map(\.id)), known: index, definitions: definitions, registry: record.name, command: command)
        {
            RegistryStore.removeTree(repository)
            return refused
        }
        printChanges(RegistryDefinitions.changes(from: nil, to: found), record: record, from: nil)
        if let note = codeNote(found, record: record) { console.print(note) }
        guard consent("perch registry add", would: "add the \(found.accounts.count) accounts of registry \(options.name)") else {
            RegistryStore.removeTree(repository)
            return ExitStatus.unmet
        }
        let read = index
        index.registries.append(record)
        definitions[record.name] = found
        guard commitRegistries(index, definitions, replacing: read, command: "registry add", failure: "nothing changed") else {
            return ExitStatus.unmet
        }
        console.print(
            "Added registry \(options.name) at \(record.shortCommit): \(found.accounts.count) accounts, listed under \(options.name).")
        return ExitStatus.ok
    }
}
