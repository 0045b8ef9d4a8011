import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

private func catalogState(size: Size = Size(width: 80, height: 24)) -> TabApp {
    var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: size)
    _ = state.update(.key(.char("2")))
    return state
}

private func press(_ state: inout TabApp, _ keys: KeyEvent...) -> [PerchInterface.Effect] {
    keys.flatMap { state.update(.key($0)) }
}

private func menu(_ state: TabApp) -> ContextMenu? {
    state.presented.last?.as(ContextMenu.self)
}

private func tapAt(_ state: inout TabApp, column: Int, row: Int) -> [PerchInterface.Effect] {
    state.update(.tap(state.hitTest(Position(column: column, row: row))))
}

private let enter = KeyEvent(.enter)

/// Opens the first item's menu and picks Delete…; returns the alert, or records an issue.
private func openDeleteAlert(_ state: inout TabApp) -> AnyLayer? {
    _ = press(&state, .char("m"), .char("j"), .char("j"), .char("j"), enter)
    guard let alert = state.presented.last, alert.alert != nil else {
        Issue.record("no alert")
        return nil
    }
    return alert
}
private let escape = KeyEvent(.escape)

@Suite("Context menu on a Catalog item")
struct ContextMenuTests {
    @Test("a mouse long-press on a Catalog row opens its menu at the deadline, while the button is held")
    func mouseLongPress() {
        var state = catalogState()
        var recognizer = GestureRecognizer(configuration: .perch)
        // Row 4 of the screen is the fourth item (index 3).
        let press = InputEvent.mouse(MouseEvent(kind: .press, button: .left, position: Position(column: 10, row: 4)))
        for event in recognizer.handle(press, at: 1000, hitTest: state.hitTest) { _ = state.update(AppEvent(event)) }
        #expect(recognizer.expire(at: 1499).isEmpty, "never early")
        for event in recognizer.expire(at: 1500) { _ = state.update(AppEvent(event)) }
        #expect(menu(state)?.itemID == state.catalogItems[3].id)
        #expect(state.catalog.cursor == 3, "the pane's cursor moved to the item")
        let release = InputEvent.mouse(MouseEvent(kind: .release, button: .left, position: Position(column: 10, row: 4)))
        #expect(recognizer.handle(release, at: 1600, hitTest: state.hitTest).isEmpty, "the release after a long-press does nothing")
    }

    @Test("a short click on a Catalog row only moves the cursor")
    func shortClick() {
        var state = catalogState()
        var recognizer = GestureRecognizer(configuration: .perch)
        let at = Position(column: 10, row: 4)
        var events = recognizer.handle(.mouse(MouseEvent(kind: .press, button: .left, position: at)), at: 0, hitTest: state.hitTest)
        events += recognizer.handle(.mouse(MouseEvent(kind: .release, button: .left, position: at)), at: 100, hitTest: state.hitTest)
        for event in events { _ = state.update(AppEvent(event)) }
        #expect(state.presented.isEmpty)
        #expect(state.catalog.cursor == 3)
    }

    @Test("without key release events, Enter held in the Catalog opens the item at its first press (the menu is m, Menu, Shift-F10)")
    func enterHoldWithoutReleases() {
        var state = catalogState()
        _ = press(&state, .char("j"), .char("j"))
        var recognizer = GestureRecognizer(configuration: .perch)
        // A press, then auto-repeats every 33 ms after a 400 ms repeat delay.
        for time in [Int64(0), 400] + stride(from: 433, through: 600, by: 33).map(Int64.init) {
            for event in recognizer.handle(.key(enter), at: time, hitTest: state.hitTest, holdable: state.acceptsKeyHold) {
                _ = state.update(AppEvent(event))
            }
        }
        #expect(state.presentedValues == [AnyHashable(Cover.item(state.catalogItems[2], scroll: 0))])
    }

    @Test("a hold of Enter (as the recogniser reports it with key release events) opens the menu of the item under the cursor")
    func enterHold() {
        var state = catalogState()
        _ = press(&state, .char("j"), .char("j"))
        _ = state.update(.keyHold(enter))
        #expect(menu(state)?.itemID == state.catalogItems[2].id)
    }

    // Bug: the wheel moved the menu's focus, but its help did not say so.
    @Test("the menu's help lists the wheel, which moves between its actions")
    func wheelInHelp() {
        var state = catalogState()
        _ = press(&state, .char("m"))
        #expect(ContextMenu.keyTable.helpRows.contains(HelpLayer.Row("wheel", "previous or next action")))
        _ = state.update(.scroll(.layerChrome, notches: 1))
        #expect(menu(state)?.cursor == 2, "the wheel moved the focus")
    }

