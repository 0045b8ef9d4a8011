import Glibc
import PerchTestSupport
import Synchronization
import Testing

@testable import PerchKit
@testable import PerchKitLoop
@testable import PerchKitTerminal

/// A runner of `app` on a recording backend of 40×12 whose input is a pipe the test types into,
/// with a virtual clock; the pipe is closed when the rig goes.
final class RunnerRig {
    let backend: RecordingBackend
    let poller = VirtualPoller()
    let runner: TabAppRunner
    private var ends: [Int32] = [-1, -1]

    init(panes: [any Pane], model: any AppModel = NoAppModel()) throws {
        try #require(pipe(&ends) == 0)
        backend = RecordingBackend(size: Size(width: 40, height: 12), inputDescriptor: ends[0])
        runner = TabAppRunner(
            app: TabApp(panes: panes, model: model, size: backend.size, reduceMotion: true), backend: backend, poller: poller)
    }

    deinit { for end in ends where end >= 0 { close(end) } }

    /// Writes `text` to the program's input, as typed.
    func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
}

/// The runner on the real loop with a virtual clock and a recording backend: input bytes in,
/// frames out, work on a worker thread and its outcome back to the pane.
@Suite("TabAppRunner", .serialized)
struct TabAppRunnerTests {
    @Test("Bytes typed reach the pane, its work runs off the loop and comes back, and q ends the run with 0")
    func runs() throws {
        let rig = try RunnerRig(panes: [CounterPane(), PlainPane()])
        let (backend, poller, runner) = (rig.backend, rig.poller, rig.runner)
        let type = rig.type
        poller.at(1_100) { type("+++d") }
        // q once the work has come back (its outcome is in the pipe the loop reads before input).
        poller.at(1_200) {
            waitUntil { runner.workInFlight == 0 }
            type("q")
        }
        let status = runner.run()
        #expect(status == 0)
        #expect(runner.loop.root.pane(CounterPane.self)?.count == 3)
        #expect(runner.loop.root.pane(CounterPane.self)?.doubled == 6, "the work's outcome reached the pane before q")
        #expect(backend.frames.last?.lines[0].hasPrefix("Counter 3") == true)
        #expect(backend.calls.contains("shutdown"))
    }

    @Test("A copy the app asks for reaches the terminal as OSC 52 with the text in base64")
    func copiesToClipboard() throws {
        let rig = try RunnerRig(panes: [TallyPane()], model: TallyModel())
        let (backend, poller, runner) = (rig.backend, rig.poller, rig.runner)
        let type = rig.type
        poller.at(1_100) { type("+c") }
        poller.at(1_200) { type("q") }
        #expect(runner.run() == 0)
        // "total 10" in base64 is dG90YWwgMTA=.
        #expect(backend.controls == [Array("\u{1B}]52;c;dG90YWwgMTA=\u{1B}\\".utf8)])
        #expect(backend.frames.contains { $0.lines.contains { $0.contains("Copied the total") } }, "and the banner said so")
    }

    @Test("The app's model asks the terminal once the first frame is up, takes the answer and turns the protocol on; focus reaches it")
    func queriesRepliesAndFocus() throws {
        let rig = try RunnerRig(panes: [PlainPane()], model: KeyboardModel())
        let (backend, poller, runner) = (rig.backend, rig.poller, rig.runner)
        let type = rig.type
        // kitty's answer: its flags (none pushed yet), then the device attributes every terminal sends.
        poller.at(1_100) { type("\u{1B}[?0u\u{1B}[?62;22c") }
        poller.at(1_200) { type("\u{1B}[O\u{1B}[I") }
        poller.at(1_300) { type("q") }
        #expect(runner.run() == 0)
        #expect(backend.controls.first == TerminalQuery.keyboardProtocol.bytes, "asked once the first frame was drawn")
        #expect(backend.controls.count == 1, "and only once")
        #expect(backend.calls.contains("pushKeyboardFlags 3"))
        let model = try #require(runner.loop.root.model(KeyboardModel.self))
        #expect(model.flags == 0 && model.focusRegained == 1 && model.startedCount == 1)
        #expect(backend.frames.contains { $0.lines.contains { $0.contains("welcome back") } }, "focus regained showed the banner")
        #expect(!runner.loop.queries.isWaiting, "the answer ended the wait")
    }

