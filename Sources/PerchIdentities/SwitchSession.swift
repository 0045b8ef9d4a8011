import FoundationEssentials
import Glibc
import PerchDomain
import PerchStore

/// The one switching sequence of Perch: `perch switch`, `perch -`, the inline picker, `perch
/// undo` and the interface's worker all call ``run(to:previousIdentities:progress:)``. Under
/// the state lock it plans (what each tool should have against what it has), writes a journal
/// of the before-states, applies and verifies every tool that must change (in parallel, each
/// program with its own timeout), and only when all succeeded records the state and history;
/// if one failed, every tool already changed is put back and the current account is kept. The
/// hook runs after the lock is released.
public struct SwitchSession: Sendable {
    /// The state file the switch is recorded in, under its lock.
    public var store: StateStore
    /// The environment, Perch's files and the programs' timeout the tools run with.
    public var context: ToolContext
    /// The embedded samples (no config): no tool is ever changed.
    public var samplesOnly: Bool
    /// Where the switch comes from (the command line, the interface), for the history.
    public var source: SwitchSource
    /// How long to wait for another holder of the state lock, in milliseconds.
    public var lockTimeout: Int
    /// Re-apply every tool, not only those that differ.
    public var force: Bool
    /// Keep a partial switch when a tool fails (the tools on the new account are said).
    public var keepGoing: Bool

    public init(
        store: StateStore, context: ToolContext, samplesOnly: Bool = false, source: SwitchSource, lockTimeout: Int = 2000,
        force: Bool = false, keepGoing: Bool = false
    ) {
        self.store = store
        self.context = context
        self.samplesOnly = samplesOnly
        self.source = source
        self.lockTimeout = lockTimeout
        self.force = force
        self.keepGoing = keepGoing
    }

    /// What a session did.
    public struct Result: Sendable {
        /// The switch as recorded (`changed` false for a re-apply to the current account), or
        /// nil when nothing was recorded (a tool failed and the switch was rolled back).
        public var outcome: SwitchOutcome?
        /// One result per tool considered, in registry order.
        public var report: IdentityReport
        /// Why the switch was not made (a tool failed), or nil.
        public var failure: String?
        /// An interrupted switch found and put right first, in one line, or nil.
        public var recovered: String?
        /// Whether a tool had to change (false: every tool already had what was asked).
        public var changedTools: Bool
    }

    /// What each tool should have: from the account's config (and the baseline for a tool it
    /// names nothing for), or, for an undo, the states given and the account's for every other
    /// tool (bug: a tool the undone switch had not changed, moved since by `perch remove`'s
    /// give-back, was left where the removal put it while undo said it was back).
    public enum Target: Sendable {
        case account
        case states([IdentityTool: ToolState])
    }

    private var files: IdentityFiles { context.files }

    /// Switches to `account` (see ``SwitchSession``). `progress` is called with each tool's
    /// result as it comes back (pending first), from the calling thread or a tool's.
    /// - Throws: ``StateError`` when the state lock or file cannot be had; nothing is changed then.
    public func run(
        to account: Account, target: Target = .account, shouldWaitForLock: (Int) -> Bool = { _ in true },
        progress: @escaping @Sendable (IdentityResult) -> Void = { _ in }
    ) throws(StateError) -> Result {
        try perform(to: account, target: target, shouldWaitForLock: shouldWaitForLock, progress: progress)
    }

    /// Gives every tool that `account` names back what the person has without Perch (git's
    /// include holds their own identity again, the others get their baseline), as a switch to
    /// an account naming nothing would, with the same journal, verification and all-or-nothing
    /// roll-back; for an account that was current and has been removed from the config (`perch
    /// remove`), so that no tool keeps an identity nobody chose. Nothing is recorded: no state,
    /// history, undo record or results; the outcome is nil only when a tool failed (every tool
    /// is then put back, on the removed account's identity).
    /// - Throws: ``StateError`` when the state lock or file cannot be had; nothing is changed then.
    public func giveBack(
        _ account: Account, shouldWaitForLock: (Int) -> Bool = { _ in true },
        progress: @escaping @Sendable (IdentityResult) -> Void = { _ in }
    ) throws(StateError) -> Result {
        let bare = Account(id: account.id, name: account.name)
        return try perform(
            to: bare, target: .account, shouldWaitForLock: shouldWaitForLock, progress: progress,
            mode: .givingBack(Set(ToolAdapters.registry.map(\.tool).filter { account.identities[$0] != nil })))
    }

