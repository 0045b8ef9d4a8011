import PerchDomain
import PerchStore
import Synchronization

/// The registry of tool adapters, in the order a switch lists the tools: the built-in ones
/// (``builtIn``), then the tools described as data (``ToolDescriptions``). A new built-in tool
/// is its adapter's file, one line in ``builtIn``, and its tests; a tool of the shape "one
/// variable names its account folder" needs no Swift at all (docs/tools.md).
public enum ToolAdapters {
    /// The tools Perch has built in.
    public static let builtIn: [any ToolAdapter] = [
        GitAdapter(),
        SSHAdapter(),
        KubeAdapter(),
        GcloudAdapter(),
        GitHubAdapter(),
        AWSAdapter(),
        DockerAdapter(),
        EnvAdapter(),
    ]

    private static let installed = Mutex<Installed>(.ready(builtIn, []))

    /// The registry, or where its descriptions are read from on first use.
    private enum Installed {
        case ready([any ToolAdapter], [String])
        case later(folder: String?, home: String?, statePath: String?)
    }

    /// The registry and the descriptions' problems, loaded now if they were installed for later.
    private static func resolved() -> ([any ToolAdapter], [String]) {
        installed.withLock { state in
            switch state {
            case .ready(let adapters, let problems): return (adapters, problems)
            case .later(let folder, let home, let statePath):
                let home = home ?? DescribedToolAdapter.home
                // A trusted registry's descriptions, when there is a registry (docs/registries.md).
                let registries = statePath.flatMap { RegistryStore.trustedToolsFolder(statePath: $0) }
                let loaded = ToolDescriptions.load(
                    folder: folder ?? ToolDescriptions.folder(), home: home, builtIn: builtIn.map(\.tool.rawValue),
                    registries: registries.map { [$0] } ?? [])
                let made = (builtIn + loaded.adapters.map { $0 as any ToolAdapter }, loaded.problems)
                state = .ready(made.0, made.1)
                return made
            }
        }
    }

    /// Every tool this run knows: ``builtIn``, then those ``install(descriptionsIn:home:)``
    /// loads (until then the built-in ones only).
    public static var registry: [any ToolAdapter] { resolved().0 }

    /// Why a tool description was not used, one line each (``ToolDescriptions/Loaded/problems``):
    /// every command that reads the config stops with them.
    public static var descriptionProblems: [String] { resolved().1 }

    /// Makes the registry the built-in tools and the described ones (shipped, and the user's in
    /// `folder`, by default ``ToolDescriptions/folder(lookup:)``), and the config reader's tools
    /// the same (``ToolConfigRegistry``); call once at start-up, before a config is read. The
    /// descriptions are read the first time a tool is asked for, so a run that needs none
    /// (`perch --version`, `perch current` from its cache, the first frame) never reads them.
    /// - Parameter statePath: the state file, beside which the registries' trusted descriptions
    ///   are (``RegistryStore/trustedToolsFolder(statePath:)``); nil for none.
    public static func install(descriptionsIn folder: String? = nil, home: String? = nil, statePath: String? = nil) {
        installed.withLock { $0 = .later(folder: folder, home: home, statePath: statePath) }
        ToolConfigRegistry.install(later: {
            let (adapters, problems) = resolved()
            // Element by element: each adapter is a config reader by inheritance, known here.
            // Passed as the array, `[any ToolAdapter]` is cast to `[any ToolConfigReader]` at run
            // time, a conformance look-up per element among every conformance the binary holds
            // (2 M instructions at every start).
            let readers: [any ToolConfigReader] = adapters.map { $0 }
            return (readers, problems)
        })
    }

    /// ``install(descriptionsIn:home:)`` without the user's own descriptions: the built-in tools
    /// and the shipped ones only (for tests, which never read the real home).
    public static func installShipped() {
        let loaded = ToolDescriptions.load(folder: "", home: "/", builtIn: builtIn.map(\.tool.rawValue))
        install(builtIn + loaded.adapters.map { $0 as any ToolAdapter }, problems: loaded.problems)
    }

    /// Makes `adapters` the registry (for tests: the built-in ones and some described).
    public static func install(_ adapters: [any ToolAdapter], problems: [String] = []) {
        installed.withLock { $0 = .ready(adapters, problems) }
        // Element by element: each adapter is a config reader by inheritance, known here. Passed
        // as the array, `[any ToolAdapter]` is cast to `[any ToolConfigReader]` at run time, a
        // conformance look-up per element among every conformance the binary holds (2 M
        // instructions at every start).
        let readers: [any ToolConfigReader] = adapters.map { $0 }
        ToolConfigRegistry.install(readers, problems: problems)
    }

    /// The adapter of `tool`, or nil.
    public static func adapter(for tool: IdentityTool) -> (any ToolAdapter)? {
        registry.first { $0.tool == tool }
    }

    /// The adapters a question about `tool` concerns: that tool's alone (a built-in one without
    /// reading any description), or every tool of the registry when `tool` is nil.
    static func adapters(for tool: IdentityTool?) -> [any ToolAdapter] {
        guard let tool else { return registry }
        if let builtIn = builtIn.first(where: { $0.tool == tool }) { return [builtIn] }
        return registry.filter { $0.tool == tool }
    }

    /// The described tools of the registry.
    public static var described: [DescribedToolAdapter] { registry.compactMap { $0 as? DescribedToolAdapter } }
}
