import Foundation
import Testing

/// End-to-end: the presentation stack, the sheet's filter, detents and grabber drag, and help,
/// driven with real keys and SGR mouse bytes in tmux at 80×24.
@Suite(.serialized, .currentBinary)
struct PresentationEndToEndTests {
    /// Screen row of the grabber, or nil when no sheet is up.
    static func grabberRow(_ screen: [String]) -> Int? { screen.firstIndex { $0.contains("━━━━━━") } }

    /// A session over `count` accounts named "Account N" with handles "@userN".
    static func session(accounts count: Int) throws -> TmuxSession {
        let home = try TmuxSession.makeScratchHome()
        let accounts = (1...count).map { #"{"id": "a\#($0)", "name": "Account \#($0)", "handle": "@user\#($0)"}"# }
        try TmuxSession.writeConfig(#"{"accounts": [\#(accounts.joined(separator: ","))]}"#, home: home)
        return try TmuxSession.started(home: home)
    }

    @Test("Dragging the grabber up expands the sheet to the large detent; dragging it down dismisses it")
    func dragTheGrabber() throws {
        let session = try TmuxSession.started()
        try session.expectAfter("a", shows: "Switch account")
        // 4 sample accounts and `Add account…`: 8 rows, grabber on row 16.
        #expect(try session.waitUntil { Self.grabberRow($0) == 16 })
        try session.mousePress(column: 40, row: 16)
        try session.mouseDrag(column: 40, row: 10)
        #expect(try session.waitUntil { Self.grabberRow($0) == 10 }, "the sheet follows the pointer")
        try session.mouseDrag(column: 40, row: 4)
        try session.mouseRelease(column: 40, row: 4)
        #expect(try session.waitUntil { Self.grabberRow($0) == 1 }, "snapped to the large detent: all but the top row")
        try session.mousePress(column: 40, row: 1)
        try session.mouseDrag(column: 40, row: 12)
        try session.mouseDrag(column: 40, row: 22)
        try session.mouseRelease(column: 40, row: 22)
        #expect(try session.waitUntil { Self.grabberRow($0) == nil }, "below a third of the fit height: dismissed")
        #expect(try session.waitFor("Switches so far"), "Overview is as it was")
    }

    @Test("Shift-Up and J change the detent from the keyboard")
    func detentKeys() throws {
        let session = try TmuxSession.started()
        try session.expectAfter("a", shows: "Switch account")
        #expect(try session.waitUntil { Self.grabberRow($0) == 16 })
        try session.send("S-Up")
        #expect(try session.waitUntil { Self.grabberRow($0) == 1 })
        try session.send("J")
        #expect(try session.waitUntil { Self.grabberRow($0) == 16 })
    }

    @Test("Typing a filter narrows the accounts and the sheet re-fits to the matches")
    func filterRefits() throws {
        let session = try Self.session(accounts: 40)
        try session.expectAfter("a", shows: "Switch account")
        #expect(try session.waitUntil { Self.grabberRow($0) == 2 }, "capped: two rows stay above")
        try session.send("/", "3", "7")
        #expect(try session.waitFor("/ 37"))
        // Only "Account 37" holds "37": one row and `Add account…`, so the sheet is 5 rows tall.
        #expect(try session.waitUntil { Self.grabberRow($0) == 19 })
        let screen = try session.screen()
        #expect(screen.contains { $0.contains("Account 37") })
        #expect(!screen.contains { $0.contains("Account 36") })
        try session.send("Enter")
        #expect(try session.waitFor("● Account 37"), "Enter picked the match")
    }

    @Test("? shows the keys of the current context; Esc closes only the help, a click outside closes the sheet")
    func helpAndStack() throws {
        let session = try TmuxSession.started()
        try session.expectAfter("a", shows: "Switch account")
        try session.expectAfter("?", shows: "Keys · Account sheet")
        #expect(try session.waitFor("larger detent"))
        try session.send("Escape")
        #expect(try session.waitUntil { !$0.contains { $0.contains("Keys ·") } && $0.contains { $0.contains("Switch account") } })
        try session.mousePress(column: 40, row: 3)
        try session.mouseRelease(column: 40, row: 3)
        #expect(try session.waitUntil { !$0.contains { $0.contains("Switch account") } }, "the click above the sheet closed it")
    }

    @Test("With --reduce-motion the sheet is at its full height in every frame that shows it")
    func reduceMotion() throws {
        let session = try TmuxSession(arguments: ["--reduce-motion"])
        try session.waitForStart()
        try session.send("a")
        #expect(try session.waitFor("Switch account"))
        for _ in 0..<5 {
            #expect(Self.grabberRow(try session.screen()) == 16, "4 accounts, `Add account…` and the chrome: 8 rows")
        }
    }

    @Test("A mouse long-press on a Catalog item shows the preview and the menu while held; Pin moves the item to the top")
    func contextMenuLongPressAndPin() throws {
        let (session, home) = try TmuxSession.startedSignedIn()
        defer { try? FileManager.default.removeItem(at: home) }
        try session.expectAfter("2", shows: "Catalog ·")
        // Row 5 is the fifth item; remember its title.
        let row = try session.screen()[5]
        let title = row.dropFirst(7).prefix(24).trimmingCharacters(in: .whitespaces)
        try session.mousePress(column: 12, row: 5)
        // The long-press fires at 500 ms with the button still down: wait for its menu.
        _ = try session.waitUntil { $0.contains { $0.contains("│ Copy id") } }
        try session.waitUntilSteady()
        let held = try session.screen()
        #expect(held.contains { $0.contains("Enter or click here to open") }, "the preview card is up while the button is held")
        #expect(held.contains { $0.contains("│ Pin") } && held.contains { $0.contains("│ Copy id") }, "and the menu")
        try session.mouseRelease(column: 12, row: 5)
        try session.waitUntilSteady()
        #expect(try session.screen().contains { $0.contains("│ Pin") }, "the release leaves the menu up")
        let pin = try session.screen().firstIndex { $0.contains("│ Pin") }!
        try session.mousePress(column: 6, row: pin)
        try session.mouseRelease(column: 6, row: pin)
        #expect(try session.waitUntil { $0.count > 1 && $0[1].contains("★ " + title) }, "pinned to the top with a mark")
        #expect(!(try session.screen().contains { $0.contains("│ Pin") }), "the menu closed")
    }

    @Test("Shift-F10 opens the context menu and Open shows the item in a cover over the tab bar; Enter opens it too; Esc returns")
    func coverHidesTheTabBar() throws {
        let (session, home) = try TmuxSession.startedSignedIn()
        defer { try? FileManager.default.removeItem(at: home) }
        try session.expectAfter("2", shows: "Catalog ·")
        try session.send("j", "j")
        // The screen to come back to is read once the cursor has moved (read at once, it was
        // sometimes the screen from before the two j's).
        #expect(try session.waitUntil { $0.contains { $0.contains("▸  3") } })
        let before = try session.screen()
        try session.expectAfter("S-F10", shows: "Copy id")
        try session.send("Enter")  // Open has the focus
        #expect(try session.waitUntil { $0.first?.hasPrefix(" ✕") == true })
        let cover = try session.screen()
        #expect(!cover.contains { $0.contains("Overview") || $0.contains("Settings") }, "the tab bar is hidden")
        try session.send("Escape")
        #expect(try session.waitUntil { $0 == before }, "the Catalog exactly as it was")
        // Enter on an item opens the same cover at once (a tap on a list opens the item).
        try session.send("Enter")
        #expect(try session.waitUntil { $0 == cover }, "the same cover")
        try session.send("Escape")
        #expect(try session.waitUntil { $0 == before })
    }
}
