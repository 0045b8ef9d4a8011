import PerchIdentities

/// Every list of tools that help, the man page and the completions give, made from the adapter
/// registry (``PerchIdentities/ToolAdapters/registry``), so a new adapter appears in all of them.
enum ToolLists {
    /// The adapters the lists are made from: the registry as it is now, or the ones a test gives
    /// for the task it runs in (``given``).
    static var adapters: [any ToolAdapter] { given ?? ToolAdapters.registry }

    /// Adapters a test gives for the task it runs in (`ToolLists.$given.withValue(…)`), without
    /// touching any other test's; nil for the registry. (A task-local's default is read once:
    /// the registry as it was at the first read, before `ToolAdapters.install` when a test reads
    /// it first, would have been kept.)
    @TaskLocal static var given: [any ToolAdapter]?

    /// The tools' names in registry order, for prose: `git, ssh, kube, …, env`.
    static var toolNames: String { adapters.map(\.tool.rawValue).joined(separator: ", ") }

    /// The names of the tools described as data, in registry order: those `perch tools show`
    /// prints a description of.
    static var describedNames: [String] { adapters.filter { $0 is DescribedToolAdapter }.map(\.tool.rawValue) }

    /// The tools' paths `perch set` takes, as help writes them (`env.NAME` for any variable).
    static var toolPaths: [String] { adapters.flatMap(\.fieldPaths) }

    /// The account's own keys `perch set` takes before the tools' (``toolPaths``).
    static let accountPaths = ["name", "handle", "group", "color", "onSwitch"]

    /// The paths `perch set` takes, as its help and its hint after an unknown key list them.
    /// Bug: it left out `remotes`, `expect.*` and `catalog.open`/`preview`, which set accepts.
    static var settablePaths: [String] { accountPaths + catalogPaths + toolPaths + ownerPaths }

    /// The catalog's keys `perch set` takes.
    static let catalogPaths = ["catalog.command", "catalog.preview", "catalog.open"]

    /// The keys that name a repository's owner and the tools' expected answers.
    static var ownerPaths: [String] { ["remotes"] + adapters.filter(\.acceptsExpectation).map { "expect." + $0.tool.rawValue } }

    /// The field paths `perch set ID PATH` and `perch unset ID PATH` complete: the account's
    /// own keys, its catalog's, the tools' (`env.` for a variable's), and the keys that name
    /// tools' owners and expected answers.
    static var setPaths: [String] { accountPaths + catalogPaths + toolPaths.map(completed) + ownerPaths }

    /// The fields `perch current --field` is often asked for, offered by completion; any key of
    /// an account is accepted, dotted for a tool's (``PerchStore/ConfigLoader/accountKeys``).
    static var currentFields: [String] {
        ["id", "name", "handle", "group", "color"] + toolPaths.filter { !isPattern($0) }
            + ["kube.expires", "aws.expires"]
            + adapters.compactMap { ($0 as? DescribedToolAdapter)?.description.expiry != nil ? "\($0.tool.rawValue).expires" : nil }
            + ["switching"]
    }

    /// `env.NAME` as completion offers it: `env.`, to be followed by a name.
    private static func completed(_ path: String) -> String {
        guard isPattern(path), let dot = path.lastIndex(of: ".") else { return path }
        return String(path[...dot])
    }

    /// Whether the last word of `path` stands for any key (`NAME`).
    private static func isPattern(_ path: String) -> Bool {
        let last = path.split(separator: ".").last ?? ""
        return !last.isEmpty && last.allSatisfy { $0.isUppercase }
    }
}
