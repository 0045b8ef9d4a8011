import Foundation
import Testing

/// perchkit-planets, the second example on PerchKit alone (its Table and TextField), driven in
/// tmux as a person would.
@Suite("perchkit-planets, end to end", .serialized)
struct PerchKitPlanetsEndToEndTests {
    /// The app under test: the debug build, which `make test` builds.
    static var binary: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/perchkit-planets").path
    }

    func started() throws -> TmuxSession {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary), "no perchkit-planets at \(Self.binary): `make test` builds it")
        let session = try TmuxSession(width: 60, height: 16, program: Self.binary)
        let shown = try session.waitUntil(timeout: 10) { lines in lines.contains { $0.contains("Neptune") } }
        let screen = try session.screen().joined(separator: "\n")
        try #require(shown, "perchkit-planets did not draw its table:\n\(screen)")
        return session
    }

    @Test("/ types a filter that narrows the table as typed; Ctrl-W clears it word by word; Enter on a row says its moons")
    func filterAndPick() throws {
        let session = try started()
        #expect(try session.waitFor("8 of 8"))
        try session.sendLiteral("/")
        try session.sendLiteral("ur")
        #expect(try session.waitFor("3 of 8"), "Mercury, Saturn, Uranus hold ur")
        #expect(try !session.screen().contains { $0.contains("Neptune") })
        try session.send("Enter", "Down", "Enter")
        #expect(try session.waitFor("Saturn has 146 known moons."))
        try session.sendLiteral("/")
        try session.send("C-w")
        #expect(try session.waitFor("8 of 8"), "the filter emptied: every planet is back")
        try session.send("Escape")
        try session.send("End", "Enter")
        #expect(try session.waitFor("Neptune has 16 known moons."))
    }

    @Test(
        "On Notes, typed text goes into the field, ← edits in the middle, Enter adds it to the list; Ctrl-C quits with the terminal restored"
    )
    func notes() throws {
        let session = try started()
        try session.send("Tab")
        #expect(try session.waitFor("New: "))
        try session.sendLiteral("hello wrld")
        try session.send("Left", "Left", "Left")
        try session.sendLiteral("o")
        try session.send("Enter")
        #expect(try session.waitUntil { $0.contains { $0.trimmingCharacters(in: .whitespaces) == "hello world" } }, "the note, as edited")
        try session.sendLiteral("q2")
        #expect(try session.waitFor("New: q2▏"), "q and 2 are text here")
        try session.send("C-c")
        #expect(try session.waitFor("EXIT=0"))
        #expect(try session.terminalRestored())
        let help = try Spawn.run([Self.binary, "--help"])
        #expect(help.status == 0 && help.stdout.contains("usage: perchkit-planets"))
        let wrong = try Spawn.run([Self.binary, "--nope"])
        #expect(wrong.status == 2 && wrong.stderr.contains("unknown option '--nope'"))
    }
}
