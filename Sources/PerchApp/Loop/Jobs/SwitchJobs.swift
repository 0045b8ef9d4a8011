import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchStore
import Synchronization

extension RecordSwitch: WorkerJob {
    /// On the store's queue: the switch session (the one `perch switch` runs), each tool's step
    /// posted as it comes back, then the switch saved (and its report, which runs the hook) or
    /// failed and rolled back. Without a store, the switch is kept in the worker's memory.
    ///
    /// The account is taken from the config as it is on disk now, read on the store's queue just
    /// before the session, not from the list the interface showed: another process may have
    /// removed or changed it since (`perch remove`, an editor). One no longer in the config is not
    /// switched to: the switch fails with the reason, and the interface gets the config's
    /// accounts as they are (``ConfigRead``).
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (SwitchProgress) -> Void) {
        let shown = accounts.first { $0.id == accountID }
        worker.storeQueue.async {
            guard let paths = worker.configPaths else { return worker.record(self, account: shown, answer: answer) }
            let id = accountID
            switch LoadConfig.read(paths) {
            case .loaded(let now):
                guard let account = now.first(where: { $0.id == id }) else {
                    // Bug: the interface switched to an account another process had removed.
                    worker.post(.configRead(.loaded(accounts: now)))
                    return answer(
                        .failed(
                            accountID: id, reason: "it is no longer in the config (\(paths.config)); the list now shows the config as it is"
                        ))
                }
                worker.record(self, account: account, answer: answer)
            case .unusable(let lines), .changedUnusable(let lines):
                answer(.failed(accountID: id, reason: "the config cannot be read now: " + (lines.first ?? "unknown error")))
            }
        }
    }
}

extension EffectWorker {
    /// ``RecordSwitch``, on the store's queue.
    fileprivate func record(_ job: RecordSwitch, account: Account?, answer: @escaping @Sendable (SwitchProgress) -> Void) {
        let id = job.accountID
        guard let store else {
            let outcome = SwitchOutcome.inMemory(id, from: memory)
            memory = outcome.state
            let skipped = (account?.identities.tools ?? []).map { IdentityResult(tool: $0, status: .skipped, detail: "no state file") }
            answer(.saved(outcome))
            answer(
                .identities(
                    IdentitiesApplied(
                        IdentityReport(accountID: id, results: skipped), previous: outcome.previous, afterSwitch: outcome.changed)))
            return
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
                        answer(.waiting(accountID: id, reason: "waiting for another process to release the state file's lock…"))
                    }
                    return !self.isStopping
                },
                progress: { step in
                    let report = steps.withLock { results in
                        results.removeAll { $0.tool == step.tool }
                        results.append(step)
                        return IdentityReport(accountID: id, results: results)
                    }
                    answer(.identities(IdentitiesApplied(report, previous: nil, afterSwitch: false)))
                })
            ownWrite = FileSystem.identity(of: store.path)
            guard let outcome = result.outcome else {
                let rolledBack = result.report.results.filter { $0.status == .rolledBack }.map(\.tool.rawValue)
                let failed = result.report.results.filter { $0.status == .failed }.map { "\($0.tool.rawValue) \($0.detail)" }
                let reason =
                    failed.joined(separator: "; ") + (rolledBack.isEmpty ? "" : "; put back: " + rolledBack.joined(separator: ", "))
                return answer(.failed(accountID: id, reason: reason))
            }
            answer(.saved(outcome))
            if outcome.changed || result.changedTools {
                answer(.identities(IdentitiesApplied(result.report, previous: outcome.previous, afterSwitch: outcome.changed)))
            }
        } catch {
            answer(.failed(accountID: id, reason: error.description))
        }
    }
}

extension RunHook: WorkerJob {
    /// On a thread of its own, so a slow hook delays no save; nothing when the account has no
    /// `onSwitch` hook.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (HookEnded) -> Void) {
        guard let account = accounts.first(where: { $0.id == accountID }), let command = account.onSwitch else { return }
        let (timeout, id, previous) = (worker.hookTimeoutMilliseconds, accountID, self.previous)
        worker.hookQueue.async {
            let result: HookResult
            switch HookProcess.start(command, account: account, previous: previous, now: MonotonicClock.now(), timeout: timeout) {
            case .success(let hook): result = hook.waitForEnd()
            case .failure(let error): result = .notStarted(error.description)
            }
            answer(HookEnded(accountID: id, failure: result.failure))
        }
    }
}