    /// What a session changes, and whether it is recorded.
    enum Mode: Sendable {
        /// A switch: every tool, recorded (state, history, undo record, results).
        case switching
        /// These tools only, unrecorded (``giveBack(_:shouldWaitForLock:progress:)``).
        case givingBack(Set<IdentityTool>)
        /// Every tool with a baseline gets it back, unrecorded, and its baseline is then
        /// forgotten (``restoreBaselines(progress:)``); sample accounts do not stop it.
        case resetting
    }

    /// ``run(to:target:shouldWaitForLock:progress:)``, ``giveBack(_:shouldWaitForLock:progress:)``
    /// or ``restoreBaselines(progress:)``, as `mode` says.
    func perform(
        to account: Account, target: Target, shouldWaitForLock: (Int) -> Bool, progress: @escaping @Sendable (IdentityResult) -> Void,
        mode: Mode = .switching
    ) throws(StateError) -> Result {
        let recording = if case .switching = mode { true } else { false }
        let resetting = if case .resetting = mode { true } else { false }
        return try store.withLock(timeoutMilliseconds: lockTimeout, shouldWait: shouldWaitForLock) { () throws(StateError) in
            // Under the lock: what a writer killed mid-write left of Perch's own files.
            for file in files.all { FileSystem.removeStaleTemporaryFiles(of: file) }
            let recovered = try recoverLocked(waitingMilliseconds: Int(clamping: context.timeout))
            let current = try store.readForUpdate()
            let previous = current.currentAccount
            let isSwitch = recording && previous != account.id
            var baseline = RecordFile.read(ToolBaseline.self, at: files.baseline) ?? ToolBaseline()
            var baselineChanged = false

            /// Whether the session is about `tool` (a switch is about every tool).
            func includes(_ tool: IdentityTool) -> Bool {
                switch mode {
                case .switching: true
                case .givingBack(let tools): tools.contains(tool)
                case .resetting: baseline.tools[tool.rawValue] != nil
                }
            }
            if resetting {
                // A baseline of a tool this Perch does not know (kept by another version) cannot be given back.
                for key in baseline.tools.keys where ToolAdapters.adapter(for: IdentityTool(key)) == nil { baseline.tools[key] = nil }
            }

            // Plan: what each tool should have, against what it has.
            var results: [IdentityTool: IdentityResult] = [:]
            var candidates: [(adapter: any ToolAdapter, wanted: ToolState, fromBaseline: Bool)] = []
            // The tools that cannot be changed at all: the switch fails unless --keep-going.
            var unreadable: [IdentityTool] = []
            for adapter in ToolAdapters.registry where includes(adapter.tool) {
                let setting = account.identities[adapter.tool]
                if adapter.isPerShell {
                    // Bug: a switch to an AWS profile that does not exist succeeded without a word.
                    // A per-shell tool changes nothing global, so the switch stands; it says so.
                    if let setting, !samplesOnly, let why = adapter.unusable(setting, in: context) {
                        results[adapter.tool] = IdentityResult(
                            tool: adapter.tool, status: .skipped, detail: setting.summary + " per shell, but " + why)
                    } else if let setting {
                        results[adapter.tool] = IdentityResult(
                            tool: adapter.tool, status: .applied, detail: setting.summary + ": per shell with perch env, and in hooks")
                    }
                    continue
                }
                if samplesOnly, !resetting {
                    if setting != nil {
                        results[adapter.tool] = IdentityResult(
                            tool: adapter.tool, status: .skipped, detail: "sample accounts never change a tool")
                    }
                    continue
                }
                var wanted: ToolState?
                var fromBaseline = false
                switch target {
                case .account where resetting:
                    (wanted, fromBaseline) = (baseline.tools[adapter.tool.rawValue], true)
                case .account:
                    (wanted, fromBaseline) =
                        Self.wantedState(adapter, for: account, baseline: baseline, in: context).map { ($0.state, $0.fromBaseline) }
                        ?? (nil, false)
                case .states(let states):
                    if let given = states[adapter.tool] {
                        wanted = given
                    } else {
                        (wanted, fromBaseline) =
                            Self.wantedState(adapter, for: account, baseline: baseline, in: context).map { ($0.state, $0.fromBaseline) }
                            ?? (nil, false)
                    }
                }
                guard let wanted else { continue }
                candidates.append((adapter, wanted, fromBaseline))
            }
            let context = self.context
            let nows = Parallel.map(candidates.map { candidate in { @Sendable in candidate.adapter.current(in: context) } })
            var steps: [ToolChange] = []
            for (candidate, now) in zip(candidates, nows) {
                let tool = candidate.adapter.tool
                let named = account.identities[tool] != nil || !recording
                switch now {
                case .failure(let failure):
                    // Bug: a tool whose program was not on this PATH (a hook's, cron's, a GUI
                    // launcher's) was skipped without a word, left on the other account while
                    // the switch said it was done. A tool the account names, or one to be given
                    // back its baseline, that cannot be read cannot be changed: a failed tool.
                    guard named || candidate.fromBaseline else { continue }
                    results[tool] = IdentityResult(
                        tool: tool, status: .failed, detail: Self.unreadableDetail(candidate.adapter, failure, in: context))
                    unreadable.append(tool)
                case .success(let now):
                    if candidate.adapter.isMet(candidate.wanted, by: now), !force {
                        if named || candidate.fromBaseline {
                            results[tool] = IdentityResult(
                                tool: tool, status: candidate.fromBaseline ? .restored : .unchanged,
                                detail: candidate.adapter.describe(candidate.wanted.merging(now)))
                        }
                        if candidate.fromBaseline {
                            baseline.tools[tool.rawValue] = nil
                            baselineChanged = true
                        }
                        continue
                    }
                    // An undo's states too: a tool without a baseline has the person's own state
                    // now, which an undo would otherwise overwrite unrecorded.
                    if candidate.adapter.keepsBaseline, baseline.tools[tool.rawValue] == nil, !candidate.fromBaseline, recording {
                        baseline.tools[tool.rawValue] = now
                        baselineChanged = true
                    }
                    steps.append(
                        ToolChange(adapter: candidate.adapter, wanted: candidate.wanted, before: now, fromBaseline: candidate.fromBaseline))
                }
            }
            /// Writes `baseline`, or removes its file when it names no tool any more.
            func keep(_ baseline: ToolBaseline) {
                if baseline.tools.isEmpty { RecordFile.remove(files.baseline) } else { try? RecordFile.write(baseline, to: files.baseline) }
            }
            let token = Self.newToken()
            func finish(_ outcome: SwitchOutcome?, failure: String? = nil) -> Result {
                let ordered = ToolAdapters.registry.compactMap { results[$0.tool] }
                let report = IdentityReport(accountID: account.id, results: ordered)
                if outcome != nil, recording { recordReport(report) }
                return Result(outcome: outcome, report: report, failure: failure, recovered: recovered, changedTools: !steps.isEmpty)
            }
            if !unreadable.isEmpty, !keepGoing {
                // All or nothing, decided before anything is changed.
                for tool in results.keys where !unreadable.contains(tool) { results[tool] = nil }
                return finish(nil, failure: unreadable.map(\.rawValue).joined(separator: ", ") + " failed")
            }
            if steps.isEmpty, !isSwitch {
                // A reset with every tool already on its own: the baseline is done with all the same.
                if resetting { keep(baseline) }
                return finish(SwitchOutcome(accountID: account.id, state: current, previous: previous, changed: false))
            }
            // Journal, then apply.
            let journal = SwitchJournal(
                id: token, from: previous, to: account.id, time: StateStore.timestamp(), pid: getpid(),
                tools: steps.map { SwitchJournal.Entry(tool: $0.adapter.tool, before: $0.before) })
            // The programs of the apply and of a roll-back inherit the journal's lock, so a
            // recovery after Perch is killed waits until they have all ended.
            var applying = context
            if !steps.isEmpty {
                do { try RecordFile.write(journal, to: files.journal) } catch let error as FileError { throw .file(error) } catch {}
                applying.journalLock = try? FileSystem.openLocked(files.journal, timeoutMilliseconds: 0)
            }
            defer { if let lock = applying.journalLock { close(lock) } }
            let applied = Self.apply(steps, in: applying, progress: progress)
            for (change, step) in zip(steps, applied) {
                results[change.adapter.tool] = Self.result(change.adapter.tool, step, fromBaseline: change.fromBaseline)
            }
            let failed = zip(steps, applied).filter { if case .failed = $0.1 { true } else { false } }
            if !failed.isEmpty, !keepGoing {
                // All or nothing: every tool changed goes back to its before-state. One whose
                // change meant nothing is not reported as put back (bug: `ssh: rolled back` for
                // an account with no ssh identity).
                let restored = Self.putBack(steps.map { ($0.adapter, $0.before) }, in: applying)
                for ((change, step), (back, changed)) in zip(zip(steps, applied), restored) {
                    let tool = change.adapter.tool
                    if case .failed = step {
                        if case .failed(let why)? = back { results[tool]?.detail += "; could not be put back: \(why)" }
                        continue
                    }
                    let backFailed = if case .failed? = back { true } else { false }
                    guard let back, changed || backFailed else {
                        results[tool] = nil
                        continue
                    }
                    if case .failed(let why) = back {
                        results[tool] = IdentityResult(tool: tool, status: .failed, detail: "could not be put back: \(why)")
                    } else {
                        results[tool] = IdentityResult(tool: tool, status: .rolledBack, detail: change.adapter.describe(change.before))
                    }
                }
                // Per-shell tools (env) are applied by `perch env` after a switch: none was.
                for adapter in ToolAdapters.registry where adapter.isPerShell { results[adapter.tool] = nil }
                RecordFile.remove(files.journal)
                let tools = failed.map { $0.0.adapter.tool.rawValue }.joined(separator: ", ")
                return finish(nil, failure: "\(tools) failed")
            }
            // Commit: the state and history, the undo record, the baseline; then the journal goes.
            var outcome = SwitchOutcome(accountID: account.id, state: current, previous: previous, changed: false)
            if isSwitch {
                outcome = try store.commitSwitch(from: current, to: account.id, source: source, token: steps.isEmpty ? nil : token)
            }
            if (!steps.isEmpty && recording) || isSwitch {
                try? RecordFile.write(
                    UndoRecord(
                        from: previous, to: account.id, time: journal.time,
                        tools: journal.tools.filter { entry in
                            !failed.contains { $0.0.adapter.tool == entry.tool }
                        }), to: files.undo)
            }
            for (change, step) in zip(steps, applied) where change.fromBaseline {
                if case .failed = step { continue }
                baseline.tools[change.adapter.tool.rawValue] = nil
                baselineChanged = true
            }
            if resetting || baselineChanged { keep(baseline) }
            RecordFile.remove(files.journal)
            let failedTools = unreadable.map(\.rawValue) + failed.map { $0.0.adapter.tool.rawValue }
            let failure = failedTools.isEmpty ? nil : failedTools.joined(separator: ", ") + " failed"
            return finish(outcome, failure: failure)
        }
    }

