import Glibc
import PerchCore
import PerchIdentities
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import PerchStore

extension AppState: LoopRoot {}

/// Perch's interface on PerchKit's loop (``TerminalLoop``, the one place with time and I/O): it
/// adds the state folder's watch and the effect worker's pipe to what the loop waits on, reads
/// the wall clock when Stats' minute comes round, and carries out the effects `update` returns:
/// the terminal's own here, everything slow on the ``EffectWorker``, whose outcomes come back to
/// `update`. It never assigns a field of the state.
public final class EventLoop {
    /// The root model.
    public var state: AppState { loop.root }
    private let loop: TerminalLoop<AppState>
    private let backend: TerminalBackend
    /// Performs switches, hooks and config writes off this thread.
    public let worker: EffectWorker
    /// Tells of changes to the state file made by other processes.
    private let watcher: StateWatcher?
    /// Tells of changes to the config file (`perch set`, `perch add`, an editor).
    private let configWatcher: StateWatcher?
    /// Why the loop ended early (a failed poll(2)), for the caller to print; nil otherwise.
    public var failure: String? { loop.failure }
    /// Queries sent to the terminal whose answers have not come yet (``TerminalLoop/queries``).
    public var queries: TerminalQueries { loop.queries }

    /// Exit status when the loop cannot wait any more (poll(2) failed): the session ends with
    /// the terminal restored and the reason in ``failure``.
    public static let pollFailedStatus: Int32 = TerminalLoop<AppState>.pollFailedStatus

    /// - Parameters:
    ///   - store: where switches are recorded; nil keeps them in memory only.
    ///   - watcher: tells of the state file changed by another process; nil for none.
    ///   - configWatcher: tells of the config file changed (by `perch set`, `perch add`, an
    ///     editor): it is read again (``EffectWorker/reloadConfig()``); nil for none.
    ///   - configPath: the config file `Add account…` appends to (created with the sample
    ///     accounts when missing); nil keeps accounts from being added.
    ///   - hookTimeoutMilliseconds: how long an `onSwitch` hook may run.
    ///   - lockTimeoutMilliseconds: how long a switch waits for another holder of the state lock.
    ///   - poller: the clock and the wait (``SystemPoller``, or ``VirtualPoller`` in tests).
    ///   - identities: applies and checks the accounts' tool identities; nil for none.
    ///   - configPaths: where ``LoadConfig`` reads the whole config after the first frame
    ///     (a first frame drawn from the current-account cache); nil for none.
    public init(
        state: AppState, backend: TerminalBackend, store: StateStore?, gestures: GestureRecognizer.Configuration,
        watcher: StateWatcher? = nil, configPath: String? = nil, hookTimeoutMilliseconds: Int64 = HookProcess.timeoutMilliseconds,
        lockTimeoutMilliseconds: Int = EffectWorker.lockTimeoutMilliseconds, poller: Poller = SystemPoller(),
        identities: IdentitySwitcher? = nil,
        catalogTimeoutMilliseconds: Int64 = CapturedCommand.timeoutMilliseconds, wallClock: @escaping () -> WallTime? = { nil },
        settingsPath: String? = nil, configPaths: PerchPaths? = nil, configWatcher: StateWatcher? = nil
    ) {
        self.configPath = configPath
        self.backend = backend
        self.watcher = watcher
        self.configWatcher = configWatcher
        self.loop = TerminalLoop(root: state, backend: backend, gestures: gestures, poller: poller)
        self.worker = EffectWorker(
            store: store, saved: state.saved, configPath: configPath, hookTimeoutMilliseconds: hookTimeoutMilliseconds,
            lockTimeoutMilliseconds: lockTimeoutMilliseconds, identities: identities,
            catalogTimeoutMilliseconds: catalogTimeoutMilliseconds,
            settingsPath: settingsPath, configPaths: configPaths)
        self.wallClock = wallClock
        loop.perform = { [unowned self] effect in perform(effect) }
        loop.resumed = { [unowned self] in
            // The mouse stays off when Settings turned it off.
            if !loop.root.settingsState.values.mouse { backend.setMouse(false) }
        }
        let worker = self.worker
        loop.sources = [
            .init(descriptor: { worker.wakeDescriptor }, ready: { [unowned self] time in loop.send(worker.drain(), at: time) }),
            .init(
                descriptor: { watcher?.descriptor ?? -1 },
                ready: { _ in
                    if watcher?.drain() == true { worker.reloadState() }
                    return false
                }),
            .init(
                descriptor: { configWatcher?.descriptor ?? -1 },
                ready: { _ in
                    if configWatcher?.drain() == true { worker.reloadConfig() }
                    return false
                }),
        ]
        loop.timers = [
            .init(deadline: { [unowned self] in loop.root.nextWallClockDeadline }, fire: { [unowned self] _ in readWallClock() })
        ]
    }

