import Glibc
import PerchCore
import PerchIdentities
import PerchStore
import PerchTerminal

/// The one place with time and I/O: it waits on the terminal, the signal pipe, the state folder's
/// watch and the effect worker's pipe, with a timeout equal to the next deadline (a pending
/// gesture, an animation frame or a lone `ESC`), or with none at all, so an idle Perch makes no
/// wake-ups. Each wake-up decodes input, recognises gestures, passes events to `update`, hands
/// the effects it returns to the ``EffectWorker`` (or the terminal), passes the worker's outcomes
/// back to `update`, and draws one frame. It never assigns a field of the state.
public final class EventLoop {
    public private(set) var state: AppState
    private let backend: TerminalBackend
    private var decoder = InputDecoder()
    private var recognizer: GestureRecognizer
    private let poller: Poller
    /// Performs switches, hooks and config writes off this thread.
    public let worker: EffectWorker
    private var lastInput: Int64 = 0
    private var exitStatus: Int32?
    /// True from Ctrl-Z until Perch is continued in the foreground: the terminal belongs to the
    /// shell, so nothing is drawn, no input is read and no mode is turned on.
    private var suspended = false
    /// Input bytes of one read(2), reused from one read to the next.
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// Tells of changes to the state file made by other processes.
    private let watcher: StateWatcher?
    /// What the last frame drawn shows where: the pointer is hit-tested against it, so a click
    /// goes to what the person saw (a sheet still sliding away, not the state after it).
    private var drawn = HitMap()
    /// Why the loop ended early (a failed poll(2)), for the caller to print; nil otherwise.
    public private(set) var failure: String?
    /// Queries sent to the terminal whose answers have not come yet: read before the terminal
    /// is given back, so that none is left for the shell to read as typed text.
    public private(set) var queries = TerminalQueries()

    /// Exit status when the loop cannot wait any more (poll(2) failed): the session ends with
    /// the terminal restored and the reason in ``failure``.
    public static let pollFailedStatus: Int32 = 1

    /// - Parameters:
    ///   - store: where switches are recorded; nil keeps them in memory only.
    ///   - watcher: tells of the state file changed by another process; nil for none.
    ///   - configPath: the config file `Add account…` appends to (created with the sample
    ///     accounts when missing); nil keeps accounts from being added.
    ///   - hookTimeoutMilliseconds: how long an `onSwitch` hook may run.
    ///   - lockTimeoutMilliseconds: how long a switch waits for another holder of the state lock.
    ///   - poller: the clock and the wait (``SystemPoller``, or ``VirtualPoller`` in tests).
    ///   - identities: applies and checks the accounts' tool identities; nil for none.
    ///   - configPaths: where ``Effect/loadConfig`` reads the whole config after the first frame
    ///     (a first frame drawn from the current-account cache); nil for none.
    public init(
        state: AppState, backend: TerminalBackend, store: StateStore?, gestures: GestureRecognizer.Configuration,
        watcher: StateWatcher? = nil, configPath: String? = nil, hookTimeoutMilliseconds: Int64 = HookProcess.timeoutMilliseconds,
        lockTimeoutMilliseconds: Int = EffectWorker.lockTimeoutMilliseconds, poller: Poller = SystemPoller(),
        identities: IdentitySwitcher? = nil,
        catalogTimeoutMilliseconds: Int64 = CapturedCommand.timeoutMilliseconds, wallClock: @escaping () -> WallTime? = { nil },
        settingsPath: String? = nil, configPaths: PerchPaths? = nil
    ) {
        self.configPath = configPath
        self.state = state
        self.backend = backend
        self.watcher = watcher
        self.recognizer = GestureRecognizer(configuration: gestures)
        self.poller = poller
        self.worker = EffectWorker(
            store: store, saved: state.saved, configPath: configPath, hookTimeoutMilliseconds: hookTimeoutMilliseconds,
            lockTimeoutMilliseconds: lockTimeoutMilliseconds, identities: identities,
            catalogTimeoutMilliseconds: catalogTimeoutMilliseconds,
            settingsPath: settingsPath, configPaths: configPaths)
        recognizer.configuration = state.gestureConfiguration(gestures)
        self.wallClock = wallClock
    }