    /// Why a tool that could not be read cannot be switched: its program is not on this `PATH`
    /// (with the one it searched), or the tool's own failure.
    static func unreadableDetail(_ adapter: any ToolAdapter, _ failure: ToolFailure, in context: ToolContext) -> String {
        guard let program = adapter.program, context.environment.which(program) == nil else {
            return "cannot be read, so cannot be switched: \(failure.description)"
        }
        let path = context.environment.variables["PATH"] ?? ""
        return "\(program) is not on this PATH (\(path.isEmpty ? "empty" : path)), so \(adapter.tool.rawValue) cannot be switched;"
            + " run the switch where \(program) is on PATH, or --keep-going to leave \(adapter.tool.rawValue) as it is"
    }

    static func result(_ tool: IdentityTool, _ step: ToolStep, fromBaseline: Bool) -> IdentityResult {
        switch step {
        case .applied(let detail):
            return IdentityResult(tool: tool, status: fromBaseline || detail == "your own" ? .restored : .applied, detail: detail)
        case .skipped(let detail): return IdentityResult(tool: tool, status: .skipped, detail: detail)
        case .failed(let detail): return IdentityResult(tool: tool, status: .failed, detail: detail)
        }
    }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    // MARK: Interrupted switches

    /// Puts right a switch whose process died between its journal and its commit (SIGKILL,
    /// power loss), if one is found and no other process is switching: a switch already
    /// recorded is completed (its journal removed); any other is rolled back, every tool given
    /// its before-state, so nothing is left half switched. The programs the dead process had
    /// started may still be running (they outlive it): the roll-back waits until they have all
    /// ended (they hold the journal's lock, see ``ToolContext/journalLock``), at most
    /// `waitingMilliseconds`, so that none of them changes its tool after it was put back.
    /// Returns one line saying what was done, or that the switch is still finishing and was
    /// left for a later command (with the word "interrupted" and both accounts; without the
    /// program's name, which the command line puts before it on stderr), or nil when there was
    /// nothing to do or another process holds the state lock. Costs one `access(2)` when there
    /// is no journal.
    public func recoverInterrupted(waitingMilliseconds: Int) -> String? {
        guard access(files.journal, F_OK) == 0 else { return nil }
        // A journal whose writer still holds the lock is a switch under way, not an interrupted one.
        do {
            return try store.withLock(timeoutMilliseconds: 0) { () throws(StateError) in
                try recoverLocked(waitingMilliseconds: waitingMilliseconds)
            }
        } catch {
            guard case .file(let failure) = error, failure.path == files.journal, let journal = failure.reason else { return nil }
            return journal
        }
    }

