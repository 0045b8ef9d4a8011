import Foundation
import Testing

@testable import PerchCore

/// A presentation set up from a fresh state, for golden screens.
struct PresentationCase: CustomTestStringConvertible, Sendable {
    let name: String
    let setUp: @Sendable (inout AppState) -> Void
    var accounts: [Account] = Account.samples

    var testDescription: String { name }

    static func keys(_ keys: KeyEvent...) -> @Sendable (inout AppState) -> Void {
        { state in for key in keys { _ = state.update(.key(key)) } }
    }
}

/// Accounts with groups, for the headings.
private let groupedAccounts: [Account] = [
    Account(id: "me", name: "Me", handle: "@ada"),
    Account(id: "work", name: "Work", handle: "@ada.lovelace", group: "Jobs"),
    Account(id: "oss", name: "Open Source", handle: "@ada-oss", group: "Community"),
    Account(id: "side", name: "Side Project", handle: "@engine", group: "Jobs"),
]

private let manyAccounts: [Account] = (1...120).map { Account(id: "a\($0)", name: "Account \($0)", handle: "@user\($0)") }

private let cases: [PresentationCase] = [
    PresentationCase(name: "sheet", setUp: PresentationCase.keys(.char("a"))),
    PresentationCase(name: "sheet-large", setUp: PresentationCase.keys(.char("a"), .char("K"))),
    PresentationCase(name: "sheet-groups", setUp: PresentationCase.keys(.char("a")), accounts: groupedAccounts),
    PresentationCase(
        name: "sheet-filter", setUp: PresentationCase.keys(.char("a"), .char("/"), .char("1"), .char("2")), accounts: manyAccounts),
    PresentationCase(
        name: "sheet-inset",
        setUp: { state in
            state.sheetStyle = .inset
            _ = state.update(.key(.char("a")))
        }),
    PresentationCase(name: "help-catalog-top", setUp: PresentationCase.keys(.char("2"), .char("?"))),
    PresentationCase(name: "help-catalog-middle", setUp: PresentationCase.keys(.char("2"), KeyEvent(.pageDown), .char("?"))),
    PresentationCase(name: "help-catalog-bottom", setUp: PresentationCase.keys(.char("2"), .char("G"), .char("?"))),
    PresentationCase(name: "help-over-sheet", setUp: PresentationCase.keys(.char("a"), .char("?"))),
    PresentationCase(name: "context-menu-top", setUp: PresentationCase.keys(.char("2"), .char("m"))),
    PresentationCase(name: "context-menu-middle", setUp: PresentationCase.keys(.char("2"), KeyEvent(.pageDown), .char("m"))),
    PresentationCase(name: "context-menu-bottom", setUp: PresentationCase.keys(.char("2"), .char("G"), .char("m"))),
    PresentationCase(
        name: "alert-over-menu",
        setUp: PresentationCase.keys(.char("2"), KeyEvent(.pageDown), .char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter))),
    PresentationCase(
        name: "catalog-pinned", setUp: PresentationCase.keys(.char("2"), .char("G"), .char("m"), .char("j"), KeyEvent(.enter))),
    PresentationCase(name: "cover-item", setUp: PresentationCase.keys(.char("2"), KeyEvent(.pageDown), .char("m"), KeyEvent(.enter))),
    PresentationCase(name: "sheet-over-cover", setUp: PresentationCase.keys(.char("2"), .char("m"), KeyEvent(.enter), .char("a"))),
    PresentationCase(
        name: "account-form",
        setUp: { state in
            for key in [KeyEvent.char("4"), .char("j"), KeyEvent(.enter)] { _ = state.update(.key(key)) }
            _ = state.update(.paste("travel"))
            _ = state.update(.key(KeyEvent(.tab)))
            _ = state.update(.paste("Travel"))
        }),
    PresentationCase(
        name: "account-form-errors",
        setUp: { state in
            _ = state.update(.key(.char("a")))
            _ = state.update(.key(KeyEvent(.end)))
            _ = state.update(.key(KeyEvent(.enter)))
            _ = state.update(.paste("Work!"))
            _ = state.update(.key(KeyEvent(.enter)))
        }),
]

private let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 200, height: 60)]

/// Golden screens of every presentation at three sizes, in `Golden/NAME-WxH.txt`, each row with
/// its trailing spaces cut. `PERCH_RECORD_GOLDEN=1` records them anew.
@Suite("Golden screens of the presentations")
struct PresentationGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test("each presentation at 80×24, 40×12 and 200×60", arguments: cases, sizes)
    func golden(_ presentation: PresentationCase, _ size: Size) throws {
        var state = AppState(accounts: presentation.accounts, saved: SavedState(currentAccount: presentation.accounts[1].id), size: size)
        presentation.setUp(&state)
        let text = state.render().lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
        let file = Self.folder.appendingPathComponent("\(presentation.name)-\(size.width)x\(size.height).txt")
        if ProcessInfo.processInfo.environment["PERCH_RECORD_GOLDEN"] == "1" {
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(actualLines.count == expectedLines.count, "row count of \(file.lastPathComponent)")
        for (row, (a, e)) in zip(actualLines, expectedLines).enumerated() where a != e {
            Issue.record("\(file.lastPathComponent) row \(row):\n  got      \(a)\n  expected \(e)\n(PERCH_RECORD_GOLDEN=1 records it anew)")
        }
    }
}
