import Foundation
import Testing

/// How Stats' bars reach a real terminal (tmux): a long bar of full blocks is sent as blanks on
/// the bar's colour, which looks the same and costs a byte a cell instead of three (or one
/// erase-characters for the whole bar); without colour the blocks are drawn as they are.
@Suite("Stats bars on a terminal", .currentBinary)
struct StatsBarsEndToEndTests {
    /// Two switches in the last two hours: each account has a bar in Today's rows, and the one
    /// with more time a bar as wide as the pane allows.
    static func history(now: Date = Date()) -> String {
        let format = ISO8601DateFormatter()
        return """
            {"account":"work","previous":null,"source":"cli","time":"\(format.string(from: now.addingTimeInterval(-7_200)))"}
            {"account":"personal","previous":"work","source":"cli","time":"\(format.string(from: now.addingTimeInterval(-3_000)))"}

            """
    }

    /// A session on Stats, 120×40, with ``history(now:)`` written beside the state file.
    func statsSession(environment: [String: String] = [:]) throws -> (TmuxSession, PerchCommandLine) {
        let cli = try PerchCommandLine()
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.history().write(toFile: folder + "/state.history.jsonl", atomically: true, encoding: .utf8)
        // tmux, with no client attached, does not answer OSC 11: the dark theme says the background.
        let session = try TmuxSession(width: 120, height: 40, arguments: ["--theme", "dark"], environment: environment, home: cli.home)
        try session.waitForStart()
        try session.expectAfter("3", shows: "Stats ·")
        #expect(try session.waitFor("Today"))
        return (session, cli)
    }

    /// The row of Today's first bar: the first row after "Today" that names an account.
    static func firstBarRow(_ lines: [String]) -> Int? {
        guard let today = lines.firstIndex(where: { $0.contains("Today") }) else { return nil }
        return lines[(today + 1)...].firstIndex { $0.contains("Work") || $0.contains("Personal") }
    }

    @Test("A long bar is drawn as blanks on the bar's colour (cyan background), not as full-block characters")
    func longBarIsFilledCells() throws {
        let (session, cli) = try statsSession()
        defer { cli.remove() }
        let lines = try session.screen()
        let row = try #require(Self.firstBarRow(lines), "no bar row:\n\(lines.joined(separator: "\n"))")
        #expect(!lines[row].contains("████████"), "the bar's cells hold no run of full blocks: \(lines[row])")
        let styled = try session.screenWithAttributes().components(separatedBy: "\n")
        let styledRow = styled[row]
        // tmux writes the cells' background as SGR 46 (cyan), alone or with other parameters.
        let cyanBackground = try #require(
            styledRow.range(of: #"\x1B\[(?:[0-9;]*;)?46(?:;[0-9;]*)?m {8,}"#, options: .regularExpression),
            "at least 8 blanks on a cyan background: \(styledRow.debugDescription)")
        #expect(styledRow[cyanBackground].hasSuffix("        "))
    }

    @Test("With NO_COLOR a long bar is full-block characters (a background would be invisible without colour)")
    func noColorBarIsBlocks() throws {
        let (session, cli) = try statsSession(environment: ["NO_COLOR": "1"])
        defer { cli.remove() }
        let lines = try session.screen()
        let row = try #require(Self.firstBarRow(lines), "no bar row:\n\(lines.joined(separator: "\n"))")
        #expect(lines[row].contains("████████"), "the bar is drawn in full blocks: \(lines[row])")
        let styled = try session.screenWithAttributes()
        #expect(
            styled.range(of: #"\x1B\[(?:[0-9;]*;)?46(?:;[0-9;]*)?m"#, options: .regularExpression) == nil,
            "no background colour with NO_COLOR")
    }
}
