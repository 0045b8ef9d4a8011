import Foundation
import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// A presentation set up from a fresh state, for golden screens.
struct PresentationCase: CustomTestStringConvertible, Sendable {
    let name: String
    let setUp: @Sendable (inout TabApp) -> Void
    var accounts: [Account] = Account.samples

    var testDescription: String { name }

    static func keys(_ keys: KeyEvent...) -> @Sendable (inout TabApp) -> Void {
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
            state.settingsState.values.sheetStyle = .inset
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

/// The wall clock of the Stats screens: Tuesday 2026-12-01, 14:05 in Paris (CET, UTC+01:00).
let statsWallTime = WallTime(seconds: WallTime.parseISO8601("2026-12-01T13:05:00Z")!, utcOffset: 3600, zone: "CET")

/// A little history: six switches over three days, the last one 35 minutes ago.
let littleHistory = SwitchHistory(events: [
    SwitchEvent(account: "work", time: WallTime.parseISO8601("2026-11-29T08:00:00Z")!, source: .tui),
    SwitchEvent(account: "personal", time: WallTime.parseISO8601("2026-11-29T17:30:00Z")!, source: .cli),
    SwitchEvent(account: "work", time: WallTime.parseISO8601("2026-11-30T08:15:00Z")!, source: .tui),
    SwitchEvent(account: "oss", time: WallTime.parseISO8601("2026-11-30T12:00:00Z")!, source: .tui, here: true),
    SwitchEvent(account: "work", time: WallTime.parseISO8601("2026-12-01T08:00:00Z")!, source: .cli),
    SwitchEvent(account: "personal", time: WallTime.parseISO8601("2026-12-01T12:30:00Z")!, source: .tui, here: true),
])

/// 10,000 switches among the sample accounts over the 40 days before the Stats clock, at
/// deterministic pseudo-random times (more on weekdays).
let bigHistory: SwitchHistory = {
    var seed: UInt64 = 42
    let ids = Account.samples.map(\.id)
    let end = statsWallTime.seconds
    let span: Int64 = 40 * 86_400
    var events: [SwitchEvent] = []
    for index in 0..<10_000 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let time = end - span + Int64((seed >> 20) % UInt64(span))
        let account = ids[Int((seed >> 45) % UInt64(ids.count))]
        events.append(SwitchEvent(account: account, time: time, source: index % 3 == 0 ? .cli : .tui))
    }
    return SwitchHistory(events: events)
}()

/// Stats on the fixed clock with `history`.
func statsCase(_ name: String, _ history: SwitchHistory) -> PresentationCase {
    PresentationCase(name: name) { state in
        state.history = history
        _ = state.update(.outcome(AnyOutcome(statsWallTime)))
        _ = state.update(.key(.char("3")))
    }
}

private let commandAccounts: [Account] = [
    Account(id: "me", name: "Me"),
    Account(
        id: "gh", name: "GitHub", handle: "@ada",
        catalog: CatalogCommands(command: "gh repo list", preview: "gh repo view \"$PERCH_ITEM_ID\"", open: "gh repo view --web")),
]

private let commandCases: [PresentationCase] = [
    PresentationCase(
        name: "catalog-command-loading",
        setUp: { state in
            _ = state.update(.key(.char("2")), at: 2_345)
        }, accounts: commandAccounts),
    PresentationCase(
        name: "catalog-command-failed",
        setUp: { state in
            _ = state.update(.key(.char("2")))
            _ = state.update(
                .outcome(
                    AnyOutcome(
                        CatalogLoaded.failed(
                            accountID: "gh", reason: "exited with status 4\nerror: \u{1B}[31mnot logged in\u{1B}[0m\nrun gh auth login")),
                    for: .pane(.catalog)))
        }, accounts: commandAccounts),
    PresentationCase(
        name: "catalog-command-preview",
        setUp: { state in
            _ = state.update(.key(.char("2")))
            let items = (1...40).map {
                CatalogItem(id: "ada/repo-\($0)", title: "ada/repo-\($0)", detail: "Repository number \($0)", kind: "")
            }
            _ = state.update(.outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: items, skipped: 0)), for: .pane(.catalog)))
            _ = state.update(.key(.char("j")))
            _ = state.update(.key(.char("m")))
            _ = state.update(
                .outcome(
                    AnyOutcome(
                        CatalogPreviewed(
                            accountID: "gh", itemID: "ada/repo-2", .text("ada/repo-2\n\u{1B}]0;owned\u{07}Stars: 12\tForks: 3\n"))),
                    for: .pane(.catalog)))
        }, accounts: commandAccounts),
    PresentationCase(
        name: "catalog-config-fields", setUp: PresentationCase.keys(.char("2")),
        accounts: [
            Account(id: "me", name: "Me"),
            Account(
                id: "work", name: "Work", handle: "@ada.work", group: "Jobs", color: .blue,
                onSwitch: "git config --global user.email ada@work.example"),
        ]),
]

private let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 200, height: 60)]

/// Golden screens of every presentation at three sizes, in `Golden/NAME-WxH.txt`, each row with
/// its trailing spaces cut. `PERCH_RECORD_GOLDEN=1` records them anew.
@Suite("Golden screens of the presentations")
struct PresentationGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(
        "Stats with no history, a little and 10,000 switches, at 80×24 and 200×60",
        arguments: [
            statsCase("stats-none", SwitchHistory()), statsCase("stats-little", littleHistory), statsCase("stats-10000", bigHistory),
        ],
        [Size(width: 80, height: 24), Size(width: 200, height: 60)])
    func statsGolden(_ presentation: PresentationCase, _ size: Size) throws {
        try golden(presentation, size)
    }

    @Test("each presentation at 80×24, 40×12 and 200×60", arguments: cases + commandCases, sizes)
    func golden(_ presentation: PresentationCase, _ size: Size) throws {
        var state = TabApp.perch(
            accounts: presentation.accounts, saved: SavedState(currentAccount: presentation.accounts[1].id), size: size)
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