    @Test("Once kitty's answer has come, the model's gestures take key holds from release events: 1 held, with no repeat, raises the sheet")
    func modelSetsGestures() throws {
        let rig = try RunnerRig(panes: [CounterPane()], model: KeyboardModel())
        let (poller, runner) = (rig.poller, rig.runner)
        let type = rig.type
        poller.at(1_100) { type("\u{1B}[?0u\u{1B}[?62;22c") }
        // 1 pressed in the protocol's own form, then released 700 ms later: no auto-repeat came.
        poller.at(1_200) { type("\u{1B}[49u") }
        poller.at(1_900) { type("\u{1B}[49;1:3u") }
        poller.at(2_000) { type("\u{03}") }
        #expect(runner.run() == 0)
        #expect(runner.loop.root.layer(Sheet.self) != nil, "the hold fired at its deadline, from the press alone")
    }

    @Test("A job goes to the app layer's performer, and each of its outcomes comes back to the pane that asked, in order")
    func jobsGoToThePerformer() throws {
        let rig = try RunnerRig(panes: [LookupPane()])
        let (poller, runner) = (rig.poller, rig.runner)
        let performer = LookupPerformer()
        runner.performer = performer
        let type = rig.type
        poller.at(1_100) { type("l") }
        poller.at(1_200) {
            // q once the answers are in the pipe, which the loop reads before input.
            waitUntil { performer.done.withLock { $0 } }
            type("q")
        }
        #expect(runner.run() == 0)
        #expect(performer.asked.withLock { $0 } == [AnyJob(Lookup(word: "wren"))], "the job as the pane asked for it")
        #expect(
            runner.loop.root.pane(LookupPane.self)?.answers == ["looking up wren", "wren: a small bird"],
            "both outcomes, in order; 42 dropped")
    }

    @Test("Work of one lane runs one piece at a time in the order asked: a slow piece asked first ends first")
    func laneKeepsOrder() throws {
        workLog.withLock { $0.removeAll() }
        laneStarted.withLock { $0.removeAll() }
        laneGate.withLock { $0 = false }
        let rig = try RunnerRig(panes: [LanePane()])
        let (poller, runner) = (rig.poller, rig.runner)
        let type = rig.type
        poller.at(1_100) { type("g") }
        poller.at(1_200) {
            // The slow piece runs until the test lets it end: the quick one, asked with it, has not started.
            waitUntil { laneStarted.withLock { $0 } == ["slow"] && runner.workInFlight == 2 }
            #expect(laneStarted.withLock { $0 } == ["slow"], "the quick piece waits while the slow one runs")
            laneGate.withLock { $0 = true }
            waitUntil { workLog.withLock { $0.count } == 2 && runner.workInFlight == 0 }
            type("q")
        }
        #expect(runner.run() == 0)
        #expect(workLog.withLock { $0 } == ["slow", "quick"], "the quick piece waited for the slow one")
        #expect(runner.loop.root.pane(LanePane.self)?.arrived == ["slow", "quick"], "and came back after it")
    }

    /// Issue 48: quitting while work ran froze the screen until the work ended (3.6 s measured),
    /// and work could not be cancelled.
    @Test("Quit while cancellable work runs: the terminal is restored, the work told to stop, and the run ends without its whole time")
    func quitCancelsWork() throws {
        waitLog.withLock { $0.removeAll() }
        let (rig, took) = try Self.quitWhileWorking(start: "s", grace: 8_000)
        #expect(rig.backend.calls.contains("shutdown"), "the terminal is restored")
        // (Another test's work that ignores its token may still log "finished" meanwhile.)
        #expect(waitLog.withLock { $0.contains("cancelled") }, "the work saw its token and stopped")
        #expect(took < 4_000, "ended after \(took) ms: neither the work's 10 s nor the 8 s grace")
    }

    /// A runner of ``WaitingPane`` with `grace`: `start` typed, then `q` once the work runs; the
    /// rig and the real milliseconds the run took.
    static func quitWhileWorking(start key: String, grace: Int64) throws -> (RunnerRig, Int64) {
        let rig = try RunnerRig(panes: [WaitingPane()])
        let (poller, runner) = (rig.poller, rig.runner)
        runner.workGrace = grace
        let type = rig.type
        poller.at(1_100) { type(key) }
        poller.at(1_200) {
            waitUntil { runner.workInFlight == 1 }
            type("q")
        }
        let start = MonotonicClock.now()
        #expect(runner.run() == 0)
        return (rig, MonotonicClock.now() - start)
    }

    @Test("Quit while work that ignores its token runs: the terminal is restored and the run waits no longer than its grace")
    func quitWaitsAtMostGrace() throws {
        let (rig, took) = try Self.quitWhileWorking(start: "S", grace: 200)
        #expect(rig.backend.calls.contains("shutdown"), "the terminal is restored")
        #expect(rig.runner.workInFlight == 1, "the work still runs: it was not waited for to its end")
        #expect(took >= 200 && took < 2_500, "waited \(took) ms: the 200 ms grace, not the work's 3 s")
    }

    /// Work that outlived its runner wrote its wake-up byte into the runner's closed pipe, whose
    /// descriptor number the next pipe opened took (a stray byte in another app's input).
    @Test("Work that ends after its runner is gone writes nothing into a descriptor opened since")
    func lateWorkWritesNowhereElse() throws {
        weak var gone: TabAppRunner?
        do {
            let rig = try RunnerRig(panes: [GatedPane()])
            rig.runner.workGrace = 50
            gone = rig.runner
            let type = rig.type
            rig.poller.at(1_100) { type("g") }
            rig.poller.at(1_200) { [weak runner = rig.runner] in
                waitUntil { runner?.workInFlight == 1 }
                type("q")
            }
            #expect(rig.runner.run() == 0)
            #expect(rig.runner.workInFlight == 1, "the work outlived the run")
        }
        #expect(gone == nil, "the runner is gone")
        // New pipes take the lowest free numbers: the rig's input's, then the runner's own.
        var pipes: [[Int32]] = []
        for _ in 0..<4 {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            pipes.append(ends)
        }
        defer { for end in pipes.joined() { close(end) } }
        func rung() -> Bool {
            var fds = pipes.map { pollfd(fd: $0[0], events: Int16(POLLIN), revents: 0) }
            return poll(&fds, nfds_t(fds.count), 0) > 0
        }
        workGate.signal()
        waitUntil(timeout: 0.5) { rung() }
        #expect(!rung(), "no byte came into a pipe opened since")
    }

    @Test("A descriptor and a deadline of the app's send messages to its model")
    func watchAndEvery() throws {
        var watched: [Int32] = [0, 0]
        try #require(pipe(&watched) == 0)
        defer { for end in watched { close(end) } }
        let rig = try RunnerRig(panes: [TallyPane()], model: TallyModel())
        let (backend, poller, runner) = (rig.backend, rig.poller, rig.runner)
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
        let type = rig.type
        poller.at(1_100) { _ = Array("abc".utf8).withUnsafeBytes { write(watched[1], $0.baseAddress, $0.count) } }
        poller.at(1_300) { type("q") }
        #expect(runner.run() == 0)
        #expect(runner.loop.root.model(TallyModel.self)?.total == 1_003, "3 bytes read from the descriptor, 1,000 from the deadline")
        #expect(backend.frames.last?.lines[0].hasPrefix("total 1003") == true, "and drawn")
    }
}
