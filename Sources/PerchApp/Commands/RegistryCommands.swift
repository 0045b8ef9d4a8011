import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// The options the `registry` commands share.
enum RegistryOption {
    /// `--ref REF`: the branch, tag or commit to fetch.
    static let ref = OptionDefinition<String>(
        info: OptionInfo(names: ["--ref"], valueName: "REF", help: "the branch, tag or commit to use (default: the default branch)"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isValidRef(value) else {
                throw UsageError(description: "option --ref needs a branch, tag or commit name, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
    /// `--path DIR`: the folder of the repository holding the registry file.
    static let path = OptionDefinition<String>(
        info: OptionInfo(names: ["--path"], valueName: "DIR", help: "the folder in the repository that holds perch-registry.json"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isValidPath(value) else {
                throw UsageError(
                    description: "option --path needs a relative folder without . or .. parts, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
    /// `--allowed-signers FILE`: require signed commits.
    static let allowedSigners = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--allowed-signers"], valueName: "FILE",
            help: "use only commits signed by a key of FILE (ssh-keygen's allowed signers; git verify-commit)", completion: .file),
        parse: { value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "option --allowed-signers needs a file") }
            return value
        })
    /// `--signing-key FINGERPRINT`: require commits signed by that OpenPGP key.
    static let signingKey = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--signing-key"], valueName: "FINGERPRINT",
            help: "use only commits signed by this OpenPGP key of your keyring (its 40-hex fingerprint; git verify-commit)"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isFingerprint(value) else {
                throw UsageError(
                    description:
                        "option --signing-key needs an OpenPGP key's fingerprint (40 hex digits), not '\(PerchApp.visibleControls(value))'")
            }
            return value.uppercased()
        })
    /// `--set NAME=VALUE`: a value the registry asks each member for.
    static let set = OptionDefinition<(String, String)>(
        info: OptionInfo(names: ["--set"], valueName: "NAME=VALUE", help: "answer a value the registry asks for (repeatable)"),
        parse: { value throws(UsageError) in
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex, value.index(after: equals) != value.endIndex else {
                throw UsageError(description: "option --set needs NAME=VALUE, not '\(PerchApp.visibleControls(value))'")
            }
            let answer = String(value[value.index(after: equals)...])
            guard answer.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw UsageError(description: "option --set: a value may not hold control characters")
            }
            return (String(value[..<equals]), answer)
        })
    /// `--timeout SECONDS`: how long a fetch may take.
    static let timeout = OptionDefinition<Int>.number(
        OptionInfo(names: ["--timeout"], valueName: "SECONDS", help: "how long git may take to fetch (default 60)"), in: 1...3600,
        unit: "seconds")
    /// `--commit COMMIT` of `registry trust`.
    static let commit = OptionDefinition<String>(
        info: OptionInfo(names: ["--commit"], valueName: "COMMIT", help: "trust the code of exactly this commit (without asking)"),
        parse: { value throws(UsageError) in
            guard value.utf8.count >= 7, value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
                throw UsageError(
                    description: "option --commit needs at least 7 hex digits of a commit, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
}

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

/// `perch registry update [NAME]`: every registry (or one) moved to its ref's newest commit.
struct RegistryUpdateCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry update", summary: "fetch the registries again and apply what changed, all or none, once agreed",
        operands: [Operand(name: "NAME", optional: true)])
    static var details: String { RegistryAddCommand.details }
    var files = FileOptions()
    var name: String?
    @Option(each: RegistryOption.set) var values: [String: String] = [:]
    @Option(RegistryOption.timeout) var timeout = 60
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) { name = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).registryUpdate(self) }
}

/// `perch registry list`: the registries, their commits and whether their code is trusted.
struct RegistryListCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry list", summary: "list the registries, the commit each is at and whether its code is trusted",
        recoversInterruptedSwitch: false)
    static var details: String { RegistryAddCommand.details }
    var files = FileOptions()
    @Option(SharedOption.json) var json = false
    func run(_ tool: CommandLineTool) -> Int32 { tool.registryList(self) }
}

/// `perch registry remove NAME`: a registry and its accounts gone (the user's files untouched).
struct RegistryRemoveCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry remove", summary: "remove a registry and the accounts it gave", operands: [Operand(name: "NAME")])
    static var details: String { RegistryAddCommand.details }
    var files = FileOptions()
    var name = ""
    @Option(SharedOption.yes) var yes = false
    mutating func bind(operands: [String]) { name = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).registryRemove(self) }
}

