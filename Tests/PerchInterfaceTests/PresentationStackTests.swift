import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

private func state(_ accounts: [Account] = Account.samples, size: Size = Size(width: 80, height: 24)) -> TabApp {
    TabApp.perch(accounts: accounts, saved: SavedState(currentAccount: "personal"), size: size)
}

private func press(_ state: inout TabApp, _ keys: KeyEvent...) {
    for key in keys { _ = state.update(.key(key)) }
}

private let escape = KeyEvent(.escape)

/// Kinds of the layers, bottom first, for readable expectations.
private func kinds(_ state: TabApp) -> [String] {
    let names: [(any Layer.Type, String)] = [
        (AccountSheet.self, "sheet"), (HelpLayer.self, "help"), (ContextMenu.self, "menu"), (AlertLayer.self, "alert"),
        (AccountForm.self, "form"), (Cover.self, "cover"),
    ]
    return state.presented.map { layer in names.first { type(of: layer.base) == $0.0 }?.1 ?? "?" }
}

@Suite("The presentation stack")
struct PresentationStackTests {
    @Test("Esc dismisses only the top layer, at each depth")
    func escapeAtEachDepth() {
        var s = state()
        press(&s, .char("a"), .char("?"))
        #expect(kinds(s) == ["sheet", "help"])
        press(&s, escape)
        #expect(kinds(s) == ["sheet"])
        press(&s, escape)
        #expect(kinds(s) == [])
        press(&s, escape)
        #expect(kinds(s) == [], "Esc with nothing presented does nothing")
    }

    @Test("a click outside the top layer dismisses it, and only it, at each depth")
    func outsideClickAtEachDepth() {
        var s = state()
        press(&s, .char("a"), .char("?"))
        // The help box at 80×24 is centred; row 0 is outside it (and outside the sheet).
        #expect(s.hitTest(Position(column: 0, row: 0)) == .outside)
        _ = s.update(.tap(s.hitTest(Position(column: 0, row: 0))))
        #expect(kinds(s) == ["sheet"])
        _ = s.update(.tap(s.hitTest(Position(column: 0, row: 0))))
        #expect(kinds(s) == [])
    }

    @Test("Esc at each depth: menu over the Catalog, alert over the menu, sheet over a cover")
    func escapeOverMenuAlertAndCover() {
        var s = state()
        press(&s, .char("2"), .char("j"), .char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter))
        #expect(kinds(s) == ["menu", "alert"])
        press(&s, escape)
        #expect(kinds(s) == ["menu"])
        press(&s, escape)
        #expect(kinds(s) == [])
        #expect(s.selectedTab == .catalog && s.catalog.cursor == 1, "the Catalog is as it was")
        press(&s, .char("m"), KeyEvent(.enter), .char("a"))
        #expect(kinds(s) == ["cover", "sheet"])
        press(&s, escape)
        #expect(kinds(s) == ["cover"])
        press(&s, escape)
        #expect(kinds(s) == [])
    }

    @Test("outside clicks at each depth: alert over menu, menu over the Catalog, sheet over a cover")
    func outsideClicksOverMenuAlertAndCover() {
        var s = state()
        press(&s, .char("2"), .char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter))
        #expect(kinds(s) == ["menu", "alert"])
        // Column 79 of the tab bar is outside the alert, the card and the menu.
        let corner = Position(column: 79, row: 23)
        _ = s.update(.tap(s.hitTest(corner)))
        #expect(kinds(s) == ["menu"], "the alert alone was dismissed")
        _ = s.update(.tap(s.hitTest(corner)))
        #expect(kinds(s) == [])
        #expect(s.selectedTab == .catalog, "the click went no further than dismissing")
        press(&s, .char("m"), KeyEvent(.enter), .char("a"))
        #expect(s.hitTest(Position(column: 40, row: 3)) == .outside, "above the sheet")
        _ = s.update(.tap(s.hitTest(Position(column: 40, row: 3))))
        #expect(kinds(s) == ["cover"])
        #expect(s.hitTest(Position(column: 40, row: 3)) == .coverBody, "a cover has no outside")
        _ = s.update(.tap(s.hitTest(Position(column: 40, row: 3))))
        #expect(kinds(s) == ["cover"])
    }

    @Test("a click inside the top layer does not dismiss it")
    func insideClickKeepsLayer() {
        var s = state()
        press(&s, .char("?"))
        let lines = s.presented.last?.help?.sections.reduce(0) { $0 + $1.rows.count + ($1.title.isEmpty ? 0 : 1) } ?? 0
        let frame = HelpLayer.layout(lineCount: lines, in: Rect(x: 0, y: 0, width: s.size.width, height: s.size.height)).box
        let inside = Position(column: frame.x + 3, row: frame.y + 2)
        #expect(s.hitTest(inside) == .layerChrome)
        _ = s.update(.tap(.layerChrome))
        #expect(kinds(s) == ["help"])
    }

    @Test("keys go to the top layer: j scrolls the help over the sheet, not the sheet's cursor")
    func keysGoToTop() throws {
        var s = state(size: Size(width: 80, height: 12))
        press(&s, .char("a"))
        let before = try #require(s.sheet).cursor
        press(&s, .char("?"), .char("j"))
        guard let help = s.presented.last?.help else {
            Issue.record("no help on top")
            return
        }
        #expect(help.scroll == 1)
        guard let sheet = s.presented[0].as(AccountSheet.self) else {
            Issue.record("no sheet below")
            return
        }
        #expect(sheet.cursor == before)
    }

    @Test("the pointer does not reach a pane below a presented layer")
    func pointerStopsAtTopLayer() {
        var s = state()
        press(&s, .char("a"))
        let tabRow = Layout(size: s.size).tabRow
        #expect(s.hitTest(Position(column: 30, row: tabRow)) != .tab(.catalog), "the sheet covers the tab bar")
        _ = s.update(.longPress(.tab(.overview)))
        #expect(kinds(s) == ["sheet"], "no second sheet from a long-press under the sheet")
    }

    @Test("panes keep their state under the stack")
    func panesKeepState() {
        var s = state()
        press(&s, .char("2"), .char("j"), .char("j"), .char("j"))
        let catalog = s.catalog
        press(&s, .char("a"), .char("j"), .char("?"), .char("j"), escape, escape)
        #expect(kinds(s) == [])
        #expect(s.selectedTab == .catalog)
        #expect(s.catalog == catalog)
    }

    @Test("q does nothing while a layer is up; Ctrl-C quits from any layer")
    func quitKeys() {
        var s = state()
        press(&s, .char("a"), .char("?"))
        #expect(s.update(.key(.char("q"))) == [])
        #expect(s.update(.key(KeyEvent(.control("c")))) == [.quit])
    }
}