    @Test("m and the Menu key (CSI 29 ~) open the menu", arguments: [KeyEvent.char("m"), KeyEvent(.menu)])
    func menuKeys(_ key: KeyEvent) {
        var state = catalogState()
        _ = press(&state, key)
        #expect(menu(state)?.itemID == state.catalogItems[0].id)
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[29~".utf8)) == [.key(KeyEvent(.menu))])
    }

    @Test("m does nothing outside the Catalog")
    func menuOnlyInCatalog() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = press(&state, .char("m"))
        #expect(state.presented.isEmpty)
    }

    @Test("Pin moves the item to the top with a mark; Unpin puts it back")
    func pinAndUnpin() {
        var state = catalogState()
        _ = press(&state, .char("G"), .char("m"), .char("j"), enter)
        let last = CatalogItem.samples(for: state.currentAccount)[59]
        #expect(state.presented.isEmpty, "the menu closed")
        #expect(state.catalogItems[0].id == last.id)
        #expect(state.catalog.cursor == 0, "the cursor follows the item")
        #expect(state.render().lines[1].contains("★ " + last.title))
        _ = press(&state, .char("m"))
        #expect(state.render().lines.contains { $0.contains("│ Unpin") })
        _ = press(&state, .char("j"), enter)
        #expect(state.catalogItems[59].id == last.id)
        #expect(!state.render().lines.contains { $0.contains("★") })
    }

    @Test("pins and deletions are kept per account for the session")
    func editsPerAccount() {
        var state = catalogState()
        _ = press(&state, .char("j"), .char("m"), .char("j"), enter)
        let pinned = state.catalogItems[0].id
        state.adopt(state.saved.recordingSwitch(to: "work"))
        #expect(!state.catalogItems.contains { state.isPinned($0.id) }, "work's catalog has no pins")
        state.adopt(state.saved.recordingSwitch(to: "personal"))
        #expect(state.catalogItems[0].id == pinned, "personal's pin came back")
    }

    @Test("Delete asks first: Cancel keeps the item, Delete removes it and closes the menu")
    func deleteWithAlert() {
        var state = catalogState()
        let item = state.catalogItems[0]
        guard let alert = openDeleteAlert(&state) else { return }
        #expect(alert.alert?.focus == 0, "Cancel has the focus")
        _ = press(&state, enter)
        #expect(menu(state) != nil, "Cancel dismissed only the alert")
        #expect(state.catalogItems[0] == item)
        _ = press(&state, enter, KeyEvent(.right), enter)
        #expect(state.presented.isEmpty)
        #expect(!state.catalogItems.contains(item))
        #expect(state.catalogItems.count == CatalogItem.sampleCount - 1)
    }

    @Test("Copy id returns the clipboard effect with the id, and a banner")
    func copyID() {
        var state = catalogState()
        let effects = press(&state, .char("m"), .char("j"), .char("j"), enter)
        #expect(effects.map(\.work) == [.copyToClipboard(state.catalogItems[0].id)])
        #expect(state.presented.isEmpty)
        #expect(state.bannerText?.contains("OSC 52") == true)
    }

    @Test("Enter on the preview, or a click on it, opens the item in a cover; Esc returns to the same pane")
    func previewOpensCover() {
        var state = catalogState()
        _ = press(&state, KeyEvent(.pageDown), .char("k"))
        let before = state
        _ = press(&state, .char("m"), .char("k"), enter)
        guard case .item(let item, _)? = state.presented.last?.as(Cover.self) else {
            Issue.record("no cover")
            return
        }
        #expect(item == state.catalogItems[state.catalog.cursor])
        #expect(state.presented.count == 1, "the menu went away under the cover")
        _ = press(&state, escape)
        #expect(state.render() == before.render() && state.presentedValues == before.presentedValues, "exactly the pane state below")
        _ = press(&state, .char("m"))
        let card = state.contextMenuLayout(menu(state)!)!.card
        _ = tapAt(&state, column: card.x + 3, row: card.y + 2)
        #expect(state.presented.last?.is(Cover.self) == true)
    }

