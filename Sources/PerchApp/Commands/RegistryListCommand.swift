import PerchStore

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

extension CommandLineTool {
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
