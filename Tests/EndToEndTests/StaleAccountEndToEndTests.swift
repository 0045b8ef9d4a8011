import Foundation
import Testing

/// The interface open while another terminal changes the config: a switch goes only to an
/// account the config has at that moment.
@Suite("A switch to an account removed meanwhile, end to end", .serialized, .currentBinary)
struct StaleAccountEndToEndTests {
    // Bug: with Perch open, `perch remove oss --yes` in another terminal, then Open Source picked
    // in the sheet, which still listed it: Overview said "Signed in as Open Source", its tools
    // were applied, and the state named an account the config no longer had (`perch current`
    // then said no account was chosen, exit 1).
    // The open interface now reads the config again when it changes: the sheet open at the
    // removal drops the row at once, and nothing can pick it. (A pick racing the removal is
    // still checked against the config as it is when the switch is recorded: SwitchJobs.)
    @Test("Open Source removed by perch remove while the sheet lists it: the open sheet drops it at once, and nothing is switched")
    func removedWhileListed() throws {
        let cli = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: cli.home) }
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "oss", "name": "Open Source"}, {"id": "home", "name": "Home"}]}"#)
        #expect(try cli.run(["switch", "work"]).status == 0)
        let session = try TmuxSession(width: 100, height: 30, environment: cli.environment, home: cli.home)
        #expect(try session.waitFor("Overview"))
        try session.sendLiteral("a")
        #expect(try session.waitFor("Open Source"), "the sheet lists it")
        #expect(try cli.run(["remove", "oss", "--yes"]).status == 0)
        #expect(
            try session.waitUntil { lines in lines.contains { $0.contains("Home") } && !lines.contains { $0.contains("Open Source") } },
            "the open sheet dropped it with no key pressed")
        try session.send("Escape")
        let current = try cli.run(["current"])
        #expect(current.status == 0 && current.stdout.hasPrefix("work"), "still work: \(current.stdout)\(current.stderr)")
        #expect(try !session.screen().contains { $0.contains("Signed in as") && $0.contains("Open Source") })
    }
}
