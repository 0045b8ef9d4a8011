import CSystem
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchStore
import Synchronization

/// Performs the slow jobs (``Job``) off the loop's thread, handing each outcome to the answer the
/// runner gave with the job; its own news for Perch's model (the state file or the config changed
/// elsewhere) it posts on a self-pipe the loop polls (``wakeDescriptor``, read by ``drain()``). Nothing here
/// touches the state. Each job says how it is performed, and on which queue, in its own
/// conformance (``WorkerJob``, in `Loop/Jobs/`); the worker keeps the queues, the pipe and the
/// state file's watch.
///
/// - State file work (switches, reading another process's change) and the config append run in
///   order on one serial queue, so a reload never overtakes a save. A lock held by another
///   process is waited for here, with ``SwitchProgress/waiting(accountID:reason:)`` sent first.
/// - Each `onSwitch` hook runs on a queue of its own, so a slow hook delays no save.
/// - Tool identities are applied and checked in order on a serial queue of their own (each
///   program with its own timeout), so a slow `gcloud` delays neither a save nor a redraw.
/// - Perch's own saves are remembered by file identity (device, inode, size, mtime), so the
///   watch on the state folder firing for them causes no re-read.
public final class EffectWorker: @unchecked Sendable {
    /// Readable when outcomes are waiting (one byte per outcome); the loop polls it.
    public let wakeDescriptor: Int32
    private let wakeWriteEnd: Int32
    private let outcomes = Mutex<[PerchModel.Message]>([])
    let storeQueue = WorkerQueue(serial: true)
    let hookQueue = WorkerQueue(serial: false)
    /// Catalog sources and previews run here, each on its own thread, so a hanging one delays nothing else.
    let catalogQueue = WorkerQueue(serial: false)
    /// How long a Catalog command may run, in milliseconds.
    let catalogTimeout: Int64
    /// The Catalog commands running now (killed when Perch quits).
    let catalogCommands = CapturedCommand.Running()
    /// Where changed settings are written; nil keeps them for the run.
    let settingsPath: String?
    let identityQueue = WorkerQueue(serial: true)
    let identities: IdentitySwitcher?
    let store: StateStore?
    let configPath: String?
    let configPaths: PerchPaths?
    let hookTimeoutMilliseconds: Int64
    let lockTimeout: Int
    /// Without a store: the state switches are recorded in (only touched on `storeQueue`).
    var memory: SavedState
    /// Identity of the state file right after this process last wrote it (only on `storeQueue`).
    var ownWrite: FileIdentity?
    /// Identity of the config file when ``reloadConfig()`` last read it.
    let configRead = Mutex<FileIdentity?>(nil)
    /// State file reads made because the folder watch fired, and those skipped because the file
    /// was this process's own write (for tests).
    public let reloads = Mutex<(read: Int, skipped: Int)>((0, 0))

    /// - Parameters:
    ///   - store: where switches are recorded; nil keeps them in memory, starting from `saved`.
    ///   - configPath: the config `Add account…` appends to; nil refuses to add any.
    ///   - hookTimeoutMilliseconds: how long an `onSwitch` hook may run before it is killed.
    ///   - lockTimeoutMilliseconds: how long a switch waits for another holder of the state lock.
    ///   - identities: applies and checks tool identities; nil reports every tool as skipped
    ///     (runs without a real environment, such as tests of the loop).
    ///   - configPaths: the files the config is read from: by ``LoadConfig``, and before each
    ///     switch, which is made to the account as the config has it now (nil: as the interface
    ///     has it).
    public init(
        store: StateStore?, saved: SavedState = SavedState(), configPath: String?,
        hookTimeoutMilliseconds: Int64 = HookProcess.timeoutMilliseconds,
        lockTimeoutMilliseconds: Int = EffectWorker.lockTimeoutMilliseconds, identities: IdentitySwitcher? = nil,
        catalogTimeoutMilliseconds: Int64 = CapturedCommand.timeoutMilliseconds, settingsPath: String? = nil,
        configPaths: PerchPaths? = nil
    ) {
        self.configPaths = configPaths
        self.identities = identities
        self.settingsPath = settingsPath
        self.lockTimeout = lockTimeoutMilliseconds
        self.catalogTimeout = catalogTimeoutMilliseconds
        var ends: [Int32] = [-1, -1]
        if perch_pipe_cloexec(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        wakeDescriptor = ends[0]
        wakeWriteEnd = ends[1]
        self.store = store
        self.configPath = configPath
        self.hookTimeoutMilliseconds = hookTimeoutMilliseconds
        memory = saved
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteEnd)
    }

