import Glibc
import PerchKit
import PerchKitTerminal

/// The one place with time and I/O: it waits in poll(2) on the terminal, the signal pipe
/// (``SignalPipe``) and the app's own descriptors (``Source``), with a timeout equal to the next
/// deadline (a pending gesture, an animation frame, a lone `ESC`, an app timer), or with none at
/// all, so an idle app makes no wake-ups. Each wake-up decodes input (``InputDecoder``),
/// recognises gestures (``GestureRecognizer``), passes events to the root's `update`, hands the
/// effects it returns to ``perform``, and draws one frame. It never changes the root otherwise.
///
/// Signals: SIGWINCH resizes (one layout per burst), SIGTSTP suspends (the terminal restored;
/// continued in the background it stops again until `fg`), SIGCONT resumes, and any other
/// watched signal ends the run with status 128 + its number.
public final class TerminalLoop<Root: LoopRoot> {
    /// The root model, changed only by `update`.
    public private(set) var root: Root
    /// The terminal.
    public let backend: TerminalBackend
    private var decoder = InputDecoder()
    private var recognizer: GestureRecognizer
    private let poller: Poller
    private var lastInput: Int64 = 0
    private var exitStatus: Int32?
    /// True from Ctrl-Z until continued in the foreground: the terminal belongs to the shell, so
    /// nothing is drawn, no input is read and no mode is turned on.
    public private(set) var isSuspended = false
    /// Input bytes of one read(2), reused from one read to the next.
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// What the last frame drawn shows where: the pointer is hit-tested against it, so a click
    /// goes to what the person saw (a sheet still sliding away, not the state after it).
    private var drawn = HitMap()
    private var dirty = true
    /// Why the loop ended early (a failed poll(2)), for the caller to print; nil otherwise.
    public private(set) var failure: String?
    /// Queries sent to the terminal whose answers have not come yet: read before the terminal is
    /// given back, so that none is left for the shell to read as typed text.
    public private(set) var queries = TerminalQueries()

    /// Carries out one effect of the root's; set by the app before ``run(firstFrame:)``. It may
    /// call back into the loop (``send(_:)``, ``quit(status:)``, ``runOnTerminal(_:)``, ``ask(_:)``).
    public var perform: (Root.Effect) -> Void = { _ in }

    /// A descriptor of the app's that the loop also waits on (a worker's wake-up pipe, a file
    /// watch): when it is readable, `ready` runs on the loop's thread with the time, and returns
    /// whether anything may have changed (a frame is then drawn).
    public struct Source {
        /// The descriptor to wait on, asked before every wait (it may change or be -1 for none).
        public var descriptor: () -> Int32
        /// Called with the time (milliseconds on the loop's clock) when the descriptor is
        /// readable; returns whether anything may have changed. It must read what is ready, or
        /// the next wait returns at once.
        public var ready: (Int64) -> Bool

        /// A source waiting on `descriptor()` and calling `ready` when it is readable.
        public init(descriptor: @escaping () -> Int32, ready: @escaping (Int64) -> Bool) {
            self.descriptor = descriptor
            self.ready = ready
        }
    }

    /// The app's descriptors, waited on after the terminal and the signal pipe.
    public var sources: [Source] = []

    /// A deadline of the app's besides the root's animation (a clock to read each minute): the
    /// loop wakes at `deadline()` (milliseconds on the clock; nil for none) and runs `fire`.
    public struct Timer {
        /// When it fires next, in milliseconds on the loop's clock, or nil for never; asked
        /// before every wait.
        public var deadline: () -> Int64?
        /// Called with the time (milliseconds) on a wake-up at or after the deadline; returns
        /// whether anything may have changed (a frame is then drawn). It should move the
        /// deadline on, or the loop wakes at once again.
        public var fire: (Int64) -> Bool

        /// A timer firing `fire` at each `deadline()`.
        public init(deadline: @escaping () -> Int64?, fire: @escaping (Int64) -> Bool) {
            self.deadline = deadline
            self.fire = fire
        }
    }

