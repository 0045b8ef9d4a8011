import Foundation
import Testing

@testable import PerchStore

private let validJSON: [String] = [
    "{}",
    "[]",
    "\"x\"",
    "0",
    "-0",
    "-1.5e+10",
    "1E-3",
    "12.25",
    "true",
    "false",
    " null ",
    #"{"a":[1,2,{"b":"\u00e9\n\"\\\/"}]}"#,
    "\"é中😀\"",
    "[[[[]]]]",
    "\n{\r\n\t\"a\" : 1 ,\"b\":[ ]}\n",
    #"{"accounts": [{"id": "work", "name": "Work", "handle": "@ada"}]}"#,
]

/// (JSON text, 1-based line, 1-based column in characters, a fragment of the message)
private let invalidJSON: [(String, Int, Int, String)] = [
    ("", 1, 1, "end of file"),
    ("   ", 1, 4, "end of file"),
    ("{", 1, 2, "end of file"),
    ("{\"a\" 1}", 1, 6, "':'"),
    ("{'a':1}", 1, 2, "double quotes"),
    ("{\"a\":}", 1, 6, "value"),
    ("[1,]", 1, 4, "value"),
    ("[1 2]", 1, 4, "']'"),
    ("[1,2", 1, 5, "end of file"),
    ("{\"a\":1}x", 1, 8, "after the end"),
    ("[1]]", 1, 4, "after the end"),
    ("01", 1, 2, "after the end"),
    ("[01]", 1, 3, "']'"),
    ("1.", 1, 3, "digit"),
    ("-", 1, 2, "digit"),
    ("1e", 1, 3, "exponent"),
    ("+1", 1, 1, "value"),
    ("NaN", 1, 1, "value"),
    ("tru", 1, 4, "true"),
    ("nul", 1, 4, "null"),
    ("\"abc", 1, 5, "end of file"),
    ("\"\\", 1, 3, "end of file"),
    ("\"a\\x\"", 1, 4, "escape"),
    ("\"\\u12G4\"", 1, 6, "hex"),
    ("\"a\tb\"", 1, 3, "control character"),
    ("{\n  \"a\": tru\n}", 2, 11, "true"),
    ("[\"é\", x]", 1, 7, "value"),
    ("[\"中😀\", x]", 1, 8, "value"),
    ("\r\n[1,]", 2, 4, "value"),
    ("\t[1 2]", 1, 5, "']'"),
    ("{\n  \"accounts\": [\n    {\"id\": \"a\"}\n  ]\n", 5, 1, "end of file"),
]

@Suite("JSONSyntaxLocator")
struct JSONSyntaxLocatorTests {
    @Test("valid JSON has no problem", arguments: validJSON)
    func valid(_ text: String) {
        #expect(JSONSyntaxLocator.firstProblem(in: Array(text.utf8)) == nil)
    }

    @Test("invalid JSON: the first problem's line and column", arguments: invalidJSON)
    func invalid(_ c: (String, Int, Int, String)) throws {
        let problem = try #require(JSONSyntaxLocator.firstProblem(in: Array(c.0.utf8)))
        #expect(problem.line == c.1)
        #expect(problem.column == c.2)
        #expect(problem.message.contains(c.3), "message: \(problem.message)")
    }

    @Test("the table agrees with Foundation's parser on what is valid")
    func agreesWithFoundation() {
        for text in validJSON {
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "Foundation rejects \(text)")
        }
        // Foundation on Linux accepts trailing commas (`[1,]`), which RFC 8259 does not: those cases are left out.
        for (text, _, _, _) in invalidJSON where !text.contains(",]") && !text.contains(",}") {
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) == nil, "Foundation accepts \(text)")
        }
    }

    // Bug: a lone surrogate escape such as "\uD800" passed the locator, so the user got Foundation's generic message.
    @Test("unpaired surrogate escapes are located", arguments: [#"["\uD800"]"#, #"["\uDC00"]"#, #"["\uD800\u0041"]"#, #"["\uD800x"]"#])
    func unpairedSurrogate(_ text: String) throws {
        let problem = try #require(JSONSyntaxLocator.firstProblem(in: Array(text.utf8)))
        #expect(problem.line == 1)
        #expect(problem.column == 3)
        #expect(problem.message.contains("surrogate"))
    }

    @Test("a surrogate pair escape is valid")
    func surrogatePair() {
        #expect(JSONSyntaxLocator.firstProblem(in: Array(#"["\uD83D\uDE00"]"#.utf8)) == nil)
    }

    @Test("nesting is limited to 512 levels")
    func nesting() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(JSONSyntaxLocator.firstProblem(in: Array(ok.utf8)) == nil)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let problem = try #require(JSONSyntaxLocator.firstProblem(in: Array(deep.utf8)))
        #expect(problem.line == 1)
        #expect(problem.column == 513)
        #expect(problem.message.contains("deeply"))
    }

    @Test("position counts lines from 1 and columns in characters")
    func position() {
        let bytes = Array("ab\nçd\n中x".utf8)
        #expect(JSONSyntaxLocator.position(of: 0, in: bytes) == (1, 1))
        #expect(JSONSyntaxLocator.position(of: 2, in: bytes) == (1, 3))
        #expect(JSONSyntaxLocator.position(of: 3, in: bytes) == (2, 1))
        #expect(JSONSyntaxLocator.position(of: 5, in: bytes) == (2, 2))  // after ç (2 bytes)
        #expect(JSONSyntaxLocator.position(of: 7, in: bytes) == (3, 1))
        #expect(JSONSyntaxLocator.position(of: 10, in: bytes) == (3, 2))  // after 中 (3 bytes)
    }
}
