import Foundation
import Testing

/// The Catalog's Delete on a row of the user's own config, in tmux with real keys: the row
/// leaves the file through the config writer, as `perch unset` would remove it.
@Suite("Catalog Delete writes the config", .serialized, .currentBinary)
struct CatalogDeleteEndToEndTests {
    @Test("m, Delete…, → and Enter on the handle row remove it from the file, keeping its comment and a .bak")
    func deleteHandle() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let original = """
            {"accounts": [
              // work first
              {"id": "work", "name": "Work", "handle": "@ada-work"},
              {"id": "home", "name": "Home"}
            ]}

            """
        try cli.writeConfig(original)
        #expect(try cli.run(["switch", "work"]).status == 0)
        let session = try TmuxSession.started(home: cli.home)
        try session.expectAfter("2", shows: "@ada-work")
        try session.send("j")
        try session.send("j")
        try session.expectAfter("m", shows: "Delete…")
        for _ in 0..<3 { try session.send("j") }
        try session.expectAfter("Enter", shows: "Remove handle from “Work”?")
        try session.send("Right")
        try session.expectAfter("Enter", shows: "Removed handle of Work from")
        let text = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(!text.contains("@ada-work") && text.contains("// work first"), "\(text)")
        #expect(try String(contentsOfFile: cli.configPath + ".bak", encoding: .utf8) == original)
        #expect(try session.waitUntil { !$0.joined().contains("@ada-work") }, "the row is gone from the Catalog")
        try session.expectAfter("q", shows: "EXIT=0")
        #expect(try cli.run(["list"]).stdout.contains("work"), "the config still loads")
    }
}