    /// The config `Edit config…` opens; nil when there is none to edit.
    let configPath: String?

    /// Reads the wall clock and the local time zone (``LocalTime/now(monotonic:)`` in the
    /// interface); nil leaves the state without one (tests).
    private let wallClock: () -> WallTime?

    /// Tells `update` the wall time: at start and when Stats' next minute comes round.
    private func readWallClock() -> Bool {
        guard let time = wallClock() else { return false }
        return loop.send([.outcome(AnyOutcome(time))])
    }

    /// Runs until quit, a terminating signal, the terminal going away or a failed wait; returns
    /// the exit status (0; 128 + the signal number; ``pollFailedStatus`` with ``failure`` set).
    /// A save under way is finished before it returns, and the backend is shut down.
    /// The first frame is drawn before the terminal is asked anything (``AppState/startupQueries``);
    /// answers are events, whenever they come. Before the terminal is given back, answers still
    /// expected are read.
    /// - Parameter exitAfterFirstFrame: draw the first full frame, ask what a run asks, then read
    ///   the answers (at most ``TerminalQueries/replyTimeoutMilliseconds``), shut down and return
    ///   0 without acting on input (`--exit-after-first-frame`, for measuring start-up).
    public func run(exitAfterFirstFrame: Bool = false) -> Int32 {
        _ = readWallClock()
        // What the root asks before the first frame (``AppState/startupEffects``).
        if !exitAfterFirstFrame {
            for effect in state.startupEffects { perform(effect) }
        }
        let status = loop.run(
            firstFrame: { [unowned self] in
                loop.ask(state.startupQueries)
                // The whole config is read after the first frame, never before it.
                if !exitAfterFirstFrame {
                    for effect in state.firstFrameEffects { perform(effect) }
                }
            }, exitAfterFirstFrame: exitAfterFirstFrame)
        worker.finishStoreWork()
        backend.shutdown()
        return status
    }

    /// Carries out one effect: the terminal's own and jobs run on the terminal (``TerminalJob``)
    /// here, every other job on the worker (``WorkerJob``). Its outcome is addressed to the
    /// model that asked for it (``Effect/asker``).
    private func perform(_ effect: Effect) {
        switch effect.work {
        case .job(let job):
            if let job = job.base as? any TerminalJob {
                run(job, for: effect.asker)
            } else {
                worker.perform(effect, accounts: state.accounts)
            }
        case .pushKeyboardFlags(let flags):
            backend.pushKeyboardFlags(flags)
        case .setMouse(let on):
            backend.setMouse(on)
        case .ask(let query):
            loop.ask([query])
        case .takeRows(let count, let clearingLine):
            backend.takeRows(count, clearingLine: clearingLine)
        case .copyToClipboard(let text):
            backend.write(control: OSC52.sequence(for: text))
        case .say(let line):
            backend.say(PerchApp.visibleControls(line))
        case .quit:
            loop.quit()
        case .suspend:
            loop.suspend()
        case .asked:
            break  // `work` is never wrapped
        }
    }

    private func run<J: TerminalJob>(_ job: J, for asker: ModelID) {
        let outcome = job.run(in: self)
        loop.send([.outcome(AnyOutcome(outcome), for: asker)])
    }

    /// Runs a program on the terminal (`run`, a ``TerminalCommand``) with the interface suspended
    /// (modes off, main screen) and waits for it, then takes the terminal back and redraws
    /// (``TerminalLoop/runOnTerminal(_:)``). Returns why it failed, or nil.
    func runOnTerminal(_ run: () -> TerminalCommand.Ended) -> String? {
        loop.runOnTerminal { run().failure }
    }
}
