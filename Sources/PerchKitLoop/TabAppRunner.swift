import Glibc
import PerchKit
import PerchKitTerminal
import Synchronization

extension TabApp.Event: LoopEvent {
    /// `.ui(event)`.
    public init(_ event: UIEvent) { self = .ui(event) }
}

extension TabApp: LoopRoot {
    /// `base` with the keys the panes hold (the digits of those that hold their tab, and their
    /// tables' holds) as the holdable keys, then as the app's model wants it
    /// (``AppModel/gestures(_:)``).
    public func gestureConfiguration(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        configuration.holdableKeys = holdableKeys
        configuration.tapFirstKeys = tabHoldKeys
        return model.gestures(configuration)
    }
}

/// How an app's jobs are done (``Job``: work that only says what to do, asked for by a pure
/// core): the app layer's own, given to a ``TabAppRunner``, which hands it every job a component
/// asks for. It finds how through the job's type (`job.as(WriteFile.self)`, or a protocol of its
/// own the jobs conform to), never through a list of every job.
public protocol JobPerformer: AnyObject {
    /// Starts `job`, on whatever thread suits it (the loop's, for a job that needs the terminal:
    /// ``TerminalLoop/runOnTerminal(_:)``), and calls `answer` with each of its outcomes, in
    /// order, from any thread; each goes to the component that asked, on the loop's thread. A job
    /// it does not know it answers nothing.
    func perform(_ job: AnyJob, answer: @escaping @Sendable (any Sendable) -> Void)
}

/// Runs a ``TabApp`` on a ``TerminalLoop``: the work its components ask for runs on threads of
/// its own (one per piece of work, ``WorkerQueue``), their jobs are done by the app's
/// ``performer``, and each outcome comes back through a pipe the loop waits on, to the component
/// that asked, on the loop's thread.
public final class TabAppRunner {
    /// The loop, whose ``TerminalLoop/root`` is the app.
    public let loop: TerminalLoop<TabApp>
    private let workers = WorkerQueue(serial: false)
    /// One serial queue per lane of work (``Work/lane``), made when its first piece is asked for.
    private var lanes: [String: WorkerQueue] = [:]
    /// The outcomes back from the workers, and the work still running.
    private final class Inbox: Sendable {
        let finished = Mutex<[(message: any Sendable, component: ComponentID)]>([])
        let running = Mutex(0)
        /// The tokens of work still running, by a number of its own; each is cancelled when the
        /// run ends (``CancellableWork``).
        let tokens = Mutex<(next: Int, live: [Int: WorkCancellation])>((0, [:]))
    }

