import Foundation
import Testing

/// Issue 49, part 3: `perch mcp` (the release binary) answering the official MCP client from
/// PyPI, and surviving bad requests on a raw pipe. A scratch HOME and XDG folders, the real git
/// with no system config (`GIT_CONFIG_NOSYSTEM=1`).
@Suite("perch mcp: the official client and bad requests", .serialized, .currentBinary)
struct MCPEndToEndTests {
    /// Why the official client cannot run here, or nil: python3 or its `mcp` package missing.
    static let clientMissing: String? = {
        guard ShellEndToEndTests.installed("python3") else { return "python3 is not installed" }
        guard (try? Spawn.run(["python3", "-c", "import mcp"]).status) == 0 else {
            return "python3's mcp package (the official MCP client) is not installed: make test-deps installs it"
        }
        return nil
    }()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("MCP/mcp_client.py").path

    /// Two accounts with git and env, git set up (Perch's include in ~/.gitconfig), `work` current.
    func home() throws -> PerchCommandLine {
        var cli = try PerchCommandLine()
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1"]
        try cli.writeConfig(
            #"""
            {"accounts": [
              {"id": "work", "name": "Work", "handle": "@ada.work", "git": {"name": "Ada Work", "email": "ada@work.example"}, "env": {"TEAM": "web"}},
              {"id": "home", "name": "Home \"quoted\"", "git": {"name": "Ada Home", "email": "ada@home.example"}, "env": {"TEAM": "home"}}
            ]}
            """#)
        let setup = try cli.run(["setup", "git", "--yes"])
        try #require(setup.status == 0, "perch setup git: \(setup.stderr)")
        let switched = try cli.run(["switch", "work"])
        try #require(switched.status == 0, "perch switch work: \(switched.stderr)")
        return cli
    }

    @Test(
        "the official MCP client lists the tools and calls each; whoami's git author is git var GIT_AUTHOR_IDENT's",
        .enabled(if: MCPEndToEndTests.clientMissing == nil, "\(MCPEndToEndTests.clientMissing ?? "")"))
    func officialClient() throws {
        let cli = try home()
        defer { cli.remove() }
        let ident = try Spawn.run(["sh", "-c", "cd \"$HOME\" && git var GIT_AUTHOR_IDENT"], environment: cli.environment)
        try #require(ident.status == 0 && ident.stdout.hasPrefix("Ada Work <ada@work.example>"), "git var: \(ident.stdout) \(ident.stderr)")
        let before = Self.files(in: cli.home.path)
        let run = try Spawn.run(
            ["python3", Self.script, TmuxSession.binary, ident.stdout.trimmingCharacters(in: .whitespacesAndNewlines), cli.home.path],
            environment: cli.environment)
        #expect(run.status == 0, "client: \(run.stdout) \(run.stderr)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(found["ok"] as? Bool == true)
        #expect(found["version"] as? String == "2025-11-25", "the newest revision both speak")
        #expect(found["gitAnswer"] as? String == "Ada Work <ada@work.example>")
        #expect(found["defaultClient"] is NSNull || found["defaultClient"] as? String == "work", "\(found)")
        #expect(Self.files(in: cli.home.path) == before, "perch mcp wrote in the home")
    }

    /// Every file under `root` (links as their targets' paths), with its bytes and modification time.
    static func files(in root: String) -> [String: String] {
        var files: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] {
            let full = root + "/" + path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: full) else { continue }
            let data = FileManager.default.contents(atPath: full).map { String(decoding: $0, as: UTF8.self) } ?? "(folder or link)"
            files[path] = "\(attributes[.modificationDate].map { "\($0)" } ?? "") \(data)"
        }
        return files
    }

    /// `perch mcp` with `input` as its whole stdin (ended: a closed pipe's end of file); its exit
    /// status and stdout's lines, each parsed.
    func serve(_ cli: PerchCommandLine, _ input: [UInt8]) throws -> (status: Int32, lines: [[String: Any]], stderr: String) {
        let path = cli.home.path + "/mcp-input"
        try Data(input).write(to: URL(fileURLWithPath: path))
        let run = try Spawn.run([TmuxSession.binary, "mcp"], environment: cli.environment, stdin: path)
        let lines = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        return (run.status, lines, run.stderr)
    }

    @Test("bad requests on a raw pipe: each answered with its error, a huge line skipped, every later request served, exit 0 at the end")
    func badRequests() throws {
        let cli = try home()
        defer { cli.remove() }
        var input = Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#.utf8) + [10]
        let lines = [
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"#,  // cut short
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"switch","arguments":{"account":"home"}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"verify","arguments":{"online":"yes"}}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"verify","arguments":"online"}}"#,
            #"{"jsonrpc":"2.0","id":"six","method":"resources/read"}"#,
            #"[{"jsonrpc":"2.0","id":7,"method":"ping"}]"#,
        ]
        for line in lines { input += Array(line.utf8) + [10] }
        // 3 MiB in one line, then a request that must still be served.
        input +=
            Array(#"{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":""#.utf8) + [UInt8](repeating: 0x61, count: 3 << 20)
            + Array(#""}}"#.utf8) + [10]
        input += Array(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_accounts"}}"#.utf8) + [10]
        input += Array(#"{"jsonrpc":"2.0","id":10,"method":"ping"}"#.utf8)  // no newline: stdin ends
        let served = try serve(cli, input)
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stderr.isEmpty, "\(served.stderr)")
        let answers = served.lines
        try #require(answers.count == 10, "\(answers)")
        func code(_ answer: [String: Any]) -> Int? { (answer["error"] as? [String: Any])?["code"] as? Int }
        func text(_ answer: [String: Any]) -> String? {
            (((answer["result"] as? [String: Any])?["content"] as? [[String: Any]])?.first)?["text"] as? String
        }
        func isError(_ answer: [String: Any]) -> Bool? { (answer["result"] as? [String: Any])?["isError"] as? Bool }
        #expect((answers[0]["result"] as? [String: Any])?["protocolVersion"] as? String == "2025-06-18")
        #expect(answers[1]["id"] is NSNull && code(answers[1]) == -32700)
        #expect(answers[2]["id"] as? Int == 3 && code(answers[2]) == -32602)
        #expect(answers[3]["id"] as? Int == 4 && isError(answers[3]) == true && text(answers[3])?.contains("online") == true)
        #expect(answers[4]["id"] as? Int == 5 && code(answers[4]) == -32602)
        #expect(answers[5]["id"] as? String == "six" && code(answers[5]) == -32601)
        #expect(answers[6]["id"] is NSNull && code(answers[6]) == -32600, "no batches in 2025-06-18")
        #expect(answers[7]["id"] is NSNull && code(answers[7]) == -32600, "the huge line")
        #expect(answers[8]["id"] as? Int == 9 && isError(answers[8]) == false)
        #expect(text(answers[8])?.contains(#""name":"Home \"quoted\"""#) == true, "\(text(answers[8]) ?? "")")
        #expect(answers[9]["id"] as? Int == 10 && answers[9]["result"] as? [String: Any] != nil)
        // Nothing was switched: work is still current.
        #expect(try cli.run(["current", "--field", "id"]).stdout == "work\n")
    }

    @Test("stdin closed at once, or after half a message: exit 0, nothing or one parse error on stdout")
    func closedStdin() throws {
        let cli = try home()
        defer { cli.remove() }
        let empty = try serve(cli, [])
        #expect(empty.status == 0 && empty.lines.isEmpty)
        let half = try serve(cli, Array(#"{"jsonrpc":"2.0","id":1,"me"#.utf8))
        #expect(half.status == 0 && half.lines.count == 1 && (half.lines[0]["error"] as? [String: Any])?["code"] as? Int == -32700)
    }
}
