import PerchKit
import Testing

@testable import PerchCore

private func state(_ accounts: [Account] = Account.samples, size: Size = Size(width: 80, height: 24)) -> AppState {
    AppState(accounts: accounts, saved: SavedState(currentAccount: "personal"), size: size)
}

private func press(_ state: inout AppState, _ keys: KeyEvent...) {
    for key in keys { _ = state.update(.key(key)) }
}

private let escape = KeyEvent(.escape)

/// Kinds of the layers, bottom first, for readable expectations.
private func kinds(_ state: AppState) -> [String] {
    let names: [(any PresentedLayer.Type, String)] = [
        (KitLayer<AccountSheet>.self, "sheet"), (KitLayer<HelpLayer>.self, "help"), (KitLayer<ContextMenu>.self, "menu"),
        (KitLayer<AlertLayer>.self, "alert"),
        (KitLayer<AccountForm>.self, "form"), (KitLayer<Cover>.self, "cover"),
    ]
    return state.presented.map { layer in names.first { type(of: layer.layer) == $0.0 }?.1 ?? "?" }
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
        let frame = HelpLayer.layout(
            lineCount: KeyBindings.table(for: .pane(.overview)).count, in: Rect(x: 0, y: 0, width: s.size.width, height: s.size.height)
        ).box
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
    static let contexts: [InputContext] = Tab.allCases.map(InputContext.pane) + InputContext.layers

    // Found when the test came to list every layer's table (InputContext.layers): the context
    // menu's "run the action, or open the previewed item" was cut short in its help.
    @Test("help lists every binding of the context below it, label and summary, none cut short", arguments: contexts)
    func helpListsTable(_ context: InputContext) {
        let bindings = KeyBindings.table(for: context)
        let help = context.help
        #expect(help.help?.rows == context.helpRows)
        #expect(help.help?.title == context.title)
        // Tall and wide enough to show every line at once.
        var s = state(size: Size(width: 200, height: 60))
        s.presented = [help]
        let text = s.render().text
        for binding in bindings {
            #expect(text.contains(binding.label), "\(binding.label)")
            #expect(text.contains(binding.summary), "\(binding.summary)")
        }
    }

    @Test("a model's own verbs (named after it) are bound only in its own tables and holds")
    func ownVerbsStayHome() {
        let owners: [String: Set<String>] = [
            "Catalog": [InputContext.pane(.catalog).title], "Settings": [InputContext.pane(.settings).title],
            "Stats": [InputContext.pane(.stats).title], "Overview": [InputContext.pane(.overview).title],
            // PerchKit's layers, whose verbs are named after their key tables (KitLayer).
            "Account sheet": [InputContext.accountSheet.title], "Sheet filter": [InputContext.accountSheetFilter.title],
            "Alert": [InputContext.alert.title], "Help": [InputContext.help.title], "Cover": [InputContext.cover.title],
            "Context menu": [InputContext.contextMenu.title], "Add account": [InputContext.accountForm.title],
        ]
        var seen: Set<String> = []
        for context in Self.contexts {
            for binding in KeyBindings.table(for: context) {
                guard let name = binding.action?.name, let dot = name.firstIndex(of: ".") else { continue }
                let owner = String(name[..<dot])
                seen.insert(owner)
                if owner == "selectTab" { continue }  // the root's, one per tab
                #expect(owners[owner]?.contains(context.title) == true, "\(name) is bound in \(context.title)")
            }
        }
        #expect(seen.isSuperset(of: owners.keys), "every model's own verbs are bound somewhere: \(seen)")
        guard case .action(let refresh) = ModelMessage.catalog(.refresh) else { return #expect(Bool(false), "a key's verb") }
        #expect(KeyAction.selectTab(.stats).selectedTab == .stats && refresh.selectedTab == nil)
        #expect(refresh != KeyAction("refresh") && refresh.name.hasPrefix("Catalog.") == true, "a pane's own verb is named after it")
    }

    @Test("no key is bound twice in one context", arguments: contexts)
    func noDuplicateKeys(_ context: InputContext) {
        let keys = KeyBindings.table(for: context).flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test("the keys the table lists act: G moves the Catalog cursor to the last item, K raises the sheet")
    func tableDrivesInput() throws {
        let last = try #require(KeyBindings.table(for: .pane(.catalog)).first { $0.label == "End G" })
        var s = state()
        press(&s, .char("2"), last.keys[1])
        #expect(s.catalog.cursor == s.catalogItems.count - 1)
        let larger = try #require(KeyBindings.table(for: .accountSheet).first { $0.label == "Shift-↑ K" })
        for key in larger.keys {
            var t = state()
            press(&t, .char("a"), key)
            #expect(t.sheet?.detent == .large, "\(key)")
        }
    }

    @Test("? over a sheet describes the sheet; ? again closes the help")
    func helpContext() {
        var s = state()
        press(&s, .char("a"), .char("?"))
        guard let help = s.presented.last?.help else {
            Issue.record("no help")
            return
        }
        #expect(help.title == InputContext.accountSheet.title)
        press(&s, .char("?"))
        #expect(kinds(s) == ["sheet"])
    }
}