    /// The app's timers.
    public var timers: [Timer] = []

    /// Called after a resume (Ctrl-Z then `fg`, or a command run on the terminal) once the
    /// backend has its modes back, before the frame is drawn again (a mouse turned off stays off).
    public var resumed: () -> Void = {}

    /// Exit status when the loop cannot wait any more (poll(2) failed): the run ends with the
    /// terminal restored and the reason in ``failure``.
    public static var pollFailedStatus: Int32 { 1 }

    /// - Parameters:
    ///   - root: the model to run.
    ///   - backend: the terminal (``NcursesBackend``, ``LineModeBackend``, ``RecordingBackend``).
    ///   - gestures: the recogniser's timing and holdable keys, which the root may change
    ///     (``LoopRoot/gestureConfiguration(_:)``).
    ///   - poller: the clock and the wait (``SystemPoller``, or ``VirtualPoller`` in tests).
    public init(root: Root, backend: TerminalBackend, gestures: GestureRecognizer.Configuration, poller: Poller = SystemPoller()) {
        self.root = root
        self.backend = backend
        self.poller = poller
        self.recognizer = GestureRecognizer(configuration: root.gestureConfiguration(gestures))
    }

    /// Now, in milliseconds on the loop's monotonic clock.
    public func now() -> Int64 { poller.now() }

    /// Applies `events` to the root and carries out their effects; returns whether anything may
    /// have changed. For the app's outcomes and messages (from a ``Source``, or at once).
    @discardableResult
    public func send(_ events: [Root.Event], at time: Int64? = nil) -> Bool {
        let time = time ?? now()
        for event in events {
            for effect in root.update(event, at: time) { perform(effect) }
        }
        // What the root decides for gestures applies to the next gesture.
        let configuration = root.gestureConfiguration(recognizer.configuration)
        if configuration != recognizer.configuration { recognizer.configuration = configuration }
        if !events.isEmpty { dirty = true }
        return !events.isEmpty
    }

    /// Ends the run after the current wake-up with `status`.
    public func quit(status: Int32 = 0) { exitStatus = status }

    /// Runs until ``quit(status:)``, a terminating signal, the terminal going away or a failed
    /// wait; returns the exit status (as given to `quit`; 128 + the signal number; 128 + SIGHUP
    /// when the terminal went away; ``pollFailedStatus`` with ``failure`` set). Before the
    /// terminal is given back, answers still expected are read (``finishReplies()``); the backend
    /// is not shut down (the caller does, after its own work is finished).
    /// - Parameters:
    ///   - firstFrame: runs once the first frame is drawn (ask the terminal, start slow work).
    ///   - exitAfterFirstFrame: draw the first frame, run `firstFrame`, and return 0.
    public func run(firstFrame: () -> Void = {}, exitAfterFirstFrame: Bool = false) -> Int32 {
        var drewFirst = false
        while exitStatus == nil {
            if drawIfChanged(), !drewFirst {
                drewFirst = true
                firstFrame()
                if exitAfterFirstFrame {
                    exitStatus = 0
                    break
                }
            }
            wakeUp()
        }
        finishReplies()
        return exitStatus ?? 0
    }

    /// The exit status once the run has ended (``quit(status:)``, a signal, the terminal gone, a
    /// failed wait), else nil.
    public var endStatus: Int32? { exitStatus }

    /// Draws a frame when anything may have changed since the last one (and the terminal is
    /// not given back); returns whether it drew. ``run(firstFrame:exitAfterFirstFrame:)`` calls
    /// it before each wait; a test driver calls it itself.
    @discardableResult
    public func drawIfChanged() -> Bool {
        guard dirty, !isSuspended else { return false }
        let frame = root.renderFrame()
        backend.draw(frame.screen, styles: frame.styles)
        drawn = frame.hits
        dirty = false
        return true
    }

