import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

@Suite("Typo suggestions")
struct AccountSuggestionTests {
    static let accounts = [
        Account(id: "client", name: "Client Work"), Account(id: "work", name: "Work"), Account(id: "home", name: "家のアカウント"),
        Account(id: "oss", name: "Open Source"), Account(id: "ops", name: "Operations"),
    ]

    @Test(
        "suggestions by edit distance over ids and names",
        arguments: [
            ("clinet", ["client"]),  // two neighbours swapped
            ("clent", ["client"]),  // one left out
            ("WROK", ["work"]),  // case ignored
            ("open sorce", ["Open Source"]),  // a name
            ("os", ["oss", "ops"]),  // equally near, config order
            ("家のアカウソト", ["家のアカウント"]),  // scalars, not bytes
            ("zzzzzz", []),  // nothing near
            ("x", []),  // one letter is not near a three-letter id
            ("clientele", ["client"]),  // three extra letters are within the cut-off for a long word
            ("cli", []),  // three left out of a short word are not
        ] as [(String, [String])])
    func suggestions(text: String, expected: [String]) {
        #expect(Account.suggestions(for: text, in: Self.accounts) == expected)
    }

    @Test(
        "optimal string alignment distance",
        arguments: [("", "abc", 3), ("abc", "abc", 0), ("abc", "acb", 1), ("kitten", "sitting", 3), ("ca", "abc", 3)])
    func distance(a: String, b: String, expected: Int) {
        #expect(Account.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars)) == expected)
        #expect(Account.editDistance(Array(b.unicodeScalars), Array(a.unicodeScalars)) == expected)
    }
}

@Suite("Screen as terminal text")
struct ScreenANSITests {
    @Test("a row becomes text with SGR changes only where the style changes, ending in the default")
    func ansiLine() {
        var screen = Screen(size: Size(width: 8, height: 1))
        screen.put("ab", column: 0, row: 0)
        screen.put("cd", column: 2, row: 0, style: Style(foreground: .green, bold: true))
        screen.put("日", column: 4, row: 0, style: .selected)
        #expect(screen.ansiLine(0) == "ab\u{1B}[0;1;32mcd\u{1B}[0;1;7m日\u{1B}[0m  ")
        #expect(screen.ansiLine(0, depth: .none) == "ab\u{1B}[0;1mcd\u{1B}[0;1;7m日\u{1B}[0m  ", "NO_COLOR keeps bold and reverse")
        var plain = Screen(size: Size(width: 3, height: 1))
        plain.put("xyz", column: 0, row: 0)
        #expect(plain.ansiLine(0) == "xyz", "no sequence at all for plain text")
    }
}
