import PerchDomain
import PerchStore

/// What one tool has, or should have: its values by name (`context`, `namespace`; a file's
/// text), each adapter's own keys. A key an adapter reads always has a value in what the tool
/// has now (`""` for none); a wanted state may name only some keys, and matches a tool whose
/// values agree on those.
public struct ToolState: Hashable, Sendable, Codable {
    public var values: [String: String]
    public init(_ values: [String: String] = [:]) { self.values = values }
    public subscript(_ key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Whether `now` agrees with this (wanted) state on every key this one names.
    public func isMet(by now: ToolState) -> Bool {
        values.allSatisfy { now.values[$0.key] ?? "" == $0.value }
    }
}

/// A variable (or config) that beats a tool's selection: where it is set, the tool uses it and
/// not what Perch selected (`AWS_DEFAULT_PROFILE` beats `AWS_PROFILE` for the aws CLI v1).
public struct ToolOverride: Hashable, Sendable {
    /// The variable's name.
    public var name: String
    /// What it beats, and the documentation that says so.
    public var reason: String
    /// Whether `perch env` unsets it for an account that names the tool (false: it is only
    /// reported, since unsetting it could break what the user set it for).
    public var unsetByShell: Bool
    public init(_ name: String, _ reason: String, unsetByShell: Bool = true) {
        self.name = name
        self.reason = reason
        self.unsetByShell = unsetByShell
    }
}

/// How one tool's apply went (before it is turned into an ``IdentityResult``).
public enum ToolStep: Hashable, Sendable {
    /// The tool now reports the wanted state (verified): what it has, in words.
    case applied(String)
    /// Nothing could be done here, and nothing was changed (`kubectl not found`, `run perch setup git`).
    case skipped(String)
    /// The tool was asked and does not report the wanted state: why.
    case failed(String)
}

/// What adapters are given: the environment (HOME, the tools' variables, PATH), Perch's own
/// files for this config, and how long one program may run.
public struct ToolContext: Sendable {
    public var environment: IdentityEnvironment
    public var files: IdentityFiles
    /// How long one program may run, in milliseconds.
    public var timeout: Int64
    /// While a switch applies or puts back tools: a descriptor of its journal holding the
    /// journal's lock (flock(2)). Every program run with this context inherits it, so the lock
    /// lasts until the last of them has ended, even when Perch itself was killed; recovery
    /// waits for it (``SwitchSession/recoverInterrupted(waitingMilliseconds:)``). nil otherwise.
    public var journalLock: Int32?

    public init(environment: IdentityEnvironment, timeout: Int64 = ProgramRunner.defaultTimeoutMilliseconds) {
        self.environment = environment
        self.files = IdentityFiles(environment)
        self.timeout = timeout
    }

    /// Runs `program` with `arguments` (see ``ProgramRunner``) with this context's environment,
    /// timeout and journal lock.
    public func run(_ program: String, _ arguments: [String], in folder: String? = nil) -> ProgramResult {
        ProgramRunner.run(program, arguments, in: environment, timeout: timeout, folder: folder, keeping: journalLock.map { [$0] } ?? [])
    }
}

/// One identity a tool holds, as `perch import` finds it: a base for its id and a name (used when
/// it stays an account of its own), a group, a handle, the setting, and the texts it is known by
/// (``keys``), from which ``IdentityImport/merge(_:existing:)`` finds what belongs to one person.
public struct ImportCandidate: Sendable {
    public var idBase: String
    public var name: String
    public var group: String
    public var handle: String?
    public var setting: ToolSetting
    /// The texts this identity is known by, most telling first: a kube context, gcloud
    /// configuration or AWS profile name, a gh user, a git email and user.name, an ssh key's file
    /// name, comment and hosts. Emails link by the whole address and by their words.
    public var keys: [String]
    /// Texts that link only after every other (a git user.name, which one person's identities
    /// all share): their words are weak links, as the name part of an email is.
    public var weakKeys: [String]
    /// - Parameter keys: nil means `[name]`.
    public init(
        idBase: String, name: String, group: String, handle: String? = nil, setting: ToolSetting, keys: [String]? = nil,
        weakKeys: [String] = []
    ) {
        self.idBase = idBase
        self.name = name
        self.group = group
        self.handle = handle
        self.setting = setting
        self.keys = keys ?? [name]
        self.weakKeys = weakKeys
    }
}

/// Everything Perch knows of one tool: reading its config member (``ToolConfigReader``), what
/// the tool has now, what an account wants of it, applying and verifying that, the before-state
/// a switch keeps to undo it, the variables a shell gets and those that beat them, import
/// candidates and status lines. ``ToolAdapters/registry`` lists them; a new tool is one file
/// with one of these, one line there, and its tests.
/// A tool's member of an account as the starter config (`perch init`) shows it.
public struct ToolConfigExample: Hashable, Sendable {
    /// The member's JSON text: `"aws": "work-admin"`.
    public var member: String
    /// Whether it is left on rather than commented out: only when it names nothing that must
    /// exist first, since a switch to an account whose tool fails is refused.
    public var isLeftOn: Bool