    /// Hands a message for Perch's model to the loop: queued, then one byte on the pipe to wake
    /// its poll(2).
    func post(_ event: PerchModel.Message) {
        outcomes.withLock { $0.append(event) }
        var byte: UInt8 = 1
        // A full pipe already wakes the loop, which then takes every queued outcome.
        _ = write(wakeWriteEnd, &byte, 1)
    }

    /// The messages that have arrived, oldest first; empties the pipe.
    public func drain() -> [PerchModel.Message] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        return outcomes.withLock { events in
            defer { events = [] }
            return events
        }
    }

    /// Starts `job` when it is one the worker performs (``WorkerJob``: a switch, a hook, a config
    /// write or read, a Catalog source or preview, saving panes or settings, applying, checking or
    /// verifying identities); each of its outcomes goes to `answer`, from whatever thread.
    /// - Parameter accounts: the accounts as the interface has them (hooks are looked up there,
    ///   and a new config without a file starts from them).
    public func perform(_ job: AnyJob, accounts: [Account], answer: @escaping @Sendable (any Sendable) -> Void) {
        guard let job = job.base as? any WorkerJob else {
            assert(job.base is any TerminalJob, "no WorkerJob conformance for \(type(of: job.base))")
            return
        }
        start(job, accounts: accounts, answer: answer)
    }

    private func start<J: WorkerJob>(_ job: J, accounts: [Account], answer: @escaping @Sendable (any Sendable) -> Void) {
        job.start(on: self, accounts: accounts) { outcome in answer(outcome) }
    }

    /// Reads the config again after its folder's watch fired (`perch set`, `perch add`, an
    /// editor, this process's own write), on the store's queue; posts ``ConfigRead/loaded(accounts:)``,
    /// or ``ConfigRead/changedUnusable(lines:)`` when it no longer loads (the accounts stay).
    /// Nothing when the config is the same file as last read, or there are no config paths.
    public func reloadConfig() {
        guard let paths = configPaths else { return }
        storeQueue.async {
            let identity = FileSystem.identity(of: paths.config)
            guard identity != self.configRead.withLock({ $0 }) else { return }
            self.configRead.withLock { $0 = identity }
            switch LoadConfig.read(paths) {
            case .loaded(let accounts): self.post(.configRead(.loaded(accounts: accounts)))
            case .unusable(let lines), .changedUnusable(let lines):
                self.post(.configRead(.changedUnusable(lines: lines)))
            }
        }
    }

    /// Reads the state file again after the folder watch fired, unless the file is still the
    /// one this process wrote last; posts ``StateChanged`` (and ``HistoryChanged``) when it was read.
    public func reloadState() {
        storeQueue.async {
            guard let store = self.store else { return }
            if let identity = FileSystem.identity(of: store.path), identity == self.ownWrite {
                self.reloads.withLock { $0.skipped += 1 }
                return
            }
            self.reloads.withLock { $0.read += 1 }
            // Read only: this process's config may be older than the one the other process
            // used, so an account unknown here is not a reason to change the file.
            guard let loaded = try? store.peek() else { return }  // unreadable: the next change tells again
            self.post(.stateChanged(StateChanged(loaded.state, warning: loaded.warning)))
            if let records = try? store.history.read() { self.post(.historyChanged(HistoryChanged(SwitchHistory(records: records)))) }
        }
    }

    /// Keeps `account` in the current-account cache for the config and state files as `config`
    /// and `state` identified them before they were read (``CurrentAccountCache/store(_:configPath:config:statePath:state:now:)``),
    /// on the state file's queue, so that the next start draws its first frame from it.
    public func keep(
        _ account: Account, in cache: CurrentAccountCache, configPath: String, config: CurrentAccountCache.FileIdentity?,
        statePath: String, state: CurrentAccountCache.FileIdentity?
    ) {
        storeQueue.async { cache.store(account, configPath: configPath, config: config, statePath: statePath, state: state) }
    }

    /// How long a switch from the interface waits for another holder of the state lock by
    /// default, in milliseconds. Longer than the command line's 2 s: the interface keeps answering meanwhile
    /// and shows the switch as pending.
    public static let lockTimeoutMilliseconds = 10_000

    /// Set when Perch is about to exit: a switch still waiting for the lock gives up (it was
    /// never shown as done), so quitting is never held up by another process.
    private let stopping = Mutex(false)

    /// Whether Perch is about to exit (``finishStoreWork()`` was called).
    var isStopping: Bool { stopping.withLock { $0 } }

    /// Waits until the state file work asked for so far is done, giving up waits for the lock
    /// (a save under way is finished before Perch exits); hooks are not waited for, and Catalog
    /// commands still running are killed.
    public func finishStoreWork() {
        stopping.withLock { $0 = true }
        catalogCommands.killAll()
        storeQueue.wait()
    }
}