    /// One wake-up: waits in poll(2) until input, a signal, an app descriptor or the next
    /// deadline, then handles what woke it (signals, gestures that expired, an animation frame,
    /// timers, sources, input bytes, a lone `ESC` flushed). Ends the run (``endStatus``) when
    /// the wait fails or the terminal went away.
    public func wakeUp() {
        var fds = [
            pollfd(fd: isSuspended ? -1 : backend.inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        for source in sources { fds.append(pollfd(fd: source.descriptor(), events: Int16(POLLIN), revents: 0)) }
        let ready = poller.poll(&fds, timeout: nextTimeout())
        if ready < 0, errno != EINTR {
            failure = "cannot wait for input: \(String(cString: strerror(errno)))"
            exitStatus = Self.pollFailedStatus
            return
        }
        let time = now()
        if fds[1].revents & Int16(POLLIN) != 0 {
            var resized = false
            for signal in SignalPipe.drain() {
                // Resizes faster than frames are laid out once, at the size the terminal has now.
                if signal == SIGWINCH {
                    if resized { continue }
                    resized = true
                }
                handle(signal: signal)
            }
        }
        send(recognizer.expire(at: time).map(Root.Event.init), at: time)
        if let frame = root.nextAnimationDeadline, time >= frame { send([Root.Event(.animationFrame)], at: time) }
        for timer in timers {
            if let deadline = timer.deadline(), time >= deadline, timer.fire(time) { dirty = true }
        }
        for (index, source) in sources.enumerated() where fds[2 + index].revents & Int16(POLLIN) != 0 {
            if source.ready(time) { dirty = true }
        }
        if fds[0].revents & Int16(POLLNVAL) != 0 {
            exitStatus = 128 + SIGHUP  // no terminal to read any more: end rather than spin
            return
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let descriptor = backend.inputDescriptor
            let n = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) {
                exitStatus = 128 + SIGHUP  // the terminal went away
                return
            }
            if n > 0 {
                lastInput = time
                // The clock truncates: bytes read at `time` were read before `time + 1`.
                // Stamped `time + 1`, a press is never dated before it was read, so a
                // long-press timed from it never fires early.
                feed(decoder.feed(readBuffer[0..<n]), at: time + 1)
            }
        }
        if let timeout = decoder.pendingTimeoutMilliseconds, time - lastInput >= timeout {
            feed(decoder.flush(), at: time)
        }
    }

    /// Milliseconds poll(2) may wait: until the earliest deadline (a gesture, an animation frame,
    /// an app timer, a lone `ESC`), or -1 (forever) when none.
    private func nextTimeout() -> Int32 {
        var deadline = recognizer.nextDeadline
        for next in ([root.nextAnimationDeadline] + timers.map { $0.deadline() }).compactMap({ $0 }) {
            deadline = deadline.map { min($0, next) } ?? next
        }
        if let timeout = decoder.pendingTimeoutMilliseconds {
            let flush = lastInput + timeout
            deadline = deadline.map { min($0, flush) } ?? flush
        }
        guard let deadline else { return -1 }
        return Int32(clamping: max(0, deadline - now()))
    }

    /// Sends each of `list` the terminal is worth asking (``TerminalQueries/shouldAsk(_:)``); the
    /// answers come back to the root as ``UIEvent/terminalReply(_:)``, whenever they come.
    public func ask(_ list: [TerminalQuery]) {
        for query in list where queries.shouldAsk(query) {
            backend.write(control: query.bytes)
            queries.sent(query, at: now())
            // `CSI r ; c R` is read as a report only while one is expected (else it is Shift-F3).
            if query == .cursorPosition { decoder.expectsCursorReport = true }
        }
    }

    /// Reads the terminal's answers still expected, waiting at most until 500 ms after each query
    /// was sent (``TerminalQueries``); a terminal silent that long is waited for no more. Called
    /// on every way out that gives the terminal back (quit, a terminating signal, suspend, a
    /// command run on the terminal), so that no answer is left for the shell or the command to
    /// read as typed text. Other input read meanwhile is dropped.
    public func finishReplies() {
        while true {
            queries.expire(at: now())
            guard let deadline = queries.deadline else { return }
            var fds = [pollfd(fd: backend.inputDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poller.poll(&fds, timeout: Int32(clamping: max(0, deadline - now())))
            if ready < 0, errno == EINTR { continue }
            // Bug: a wait that fails (the loop ended by a failed poll, with a query out) spun here
            // for ever: nothing more can be read.
            if ready < 0 { return }
            guard ready > 0 else { continue }
            guard fds[0].revents & Int16(POLLIN) != 0 else { return }  // hung up: nothing more will come
            let descriptor = backend.inputDescriptor
            let n = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            for case .reply(let reply) in decoder.feed(readBuffer[0..<n]) { queries.received(reply) }
        }
    }

    private func feed(_ events: [InputEvent], at time: Int64) {
        for var event in events {
            if case .reply(let reply) = event { queries.received(reply) }
            if case .mouse(var mouse) = event {
                // The frame may sit lower than the terminal's top row (a line-mode block).
                guard let position = root.framePosition(mouse.position) else { continue }
                mouse.position = position
                event = .mouse(mouse)
            }
            let root = self.root
            let drawn = self.drawn
            send(
                recognizer.handle(event, at: time, hitTest: { drawn.target(at: $0) }, holdable: root.acceptsKeyHold).map(Root.Event.init),
                at: time)
            if exitStatus != nil { break }
        }
    }

    /// Runs `body` (a command that needs the terminal: an editor, a pager) with the terminal
    /// given back (answers read, modes off, main screen), then takes the terminal back, resizes
    /// and redraws in full. Returns what `body` returned.
    public func runOnTerminal<T>(_ body: () -> T) -> T {
        finishReplies()
        backend.suspend()
        let result = body()
        resumeBackend()
        send([Root.Event(.resize(backend.updateSize()))])
        return result
    }

    private func resumeBackend() {
        backend.resume()
        resumed()
    }

    /// Gives the terminal back and stops the process (Ctrl-Z); the loop takes it back when it is
    /// continued in the foreground.
    public func suspend() {
        finishReplies()
        backend.suspend()
        isSuspended = true
        SignalPipe.stop(with: SIGTSTP)
        resumeIfForeground()
    }

    /// Takes the terminal back after a stop, but only in the foreground. Continued in the
    /// background (`bg`), the process stops again as a background write to the terminal would
    /// (SIGTTOU, "Stopped (tty output)"), so that `fg` continues it with SIGCONT.
    private func resumeIfForeground() {
        guard tcgetpgrp(backend.inputDescriptor) == getpgrp() else {
            if isSuspended { SignalPipe.stop(with: SIGTTOU) }
            return
        }
        resumeBackend()
        isSuspended = false
        send([Root.Event(.resize(backend.updateSize()))])
    }

    /// The terminal's size changed (SIGWINCH, or a test driver's resize): the root is laid out at
    /// the backend's size now, and a press in progress is hit-tested again.
    public func terminalResized() {
        send([Root.Event(.resize(backend.updateSize()))])
        let frame = root.renderFrame()
        recognizer.layoutChanged(hitTest: { frame.hits.target(at: $0) })
    }

    /// Reacts to one signal.
    private func handle(signal: Int32) {
        switch signal {
        case SIGWINCH where isSuspended:
            dirty = true
        case SIGWINCH: terminalResized()
        case SIGTSTP:
            if !isSuspended { suspend() }
            dirty = true
        case SIGCONT:
            resumeIfForeground()
            dirty = true
        case SIGCHLD:
            break  // children are waited for where they were started
        case _ where signal <= 0:
            break  // not a signal number
        default:
            exitStatus = 128 + signal
        }
    }
}