    private let inbox = Inbox()
    /// The wake-up pipe: its ends are closed when the last holder goes, the runner or a piece of
    /// work still running (bug: work that outlived the runner wrote its wake-up byte into a
    /// descriptor number closed and given to another file meanwhile).
    private final class Doorbell: Sendable {
        let readEnd: Int32
        let writeEnd: Int32
        init() {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                }
            }
            (readEnd, writeEnd) = (ends[0], ends[1])
        }
        /// One byte, so the loop wakes.
        func ring() {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        deinit { for end in [readEnd, writeEnd] where end >= 0 { close(end) } }
    }

    private let doorbell = Doorbell()
    /// Milliseconds the run waits, once the terminal is restored, for work still running
    /// (cancelled first: ``CancellableWork``) before it returns anyway; 2,000 by default. Work
    /// that outlasts it ends with the process: make a write that must not be lost atomic (a
    /// temporary file renamed into place) so that it is whole or absent.
    public var workGrace: Int64 = 2000
    /// Who does the jobs components ask for (``Job``); without one, a job is not done and its
    /// asker hears nothing.
    public var performer: JobPerformer?

    /// - Parameters:
    ///   - app: the root.
    ///   - backend: the terminal.
    ///   - gestures: the recogniser's timing (the app names the holdable keys).
    ///   - poller: the clock and the wait (``VirtualPoller`` in tests).
    public init(app: TabApp, backend: TerminalBackend, gestures: GestureRecognizer.Configuration = .init(), poller: Poller = SystemPoller())
    {
        loop = TerminalLoop(root: app, backend: backend, gestures: gestures, poller: poller)
        loop.perform = { [unowned self] effect in perform(effect) }
        let readEnd = doorbell.readEnd
        loop.sources = [
            .init(
                descriptor: { readEnd },
                ready: { [unowned self] time in
                    var buffer = [UInt8](repeating: 0, count: 64)
                    while read(readEnd, &buffer, buffer.count) > 0 {}
                    let messages = inbox.finished.withLock { list in
                        defer { list.removeAll() }
                        return list
                    }
                    return loop.send(messages.map { .deliver($0.message, to: $0.component) }, at: time)
                })
        ]
    }

    /// Also waits on `descriptor` (a watch on a folder, a socket of the app's): when it is
    /// readable, `read` is called with the time (milliseconds on the loop's clock) and must read
    /// what is ready; each message it returns goes to the app's model (``AppModel``), in order.
    /// The descriptor stays the caller's to close, after the run.
    public func watch(_ descriptor: Int32, read: @escaping (Int64) -> [any Sendable]) {
        loop.sources.append(
            .init(
                descriptor: { descriptor },
                ready: { [unowned self] time in
                    let messages = read(time)
                    return messages.isEmpty ? false : loop.send(messages.map { .deliver($0, to: .app) }, at: time)
                }))
    }

    /// Also wakes at `deadline()` (milliseconds on the loop's clock; nil for none, asked before
    /// every wait): `fire` is called with the time, and each message it returns goes to the app's
    /// model, in order (a clock read each minute, say).
    public func every(_ deadline: @escaping () -> Int64?, fire: @escaping (Int64) -> [any Sendable]) {
        loop.timers.append(
            .init(
                deadline: deadline,
                fire: { [unowned self] time in
                    let messages = fire(time)
                    return messages.isEmpty ? false : loop.send(messages.map { .deliver($0, to: .app) }, at: time)
                }))
    }

    /// Work handed out whose outcome has not come back yet.
    public var workInFlight: Int { inbox.running.withLock { $0 } }

    private func perform(_ effect: TabApp.Effect) {
        switch effect {
        case .perform(let work, let component):
            switch work.kind {
            case .job(let job, let message): performer?.perform(job, answer: answer(component, message))
            case .run(let run):
                inbox.running.withLock { $0 += 1 }
                let token = WorkCancellation()
                let number = inbox.tokens.withLock { tokens in
                    defer { tokens.next += 1 }
                    tokens.live[tokens.next] = token
                    return tokens.next
                }
                let post = answer(component, { $0 })
                let queue =
                    work.lane.map { lane in
                        if let queue = lanes[lane] { return queue }
                        let queue = WorkerQueue(serial: true)
                        lanes[lane] = queue
                        return queue
                    } ?? workers
                queue.async { [inbox] in
                    post(run(token))
                    _ = inbox.tokens.withLock { $0.live.removeValue(forKey: number) }
                    inbox.running.withLock { $0 -= 1 }
                }
            }
        case .quit: loop.quit()
        case .suspend: loop.suspend()
        case .terminal(.copyToClipboard(let text)): loop.backend.write(control: OSC52.sequence(for: text))
        case .terminal(.setMouse(let on)): loop.backend.setMouse(on)
        case .terminal(.ask(let query)): loop.ask([query])
        case .terminal(.pushKeyboardFlags(let flags)): loop.backend.pushKeyboardFlags(flags)
        case .say(let line): loop.backend.say(line)
        }
    }

    /// Where the outcomes of a job for `component` go: each mapped by `message` to the
    /// component's own, into the inbox the loop reads.
    private func answer(_ component: ComponentID, _ message: @escaping @Sendable (any Sendable) -> (any Sendable)?)
        -> @Sendable (any Sendable) -> Void
    {
        return { [inbox, doorbell] outcome in
            guard let mapped = message(outcome) else { return }
            inbox.finished.withLock { $0.append((mapped, component)) }
            doorbell.ring()
        }
    }

    /// Runs until quit or a terminating signal; returns the exit status (``TerminalLoop/run(firstFrame:exitAfterFirstFrame:)``).
    /// Then, in this order: work still running is cancelled (``CancellableWork``), the terminal
    /// is restored at once (the backend shut down), and work still running is waited for at most
    /// ``workGrace`` milliseconds in all; its outcomes reach no one.
    /// - Parameter exitAfterFirstFrame: draw the first frame, read the terminal's answers to
    ///   what was asked, and end (status 0) without acting on input (for measuring start-up).
    public func run(exitAfterFirstFrame: Bool = false) -> Int32 {
        let status = loop.run(firstFrame: { [unowned self] in loop.send([.started]) }, exitAfterFirstFrame: exitAfterFirstFrame)
        cancelWork()
        loop.backend.shutdown()
        let deadline = MonotonicClock.now() + workGrace
        for queue in [workers] + Array(lanes.values) {
            queue.wait(milliseconds: max(0, deadline - MonotonicClock.now()))
        }
        return status
    }

    /// Cancels every piece of work still running (its token says so; work that checks it stops).
    public func cancelWork() {
        let tokens = inbox.tokens.withLock { Array($0.live.values) }
        for token in tokens { token.cancel() }
    }

    /// Runs the app made by `app` (given the terminal's size) full-screen on the process's
    /// terminal with ncurses (``NcursesBackend``): signals are watched (``SignalPipe``), colour
    /// follows `NO_COLOR`, and the terminal is restored on every way out. Returns the exit status
    /// (0 after quit; 128 + a signal's number), or 2 with the reason on standard error when the
    /// terminal cannot be used (not a terminal, an unknown `TERM`).
    /// - Parameters:
    ///   - configure: called with the runner before it runs: give it a ``JobPerformer``
    ///     (`runner.performer = …`), descriptors to watch (``watch(_:read:)``) or deadlines
    ///     (``every(_:fire:)``). Nothing by default.
    ///   - app: makes the app for the terminal's size (columns × rows).
    public static func runFullScreen(configure: (TabAppRunner) -> Void = { _ in }, _ app: (Size) -> TabApp) -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError("standard input and output must be a terminal")
            return 2
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        let backend: NcursesBackend
        do {
            backend = try NcursesBackend(colors: !noColor)
        } catch {
            printError("\(error)")
            return 2
        }
        let runner = TabAppRunner(app: app(backend.size), backend: backend)
        configure(runner)
        return runner.run()
    }
}

/// Writes `line` after the program's name, and a line break, to standard error.
private func printError(_ line: String) {
    let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "app"
    let bytes = Array((program + ": " + line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
