import Glibc
import PerchCore
import PerchStore
import PerchTerminal

/// The one place with time and I/O: it waits on the terminal and the signal pipe with a timeout
/// equal to the next deadline (a pending gesture, an animation frame or a lone `ESC`), or with none at all, so an idle
/// Perch makes no wake-ups. Each wake-up decodes input, recognises gestures, applies events to the
/// state, carries out effects (saving a switch before the next frame) and draws one frame.
public final class EventLoop {
    public private(set) var state: AppState
    private let backend: TerminalBackend
    private let store: StateStore?
    private var decoder = InputDecoder()
    private var recognizer: GestureRecognizer
    private let now: () -> Int64
    private var lastInput: Int64 = 0
    private var exitStatus: Int32?
    /// True from Ctrl-Z until Perch is continued in the foreground: the terminal belongs to the
    /// shell, so nothing is drawn, no input is read and no mode is turned on.
    private var suspended = false
    /// Input bytes of one read(2), reused so that no keystroke allocates.
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// Tells of changes to the state file made by other processes.
    private let watcher: StateWatcher?
    /// `onSwitch` hooks still running.
    private var hooks: [HookProcess] = []
    /// The config file accounts are added to (`Add account…`); nil refuses to add any.
    private let configPath: String?
    /// Bytes read before the loop started (keys typed while the terminal was asked about its
    /// keyboard protocol), decoded before the first read.
    private var typedAhead: [UInt8]
    /// Turns the kitty keyboard protocol on when its query is answered after the probe gave up
    /// (a terminal slow to start); nil when it was not asked or already answered.
    public var lateKeyboardProtocolReply: (() -> Void)?

    /// - Parameters:
    ///   - store: where switches are recorded; nil keeps them in memory only.
    ///   - watcher: tells of the state file changed by another process; nil for none.
    ///   - configPath: the config file `Add account…` appends to (created with the sample
    ///     accounts when missing); nil keeps accounts from being added.
    ///   - now: the clock, in milliseconds.
    public init(
        state: AppState, backend: TerminalBackend, store: StateStore?, gestures: GestureRecognizer.Configuration,
        watcher: StateWatcher? = nil, configPath: String? = nil, typedAhead: [UInt8] = [],
        now: @escaping () -> Int64 = MonotonicClock.now
    ) {
        self.typedAhead = typedAhead
        self.configPath = configPath
        self.state = state
        self.backend = backend
        self.store = store
        self.watcher = watcher
        self.recognizer = GestureRecognizer(configuration: gestures)
        self.now = now
    }

    /// Runs until quit, a terminating signal, or the terminal going away; returns the exit status
    /// (0, or 128 + the signal number). The backend is shut down before returning.
    /// - Parameter exitAfterFirstFrame: draw the first full frame, then shut down and return 0
    ///   without reading input (`--exit-after-first-frame`, for measuring start-up).
    public func run(exitAfterFirstFrame: Bool = false) -> Int32 {
        var dirty = true
        if !typedAhead.isEmpty {
            lastInput = now()
            _ = feed(decoder.feed(typedAhead), at: lastInput)
            typedAhead = []
        }
        while exitStatus == nil {
            if dirty, !suspended {
                backend.draw(state.render())
                dirty = false
                if exitAfterFirstFrame {
                    exitStatus = 0
                    break
                }
            }
            var fds = [
                pollfd(fd: suspended ? -1 : backend.inputDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watcher?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let hookDescriptors = hooks.flatMap { hook in hook.descriptors.map { (hook, $0) } }
            fds += hookDescriptors.map { pollfd(fd: $0.1, events: Int16(POLLIN), revents: 0) }
            let timeout = nextTimeout()
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR { break }
            let time = now()
            if fds[1].revents & Int16(POLLIN) != 0 {
                var resized = false
                for signal in SignalPipe.drain() {
                    // Resizes faster than frames are laid out once, at the size the terminal has now.
                    if signal == SIGWINCH {
                        if resized { continue }
                        resized = true
                    }
                    dirty = handle(signal: signal) || dirty
                }
            }
            dirty = apply(recognizer.expire(at: time), at: time) || dirty
            if let frame = state.nextAnimationDeadline, time >= frame {
                dirty = apply([.animationFrame], at: time) || dirty
            }
            for (index, (hook, fd)) in hookDescriptors.enumerated() where fds[3 + index].revents != 0 {
                hook.drain(fd)
            }
            dirty = reapHooks(at: time) || dirty
            if fds[2].revents & Int16(POLLIN) != 0, watcher?.drain() == true {
                dirty = reloadState() || dirty
            }
            if fds[0].revents & Int16(POLLNVAL) != 0 {
                exitStatus = 128 + SIGHUP  // no terminal to read any more: end rather than spin
                break
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let descriptor = backend.inputDescriptor
                let n = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) {
                    exitStatus = 128 + SIGHUP  // the terminal went away
                    break
                }
                if n > 0 {
                    lastInput = time
                    // The clock truncates: bytes read at `time` were read before `time + 1`.
                    // Stamped `time + 1`, a press is never dated before it was read, so a
                    // long-press timed from it never fires early (stamped `time`, the bench saw
                    // one fire 0.3 ms early).
                    dirty = feed(decoder.feed(readBuffer[0..<n]), at: time + 1) || dirty
                }
            }
            if let timeout = decoder.pendingTimeoutMilliseconds, time - lastInput >= timeout {
                dirty = feed(decoder.flush(), at: time) || dirty
            }
        }
        backend.shutdown()
        return exitStatus ?? 0
    }

    /// Milliseconds poll(2) may wait: until the earliest deadline (a gesture, an animation frame,
    /// a hook's time limit, a lone `ESC`), or -1 (forever) when none.
    private func nextTimeout() -> Int32 {
        var deadline = recognizer.nextDeadline
        if let frame = state.nextAnimationDeadline {
            deadline = deadline.map { min($0, frame) } ?? frame
        }
        for hook in hooks {
            deadline = deadline.map { min($0, hook.deadline) } ?? hook.deadline
        }
        if let timeout = decoder.pendingTimeoutMilliseconds {
            let flush = lastInput + timeout
            deadline = deadline.map { min($0, flush) } ?? flush
        }
        guard let deadline else { return -1 }
        return Int32(clamping: max(0, deadline - now()))
    }

    private func feed(_ events: [InputEvent], at time: Int64) -> Bool {
        var changed = false
        for event in events {
            if case .unknown(let bytes) = event, let turnOn = lateKeyboardProtocolReply, KeyboardProtocolProbe.isFlagsReply(bytes) {
                turnOn()
                lateKeyboardProtocolReply = nil
                recognizer.configuration.keyHoldMode = .releaseEvents
                self.state.info.keyHold = .releaseEvents
                changed = true
            }
            let state = self.state
            changed = apply(recognizer.handle(event, at: time, hitTest: state.hitTest, holdable: state.acceptsKeyHold), at: time) || changed
            if exitStatus != nil { break }
        }
        return changed
    }

    /// Applies app events and carries out their effects; returns whether anything may have changed.
    private func apply(_ events: [AppEvent], at time: Int64) -> Bool {
        for event in events {
            for effect in state.update(event, at: time) {
                perform(effect)
            }
        }
        return !events.isEmpty
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .recordSwitch(let id):
            guard let store else { return }
            let outcome: StateStore.SwitchOutcome
            do {
                outcome = try store.recordSwitch(to: id, source: .tui)
            } catch {
                state.banner = "Could not save the switch: \(error)"
                return
            }
            state.adopt(outcome.state)
            if let warning = outcome.warning { state.banner = warning }
            guard outcome.changed, let account = state.accounts.first(where: { $0.id == id }), let command = account.onSwitch else {
                return
            }
            switch HookProcess.start(command, account: account, previous: outcome.previous, now: now()) {
            case .success(let hook): hooks.append(hook)
            case .failure(let error): state.banner = "onSwitch hook for \(account.name) could not start: \(error)"
            }
        case .addAccount(let account):
            guard let configPath else {
                state.accountNotAdded("No config file to add the account to.")
                return
            }
            do {
                let outcome = try ConfigWriter.append(account, to: configPath, samples: state.accounts)
                state.accountAdded(account, accounts: outcome.accounts, configPath: outcome.path)
                state.banner =
                    "Added \(account.name) to \(outcome.path)" + (outcome.backupPath.map { " (previous file kept as \($0))." } ?? ".")
            } catch {
                state.accountNotAdded(error.description)
            }
        case .copyToClipboard(let text):
            backend.write(control: OSC52.sequence(for: text))
        case .quit:
            exitStatus = 0
        case .suspend:
            suspend()
        }
    }

