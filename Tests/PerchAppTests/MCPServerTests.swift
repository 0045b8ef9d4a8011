import PerchStore
import Testing

@testable import PerchApp

/// Issue 49, part 3: `perch mcp`'s protocol handling, lines in and lines out, with fake tools.
@Suite("perch mcp's protocol handling")
struct MCPServerTests {
    /// A server with one tool that echoes its arguments and one that fails.
    static func server(initializedAt version: String? = "2025-06-18") -> MCPServer {
        var server = MCPServer(
            tools: [
                MCPTool(
                    name: "echo", title: "Echo", description: "says what it got",
                    parameters: [
                        .init(name: "online", kind: .boolean, description: "a flag"),
                        .init(name: "account", kind: .string, description: "a name"),
                    ],
                    call: { arguments in
                        .value(
                            "{\"online\":\(arguments.booleans["online"].map(String.init) ?? "null"),"
                                + "\"account\":\(arguments.strings["account"].map(ConfigWriter.json) ?? "null")}")
                    }),
                MCPTool(name: "broken", title: "Broken", description: "always fails", call: { _ in .failure("no config: \"x\"\n") }),
            ], version: "9.9")
        if let version {
            _ = server.handle(
                Array("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"\(version)\"}}".utf8))
        }
        return server
    }

    static func answer(_ line: String, _ server: inout MCPServer) -> String? { server.handle(Array(line.utf8)) }

    @Test(
        "initialize answers the client's revision when served, else the newest",
        arguments: [
            ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"),
            ("2026-07-28", "2025-11-25"), ("1999-01-01", "2025-11-25"),
        ])
    func negotiates(asked: String, agreed: String) throws {
        var server = Self.server(initializedAt: nil)
        let response = try #require(
            Self.answer(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"\(asked)\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                &server))
        #expect(
            response.hasPrefix("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"\(agreed)\",\"capabilities\":{\"tools\":"))
        #expect(response.contains("\"serverInfo\":{\"name\":\"perch\",\"title\":\"Perch\",\"version\":\"9.9\"}"))
        #expect(server.protocolVersion == agreed)
        #expect(try JSONReader.read(Array(response.utf8)).kind(0) == .object)
    }

