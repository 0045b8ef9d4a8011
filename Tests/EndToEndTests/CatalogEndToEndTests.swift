import Foundation
import Testing

/// The Catalog from a source command, its preview and its open command, in tmux with the real binary.
@Suite("Catalog from a command, end to end", .serialized, .currentBinary)
struct CatalogEndToEndTests {
    /// A scratch HOME with an account whose Catalog comes from commands, signed in to it.
    func home() throws -> URL {
        let home = try TmuxSession.homeSignedIn(as: "gh")
        let config = #"""
            {"accounts": [
              {"id": "me", "name": "Me"},
              {"id": "gh", "name": "GitHub", "catalog": {
                "command": "printf 'alpha\\nbeta\\n\\033]0;pwned\\007gamma\\n'",
                "preview": "printf 'preview of %s\\n' \"$PERCH_ITEM_ID\"",
                "open": "printf 'opened %s' \"$PERCH_ITEM_ID\" > \"$HOME/opened\"; printf 'in the open command'; sleep 1"}}
            ]}
            """#
        try TmuxSession.writeConfig(config, home: home)
        return home
    }

    @Test("the source's lines are listed, the preview shows in the card, and Open runs with the terminal restored and then taken back")
    func sourcePreviewOpen() throws {
        let home = try home()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("2", shows: "beta")
        let screen = try session.screen().joined(separator: "\n")
        #expect(screen.contains("�]0;pwned�gamma"), "escape sequences drawn as �:\n\(screen)")
        try session.send("j")
        try session.expectAfter("m", shows: "preview of beta")
        try session.send("Enter")  // Open has the focus
        // While it runs, the terminal is the command's: Perch's alternate screen and mouse are off.
        #expect(try session.waitUntil(timeout: 5) { _ in (try? session.terminalModes()) == "0 0" }, "the interface is suspended")
        #expect(try session.waitUntil(timeout: 5) { _ in (try? session.terminalModes()) == "1 1" }, "and resumed")
        #expect(try session.waitFor("Catalog · GitHub"))
        #expect(try String(contentsOf: home.appendingPathComponent("opened"), encoding: .utf8) == "opened beta")
        try session.expectAfter("r", shows: "alpha")
    }
}