    public init(_ member: String, isLeftOn: Bool = false) {
        self.member = member
        self.isLeftOn = isLeftOn
    }
}

public protocol ToolAdapter: ToolConfigReader {
    /// Its name in prose (`GitHub CLI`), for `perch tools`; by default the tool's name.
    var title: String { get }
    /// The program the tool's state is changed or read with, if any (for plans and `doctor`).
    var program: String? { get }
    /// Whether the tool's setting belongs to one shell (exported by `perch env`): nothing global
    /// is applied, checked or restored.
    var isPerShell: Bool { get }
    /// Whether the tool's state outside Perch's own files is kept as the user's baseline the
    /// first time Perch changes it, and given back to it for an account naming nothing for it.
    var keepsBaseline: Bool { get }
    /// The variables that beat the tool's selection where they are set.
    var overrides: [ToolOverride] { get }
    /// The names of the variables its settings export (`AWS_PROFILE`), which `env` may not name.
    var exportedNames: [String] { get }
    /// How a scope (`perch exec`, `perch use`, a bound folder) carries the tool, in a phrase for
    /// the man page's SCOPES after the tool's name, its variables in capitals (git's:
    /// `GIT_CONFIG_COUNT entries`); nil to leave it out. By default the variables it exports.
    var scopeCarrier: String? { get }
    /// The tool's member of an account as the starter config (`perch init`) shows it
    /// (`"aws": "work-admin"`); nil to show none.
    var configExample: ToolConfigExample? { get }
    /// The dotted paths of its config member that `perch set` takes (`kube.context`), in the
    /// order help and completions list them; a last word in capitals (`env.NAME`) stands for
    /// any key there. By default the member itself (the tool's name).
    var fieldPaths: [String] { get }