    /// Collects hooks that have ended (and kills those past their deadline); a failure becomes
    /// the banner. Returns whether the banner changed.
    private func reapHooks(at time: Int64) -> Bool {
        var changed = false
        hooks.removeAll { hook in
            guard let result = hook.reap(at: time) else { return false }
            if let failure = result.failure {
                state.banner = "onSwitch hook for \(hook.account.name) \(failure)"
                changed = true
            }
            return true
        }
        return changed
    }

    /// Reads the state file again after another process changed it; returns whether what is
    /// shown changed.
    private func reloadState() -> Bool {
        guard let store else { return false }
        let before = state.saved
        // Read only: this process's config may be older than the one the other process used, so
        // an account unknown here is not a reason to change the file.
        let loaded: StateStore.Loaded
        do {
            loaded = try store.peek()
        } catch {
            return false  // unreadable: the next change tells again
        }
        state.adopt(loaded.state)
        if let warning = loaded.warning {
            state.banner = warning
        } else if let id = loaded.state.currentAccount, id != before.currentAccount {
            state.banner =
                state.currentAccount.map { "Now on \($0.name): switched in another Perch." }
                ?? "Now on \"\(id)\", switched in another Perch; it is not in this one's config (restart Perch to load it)."
        } else if loaded.state.currentAccount == nil, before.currentAccount != nil {
            state.banner = "No account is current now: changed in another Perch."
        }
        return state.saved != before || loaded.warning != nil
    }

    private func suspend() {
        backend.suspend()
        suspended = true
        SignalPipe.stop(with: SIGTSTP)
        resumeIfForeground()
    }

    /// Takes the terminal back after a stop, but only in the foreground. Continued in the
    /// background (`bg`), Perch stops again as a background write to the terminal would
    /// (SIGTTOU, "Stopped (tty output)"), so that `fg` continues it with SIGCONT.
    private func resumeIfForeground() {
        guard tcgetpgrp(backend.inputDescriptor) == getpgrp() else {
            if suspended { SignalPipe.stop(with: SIGTTOU) }
            return
        }
        backend.resume()
        suspended = false
        _ = state.update(.resize(backend.updateSize()), at: now())
    }

    /// Reacts to one signal; returns whether a redraw is needed.
    private func handle(signal: Int32) -> Bool {
        switch signal {
        case SIGWINCH where suspended:
            return true
        case SIGWINCH:
            _ = state.update(.resize(backend.updateSize()), at: now())
            recognizer.layoutChanged(hitTest: state.hitTest)
            return true
        case SIGTSTP:
            if !suspended { suspend() }
            return true
        case SIGCONT:
            resumeIfForeground()
            return true
        case SIGCHLD:
            return reapHooks(at: now())
        default:
            exitStatus = 128 + signal
            return false
        }
    }
}
