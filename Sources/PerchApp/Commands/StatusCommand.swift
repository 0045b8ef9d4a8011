import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch status`: each tool's identity against the current account.
struct StatusCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "status", summary: "show each tool's identity against the current account (exit 1 on drift)",
        recoversInterruptedSwitch: false)
    static let details: String =
        "For each tool the current account names, what the tool uses here: ✓ when it is the\n"
        + "account's, ✗ when it failed when applied (with the error), changed since (drift:\n"
        + "kubectl config use-context by hand, a variable such as AWS_DEFAULT_PROFILE that beats\n"
        + "the selection) or not in effect (the last switch did not set it: skipped, or named in\n"
        + "the config after it), – when it cannot be checked here or a rule of yours (git's\n"
        + "includeIf) wins in this folder. Then the results of the last switch. Exit status 1\n"
        + "when a tool drifted or failed or no account is current. --files lists the files Perch\n"
        + "writes for tools instead. --json prints {\"account\", \"checks\", \"lastSwitch\"}."

    var files = FileOptions()
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--files`.
    @Option(.flag("--files", help: "list the files Perch writes for tool identities")) var listFiles = false
    /// `--global`: the global account, not this shell's own.
    @Option(SharedOption.global) var global = false

    func run(_ tool: CommandLineTool) -> Int32 { tool.status(self) }
}

extension CommandLineTool {
    // MARK: perch status

