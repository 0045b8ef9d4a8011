import Foundation
import PerchDomain
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import PerchKitTerminal
import Testing

@testable import PerchApp

/// `--exit-after-first-frame`: the flag, and the loop drawing one frame and leaving.
@Suite("Exit after the first frame", .serialized)
struct ExitAfterFirstFrameTests {
    // Bug: it was listed in --help for users; it measures start-up, and docs/performance.md names it.
    @Test("the flag parses, takes no value, and is not listed in --help")
    func flag() throws {
        #expect(try CommandLineParser.parse(["--exit-after-first-frame"]).interface?.exitAfterFirstFrame == true)
        #expect(try CommandLineParser.parse([]).interface?.exitAfterFirstFrame == false)
        #expect(throws: UsageError.self) {
            try CommandLineParser.parse(["--exit-after-first-frame=1"])
        }
        #expect(!Help.program.contains("--exit-after-first-frame"))
    }

    @Test("the loop draws one full frame, restores the terminal and returns 0 without reading input")
    func oneFrame() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        // Input is waiting, but the loop must not read it: the frame is the start-up frame.
        #expect(write(ends[1], "2", 1) == 1)
        let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
        let state = TabApp.perch(accounts: Account.samples, size: backend.size)
        let loop = PerchRunner(app: state, backend: backend, store: nil, gestures: .init())
        #expect(loop.run(exitAfterFirstFrame: true) == 0)
        #expect(backend.frames == [state.render()])
        #expect(backend.calls == ["shutdown"])
        #expect(loop.app.selectedTab == .overview, "the waiting key was not read")
    }
}
