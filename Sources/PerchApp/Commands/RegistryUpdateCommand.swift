import PerchIdentities
import PerchStore

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

extension CommandLineTool {
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
}