/// `perch registry trust NAME`: the registry's code shown, and run from now on once agreed.
struct RegistryTrustCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry trust", summary: "show a registry's code (onSwitch, commands) and let it run, for this commit only",
        operands: [Operand(name: "NAME")])
    static var details: String { RegistryAddCommand.details }
    var files = FileOptions()
    var name = ""
    @Option(RegistryOption.commit) var commit: String? = nil
    mutating func bind(operands: [String]) { name = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.registryTrust(self) }
}

extension CommandLineTool {
    var registryPaths: RegistryPaths { RegistryPaths(statePath: paths.state) }

    /// The index, or nil after saying why it cannot be read.
    private func registryIndex(_ command: String) -> RegistryIndex? {
        do {
            return try RegistryStore.readIndex(registryPaths)
        } catch {
            console.error("\(command): \(shown(error.description))")
            return nil
        }
    }

    /// The definitions of every record, or nil after saying which cannot be read.
    private func acceptedDefinitions(_ index: RegistryIndex, command: String) -> [String: RegistryDefinitions]? {
        var found: [String: RegistryDefinitions] = [:]
        for record in index.registries {
            do {
                found[record.name] = try RegistryStore.definitions(of: record, registryPaths)
            } catch {
                console.error(
                    "\(command): \(record.name): \(shown(error.description)); perch registry update \(record.name) fetches it again")
                return nil
            }
        }
        return found
    }