    @Test(
        "each bad request gets its JSON-RPC error, with the id when it could be read",
        arguments: [
            ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", "null", -32700),
            ("not json", "null", -32700),
            ("{\"a\":1,\"a\":2}", "null", -32700),
            ("42", "null", -32600),
            ("\"ping\"", "null", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", "null", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "null", -32600),
            ("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}", "2", -32600),
            ("{\"id\":2,\"method\":\"ping\"}", "2", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":7}", "3", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":\"x\"}", "\"x\"", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":\"p\"}", "4", -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":[1]}", "5", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/list\"}", "6", -32601),
            ("{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"nope\"}", "\"a\\\"b\"", -32601),
            ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}", "7", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":5}}", "8", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}", "9", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":1}}", "10", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"rm -rf\"}}", "11", -32602),
            ("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":[true]}}", "12", -32602),
            ("[{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}]", "null", -32600),
        ])
    func errors(request: String, id: String, code: Int) throws {
        var server = Self.server()
        let response = try #require(Self.answer(request, &server))
        #expect(response.hasPrefix("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":\(code),\"message\":\""))
        #expect(try JSONReader.read(Array(response.utf8)).kind(0) == .object)
        #expect(!response.contains("\n"))
    }

    @Test(
        "notifications, responses and blank lines get no answer",
        arguments: [
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"broken\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":98,\"error\":{\"code\":1,\"message\":\"m\"}}",
            "", "  \r",
        ])
    func silent(line: String) {
        var server = Self.server()
        #expect(Self.answer(line, &server) == nil)
    }

    @Test("notifications/initialized is recorded")
    func initialized() {
        var server = Self.server()
        #expect(!server.initialized)
        _ = Self.answer("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", &server)
        #expect(server.initialized)
    }

    @Test("ping answers an empty result, with a string id as given")
    func ping() {
        var server = Self.server()
        #expect(
            Self.answer("{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}", &server)
                == "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"result\":{}}")
    }

    @Test("tools/list gives each tool with its input schema, read-only")
    func list() throws {
        var server = Self.server()
        let response = try #require(Self.answer("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}", &server))
        let document = try JSONReader.read(Array(response.utf8))
        let result = try #require(document.value(of: document.root, forKey: "result"))
        let tools = document.elements(try #require(document.value(of: result, forKey: "tools")))
        #expect(tools.compactMap { document.value(of: $0, forKey: "name").flatMap(document.string) } == ["echo", "broken"])
        #expect(
            response.contains(
                "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"online\":{\"type\":\"boolean\",\"description\":\"a flag\"},\"account\":{\"type\":\"string\",\"description\":\"a name\"}},\"additionalProperties\":false}"
            ))
        #expect(response.contains("\"readOnlyHint\":true"))
    }

    @Test(
        "tools/call checks the arguments and passes them on",
        arguments: [
            ("{}", "{\"online\":null,\"account\":null}", false),
            ("{\"online\":true}", "{\"online\":true,\"account\":null}", false),
            ("{\"online\":false,\"account\":\"w\\\"x\"}", "{\"online\":false,\"account\":\"w\\\"x\"}", false),
            ("{\"online\":null}", "{\"online\":null,\"account\":null}", false),
            ("null", "{\"online\":null,\"account\":null}", false),
            ("{\"online\":\"yes\"}", "echo's argument online must be true or false", true),
            ("{\"online\":1}", "echo's argument online must be true or false", true),
            ("{\"account\":[\"a\"]}", "echo's argument account must be a string", true),
            ("{\"force\":true}", "echo has no argument force (it takes online, account)", true),
        ])
    func call(arguments: String, text: String, isError: Bool) throws {
        var server = Self.server()
        let response = try #require(
            Self.answer(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":\(arguments)}}",
                &server))
        let document = try JSONReader.read(Array(response.utf8))
        let result = try #require(document.value(of: document.root, forKey: "result"))
        let content = document.elements(try #require(document.value(of: result, forKey: "content")))
        #expect(content.count == 1)
        #expect(document.value(of: content[0], forKey: "text").flatMap(document.string) == text)
        #expect(document.value(of: result, forKey: "isError").map(document.kind) == (isError ? .true : .false))
        #expect((document.value(of: result, forKey: "structuredContent") != nil) == !isError)
    }

    @Test("a failing tool is an isError result, its message JSON-escaped")
    func failing() throws {
        var server = Self.server()
        let response = try #require(
            Self.answer("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"broken\"}}", &server))
        #expect(
            response
                == "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"no config: \\\"x\\\"\\n\"}],\"isError\":true}}"
        )
    }

    @Test("structuredContent only from revision 2025-06-18 on")
    func structured() throws {
        var server = Self.server(initializedAt: "2025-03-26")
        let response = try #require(
            Self.answer("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}", &server))
        #expect(!response.contains("structuredContent"))
    }

    @Test("a batch is served under 2025-03-26 only: each request answered, notifications not")
    func batch() throws {
        var server = Self.server(initializedAt: "2025-03-26")
        let response = Self.answer(
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\"}]",
            &server)
        #expect(
            response
                == "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"no method x (perch mcp has initialize, ping, tools/list and tools/call)\"}}]"
        )
        #expect(Self.answer("[]", &server)?.contains("-32600") == true)
        #expect(Self.answer("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]", &server) == nil)
    }
}

/// The stdio transport's lines: split anywhere, bounded in size.
@Suite("perch mcp's line reader")
struct MCPLineReaderTests {
    @Test("lines come out whole whatever the chunk size, carriage returns dropped", arguments: [1, 2, 3, 7, 64])
    func chunks(size: Int) {
        let input = Array("{\"a\":1}\r\n\n{\"b\":2}\nlast".utf8)
        var reader = MCPLineReader(limit: 100)
        var items: [MCPLineReader.Item] = []
        var start = 0
        while start < input.count {
            items += reader.feed(input[start..<min(start + size, input.count)])
            start += size
        }
        items += reader.finish()
        #expect(items == [.line(Array("{\"a\":1}".utf8)), .line([]), .line(Array("{\"b\":2}".utf8)), .line(Array("last".utf8))])
    }

    @Test("a line over the limit is reported once at its end, and the next line is read", arguments: [1, 5, 4096])
    func tooLong(size: Int) {
        let input = Array((String(repeating: "x", count: 50) + "\nok\n" + String(repeating: "y", count: 11)).utf8)
        var reader = MCPLineReader(limit: 10)
        var items: [MCPLineReader.Item] = []
        var start = 0
        while start < input.count {
            items += reader.feed(input[start..<min(start + size, input.count)])
            start += size
        }
        items += reader.finish()
        #expect(items == [.tooLong, .line(Array("ok".utf8)), .tooLong])
    }

    @Test("a line of exactly the limit is kept, with or without a carriage return")
    func exactly() {
        var reader = MCPLineReader(limit: 4)
        #expect(reader.feed(Array("abcd\nabcd\r\nabcde\n".utf8)[...]) == [.line(Array("abcd".utf8)), .line(Array("abcd".utf8)), .tooLong])
    }
}