    /// The config `Edit config…` opens; nil when there is none to edit.
    private let configPath: String?

    /// Reads the wall clock and the local time zone (``LocalTime/now(monotonic:)`` in the
    /// interface); nil leaves the state without one (tests).
    private let wallClock: () -> WallTime?

    /// Tells `update` the wall time: at start and when Stats' next minute comes round.
    private func readWallClock() -> Bool {
        guard let time = wallClock() else { return false }
        return apply([.outcome(.wallClock(time))], at: now())
    }

    private func now() -> Int64 { poller.now() }

    /// Runs until quit, a terminating signal, the terminal going away or a failed wait; returns
    /// the exit status (0; 128 + the signal number; ``pollFailedStatus`` with ``failure`` set).
    /// A save under way is finished before it returns, and the backend is shut down.
    /// The first frame is drawn before the terminal is asked anything (``AppState/startupQueries``);
    /// answers are events, whenever they come. Before the terminal is given back, answers still
    /// expected are read (``finishReplies()``).
    /// - Parameter exitAfterFirstFrame: draw the first full frame, ask what a run asks, then read
    ///   the answers (at most ``TerminalQueries/replyTimeoutMilliseconds``), shut down and return
    ///   0 without acting on input (`--exit-after-first-frame`, for measuring start-up).
    public func run(exitAfterFirstFrame: Bool = false) -> Int32 {
        var dirty = true
        _ = readWallClock()
        // What the root asks before the first frame (``AppState/startupEffects``).
        if !exitAfterFirstFrame {
            for effect in state.startupEffects { perform(effect) }
        }
        var asked = false
        while exitStatus == nil {
            if dirty, !suspended {
                let frame = state.renderFrame()
                backend.draw(frame.screen)
                drawn = frame.hits
                dirty = false
                if !asked {
                    asked = true
                    ask(state.startupQueries)
                    // The whole config is read after the first frame, never before it.
                    if !exitAfterFirstFrame {
                        for effect in state.firstFrameEffects { perform(effect) }
                    }
                }
                if exitAfterFirstFrame {
                    exitStatus = 0
                    break
                }
            }
            var fds = [
                pollfd(fd: suspended ? -1 : backend.inputDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watcher?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: worker.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poller.poll(&fds, timeout: nextTimeout())
            if ready < 0, errno != EINTR {
                failure = "cannot wait for input: \(String(cString: strerror(errno)))"
                exitStatus = Self.pollFailedStatus
                break
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
                    dirty = handle(signal: signal) || dirty
                }
            }
            dirty = apply(recognizer.expire(at: time), at: time) || dirty
            if let frame = state.nextAnimationDeadline, time >= frame {
                dirty = apply([.animationFrame], at: time) || dirty
            }
            if let minute = state.nextWallClockDeadline, time >= minute {
                dirty = readWallClock() || dirty
            }
            if fds[3].revents & Int16(POLLIN) != 0 {
                dirty = apply(worker.drain(), at: time) || dirty
            }
            if fds[2].revents & Int16(POLLIN) != 0, watcher?.drain() == true {
                worker.reloadState()
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
        finishReplies()
        worker.finishStoreWork()
        backend.shutdown()
        return exitStatus ?? 0
    }

    /// Milliseconds poll(2) may wait: until the earliest deadline (a gesture, an animation frame,
    /// a lone `ESC`), or -1 (forever) when none.
    private func nextTimeout() -> Int32 {
        var deadline = recognizer.nextDeadline
        for next in [state.nextAnimationDeadline, state.nextWallClockDeadline].compactMap({ $0 }) {
            deadline = deadline.map { min($0, next) } ?? next
        }
        if let timeout = decoder.pendingTimeoutMilliseconds {
            let flush = lastInput + timeout
            deadline = deadline.map { min($0, flush) } ?? flush
        }
        guard let deadline else { return -1 }
        return Int32(clamping: max(0, deadline - now()))
    }

    /// Sends each of `list` the terminal is worth asking (``TerminalQueries/shouldAsk(_:)``).
    private func ask(_ list: [TerminalQuery]) {
        for query in list where queries.shouldAsk(query) {
            backend.write(control: query.bytes)
            queries.sent(query, at: now())
            // `CSI r ; c R` is read as a report only while one is expected (else it is Shift-F3).
            if query == .cursorPosition { decoder.expectsCursorReport = true }
        }
    }

    /// Reads the terminal's answers still expected, waiting at most until 500 ms after each
    /// query was sent (``TerminalQueries``); a terminal silent that long is waited for no more.
    /// Called on every way out that gives the terminal back (quit, a terminating signal,
    /// `--exit-after-first-frame`, suspend, a command run on the terminal), so that no answer is
    /// left for the shell or the command to read as typed text. Other input read meanwhile is
    /// dropped: the session is ending or pausing.
    private func finishReplies() {
        while true {
            queries.expire(at: now())
            guard let deadline = queries.deadline else { return }
            var fds = [pollfd(fd: backend.inputDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poller.poll(&fds, timeout: Int32(clamping: max(0, deadline - now())))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            guard fds[0].revents & Int16(POLLIN) != 0 else { return }  // hung up: nothing more will come
            let descriptor = backend.inputDescriptor
            let n = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            for case .reply(let reply) in decoder.feed(readBuffer[0..<n]) { queries.received(reply) }
        }
    }

    private func feed(_ events: [InputEvent], at time: Int64) -> Bool {
        var changed = false
        for var event in events {
            if case .reply(let reply) = event { queries.received(reply) }
            if case .mouse(var mouse) = event {
                // The frame may sit lower than the terminal's top row (the inline picker's block).
                guard let position = state.framePosition(mouse.position) else { continue }
                mouse.position = position
                event = .mouse(mouse)
            }
            let state = self.state
            let drawn = self.drawn
            changed =
                apply(recognizer.handle(event, at: time, hitTest: { drawn.target(at: $0) }, holdable: state.acceptsKeyHold), at: time)
                || changed
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
        // What the state decides for gestures (a long-press duration changed in Settings, release
        // events turned on by a late answer) applies to the next gesture.
        let configuration = state.gestureConfiguration(recognizer.configuration)
        if configuration != recognizer.configuration { recognizer.configuration = configuration }
        return !events.isEmpty
    }

    /// Carries out one effect: the terminal's own here, everything slow on the worker. Its
    /// outcome is addressed to the model that asked for it (``Effect/asker``).
    private func perform(_ effect: Effect) {
        switch effect.work {
        case .recordSwitch, .runHook, .addAccount, .deleteFromConfig, .loadCatalog, .previewCatalogItem, .savePanes, .saveSettings,
            .applyIdentities, .loadConfig,
            .checkIdentities, .verifyIdentities:
            worker.perform(effect, accounts: state.accounts)
        case .openCatalogItem(let id, let command, let item):
            let account = state.accounts.first { $0.id == id }
            let failure = runOnTerminal { TerminalCommand.run(command, variables: EffectWorker.variables(account, id: id, item: item)) }
            _ = apply([.outcome(.catalogItemOpened(accountID: id, failure: failure), for: effect.asker)], at: now())
        case .pushKeyboardFlags(let flags):
            backend.pushKeyboardFlags(flags)
        case .setMouse(let on):
            backend.setMouse(on)
        case .ask(let query):
            ask([query])
        case .takeRows(let count, let clearingLine):
            backend.takeRows(count, clearingLine: clearingLine)
        case .editConfig:
            editConfig(for: effect.asker)
        case .copyToClipboard(let text):
            backend.write(control: OSC52.sequence(for: text))
        case .quit:
            exitStatus = 0
        case .suspend:
            suspend()
        case .asked:
            break  // `work` is never wrapped
        }
    }

    /// Runs a program on the terminal (`run`, a ``TerminalCommand``) with the interface suspended
    /// (modes off, main screen) and waits for it, then takes the terminal back and redraws.
    /// Returns why it failed, or nil.
    private func runOnTerminal(_ run: () -> TerminalCommand.Ended) -> String? {
        finishReplies()
        backend.suspend()
        let failure = run().failure
        resumeBackend()
        _ = apply([.resize(backend.updateSize())], at: now())
        return failure
    }

    /// Takes the terminal back (modes on), with the mouse off again when Settings turned it off.
    private func resumeBackend() {
        backend.resume()
        if !state.settingsState.values.mouse { backend.setMouse(false) }
    }

    /// `Edit config…`, as `perch config edit` does it: the editor (``ConfigEditPolicy/editor(visual:editor:)``)
    /// gets a copy beside the config (the starter config when there is none) with the interface
    /// suspended; what follows is ``ConfigEditPolicy/decide(editor:editorFailure:original:edited:problems:copyPath:)``'s
    /// decision, carried out here: a valid copy replaces the config atomically (the old one kept
    /// as `<config>.bak`) and its accounts are handed to `update`; an invalid one leaves the
    /// config and the accounts as they were, and is kept for the person to fix.
    private func editConfig(for asker: ModelID) {
        func report(_ accounts: [Account]?, _ problem: String?) {
            _ = apply([.outcome(.configEdited(accounts: accounts, configPath: configPath ?? "", problem: problem), for: asker)], at: now())
        }
        guard let path = configPath else { return report(nil, "there is no config file to edit") }
        let original = try? FileSystem.readContents(path)
        let copy: String
        do {
            copy = try CommandLineTool.makeEditCopy(of: path, holding: original?.bytes ?? Array(StarterConfig.text.utf8))
        } catch {
            return report(nil, "cannot make a copy to edit: \(error)")
        }
        let editor = ConfigEditPolicy.editor(visual: PerchPaths.environment("VISUAL"), editor: PerchPaths.environment("EDITOR"))
        let failure = runOnTerminal { TerminalCommand.edit(copy, with: editor) }
        let edited = failure == nil ? try? FileSystem.read(copy) : nil
        let decision = ConfigEditPolicy.decide(
            editor: editor, editorFailure: failure, original: original.map { ($0.bytes, $0.mode) }, edited: edited,
            problems: edited.map { CommandLineTool.problems(in: $0, path: path) } ?? [], copyPath: copy)
        switch decision {
        case .refuse(let problem, let keepCopy):
            if !keepCopy { unlink(copy) }
            report(nil, problem)
        case .install(let mode, let backup, let writesConfig):
            unlink(copy)
            do {
                if let backup { try FileSystem.writeAtomically(backup, to: path + ".bak", mode: mode_t(mode)) }
                if writesConfig, let edited { try FileSystem.writeAtomically(edited, to: path, mode: mode_t(mode)) }
                let config = try ConfigLoader.load(PerchPaths(config: path, state: "/"))
                report(config.accounts, nil)
            } catch let error as ConfigError {
                report(nil, error.lines.joined(separator: "; "))
            } catch {
                report(nil, "\(error)")
            }
        }
    }

    private func suspend() {
        finishReplies()
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
        resumeBackend()
        suspended = false
        _ = apply([.resize(backend.updateSize())], at: now())
    }

    /// Reacts to one signal; returns whether a redraw is needed.
    private func handle(signal: Int32) -> Bool {
        switch signal {
        case SIGWINCH where suspended:
            return true
        case SIGWINCH:
            let changed = apply([.resize(backend.updateSize())], at: now())
            recognizer.layoutChanged(hitTest: state.hitTest)
            return changed
        case SIGTSTP:
            if !suspended { suspend() }
            return true
        case SIGCONT:
            resumeIfForeground()
            return true
        case SIGCHLD:
            return false  // hooks are waited for on the worker
        case _ where signal <= 0:
            return false  // not a signal number
        default:
            exitStatus = 128 + signal
            return false
        }
    }
}
