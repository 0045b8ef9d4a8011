import Foundation
import PerchDomain
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import Testing

@testable import PerchApp

/// The terminal asked in passing: the first frame never waits for an answer, an answer that
/// comes late is an event, and answers still expected are read before the terminal is given
/// back (issue 21; qwen-code PR #2718). Input from a pipe, time from a ``VirtualPoller``.
extension LoopSuites {
    @Suite("Terminal replies in the loop", .serialized)
    struct TerminalReplyLoopTests {
        static let kittyAnswer = "\u{1B}[?1u\u{1B}[?62;22c"

        /// A loop under `--key-hold auto` over a pipe, with `script` run on the virtual clock
        /// (each step gets the pipe's write end).
        func makeLoop(_ script: [(Int64, (Int32) -> Void)]) -> (PerchRunner, RecordingBackend, VirtualPoller, Int32) {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            var info = RunInfo()
            info.keyHoldPreference = .auto
            let state = TabApp.perch(accounts: Account.samples, size: backend.size, info: info)
            let poller = VirtualPoller(start: 1_000)
            let writeEnd = ends[1]
            for (time, step) in script { poller.at(time) { step(writeEnd) } }
            let loop = PerchRunner(app: state, backend: backend, store: nil, gestures: .init(), poller: poller)
            return (loop, backend, poller, ends[0])
        }

        static func send(_ text: String, _ fd: Int32) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        /// Bytes still unread on `fd` (non-blocking).
        static func leftover(_ fd: Int32) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            return n > 0 ? Array(buffer[0..<n]) : []
        }

        @Test("A late kitty answer turns on the exact key hold at 500 ms, and a key typed before the answer is kept")
        func lateAnswerTurnsOnExactKeyHold() throws {
            let (loop, backend, _, readEnd) = makeLoop([
                (1_010, { Self.send("2", $0) }),  // typed before the answer: Catalog
                (1_080, { Self.send(Self.kittyAnswer, $0) }),  // the answer, 80 ms after start
                (1_100, { Self.send("\u{1B}[49u", $0) }),  // `1` pressed and held, with no auto-repeat
                (1_900, { Self.send("\u{1B}[49;1:3u", $0) }),
                (2_000, { close($0) }),
            ])
            defer { close(readEnd) }
            let status = loop.run()
            #expect(status == 128 + SIGHUP, "ended by the end of input")
            #expect(
                backend.controls.prefix(2) == [TerminalQuery.backgroundColor.bytes, TerminalQuery.keyboardProtocol.bytes],
                "asked once, after the first frame")
            #expect(backend.frames.first?.text.contains("Overview") == true)
            #expect(backend.calls.contains("pushKeyboardFlags 31"), "flags pushed when the answer came")
            #expect(loop.app.info.keyHold == .releaseEvents)
            #expect(backend.frames.contains { $0.text.contains("Catalog ·") }, "the key typed before the answer was taken")
            #expect(loop.app.sheet != nil, "the hold opened the sheet without any auto-repeat: release events were on")
            #expect(!loop.queries.isWaiting)
        }

        // qwen-code PR #2718: `q` at 80 ms, the answers at 300 ms, and they used to be left in
        // the tty for the shell to read as typed text.
        @Test("Quit before the answers came: they are read before the terminal is given back (qwen-code PR #2718)")
        func answersReadOnTheWayOut() throws {
            let (loop, backend, poller, readEnd) = makeLoop([
                (1_080, { Self.send("q", $0) }),
                (1_300, { Self.send(Self.kittyAnswer, $0) }),
            ])
            defer { close(readEnd) }
            #expect(loop.run() == 0)
            #expect(Self.leftover(readEnd).isEmpty, "nothing left for the shell")
            #expect(!loop.queries.isWaiting)
            #expect(poller.now() >= 1_300 && poller.now() < 1_500, "waited for the answer, not for the whole 500 ms")
            #expect(backend.calls.last == "shutdown")
        }

        @Test("A silent terminal is waited for at most 500 ms after the query, then given up on")
        func silentTerminalGivenUpAt500ms() throws {
            let (loop, _, poller, readEnd) = makeLoop([(1_010, { Self.send("q", $0) })])
            defer { close(readEnd) }
            #expect(loop.run() == 0)
            #expect(poller.now() >= 1_500 && poller.now() <= 1_510)
            #expect(loop.queries.unanswered == [.backgroundColor, .keyboardProtocol])
        }

        @Test("--exit-after-first-frame reads the answers too")
        func exitAfterFirstFrameReadsAnswers() throws {
            let (loop, backend, _, readEnd) = makeLoop([(1_120, { Self.send(Self.kittyAnswer, $0) })])
            defer { close(readEnd) }
            #expect(loop.run(exitAfterFirstFrame: true) == 0)
            #expect(backend.frames.count == 1)
            #expect(Self.leftover(readEnd).isEmpty)
            #expect(!loop.queries.isWaiting && loop.queries.unanswered.isEmpty)
        }
    }
}
