import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import PerchStore

/// Perch's interface on PerchKit's runner (``TabAppRunner``, which runs ``TabApp`` on the
/// terminal loop, the one place with time and I/O): this is Perch's ``JobPerformer`` — the jobs
/// that need the terminal (``TerminalJob``) run here, every other on the ``EffectWorker`` — and it
/// gives the runner what Perch watches: the worker's own news (the state file changed, the config
/// read again), the state folder, the config, and the wall clock while Stats shows.
public final class PerchRunner: JobPerformer {
    /// PerchKit's runner.
    public let runner: TabAppRunner
    /// Performs switches, hooks and config writes off the loop's thread.
    public let worker: EffectWorker
    private let backend: TerminalBackend
    /// Tells of changes to the state file made by other processes.
    private let watcher: StateWatcher?
    /// Tells of changes to the config file (`perch set`, `perch add`, an editor).
    private let configWatcher: StateWatcher?
    /// Reads the wall clock and the local time zone; nil leaves the model without one (tests).
    private let wallClock: () -> WallTime?
    /// The config `Edit config…` opens; nil when there is none to edit.
    let configPath: String?
    /// Set for `--exit-after-first-frame`: no job is started.
    private var measuringStartup = false

    /// The app as it is now.
    public var app: TabApp { runner.loop.root }
    /// Perch's model as it is now.
    public var model: PerchModel { runner.loop.root.perch! }
    /// Why the loop ended early (a failed poll(2)), for the caller to print; nil otherwise.
    public var failure: String? { runner.loop.failure }
    /// Queries sent to the terminal whose answers have not come yet (``TerminalLoop/queries``).
    public var queries: TerminalQueries { runner.loop.queries }

    /// Exit status when the loop cannot wait any more (poll(2) failed): the session ends with
    /// the terminal restored and the reason in ``failure``.
    public static let pollFailedStatus: Int32 = TerminalLoop<TabApp>.pollFailedStatus

    /// - Parameters:
    ///   - app: Perch's interface (``TabApp/perch(accounts:saved:size:info:reduceMotion:banner:history:wallTime:settings:loading:)``).
    ///   - store: where switches are recorded; nil keeps them in memory only.
    ///   - watcher: tells of the state file changed by another process; nil for none.
    ///   - configPath: the config file `Add account…` appends to (created with the sample
    ///     accounts when missing); nil keeps accounts from being added.
    ///   - hookTimeoutMilliseconds: how long an `onSwitch` hook may run.
    ///   - lockTimeoutMilliseconds: how long a switch waits for another holder of the state lock.
    ///   - poller: the clock and the wait (``SystemPoller``, or ``VirtualPoller`` in tests).
    ///   - identities: applies and checks the accounts' tool identities; nil for none.
    ///   - configPaths: where ``LoadConfig`` reads the whole config after the first frame; nil for none.
    ///   - configWatcher: tells of the config file changed (by `perch set`, `perch add`, an
    ///     editor): it is read again (``EffectWorker/reloadConfig()``); nil for none.
    public init(
        app: TabApp, backend: TerminalBackend, store: StateStore?, gestures: GestureRecognizer.Configuration,
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
        self.wallClock = wallClock
        runner = TabAppRunner(app: app, backend: backend, gestures: gestures, poller: poller)
        worker = EffectWorker(
            store: store, saved: app.perch?.saved ?? SavedState(), configPath: configPath, hookTimeoutMilliseconds: hookTimeoutMilliseconds,
            lockTimeoutMilliseconds: lockTimeoutMilliseconds, identities: identities,
            catalogTimeoutMilliseconds: catalogTimeoutMilliseconds,
            settingsPath: settingsPath, configPaths: configPaths)
        runner.performer = self
        runner.loop.resumed = { [unowned self] in
            // The mouse stays off when Settings turned it off.
            if runner.loop.root.perch?.settingsState.values.mouse == false { backend.setMouse(false) }
        }
        let worker = self.worker
        runner.watch(worker.wakeDescriptor) { _ in worker.drain() }
        if let watcher {
            runner.watch(watcher.descriptor) { _ in
                if watcher.drain() { worker.reloadState() }
                return []
            }
        }
        if let configWatcher {
            runner.watch(configWatcher.descriptor) { _ in
                if configWatcher.drain() { worker.reloadConfig() }
                return []
            }
        }
        let clock = wallClock
        runner.every(
            { [unowned self] in runner.loop.root.nextWallClockDeadline },
            fire: { _ in clock().map { [PerchModel.Message.wallTime($0)] } ?? [] })
    }

    /// Runs until quit, a terminating signal, the terminal going away or a failed wait; returns
    /// the exit status (0; 128 + the signal number; ``pollFailedStatus`` with ``failure`` set).
    /// The terminal is restored first (the runner shuts the backend down), then a save under way
    /// is finished. The first frame is drawn before the terminal is asked anything; answers are
    /// events, whenever they come.
    /// - Parameter exitAfterFirstFrame: draw the first full frame, ask what a run asks, then read
    ///   the answers (at most ``TerminalQueries/replyTimeoutMilliseconds``), shut down and return
    ///   0 without acting on input or starting any job (`--exit-after-first-frame`, for
    ///   measuring start-up).
    public func run(exitAfterFirstFrame: Bool = false) -> Int32 {
        measuringStartup = exitAfterFirstFrame
        if let time = wallClock() { _ = runner.loop.send([.deliver(PerchModel.Message.wallTime(time), to: .app)]) }
        // The accessible mode's first line, before anything else is said.
        if let model = app.perch, model.narrates, !exitAfterFirstFrame {
            backend.say(PerchApp.visibleControls(model.narrationGreeting(app)))
        }
        let status = runner.run(exitAfterFirstFrame: exitAfterFirstFrame)
        worker.finishStoreWork()
        return status
    }

    /// Starts `job`: one run on the terminal (``TerminalJob``) here, on the loop's thread; every
    /// other on the worker (``WorkerJob``). Each outcome goes to `answer`.
    public func perform(_ job: AnyJob, answer: @escaping @Sendable (any Sendable) -> Void) {
        guard !measuringStartup else { return }
        if let job = job.base as? any TerminalJob {
            answer(run(job))
        } else {
            worker.perform(job, accounts: app.perch?.accounts ?? [], answer: answer)
        }
    }

    private func run<J: TerminalJob>(_ job: J) -> any Sendable { job.run(in: self) }

    /// Runs a program on the terminal (`run`, a ``TerminalCommand``) with the interface suspended
    /// (modes off, main screen) and waits for it, then takes the terminal back and redraws
    /// (``TerminalLoop/runOnTerminal(_:)``). Returns why it failed, or nil.
    func runOnTerminal(_ run: () -> TerminalCommand.Ended) -> String? {
        runner.loop.runOnTerminal { run().failure }
    }
}
