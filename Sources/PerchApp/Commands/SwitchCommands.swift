import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// How a switch runs (``CommandLineTool/perform(_:config:)``).
struct SwitchSettings: Hashable, Sendable {
    /// `--dry-run`: print what would change and change nothing.
    @Option(.flag("--dry-run", help: "print what would change, tool by tool, and change nothing")) var dryRun = false
    /// `--force`: apply every tool identity again, not only those that drifted.
    @Option(.flag("--force", help: "apply every tool identity again, not only those that drifted")) var force = false
    /// `--keep-going`: keep a partial switch when a tool fails.
    @Option(SharedOption.keepGoing) var keepGoing = false
}

/// `perch switch ID`, `perch -`, a pick in the inline picker, `perch undo` and `perch reset`:
/// each runs the one ``SwitchSession`` and prints what it did, tool by tool.
extension CommandLineTool {
    /// Puts right a switch left half done by a process killed meanwhile, and says so in one line.
    func recoverInterruptedSwitch() {
        // Nothing else first: every command, `perch current` in each prompt included, comes here.
        guard access(IdentityFiles.journal(besideState: paths.state), F_OK) == 0 else { return }
        let switcher = switcher(nil)
        let session = switcher.session(store: StateStore(path: paths.state), source: .cli)
        if let message = session.recoverInterrupted(waitingMilliseconds: session.lockTimeout) { console.error(shown(message)) }
    }

    /// For the commands a prompt runs: an interrupted switch put right at once when nothing it
    /// started still runs (said in one line), else the switch under way or still finishing,
    /// without waiting for either.
    func pendingSwitch() -> SwitchSession.Pending? {
        guard access(IdentityFiles.journal(besideState: paths.state), F_OK) == 0 else { return nil }
        let session = switcher(nil).session(store: StateStore(path: paths.state), source: .cli)
        let (message, pending) = session.recoverWithoutWaiting()
        if let message { console.error(shown(message)) }
        return pending
    }

    /// `switching to ID`, or for a killed switch whose programs still run, what happens to it.
    static func pendingNote(_ pending: SwitchSession.Pending, shown: (String) -> String) -> String {
        switch pending {
        case .underWay(let journal): "switching to \(shown(journal.to))"
        case .finishing(let journal): "an interrupted switch to \(shown(journal.to)) is rolled back once its programs end"
        }
    }

