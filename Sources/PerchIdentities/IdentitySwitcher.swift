import FoundationEssentials
import Glibc
import PerchDomain
import PerchStore

/// An account's tool identities for one environment: what each tool uses now beside what the
/// account asks (`perch status`, Overview), what a switch would change (`--dry-run`), the
/// results of the last switch, and the ``SwitchSession`` that applies them. Every tool is
/// reached through its adapter (``ToolAdapters/registry``).
public struct IdentitySwitcher: Sendable {
    public var context: ToolContext
    /// Whether the accounts are the embedded samples (no config): then nothing but Perch's own
    /// results file is written and no program is started, whatever the accounts say.
    public var samplesOnly: Bool

    public init(environment: IdentityEnvironment, timeout: Int64 = ProgramRunner.defaultTimeoutMilliseconds, samplesOnly: Bool = false) {
        self.context = ToolContext(environment: environment, timeout: timeout)
        self.samplesOnly = samplesOnly
    }

    public init(context: ToolContext, samplesOnly: Bool = false) {
        self.context = context
        self.samplesOnly = samplesOnly
    }

    public var environment: IdentityEnvironment { context.environment }
    public var timeout: Int64 { context.timeout }
    public var files: IdentityFiles { context.files }

    /// The switch session for this environment and `store`.
    public func session(
        store: StateStore, source: SwitchSource, lockTimeout: Int = 2000, force: Bool = false, keepGoing: Bool = false
    ) -> SwitchSession {
        SwitchSession(
            store: store, context: context, samplesOnly: samplesOnly, source: source, lockTimeout: lockTimeout, force: force,
            keepGoing: keepGoing)
    }

    // MARK: Checking (perch status, Overview)

    /// What each tool of `account` uses now, in this environment, beside what the account
    /// expects, in registry order (the tools checked at once).
    public func check(_ account: Account) -> [IdentityCheck] {
        let context = self.context
        return Parallel.map(account.identities.tools.map { tool in { @Sendable in Self.check(tool, of: account, in: context) } })
    }

    /// What `tool` uses now for `account` (see ``check(_:)``); for one row of a list.
    public func check(_ tool: IdentityTool, of account: Account) -> IdentityCheck {
        Self.check(tool, of: account, in: context)
    }

    static func check(_ tool: IdentityTool, of account: Account, in context: ToolContext) -> IdentityCheck {
        guard let setting = account.identities[tool], let adapter = ToolAdapters.adapter(for: tool) else {
            return IdentityCheck(tool: tool, expected: "", actual: nil, matches: nil, note: "no \(tool.rawValue) identity")
        }
        let check = adapter.check(setting, in: context)
        // When its credentials end, read where the tool keeps it (kube's certificate, AWS's SSO
        // session, a described tool's "expiry"). Bug (tools described as data): perch status did
        // not say that a described tool's session had ended: only kube's and aws's were read.
        guard SessionExpiries.isRead(for: tool) else { return check }
        return SessionExpiries.annotated(check, SessionExpiries.read(account, tool: tool, in: context), now: SessionExpiries.now())
    }

    /// For Overview: a per-shell tool's line when its credentials end (AWS's SSO session or
    /// temporary credentials), read where the tool keeps them; nil when nothing is recorded
    /// (the line says "per shell" as before). Not checked (–), with the end in its note, marked
    /// `⚠` when near, and ✗ with the command that renews it once ended
    /// (``SessionExpiries/annotated(_:_:now:)``): the interface's own environment is not the
    /// shell's, so the tool itself is not asked.
    // Bug (expiry issue): Overview never showed AWS expiry, which status, verify and switch did.
    public func perShellCheck(_ tool: IdentityTool, of account: Account, now: Int64 = SessionExpiries.now()) -> IdentityCheck? {
        guard account.identities[tool]?.isPerShell == true else { return nil }
        let ends = SessionExpiries.read(account, tool: tool, in: context)
        guard !ends.isEmpty else { return nil }
        let expected = account.identities.expected(tool)
        // The end alone in the note (not "per shell (perch env)"), so the renewing command fits 100 columns.
        let check = IdentityCheck(tool: tool, expected: expected, actual: expected, matches: nil)
        return SessionExpiries.annotated(check, ends, now: now)
    }

