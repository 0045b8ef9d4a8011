import Foundation
import PerchCore
import PerchStore
import PerchTerminal
import Testing

@testable import PerchApp

/// The event loop without a terminal: input from a pipe, frames into a ``RecordingBackend``.
@Suite("EventLoop", .serialized)
struct EventLoopTests {
    /// Runs a loop over `input` (all written before it starts, then the pipe closed unless it
    /// ends in `q`); returns the backend, the final state and the exit status.
    func run(_ input: String, store: StateStore?) throws -> (RecordingBackend, AppState, Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array(input.utf8)
        #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
        let state = AppState(accounts: Account.samples, size: backend.size)
        let loop = EventLoop(state: state, backend: backend, store: store, gestures: .init())
        let status = loop.run()
        return (backend, loop.state, status)
    }

    @Test("keys through the loop: open the sheet, pick, save, quit with 0")
    func pickAndQuit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-loop-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = StateStore(path: folder + "/state.json")
        let (backend, state, status) = try run("a\u{1B}[B\rq", store: store)
        #expect(status == 0)
        #expect(state.saved.currentAccount == "personal")
        #expect(try store.load().state.currentAccount == "personal", "saved to the file")
        #expect(state.presented.isEmpty)
        #expect(state.render().lines.contains { $0.contains("● Personal") })
        #expect(backend.frames.count == 1, "everything arrived in one read: one frame before it, none after quit")
        #expect(backend.calls.last == "shutdown", "the terminal is restored on the way out")
    }

    @Test("the end of input (the terminal went away) ends the loop with 129 and restores the terminal")
    func endOfInput() throws {
        let (backend, state, status) = try run("2jjj", store: nil)
        #expect(status == 128 + SIGHUP)
        #expect(backend.calls.last == "shutdown")
        #expect(state.selectedTab == .catalog && state.catalog.cursor == 3, "input before the end was handled")
    }

    @Test("a backlog of keys in one read is drawn as one frame, not one per key")
    func backlogIsOneFrame() throws {
        // The first frame, then one for the 301 keys of the read; then the end of input.
        let (backend, state, _) = try run("2" + String(repeating: "j", count: 300), store: nil)
        #expect(state.catalog.cursor == 59)
        #expect(backend.frames.count == 2, "\(backend.frames.count) frames")
        #expect(backend.frames.last?.lines[0].hasSuffix("60/60 ") == true)
    }
}
