import Testing

@testable import PerchStore

@Suite("JSON path locator")
struct JSONPathLocatorTests {
    static let text = """
        {"version": 1,
          "accounts": [
            {"id": "a", "name": "A", "tags": {"x": [1, "]", {"y": 2}]}},
            {"id": "b\\"q", "name": "B"},
            {"name": "C"}
          ]
        }
        """

    @Test(
        "the value a path names, or the deepest value on the way",
        arguments: [
            ("version", 1, 13), ("accounts", 2, 15), ("accounts[0]", 3, 5), ("accounts[0].name", 3, 25),
            ("accounts[1].id", 4, 12), ("accounts[1].name", 4, 28),  // after a key with an escaped quote
            ("accounts[2].id", 5, 5),  // missing: its object
            ("accounts[7]", 2, 15),  // no such element: the list
            ("accounts[0].tags.x[2].y", 3, 59),
        ] as [(String, Int, Int)])
    func position(path: String, line: Int, column: Int) throws {
        let found = try #require(JSONPathLocator.position(of: path, in: Array(Self.text.utf8)))
        #expect(found.line == line)
        #expect(found.column == column)
    }

    @Test("a config problem is placed by the path before its colon; a top-level one at the start; text without a colon is not")
    func problems() throws {
        let bytes = Array(Self.text.utf8)
        let found = try #require(JSONPathLocator.position(ofProblem: #"accounts[1].name: expected a string"#, in: bytes))
        #expect(found.line == 4)
        let top = try #require(JSONPathLocator.position(ofProblem: "(top level): expected an object", in: bytes))
        #expect(top.line == 1 && top.column == 1)
        #expect(JSONPathLocator.position(ofProblem: "no colon here", in: bytes) == nil)
    }
}