    /// Reads a fetched registry file, asking for the values it needs on a terminal; nil after
    /// saying why not (the exit status in `status`).
    private func readDefinitions(
        _ fetched: RegistryFetch.Fetched, name: String, values: inout [String: String], command: String, status: inout Int32
    ) -> RegistryDefinitions? {
        while true {
            do {
                let found = try RegistryDefinitions.read(fetched.bytes, filled: values)
                // Each tool description is checked as the user's own would be (docs/tools.md).
                var problems: [String] = []
                // Bug (hostile review): a registry's `npm` replaced the shipped description, and
                // one carrying the user's own tool's variable stopped every command once trusted.
                let taken = Set(ShippedToolDescriptions.all.map(\.name)).union(
                    FileSystem.names(in: ToolDescriptions.folder()).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
                for (index, tool) in found.tools.enumerated() where taken.contains(tool.name) {
                    problems.append(
                        "tools[\(index)]: \"\(tool.name)\" is a tool Perch ships or you describe; a registry may not replace it")
                }
                for (index, tool) in found.tools.enumerated() {
                    let (_, found) = ToolDescription.parse(
                        Array(tool.object.text.utf8), origin: tool.name + ".json", builtIn: ToolAdapters.builtIn.map(\.tool.rawValue))
                    problems += found.map { "tools[\(index)]: " + $0 }
                }
                if !problems.isEmpty { throw RegistryDefinitions.Problems(lines: problems) }
                return found
            } catch let missing as RegistryDefinitions.MissingValues {
                guard isatty(STDIN_FILENO) == 1 else {
                    let names = missing.values.map { "--set \($0.name)=…" }.joined(separator: " ")
                    console.error(
                        "perch \(command): registry \(name) asks each member for "
                            + missing.values.map { "\($0.name) (\(shown($0.prompt)))" }.joined(separator: ", ")
                            + "; run it again with \(names)")
                    status = ExitStatus.usage
                    return nil
                }
                for value in missing.values {
                    console.write(
                        "\(shown(name)) asks: \(shown(value.prompt))" + (value.example.map { " (e.g. \(shown($0)))" } ?? "") + ": ")
                    guard let answer = readLine(), !answer.isEmpty,
                        answer.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
                    else {
                        console.print("Nothing changed.")
                        status = ExitStatus.unmet
                        return nil
                    }
                    values[value.name] = answer
                }
            } catch let problems as RegistryDefinitions.Problems {
                for line in problems.lines {
                    console.error(
                        "\(command): registry \(name) at \(fetched.commit.prefix(7)): \(RegistryDefinitions.fileName): \(shown(line))")
                }
                console.error("Nothing changed: a registry file with problems is not used.")
                status = ExitStatus.unmet
                return nil
            } catch {
                status = ExitStatus.unmet
                return nil
            }
        }
    }

    /// Prints the changes of one registry.
    private func printChanges(_ changes: [RegistryChange], record: RegistryRecord, from old: String?) {
        let place = "\(record.ref ?? "default branch") at \(record.shortCommit)"
        console.print("Registry \(record.name) (\(shown(record.url)), \(old.map { "\(String($0.prefix(7))) → " } ?? "")\(place)):")
        if changes.isEmpty { console.print("  no account changes") }
        for change in changes {
            for line in change.lines { console.print(shown(line)) }
        }
    }

    /// Makes `index` the registries (``RegistryStore/commit(_:definitions:paths:statePath:replacing:)``);
    /// false after saying why not and that `failure` (`nothing changed`).
    private func commitRegistries(
        _ index: RegistryIndex, _ definitions: [String: RegistryDefinitions], replacing read: RegistryIndex, command: String,
        failure: String
    ) -> Bool {
        do {
            try RegistryStore.commit(index, definitions: definitions, paths: registryPaths, statePath: paths.state, replacing: read)
            return true
        } catch {
            console.error("\(command): \(shown(error.description)); \(failure)")
            return false
        }
    }

    /// The fields each entry of the user's `accounts.json` sets (dotted paths, by id): where
    /// the user's value wins, registries that disagree are no conflict.
    // Bug: a conflict was reported, with the advice to set the field in accounts.json, though
    // accounts.json already set it.
    private func ownEntryFields() -> [String: Set<String>] {
        guard let bytes = try? FileSystem.read(paths.config), let document = try? JSONReader.read(bytes, options: .jsonWithComments),
            let list = document.value(of: document.root, forKey: "accounts")
        else { return [:] }
        var fields: [String: Set<String>] = [:]
        for element in document.elements(list) {
            guard let id = document.value(of: element, forKey: "id").flatMap(document.string) else { continue }
            fields[id, default: []].formUnion(JSONValue(document, element).leaves(prefix: "").map(\.path).filter { $0 != "id" })
        }
        return fields
    }

    /// Refuses (the exit status, after saying why) a registry account whose id is one of the
    /// user's own accounts, one no registry had before: the registry would add its fields to
    /// an account the user made. An entry the user wrote over a registry's account (its id was
    /// a registry's already) is an override, as meant. Nil when there is no such id.
    // Bug (hostile review): a registry with an account `me` gave the user's own `me` its git
    // author, kube context and remotes, shown as "+ me (new account)".
    private func ownAccountCollision(
        _ ids: Set<String>, known index: RegistryIndex, definitions: [String: RegistryDefinitions], registry: String, command: String
    ) -> Int32? {
        let before = Set(index.registries.flatMap { definitions[$0.name]?.accounts.map(\.id) ?? [] })
        // An account of the user's own: its id is no registry's yet, and it has a name of its own.
        let own = ownEntryFields()
        let taken = ids.filter { !before.contains($0) && own[$0]?.contains("name") == true }.sorted()
        guard !taken.isEmpty else { return nil }
        console.error(
            "\(command): registry \(registry) has accounts with the ids of your own: " + taken.map(shown).joined(separator: ", ")
                + "; it would add its fields to them")
        console.error("Nothing changed. Rename yours (perch rename ID NEW), or ask the registry to rename its accounts.")
        return ExitStatus.unmet
    }

    /// What to say of the code of `definitions` when `record` does not trust it, or nil.
    private func codeNote(_ definitions: RegistryDefinitions, record: RegistryRecord) -> String? {
        guard !record.trusts(definitions) else { return nil }
        let ids = definitions.idsWithCode
        let tools = definitions.tools.count
        let whose = [
            ids.isEmpty ? nil : "\(ids.count) account\(ids.count == 1 ? "" : "s")",
            tools == 0 ? nil : "\(tools) tool description\(tools == 1 ? "" : "s")",
        ].compactMap { $0 }.joined(separator: " and ")
        return "Code (onSwitch, catalog commands, env variables, tool descriptions) of \(whose) stays inert: "
            + "a switch leaves it out until you review it with `perch registry trust \(record.name)`."
    }

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

    func registryUpdate(_ options: RegistryUpdateCommand) -> Int32 {
        let command = "registry update"
        guard var index = registryIndex(command), var definitions = acceptedDefinitions(index, command: command) else {
            return ExitStatus.unmet
        }
        if index.registries.isEmpty {
            console.print("No registries; perch registry add NAME URL adds one.")
            return ExitStatus.ok
        }
        if let name = options.name, index.record(name) == nil {
            console.error("registry update: no registry \(shown(name)); perch registry list shows them")
            return ExitStatus.unmet
        }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        var updated = index
        var newDefinitions = definitions
        var anyChange = false
        var reports: [(changes: [RegistryChange], record: RegistryRecord, old: String?, note: String?)] = []
        for (position, record) in index.registries.enumerated() where options.name == nil || record.name == options.name {
            let fetched: RegistryFetch.Fetched
            do {
                fetched = try RegistryFetch.fetch(
                    url: record.url, ref: record.ref, path: record.path, repository: registryPaths.repository(record.name),
                    allowedSigners: record.allowedSigners, environment: environment, openPGPKey: record.signingKey,
                    timeout: Int64(options.timeout) * 1000)
            } catch {
                console.error("registry update: \(record.name) (\(shown(record.url))): \(shown(error.description))")
                console.error(
                    "Nothing changed: every registry stays as it was (\(record.name) at \(record.shortCommit), fetched \(LocalTime.describe(seconds: record.fetched)))."
                )
                return ExitStatus.unmet
            }
            var values = record.values.merging(options.values) { _, given in given }
            var status = ExitStatus.ok
            guard let found = readDefinitions(fetched, name: record.name, values: &values, command: command, status: &status) else {
                console.error("Nothing changed: every registry stays as it was.")
                return status
            }
            // Bug (hostile review): a branch moved back, or rewritten, took the registry with it.
            let pinned = record.ref.map { $0.utf8.count == 40 || $0.utf8.count == 64 } ?? false
            if !pinned, fetched.commit != record.commit,
                !RegistryFetch.descends(
                    fetched.commit, from: record.commit, repository: registryPaths.repository(record.name), environment: environment)
            {
                console.error(
                    "registry update: \(record.name): \(fetched.commit.prefix(7)) does not descend from \(record.shortCommit), the commit in use "
                        + "(\(shown(record.ref ?? "the default branch")) was moved back or rewritten)")
                console.error(
                    "Nothing changed. To take it all the same, look at it, then: perch registry remove \(record.name), and add it again.")
                return ExitStatus.unmet
            }
            var next = record
            next.commit = fetched.commit
            next.values = values
            next.fetched = CurrentAccountCache.realTimeNanoseconds() / 1_000_000_000
            let changes = RegistryDefinitions.changes(from: definitions[record.name], to: found)
            if next.commit != record.commit || !changes.isEmpty || values != record.values { anyChange = true }
            updated.registries[position] = next
            newDefinitions[record.name] = found
            if next.commit != record.commit || !changes.isEmpty {
                reports.append((changes, next, record.commit == next.commit ? nil : record.commit, codeNote(found, record: next)))
            }
        }
        // Bug (hostile review): an update that dropped an account the user overrides left an
        // entry with no name in accounts.json, and every command stopped on it.
        let oldIDs = Set(index.registries.flatMap { definitions[$0.name]?.accounts.map(\.id) ?? [] })
        let newIDs = Set(updated.registries.flatMap { newDefinitions[$0.name]?.accounts.map(\.id) ?? [] })
        let orphaned = ownEntryFields().filter { !$0.value.contains("name") }.keys.filter { oldIDs.contains($0) && !newIDs.contains($0) }
            .sorted()
        if !orphaned.isEmpty {
            console.error(
                "\(command): the registries no longer have " + orphaned.map(shown).joined(separator: ", ")
                    + ", which your accounts.json overrides; take those entries out first (or give them a name to keep them as your own)")
            console.error("Nothing changed.")
            return ExitStatus.unmet
        }
        for record in updated.registries {
            let ids = Set(newDefinitions[record.name]!.accounts.map(\.id))
            if let refused = ownAccountCollision(ids, known: index, definitions: definitions, registry: record.name, command: command) {
                return refused
            }
        }
        let conflicts = RegistryStore.conflicts(
            updated.registries.map { ($0.name, newDefinitions[$0.name]!) }, overridden: ownEntryFields())
        if !conflicts.isEmpty {
            for conflict in conflicts { console.error("registry update: conflict: \(shown(conflict.description))") }
            console.error(
                "Nothing changed: registries may not disagree; ask one of them to drop the field, or set it in your own accounts.json.")
            return ExitStatus.unmet
        }
        guard anyChange else {
            for record in index.registries where options.name == nil || record.name == options.name {
                console.print("Registry \(record.name) is up to date at \(record.shortCommit) (\(shown(record.ref ?? "default branch"))).")
            }
            return ExitStatus.ok
        }
        for report in reports {
            printChanges(report.changes, record: report.record, from: report.old)
            if let note = report.note { console.print(note) }
        }
        let accountChanges = reports.reduce(0) { $0 + $1.changes.count }
        if accountChanges > 0 {
            guard
                consent("perch registry update", would: "apply these changes to \(accountChanges) account\(accountChanges == 1 ? "" : "s")")
            else {
                return ExitStatus.unmet
            }
        }
        let read = index
        index = updated
        definitions = newDefinitions
        guard commitRegistries(index, definitions, replacing: read, command: "registry update", failure: "nothing changed") else {
            return ExitStatus.unmet
        }
        console.print("Updated: " + reports.map { "\($0.record.name) at \($0.record.shortCommit)" }.joined(separator: ", ") + ".")
        return ExitStatus.ok
    }

    /// How a registry's code stands: `no code`, `trusted`, `code inert`.
    private func trustWord(_ record: RegistryRecord, _ definitions: RegistryDefinitions?) -> String {
        guard let definitions else { return "unreadable" }
        if definitions.codeText.isEmpty { return "no code" }
        return record.trusts(definitions) ? "code trusted" : "code inert"
    }

    func registryList(_ options: RegistryListCommand) -> Int32 {
        guard let index = registryIndex("registry list") else { return ExitStatus.unmet }
        let definitions = index.registries.map { try? RegistryStore.definitions(of: $0, registryPaths) }
        if options.json {
            return printJSON(
                zip(index.registries, definitions).map { record, found in
                    RegistryJSON(
                        name: record.name, url: record.url, ref: record.ref, path: record.path, commit: record.commit,
                        fetched: record.fetched,
                        accounts: found?.accounts.count ?? 0, code: trustWord(record, found),
                        signed: record.allowedSigners != nil || record.signingKey != nil)
                })
        }
        if index.registries.isEmpty {
            console.print("No registries; perch registry add NAME URL adds one.")
            return ExitStatus.ok
        }
        for (record, found) in zip(index.registries, definitions) {
            console.print(
                "\(record.name)  \(shown(record.url))  \(shown(record.ref ?? "default branch"))@\(record.shortCommit)  "
                    + "\(found?.accounts.count ?? 0) accounts  \(trustWord(record, found))"
                    + (record.allowedSigners == nil && record.signingKey == nil ? "" : "  signed commits only")
                    + "  fetched \(LocalTime.describe(seconds: record.fetched))")
        }
        return ExitStatus.ok
    }

    func registryRemove(_ options: RegistryRemoveCommand) -> Int32 {
        let command = "registry remove"
        guard var index = registryIndex(command) else { return ExitStatus.unmet }
        guard let record = index.record(options.name) else {
            console.error("registry remove: no registry \(shown(options.name)); perch registry list shows them")
            return ExitStatus.unmet
        }
        let read = index
        index.registries.removeAll { $0.name == record.name }
        guard let definitions = acceptedDefinitions(index, command: command) else { return ExitStatus.unmet }
        let removed = (try? RegistryStore.definitions(of: record, registryPaths))?.accounts.map(\.id) ?? []
        let count = removed.count
        // Bug (hostile review): removing the registry of the current account left its git author,
        // ssh key and folder rules applied, with no account current to give them back.
        let remaining = Set(definitions.values.flatMap { $0.accounts.map(\.id) })
        if let current = (try? StateStore(path: paths.state).peek())?.state.currentAccount, removed.contains(current),
            !remaining.contains(current)
        {
            console.error(
                "registry remove: \(shown(current)), the current account, comes from registry \(record.name); switch to another first (perch switch ID), then remove it"
            )
            return ExitStatus.unmet
        }
        let orphaned = ownEntryFields().filter { !$0.value.contains("name") }.keys.filter {
            removed.contains($0) && !remaining.contains($0)
        }
        .sorted()
        if !orphaned.isEmpty {
            console.error(
                "registry remove: your accounts.json overrides " + orphaned.map(shown).joined(separator: ", ")
                    + " of registry \(record.name); take those entries out first (or give them a name to keep them as your own)")
            return ExitStatus.unmet
        }
        guard
            consent(
                "perch registry remove", would: "remove registry \(record.name) and its \(count) accounts (your own files stay as they are)"
            )
        else { return ExitStatus.unmet }
        guard commitRegistries(index, definitions, replacing: read, command: "registry remove", failure: "nothing changed") else {
            return ExitStatus.unmet
        }
        console.print("Removed registry \(record.name) and its \(count) accounts.")
        return ExitStatus.ok
    }

    func registryTrust(_ options: RegistryTrustCommand) -> Int32 {
        let command = "registry trust"
        guard var index = registryIndex(command), let definitions = acceptedDefinitions(index, command: command) else {
            return ExitStatus.unmet
        }
        guard let position = index.registries.firstIndex(where: { $0.name == options.name }) else {
            console.error("registry trust: no registry \(shown(options.name)); perch registry list shows them")
            return ExitStatus.unmet
        }
        var record = index.registries[position]
        let found = definitions[record.name]!
        let code = found.codeText
        if code.isEmpty {
            console.print("Registry \(record.name) at \(record.shortCommit) holds no code: nothing to trust.")
            return ExitStatus.ok
        }
        if record.trusts(found) {
            console.print("The code of registry \(record.name) at \(record.shortCommit) is trusted already.")
            return ExitStatus.ok
        }
        console.print("Registry \(record.name) (\(shown(record.url))) at \(record.commit) asks to run, as you:")
        for line in found.codeLines { console.print("  " + shown(line)) }
        if let previous = record.trustedCommit {
            console.print("(You trusted its code at \(previous.prefix(7)); this differs.)")
        }
        if let given = options.commit {
            guard record.commit.hasPrefix(given) else {
                console.error("registry trust: \(record.name) is at \(record.commit), not \(given); nothing trusted")
                return ExitStatus.unmet
            }
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                console.error("registry trust: read the code above, then run it on a terminal, or with --commit \(record.commit)")
                return ExitStatus.unmet
            }
            console.write("Run this code, as you (tool descriptions: on every switch that names the tool)? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                console.print("Nothing trusted; the code stays inert.")
                return ExitStatus.unmet
            }
        }
        record.trustedCode = code
        record.trustedCommit = record.commit
        let read = index
        index.registries[position] = record
        guard commitRegistries(index, definitions, replacing: read, command: "registry trust", failure: "nothing trusted") else {
            return ExitStatus.unmet
        }
        console.print("Trusted the code of registry \(record.name) at \(record.shortCommit); a commit that changes it needs trust again.")
        return ExitStatus.ok
    }

