import Foundation
import Testing

/// The first frame drawn from the current-account cache, the whole config read after it: what
/// the person sees stays honest while the accounts are on their way. Each test makes the cache
/// with `perch current` (as a prompt does), then starts the interface with the config read
/// slowed down by the test-only `PERCH_TEST_CONFIG_READ_DELAY_MS`, so there is time to act
/// before the accounts arrive.
@Suite(.serialized, .currentBinary)
struct StartupCacheEndToEndTests {
    static let config = """
        {"accounts": [
          {"id": "work", "name": "Work", "handle": "@ada.work"},
          {"id": "home", "name": "Home", "handle": "@ada"},
          {"id": "club", "name": "Club", "handle": "@ada.club"}
        ]}

        """

    /// How long the interface's read of the config is held back, in milliseconds.
    static let readDelay = "3000"

    /// A scratch HOME whose config has three accounts, `home` current after 2 switches, and the
    /// `perch current` cache made for those files (waited for: it is only made from files older
    /// than 2 s).
    static func homeWithCache() throws -> (home: URL, configPath: String, statePath: String) {
        let home = try TmuxSession.makeScratchHome()
        let configFolder = home.appendingPathComponent("config/perch")
        let stateFolder = home.appendingPathComponent("state/perch")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        let configPath = configFolder.appendingPathComponent("accounts.json").path
        let statePath = stateFolder.appendingPathComponent("state.json").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        try #"{"version": 2, "currentAccount": "home", "switchCount": 2, "switchesPerAccount": {"home": 2}}"#
            .write(toFile: statePath, atomically: true, encoding: .utf8)
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8",
        ]
        let made = TmuxSession.eventually(timeout: 15) {
            let result = try? Spawn.run([TmuxSession.binary, "current"], environment: environment)
            return result?.stdout.hasPrefix("home:") == true && FileManager.default.fileExists(atPath: statePath + ".current")
        }
        try #require(made, "perch current made no cache")
        return (home, configPath, statePath)
    }

    static func startSlowRead(home: URL) throws -> TmuxSession {
        try TmuxSession.started(environment: ["PERCH_TEST_CONFIG_READ_DELAY_MS": readDelay], home: home)
    }

    @Test("A cache that does not match the files is never used: the first frame shows the config as it is now")
    func staleCacheIsNotUsed() throws {
        let (home, configPath, _) = try Self.homeWithCache()
        defer { try? FileManager.default.removeItem(at: home) }
        // The config changes after the cache was made: the cache no longer matches it.
        try Self.config.replacingOccurrences(of: "\"Home\"", with: "\"Homestead\"").write(
            toFile: configPath, atomically: true, encoding: .utf8)
        let session = try Self.startSlowRead(home: home)
        // Read at once after the first frame, long before a slowed read of the config would end.
        let first = try session.screen()
        #expect(first.contains { $0.contains("● Homestead") }, "the first frame:\n\(first.joined(separator: "\n"))")
    }

    @Test("A sheet opened before the accounts arrive says loading… until they come, then lists them")
    func sheetSaysLoading() throws {
        let (home, _, _) = try Self.homeWithCache()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try Self.startSlowRead(home: home)
        let first = try session.screen()
        #expect(first.contains { $0.contains("● Home") }, "the first frame comes from the cache:\n\(first.joined(separator: "\n"))")
        try session.expectAfter("a", shows: "loading…")
        let loading = try session.screen()
        #expect(!loading.contains { $0.contains("Work") || $0.contains("Club") }, "no account offered:\n\(loading.joined(separator: "\n"))")
        // Enter picks nothing while loading.
        try session.send("Enter")
        let arrived = try session.waitUntil(timeout: 15) { lines in
            !lines.contains { $0.contains("loading…") } && lines.contains { $0.contains("3 accounts") }
                && lines.contains { $0.contains("Work") } && lines.contains { $0.contains("Club") }
        }
        let screen = try session.screen()
        #expect(arrived, "the accounts never replaced loading…:\n\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("Work") } && screen.contains { $0.contains("Club") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("Switches so far: 2") }, "the Enter while loading switched nothing")
    }

    @Test("An account the config no longer has is never offered, nor kept as current, once the config is read")
    func removedAccountIsNotOffered() throws {
        let (home, configPath, _) = try Self.homeWithCache()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try Self.startSlowRead(home: home)
        #expect(try session.screen().contains { $0.contains("● Home") })
        // Removed while the interface is starting: the cache said `home`, the config no longer has it.
        let without = Self.config.split(separator: "\n").filter { !$0.contains("\"home\"") }.joined(separator: "\n")
        try without.write(toFile: configPath, atomically: true, encoding: .utf8)
        #expect(try session.waitFor("No account chosen yet", timeout: 15), "the removed account stayed current")
        try session.expectAfter("a", shows: "2 accounts", timeout: 5)
        // The sheet rises over 150 ms: read it once both accounts it lists are drawn.
        #expect(try session.waitUntil { lines in lines.contains { $0.contains("Work") } && lines.contains { $0.contains("Club") } })
        let sheet = try session.screen()
        #expect(!sheet.contains { $0.contains("Home") && !$0.contains("not in the config") }, "\(sheet.joined(separator: "\n"))")
        #expect(sheet.contains { $0.contains("Work") } && sheet.contains { $0.contains("Club") }, "\(sheet.joined(separator: "\n"))")
    }

    @Test("A config found invalid after the first frame is reported as at any start (exit 2), before any switch")
    func invalidConfigAfterFirstFrame() throws {
        let (home, configPath, statePath) = try Self.homeWithCache()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try Self.startSlowRead(home: home)
        #expect(try session.screen().contains { $0.contains("● Home") })
        try "{\n  \"accounts\": [\n    {\"id\": \"a\" \"name\": \"A\"}\n  ]\n}\n".write(
            toFile: configPath, atomically: true, encoding: .utf8)
        // Trying to switch meanwhile: the sheet has nothing to pick.
        try session.send("a")
        try session.send("Down")
        try session.send("Enter")
        #expect(try session.waitFor("EXIT=2", timeout: 15), "the interface went on with an invalid config")
        let screen = try session.screen()
        let message = "perch: config \(configPath): line 3, column 16: expected ',' or '}'"
        // The message is longer than the pane is wide: its rows are read as one.
        #expect(screen.joined().contains(message), "\(screen.joined(separator: "\n"))")
        #expect(try session.terminalRestored())
        let state = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(state.contains("\"switchCount\": 2") || state.contains("\"switchCount\":2"), "a switch was made: \(state)")
    }
}
