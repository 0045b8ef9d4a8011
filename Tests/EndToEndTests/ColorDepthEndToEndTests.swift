import Foundation
import Testing

/// A true colour drawn through ncurses as each terminal can: perchkit-planets' header band
/// (#1F3A5F on its whole row, white bold text) in tmux, read back with its attributes
/// (`capture-pane -e`, which writes the colours tmux was given) under three TERMs and
/// `NO_COLOR` (48: PerchKit drew 8 foreground colours and no background).
@Suite("Colours as the terminal draws them, end to end", .serialized)
struct ColorDepthEndToEndTests {
    /// perchkit-planets: `$PERCHKIT_PLANETS_BIN`, else the debug build.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["PERCHKIT_PLANETS_BIN"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/perchkit-planets").path
    }

    /// The header row as tmux holds it, escapes included, once the table is drawn.
    func headerRow(term: String, environment: [String: String] = [:]) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary), "no perchkit-planets at \(Self.binary): `make test` builds it")
        let session = try TmuxSession(width: 60, height: 16, term: term, environment: environment, program: Self.binary)
        let drawn = try session.waitUntil(timeout: 10) { lines in lines.contains { $0.contains("Planet") && $0.contains("Moons") } }
        let screen = try session.screen().joined(separator: "\n")
        try #require(drawn, "perchkit-planets did not draw its table under TERM=\(term):\n\(screen)")
        let rows = try session.screenWithAttributes().components(separatedBy: "\n")
        return try #require(rows.first { $0.contains("Planet") && $0.contains("Moons") })
    }

    @Test(
        "The band is exact where terminfo takes RGB (xterm-direct), the nearest of 256 (24, #005F87) under xterm-256color, black under xterm's 8; the text white and bold on it"
    )
    func eachDepth() throws {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/terminfo/x/xterm-direct")
                || FileManager.default.fileExists(atPath: "/lib/terminfo/x/xterm-direct"),
            "no xterm-direct terminfo: `make test-deps` installs ncurses-term")
        let direct = try headerRow(term: "xterm-direct")
        #expect(direct.contains("\u{1B}[48;2;31;58;95m"), "\(direct.debugDescription)")
        let palette = try headerRow(term: "xterm-256color")
        #expect(palette.contains("\u{1B}[48;5;24m"), "\(palette.debugDescription)")
        #expect(!palette.contains("48;2;"), "no true colour where terminfo says 256")
        let eight = try headerRow(term: "xterm")
        #expect(eight.contains("\u{1B}[40m"), "\(eight.debugDescription)")
        for row in [direct, palette, eight] {
            #expect(row.contains("\u{1B}[1m") && row.contains("\u{1B}[37m"), "white bold text: \(row.debugDescription)")
        }
    }

    @Test("With NO_COLOR the band is gone and the header is bold alone")
    func noColor() throws {
        let row = try headerRow(term: "xterm-256color", environment: ["NO_COLOR": "1"])
        #expect(row.contains("\u{1B}[1mPlanet"), "\(row.debugDescription)")
        #expect(!row.contains("48;5") && !row.contains("48;2") && !row.contains("[40m") && !row.contains("[37m"), "\(row.debugDescription)")
    }
}