    /// Where account `id` comes from, for `perch status` and a switch: each registry that
    /// defines it, its commit, and whether its code was left out; empty when it is only the
    /// user's. Reads nothing when there is no registry.
    func registryOrigins(of id: String) -> [(record: RegistryRecord, inert: Bool)] {
        let paths = registryPaths
        guard access(paths.index, F_OK) == 0, let index = try? RegistryStore.readIndex(paths) else { return [] }
        return index.registries.compactMap { record in
            guard let found = try? RegistryStore.definitions(of: record, paths), found.accounts.contains(where: { $0.id == id }) else {
                return nil
            }
            return (record, !record.trusts(found) && found.idsWithCode.contains(id))
        }
    }

    /// The lines a switch to `id` adds when a registry's code for it was left out.
    func registryInertNotes(for id: String) -> [String] {
        registryOrigins(of: id).filter(\.inert).map { origin in
            "\(id)'s code from registry \(origin.record.name) (onSwitch, catalog commands, env variables) was left out: "
                + "not trusted at \(origin.record.shortCommit); review it with perch registry trust \(origin.record.name)"
        }
    }
}

/// One registry in `perch registry list --json`.
struct RegistryJSON: Encodable {
    var name: String
    var url: String
    var ref: String?
    var path: String?
    var commit: String
    var fetched: Int64
    var accounts: Int
    /// `no code`, `code trusted`, `code inert`.
    var code: String
    var signed: Bool
}