    func status(_ options: StatusCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let pending = pendingSwitch()
        let switcher = switcher(config)
        if options.listFiles {
            let files = switcher.files.all
            if options.json { return printJSON(files.map { FileJSON(path: $0, exists: access($0, F_OK) == 0) }) }
            for file in files { console.print(shown(file) + (access(file, F_OK) == 0 ? "" : "  (not written yet)")) }
            return ExitStatus.ok
        }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        let variables = IdentityEnvironment.current().variables
        let scope = options.global ? nil : IdentityScope.kind(variables)
        // In a shell with an account of its own, that account is checked, in this shell's scope.
        let own = scope.flatMap { _ in variables[ShellExports.accountVariable] }
        guard let id = own ?? state.currentAccount, let account = config.accounts.first(where: { $0.id == id }) else {
            console.error(
                own.map { "this shell's account '\(shown($0))' is not in the config; perch use --global follows the global one" }
                    ?? "no account chosen yet; pick one with `perch switch ID` or in the interface")
            return ExitStatus.unmet
        }
        var checks = (scope == nil ? switcher : self.switcher(config, scoped: true)).check(account)
        // Another account's variables left behind (a scope or an .envrc not handed back).
        checks += switcher.leakedChecks(account, among: config.accounts)
        // Bug: after a switch that could not give a tool back (its program not on that PATH,
        // --keep-going), status showed nothing for it, all green, while it kept the other account's.
        if scope == nil { checks += switcher.leftBehindChecks(account) }
        if scope != nil {
            // The tools the account names nothing for: sealed on the user's own.
            checks += self.switcher(config, scoped: true).sealedChecks(account)
            // A scope gives gh a token for gh alone (a function in a shell), which no file shows.
            for index in checks.indices where checks[index].tool == .gh {
                checks[index].matches = nil
                checks[index].actual = nil
                checks[index].note = "this shell's gh gets the account's token from perch (gh auth token); gh auth status shows whose"
            }
        }
        let home = IdentityEnvironment(variables: variables).home
        let rule = PlaceOwner.boundRule(ShellMarker.workingDirectory(), in: DirectoryRules.rules(config.accounts, home: home))
        // Bug: in a bound folder (outside a hooked shell) git's line named the global account's
        // identity, though git uses the folder's account's here, or your own rule's where it wins.
        if scope == nil, let rule, rule.account != account.id,
            let owner = config.accounts.first(where: { $0.id == rule.account }), owner.identities[.git] != nil,
            let index = checks.firstIndex(where: { $0.tool == .git }) ?? (account.identities[.git] == nil ? checks.endIndex : nil)
        {
            // git itself, asked here as verify asks it (git var GIT_AUTHOR_IDENT in this folder).
            let proof = ProofContext(tool: switcher.context, folder: ShellMarker.workingDirectory(), account: owner)
            let answers = IdentityProof.verify(proof, online: false, adapters: ToolAdapters.registry.filter { $0.tool == .git })
            if let answer = answers.first(where: { $0.tool == "git" }) {
                let check = IdentityCheck(
                    tool: .git, expected: "\(owner.id)'s (this folder's): " + answer.expected, actual: answer.answer,
                    matches: answer.verdict == .agrees ? true : answer.verdict == .disagrees ? false : nil,
                    note: answer.verdict == .agrees
                        ? nil
                        : [answer.answer.map { "git uses \($0)" }, answer.reason, answer.fix.map { "fix: " + $0 }].compactMap { $0 }.joined(
                            separator: "; "))
                if index == checks.endIndex { checks.append(check) } else { checks[index] = check }
            }
        }
        let last = switcher.lastReport().flatMap { $0.report.accountID == account.id ? $0 : nil }
        let drift = IdentitySwitcher.hasDrift(checks)
        let origins = registryOrigins(of: account.id)
        let onTheirWay =
            pending.map { switcher.session(store: StateStore(path: paths.state), source: .cli).toolsOnTheirWay($0.journal) } ?? []
        if options.json {
            let json = StatusJSON(
                account: account.id, drift: drift, checks: checks,
                lastSwitch: last.map { LastSwitchJSON(time: $0.time, results: $0.report.results) },
                switching: pending.map {
                    StatusJSON.PendingJSON(to: $0.journal.to, interrupted: $0.isFinishing, onTheirWay: onTheirWay.map(\.rawValue))
                },
                registries: origins.isEmpty
                    ? nil
                    : origins.map {
                        StatusJSON.OriginJSON(name: $0.record.name, commit: $0.record.commit, ref: $0.record.ref, codeInert: $0.inert)
                    })
            let status = printJSON(json)
            return status == ExitStatus.ok && drift ? ExitStatus.unmet : status
        }
        if let scope {
            let how =
                switch scope {
                case .pinned: "pinned by perch use"
                case .exec: "given by perch exec"
                case .directory: "bound folder \(rule.map { shown($0.written) } ?? "")"
                }
            console.print("This shell: \(describe(account)) (\(how); the global account is \(state.currentAccount.map(shown) ?? "none"))")
        } else {
            console.print("Current: \(describe(account))")
        }
        for origin in origins {
            let inert = origin.inert ? "; its code is inert until perch registry trust \(origin.record.name)" : ""
            console.print(
                "From: registry \(origin.record.name) at \(origin.record.shortCommit) (\(shown(origin.record.ref ?? "default branch")), "
                    + "fetched \(LocalTime.describe(seconds: origin.record.fetched)))\(inert)")
        }
        if let pending {
            // The checks below are the committed account's: a tool already changed shows ✗ until the switch is recorded.
            let waiting =
                onTheirWay.isEmpty ? "every tool has changed" : onTheirWay.map(\.rawValue).joined(separator: ", ") + " on their way"
            console.print("Switching: \(Self.pendingNote(pending, shown: shown)); \(waiting)")
        }
        if let rule, scope == nil || scope == .directory {
            let git =
                GitDirectoryRules.isIncluded(in: switcher.context) == true
                ? "git uses it here (Perch's includeIf rules)" : "git will use it here once perch setup git has been run"
            console.print("Folder: \(shown(rule.written)) is bound to \(shown(rule.account)) (its \"directories\"); \(git)")
        } else if let rule {
            console.print("Folder: \(shown(rule.written)) is bound to \(shown(rule.account)), but this shell's own account comes first")
        } else if config.accounts.contains(where: { !$0.identities.remotes.isEmpty }),
            let place = PlaceOwner.find(
                in: config.accounts, global: nil, environment: [:], folder: ShellMarker.workingDirectory(), home: home,
                aliases: SSHAliases.load(switcher.files)?.aliases ?? [:]),
            case .remote(let pattern) = place.reason
        {
            let git =
                GitDirectoryRules.isIncluded(in: switcher.context) == true
                ? "git uses it here (Perch's includeIf rules)" : "git will use it here once perch setup git has been run"
            let order = scope == nil || scope == .directory ? "" : ", but this shell's own account comes first"
            console.print("Repository: chosen by remote \(shown(pattern)): \(shown(place.account)) (its \"remotes\"); \(git)\(order)")
        }
        if checks.isEmpty { console.print("  no tool identities (see docs/identities.md)") }
        let width = checks.map { $0.tool.rawValue.count }.max() ?? 0
        var failedWhenApplied = false
        for check in checks {
            let tool = check.tool.rawValue + String(repeating: " ", count: width - check.tool.rawValue.count)
            var text = "  \(check.mark) \(tool)  "
            let failure = last?.report.results.first { $0.tool == check.tool && $0.status == .failed }
            switch check.matches {
            case true?: text += check.expected
            case false? where check.actual == check.expected:
                // Bug: "changed since: tool reports X" where X is what was expected (a dead agent,
                // an ended certificate): the name is right, what is wrong is the note's.
                text += "\(check.expected), but it does not work here"
            case false? where failure != nil:
                failedWhenApplied = true
                text += "expected \(check.expected): failed when applied (\(failure!.detail)); tool reports \(check.actual ?? "nothing")"
            case false?:
                // "Changed since" only when the last switch set it; otherwise it never took effect
                // (the tool was skipped, or named in the config after that switch).
                let wasSet = last?.report.results.contains { $0.tool == check.tool && [.applied, .unchanged].contains($0.status) } ?? false
                text +=
                    "expected \(check.expected), \(wasSet ? "changed since" : "not in effect"): tool reports \(check.actual ?? "nothing")"
            case nil: text += check.expected
            }
            if let note = check.note { text += "  (\(note))" }
            console.print(shown(text))
        }
        if account.identities[.git] != nil || access(switcher.files.gitGuard, F_OK) == 0 {
            // Bug (guard issue): a repository's own core.hooksPath (husky's), or another hook
            // manager's hook written over the guard's, kept the guard from running while this
            // line said "in place".
            // The summary may name a repository's own core.hooksPath: data, shown with its controls visible.
            console.print(shown("Guard: " + GitGuard.report(in: switcher.context, folder: ShellMarker.workingDirectory()).summary))
        }
        // The ssh aliases git's remote rules were written for, when the ssh config changed since.
        if config.accounts.contains(where: { !$0.identities.remotes.isEmpty }), SSHAliases.load(switcher.files)?.stale == true {
            console.print(
                "Remotes: your ssh config (\(shown(switcher.files.userSSHConfig))) changed since Perch wrote git's rules for its host aliases: perch setup git writes them again"
            )
        }
        // Bug: with no tool, "Last applied TIME:" was printed with nothing after it.
        if let last, !last.report.results.isEmpty {
            console.print("Last applied \(last.time):")
            for result in last.report.results { console.print("  " + shown(result.summary)) }
        }
        if failedWhenApplied {
            console.error(
                "a tool failed when the switch was applied (kept with --keep-going); fix what its error says, then `perch switch \(account.id)`"
            )
        } else if drift {
            // Bug: the summary offered a switch even where each note named another fix (`run
            // perch setup git`), and the switch then said every tool had its identity.
            let fixes = checks.filter { $0.matches == false }.map(\.fix)
            let named = Array(Set(fixes.compactMap { $0 })).sorted()
            console.error(
                fixes.allSatisfy { $0 != nil }
                    ? "drift: a tool does not use the account's identity; " + named.map { "`\($0)`" }.joined(separator: " and ")
                        + " puts it right (see each note)"
                    : "drift: a tool no longer uses the account's identity; `perch switch \(account.id)` puts right what changed (see each note)"
            )
        }
        return drift ? ExitStatus.unmet : ExitStatus.ok
    }
}

private struct FileJSON: Encodable {
    var path: String
    var exists: Bool
}

private struct LastSwitchJSON: Encodable {
    var time: String
    var results: [IdentityResult]
}

/// `perch status --json`: the current account, whether a tool drifted, each check, and the
/// results of the last switch to it.
private struct StatusJSON: Encodable {
    var account: String
    var drift: Bool
    var checks: [IdentityCheck]
    var lastSwitch: LastSwitchJSON?
    /// A switch not yet committed, with the tools it has not reached (encoded only when there is one).
    var switching: PendingJSON?
    /// The registries the account comes from (encoded only when there is one).
    var registries: [OriginJSON]?

    struct OriginJSON: Encodable {
        var name: String
        var commit: String
        var ref: String?
        /// Whether its code for the account was left out (not trusted).
        var codeInert: Bool
    }

    struct PendingJSON: Encodable {
        var to: String
        var interrupted: Bool
        var onTheirWay: [String]
    }
}
