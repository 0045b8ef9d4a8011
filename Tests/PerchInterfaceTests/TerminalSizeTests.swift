import PerchInterfaceTesting
import PerchKit
import PerchTestSupport
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// A state with something to lose in every pane: the Catalog scrolled, Stats scrolled, the sheet
/// up with its cursor moved, on an 80×24 screen.
private func busyState(tab: Tab = .catalog) -> TabApp {
    let accounts = (1...40).map { Account(id: "a\($0)", name: "Account \($0)") }
    var state = TabApp.perch(accounts: accounts, saved: SavedState(currentAccount: "a3"), size: Size(width: 80, height: 24))
    state.selectedTab = .catalog
    for _ in 0..<30 { _ = state.update(.key(.char("j"))) }
    _ = state.update(.scroll(.none, notches: 1))
    state.selectedTab = .stats
    _ = state.update(.key(KeyEvent(.pageDown)))
    state.selectedTab = tab
    _ = state.update(.key(.char("a")))
    _ = state.update(.key(KeyEvent(.down)))
    return state
}

/// Every row of `screen` is exactly its width in columns, and nothing was drawn outside it.
private func expectFullRows(_ screen: Screen, _ note: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(screen.lines.count == screen.size.height, "\(note)", sourceLocation: sourceLocation)
    for line in screen.lines where DisplayWidth.columns(of: line) != screen.size.width {
        Issue.record(
            "\(note): a row of \(DisplayWidth.columns(of: line)) columns: \(line.debugDescription)", sourceLocation: sourceLocation)
        return
    }
}

@Suite("Terminal sizes")
struct TerminalSizeTests {
    @Test("19×6 shows only the notice, centred: terminal too small (19×6, needs 20×6)")
    func tooSmallNotice() {
        let state = TabApp.perch(accounts: Account.samples, size: Size(width: 19, height: 6))
        #expect(
            state.render().lines == [
                String(repeating: " ", count: 19),
                String(repeating: " ", count: 19),
                "terminal too small ",
                "(19×6, needs 20×6) ",
                String(repeating: " ", count: 19),
                String(repeating: " ", count: 19),
            ])
    }

    @Test(
        "below 20×6 in either direction the notice replaces the interface",
        arguments: [Size(width: 19, height: 24), Size(width: 80, height: 5), Size(width: 500, height: 1), Size(width: 1, height: 200)])
    func tooSmallEitherWay(_ size: Size) {
        let text = TabApp.perch(accounts: Account.samples, size: size).render().text
        #expect(text.contains("terminal") || size.width < "terminal".count, "\(text.debugDescription)")
        #expect(!text.contains("Overview"), "no part of the interface is drawn")
        let usable = TabApp.perch(accounts: Account.samples, size: Layout.minimumSize).render().text
        #expect(usable.contains("Overview") && !usable.contains("too small"), "20×6 is usable")
    }

    @Test("every size from 1×1 to 40×16, and edges up to 500×200, renders full rows on every tab, sheet up or not")
    func everySize() {
        var sizes = (1...40).flatMap { width in (1...16).map { Size(width: width, height: $0) } }
        sizes += [
            Size(width: 500, height: 200), Size(width: 500, height: 1), Size(width: 1, height: 200), Size(width: 20, height: 200),
            Size(width: 500, height: 6), Size(width: 213, height: 57), Size(width: 0, height: 0), Size(width: 0, height: 10),
        ]
        for (index, size) in sizes.enumerated() {
            var state = busyState(tab: Tab.allCases[index % 4])
            if index % 3 == 0 { while state.activeTop != nil { _ = state.update(.key(KeyEvent(.escape))) } }
            state.bannerText = index % 5 == 0 ? "Could not save the switch: the state file is locked by another process" : nil
            _ = state.update(.resize(size))
            expectFullRows(state.render(), "\(size) on \(state.selectedTab)")
        }
    }

    @Test("resizes through sizes too small to use leave every pane's state exactly as it was")
    func tooSmallKeepsState() {
        let before = busyState()
        var state = before
        for size in [Size(width: 1, height: 1), Size(width: 19, height: 6), Size(width: 80, height: 5), Size(width: 0, height: 0)] {
            _ = state.update(.resize(size))
        }
        _ = state.update(.resize(Size(width: 80, height: 24)))
        #expect(state.render() == before.render() && state.presentedValues == before.presentedValues)
        #expect(state.render() == before.render())
    }

    @Test("any sequence of sizes, then the first size again: cursors, tab and sheet are as they were", arguments: [1, 2, 3, 4, 5])
    func randomResizesKeepCursors(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let before = busyState()
        var state = before
        for step in 0..<50 {
            let size = Size(width: Int.random(in: 1...500, using: &generator), height: Int.random(in: 1...200, using: &generator))
            _ = state.update(.resize(size))
            if step % 10 == 0 { expectFullRows(state.render(), "\(size)") }
        }
        _ = state.update(.resize(Size(width: 80, height: 24)))
        #expect(state.catalog.cursor == before.catalog.cursor)
        #expect(state.sheet?.cursor == before.sheet?.cursor)
        #expect(state.selectedTab == before.selectedTab)
        #expect(state.presented.count == before.presented.count)
        // Each cursor is on screen again.
        let rows = Layout(size: state.size).listRows
        #expect((state.catalog.scroll..<(state.catalog.scroll + rows)).contains(state.catalog.cursor))
    }

    @Test("while the terminal is too small, keys, clicks and holds do nothing; q and Ctrl-C still quit")
    func tooSmallIgnoresInput() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.resize(Size(width: 10, height: 3)))
        let before = state
        for event: UIEvent in [
            .key(.char("a")), .key(.char("2")), .key(KeyEvent(.tab)), .key(.char("j")), .keyHold(.char("1")),
            .longPress(.tab(.overview)), .tap(.tab(.stats)), .scroll(.none, notches: 3), .paste("q"),
        ] {
            #expect(state.update(event) == [])
        }
        #expect(state.render() == before.render() && state.presentedValues == before.presentedValues)
        #expect(state.hitTest(Position(column: 1, row: 2)) == .none, "nothing on the notice reacts to the pointer")
        #expect(state.update(.key(.char("q"))) == [.quit])
        #expect(state.update(.key(KeyEvent(.control("c")))) == [.quit])

        // With the sheet up, Enter picks nothing unseen.
        var sheet = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = sheet.update(.key(.char("a")))
        _ = sheet.update(.resize(Size(width: 19, height: 6)))
        #expect(sheet.update(.key(KeyEvent(.enter))) == [])
        #expect(sheet.saved.currentAccount == nil && sheet.sheet != nil)
    }

    @Test("a terminal larger than 1000×500 is laid out in its top-left 1000×500", arguments: [65535, 1001, 100_000])
    func sizeIsCapped(_ side: Int) {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: side, height: side))
        #expect(state.size == Layout.maximumSize)
        _ = state.update(.resize(Size(width: side, height: 30)))
        #expect(state.size == Size(width: 1000, height: 30))
        #expect(state.render().cells.count == 30_000)
    }
}
