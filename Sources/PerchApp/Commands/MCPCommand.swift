import FoundationEssentials
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch mcp`: a Model Context Protocol server on stdin and stdout, for coding agents to ask
/// who they are. Its tools only read: nothing switches, writes or shows a secret.
struct MCPCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "mcp", summary: "serve whoami, verify and list_accounts to an agent over MCP (stdio)",
        recoversInterruptedSwitch: false)
    static let details: String =
        "A Model Context Protocol server on stdin and stdout (JSON-RPC 2.0, one message a\n"
        + "line; revisions 2024-11-05 to 2025-11-25) for coding agents to ask who they are.\n"
        + "Its tools only read: whoami (each tool's identity here, as perch verify sees it,\n"
        + "with the account and how it was chosen), verify (online: ask the servers too;\n"
        + "account: another account) and list_accounts (ids, names, tools). Nothing switches,\n"
        + "writes or prints a secret; a message over 1 MiB is skipped with an error. Add it to\n"
        + "an agent's MCP configuration: {\"mcpServers\": {\"perch\": {\"command\": \"perch\",\n"
        + "\"args\": [\"mcp\"]}}}. Exit status 0 when stdin ends."

    var files = FileOptions()

    func run(_ tool: CommandLineTool) -> Int32 { tool.serveMCP(self) }
}

extension CommandLineTool {
    /// Serves MCP's stdio transport until stdin ends (or stdout's reader goes): each line read
    /// is one message, each answer one line. Exit status 0 at the end of the input.
    func serveMCP(_ options: MCPCommand) -> Int32 {
        var server = MCPServer(tools: PerchMCPTools.tools(files: options.files), version: PerchApp.version)
        var reader = MCPLineReader()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func answer(_ items: [MCPLineReader.Item]) {
            for item in items {
                let response: String?
                switch item {
                case .line(let line): response = server.handle(line)
                case .tooLong: response = MCPServer.tooLongResponse
                }
                if let response { console.write(response + "\n") }
            }
        }
        while !console.outputClosed {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            answer(reader.feed(buffer[0..<count]))
        }
        answer(reader.finish())
        return ExitStatus.ok
    }

    /// `value` as one line of JSON, sorted keys, invisible controls escaped (as `--json` prints
    /// it, on one line); nil when it cannot be encoded.
    func jsonLine<T: Encodable>(_ value: T) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return PerchApp.escapingInvisibleControls(inJSON: String(decoding: data, as: UTF8.self))
    }
}

/// The tools `perch mcp` offers: `whoami`, `verify` and `list_accounts`, each run with a
/// console of its own that keeps what it says (nothing reaches stdout but protocol messages).
enum PerchMCPTools {
    static func tools(files: FileOptions) -> [MCPTool] {
        [
            MCPTool(
                name: "whoami", title: "Who am I here",
                description:
                    "Who you are in each tool here and now (git author and committer, ssh key, gh user, kube context, gcloud, aws, docker, env), "
                    + "as perch verify sees it: the account that owns this place, how it was chosen (the scope: perch exec, perch use, "
                    + "a bound folder, a repository remote, or the global account), and each tool's own answer. Asks no server.",
                call: { _ in verify(files: files, account: nil, online: false) }),
            MCPTool(
                name: "verify", title: "Verify identities",
                description:
                    "Asks each tool the account names what it will really use here, and with online the servers too (ssh -T, gh api user, "
                    + "aws sts get-caller-identity, kubectl auth whoami). agrees is false when a tool disagrees; each answer says why and the fix.",
                parameters: [
                    .init(name: "online", kind: .boolean, description: "ask the servers too (default false)"),
                    .init(name: "account", kind: .string, description: "the account id or name (default: the one that owns this place)"),
                ],
                reachesServers: true,
                call: { arguments in
                    verify(files: files, account: arguments.strings["account"], online: arguments.booleans["online"] ?? false)
                }),
            MCPTool(
                name: "list_accounts", title: "List accounts",
                description:
                    "The accounts in Perch's config: id, name, handle, group, whether it is the global current one, and the tools it names. No secret.",
                call: { _ in listAccounts(files: files) }),
        ]
    }

    /// `perch verify [ACCOUNT] [--online] --json`'s object, or its errors as a tool error.
    static func verify(files: FileOptions, account: String?, online: Bool) -> MCPToolResult {
        let tool = CommandLineTool(files: files, console: Console(captured: true))
        var options = VerifyCommand()
        options.account = account
        options.online = online
        switch tool.verifyReport(options) {
        case .success(let report):
            guard let json = tool.jsonLine(report.json) else { return .failure("cannot encode the answers as JSON") }
            return .value(json)
        case .failure: return .failure(errors(tool.console))
        }
    }

    /// The accounts: `{"accounts": [{"id", "name", "handle", "group", "current", "tools"}]}`.
    static func listAccounts(files: FileOptions) -> MCPToolResult {
        let tool = CommandLineTool(files: files, console: Console(captured: true))
        guard let config = tool.loadConfig(), let state = tool.loadState(config) else { return .failure(errors(tool.console)) }
        let accounts = config.accounts.map { account in
            "{\"id\":\(ConfigWriter.json(account.id)),\"name\":\(ConfigWriter.json(account.name)),"
                + "\"handle\":\(account.handle.map(ConfigWriter.json) ?? "null"),\"group\":\(account.group.map(ConfigWriter.json) ?? "null"),"
                + "\"current\":\(account.id == state.currentAccount),"
                + "\"tools\":[\(account.identities.tools.map { ConfigWriter.json($0.rawValue) }.joined(separator: ","))]}"
        }
        return .value("{\"accounts\":[" + accounts.joined(separator: ",") + "]}")
    }

    /// What a captured console said on stderr, without the `perch: ` before each line.
    static func errors(_ console: Console) -> String {
        let lines = console.errors.split(separator: "\n").map { $0.hasPrefix("perch: ") ? $0.dropFirst(7) : $0 }
        return lines.isEmpty ? "failed" : lines.joined(separator: "\n")
    }
}
