import Foundation
import PerchDomain
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import PerchStore
import PerchTestSupport
import Testing

@testable import PerchApp

/// The event loop without a terminal: input from a pipe, frames into a ``RecordingBackend``.
extension LoopSuites {
    @Suite("PerchRunner", .serialized)
    struct RunnerTests {
        /// Runs a loop over `input` (all written before it starts, then the pipe closed unless it
        /// ends in `q`); returns the backend, the final state and the exit status.
        /// - Parameter current: the account current at start (the Catalog lists the sample entries of one).
        func run(_ input: String, store: StateStore?, current: String? = nil) throws -> (RecordingBackend, TabApp, Int32) {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let bytes = Array(input.utf8)
            #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
            close(ends[1])
            defer { close(ends[0]) }
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: current), size: backend.size)
            let loop = PerchRunner(app: state, backend: backend, store: store, gestures: .init())
            let status = loop.run()
            return (backend, loop.app, status)
        }

        @Test("keys through the loop: open the sheet, pick, save, quit with 0")
        func pickAndQuit() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-loop-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = StateStore(path: folder + "/state.json")
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let writeEnd = ends[1]
            _ = write(writeEnd, "a\u{1B}[B\r", 5)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: TabApp.perch(accounts: Account.samples, size: backend.size), backend: backend, store: store, gestures: .init())
            // q once the switch is on the screen (the frame drawn after the store's outcome).
            let writer = Thread {
                _ = waitUntil { backend.frames.last?.text.contains("● Personal") == true }
                _ = write(writeEnd, "q", 1)
                close(writeEnd)
            }
            writer.start()
            let status = loop.run()
            #expect(status == 0)
            #expect(loop.app.saved.currentAccount == "personal")
            #expect(try store.load().state.currentAccount == "personal", "saved to the file")
            #expect(loop.app.presented.isEmpty)
            #expect(backend.frames.contains { $0.text.contains("Switching to Personal…") } || backend.frames.count >= 2)
            #expect(backend.calls.last == "shutdown", "the terminal is restored on the way out")
        }

        @Test("Copy id in a Catalog item's context menu sends OSC 52 with the base64 of the id, through the backend")
        func copyIDSendsOSC52() throws {
            let (backend, state, _) = try run("2mjj\r", store: nil, current: "personal")
            let id = state.catalogItems[0].id
            #expect(
                backend.controls.filter { $0 != TerminalQuery.backgroundColor.bytes && $0 != TerminalQuery.deviceAttributes.bytes } == [
                    OSC52.sequence(for: id)
                ])
            #expect(state.presented.isEmpty)
        }

        @Test("the end of input (the terminal went away) ends the loop with 129 and restores the terminal")
        func endOfInput() throws {
            let (backend, state, status) = try run("2jjj", store: nil, current: "personal")
            #expect(status == 128 + SIGHUP)
            #expect(backend.calls.last == "shutdown")
            #expect(state.selectedTab == .catalog && state.catalog.cursor == 3, "input before the end was handled")
        }

        @Test("a backlog of keys in one read is drawn as one frame, not one per key")
        func backlogIsOneFrame() throws {
            // The first frame, then one for the 301 keys of the read; then the end of input.
            let (backend, state, _) = try run("2" + String(repeating: "j", count: 300), store: nil, current: "personal")
            #expect(state.catalog.cursor == 59)
            #expect(backend.frames.count == 2, "\(backend.frames.count) frames")
            #expect(backend.frames.last?.lines[0].hasSuffix("60/60 ") == true)
        }

        /// A loop reading from `descriptor` on a RecordingBackend at 80×24 with the sample accounts.
        func makeLoop(reading descriptor: Int32) -> (PerchRunner, RecordingBackend) {
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: descriptor)
            let loop = PerchRunner(
                app: TabApp.perch(accounts: Account.samples, size: backend.size), backend: backend, store: nil, gestures: .init())
            return (loop, backend)
        }

        @Test("a burst of SIGWINCH faster than frames is laid out once")
        func resizeBurstLaidOutOnce() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            SignalPipe.install()
            defer { SignalPipe.uninstall() }
            for _ in 0..<5 { raise(SIGWINCH) }
            _ = write(ends[1], "q", 1)
            close(ends[1])
            let (loop, backend) = makeLoop(reading: ends[0])
            #expect(loop.run() == 0)
            #expect(backend.calls.filter { $0 == "updateSize" }.count == 1, "\(backend.calls)")
        }

        // A wall-clock bound with a wide margin (the loop ends at once; a busy machine may delay the
        // threads): the one-second figure itself is the benchmark's business, not a test's.
        @Test("the terminal going away (read gives EIO on a hung-up pseudo-terminal) ends the loop with 129 at once")
        func hangUpEndsLoop() throws {
            let master = PseudoTerminal.openMaster(O_RDWR | O_NOCTTY)
            try #require(master >= 0)
            #expect(PseudoTerminal.grant(master) == 0 && PseudoTerminal.unlock(master) == 0)
            var name = [CChar](repeating: 0, count: 128)
            #expect(PseudoTerminal.name(master, &name, name.count) == 0)
            let terminal = open(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
            try #require(terminal >= 0)
            defer { close(terminal) }
            let (loop, backend) = makeLoop(reading: terminal)
            // Hangs up once the loop runs (it has drawn its first frame), at most 5 s on.
            let writer = Thread {
                let deadline = Date().addingTimeInterval(5)
                while backend.frames.isEmpty, Date() < deadline { sched_yield() }
                close(master)
            }
            writer.start()
            let start = Date()
            let status = loop.run()
            #expect(status == 128 + SIGHUP)
            #expect(Date().timeIntervalSince(start) < 5.0)
            #expect(backend.calls.last == "shutdown")
        }
    }
}

/// The pseudo-terminal functions of glibc (posix_openpt(3), grantpt(3), unlockpt(3), ptsname_r(3)),
/// which the Glibc module leaves out without _XOPEN_SOURCE.
enum PseudoTerminal {
    @_silgen_name("posix_openpt") static func openMaster(_ flags: Int32) -> Int32
    @_silgen_name("grantpt") static func grant(_ descriptor: Int32) -> Int32
    @_silgen_name("unlockpt") static func unlock(_ descriptor: Int32) -> Int32
    @_silgen_name("ptsname_r") static func name(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
}
