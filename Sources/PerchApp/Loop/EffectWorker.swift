import CSystem
import Glibc
import PerchCore
import PerchIdentities
import PerchStore
import Synchronization

/// Performs the slow effects off the event loop's thread and hands their outcomes back as
/// ``AppEvent``s: the loop polls ``wakeDescriptor`` (a self-pipe) with its other descriptors and
/// calls ``drain()`` when it is readable, then passes each event to `update`. Nothing here
/// touches the state.
///
/// - State file work (switches, reading another process's change) and the config append run in
///   order on one serial queue, so a reload never overtakes a save. A lock held by another
///   process is waited for here, with ``Outcome/switchWaiting(accountID:reason:)`` sent first.
/// - Each `onSwitch` hook runs on a queue of its own, so a slow hook delays no save.
/// - Tool identities are applied and checked in order on a serial queue of their own (each
///   program with its own timeout), so a slow `gcloud` delays neither a save nor a redraw.
/// - Perch's own saves are remembered by file identity (device, inode, size, mtime), so the
///   watch on the state folder firing for them causes no re-read.
public final class EffectWorker: @unchecked Sendable {
    /// Readable when outcomes are waiting (one byte per outcome); the loop polls it.
    public let wakeDescriptor: Int32
    private let wakeWriteEnd: Int32
    private let outcomes = Mutex<[AppEvent]>([])
    private let storeQueue = WorkerQueue(serial: true)
    private let hookQueue = WorkerQueue(serial: false)
    /// Catalog sources and previews run here, each on its own thread, so a hanging one delays nothing else.
    private let catalogQueue = WorkerQueue(serial: false)
    /// How long a Catalog command may run, in milliseconds.
    private let catalogTimeout: Int64
    /// The Catalog commands running now (killed when Perch quits).
    private let catalogCommands = CapturedCommand.Running()
    /// Where changed settings are written; nil keeps them for the run.
    private let settingsPath: String?
    private let identityQueue = WorkerQueue(serial: true)
    private let identities: IdentitySwitcher?
    private let store: StateStore?
    private let configPath: String?
    private let configPaths: PerchPaths?
    private let hookTimeoutMilliseconds: Int64
    private let lockTimeout: Int
    /// Without a store: the state switches are recorded in (only touched on `storeQueue`).
    private var memory: SavedState
    /// Identity of the state file right after this process last wrote it (only on `storeQueue`).
    private var ownWrite: FileIdentity?
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
    ///   - configPaths: the files ``Effect/loadConfig`` reads the config of; nil reports none.
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

    /// Hands an outcome to the loop: queued, then one byte on the pipe to wake its poll(2).
    private func post(_ event: AppEvent) {
        outcomes.withLock { $0.append(event) }
        var byte: UInt8 = 1
        // A full pipe already wakes the loop, which then takes every queued outcome.
        _ = write(wakeWriteEnd, &byte, 1)
    }

