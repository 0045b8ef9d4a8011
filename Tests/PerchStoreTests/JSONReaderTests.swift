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

/// The reader's verdict in strict mode: nil when `text` is one valid JSON value.
private func firstProblem(_ text: String, options: JSONReader.Options = .strict) -> JSONSyntaxError? {
    firstProblem(Array(text.utf8), options: options)
}

private func firstProblem(_ bytes: [UInt8], options: JSONReader.Options = .strict) -> JSONSyntaxError? {
    do {
        _ = try JSONReader.read(bytes, options: options)
        return nil
    } catch {
        return error
    }
}

@Suite("JSONReader")
struct JSONReaderTests {
    @Test("valid JSON has no problem", arguments: validJSON)
    func valid(_ text: String) {
        #expect(firstProblem(text) == nil)
    }

    @Test("invalid JSON: the first problem's line and column", arguments: invalidJSON)
    func invalid(_ c: (String, Int, Int, String)) throws {
        let problem = try #require(firstProblem(c.0))
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
        let problem = try #require(firstProblem(text))
        #expect(problem.line == 1)
        #expect(problem.column == 3)
        #expect(problem.message.contains("surrogate"))
    }

    @Test("a surrogate pair escape is valid")
    func surrogatePair() {
        #expect(firstProblem(#"["\uD83D\uDE00"]"#) == nil)
    }