    /// The state `setting` asks for; with no setting, the state the tool takes for an account
    /// naming nothing (nil: the baseline, when one was kept, else the tool is left alone).
    func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState?
    /// What the tool has now, with every key this adapter reads; a `failure` when it cannot be read.
    func current(in context: ToolContext) -> Result<ToolState, ToolFailure>
    /// Whether the tool's state `now` is what `wanted` asks for (by default: every key `wanted`
    /// names has the same value).
    func isMet(_ wanted: ToolState, by now: ToolState) -> Bool
    /// Makes the tool have `state`, then verifies that it reports it.
    func apply(_ state: ToolState, in context: ToolContext) -> ToolStep
    /// ``apply(_:in:)`` when what the tool had a moment ago is known (`now`, read by the plan
    /// under the same lock), so what already agrees need not be asked again.
    func apply(_ state: ToolState, over now: ToolState, in context: ToolContext) -> ToolStep
    /// `state` in words, as `perch status` and a switch print it (`prod, namespace web`).
    func describe(_ state: ToolState) -> String
    /// The variables a shell gets for `setting` (besides `PERCH_ACCOUNT`).
    func exports(_ setting: ToolSetting) -> [EnvironmentEntry]
    /// Accounts `perch import` proposes from what the tool holds.
    func importCandidates(in context: ToolContext) -> [ImportCandidate]
    /// The text naming the identity `setting` is, whatever else it says (a kube context without
    /// its namespace, a git email in any case, an ssh key's file with `~` expanded), so that
    /// `perch import` leaves out what an account already names. By default the setting's fields.
    func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String
    /// What the tool uses now, in this environment, beside what `setting` asks for.
    func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck
    /// The variables (and files of Perch's own, and secrets) that give one process `setting`'s
    /// identity with nothing global changed (`perch exec`, `perch use`); `environment` is that
    /// process's, before this tool's part (nil setting: the account names no such tool, and
    /// the process must not get the global account's either). By default: the setting's
    /// exports, and the variables that would beat them removed. A failure when the scope
    /// cannot be made (no such context, no token), said in one phrase.
    func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    /// The setting that asks for `own`, the user's own state of the tool (their baseline, else
    /// what the tool has now, see ``IdentityScope/ownStates(_:in:)``), for a scope whose account
    /// names nothing for the tool; nil when there is nothing to pin: `own` names no identity,
    /// or a variable of the user's own in `environment` already chooses one
    /// (`CLOUDSDK_ACTIVE_CONFIG_NAME`). By default nil.
    func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting?
    /// The variables that seal one process on `own` for a tool its account names nothing for,
    /// so that a global switch meanwhile never reaches it (see ``ownSetting(_:over:)``). By
    /// default the scope of ``ownSetting(_:over:)`` (``scope(_:account:over:in:)``), or
    /// nothing when it is nil.
    func sealed(_ own: ToolState, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    /// What an agent's scope (`perch exec --agent`) gives the tool when its account names
    /// nothing for it: no way back to the user's own identity. Empty files or folders of
    /// Perch's in `folder` (made here, mode 0700) in place of the user's config, and the
    /// variables that would choose an identity removed. By default nothing (a tool with
    /// nothing of the user's to close).
    /// - Throws: ``ToolFailure`` when a file cannot be made.
    func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable]
    /// What the tool itself says it will use for `setting`, asked in `context`'s folder and
    /// environment (`git var`, `ssh -G`, `kubectl config view --minify`, …), never from Perch's
    /// own files: one answer per line of `perch verify` (IdentityProof.swift has the default).
    func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer]
    /// What the tool's server says (`ssh -T`, `gh api user`, …), only for `perch verify
    /// --online`; by default nothing is asked.
    func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer]
    /// Why `setting` cannot work at all here (an AWS profile that does not exist), in one
    /// phrase with its fix, for a tool a switch does not change itself (a per-shell one); nil
    /// when it can, or when that cannot be told. A switch fails such a tool (``SwitchSession``).
    /// By default nil.
    func unusable(_ setting: ToolSetting, in context: ToolContext) -> String?
    /// What ``current(in:)`` would say, read from the tool's own files without starting its
    /// program, for a scope's seal (``IdentityScope/ownStates(_:in:)``), which every `perch
    /// exec` makes; nil when the files cannot tell (the program is then asked). A reader of
    /// another tool's files must be proved against the tool by a differential test. By
    /// default nil.
    func currentFromFiles(in context: ToolContext) -> ToolState?
}

/// Why a tool's state could not be read or changed, in one phrase.
public struct ToolFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ToolAdapter {
    public var title: String { tool.rawValue }
    public var isPerShell: Bool { false }
    public var keepsBaseline: Bool { !isPerShell }
    public var overrides: [ToolOverride] { [] }
    public var exportedNames: [String] { [] }
    public var scopeCarrier: String? { exportedNames.isEmpty ? nil : exportedNames.joined(separator: ", ") }
    public var configExample: ToolConfigExample? { nil }
    public var fieldPaths: [String] { [tool.rawValue] }
    public var program: String? { nil }
    public func exports(_ setting: ToolSetting) -> [EnvironmentEntry] { setting.exports }
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool { wanted.isMet(by: now) }
    public func apply(_ state: ToolState, over now: ToolState, in context: ToolContext) -> ToolStep { apply(state, in: context) }
    public func importCandidates(in context: ToolContext) -> [ImportCandidate] { [] }
    public func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String {
        setting.fields.map { "\($0)" }.joined(separator: "\n")
    }