@Suite("Key bindings and the help overlay")
struct KeyBindingTests {
    /// Each screen with keys of its own, by its key table's title, with the keys that reach it:
    /// each tab, and each layer over the screen it opens on.
    static let screens: [(title: String, keys: [KeyEvent])] = [
        ("Overview", [.char("1")]), ("Catalog", [.char("2")]), ("Stats", [.char("3")]), ("Settings", [.char("4")]),
        ("Account sheet", [.char("a")]), ("Sheet filter", [.char("a"), .char("/")]), ("Context menu", [.char("2"), .char("m")]),
        ("Cover", [.char("2"), KeyEvent(.enter)]),
        ("Alert", [.char("2"), .char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter)]),
        ("Add account", [.char("a"), .char("+")]),
    ]

    /// The state on the screen titled `title`, tall and wide enough to show every help line at once.
    static func state(on title: String) -> TabApp {
        var s = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: Size(width: 200, height: 60))
        for key in screens.first { $0.title == title }!.keys { _ = s.update(.key(key)) }
        return s
    }

    // Found when the test came to list every layer's table: the context menu's "run the action,
    // or open the previewed item" was cut short in its help.
    @Test("help lists every key of the screen below it, its own first, label and summary, none cut short", arguments: screens.map(\.title))
    func helpListsTable(_ title: String) throws {
        var s = Self.state(on: title)
        let takesTyping = s.presented.last.map { $0.base is AccountForm || ($0.base as? AccountSheet)?.isEditingFilter == true } ?? false
        _ = s.update(.key(takesTyping ? KeyEvent(.function(1)) : .char("?")))
        let help = try #require(s.presented.last?.help, "no help over \(title)")
        #expect(help.title == title)
        let text = s.render().text
        for row in help.rows {
            #expect(text.contains(row.label), "\(row.label)")
            #expect(text.contains(row.help), "\(row.help)")
        }
        #expect(help.rows.contains { $0.label.contains("Ctrl-C") }, "the process's keys are listed everywhere")
    }

    @Test("no key is bound twice in one table, and none binds the process's own (Ctrl-C, Ctrl-Z)")
    func noDuplicateKeys() {
        let tables: [(String, [KeyEvent])] =
            Tab.panes.map { ($0.title, $0.helpRowKeys) } + [
                (AccountSheet.keyTable.title, AccountSheet.keyTable.rows.flatMap(\.keys)),
                (AccountSheet.filterKeyTable.title, AccountSheet.filterKeyTable.rows.flatMap(\.keys)),
                (ContextMenu.keyTable.title, ContextMenu.keyTable.rows.flatMap(\.keys)),
                (Cover.keyTable.title, Cover.keyTable.rows.flatMap(\.keys)),
                (AccountForm.keyTable.title, AccountForm.keyTable.rows.flatMap(\.keys)),
                ("Perch", PerchModel(accounts: []).keys.rows.flatMap(\.keys)),
            ]
        for (title, keys) in tables {
            #expect(Set(keys).count == keys.count, "\(title)")
            #expect(!keys.contains(KeyEvent(.control("c"))) && !keys.contains(KeyEvent(.control("z"))), "\(title)")
        }
    }

    @Test("the keys the table lists act: G moves the Catalog cursor to the last item, K raises the sheet")
    func tableDrivesInput() throws {
        let last = try #require(CatalogPane.keyTable.rows.first { $0.label == "End G" })
        var s = perchState()
        press(&s, .char("2"), last.keys[1])
        #expect(s.catalog.cursor == s.catalogItems.count - 1)
        let larger = try #require(AccountSheet.keyTable.rows.first { $0.label == "Shift-↑ K" })
        for key in larger.keys {
            var t = perchState()
            press(&t, .char("a"), key)
            #expect(t.sheet?.detent == .large, "\(key)")
        }
    }

    @Test("? over a sheet describes the sheet; ? again closes the help")
    func helpContext() {
        var s = perchState()
        press(&s, .char("a"), .char("?"))
        guard let help = s.presented.last?.help else {
            Issue.record("no help")
            return
        }
        #expect(help.title == AccountSheet.keyTable.title)
        press(&s, .char("?"))
        #expect(kinds(s) == ["sheet"])
    }
}

private func perchState() -> TabApp { state() }
