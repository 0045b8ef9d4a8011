import PerchDomain
import PerchStore

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

extension CommandLineTool {
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
}
