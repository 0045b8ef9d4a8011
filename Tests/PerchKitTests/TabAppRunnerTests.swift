import Glibc
import Synchronization
import Testing

@testable import PerchKit
@testable import PerchKitLoop
@testable import PerchKitTerminal

/// The runner on the real loop with a virtual clock and a recording backend: input bytes in,
/// frames out, work on a worker thread and its outcome back to the pane.
@Suite("TabAppRunner", .serialized)
struct TabAppRunnerTests {
    @Test("Bytes typed reach the pane, its work runs off the loop and comes back, and q ends the run with 0")
    func runs() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        let poller = VirtualPoller()
        let runner = TabAppRunner(
            app: TabApp(panes: [CounterPane(), PlainPane()], size: backend.size, reduceMotion: true), backend: backend, poller: poller)
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        poller.at(1_100) { type("+++d") }
        // q once the work has come back (its outcome is in the pipe the loop reads before input).
        poller.at(1_200) {
            let deadline = MonotonicClock.now() + 5_000
            while runner.workInFlight > 0, MonotonicClock.now() < deadline { usleep(1_000) }
            type("q")
        }
        let status = runner.run()
        close(ends[1])
        #expect(status == 0)
        #expect(runner.loop.root.pane(CounterPane.self)?.count == 3)
        #expect(runner.loop.root.pane(CounterPane.self)?.doubled == 6, "the work's outcome reached the pane before q")
        #expect(backend.frames.last?.lines[0].hasPrefix("Counter 3") == true)
        #expect(backend.calls.contains("shutdown"))
    }

    @Test("A copy the app asks for reaches the terminal as OSC 52 with the text in base64")
    func copiesToClipboard() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        let poller = VirtualPoller()
        let runner = TabAppRunner(
            app: TabApp(panes: [TallyPane()], model: TallyModel(), size: backend.size, reduceMotion: true), backend: backend, poller: poller
        )
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        poller.at(1_100) { type("+c") }
        poller.at(1_200) { type("q") }
        #expect(runner.run() == 0)
        close(ends[1])
        // "total 10" in base64 is dG90YWwgMTA=.
        #expect(backend.controls == [Array("\u{1B}]52;c;dG90YWwgMTA=\u{1B}\\".utf8)])
        #expect(backend.frames.contains { $0.lines.contains { $0.contains("Copied the total") } }, "and the banner said so")
    }

    @Test("The app's model asks the terminal once the first frame is up, takes the answer and turns the protocol on; focus reaches it")
    func queriesRepliesAndFocus() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        let poller = VirtualPoller()
        let runner = TabAppRunner(
            app: TabApp(panes: [PlainPane()], model: KeyboardModel(), size: backend.size, reduceMotion: true), backend: backend,
            poller: poller)
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        // kitty's answer: its flags (none pushed yet), then the device attributes every terminal sends.
        poller.at(1_100) { type("\u{1B}[?0u\u{1B}[?62;22c") }
        poller.at(1_200) { type("\u{1B}[O\u{1B}[I") }
        poller.at(1_300) { type("q") }
        #expect(runner.run() == 0)
        close(ends[1])
        #expect(backend.controls.first == TerminalQuery.keyboardProtocol.bytes, "asked once the first frame was drawn")
        #expect(backend.controls.count == 1, "and only once")
        #expect(backend.calls.contains("pushKeyboardFlags 3"))
        let model = try #require(runner.loop.root.model(KeyboardModel.self))
        #expect(model.flags == 0 && model.focusRegained == 1 && model.startedCount == 1)
        #expect(backend.frames.contains { $0.lines.contains { $0.contains("welcome back") } }, "focus regained showed the banner")
        #expect(!runner.loop.queries.isWaiting, "the answer ended the wait")
    }

    @Test("Work of one lane runs one piece at a time in the order asked: a slow piece asked first ends first")
    func laneKeepsOrder() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        workLog.withLock { $0.removeAll() }
        let backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        let poller = VirtualPoller()
        let runner = TabAppRunner(
            app: TabApp(panes: [LanePane()], size: backend.size, reduceMotion: true), backend: backend, poller: poller)
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        poller.at(1_100) { type("g") }
        poller.at(1_200) {
            let deadline = MonotonicClock.now() + 5_000
            while workLog.withLock({ $0.count }) < 2 || runner.workInFlight > 0, MonotonicClock.now() < deadline { usleep(1_000) }
            type("q")
        }
        #expect(runner.run() == 0)
        close(ends[1])
        #expect(workLog.withLock { $0 } == ["slow", "quick"], "the quick piece waited for the slow one")
        #expect(runner.loop.root.pane(LanePane.self)?.arrived == ["slow", "quick"], "and came back after it")
    }

    @Test("A descriptor and a deadline of the app's send messages to its model")
    func watchAndEvery() throws {
        var ends: [Int32] = [0, 0]
        var watched: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0 && pipe(&watched) == 0)
        defer { for end in [ends[0], watched[0], watched[1]] { close(end) } }
        let backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        let poller = VirtualPoller()
        let runner = TabAppRunner(
            app: TabApp(panes: [TallyPane()], model: TallyModel(), size: backend.size, reduceMotion: true), backend: backend, poller: poller
        )
        runner.watch(watched[0]) { _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(watched[0], &buffer, buffer.count)
            return count > 0 ? [TallyModel.Message.add(count)] : []
        }
        let fired = Mutex(false)
        runner.every({ fired.withLock { $0 } ? nil : 1_150 }) { _ in
            fired.withLock { $0 = true }
            return [TallyModel.Message.add(1_000)]
        }
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        poller.at(1_100) { _ = Array("abc".utf8).withUnsafeBytes { write(watched[1], $0.baseAddress, $0.count) } }
        poller.at(1_300) { type("q") }
        #expect(runner.run() == 0)
        close(ends[1])
        #expect(runner.loop.root.model(TallyModel.self)?.total == 1_003, "3 bytes read from the descriptor, 1,000 from the deadline")
        #expect(backend.frames.last?.lines[0].hasPrefix("total 1003") == true, "and drawn")
    }
}
