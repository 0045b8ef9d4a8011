import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch switch`: to an account by id or name, to the previous one (`perch -`), or to one
/// picked in the inline picker.
struct SwitchCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "switch", summary: "switch to an account by id or name; - for the previous; none: pick",
        operands: [Operand(name: "ID-OR-NAME|-", optional: true, completion: .account)], recoversInterruptedSwitch: false,
        shorthand: "-")
    /// The tools named from the registry (``ToolLists``).
    static var details: String {
        "The account is its exact id, or its name when exactly one name matches it\n"
            + "(ignoring case); - is the account that was current before (two in a row swap).\n"
            + "With no account, on a terminal, the account sheet is drawn below the prompt to\n"
            + "pick from (type to filter, arrows, Enter, the mouse; Esc exits 1, Ctrl-C 130).\n"
            + ("The account's tool identities are applied (\(ToolLists.toolNames)), "
            + "then the switch is saved and its onSwitch hook runs with its output passed through. "
            + "A failed tool exits 3 and saves nothing (every tool it changed is put back; "
            + "--keep-going saves the switch without it); a failed hook exits 3 after the switch "
            + "is saved. A closed output pipe ends only the printing: the hook still runs, then the "
            + "exit status is 141.").wrapped(toColumns: 80) + "\n"
            + "--dry-run prints what would change, tool by tool, and changes nothing; --force\n"
            + "applies the identities again when the account is already current.\n"
            + "Exit status 1 for an unknown or ambiguous account (with the nearest ones\n"
            + "suggested, never switched to) or no previous account."
    }

    var files = FileOptions()
    /// The account as given (`-` for the previous one); nil: pick one.
    var account: String?
    /// `--height N` of the picker, in rows.
    @Option(SharedOption.height) var height: Int? = nil
    /// `--dry-run`, `--force`, `--keep-going`.
    var switching = SwitchSettings()

    mutating func bind(operands: [String]) { account = operands.first }

    func run(_ tool: CommandLineTool) -> Int32 {
        let tool = tool.with(switching: switching)
        return account.map(tool.switchAccount) ?? tool.pickAndSwitch(height: height)
    }
}

/// How a switch runs (``CommandLineTool/perform(_:config:)``).
struct SwitchSettings: Hashable, Sendable {
    /// `--dry-run`: print what would change and change nothing.
    @Option(.flag("--dry-run", help: "print what would change, tool by tool, and change nothing")) var dryRun = false
    /// `--force`: apply every tool identity again, not only those that drifted.
    @Option(.flag("--force", help: "apply every tool identity again, not only those that drifted")) var force = false
    /// `--keep-going`: keep a partial switch when a tool fails.
    @Option(SharedOption.keepGoing) var keepGoing = false
}

/// `perch undo`: back to the account and tool states from before the last switch.
struct UndoCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "undo", summary: "bring back the account and every tool's state from before the last switch")
    static let details: String =
        "Switches back to the account before the last switch and gives each tool the state\n"
        + "it had then (recorded when the switch was made). It is a switch itself, so a second\n"
        + "perch undo redoes. Exit status 1 when there is nothing to undo, 3 when a tool fails\n"
        + "(every tool is then left as it was). It first says which switch it undoes; only\n"
        + "switches are undone (an account removed since stays removed)."
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.undo() }
}

/// `perch reset`: every tool's baseline back, and what `perch setup` added removed.
struct ResetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "reset", summary: "give every tool back what it had before Perch, and remove what setup added")
    static let details: String =
        "The first time Perch changes a tool it records what the tool had (its baseline):\n"
        + "gcloud's configuration, kube's context, gh's user, docker's context. perch reset gives\n"
        + "each one back, empties Perch's own git and ssh files and removes the includes\n"
        + "perch setup added. It is a switch session of its own: journalled, each tool checked,\n"
        + "all or nothing. A tool that fails puts every tool back, keeps the baseline and the\n"
        + "account, and exits 3. Asks first on a terminal; --yes gives consent without asking."
    var files = FileOptions()
    /// `--yes`: consent given here.
    @Option(SharedOption.yes) var yes = false
    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).reset() }
}

/// `perch switch ID`, `perch -`, a pick in the inline picker, `perch undo` and `perch reset`:
/// each runs the one ``SwitchSession`` and prints what it did, tool by tool.
extension CommandLineTool {
    /// Switches to `account` (or re-applies what drifted when it is current); prints what
    /// changed and runs its hook; returns the exit status.
    func perform(_ account: Account, config: LoadedConfig) -> Int32 {
        if switching.dryRun {  // picked in the inline picker with --dry-run
            guard let state = loadState(config) else { return ExitStatus.unmet }
            return dryRun(to: account, state: state, config: config)
        }
        return runSession(to: account, target: .account, config: config, verb: "Switched to")
    }

    func switchAccount(_ text: String) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        // The state is repaired (a corrupt file set aside, an unknown current account cleared)
        // only once the account is known: a switch that fails (a typo, another config) changes
        // nothing. A dry run changes nothing at all.
        let repair = !switching.dryRun
        if text == "-" {
            guard let peeked = loadState(config), let account = previousAccount(config, state: peeked),
                let state = repair ? loadState(config, repair: true) : peeked
            else { return ExitStatus.unmet }
            if switching.dryRun { return dryRun(to: account, state: state, config: config) }
            return perform(account, config: config)
        }
        guard let account = lookupAccount(text, in: config) else { return ExitStatus.unmet }
        guard let state = loadState(config, repair: repair) else { return ExitStatus.unmet }
        if switching.dryRun { return dryRun(to: account, state: state, config: config) }
        return perform(account, config: config)
    }

    /// `perch undo`: back to the account and tool states from before the last switch.
    func undo() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let switcher = switcher(config)
        let session = switcher.session(store: StateStore(path: paths.state), source: .cli)
        guard let record = session.undoRecord else {
            console.error("nothing to undo: no switch has been recorded with this state file yet")
            return ExitStatus.unmet
        }
        guard let from = record.from else {
            console.error("nothing to undo: the last switch (to \(shown(record.to))) was the first; there was no account before it")
            return ExitStatus.unmet
        }
        guard let account = config.accounts.first(where: { $0.id == from }) else {
            console.error("cannot undo: the account before the last switch, '\(shown(from))', is no longer in the config")
            return ExitStatus.unmet
        }
        // Said before it is done (bug: after `perch remove`, undo undid the switch before the
        // removal without a word, as if it undid the removal).
        let removed = config.accounts.contains { $0.id == record.to } ? "" : "; \(shown(record.to)) was removed since, and stays removed"
        console.print("Undoing the last switch, \(shown(from)) → \(shown(record.to)) at \(record.time)\(removed).")
        let states = Dictionary(record.tools.map { ($0.tool, $0.before) }, uniquingKeysWith: { first, _ in first })
        return runSession(to: account, target: .states(states), config: config, verb: "Undone: back to")
    }

    /// `perch reset` (and `perch setup --undo` with no tool): every baseline back, Perch's own
    /// files emptied, the includes removed.
    func reset() -> Int32 {
        // Bug (review): with a described tool's description refused or faulty, reset skipped the
        // tool, said every tool was as before and forgot the baseline it had kept of it.
        let problems = ToolAdapters.descriptionProblems
        if !problems.isEmpty {
            for line in problems { console.error(line) }
            console.error("perch reset needs every tool Perch changed: fix or remove the description (docs/tools.md), then run it again")
            return ExitStatus.usage
        }
        let switcher = switcher(loadConfigQuietly())
        let what =
            "give every tool back what it had before Perch, empty its own git and ssh files, and remove the includes perch setup added"
        guard consent("perch reset", would: what) else { return ExitStatus.unmet }
        let session = switcher.session(store: StateStore(path: paths.state), source: .cli)
        // Bug (review): a baseline of a described tool whose description was gone (moved,
        // renamed) was dropped as a tool "this Perch does not know", and the user's own value
        // with it. Kept until the description is back.
        let unknown = session.baseline.tools.keys.filter { ToolAdapters.adapter(for: IdentityTool($0)) == nil }.sorted()
        if !unknown.isEmpty {
            console.error(
                "perch reset would give back \(unknown.joined(separator: ", ")), which no tool of this Perch knows now (a description moved or removed?): put its description back in \(PerchPaths.tilde(ToolDescriptions.folder(), home: PerchPaths.environment("HOME") ?? "")) (docs/tools.md) and run it again; what it would give back is kept"
            )
            return ExitStatus.usage
        }
        let result: SwitchSession.Result
        do {
            result = try session.restoreBaselines()
        } catch {
            console.error("cannot reset: \(error)")
            return ExitStatus.unmet
        }
        if let message = result.recovered { console.error(shown(message)) }
        let results = result.report.results
        guard result.outcome != nil else {
            // Rolled back, as a failed switch is: every tool as it was, the includes and the account kept.
            let putBack = results.contains { $0.status == .rolledBack }
            console.error(
                "could not reset: \(result.failure ?? "a tool failed"); "
                    + (putBack ? "every tool it had given back was put back" : "no tool was changed"))
            for line in results where !line.summary.isEmpty { console.note("  " + shown(line.summary)) }
            return ExitStatus.toolFailed
        }
        var failed = false
        for result in results {
            console.print("  " + shown(result.summary))
            failed = failed || result.status == .failed
        }
        for tool in [IdentityTool.git, .ssh] {
            switch IdentitySetup.run(tool, undo: true, switcher) {
            case .changed(let message): console.print("  \(tool.rawValue): " + shown(message))
            case .unchanged: break
            case .failed(let message):
                console.error("perch setup \(tool.rawValue) --undo: \(message)")
                failed = true
            }
        }
        for file in [switcher.files.gitInclude, switcher.files.sshInclude] { _ = unlink(file) }
        console.print(results.isEmpty ? "Perch had changed no tool; its includes are gone." : "Every tool is as it was before Perch.")
        // The tools are your own: no account is current, so no prompt names one they no longer use.
        do {
            if let was = try StateStore(path: paths.state).clearCurrentAccount() {
                console.print("No account is current (it was \(shown(was))); perch switch ID makes one current again.")
            }
        } catch {
            console.error("the tools are your own, but the state still names an account: \(error)")
            failed = true
        }
        return failed ? ExitStatus.toolFailed : ExitStatus.ok
    }

    /// The config, or nil (reset needs none: the files are Perch's own).
    private func loadConfigQuietly() -> LoadedConfig? { try? ConfigLoader.load(paths) }

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

    private func runSession(to account: Account, target: SwitchSession.Target, config: LoadedConfig, verb: String) -> Int32 {
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