    @Test("clicking an action runs it; clicking the cover's ✕ closes it")
    func clicks() {
        var state = catalogState()
        _ = press(&state, .char("m"))
        let layout = state.contextMenuLayout(menu(state)!)!
        _ = tapAt(&state, column: layout.menu.x + 2, row: layout.menu.y + 1)  // Open
        #expect(state.presented.last?.is(Cover.self) == true)
        #expect(state.hitTest(Position(column: 1, row: 0)) == .coverClose)
        #expect(state.hitTest(Position(column: 40, row: state.size.height - 1)) == .coverBody, "the tab bar is covered")
        _ = tapAt(&state, column: 1, row: 0)
        #expect(state.presented.isEmpty)
    }

    // Bug: `?` over the Delete alert did nothing, though help works everywhere but a text field.
    @Test("? over the Delete alert shows the alert's keys; Esc closes the help, then the alert is still up")
    func helpOverAlert() {
        var state = catalogState()
        guard openDeleteAlert(&state) != nil else { return }
        _ = press(&state, .char("?"))
        guard let help = state.presented.last?.help else {
            Issue.record("no help over the alert")
            return
        }
        #expect(help.title == "Alert")
        #expect(help.rows.contains { $0.label == "← h Shift-Tab" })
        _ = press(&state, escape)
        #expect(state.presented.last?.alert != nil, "Esc closed only the help")
    }

    @Test("an alert's buttons react to clicks")
    func alertClicks() throws {
        var state = catalogState()
        let item = state.catalogItems[0]
        guard let alert = openDeleteAlert(&state) else { return }
        let buttons = try #require(alert.alert).layout(in: Rect(x: 0, y: 0, width: state.size.width, height: state.size.height)).buttons
        _ = tapAt(&state, column: buttons[1].x + 1, row: buttons[1].y)
        #expect(state.presented.isEmpty)
        #expect(!state.catalogItems.contains(item))
    }

    @Test("the screen behind a context menu is dimmed")
    func dimmed() {
        var state = catalogState()
        _ = press(&state, .char("m"))
        let screen = state.render()
        let tabRow = state.size.height - 1
        #expect((0..<state.size.width).allSatisfy { screen[$0, tabRow].style.dim })
        #expect(!(screen[4, 3].style.dim), "the card is not dimmed")
    }
}

@Suite("OSC 52")
struct OSC52Tests {
    @Test(
        "base64 matches RFC 4648's test vectors",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ])
    func base64(_ text: String, _ expected: String) {
        #expect(String(decoding: OSC52.base64(Array(text.utf8)), as: UTF8.self) == expected)
    }

    @Test("the sequence carries only the base64 of the id between ESC ] 52 ; c ; and ST")
    func sequence() {
        let bytes = OSC52.sequence(for: "personal-1\u{1B}]0;x\u{07}")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]52;c;") && text.hasSuffix("\u{1B}\\"))
        #expect(bytes.filter { $0 == 0x1B }.count == 2, "no escape from the text itself")
        #expect(String(decoding: OSC52.sequence(for: "personal-1"), as: UTF8.self) == "\u{1B}]52;c;cGVyc29uYWwtMQ==\u{1B}\\")
    }
}

@Suite("Context menu placement")
struct ContextMenuLayoutTests {
    static let sizes = [
        Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 200, height: 60), Size(width: 20, height: 6),
        Size(width: 80, height: 12), Size(width: 30, height: 8),
    ]

    @Test("card and menu stay inside the screen and never overlap, for an item on every row", arguments: sizes)
    func insideTheScreen(_ size: Size) {
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        for row in 0..<size.height {
            let layout = ContextMenu.layout(anchorRow: row, screen: size)
            for rect in [layout.card, layout.menu] {
                #expect(rect.x >= 0 && rect.y >= 0 && rect.maxX <= screen.maxX && rect.maxY <= screen.maxY, "\(size) row \(row)")
            }
            let overlapX = layout.card.x < layout.menu.maxX && layout.menu.x < layout.card.maxX
            let overlapY = layout.card.y < layout.menu.maxY && layout.menu.y < layout.card.maxY
            #expect(!(overlapX && overlapY), "\(size) row \(row)")
            #expect(layout.card.height >= MenuLayer.Layout.minimumCardHeight)
            #expect(layout.visibleActions >= 1)
        }
    }

    @Test("the menu goes below when both fit, beside on a wide short screen, below a shrunk card on a narrow one")
    func placement() {
        let tall = ContextMenu.layout(anchorRow: 5, screen: Size(width: 80, height: 24))
        #expect(!tall.isBeside && tall.card.height == 7 && tall.card.y == 4)
        #expect(tall.menu.y == tall.card.maxY && tall.visibleActions == 4)
        let wide = ContextMenu.layout(anchorRow: 5, screen: Size(width: 80, height: 12))
        #expect(wide.isBeside && wide.menu.x > wide.card.maxX - 1 && wide.card.height == 7)
        let narrow = ContextMenu.layout(anchorRow: 5, screen: Size(width: 40, height: 12))
        #expect(!narrow.isBeside && narrow.card.height == 6 && narrow.visibleActions == 4, "the card shrank, no action was cut")
        let bottom = ContextMenu.layout(anchorRow: 21, screen: Size(width: 80, height: 24))
        #expect(bottom.menu.maxY == 24, "moved up from the bottom edge")
        let top = ContextMenu.layout(anchorRow: 0, screen: Size(width: 80, height: 24))
        #expect(top.card.y == 0)
    }
}

