import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

/// A config text and the exact problems it must be refused with.
struct InvalidConfig: Sendable, CustomTestStringConvertible {
    var rule: String
    var json: String
    var problems: [String]
    var testDescription: String { rule }
}

/// One account object with `fields` (JSON text) inside a valid file.
private func oneAccount(_ fields: String) -> String {
    #"{"version": 1, "accounts": [{\#(fields)}]}"#
}

/// `problem` without its leading `line L, column C: `; the text unchanged when it has none
/// (which then fails the comparison).
func withoutPosition(_ problem: String) -> String {
    guard let match = problem.firstMatch(of: #/^line [0-9]+, column [0-9]+: /#) else { return "(no position) " + problem }
    return String(problem[match.range.upperBound...])
}

@Suite("Config validation")
struct ConfigValidationTests {
    @Test(
        "each rule refuses with its exact message",
        arguments: [
            InvalidConfig(
                rule: "the top level is an object", json: "[1, 2]",
                problems: [#"(top level): expected an object like {"accounts": [{"id": "work", "name": "Work"}]}"#]),
            InvalidConfig(
                rule: "accounts is required", json: #"{"version": 1}"#,
                problems: ["accounts: missing (required); `perch init` writes a starter config"]),
            InvalidConfig(rule: "accounts is a list", json: #"{"accounts": {"id": "a"}}"#, problems: ["accounts: expected a list"]),
            InvalidConfig(
                rule: "accounts is not empty", json: #"{"accounts": []}"#,
                problems: ["accounts: the list is empty; add at least one account"]),
            InvalidConfig(
                rule: "version is 1", json: #"{"version": 2, "accounts": [{"id": "a", "name": "A"}]}"#,
                problems: ["version: this Perch reads config version 1, found 2"]),
            InvalidConfig(
                rule: "version is a number", json: #"{"version": "1", "accounts": [{"id": "a", "name": "A"}]}"#,
                problems: ["version: this Perch reads config version 1, found not a whole number"]),
            InvalidConfig(
                rule: "an account is an object", json: #"{"accounts": [{"id": "a", "name": "A"}, "b"]}"#,
                problems: [#"accounts[1]: expected an object like {"id": "work", "name": "Work"}"#]),
            InvalidConfig(rule: "id is required", json: oneAccount(#""name": "A""#), problems: ["accounts[0].id: missing (required)"]),
            InvalidConfig(
                rule: "id is a string", json: oneAccount(#""id": 7, "name": "A""#), problems: ["accounts[0].id: expected a string"]),
            InvalidConfig(
                rule: "id is not empty", json: oneAccount(#""id": "", "name": "A""#), problems: ["accounts[0].id: must not be empty"]),
            InvalidConfig(
                rule: "id uses a-z 0-9 . _ -", json: oneAccount(#""id": "Work Stuff", "name": "A""#),
                problems: [#"accounts[0].id: "Work Stuff" may hold only a–z, 0–9, '.', '_' and '-'"#]),
            // fish-shell PR #10319 (issue 22, item 3): ids "-rf" and "--help" were accepted, then read as options.
            InvalidConfig(
                rule: "an id does not begin with '-' (fish-shell PR #10319)",
                json: #"{"accounts": [{"id": "-rf", "name": "A"}, {"id": "--help", "name": "B"}, {"id": "ok-", "name": "C"}]}"#,
                problems: [
                    #"accounts[0].id: "-rf" must not begin with '-' (it would read as an option)"#,
                    #"accounts[1].id: "--help" must not begin with '-' (it would read as an option)"#,
                ]),
            InvalidConfig(
                rule: "ids are unique",
                json: #"{"accounts": [{"id": "work", "name": "A"}, {"id": "x", "name": "X"}, {"id": "work", "name": "B"}]}"#,
                problems: [#"accounts[2].id: duplicate id "work" (first at accounts[0])"#]),
            InvalidConfig(rule: "name is required", json: oneAccount(#""id": "a""#), problems: ["accounts[0].name: missing (required)"]),
            InvalidConfig(
                rule: "name is not null", json: oneAccount(#""id": "a", "name": null"#), problems: ["accounts[0].name: missing (required)"]),
            InvalidConfig(
                rule: "name is not blank", json: oneAccount(#""id": "a", "name": "  ""#), problems: ["accounts[0].name: must not be empty"]),
            InvalidConfig(
                rule: "name draws something", json: oneAccount(#""id": "a", "name": "\u200b""#),
                problems: ["accounts[0].name: has nothing visible (only zero-width or control characters)"]),
            // Bug: a name of only a NUL (or other controls) was accepted and listed as ^@.
            InvalidConfig(
                rule: "name draws something that is not a control", json: oneAccount(#""id": "a", "name": "\u0000\t""#),
                problems: ["accounts[0].name: must not hold a control character (an escape, a line break, a tab)"]),
            // Bug (trust issue): names, handles and groups with an escape sequence or a newline were
            // accepted, and reached every other program reading the config or list --json raw.
            InvalidConfig(
                rule: "a name, handle or group holds no control character",
                json: oneAccount(#""id": "a", "name": "A\u001b[2Jb", "handle": "@x\ny", "group": "G\u0085""#),
                problems: [
                    "accounts[0].handle: must not hold a control character (an escape, a line break, a tab)",
                    "accounts[0].group: must not hold a control character (an escape, a line break, a tab)",
                    "accounts[0].name: must not hold a control character (an escape, a line break, a tab)",
                ]),
            // Bug: names of only a soft hyphen, Hangul fillers or the blank braille pattern were accepted and drew a blank row.
            InvalidConfig(
                rule: "name draws something that is not default-ignorable",
                json: oneAccount(#""id": "a", "name": "\u00ad\u3164\u2800\uffa0\u115f""#),
                problems: ["accounts[0].name: has nothing visible (only zero-width or control characters)"]),
            // Bug: a duplicate id in an account with another problem was reported only after that was fixed.
            InvalidConfig(
                rule: "a duplicate id is reported beside the account's other problems",
                json: #"{"accounts": [{"id": "work", "name": "A"}, {"id": "work", "name": "x", "color": "pink", "colour": "red"}]}"#,
                problems: [
                    #"accounts[1].color: "pink" is not one of black, red, green, yellow, blue, magenta, cyan, white"#,
                    #"accounts[1].id: duplicate id "work" (first at accounts[0])"#,
                    #"accounts[1].colour: unknown key, ignored (did you mean "color"?) (a warning)"#,
                ]),
            InvalidConfig(
                rule: "handle is a string", json: oneAccount(#""id": "a", "name": "A", "handle": 1"#),
                problems: ["accounts[0].handle: expected a string"]),
            InvalidConfig(
                rule: "group is not empty", json: oneAccount(#""id": "a", "name": "A", "group": """#),
                problems: ["accounts[0].group: must not be empty (leave the key out instead)"]),
            // Bug (issue 20): a handle or group of only spaces was accepted.
            InvalidConfig(
                rule: "a handle or group is not only spaces",
                json: oneAccount(#""id": "a", "name": "A", "handle": "   ", "group": " \t""#),
                problems: [
                    "accounts[0].handle: must not be only spaces",
                    "accounts[0].group: must not be only spaces",
                ]),
            InvalidConfig(
                rule: "version is a whole number", json: #"{"version": 1.5, "accounts": [{"id": "a", "name": "A"}]}"#,
                problems: ["version: this Perch reads config version 1, found not a whole number"]),
            InvalidConfig(
                rule: "color is one of the eight", json: oneAccount(#""id": "a", "name": "A", "color": "purple""#),
                problems: [#"accounts[0].color: "purple" is not one of black, red, green, yellow, blue, magenta, cyan, white"#]),
            InvalidConfig(
                rule: "onSwitch is a string", json: oneAccount(#""id": "a", "name": "A", "onSwitch": ["ls"]"#),
                problems: ["accounts[0].onSwitch: expected a string"]),
            InvalidConfig(
                rule: "every problem of every account is reported",
                json: #"{"accounts": [{"id": "A", "name": ""}, {"name": "B", "color": "pink"}]}"#,
                problems: [
                    #"accounts[0].id: "A" may hold only a–z, 0–9, '.', '_' and '-'"#, "accounts[0].name: must not be empty",
                    "accounts[1].id: missing (required)",
                    #"accounts[1].color: "pink" is not one of black, red, green, yellow, blue, magenta, cyan, white"#,
                ]),
        ])
    func rule(_ c: InvalidConfig) {
        do {
            let parsed = try ConfigLoader.parse(Array(c.json.utf8), path: "/c.json")
            Issue.record("accepted: \(parsed)")
        } catch {
            // Each problem starts with its line and column (pinned by ConfigLoaderTests), then the JSON path.
            guard case .invalid(let path, let problems) = error else {
                Issue.record("expected .invalid, got \(error)")
                return
            }
            #expect(path == "/c.json")
            #expect(problems.map(withoutPosition) == c.problems)
            #expect(error.lines.map { $0.replacing("config /c.json: ", with: "") }.map(withoutPosition) == c.problems)
        }
    }

    @Test("every field of format version 1 is read")
    func everyField() throws {
        let parsed = try ConfigLoader.parse(
            Array(
                oneAccount(#""id": "w.o_r-k9", "name": "Work", "handle": "@me", "group": "Jobs", "color": "cyan", "onSwitch": "true""#)
                    .utf8), path: "/c.json")
        #expect(parsed.accounts == [Account(id: "w.o_r-k9", name: "Work", handle: "@me", group: "Jobs", color: .cyan, onSwitch: "true")])
        #expect(parsed.warnings.isEmpty)
    }

    // Bug: "version": null was refused as "not a whole number".
    @Test("a null version is the same as a missing one")
    func nullVersion() throws {
        #expect(
            try ConfigLoader.parse(Array(#"{"version": null, "accounts": [{"id": "a", "name": "A"}]}"#.utf8), path: "/c").accounts.count
                == 1)
    }

    // Bug (issue 20): "version": 1.0 was refused as "not a whole number".
    @Test("a version written 1.0 or 1e0 is version 1", arguments: ["1.0", "1e0", "10E-1", "1.000"])
    func versionAsFraction(_ version: String) throws {
        let json = #"{"version": \#(version), "accounts": [{"id": "a", "name": "A"}]}"#
        #expect(try ConfigLoader.parse(Array(json.utf8), path: "/c").accounts.count == 1)
    }

    @Test("a null optional field is the same as a missing one")
    func nullOptional() throws {
        let parsed = try ConfigLoader.parse(Array(oneAccount(#""id": "a", "name": "A", "handle": null, "color": null"#).utf8), path: "/c")
        #expect(parsed.accounts == [Account(id: "a", name: "A")])
    }

    @Test(
        "a config with onSwitch commands must not be writable by group or others, as ssh asks",
        arguments: [(0o600, true), (0o644, true), (0o664, false), (0o606, false), (0o666, false)])
    func hookPermissions(mode: Int, allowed: Bool) throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try Data(oneAccount(#""id": "a", "name": "A", "onSwitch": "true""#).utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, mode_t(mode)) == 0)
            let paths = PerchPaths(config: path, state: folder + "/s.json", lookup: { _ in nil })
            do throws(ConfigError) {
                let loaded = try ConfigLoader.load(paths)
                #expect(allowed, "mode \(String(mode, radix: 8)) was accepted")
                #expect(loaded.accounts.first?.onSwitch == "true")
            } catch {
                #expect(!allowed, "mode \(String(mode, radix: 8)) was refused: \(error)")
                #expect(error == .unsafePermissions(path: path, mode: UInt32(mode)))
                #expect(error.lines.first?.hasSuffix("run: chmod go-w \(path)") == true, "\(error.lines)")
            }
        }
    }

    @Test("a config without onSwitch commands may have any mode")
    func noHooksAnyMode() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try Data(oneAccount(#""id": "a", "name": "A""#).utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o666) == 0)
            #expect(try ConfigLoader.load(PerchPaths(config: path, lookup: { _ in nil })).accounts.count == 1)
        }
    }

    @Test("paths with spaces or quotes are quoted for the shell in the chmod advice")
    func shellQuoting() {
        #expect(ConfigLoader.shellQuoted("/home/ada/.config/perch/accounts.json") == "/home/ada/.config/perch/accounts.json")
        #expect(ConfigLoader.shellQuoted("/tmp/my config.json") == "'/tmp/my config.json'")
        #expect(ConfigLoader.shellQuoted("/tmp/it's.json") == #"'/tmp/it'\''s.json'"#)
    }

    @Test(
        "edit distance, for guesses at misspelt keys",
        arguments: [("color", "colour", 1), ("name", "name", 0), ("", "abc", 3), ("handle", "hnadle", 2)])
    func distance(a: String, b: String, expected: Int) {
        #expect(editDistance(a, b) == expected)
    }
}