    /// A switch not yet committed, as ``recoverWithoutWaiting()`` finds it.
    public enum Pending: Hashable, Sendable {
        /// Another process is switching now (it holds the state lock).
        case underWay(SwitchJournal)
        /// A switch whose process was killed, its programs still running: it is rolled back
        /// once they have ended.
        case finishing(SwitchJournal)

        public var journal: SwitchJournal {
            switch self {
            case .underWay(let journal), .finishing(let journal): journal
            }
        }

        public var isFinishing: Bool { if case .finishing = self { true } else { false } }
    }

    /// ``recoverInterrupted(waitingMilliseconds:)`` for commands a prompt runs (`perch current`,
    /// `perch status`), which must answer at once: an interrupted switch is put right when
    /// nothing it started still runs (`message` says so), and otherwise nothing waits: the
    /// switch under way, or still finishing, is told in `pending` (nil when there is none, or
    /// when its journal cannot be read).
    public func recoverWithoutWaiting() -> (message: String?, pending: Pending?) {
        guard access(files.journal, F_OK) == 0 else { return (nil, nil) }
        do {
            let message = try store.withLock(timeoutMilliseconds: 0) { () throws(StateError) in
                try recoverLocked(waitingMilliseconds: 0)
            }
            return (message, nil)
        } catch {
            guard let journal = RecordFile.read(SwitchJournal.self, at: files.journal) else { return (nil, nil) }
            if case .file(let failure) = error, failure.path == files.journal { return (nil, .finishing(journal)) }
            return (nil, .underWay(journal))
        }
    }