/// Tap to open: Enter and a click on the cursor's row open a Catalog item.
@Suite("Opening a Catalog item")
struct CatalogOpenTests {
    private func catalogState() -> TabApp {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("2")))
        return state
    }

    // Bug: Enter on a Catalog item did nothing; an item could only be opened through its context menu.
    @Test("Enter on a Catalog item opens it in the full-screen cover")
    func enterOpens() {
        var state = catalogState()
        _ = state.update(.key(.char("j")))
        _ = state.update(.key(KeyEvent(.enter)))
        #expect(state.presentedValues == [AnyHashable(Cover.item(state.catalogItems[1], scroll: 0))])
    }

    @Test("a click on another row moves the cursor there; a click on the cursor's row (a double click) opens it")
    func clickThenClickOpens() {
        var state = catalogState()
        _ = state.update(.tap(.catalogRow(4)))
        #expect(state.catalog.cursor == 4)
        #expect(state.presented.isEmpty)
        _ = state.update(.tap(.catalogRow(4)))
        #expect(state.presentedValues == [AnyHashable(Cover.item(state.catalogItems[4], scroll: 0))])
    }

    @Test("Shift-F10 opens the context menu, as m and the Menu key do")
    func shiftF10() {
        var state = catalogState()
        _ = state.update(.key(KeyEvent(.function(10), modifiers: .shift)))
        #expect(state.presentedValues == [AnyHashable(ContextMenu(itemID: state.catalogItems[0].id))])
    }

    // Bug: resized to 80×12 and back, the Catalog's top row had moved from item 10 to item 22.
    @Test("the Catalog keeps its scroll position across a resize to a small screen and back")
    func scrollAfterResize() {
        var state = catalogState()
        for _ in 0..<29 { _ = state.update(.key(.char("j"))) }
        _ = state.update(.scroll(.catalogRow(29), notches: -4))  // the wheel: item 30 near the bottom
        let before = state.catalog
        _ = state.update(.resize(Size(width: 80, height: 12)))
        #expect(state.catalog.cursor == before.cursor)
        _ = state.update(.resize(Size(width: 80, height: 24)))
        #expect(state.catalog == before, "\(state.catalog) vs \(before)")
    }
}

/// Delete on the Catalog of an account from the user's own config: the rows are the config's
/// fields, so Delete removes them from the file, through the same writer as `perch unset` and
/// `perch remove`, instead of hiding them for the session.
@Suite("Context menu Delete of a config row")
struct ContextMenuConfigDeleteTests {
    private static let accounts = [
        Account(id: "work", name: "Work", handle: "@ada-work", group: "Jobs"), Account(id: "home", name: "Home"),
    ]

    private func configCatalog(size: Size = Size(width: 80, height: 24)) -> TabApp {
        var state = TabApp.perch(accounts: Self.accounts, saved: SavedState(currentAccount: "work"), size: size)
        state.info.usesSampleAccounts = false
        _ = state.update(.key(.char("2")))
        return state
    }

    /// Moves the cursor to the row titled `title`, opens its menu, picks Delete… and, unless told
    /// not to, confirms.
    @discardableResult
    private func deleteRow(_ title: String, in state: inout TabApp, confirming: Bool = true) -> (
        alert: AlertLayer?, effects: [PerchInterface.Effect]
    ) {
        guard let index = state.catalogItems.firstIndex(where: { $0.title == title }) else {
            Issue.record("no row \(title)")
            return (nil, [])
        }
        for _ in 0..<index { _ = state.update(.key(.char("j"))) }
        guard let alert = openDeleteAlert(&state) else { return (nil, []) }
        guard confirming else { return (alert.alert, []) }
        let effects = press(&state, KeyEvent(.right), enter)
        return (alert.alert, effects)
    }

