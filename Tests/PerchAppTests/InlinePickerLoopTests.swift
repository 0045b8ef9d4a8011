import Foundation
import PerchDomain
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import Testing

@testable import PerchApp

/// The inline picker on PerchKit's loop, as `perch pick` runs it (``InlinePicker/run(_:on:gestures:poller:)``):
/// the rows taken before the first frame, the cursor's position asked after it, the pointer
/// placed by the answer, and the picker's end. Input from a pipe, time from a ``VirtualPoller``.
extension LoopSuites {
    @Suite("Inline picker in the loop", .serialized)
    struct InlinePickerLoopTests {
        /// A picker over a pipe with `script`'s bytes written at their virtual times; the pipe is
        /// closed at `endAt` (the end of input), else when the returned closer is called.
        func makeLoop(_ script: [(Int64, String)], endAt: Int64? = nil) -> (
            () -> (status: Int32, picker: AccountPicker), RecordingBackend, () -> Void
        ) {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let backend = RecordingBackend(size: Size(width: 70, height: 24), inputDescriptor: ends[0])
            let picker = AccountPicker(
                accounts: Account.samples, saved: SavedState(currentAccount: "work"), terminal: backend.size, height: nil, verb: "switch")
            let poller = VirtualPoller(start: 1_000)
            let writeEnd = ends[1]
            for (time, text) in script {
                poller.at(time) {
                    let bytes = Array(text.utf8)
                    _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                }
            }
            let readEnd = ends[0]
            if let endAt { poller.at(endAt) { close(writeEnd) } }
            let closer = {
                close(readEnd)
                if endAt == nil { close(writeEnd) }
            }
            return ({ InlinePicker.run(picker, on: backend, gestures: .init(), poller: poller) }, backend, closer)
        }

        @Test("Rows taken before the first frame, DSR after it; a click before the answer is dropped, one after it picks")
        func clickAfterTheReport() {
            // Row 11 (1-based) is where the cursor's line is: the block starts on row 12, and its
            // row 5 (0-based) is Side Project.
            let click = "\u{1B}[<0;6;17M\u{1B}[<0;6;17m"
            let (run, backend, closer) = makeLoop([(1_010, click), (1_050, "\u{1B}[11;1R"), (1_100, click)])
            defer { closer() }
            let ended = run()
            #expect(ended.status == 0)
            #expect(backend.calls.first == "takeRows 7")
            #expect(backend.frames.first?.size == Size(width: 70, height: 7))
            #expect(backend.frames.first?.lines[1].contains("Switch account") == true)
            #expect(
                backend.controls.prefix(2) == [TerminalQuery.backgroundColor.bytes, TerminalQuery.cursorPosition.bytes],
                "asked after the first frame: the background, then the cursor, whose answer ends both waits")
            #expect(backend.calls.contains("setMouse on"))
            #expect(ended.picker.outcome == .picked(accountID: "side"), "the second click, placed by the answer")
            #expect(backend.calls.last == "shutdown")
        }

        @Test("Typing filters at once and Enter ends the loop with the match; the end of input cancels")
        func typeAndEnter() {
            let (run, _, closer) = makeLoop([(1_010, "op"), (1_020, "\r")])
            defer { closer() }
            let picked = run()
            #expect(picked.status == 0)
            #expect(picked.picker.outcome == .picked(accountID: "oss"))
            let (runUntilEnd, _, endedCloser) = makeLoop([(1_010, "op")], endAt: 1_100)
            defer { endedCloser() }
            let ended = runUntilEnd()
            #expect(ended.status == 128 + SIGHUP)
            #expect(ended.picker.outcome == nil)
        }
    }
}