    /// The tools of `journal` that still have what they had before it (a switch under way has
    /// not reached them yet), in the journal's order; a tool that cannot be read counts as on its way.
    public func toolsOnTheirWay(_ journal: SwitchJournal) -> [IdentityTool] {
        let context = self.context
        let waiting = Parallel.map(
            journal.tools.map { entry in
                { @Sendable () -> Bool in
                    guard let adapter = ToolAdapters.adapter(for: entry.tool), case .success(let now) = adapter.current(in: context) else {
                        return true
                    }
                    return adapter.isMet(entry.before, by: now)
                }
            })
        return zip(journal.tools, waiting).filter { $0.1 }.map(\.0.tool)
    }

    /// ``recoverInterrupted(waitingMilliseconds:)`` for a caller holding the state lock.
    /// - Throws: ``StateError/file(_:)`` for the journal's path (`EWOULDBLOCK`, with a reason to
    ///   print) when the interrupted switch's programs are still running after
    ///   `waitingMilliseconds`; the journal is then kept and nothing is changed.
    private func recoverLocked(waitingMilliseconds: Int) throws(StateError) -> String? {
        guard access(files.journal, F_OK) == 0 else { return nil }
        guard let journal = RecordFile.read(SwitchJournal.self, at: files.journal) else {
            RecordFile.remove(files.journal)
            return "an interrupted switch left a journal that could not be read; it was removed (check `perch status`)"
        }
        let state = (try? store.readForUpdate()) ?? SavedState()
        let from = journal.from ?? "no account"
        if state.lastSwitch == journal.id {
            try? RecordFile.write(UndoRecord(from: journal.from, to: journal.to, time: journal.time, tools: journal.tools), to: files.undo)
            RecordFile.remove(files.journal)
            return "the interrupted switch from \(from) to \(journal.to) had been recorded; it is complete"
        }
        var context = self.context
        do {
            context.journalLock = try FileSystem.openLocked(files.journal, timeoutMilliseconds: waitingMilliseconds)
        } catch {
            guard error.code == EWOULDBLOCK else { throw .file(error) }
            throw .file(
                FileError(
                    path: files.journal, code: EWOULDBLOCK, operation: "recover",
                    reason: "the interrupted switch from \(from) to \(journal.to) is still finishing: programs it started are running "
                        + "(waited \(waitingMilliseconds) ms); nothing was changed, and it will be rolled back once they have ended"))
        }
        defer { if let lock = context.journalLock { close(lock) } }
        // The session's own roll-back, each tool back to the journal's before-state.
        let known = journal.tools.compactMap { entry in ToolAdapters.adapter(for: entry.tool).map { (adapter: $0, before: entry.before) } }
        let backs = Self.putBack(known, in: context)
        RecordFile.remove(files.journal)
        let tools = journal.tools.map(\.tool.rawValue).joined(separator: ", ")
        var failures: [String] = []
        for entry in journal.tools {
            guard let index = known.firstIndex(where: { $0.adapter.tool == entry.tool }) else {
                failures.append("\(entry.tool.rawValue) (unknown tool)")
                continue
            }
            if case .failed(let why)? = backs[index].step { failures.append("\(entry.tool.rawValue) (\(why))") }
        }
        let told = failures.isEmpty ? "" : "; could not put back: " + failures.joined(separator: ", ")
        return "an interrupted switch from \(from) to \(journal.to) was rolled back"
            + (tools.isEmpty ? "" : " (\(tools) as on \(from))") + "; still on \(state.currentAccount ?? "no account")" + told
    }

