import PerchCore
import PerchStore

/// The registry of tool adapters, in the order a switch lists the tools. A new tool is its
/// adapter's file, one line here, and its tests.
public enum ToolAdapters {
    public static let registry: [any ToolAdapter] = [
        GitAdapter(),
        SSHAdapter(),
        KubeAdapter(),
        GcloudAdapter(),
        GitHubAdapter(),
        AWSAdapter(),
        DockerAdapter(),
        EnvAdapter(),
    ]

    /// Makes the registry the tools the config reader knows (``ToolConfigRegistry``); call
    /// once at start-up, before a config is read.
    public static func install() {
        // Element by element: each adapter is a config reader by inheritance, known here. Passed
        // as the array, `[any ToolAdapter]` is cast to `[any ToolConfigReader]` at run time, a
        // conformance look-up per element among every conformance the binary holds (2 M
        // instructions at every start).
        let readers: [any ToolConfigReader] = registry.map { $0 }
        ToolConfigRegistry.install(readers)
    }

    /// The adapter of `tool`, or nil.
    public static func adapter(for tool: IdentityTool) -> (any ToolAdapter)? {
        registry.first { $0.tool == tool }
    }
}
