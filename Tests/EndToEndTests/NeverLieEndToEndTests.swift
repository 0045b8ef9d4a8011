import Foundation
import Testing

/// "Never lie, never freeze", as a person sees it: the real binary in tmux, with a state file
/// whose save fails and with a state lock held by another process.
@Suite(.serialized, .currentBinary)
struct NeverLieEndToEndTests {
    // Bug: with a state path whose save fails, Overview said "Signed in as" the picked account and
    // "Switches so far: 1", while only a banner told that nothing was saved.
    @Test("A save that fails never shows the switch: Overview stays as it was, the banner says why, the file is untouched")
    func failedSaveIsNotShown() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state.json")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let session = try TmuxSession(arguments: ["--state", state.path], home: home)
        try session.waitForStart()
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Down", "Enter")
        let shown = try session.waitFor("Could not switch to Personal")
        #expect(shown, "\((try? session.screen())?.joined(separator: "\n") ?? "")")
        let screen = try session.screen()
        #expect(screen.contains { $0.contains("No account chosen yet.") })
        #expect(screen.contains { $0.contains("Switches so far: 0") })
        #expect(!screen.contains { $0.contains("● Personal") })
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty, "nothing was written into it")
        try session.expectAfter("q", shows: "EXIT=0")
    }

    // Bug: while another process held state.json.lock, the whole interface froze for up to 2 s.
    @Test("A held state lock freezes nothing: the pick shows as pending, keys answer at once, and the switch lands when the lock is free")
    func heldLockDoesNotFreeze() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("state/perch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = open(folder.appendingPathComponent("state.json.lock").path, O_RDWR | O_CREAT, 0o600)
        try #require(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        let session = try TmuxSession.started(home: home)
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Down", "Down", "Enter")
        #expect(try session.waitFor("Switching to Open Source…"))
        #expect(try session.waitFor("waiting for another process"))
        // Within a frame or so, not after the lock's 2 s: generous bounds for a busy machine.
        let start = Date()
        try session.expectAfter("4", shows: "Long-press duration", timeout: 1.5)
        try session.expectAfter("?", shows: "Keys · Settings", timeout: 1.5)
        try session.expectAfter("Escape", shows: "Long-press duration", timeout: 1.5)
        try session.expectAfter("1", shows: "Switching to Open Source…", timeout: 1.5)
        #expect(Date().timeIntervalSince(start) < 1.9, "the keys were answered while the lock was held")
        flock(lock, LOCK_UN)
        #expect(try session.waitFor("● Open Source"))
        #expect(try session.waitUntil { !$0.contains { $0.contains("Switching to") } })
        let saved = try String(contentsOf: folder.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(saved.contains("\"currentAccount\" : \"oss\""), "\(saved)")
        try session.expectAfter("q", shows: "EXIT=0")
    }
}
