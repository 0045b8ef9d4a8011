import PerchStore

/// The Model Context Protocol's server side, as `perch mcp` speaks it: one JSON-RPC 2.0 message
/// in (a line of the stdio transport), at most one line out. Pure: no I/O, the tools are
/// injected (``MCPTool``), so tests give it lines and read the answers.
///
/// Follows JSON-RPC 2.0 (jsonrpc.org/specification) and MCP's base protocol, lifecycle and
/// tools (modelcontextprotocol.io/specification, revisions 2024-11-05 to 2025-11-25): an
/// `initialize` is answered with the client's revision when it is one of
/// ``protocolVersions``, else the newest; a notification is never answered; a batch (an array
/// of messages) is served only under 2025-03-26, the one revision that has them.
struct MCPServer {
    /// A JSON-RPC 2.0 error code (§5.1).
    enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
    }

    /// The revisions served, newest first: those the official Python SDK's client negotiates
    /// with `initialize`.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The longest message read, in bytes (1 MiB); a longer line is skipped and answered with
    /// ``tooLongResponse``.
    static let maximumMessageBytes = 1 << 20

    /// The tools offered, in `tools/list` order.
    var tools: [MCPTool]
    /// `serverInfo.version`.
    var version: String
    /// The revision agreed by `initialize`; nil before it.
    private(set) var protocolVersion: String?
    /// Whether the client said `notifications/initialized`.
    private(set) var initialized = false

    init(tools: [MCPTool], version: String) {
        self.tools = tools
        self.version = version
    }

    /// The answer to one line of the transport (without its newline), one line of JSON without
    /// a newline; nil when nothing is to be answered (a notification, a response, a blank line).
    mutating func handle(_ line: [UInt8]) -> String? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let document: JSONDocument
        do {
            document = try JSONReader.read(line)
        } catch {
            return Self.error(nil, .parseError, "parse error: \(error.description)")
        }
        let root = document.root
        guard document.kind(root) == .array else { return message(document, root) }
        guard protocolVersion == "2025-03-26" else {
            return Self.error(
                nil, .invalidRequest,
                "batches (JSON arrays) are not part of MCP revision \(protocolVersion ?? Self.protocolVersions[0]): send one message per line"
            )
        }
        let elements = document.elements(root)
        guard !elements.isEmpty else { return Self.error(nil, .invalidRequest, "an empty batch") }
        let answers = elements.compactMap { message(document, $0) }
        return answers.isEmpty ? nil : "[" + answers.joined(separator: ",") + "]"
    }

    /// The answer to a line longer than ``maximumMessageBytes``, which was skipped unread.
    static var tooLongResponse: String {
        error(nil, .invalidRequest, "a message longer than \(maximumMessageBytes) bytes was skipped")
    }

    // MARK: - Messages

    /// The answer to one message (a request, a notification or a response) at `index`.
    private mutating func message(_ document: JSONDocument, _ index: JSONDocument.Index) -> String? {
        guard document.kind(index) == .object else {
            return Self.error(nil, .invalidRequest, "a message is a JSON object")
        }
        var id: String?
        if let idIndex = document.value(of: index, forKey: "id") {
            switch document.kind(idIndex) {
            // The id as the client wrote it: text the strict reader accepted is valid JSON.
            case .string, .number: id = String(decoding: document.bytes[document.range(idIndex)], as: UTF8.self)
            default: return Self.error(nil, .invalidRequest, "id must be a string or a number")
            }
        }
        guard let version = document.value(of: index, forKey: "jsonrpc"), document.string(version) == "2.0" else {
            return Self.error(id, .invalidRequest, "jsonrpc must be \"2.0\"")
        }
        guard let methodIndex = document.value(of: index, forKey: "method") else {
            // A response to a request of ours: this server sends none, so nothing to answer.
            let isResponse = document.value(of: index, forKey: "result") != nil || document.value(of: index, forKey: "error") != nil
            return isResponse && id != nil ? nil : Self.error(id, .invalidRequest, "a request has a method")
        }
        guard document.kind(methodIndex) == .string, let method = document.string(methodIndex) else {
            return Self.error(id, .invalidRequest, "method must be a string")
        }
        let params = document.value(of: index, forKey: "params")
        if let params, document.kind(params) != .object, document.kind(params) != .array {
            return Self.error(id, .invalidRequest, "params must be an object or an array")
        }
        guard let id else {
            if method == "notifications/initialized" { initialized = true }
            return nil  // notifications/cancelled and any other notification: nothing to do
        }
        if let params, document.kind(params) != .object {
            return Self.error(id, .invalidParams, "params must be an object")
        }
        switch method {
        case "initialize": return initialize(id, document, params)
        case "ping": return Self.result(id, "{}")
        case "tools/list": return Self.result(id, "{\"tools\":[" + tools.map(\.listing).joined(separator: ",") + "]}")
        case "tools/call": return call(id, document, params)
        default: return Self.error(id, .methodNotFound, "no method \(method) (perch mcp has initialize, ping, tools/list and tools/call)")
        }
    }

    private mutating func initialize(_ id: String, _ document: JSONDocument, _ params: JSONDocument.Index?) -> String {
        guard let params, let asked = document.value(of: params, forKey: "protocolVersion"),
            let requested = document.string(asked)
        else {
            return Self.error(id, .invalidParams, "initialize needs params.protocolVersion, a string")
        }
        let agreed = Self.protocolVersions.contains(requested) ? requested : Self.protocolVersions[0]
        protocolVersion = agreed
        return Self.result(
            id,
            "{\"protocolVersion\":\(ConfigWriter.json(agreed)),\"capabilities\":{\"tools\":{\"listChanged\":false}},"
                + "\"serverInfo\":{\"name\":\"perch\",\"title\":\"Perch\",\"version\":\(ConfigWriter.json(version))},"
                + "\"instructions\":\"Read-only: who you are in git, ssh, gh, kube, gcloud, aws, docker and env here and now "
                + "(whoami, verify), and the accounts Perch knows (list_accounts). Nothing here switches, writes or shows a secret.\"}")
    }

    private func call(_ id: String, _ document: JSONDocument, _ params: JSONDocument.Index?) -> String {
        guard let params, let nameIndex = document.value(of: params, forKey: "name"), let name = document.string(nameIndex) else {
            return Self.error(id, .invalidParams, "tools/call needs params.name, a string")
        }
        guard let tool = tools.first(where: { $0.name == name }) else {
            return Self.error(
                id, .invalidParams, "unknown tool \(name) (the tools are \(tools.map(\.name).joined(separator: ", ")))")
        }
        var arguments = MCPArguments()
        if let given = document.value(of: params, forKey: "arguments"), document.kind(given) != .null {
            guard document.kind(given) == .object else { return Self.error(id, .invalidParams, "arguments must be an object") }
            for (keyIndex, valueIndex) in document.members(given) {
                let key = document.string(keyIndex) ?? ""
                guard let parameter = tool.parameters.first(where: { $0.name == key }) else {
                    let known =
                        tool.parameters.isEmpty ? "it takes none" : "it takes " + tool.parameters.map(\.name).joined(separator: ", ")
                    return toolResult(id, .failure("\(name) has no argument \(key) (\(known))"))
                }
                switch (parameter.kind, document.kind(valueIndex)) {
                case (.boolean, .true): arguments.booleans[key] = true
                case (.boolean, .false): arguments.booleans[key] = false
                case (.string, .string): arguments.strings[key] = document.string(valueIndex) ?? ""
                case (_, .null): break  // as if left out
                default:
                    let expected = parameter.kind == .boolean ? "true or false" : "a string"
                    return toolResult(id, .failure("\(name)'s argument \(key) must be \(expected)"))
                }
            }
        }
        return toolResult(id, tool.call(arguments))
    }

    /// `result` as `tools/call`'s answer: one text item, and `structuredContent` from 2025-06-18 on.
    private func toolResult(_ id: String, _ result: MCPToolResult) -> String {
        var body = "{\"content\":[{\"type\":\"text\",\"text\":\(ConfigWriter.json(result.text))}]"
        let structured = protocolVersion.map { $0 >= "2025-06-18" } ?? true
        if !result.isError, structured { body += ",\"structuredContent\":" + result.text }
        return Self.result(id, body + ",\"isError\":\(result.isError)}")
    }

    // MARK: - Writing

    /// A response carrying `result` (one line of JSON).
    static func result(_ id: String, _ result: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":\(result)}"
    }

    /// An error response; `id` nil when the request's id could not be read (JSON-RPC's `null`).
    static func error(_ id: String?, _ code: ErrorCode, _ message: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id ?? "null"),\"error\":{\"code\":\(code.rawValue),\"message\":\(ConfigWriter.json(message))}}"
    }
}