    // MARK: Undo and reset

    /// The last switch's record (for `perch undo`), or nil when there is none.
    public var undoRecord: UndoRecord? { RecordFile.read(UndoRecord.self, at: files.undo) }

    /// The tools Perch changed and their baselines.
    public var baseline: ToolBaseline { RecordFile.read(ToolBaseline.self, at: files.baseline) ?? ToolBaseline() }

    // MARK: Results file

    /// Keeps `report` in Perch's results file (atomically), with the time, for `perch status`
    /// and Overview.
    public func recordReport(_ report: IdentityReport) {
        IdentitySwitcher(context: context).record(report)
    }
}

extension SwitchSession {
    /// What `adapter`'s tool should have for `account`: what the account asks of it, else (for a
    /// tool that keeps one, see ``ToolAdapter/keepsBaseline``) the user's own from `baseline`;
    /// nil when the tool is left as it is. The one rule a switch and its dry run share.
    static func wantedState(_ adapter: any ToolAdapter, for account: Account, baseline: ToolBaseline, in context: ToolContext)
        -> (state: ToolState, fromBaseline: Bool)?
    {
        if let wanted = adapter.wanted(account.identities[adapter.tool], account: account, in: context) { return (wanted, false) }
        guard adapter.keepsBaseline, let kept = baseline.tools[adapter.tool.rawValue] else { return nil }
        return (kept, true)
    }
}

extension ToolState {
    /// These values, with `other`'s for keys this one does not name (for describing a wanted
    /// state with what the tool has besides).
    func merging(_ other: ToolState) -> ToolState {
        ToolState(values.merging(other.values) { mine, _ in mine })
    }
}
