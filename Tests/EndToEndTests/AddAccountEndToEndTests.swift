import Foundation
import Testing

/// End-to-end: `Add account…` from the sheet and from Settings, in tmux at 80×24, writing the
/// scratch config.
@Suite(.serialized, .currentBinary)
struct AddAccountEndToEndTests {
    static func config(_ home: URL) -> URL { home.appendingPathComponent("config/perch/accounts.json") }

    /// Waits for the form, types `id`, moves to the name with `next` (`Tab` or `Down`), types
    /// `name` and submits with `Enter`, as a person would.
    static func fill(_ session: TmuxSession, id: String, name: String, next: String) throws {
        #expect(try session.waitFor("[ Add ]"))
        try session.sendLiteral(id)
        try session.send(next)
        try session.sendLiteral(name)
        try session.send("Enter")
    }

    // Bug: a character was lost on a redraw where narrow and wide characters shifted: after
    // Backspaces a field holding `日ax漢漢…` showed `日a 漢漢…` until the next full redraw.
    @Test("Backspaces in a field of wide and narrow characters redraw every character (a field of 日ax and 25 漢)")
    func wideCharactersShift() throws {
        let session = try TmuxSession.started(width: 100, height: 30)
        try session.expectAfter("a", shows: "Add account…")
        try session.send("+")
        #expect(try session.waitFor("[ Add ]"))
        try session.send("Tab")
        try session.tmux(["set-buffer", "日ax" + String(repeating: "漢", count: 25)])
        try session.tmux(["paste-buffer", "-p"])
        func field(_ lines: [String]) -> String { lines.first { $0.contains("Name") } ?? "" }
        func field() throws -> String { field(try session.screen()) }
        #expect(try session.waitUntil { field($0).contains("漢▏") })
        // One key at a time, each sent once the last one's frame shows (the field changed): each
        // Backspace is a frame of its own, as in the bug.
        for _ in 0..<7 {
            let before = try field()
            try session.send("BSpace")
            _ = try session.waitUntil(timeout: 2) { field($0) != before }
        }
        let expected = "[日ax" + String(repeating: "漢", count: 18) + "▏"
        #expect(try session.waitUntil { field($0).contains(expected) }, "every character drawn")
        let shown = try field()
        #expect(!shown.contains("日a "), "\(shown)")
    }

    /// Issue 48: the form's fields took typing at their end only, and Backspace; a slip in the
    /// middle meant deleting back to it.
    @Test("In a field, ← and Home move the cursor and typing goes there; Ctrl-W and Ctrl-K delete; the account is written as edited")
    func editsInTheMiddle() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}]}"#, home: home)
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("a", shows: "Add account…")
        try session.send("+")
        #expect(try session.waitFor("[ Add ]"))
        try session.sendLiteral("trvel")
        try session.send("Left", "Left", "Left")
        try session.sendLiteral("a")
        func field(_ lines: [String], _ label: String) -> String { lines.first { $0.contains(label) } ?? "" }
        #expect(try session.waitUntil { field($0, "Id").contains("[travel") }, "typed where the cursor is")
        try session.send("Tab")
        try session.sendLiteral("Desk Travel Desk")
        try session.send("C-a", "M-f")
        try session.send("C-k")
        #expect(try session.waitUntil { field($0, "Name").contains("[Desk▏") }, "Ctrl-K deleted from the cursor on")
        try session.send("C-w")
        try session.sendLiteral("Travel Desk")
        try session.send("Enter")
        #expect(try session.waitUntil { $0.contains { $0.contains("Travel Desk") && !$0.contains("[") } }, "added")
        let text = try String(contentsOf: Self.config(home), encoding: .utf8)
        #expect(text.contains("\"id\": \"travel\"") && text.contains("\"name\": \"Travel Desk\""), "\(text)")
    }

    @Test("From the sheet: the last row opens the form; id and name, Enter; the file, its .bak and the sheet show the account")
    func fromSheet() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let original = #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#
        try TmuxSession.writeConfig(original, home: home)
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("a", shows: "Add account…")
        try session.send("End", "Enter")
        try Self.fill(session, id: "travel", name: "Travel Desk", next: "Tab")
        #expect(try session.waitUntil { $0.contains { $0.hasPrefix(" ▸ ") == false && $0.contains("Travel Desk") } })
        let text = try String(contentsOf: Self.config(home), encoding: .utf8)
        // A one-line config past 100 columns gets the account over lines of its own (issue 33).
        #expect(text.contains(", {\n  \"id\": \"travel\",\n  \"name\": \"Travel Desk\"\n}]"), "\(text)")
        let backup = try String(contentsOf: home.appendingPathComponent("config/perch/accounts.json.bak"), encoding: .utf8)
        #expect(backup == original)
        #expect(try session.screen().contains { $0.contains("Switch account") }, "the sheet is up")
    }

    @Test(
        "q with the account sheet up quits and restores the terminal (it did nothing), also after Add account… gave the sheet back",
        arguments: [false, true])
    func qInTheSheetQuits(afterAdding: Bool) throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try TmuxSession.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}]}"#, home: home)
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("a", shows: "Add account…")
        if afterAdding {
            try session.send("End", "Enter")
            try Self.fill(session, id: "travel", name: "Travel Desk", next: "Tab")
            #expect(try session.waitUntil { !$0.contains { $0.contains("[ Add ]") } && $0.contains { $0.contains("Travel Desk") } })
        }
        try session.expectAfter("q", shows: "EXIT=0")
        #expect(try session.terminalRestored())
    }

    @Test("From Settings with no config: the samples and the new account are written, and the sheet opens on it")
    func fromSettings() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("4", shows: "Add account…")
        try session.send("j", "Enter")
        try Self.fill(session, id: "zed", name: "Zed", next: "Down")
        #expect(try session.waitFor("Switch account"))
        #expect(try session.waitUntil { $0.contains { $0.contains("Zed") } })
        let text = try String(contentsOf: Self.config(home), encoding: .utf8)
        #expect(
            text.contains(#""id": "work""#) && text.contains("    {\n      \"id\": \"zed\",\n      \"name\": \"Zed\"\n    }\n"), "\(text)")
    }
}