    /// In a scope (this environment's): what each tool `account` names nothing for uses, beside
    /// the user's own state the scope seals it on (``IdentityScope/ownStates(_:in:)``), in
    /// registry order; a tool with nothing to seal (not installed, no state of its own, chosen
    /// by a variable of the user's own) is left out.
    public func sealedChecks(_ account: Account) -> [IdentityCheck] {
        let adapters = ToolAdapters.registry.filter { account.identities[$0.tool] == nil && !$0.isPerShell }
        // The user's own state is read outside the scope, as the scope was made.
        var outside = context
        outside.environment.variables = IdentityScope.unscoped(context.environment.variables)
        for name in ShellExports.own(outside.environment.variables).keys { outside.environment.variables.removeValue(forKey: name) }
        let owns = IdentityScope.ownStates(adapters, in: outside)
        let context = self.context
        let checked = adapters.compactMap { adapter -> (any ToolAdapter, ToolSetting)? in
            guard case .success(let own)? = owns[adapter.tool], let setting = adapter.ownSetting(own, over: outside.environment.variables)
            else { return nil }
            return (adapter, setting)
        }
        return Parallel.map(
            checked.map { adapter, setting in
                { @Sendable in
                    var check = adapter.check(setting, in: context)
                    check.expected = "your own: " + check.expected
                    check.note = [check.note, "sealed: a global switch does not reach this scope"].compactMap { $0 }.joined(separator: "; ")
                    return check
                }
            })
    }

    /// The tools `account` names nothing for that a switch could not give back the user's own
    /// state (their baseline is still kept: a switch with `--keep-going` whose program was not
    /// on its `PATH`), each a check that does not match (or that cannot be made, when the tool
    /// cannot be read here), with the switch that gives it back as the fix. Empty when every
    /// such tool is on the user's own, and in a switch under way.
    public func leftBehindChecks(_ account: Account) -> [IdentityCheck] {
        guard !samplesOnly, access(files.journal, F_OK) != 0,
            let baseline = RecordFile.read(ToolBaseline.self, at: files.baseline), !baseline.tools.isEmpty
        else { return [] }
        let adapters = ToolAdapters.registry.filter {
            account.identities[$0.tool] == nil && !$0.isPerShell && baseline.tools[$0.tool.rawValue] != nil
        }
        let context = self.context
        return Parallel.map(
            adapters.map { adapter in
                { @Sendable () -> IdentityCheck? in
                    let own = baseline.tools[adapter.tool.rawValue]!
                    let expected = "your own: " + adapter.describe(own)
                    let fix = "perch switch \(account.id)"
                    switch adapter.current(in: context) {
                    case .failure(let failure):
                        return IdentityCheck(
                            tool: adapter.tool, expected: expected, actual: nil, matches: nil,
                            note: "\(failure); a switch left it, and has not given it back", fix: fix)
                    case .success(let now):
                        if adapter.isMet(own, by: now) { return nil }
                        return IdentityCheck(
                            tool: adapter.tool, expected: expected, actual: adapter.describe(now), matches: false,
                            note: "left by a switch that could not give it back; \(fix) from a shell where it can", fix: fix)
                    }
                }
            }
        ).compactMap { $0 }
    }

    /// The variables of a tool `account` names nothing for that still hold what another of
    /// `accounts` exports for that tool (`AWS_PROFILE=client-prod`, left by a scope or an
    /// `.envrc` of that account's folder): the tool uses that account's identity here, so each
    /// is a check that does not match, with the `unset` to run. A value this environment's own
    /// scope set (``IdentityScope/setVariable``) is not one.
    public func leakedChecks(_ account: Account, among accounts: [Account]) -> [IdentityCheck] {
        let variables = context.environment.variables
        let scopeSet = variables[IdentityScope.setVariable].flatMap(IdentityScope.decode) ?? [:]
        var checks: [IdentityCheck] = []
        for adapter in ToolAdapters.registry where account.identities[adapter.tool] == nil && !adapter.exportedNames.isEmpty {
            var leaked: [(name: String, value: String, owner: String)] = []
            for name in adapter.exportedNames {
                guard let value = variables[name], scopeSet[name] != .some(value) else { continue }
                let owner = accounts.first { other in
                    other.id != account.id
                        && other.identities[adapter.tool].map { adapter.exports($0).contains { $0.name == name && $0.value == value } }
                            == true
                }
                if let owner { leaked.append((name, value, owner.id)) }
            }
            guard !leaked.isEmpty else { continue }
            let shown = leaked.map { "\($0.name)=\(EnvironmentEntry.shown($0.name, $0.value))" }.joined(separator: " ")
            let whose = leaked.map { "\($0.name) is \($0.owner)'s" }.joined(separator: ", ")
            checks.append(
                IdentityCheck(
                    tool: adapter.tool, expected: "none (\(account.id) names no \(adapter.tool.rawValue))",
                    actual: shown, matches: false,
                    note: "\(shown) in this environment: \(whose); run: unset \(leaked.map(\.name).joined(separator: " "))"))
        }
        return checks
    }

