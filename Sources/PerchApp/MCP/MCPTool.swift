import PerchStore

/// One tool `perch mcp` offers (MCP's `tools/list` and `tools/call`): its name, what it does,
/// the parameters of its input schema, and what calling it gives. Every tool here only reads.
struct MCPTool: Sendable {
    /// A parameter of the tool's input: its JSON type and what it means.
    struct Parameter: Sendable {
        /// The JSON types a parameter can take.
        enum Kind: String, Sendable {
            case boolean, string
        }

        var name: String
        var kind: Kind
        var description: String
    }

    /// The tool's name (`whoami`).
    var name: String
    /// A human-readable name (MCP 2025-06-18's `title`).
    var title: String
    /// What it does, for the model that chooses it.
    var description: String
    /// Its parameters, all optional; any other argument is refused.
    var parameters: [Parameter] = []
    /// Whether it reaches beyond this machine (MCP's `openWorldHint`).
    var reachesServers = false
    /// What a call with these (checked) arguments gives.
    var call: @Sendable (MCPArguments) -> MCPToolResult

    /// The input schema (JSON Schema, an object with these properties and no other), one line.
    var inputSchema: String {
        let properties = parameters.map { parameter in
            ConfigWriter.json(parameter.name) + ":{\"type\":\"\(parameter.kind.rawValue)\",\"description\":"
                + ConfigWriter.json(parameter.description) + "}"
        }
        return "{\"type\":\"object\",\"properties\":{" + properties.joined(separator: ",") + "},\"additionalProperties\":false}"
    }

    /// Its entry in `tools/list`'s result, one line of JSON.
    var listing: String {
        "{\"name\":\(ConfigWriter.json(name)),\"title\":\(ConfigWriter.json(title)),\"description\":\(ConfigWriter.json(description)),"
            + "\"inputSchema\":\(inputSchema),\"annotations\":{\"title\":\(ConfigWriter.json(title)),\"readOnlyHint\":true,"
            + "\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":\(reachesServers)}}"
    }
}

/// The arguments of a `tools/call`, checked against the tool's parameters.
struct MCPArguments: Sendable, Equatable {
    var booleans: [String: Bool] = [:]
    var strings: [String: String] = [:]
}

/// What a tool call gives: one JSON text for the model (MCP's `content`, one text item) and the
/// same value as `structuredContent` where the revision has it, or an error the model can read
/// (`isError: true`).
struct MCPToolResult: Sendable, Equatable {
    /// The JSON text of the result, one line; for an error, its message.
    var text: String
    /// Whether the call failed (the tool ran and could not answer).
    var isError: Bool

    /// A result: `json` is one line of JSON (an object), written by the project's own writers.
    static func value(_ json: String) -> MCPToolResult { MCPToolResult(text: json, isError: false) }

    /// A failure, said in `message`.
    static func failure(_ message: String) -> MCPToolResult { MCPToolResult(text: message, isError: true) }
}
