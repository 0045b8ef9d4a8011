import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// Parses `text` and returns the error it throws, or nil.
private func parseError(_ text: String, path: String = "/cfg/accounts.json") -> ConfigError? {
    do {
        _ = try ConfigLoader.parse(Array(text.utf8), path: path)
        return nil
    } catch {
        return error
    }
}

@Suite("ConfigLoader")
struct ConfigLoaderTests {
    @Test("a valid file loads its accounts, in order, with its path")
    func validFile() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try write(
                """
                {"accounts": [
                  {"id": "work", "name": "Work", "handle": "@me"},
                  {"id": "home", "name": "Home"}
                ]}
                """, to: path)
            let loaded = try ConfigLoader.load(PerchPaths(config: path, state: folder + "/state.json", lookup: { _ in nil }))
            #expect(loaded.accounts == [Account(id: "work", name: "Work", handle: "@me"), Account(id: "home", name: "Home")])
            #expect(loaded.path == path)
            #expect(loaded.description == path)
        }
    }

    @Test("unknown keys are warnings with a guess, not errors")
    func unknownKeys() throws {
        let parsed = try ConfigLoader.parse(
            Array(#"{"version": 1, "extra": 1, "accounts": [{"id": "a", "name": "A", "colour": "red", "zzzzzz": 1}]}"#.utf8), path: "x")
        #expect(parsed.accounts == [Account(id: "a", name: "A")])
        #expect(
            parsed.warnings == [
                "line 1, column 16: extra: unknown key, ignored",
                #"line 1, column 66: accounts[0].colour: unknown key, ignored (did you mean "color"?)"#,
                "line 1, column 83: accounts[0].zzzzzz: unknown key, ignored",
            ])
    }

    @Test("\"agent\": true (or {\"coAuthoredBy\": \"Name <email>\"}) marks an agent's account; anything else is refused with its place")
    func agentField() throws {
        let parsed = try ConfigLoader.parse(
            Array(#"{"accounts": [{"id": "bot", "name": "Bot", "agent": true}, {"id": "me", "name": "Me", "agent": false}]}"#.utf8),
            path: "x")
        #expect(parsed.accounts.map(\.identities.agent) == [true, false])
        #expect(parsed.warnings.isEmpty)
        let error = parseError(#"{"accounts": [{"id": "bot", "name": "Bot", "agent": "yes"}]}"#)
        #expect(error?.lines.contains { $0.contains("accounts[0].agent: expected true, false or") } == true, "\(String(describing: error))")
        let person = try ConfigLoader.parse(
            Array(#"{"accounts": [{"id": "bot", "name": "Bot", "agent": {"coAuthoredBy": "Ada <ada@example.org>"}}]}"#.utf8), path: "x")
        #expect(person.accounts.first?.identities.agent == true)
        #expect(person.accounts.first?.identities.coAuthoredBy == "Ada <ada@example.org>")
        for bad in [#""Ada""#, #""Ada <ada@example.org>\nSigned-off-by: x <y@z>""#, "1"] {
            let refused = parseError(#"{"accounts": [{"id": "bot", "name": "Bot", "agent": {"coAuthoredBy": "# + bad + "}}]}")
            #expect(
                refused?.lines.contains { $0.contains("agent.coAuthoredBy: expected") } == true, "\(bad): \(String(describing: refused))")
        }
    }

    // Bug: "host/*" passed config check silently, and matches no owner/repo path.
    @Test("a remote pattern of one path component is kept with a warning that it matches no OWNER/REPO")
    func oneComponentRemote() throws {
        let parsed = try ConfigLoader.parse(
            Array(#"{"accounts": [{"id": "a", "name": "A", "remotes": ["host/*", "github.com/acme/*"]}]}"#.utf8), path: "x")
        #expect(parsed.accounts.first?.identities.remotes == ["host/*", "github.com/acme/*"])
        #expect(
            parsed.warnings == [
                "line 1, column 52: accounts[0].remotes[0]: \"host/*\" matches only repositories right under host (host/NAME), no OWNER/REPO: "
                    + "for an owner's repositories write host/OWNER/*, for all of them host/**"
            ])
    }

    @Test(
        "syntax errors name the line and column",
        arguments: [
            // (text, line, column)
            ("{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\", \"id\": \"b\"}\n]}", 2, 28),
            ("{\"accounts\": [\n  {\"id\": \"a\" \"name\": \"A\"}\n]}", 2, 14),
            ("{\n  \"accounts\": [\n    {\"id\": \"a\", \"name\": \"A\"}\n  ]\n", 5, 1),
            ("{\"accounts\": tru}", 1, 17),
            ("\n\n   {\"accounts\": [1 2]}", 3, 20),
            ("{\"accounts\": [{\"id\": \"é\", \"name\": 'x'}]}", 1, 35),
        ])
    func syntaxErrors(_ c: (String, Int, Int)) throws {
        let error = try #require(parseError(c.0))
        guard case .syntax(let path, let line, let column, let message) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(path == "/cfg/accounts.json")
        #expect(line == c.1)
        #expect(column == c.2)
        #expect(!message.isEmpty)
        #expect(error.description == "config /cfg/accounts.json: line \(c.1), column \(c.2): \(message)")
    }

    // Bug: a config with invalid UTF-8 got Foundation's generic "not valid JSON" with no line or column.
    @Test("invalid UTF-8 is a syntax error with a line and column, not Foundation's generic message")
    func invalidUTF8() throws {
        // RFC 8259 §8.1: JSON text exchanged between systems MUST be UTF-8. Byte 0xFF is the 36th character.
        let prefix = Array(#"{"accounts": [{"id": "a", "name": ""#.utf8)
        #expect(prefix.count == 35)
        let bytes = prefix + [0xFF] + Array(#""}]}"#.utf8)
        do {
            let accounts = try ConfigLoader.parse(bytes, path: "/cfg/accounts.json")
            Issue.record("accepted: \(accounts)")
        } catch {
            guard case .syntax(_, let line, let column, _) = error else {
                Issue.record("expected a syntax error with a position, got: \(error)")
                return
            }
            #expect(line == 1)
            #expect((35...36).contains(column), "column \(column)")
        }
    }

    // Bug: a name made only of zero-width characters gave a blank sheet row.
    @Test("a name with nothing visible is refused")
    func invisibleName() {
        let error = parseError(#"{"accounts": [{"id": "a", "name": "\u200b\u200d"}]}"#)
        #expect("\(error.map { "\($0)" } ?? "")".contains("accounts[0].name: has nothing visible"))
    }

    // Bug: `--config /dev/zero` grew memory without bound and a FIFO hung before the interface appeared.
    @Test("a config that is not a regular file is refused at once", arguments: ["/dev/zero", "fifo", "folder"])
    func notARegularFile(_ kind: String) throws {
        try withTemporaryFolder { folder in
            var path = kind
            if kind == "fifo" {
                path = folder + "/accounts.json"
                #expect(mkfifo(path, 0o600) == 0)
            } else if kind == "folder" {
                path = folder
            }
            #expect(throws: ConfigError.self) { try ConfigLoader.load(PerchPaths(config: path, state: folder + "/s.json")) }
            do {
                _ = try ConfigLoader.load(PerchPaths(config: path, state: folder + "/s.json"))
            } catch {
                #expect("\(error)".hasPrefix("config \(path): is "), "\(error)")
            }
        }
    }

    // Bug: a config saved with a UTF-8 byte order mark was reported as "line 1, column 1: expected a value".
    @Test("a UTF-8 byte order mark before the JSON is accepted")
    func byteOrderMark() throws {
        let parsed = try ConfigLoader.parse([0xEF, 0xBB, 0xBF] + Array(#"{"accounts": [{"id": "a", "name": "A"}]}"#.utf8), path: "p")
        #expect(parsed.accounts == [Account(id: "a", name: "A")])
    }

    @Test("a config may hold comments and trailing commas (JSON with Comments)")
    func jsonWithComments() throws {
        let text = """
            // Perch accounts
            {
              "version": 1, /* format */
              "accounts": [
                {"id": "work", "name": "Work",}, // the day job
                {"id": "home", "name": "Home"},
              ],
            }
            """
        let parsed = try ConfigLoader.parse(Array(text.utf8), path: "c")
        #expect(parsed.accounts.map(\.id) == ["work", "home"])
    }

    @Test(
        "every problem gives the line and column of the value, key or object it is about",
        arguments: [
            // (text, the one problem expected)
            ("{\n  \"accounts\": [\n    {\"id\": 7, \"name\": \"A\"}\n  ]\n}", "line 3, column 12: accounts[0].id: expected a string"),
            ("{\n  \"accounts\": [\n    {\"name\": \"A\"}\n  ]\n}", "line 3, column 5: accounts[0].id: missing (required)"),
            (
                "{\n  \"version\": 3,\n  \"accounts\": [{\"id\": \"a\", \"name\": \"A\"}]\n}",
                "line 2, column 14: version: this Perch reads config version 1, found 3"
            ),
            (
                "{\"accounts\": [\n  \"é\",\n  {\"id\": \"a\", \"name\": \"A\"}]}",
                #"line 2, column 3: accounts[0]: expected an object like {"id": "work", "name": "Work"}"#
            ),
            (
                "{\"accounts\": [{\"id\": \"a\", \"name\": \"A\",\n /* é */ \"color\": \"pink\"}]}",
                #"line 2, column 19: accounts[0].color: "pink" is not one of black, red, green, yellow, blue, magenta, cyan, white"#
            ),
        ])
    func problemPositions(_ c: (String, String)) throws {
        let error = try #require(parseError(c.0))
        #expect(error == .invalid(path: "/cfg/accounts.json", problems: [c.1]))
    }

    @Test("a missing required name reports accounts[0].name")
    func missingName() throws {
        let error = try #require(parseError(#"{"accounts": [{"id": "work"}]}"#))
        guard case .invalid(_, let problems) = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        #expect(problems.count == 1)
        #expect(problems.first == "line 1, column 15: accounts[0].name: missing (required)", "\(problems)")
    }

    @Test("a missing name in a later account names its index")
    func missingNameLater() throws {
        let error = try #require(parseError(#"{"accounts": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c"}]}"#))
        #expect(error.description == "config /cfg/accounts.json: line 1, column 67: accounts[2].name: missing (required)")
    }

    @Test("a missing accounts key is reported at the top level")
    func missingAccounts() throws {
        let error = try #require(parseError(#"{"acounts": []}"#))
        #expect(
            error.description
                == #"config /cfg/accounts.json: line 1, column 1: accounts: missing (required); `perch init` writes a starter config; line 1, column 2: acounts: unknown key, ignored (did you mean "accounts"?) (a warning)"#
        )
    }

    @Test("a wrong type names the field and the type expected")
    func wrongType() throws {
        let error = try #require(parseError(#"{"accounts": [{"id": 7, "name": "A"}]}"#))
        #expect(error.description == "config /cfg/accounts.json: line 1, column 22: accounts[0].id: expected a string")
    }

    @Test("a duplicate id names both places")
    func duplicateID() throws {
        let error = try #require(parseError(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "work", "name": "Work again"}]}"#))
        guard case .invalid(let path, let problems) = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        #expect(path == "/cfg/accounts.json")
        #expect(problems == [#"line 1, column 54: accounts[1].id: duplicate id "work" (first at accounts[0])"#])
    }

    @Test("every problem is reported, not just the first")
    func severalProblems() throws {
        let error = try #require(
            parseError(#"{"accounts": [{"id": "", "name": " "}, {"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}"#))
        guard case .invalid(_, let problems) = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        #expect(problems.contains("line 1, column 22: accounts[0].id: must not be empty"))
        #expect(problems.contains("line 1, column 34: accounts[0].name: must not be empty"))
        #expect(problems.contains(#"line 1, column 73: accounts[2].id: duplicate id "a" (first at accounts[1])"#))
        #expect(problems.count == 3)
    }

    @Test("an empty list of accounts is invalid")
    func emptyList() throws {
        let error = try #require(parseError(#"{"accounts": []}"#))
        guard case .invalid(_, let problems) = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        #expect(problems == ["line 1, column 14: accounts: the list is empty; add at least one account"])
    }

    @Test("an empty or blank file is an error that says how to start", arguments: ["", "   \n\t\r\n"])
    func emptyFile(_ text: String) throws {
        let error = try #require(parseError(text))
        #expect(error == .empty(path: "/cfg/accounts.json"))
        #expect(
            error.lines == [
                "config /cfg/accounts.json: the file is empty; write a starter config with `perch init` (or remove the file to use the sample accounts)"
            ])
    }

    @Test("a missing implicit config means the sample accounts")
    func missingImplicitConfig() throws {
        try withTemporaryFolder { folder in
            let paths = PerchPaths(lookup: { $0 == "XDG_CONFIG_HOME" ? folder : ($0 == "HOME" ? folder : nil) })
            #expect(paths.config == folder + "/perch/accounts.json")
            #expect(paths.configIsExplicit == false)
            let loaded = try ConfigLoader.load(paths)
            #expect(loaded.accounts == Account.samples)
            #expect(loaded.path == nil)
            #expect(loaded.description.contains("sample"))
        }
    }

    @Test("a missing explicit config is unreadable")
    func missingExplicitConfig() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/nope.json"
            let paths = PerchPaths(config: path, lookup: { _ in nil })
            #expect(paths.configIsExplicit)
            do throws(ConfigError) {
                let loaded = try ConfigLoader.load(paths)
                Issue.record("expected an error, loaded \(loaded)")
            } catch {
                guard case .unreadable(let fileError) = error else {
                    Issue.record("expected .unreadable, got \(error)")
                    return
                }
                #expect(fileError.isNotFound)
                #expect(fileError.path == path)
                #expect(error.description.hasPrefix("config " + path + ": "))
            }
        }
    }

    @Test("an implicit config that exists but is broken is an error, not the samples")
    func brokenImplicitConfig() throws {
        try withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/perch", withIntermediateDirectories: true)
            try write("{", to: folder + "/perch/accounts.json")
            let paths = PerchPaths(lookup: { $0 == "XDG_CONFIG_HOME" ? folder : nil })
            #expect(throws: ConfigError.self) { try ConfigLoader.load(paths) }
        }
    }
}