    func runSession(to account: Account, target: SwitchSession.Target, config: LoadedConfig, verb: String) -> Int32 {
        refreshGitDirectoryRules(config)
        let switcher = switcher(config)
        let session = switcher.session(
            store: StateStore(path: paths.state), source: .cli, force: switching.force, keepGoing: switching.keepGoing)
        let result: SwitchSession.Result
        do {
            result = try session.run(to: account, target: target)
        } catch {
            console.error("could not save the switch: \(error)")
            return ExitStatus.unmet
        }
        if let message = result.recovered { console.error(shown(message)) }
        if let warning = result.outcome?.warning { console.error(warning) }
        let before = result.outcome?.previous.flatMap { id in config.accounts.first { $0.id == id } }
        guard let outcome = result.outcome else {
            // Rolled back: nothing changed.
            let putBack = result.report.results.contains { $0.status == .rolledBack }
            console.error(
                "could not switch to \(account.id): \(result.failure ?? "a tool failed"); "
                    + (putBack ? "every tool it had changed was put back" : "no tool was changed"))
            for line in result.report.results where !line.summary.isEmpty { console.note("  " + shown(line.summary)) }
            let stay = StateStore(path: paths.state)
            let current = (try? stay.peek())?.state.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
            console.note(current.map { "Still on \(describe($0))." } ?? "Still on no account.")
            return ExitStatus.toolFailed
        }
        var report = result.report
        if outcome.changed {
            console.print("\(verb) \(describe(account))" + (before.map { ", was \(describe($0))" } ?? "") + ".")
        } else if result.changedTools {
            console.print(
                "Already on \(describe(account)); "
                    + (switching.force ? "applied its tool identities again." : "put right what had changed:"))
        } else {
            // Bug: "every tool has its identity" was said while git used none (its include taken
            // out by `perch setup git --undo`): nothing to write is not every tool in place. The
            // tools are asked, as `perch status` asks them.
            let drifting = report.results.isEmpty ? [] : switcher.check(account).filter { $0.matches == false }
            if drifting.isEmpty {
                console.print(
                    "Already on \(describe(account)); nothing changed" + (report.results.isEmpty ? "." : ", every tool has its identity."))
            } else {
                console.print("Already on \(describe(account)); nothing changed, but not every tool uses its identity:")
                for check in drifting {
                    console.print(
                        shown(
                            "  \(check.tool.rawValue): expected \(check.expected), tool reports \(check.actual ?? "nothing")"
                                + (check.note.map { "  (\($0))" } ?? "")))
                }
            }
        }
        // A registry's code for the account that is not trusted was left out: said, never silent.
        for note in registryInertNotes(for: account.id) { console.note(shown(note)) }
        report = offerSetup(report, switcher)
        // Per-shell tools change nothing here (perch env does): they are recorded, not printed.
        let perShell = Set(ToolAdapters.registry.filter(\.isPerShell).map(\.tool))
        // But one that cannot work (an AWS profile that does not exist) is said, on stderr.
        for line in report.results where !perShell.contains(line.tool) || line.status == .skipped {
            if !outcome.changed, !result.changedTools, line.status == .unchanged { continue }
            let text = "  " + shown(line.summary)
            if line.status == .failed || perShell.contains(line.tool) { console.note(text) } else { console.print(text) }
        }
        // A variable of this shell that beats a tool just applied (GH_TOKEN, CLOUDSDK_ACTIVE_CONFIG_NAME…):
        // the tool is switched, but not for this shell; said as status says it.
        let environment = processVariables
        // Bug (guard issue, item 7): in a shell pinned by perch use, the seal its scope set
        // (CLOUDSDK_ACTIVE_CONFIG_NAME of your own configuration) was reported as beating the
        // switch, with `unset` as the fix, which would give the pinned shell the global account.
        // A value the shell's own scope set is the pin working, said by the line below.
        let scopeSet = environment[IdentityScope.setVariable].flatMap(IdentityScope.decode) ?? [:]
        for result in report.results where result.succeeded && !perShell.contains(result.tool) {
            guard let adapter = ToolAdapters.adapter(for: result.tool) else { continue }
            // A scope's own GIT_SSH_COMMAND (perch exec, perch use) is not something beating it.
            let beating = adapter.overrides.filter {
                !(environment[$0.name] ?? "").isEmpty && !(environment[IdentityScope.scopeVariable] != nil && $0.name == "GIT_SSH_COMMAND")
                    && scopeSet[$0.name] != .some(environment[$0.name])
            }
            guard !beating.isEmpty else { continue }
            let shownNames = beating.map { "\($0.name)=\(EnvironmentEntry.shown($0.name, environment[$0.name] ?? ""))" }.joined(
                separator: ", ")
            console.error(
                "\(result.tool.rawValue): switched, but \(shownNames) in this shell beats it here (\(beating[0].reason)); unset \(beating.map(\.name).joined(separator: " "))"
            )
        }
        // A session that has ended (kube's certificate, AWS's SSO session): the switch stands, and
        // says so with the command that renews it; the exit status is unchanged.
        if !switcher.samplesOnly {
            let now = SessionExpiries.now()
            for end in SessionExpiries.read(account, in: switcher.context) where end.hasEnded(at: now) {
                console.error(
                    "\(end.tool.rawValue): \(end.phrase(at: now)) (\(end.endsText))" + (end.renew.map { "; renew it: \($0)" } ?? ""))
            }
        }
        // A shell pinned by perch use (or a command of perch exec) keeps its own account.
        if let scope = PerchPaths.environment(IdentityScope.scopeVariable).flatMap(ScopeKind.init(rawValue:)), scope != .directory,
            let own = PerchPaths.environment(ShellExports.accountVariable), own != account.id
        {
            console.error(
                "this shell stays on \(shown(own)) (\(scope == .pinned ? "perch use --global follows the global account" : "perch exec gave it"))"
            )
        }
        var status = ExitStatus.ok
        if let failure = result.failure {
            let kept = report.results.filter(\.succeeded).map(\.tool.rawValue).joined(separator: ", ")
            console.error(
                "the switch to \(account.id) is kept with --keep-going, but \(failure); on the new account: \(kept.isEmpty ? "no tool" : kept)"
            )
            status = ExitStatus.toolFailed
        }
        guard outcome.changed, let command = account.onSwitch else { return status }
        let hook = HookProcess.run(command, account: account, previous: outcome.previous)
        guard let failure = hook.failure else { return status }
        console.error("the switch to \(account.id) is saved, but its onSwitch hook \(failure)")
        return ExitStatus.hookFailed
    }
}
