import Foundation
import Testing

/// End-to-end: Perch and `perch doctor` inside tmux and inside GNU screen (itself in a tmux pane,
/// which is read), with the release binary.
@Suite(.serialized, .currentBinary)
struct MultiplexerEndToEndTests {
    /// A wait long enough for doctor's terminal queries (300 ms at most) on a busy machine.
    static let timeout: Double = 10

    // Bug: under tmux, Esc arrived 500 ms late (tmux's default escape-time), and doctor said nothing.
    @Test("perch doctor inside tmux reads escape-time from tmux: 500 ms is named with its fix, 10 ms is fine")
    func doctorInTmux() throws {
        // tmux with no configuration (`-f /dev/null`): escape-time is its default, 500 ms.
        let slow = try TmuxSession(width: 200, height: 40, arguments: ["doctor"])
        #expect(try slow.waitFor("hold the 1 key", timeout: Self.timeout))
        let screen = try slow.screen().joined(separator: "\n")
        #expect(screen.contains("  multiplexer       tmux (TMUX is set)"), "\(screen)")
        #expect(
            screen.contains("  tmux escape-time  500 ms (tmux show -sv escape-time): Esc reaches Perch 500 ms late"), "\(screen)")
        #expect(screen.contains("fix: set -sg escape-time 10 (in ~/.tmux.conf)"), "\(screen)")
        try slow.send("x")  // skips the key test
        #expect(try slow.waitFor("EXIT=0", timeout: Self.timeout))

        // The same tmux server with the fix applied from inside the pane, before doctor starts.
        let fixed = try TmuxSession(
            width: 200, height: 40, arguments: ["doctor"], launcher: ["sh", "-c", "tmux set -sg escape-time 10 && exec \"$@\"", "sh"])
        #expect(try fixed.waitFor("hold the 1 key", timeout: Self.timeout))
        #expect(try fixed.screen().contains { $0.contains("  tmux escape-time  10 ms (tmux show -sv escape-time): fine") })
        try fixed.send("x")
        #expect(try fixed.waitFor("EXIT=0", timeout: Self.timeout))
    }

    /// A session whose pane runs GNU screen (a scratch `SCREENDIR` and an empty screenrc, so
    /// `altscreen` is off as by default, and no `TMUX`: screen as the only multiplexer), which
    /// runs `command` with `sh -c` and then waits.
    static func inScreen(_ command: String, home: URL? = nil) throws -> (TmuxSession, URL) {
        let folder = try TmuxSession.makeScratchHome()
        let sockets = folder.appendingPathComponent("screen")
        try FileManager.default.createDirectory(at: sockets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let rc = folder.appendingPathComponent("screenrc")
        try "".write(to: rc, atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            width: 200, height: 40, arguments: ["-c", rc.path, "sh", "-c", command + "; echo AFTER=$?; sleep 3600"],
            environment: ["SCREENDIR": sockets.path], home: home, launcher: ["env", "-u", "TMUX"], program: "screen")
        return (session, folder)
    }

    /// Ends the screen session `inScreen` started (its server outlives the tmux pane), then
    /// removes its folder: no process of a test stays behind.
    static func endScreen(_ folder: URL) {
        _ = try? Spawn.run(
            ["screen", "-X", "quit"],
            environment: ["SCREENDIR": folder.appendingPathComponent("screen").path, "PATH": "/usr/local/bin:/usr/bin:/bin"])
        try? FileManager.default.removeItem(at: folder)
    }

    // Bug: under GNU screen with the mouse on, Esc did nothing and the last frame stayed under the
    // prompt; doctor said nothing of either.
    @Test(
        "perch doctor inside GNU screen names its Esc with the mouse on and its alternate screen, each with the fix",
        .enabled(if: ShellEndToEndTests.installed("screen")))
    func doctorInScreen() throws {
        let (session, folder) = try Self.inScreen(TmuxSession.quote(TmuxSession.binary) + " doctor")
        defer { Self.endScreen(folder) }
        #expect(try session.waitFor("hold the 1 key", timeout: Self.timeout))
        let screen = try session.screen().joined(separator: "\n")
        #expect(screen.contains("  multiplexer       GNU screen (STY is set)"), "\(screen)")
        #expect(screen.contains("  screen and Esc    with mouse reporting on, screen holds Esc until the next key"), "\(screen)")
        #expect(screen.contains("fix: perch --no-mouse (or Mouse off in Settings)"), "\(screen)")
        #expect(screen.contains("fix: altscreen on (in ~/.screenrc)"), "\(screen)")
        #expect(!screen.contains("tmux"), "screen alone (its tmux pane's TMUX is not passed on): \(screen)")
        try session.send("x")
        #expect(try session.waitFor("AFTER=0", timeout: Self.timeout))
    }

    // Bug: GNU screen claims an alternate screen (its terminfo has smcup) and ignores it unless
    // `altscreen on`: Perch's last frame stayed under the shell's next line after q.
    @Test(
        "inside GNU screen, quitting clears the frame: the shell's next line is on a clean screen",
        .enabled(if: ShellEndToEndTests.installed("screen")))
    func screenLeavesNoFrame() throws {
        let (session, folder) = try Self.inScreen(TmuxSession.quote(TmuxSession.binary))
        defer { Self.endScreen(folder) }
        try session.waitForStart()
        try session.send("q")
        #expect(try session.waitFor("AFTER=0", timeout: Self.timeout))
        let screen = try session.screen()
        #expect(!screen.contains { $0.contains("Overview") || $0.contains("Catalog") || $0.contains("Settings") }, "\(screen)")
    }
}