    /// The outcomes that have arrived, oldest first; empties the pipe.
    public func drain() -> [AppEvent] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        return outcomes.withLock { events in
            defer { events = [] }
            return events
        }
    }

    /// Starts `effect` when it is slow work (a switch, a hook, a config write, a Catalog source
    /// or preview, saving panes or settings, applying or checking identities; the terminal's own
    /// effects are ignored here). Its outcomes are posted for the model that asked
    /// (``Effect/asker``), as ``AppEvent/outcome(_:for:)``.
    /// - Parameter accounts: the accounts as the interface has them (hooks are looked up there,
    ///   and a new config without a file starts from them).
    public func perform(_ effect: Effect, accounts: [Account]) {
        // Each outcome goes back to the model that asked (``Effect/asker``).
        let asker = effect.asker
        // Posts `event`, an outcome addressed to the asker (a local name: `post` is the method).
        @Sendable func answer(_ event: AppEvent) {
            guard case .outcome(let outcome, _) = event else { return self.post(event) }
            self.post(.outcome(outcome, for: asker))
        }
        switch effect.work {
        case .recordSwitch(let id):
            let account = accounts.first { $0.id == id }
            storeQueue.async {
                for event in self.recordSwitch(to: id, account: account) { answer(event) }
            }
        case .runHook(let id, let previous):
            guard let account = accounts.first(where: { $0.id == id }), let command = account.onSwitch else { return }
            let timeout = hookTimeoutMilliseconds
            hookQueue.async {
                let result: HookResult
                switch HookProcess.start(command, account: account, previous: previous, now: MonotonicClock.now(), timeout: timeout) {
                case .success(let hook): result = hook.waitForEnd()
                case .failure(let error): result = .notStarted(error.description)
                }
                answer(.outcome(.hookEnded(accountID: id, failure: result.failure)))
            }
        case .addAccount(let account):
            storeQueue.async { answer(self.add(account, samples: accounts)) }
        case .deleteFromConfig(let id, let path):
            storeQueue.async { answer(self.delete(path, of: id, accounts: accounts)) }
        case .loadCatalog(let id, let command):
            let account = accounts.first { $0.id == id }
            let timeout = catalogTimeout
            catalogQueue.async {
                let output = CapturedCommand.run(
                    command, variables: Self.variables(account, id: id), timeout: timeout, running: self.catalogCommands)
                if let failure = output.failure {
                    answer(.outcome(.catalogFailed(accountID: id, reason: failure)))
                } else {
                    let parsed = CatalogOutput.parse(output.stdout)
                    answer(.outcome(.catalogLoaded(accountID: id, items: parsed.items, skipped: parsed.skipped)))
                }
            }
        case .previewCatalogItem(let id, let command, let item):
            let account = accounts.first { $0.id == id }
            let timeout = catalogTimeout
            catalogQueue.async {
                let output = CapturedCommand.run(
                    command, variables: Self.variables(account, id: id, item: item), timeout: timeout, running: self.catalogCommands)
                let preview: CatalogPreview =
                    output.failure.map { .failed($0.split(separator: "\n").joined(separator: " · ")) }
                    ?? .text(String(decoding: output.stdout.prefix(Self.previewLimit), as: UTF8.self))
                answer(.outcome(.catalogPreviewed(accountID: id, itemID: item.id, preview)))
            }
        case .savePanes(let panes):
            storeQueue.async {
                guard let store = self.store else { return }
                // Pane state is a convenience: a failure to keep it is not worth a banner.
                if (try? store.savePanes(panes, lockTimeoutMilliseconds: self.lockTimeout)) != nil {
                    self.ownWrite = FileSystem.identity(of: store.path)
                }
            }
        case .saveSettings(let settings):
            guard let path = settingsPath else { return }
            storeQueue.async {
                do {
                    try SettingsFile.write(settings, to: path)
                } catch {
                    answer(.outcome(.settingsNotSaved("\(error)")))
                }
            }
        case .applyIdentities(let id, let previous, let afterSwitch):
            guard let account = accounts.first(where: { $0.id == id }) else { return }
            storeQueue.async {
                // `r`: the same switch session as a pick, to the current account, every tool again.
                let skipped = account.identities.tools.map { IdentityResult(tool: $0, status: .skipped, detail: "no identity environment") }
                guard let identities = self.identities, let store = self.store else {
                    answer(
                        .outcome(
                            .identitiesApplied(
                                IdentityReport(accountID: id, results: skipped), previous: previous, afterSwitch: afterSwitch)))
                    return
                }
                let session = identities.session(store: store, source: .tui, lockTimeout: self.lockTimeout, force: true)
                let report: IdentityReport
                do {
                    report = try session.run(to: account).report
                } catch {
                    report = IdentityReport(
                        accountID: id,
                        results: account.identities.tools.map { IdentityResult(tool: $0, status: .failed, detail: "\(error)") })
                }
                if let state = FileSystem.identity(of: store.path) { self.ownWrite = state }
                answer(.outcome(.identitiesApplied(report, previous: previous, afterSwitch: afterSwitch)))
            }
        case .checkIdentities(let id):
            guard let account = accounts.first(where: { $0.id == id }), let identities else { return }
            identityQueue.async {
                // Per-shell tools are the shell's business: the interface's own environment is
                // the one it started with, not what its shell will get after a pick.
                let checks = account.identities.settings.filter { !$0.isPerShell }.map { identities.check($0.tool, of: account) }
                answer(.outcome(.identitiesChecked(accountID: id, checks)))
            }
        case .verifyIdentities(let id, let online):
            guard let account = accounts.first(where: { $0.id == id }), let identities else { return }
            identityQueue.async {
                // As perch verify in the folder Perch was started in; per-shell tools are the
                // shell's business (the interface's environment is the one it started with).
                var context = identities.context
                context.timeout = 5000
                let proof = ProofContext(tool: context, folder: ShellMarker.workingDirectory(), account: account)
                let answers = IdentityProof.verify(proof, online: online, adapters: ToolAdapters.registry.filter { !$0.isPerShell })
                answer(.outcome(.identitiesVerified(accountID: id, answers)))
            }
        case .loadConfig:
            guard let paths = configPaths else { return }
            // On the store's queue: a config write asked for later is made after this read.
            storeQueue.async { answer(.outcome(Self.loadConfig(paths))) }
        case .copyToClipboard, .quit, .suspend, .openCatalogItem, .setMouse, .pushKeyboardFlags, .editConfig, .ask, .takeRows, .asked:
            break
        }
    }

    /// Test-only: milliseconds ``Effect/loadConfig`` waits before it reads the config
    /// (`PERCH_TEST_CONFIG_READ_DELAY_MS`, at most 60000), so that end-to-end tests can act while
    /// the accounts have not arrived. Not for use outside tests; unset, nothing waits.
    static let testConfigReadDelayVariable = "PERCH_TEST_CONFIG_READ_DELAY_MS"

    /// Reads and checks the whole config, as a start reads it, after the test-only delay (if any).
    static func loadConfig(_ paths: PerchPaths) -> Outcome {
        if let text = PerchPaths.environment(testConfigReadDelayVariable), let delay = Int64(text), (1...60_000).contains(delay) {
            var wait = timespec(tv_sec: Int(delay / 1000), tv_nsec: Int(delay % 1000) * 1_000_000)
            var left = timespec()
            while nanosleep(&wait, &left) != 0, errno == EINTR { wait = left }
        }
        do {
            return .configLoaded(accounts: try ConfigLoader.load(paths).accounts)
        } catch {
            return .configUnusable(lines: error.lines)
        }
    }

    /// Most bytes of a preview kept (the cover scrolls through them).
    static let previewLimit = 1 << 20

    /// The environment a Catalog command gets besides Perch's: the account, and the item for a
    /// preview or an open (in variables, never in the shell text).
    static func variables(_ account: Account?, id: String, item: CatalogItem? = nil) -> [(String, String)] {
        var result = [
            ("PERCH_ACCOUNT_ID", id), ("PERCH_ACCOUNT_NAME", account?.name ?? ""), ("PERCH_ACCOUNT_HANDLE", account?.handle ?? ""),
        ]
        if let item { result += [("PERCH_ITEM_ID", item.id), ("PERCH_ITEM_TITLE", item.title)] }
        return result
    }

    /// Reads the state file again after the folder watch fired, unless the file is still the
    /// one this process wrote last; posts ``Outcome/stateChanged(_:warning:)`` when it was read.
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
            self.post(.outcome(.stateChanged(loaded.state, warning: loaded.warning)))
            if let records = try? store.history.read() { self.post(.outcome(.historyChanged(SwitchHistory(records: records)))) }
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

    /// Waits until the state file work asked for so far is done, giving up waits for the lock
    /// (a save under way is finished before Perch exits); hooks are not waited for, and Catalog
    /// commands still running are killed.
    public func finishStoreWork() {
        stopping.withLock { $0 = true }
        catalogCommands.killAll()
        storeQueue.wait()
    }

    /// The switch session (the one `perch switch` runs): each tool's step posted as it comes
    /// back, then the switch saved (and its report, which runs the hook) or failed and rolled back.
    private func recordSwitch(to id: String, account: Account?) -> [AppEvent] {
        guard let store else {
            let outcome = SwitchOutcome.inMemory(id, from: memory)
            memory = outcome.state
            let skipped = (account?.identities.tools ?? []).map { IdentityResult(tool: $0, status: .skipped, detail: "no state file") }
            return [
                .outcome(.switchSaved(outcome)),
                .outcome(
                    .identitiesApplied(
                        IdentityReport(accountID: id, results: skipped), previous: outcome.previous, afterSwitch: outcome.changed)),
            ]
        }
        let account = account ?? Account(id: id, name: id)
        let switcher = identities ?? IdentitySwitcher(environment: .current(statePath: store.path), samplesOnly: true)
        let session = switcher.session(store: store, source: .tui, lockTimeout: lockTimeout)
        let steps = Mutex<[IdentityResult]>([])
        do {
            var waited = false
            let result = try session.run(
                to: account,
                shouldWaitForLock: { milliseconds in
                    if milliseconds == 0, !waited {
                        waited = true
                        let reason = "waiting for another process to release the state file's lock…"
                        self.post(.outcome(.switchWaiting(accountID: id, reason: reason)))
                    }
                    return !self.stopping.withLock { $0 }
                },
                progress: { step in
                    let report = steps.withLock { results in
                        results.removeAll { $0.tool == step.tool }
                        results.append(step)
                        return IdentityReport(accountID: id, results: results)
                    }
                    self.post(.outcome(.identitiesApplied(report, previous: nil, afterSwitch: false)))
                })
            ownWrite = FileSystem.identity(of: store.path)
            guard let outcome = result.outcome else {
                let rolledBack = result.report.results.filter { $0.status == .rolledBack }.map(\.tool.rawValue)
                let failed = result.report.results.filter { $0.status == .failed }.map { "\($0.tool.rawValue) \($0.detail)" }
                let reason =
                    failed.joined(separator: "; ") + (rolledBack.isEmpty ? "" : "; put back: " + rolledBack.joined(separator: ", "))
                return [.outcome(.switchFailed(accountID: id, reason: reason))]
            }
            var events: [AppEvent] = [.outcome(.switchSaved(outcome))]
            if outcome.changed || result.changedTools {
                events.append(.outcome(.identitiesApplied(result.report, previous: outcome.previous, afterSwitch: outcome.changed)))
            }
            return events
        } catch {
            return [.outcome(.switchFailed(accountID: id, reason: error.description))]
        }
    }

    /// The Catalog's Delete of a config row: the field at `path` of account `id` unset, or the
    /// account removed (`path` empty), by the same writer calls as `perch unset` and `perch remove`.
    private func delete(_ path: [String], of id: String, accounts: [Account]) -> AppEvent {
        guard let configPath else {
            return .outcome(
                .deletedFromConfig(accountID: id, path: path, accounts: nil, configPath: "", backupPath: nil, problem: "no config file"))
        }
        do {
            let outcome: ConfigWriter.Outcome
            if path.isEmpty {
                // The current account's tools (as the interface holds it, which is what they
                // were given) are given back first, as `perch remove` does (``AccountRemoval``).
                let remover = AccountRemoval(
                    configPath: configPath, store: store,
                    session: store.flatMap { store in identities?.session(store: store, source: .tui, lockTimeout: lockTimeout) })
                let removal: ConfigWriter.Removal
                do {
                    removal = try remover.remove(id, givingBack: accounts.first { $0.id == id }).removal
                } catch {
                    return .outcome(
                        .deletedFromConfig(
                            accountID: id, path: path, accounts: nil, configPath: configPath, backupPath: nil, problem: Self.problem(error))
                    )
                }
                outcome = removal.outcome
                if case .failure(let error)? = removal.forgotten {
                    return .outcome(
                        .deletedFromConfig(
                            accountID: id, path: path, accounts: outcome.accounts, configPath: outcome.path, backupPath: outcome.backupPath,
                            problem: "the state still names it: \(error)"))
                }
            } else {
                outcome = try ConfigWriter.apply(.unset(id: id, path: path), to: configPath, samples: [])
            }
            return .outcome(
                .deletedFromConfig(
                    accountID: id, path: path, accounts: outcome.accounts, configPath: outcome.path, backupPath: outcome.backupPath,
                    problem: nil))
        } catch {
            return .outcome(
                .deletedFromConfig(
                    accountID: id, path: path, accounts: nil, configPath: configPath, backupPath: nil, problem: error.description))
        }
    }

    /// Why an account was not removed, in the words the Catalog shows.
    private static func problem(_ failure: AccountRemoval.Failure) -> String {
        switch failure {
        case .config(let error): error.description
        case .state(let error): "its tools could not be given back to your own (\(error))"
        case .toolFailed(let result):
            "its tools could not be given back to your own (\(result.failure ?? "a tool failed"); every tool was put back)"
        }
    }

    private func add(_ account: Account, samples: [Account]) -> AppEvent {
        guard let configPath else { return .outcome(.accountNotAdded("No config file to add the account to.")) }
        do {
            let outcome = try ConfigWriter.append(account, to: configPath, samples: samples)
            return .outcome(.accountAdded(account, accounts: outcome.accounts, configPath: outcome.path, backupPath: outcome.backupPath))
        } catch {
            return .outcome(.accountNotAdded(error.description))
        }
    }
}