    /// By default a tool's scope is its exported variables (``exports(_:)``) and, removed, those
    /// of ``overrides`` set in `environment` (``removedOverrides(_:)``), when the account names
    /// the tool; nothing otherwise. Never fails.
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let setting else { return .success(ToolScope()) }
        return .success(ToolScope(variables: exports(setting).map { ScopeVariable($0.name, $0.value) } + removedOverrides(environment)))
    }

    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? { nil }

    public func unusable(_ setting: ToolSetting, in context: ToolContext) -> String? { nil }

    public func currentFromFiles(in context: ToolContext) -> ToolState? { nil }

    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] { [] }

    /// A file or folder of Perch's for ``closed(in:)``: `folder/name`, made empty (a folder
    /// when `text` is nil), mode 0700 or 0600; its path.
    func closedFile(_ name: String, in folder: String, text: String? = nil) throws(ToolFailure) -> String {
        try AgentScope.file(name, in: folder, text: text)
    }

    public func sealed(_ own: ToolState, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let setting = ownSetting(own, over: environment) else { return .success(ToolScope()) }
        return scope(setting, account: account, over: environment, in: context)
    }

    /// The variables of ``overrides`` that `perch env` unsets, set in `environment`, as removals.
    public func removedOverrides(_ environment: [String: String]) -> [ScopeVariable] {
        overrides.filter { $0.unsetByShell && !(environment[$0.name] ?? "").isEmpty }.map { ScopeVariable($0.name, nil) }
    }

    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck { defaultCheck(setting, in: context) }

    /// The generic check: the tool's state now against what `setting` wants, then the overrides
    /// set in this environment.
    public func defaultCheck(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard let wanted = wanted(setting, account: Account(id: "-", name: "-"), in: context) else {
            return IdentityCheck(tool: tool, expected: setting.summary, actual: nil, matches: nil)
        }
        switch current(in: context) {
        case .failure(let failure):
            return IdentityCheck(tool: tool, expected: setting.summary, actual: nil, matches: nil, note: failure.description)
        case .success(let now):
            let check = IdentityCheck(tool: tool, expected: setting.summary, actual: describe(now), matches: isMet(wanted, by: now))
            return overridden(check, in: context)
        }
    }

    /// `check` marked as not matching when a variable of ``overrides`` is set in this
    /// environment, with the variable and what to run in its note.
    /// - Parameter own: variables whose value here is the one Perch's own scope set (`perch exec`,
    ///   `perch use`, a bound folder): the expected state there, not something beating it.
    public func overridden(_ check: IdentityCheck, in context: ToolContext, own: [String: String] = [:]) -> IdentityCheck {
        let set = overrides.filter { context.environment[$0.name] != nil && own[$0.name] != context.environment[$0.name] }
        guard !set.isEmpty else { return check }
        var check = check
        check.matches = false
        let names = set.map(\.name)
        // A token is never printed whole: its last 4 characters at most (EnvironmentEntry.shown).
        let shown = set.map { "\($0.name)=\(EnvironmentEntry.shown($0.name, context.environment[$0.name] ?? ""))" }.joined(separator: ", ")
        let advice =
            set.allSatisfy(\.unsetByShell)
            ? "run: unset \(names.joined(separator: " ")) (eval \"$(perch env)\" does)" : "run: unset \(names.joined(separator: " "))"
        check.note = "\(shown) in this environment beats it (\(set[0].reason)); \(advice)"
        check.fix = nil  // a variable of this shell: no command of Perch's puts it right
        return check
    }
}

/// A tool set per shell only (`aws`, `env`): nothing global is read, applied or restored; its
/// setting is what `perch env` exports, and its check compares this process's environment.
public protocol PerShellToolAdapter: ToolAdapter {}

extension PerShellToolAdapter {
    public var isPerShell: Bool { true }
    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? { nil }
    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> { .success(ToolState()) }
    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep { .applied("per shell") }
    public func describe(_ state: ToolState) -> String { "per shell" }
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        IdentityEnvironmentCheck.check(self, setting, in: context)
    }
}

/// The check of a per-shell tool: its exports against this process's environment.
enum IdentityEnvironmentCheck {
    static func check(_ adapter: some ToolAdapter, _ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        let expected = setting.exports
        let shown = expected.map { "\($0.name)=\($0.shown)" }.joined(separator: " ")
        guard context.environment["PERCH_ACCOUNT"] != nil || adapter.overrides.contains(where: { context.environment[$0.name] != nil })
        else {
            return IdentityCheck(
                tool: adapter.tool, expected: shown, actual: nil, matches: nil, note: "per shell: eval \"$(perch env)\" or perch shell-init"
            )
        }
        let actual = expected.map { entry in
            "\(entry.name)=\(context.environment.variables[entry.name].map { EnvironmentEntry.shown(entry.name, $0) } ?? "(unset)")"
        }
        .joined(separator: " ")
        var check = adapter.overridden(
            IdentityCheck(tool: adapter.tool, expected: shown, actual: actual, matches: actual == shown), in: context)
        if check.matches == false, check.note == nil {
            let wrong = expected.filter { context.environment.variables[$0.name] != $0.value }
            // A secret is never printed: perch env gives it.
            let fix =
                wrong.contains { EnvironmentEntry.looksLikeSecret($0.value) }
                ? "eval \"$(perch env)\""
                : wrong.map { "export \($0.name)=\(ShellExports.posixQuoted($0.value))" }.joined(separator: "; ")
            check.note = "\(actual) in this environment beats it; run: \(fix)"
        }
        return check
    }
}
