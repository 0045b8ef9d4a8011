import Foundation
import Testing

/// `perch --accessible` (issue 51): the real binary in tmux, read as a screen reader reads it,
/// line by line from the top: each change one line of text, no alternate screen, no frame.
@Suite("Accessible mode, end to end", .serialized, .currentBinary)
struct AccessibleModeEndToEndTests {
    /// Every line the pane has shown (its history too), wrapped lines joined (`capture-pane -J`).
    private func transcript(_ session: TmuxSession) throws -> [String] {
        try session.tmux(["capture-pane", "-p", "-J", "-S", "-"]).components(separatedBy: "\n").filter { !$0.isEmpty }
    }

    /// Waits until a line after line `after` of the transcript starts with `prefix`; returns its
    /// index and text, or records a failure with the transcript.
    @discardableResult
    private func waitForLine(
        _ session: TmuxSession, startingWith prefix: String, after: Int = -1, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (index: Int, line: String) {
        var found: (Int, String)?
        _ = try TmuxSession.eventually(timeout: 5) {
            let lines = try transcript(session)
            found = lines.indices.dropFirst(after + 1).first { lines[$0].hasPrefix(prefix) }.map { ($0, lines[$0]) }
            return found != nil
        }
        guard let found else {
            Issue.record("no line starting \(prefix) after line \(after): \(try transcript(session))", sourceLocation: sourceLocation)
            return (after, "")
        }
        return found
    }

    @Test("perch --accessible says a tab chosen, the sheet numbered, the help, the filter and the pick, one line each")
    func transcriptOfAVisit() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let cli = try PerchCommandLine(home: home)
        #expect(try cli.run(["switch", "personal"]).status == 0)
        let session = try TmuxSession(width: 200, height: 50, arguments: ["--accessible"], home: home)

        var (at, line) = try waitForLine(session, startingWith: "Perch, accessible mode. Overview tab, 1 of 4: Overview")
        #expect(line.contains("Personal"), "the greeting says who is signed in: \(line)")
        #expect(try session.tmux(["display", "-p", "#{alternate_on}"]).hasPrefix("0"), "no alternate screen")

        try session.send("Tab")
        (at, line) = try waitForLine(session, startingWith: "Catalog tab, 2 of 4: Catalog", after: at)

        try session.send("a")
        (at, line) = try waitForLine(session, startingWith: "Switch account, 5 rows: ", after: at)
        #expect(
            line.contains("1 Work, @ada.lovelace; 2 Personal, @ada, current; 3 Open Source, @ada-oss; 4 Side Project, @analytical-engine"),
            "the rows are numbered: \(line)")

        try session.send("?")
        (at, line) = try waitForLine(session, startingWith: "Keys for Account sheet: ", after: at)
        #expect(line.contains("Enter: switch to the account"), "\(line)")
        #expect(line.contains("/: filter by name or handle"), "\(line)")
        try session.send("Escape")
        (at, _) = try waitForLine(session, startingWith: "Switch account, 5 rows: ", after: at)

        try session.send("/")
        (at, _) = try waitForLine(session, startingWith: "Filter: type to narrow the list", after: at)
        try session.sendLiteral("side")
        (at, line) = try waitForLine(session, startingWith: "Filter \"side\": ", after: at)
        #expect(line == "Filter \"side\": 2 rows: 1 Side Project, @analytical-engine; 2 Add account….")
        try session.send("Enter")
        (at, _) = try waitForLine(session, startingWith: "Switching to Side Project (@analytical-engine)…", after: at)
        (at, _) = try waitForLine(session, startingWith: "Signed in as Side Project (@analytical-engine). Switches so far: 2.", after: at)

        // A number and Enter pick a row.
        try session.send("a")
        (at, _) = try waitForLine(session, startingWith: "Switch account, 5 rows: ", after: at)
        try session.send("3")
        (at, _) = try waitForLine(session, startingWith: "3 of 5: Open Source, @ada-oss.", after: at)
        try session.send("Enter")
        (at, _) = try waitForLine(session, startingWith: "Signed in as Open Source (@ada-oss). Switches so far: 3.", after: at)

        try session.send("q")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.terminalRestored())
        #expect(try cli.run(["current", "--field", "id"]).stdout == "oss\n")
        // Nothing but text was written: no line holds a control character.
        #expect(try transcript(session).allSatisfy { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } })
    }

    @Test("the accessible setting kept in settings.json starts the accessible mode without the flag")
    func keptSetting() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/perch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"accessible": true}"#.utf8).write(to: folder.appendingPathComponent("settings.json"))
        let session = try TmuxSession(width: 200, height: 50, home: home)
        try waitForLine(session, startingWith: "Perch, accessible mode. Overview tab, 1 of 4")
        try session.send("q")
        #expect(try session.waitFor("EXIT=0"))
    }
}