    @Test("nesting is limited to 512 levels")
    func nesting() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(firstProblem(ok) == nil)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let problem = try #require(firstProblem(deep))
        #expect(problem.line == 1)
        #expect(problem.column == 513)
        #expect(problem.message.contains("deeply"))
    }

    @Test("position counts lines from 1 and columns in characters, with or without the line table")
    func position() throws {
        // Bytes: [ " a b " , \n " ç(2) d " , \n " 中(3) x " ]
        let document = try JSONReader.read(Array("[\"ab\",\n\"çd\",\n\"中x\"]".utf8))
        let table = JSONDocument.Positions(document)
        let cases: [(offset: Int, line: Int, column: Int)] = [
            (0, 1, 1), (2, 1, 3), (6, 1, 7), (7, 2, 1), (8, 2, 2), (10, 2, 3), (14, 3, 1), (15, 3, 2), (18, 3, 3),
        ]
        for c in cases {
            #expect(document.position(of: c.offset) == (c.line, c.column), "offset \(c.offset)")
            #expect(table.position(of: c.offset) == (c.line, c.column), "offset \(c.offset)")
        }
    }

    @Test("values come back with their byte ranges, strings decoded, numbers as written")
    func values() throws {
        let text = #"{"a": [1, -2.5e3, "x\n\u00e9\uD83D\uDE00", true, false, null], "b": {}, "é": "plain"}"#
        let document = try JSONReader.read(Array(text.utf8))
        let members = document.members(document.root)
        #expect(members.count == 3)
        #expect(members.map { document.string($0.key) } == ["a", "b", "é"])
        let list = try #require(document.value(of: document.root, forKey: "a"))
        let elements = document.elements(list)
        #expect(elements.map(document.kind) == [.number, .number, .string, .true, .false, .null])
        #expect(document.integer(elements[0]) == 1)
        #expect(document.integer(elements[1]) == nil)
        #expect(document.double(elements[1]) == -2500)
        #expect(document.string(elements[2]) == "x\né😀")
        #expect(document.string(elements[3]) == nil)
        #expect(String(decoding: document.bytes[document.range(list)], as: UTF8.self).hasPrefix("[1, -2.5e3"))
        #expect(document.bytes[document.range(list).upperBound - 1] == UInt8(ascii: "]"))
        #expect(document.value(of: document.root, forKey: "é").flatMap(document.string) == "plain")
        #expect(document.value(of: document.root, forKey: "c") == nil)
        #expect(document.count(try #require(document.value(of: document.root, forKey: "b"))) == 0)
    }

    @Test(
        "a key repeated in one object is an error naming both places",
        arguments: [
            (#"{"a": 1, "a": 2}"#, 1, 10, #"duplicate key "a" (first at line 1, column 2)"#),
            ("{\"a\": 1,\n \"\\u0061\": 2}", 2, 2, #"duplicate key "a" (first at line 1, column 2)"#),
            (#"[{"id": 1, "x": {"id": 2}, "id": 3}]"#, 1, 28, #"duplicate key "id" (first at line 1, column 3)"#),
        ])
    func duplicateKeys(_ c: (String, Int, Int, String)) throws {
        let problem = try #require(firstProblem(c.0))
        #expect(problem.line == c.1)
        #expect(problem.column == c.2)
        #expect(problem.message == c.3)
        // The same key in different objects is fine.
        #expect(firstProblem(#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#) == nil)
    }

    @Test("a key repeated in a large object is found too")
    func duplicateInLargeObject() throws {
        let members = (0..<300).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(firstProblem("{" + members + "}") == nil)
        let problem = try #require(firstProblem("{" + members + #", "k7": 1}"#))
        #expect(problem.message.hasPrefix(#"duplicate key "k7""#))
    }

    @Test(
        "JSON with Comments: comments and trailing commas, refused in strict mode",
        arguments: [
            "// a comment\n{\"a\": 1}", "{\"a\": 1 /* inline */}", "[1, 2,]", "{\"a\": [1,], \"b\": 2,}", "[1 /* é */, // x\n 2]\n// end",
            "/**/[/***/]", "{\"a\": \"// not a comment\"}",
        ])
    func jsonWithComments(_ text: String) throws {
        #expect(firstProblem(text, options: .jsonWithComments) == nil)
        if !text.contains("not a comment") { #expect(firstProblem(text) != nil) }
    }

    @Test(
        "JSON with Comments still refuses what is not part of it",
        arguments: [
            ("[,]", 1, 2, "value"), ("[1,,]", 1, 4, "value"), ("{,}", 1, 2, "key"), ("[1] /* open", 1, 5, "inside a comment"),
            ("/ [1]", 1, 1, "value"), ("[1]\n/", 2, 1, "after the end"),
        ])
    func jsonWithCommentsErrors(_ c: (String, Int, Int, String)) throws {
        let problem = try #require(firstProblem(c.0, options: .jsonWithComments))
        #expect((problem.line, problem.column) == (c.1, c.2), "\(problem)")
        #expect(problem.message.contains(c.3), "\(problem)")
    }

    /// (JSON text with Latin-1 escapes standing for raw bytes, column of the first bad byte)
    static let badUTF8: [(String, Int)] = [
        ("[\"a\u{C3}(\"]", 4),
        ("[1] //\u{FF}", 7),
        ("[\u{ED}\u{A0}\u{80}", 2),  // an encoded surrogate
        ("[\"\u{E0}\u{80}\u{AF}\"]", 3),  // an overlong form
        ("[\"\u{F4}\u{90}\u{80}\u{80}\"]", 3),  // beyond U+10FFFF
    ]

    @Test("invalid UTF-8 is found in strings, comments and between values", arguments: badUTF8)
    func invalidUTF8(_ c: (String, Int)) throws {
        let bytes = c.0.unicodeScalars.map { UInt8($0.value) }
        let problem = try #require(firstProblem(bytes, options: .jsonWithComments))
        #expect(problem.column == c.1)
        #expect(problem.message.contains("UTF-8"), "\(problem)")
    }

    @Test("a byte order mark is skipped and not counted as a column")
    func byteOrderMark() throws {
        let document = try JSONReader.read([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        #expect(document.range(document.root) == 3..<6)
        let problem = try #require(firstProblem([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)))
        #expect((problem.line, problem.column) == (1, 4))
    }

    @Test("a string member is a nesting level of its own: one below the deepest object is too deep")
    func stringMemberDepth() {
        func nested(_ objects: Int) -> String {
            String(repeating: #"{"a":"#, count: objects) + #""x""# + String(repeating: "}", count: objects)
        }
        #expect(firstProblem(nested(JSONReader.maximumDepth - 1)) == nil)
        let problem = firstProblem(nested(JSONReader.maximumDepth))
        #expect(problem?.message == "nested too deeply")
        #expect(problem?.column == 5 * JSONReader.maximumDepth + 1)
    }
}