    @Test("Delete on a field's row asks, then removes the field from the config file (perch unset's edit)")
    func field() {
        var state = configCatalog()
        let (alert, effects) = deleteRow("handle", in: &state)
        #expect(alert?.title == "Remove handle from “Work”?")
        #expect(alert?.message.contains("perch unset work handle") == true)
        #expect(
            effects == [.asked(by: .pane(.catalog), .perform(DeleteFromConfig(accountID: "work", path: ["handle"])))],
            "the Catalog takes the outcome: the alert is gone by then")
        #expect(state.presented.isEmpty, "the alert and the menu are gone")
        #expect(state.catalogItems.contains { $0.title == "handle" }, "nothing changes before the file is written")
    }

    // Bug: the confirmation's message was cut to one line ("as `perch unset oss …"), even at 100
    // columns, so it never said which command it does; PerchKit's alert wraps it.
    @Test("Delete's confirmation shows its whole message, wrapped, at 100 columns and at 40")
    func confirmationNotCut() {
        for width in [100, 40] {
            var state = configCatalog(size: Size(width: width, height: 30))
            guard let alert = deleteRow("handle", in: &state, confirming: false).alert else { continue }
            let box = alert.layout(in: Rect(x: 0, y: 0, width: width, height: 30)).frame
            // The box's inner text, row by row.
            let inside = state.render().lines[box.y..<box.maxY].map { String(Array($0)[(box.x + 1)..<(box.maxX - 1)]) }
            let words = inside.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(words.contains("It leaves the config file, as `perch unset work handle` does."), "\(width) columns: \(words)")
        }
    }

    @Test("Delete on the id or name row removes the account (perch remove's edit); Cancel, focused first, removes nothing")
    func account() {
        var state = configCatalog()
        let (alert, effects) = deleteRow("id", in: &state)
        #expect(alert?.title == "Remove the account “Work”?")
        #expect(effects == [.asked(by: .pane(.catalog), .perform(DeleteFromConfig(accountID: "work", path: [])))])
        var again = configCatalog()
        _ = again.update(.key(.char("j")))
        guard openDeleteAlert(&again) != nil else { return }
        #expect(press(&again, enter).isEmpty, "Enter on the focused Cancel writes nothing")
    }

    @Test("the written config comes back into the interface: the row is gone and the banner names the file and its .bak")
    func outcome() {
        var state = configCatalog()
        let written = [Account(id: "work", name: "Work", group: "Jobs"), Account(id: "home", name: "Home")]
        // The Catalog asked for the removal (its own job): its outcome comes back to it.
        #expect(deleteRow("handle", in: &state).effects.count == 1)
        _ = state.update(
            .outcome(
                AnyOutcome(
                    ConfigDeletion(
                        accountID: "work", path: ["handle"], accounts: written, configPath: "/c/accounts.json",
                        backupPath: "/c/accounts.json.bak",
                        problem: nil)), for: .pane(.catalog)))
        #expect(!state.catalogItems.contains { $0.title == "handle" })
        #expect(state.bannerText == "Removed handle of Work from /c/accounts.json (previous file kept as /c/accounts.json.bak).")
        // Written, but something after it went wrong: the banner says both, and stays.
        var late = configCatalog()
        #expect(deleteRow("id", in: &late).effects.count == 1)
        _ = late.update(
            .outcome(
                AnyOutcome(
                    ConfigDeletion(
                        accountID: "work", path: [], accounts: written, configPath: "/c/accounts.json", backupPath: nil,
                        problem: "its tools still use its identities (kube failed)")), for: .pane(.catalog)))
        #expect(late.bannerText == "Removed Work from /c/accounts.json. But its tools still use its identities (kube failed).")
        _ = state.update(
            .outcome(
                AnyOutcome(
                    ConfigDeletion(
                        accountID: "work", path: [], accounts: nil, configPath: "/c/accounts.json", backupPath: nil, problem: "disk full")),
                for: .pane(.catalog)))
        #expect(state.bannerText == "Could not remove Work from the config: disk full")
        #expect(state.accounts == written, "a failed write changes nothing in memory")
    }

    @Test("the sample accounts' rows are still hidden for the session only, never written")
    func samplesStayInMemory() {
        var state = catalogState()
        let id = state.catalogItems[0].id
        guard openDeleteAlert(&state) != nil else { return }
        let effects = press(&state, .char("l"), enter)
        #expect(!effects.contains { $0.job(DeleteFromConfig.self) != nil }, "a sample row would be written")
        #expect(!state.catalogItems.contains { $0.id == id }, "hidden for the session")
        #expect(state.presented.isEmpty, "the alert and the menu are gone")
    }
}