    /// Whether any check of `checks` found a tool that differs from the account (drift).
    public static func hasDrift(_ checks: [IdentityCheck]) -> Bool {
        checks.contains { $0.matches == false }
    }

    // MARK: Dry run

    /// What a switch to `account` would change, tool by tool, as lines (`kube: prod (now: dev)`,
    /// `gcloud: back to your own default (now: work)`); nothing is changed, and only reading
    /// programs are started.
    public func plan(_ account: Account, force: Bool = false) -> [String] {
        let baseline = RecordFile.read(ToolBaseline.self, at: files.baseline) ?? ToolBaseline()
        var lines: [String] = []
        for adapter in ToolAdapters.registry {
            let setting = account.identities[adapter.tool]
            let name = adapter.tool.rawValue
            if adapter.isPerShell {
                if let setting {
                    let why = samplesOnly ? nil : adapter.unusable(setting, in: context)
                    lines.append("\(name): per shell: \(setting.summary) (perch env)" + (why.map { " [fails: \($0)]" } ?? ""))
                }
                continue
            }
            if samplesOnly {
                if setting != nil { lines.append("\(name): nothing (sample accounts never change a tool)") }
                continue
            }
            guard let (wanted, restoring) = SwitchSession.wantedState(adapter, for: account, baseline: baseline, in: context) else {
                continue
            }
            switch adapter.current(in: context) {
            case .failure(let failure):
                // As the switch decides it (``SwitchSession``): a tool it cannot read fails the switch.
                guard setting != nil || restoring else { continue }
                lines.append(
                    "\(name): " + (restoring ? "back to your own \(adapter.describe(wanted))" : adapter.describe(wanted))
                        + " [fails: \(SwitchSession.unreadableDetail(adapter, failure, in: context))]")
            case .success(let now):
                let shown = adapter.describe(wanted.merging(now))
                // Bug: the dry run did not say that git's (or ssh's) file is written but not used
                // until `perch setup git`, which the switch then reported as skipped.
                let unused =
                    switch adapter.tool {
                    case .git: now["included"] == "0" && (wanted["user.email"] != nil || wanted["user.name"] != nil)
                    case .ssh: setting != nil && !IdentitySetup.sshIncluded(context)
                    default: false
                    }
                let setUp = unused ? " [written only: \(name) uses it after `perch setup \(name)`]" : ""
                if adapter.isMet(wanted, by: now), !force {
                    if setting != nil { lines.append("\(name): \(shown) (already so)" + setUp) }
                } else {
                    lines.append(
                        "\(name): " + (restoring ? "back to your own \(shown)" : shown) + " (now: \(adapter.describe(now)))" + setUp)
                }
            }
        }
        return lines
    }

    // MARK: Results

    /// Keeps `report` in Perch's results file (atomically), with the time, for `perch status`
    /// and Overview.
    public func record(_ report: IdentityReport) {
        struct Record: Encodable {
            var account: String
            var time: String
            var results: [IdentityResult]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let record = Record(account: report.accountID, time: StateStore.timestamp(), results: report.results)
        guard let data = try? encoder.encode(record) else { return }
        try? FileSystem.writeAtomically(Array(data) + [0x0A], to: files.results, mode: 0o600)
    }

    /// Brings the last switch's report up to date once `perch setup TOOL` has put its include
    /// in place: the result "… written; run `perch setup TOOL` to use it" becomes applied, since
    /// the file the switch wrote is now in effect (`perch status` said "skipped" until the next
    /// switch). Nothing happens when the report has no such result.
    public func recordSetUp(_ tool: IdentityTool) {
        guard var (report, _) = lastReport() else { return }
        let hint = " written; run `perch setup \(tool.rawValue)` to use it"
        var changed = false
        for index in report.results.indices where report.results[index].tool == tool && report.results[index].status == .skipped {
            guard report.results[index].detail.hasSuffix(hint) else { continue }
            report.results[index].status = .applied
            report.results[index].detail = String(report.results[index].detail.dropLast(hint.count))
            changed = true
        }
        if changed { record(report) }
    }

    /// The report of the last switch, as recorded, or nil.
    public func lastReport() -> (report: IdentityReport, time: String)? {
        struct Record: Decodable {
            var account: String
            var time: String
            var results: [IdentityResult]
        }
        guard let record = RecordFile.read(Record.self, at: files.results) else { return nil }
        return (IdentityReport(accountID: record.account, results: record.results), record.time)
    }
}
