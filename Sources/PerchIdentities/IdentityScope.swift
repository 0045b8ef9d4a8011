import FoundationEssentials
import PerchDomain
import PerchStore

/// How a process or shell came to have an account of its own, as `PERCH_SCOPE` says it to
/// prompts: unset means the shell follows the global account.
public enum ScopeKind: String, Hashable, Sendable, CaseIterable {
    /// `perch exec ID -- COMMAND`: COMMAND and its children.
    case exec
    /// `perch use ID`: this shell, until `perch use --global`.
    case pinned
    /// A folder of the account's `"directories"`: this shell, while it is in that folder.
    case directory
}

/// One variable a scope sets (`value`) or removes (nil).
public struct ScopeVariable: Hashable, Sendable {
    /// The variable's name (`KUBECONFIG`).
    public var name: String
    /// Its value in the scope; nil: removed there.
    public var value: String?
    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}

/// What one tool gives one process of its own: the variables to set or remove, and secrets
/// (a gh token) that only the tool's own program may get: `perch exec` puts them in COMMAND's
/// environment; a shell gets a function wrapping that program, so no other child sees them.
public struct ToolScope: Hashable, Sendable {
    /// The variables set or removed, in order (a later one wins).
    public var variables: [ScopeVariable]
    /// The program the secrets are for (`gh`) and the secrets.
    public var secrets: [String: [EnvironmentEntry]]
    /// For each secret variable, the program and arguments that print its value when asked
    /// (`gh auth token --hostname github.com --user ada`): a shell's wrapping function runs it
    /// each time it is called, so the function's text never holds the secret.
    public var readers: [String: [String]]
    public init(variables: [ScopeVariable] = [], secrets: [String: [EnvironmentEntry]] = [:], readers: [String: [String]] = [:]) {
        self.variables = variables
        self.secrets = secrets
        self.readers = readers
    }
}

/// The environment a scope gives a process: every variable it will have, and the secrets per
/// program (see ``ToolScope``); the tools whose scope could not be made, with why.
public struct ScopedEnvironment: Sendable {
    /// Every variable the process or shell has in the scope, by name (secrets left out).
    public var variables: [String: String]
    /// The secrets per program (`gh`: its token), given to that program only.
    public var secrets: [String: [EnvironmentEntry]]
    /// How a shell's wrapping function reads each secret when called (``ToolScope/readers``).
    public var readers: [String: [String]] = [:]
    /// The tools whose part could not be made, with why (in registry order).
    public var failures: [(tool: IdentityTool, why: String)]
    /// The account it is for, nil when following the global one and none is chosen.
    public var account: String?
    /// The scope, nil when following the global account.
    public var kind: ScopeKind?
    /// Following the global account: the variables Perch would change but leaves, since someone
    /// else (direnv, the user) changed them after Perch set them, with their values (nil: unset).
    /// The prompt hook asks again when one of them changes.
    public var held: [String: String?] = [:]

    /// The variables with every secret added, for `perch exec`'s COMMAND.
    public var variablesWithSecrets: [String: String] {
        var all = variables
        for entries in secrets.values { for entry in entries { all[entry.name] = entry.value } }
        return all
    }
}

/// Scopes: an account's whole identity given to one process and its children (`perch exec`)
/// or one shell (`perch use`, a bound folder), through variables only, nothing global changed.
/// Each adapter says what its tool needs (``ToolAdapter/scope(_:account:over:in:)``); this
/// puts them together, remembers what the process had before (``savedVariable``) and what the
/// scope set (``setVariable``), so that leaving a scope gives back exactly that wherever the
/// scope's value is still there, and writes the shell text that moves a shell from one
/// environment to another.
public enum IdentityScope {
    /// `exec`, `pinned` or `directory` (``ScopeKind``); unset when following the global account.
    public static let scopeVariable = "PERCH_SCOPE"
    /// What the scoped variables were before the scope, as a JSON object (`null` for unset).
    public static let savedVariable = "PERCH_SCOPE_SAVED"
    /// What the scope set each of those variables to, as a JSON object (`null` for removed):
    /// a variable whose value is no longer this one was changed since by someone else (direnv,
    /// the user) and is theirs, so leaving the scope leaves it as it is.
    public static let setVariable = "PERCH_SCOPE_SET"
    /// The programs a shell wraps in a function to give them their secrets (`gh`), space-separated.
    public static let wrapsVariable = "PERCH_SCOPE_WRAPS"
    /// The file (``ScopeSecrets``, mode 0600) holding the secret values the scope removed and
    /// gives back on leaving, which ``savedVariable`` only names: no child sees them.
    public static let secretsVariable = "PERCH_SCOPE_SECRETS"

    /// The kind of scope `environment` is in, nil when it follows the global account.
    public static func kind(_ environment: [String: String]) -> ScopeKind? {
        environment[scopeVariable].flatMap(ScopeKind.init(rawValue:))
    }

    /// Perch's own variables of a scope, which say what it is and never belong to what it saved.
    static let ownVariables = [scopeVariable, savedVariable, setVariable, wrapsVariable, secretsVariable]

    /// `environment` as it was before any scope: each saved variable given back where it still
    /// has the value the scope set (``setVariable``; a value changed since is someone else's and
    /// stays), Perch's scope variables removed. A scope made before ``setVariable`` existed gives
    /// back every saved variable.
    public static func unscoped(_ environment: [String: String]) -> [String: String] {
        var base = environment
        if let saved = environment[savedVariable].flatMap(decode) {
            let given = environment[setVariable].flatMap(decode)
            let kept = saved.values.contains { $0 == ScopeSecrets.marker } ? ScopeSecrets.load(environment[secretsVariable]) : [:]
            for (name, value) in saved {
                if let given, let set = given[name], environment[name] != set { continue }
                if value == ScopeSecrets.marker {
                    // Kept in the scope's secrets file; gone (a reboot cleared it): left as it is.
                    if let secret = kept[name] { base[name] = secret }
                    continue
                }
                if let value { base[name] = value } else { base.removeValue(forKey: name) }
            }
        }
        for name in ownVariables { base.removeValue(forKey: name) }
        return base
    }

    /// The environment that gives `account` to one process or shell, built on `environment`
    /// (its own, maybe in another scope already: that one is left first). The global account's
    /// per-shell variables that are still Perch's (``ShellExports/own(_:)``) leave with it; every tool's scope is added, in the
    /// registry's order; `PERCH_ACCOUNT` and `PERCH_SCOPE` say who and how.
    public static func scoped(
        _ account: Account, kind: ScopeKind, over environment: [String: String], in context: ToolContext,
        adapters: [any ToolAdapter] = ToolAdapters.registry
    ) -> ScopedEnvironment {
        let base = unscoped(environment)
        var target = base
        for name in ShellExports.own(base).keys { target.removeValue(forKey: name) }
        target.removeValue(forKey: ShellExports.namesVariable)
        target.removeValue(forKey: ShellExports.setVariable)
        var secrets: [String: [EnvironmentEntry]] = [:]
        var readers: [String: [String]] = [:]
        var failures: [(IdentityTool, String)] = []
        var toolContext = context
        toolContext.environment.variables = target
        // The tools the account names nothing for are sealed on the user's own state, so that a
        // global switch while the scope lasts never reaches them.
        let owns = ownStates(adapters.filter { account.identities[$0.tool] == nil }, in: toolContext)
        for adapter in adapters {
            toolContext.environment.variables = target
            let setting = account.identities[adapter.tool]
            let part: Result<ToolScope, ToolFailure>
            switch owns[adapter.tool] {
            case .success(let own)? where setting == nil:
                part = adapter.sealed(own, account: account, over: target, in: toolContext)
            case .failure(let failure)? where setting == nil:
                part = .failure(failure)
            default:
                part = adapter.scope(setting, account: account, over: target, in: toolContext)
            }
            switch part {
            case .success(let scope):
                for variable in scope.variables {
                    if let value = variable.value { target[variable.name] = value } else { target.removeValue(forKey: variable.name) }
                }
                secrets.merge(scope.secrets) { $0 + $1 }
                readers.merge(scope.readers) { $1 }
            case .failure(let failure):
                failures.append((adapter.tool, failure.description))
                // Fail closed: a tool whose part could not be made (`--keep-going`) gets none of
                // the variables that would give it another identity (your own GH_TOKEN while the
                // account's token is missing), never a fall-back to them.
                if setting != nil {
                    for override in adapter.overrides where override.unsetByShell { target.removeValue(forKey: override.name) }
                }
            }
        }
        target[ShellExports.accountVariable] = account.id
        target[scopeVariable] = kind.rawValue
        // A command of perch exec gets the secrets in its environment: they are saved as what
        // they replaced too, so a scope inside it (perch exec, perch use) drops them.
        var given = target
        if kind == .exec { for entries in secrets.values { for entry in entries { given[entry.name] = entry.value } } }
        var saved = differences(from: base, to: given)
        // Bug (trust issue): PERCH_SCOPE_SAVED held the secrets a scope removed (AWS_SECRET_ACCESS_KEY,
        // AWS_SESSION_TOKEN, GH_TOKEN), and every child got them under another name. They are kept
        // in a 0600 file instead, which the saved record only names.
        var secretValues: [String: String] = [:]
        for (name, value) in saved {
            guard let value, EnvironmentEntry(name: name, value: value).isSecret else { continue }
            secretValues[name] = value
            saved[name] = .some(ScopeSecrets.marker)
        }
        if !secretValues.isEmpty {
            if let path = ScopeSecrets.store(secretValues, in: context.environment) {
                target[secretsVariable] = path
            } else {
                // Nowhere private to keep them: they are not given back, rather than passed on.
                for name in secretValues.keys { saved[name] = nil }
            }
        }
        target[savedVariable] = encode(saved)
        // The secrets of perch exec are left out: a token is not written twice into an environment
        // (a nested scope gives them back whatever their value).
        // Nor is any other secret the scope set (an account's `DB_PASSWORD`): PERCH_SCOPE_SET
        // reaches every child. Such a variable is given back on leaving whatever its value then.
        // Bug (trust issue): PERCH_SCOPE_SET held every secret the scope set, in plain text.
        let secretNames = Set(secrets.values.joined().map(\.name))
        target[setVariable] = encode(
            Dictionary(
                uniqueKeysWithValues: saved.keys.filter { name in
                    !secretNames.contains(name) && !(given[name].map { EnvironmentEntry(name: name, value: $0).isSecret } ?? false)
                }.map { ($0, given[$0]) }))
        if !secrets.isEmpty { target[wrapsVariable] = secrets.keys.sorted().joined(separator: " ") }
        var scoped = ScopedEnvironment(variables: target, secrets: secrets, failures: failures, account: account.id, kind: kind)
        scoped.readers = readers
        return scoped
    }

    /// The user's own state of each tool of `adapters` that keeps a baseline
    /// (``ToolAdapter/keepsBaseline``) and is installed (its program on `PATH`): the baseline a
    /// switch kept, else the before-state of an interrupted switch's journal, else what the tool
    /// has now, which is then the user's own (Perch gives a baseline back when it forgets it). A
    /// tool that is not installed, or whose state cannot be read, is left out: a switch cannot
    /// change it either (it skips the tool).
    ///
    /// Read without the state lock, so a scope never waits for a switch: every change a switch
    /// makes to a tool lies between its journal's write and its baseline's or journal's removal,
    /// so when the baseline and journal files read the same before and after the tools were
    /// asked, no switch touched them meanwhile; otherwise they are read again (5 times), then
    /// under the state lock (a failure for each tool when it cannot be had in 2 s).
    public static func ownStates(_ adapters: [any ToolAdapter], in context: ToolContext) -> [IdentityTool: Result<ToolState, ToolFailure>] {
        let sealed = adapters.filter { adapter in
            adapter.keepsBaseline && !adapter.isPerShell && adapter.program.map { context.environment.which($0) != nil } ?? true
        }
        guard !sealed.isEmpty else { return [:] }
        let files = context.files
        func records() -> [[UInt8]?] { [try? FileSystem.read(files.baseline), try? FileSystem.read(files.journal)] }
        for _ in 0..<5 {
            let before = records()
            let owns = ownStatesNow(sealed, in: context)
            if records() == before { return owns }
        }
        do {
            return try StateStore(path: context.environment.statePath).withLock { () throws(StateError) in ownStatesNow(sealed, in: context)
            }
        } catch {
            let failure = ToolFailure("your own state could not be read under the state lock (\(error)); a switch may be under way")
            return Dictionary(uniqueKeysWithValues: sealed.map { ($0.tool, .failure(failure)) })
        }
    }

    /// ``ownStates(_:in:)`` of `sealed` from the baseline and journal as they are now.
    private static func ownStatesNow(_ sealed: [any ToolAdapter], in context: ToolContext) -> [IdentityTool: Result<ToolState, ToolFailure>]
    {
        let baseline = RecordFile.read(ToolBaseline.self, at: context.files.baseline) ?? ToolBaseline()
        let journal = RecordFile.read(SwitchJournal.self, at: context.files.journal)
        var owns: [IdentityTool: Result<ToolState, ToolFailure>] = [:]
        var asked: [any ToolAdapter] = []
        for adapter in sealed {
            if let kept = baseline.tools[adapter.tool.rawValue] ?? journal?.tools.first(where: { $0.tool == adapter.tool })?.before {
                owns[adapter.tool] = .success(kept)
            } else {
                asked.append(adapter)
            }
        }
        // A tool whose files tell its state is read from them (docker's config.json): a program
        // started for every perch exec costs more than the command it runs.
        let nows = Parallel.map(
            asked.map { adapter in
                { @Sendable in adapter.currentFromFiles(in: context).map { .success($0) } ?? adapter.current(in: context) }
            })
        for (adapter, now) in zip(asked, nows) {
            if case .success = now { owns[adapter.tool] = now }
        }
        return owns
    }

    /// The environment of a shell that follows the global `account` (nil: none chosen): the
    /// scope left, then `account`'s exports (as `perch env` gives them,
    /// ``ShellExports/script(for:shell:environment:)``), where Perch changes only what it set:
    /// a variable that still has the value Perch last set (``ShellExports/lastSet(_:)``), or that
    /// Perch never set and is unset, gets the account's value or is removed; one changed since
    /// by someone else (direnv, the user) is left as it is (``ScopedEnvironment/held``), and the
    /// record keeps Perch's value, so that when direnv gives that back, Perch takes it over again.
    public static func following(_ account: Account?, over environment: [String: String]) -> ScopedEnvironment {
        var target = unscoped(environment)
        let exports = account?.identities.exports ?? []
        var wanted: [String: String] = [:]
        for entry in exports { wanted[entry.name] = entry.value }
        let last = ShellExports.lastSet(target)
        var record: [String: String] = [:]
        var held: [String: String?] = [:]
        for name in Set(last.keys).union(wanted.keys) {
            if target[name] == last[name] {
                target[name] = wanted[name]
                record[name] = wanted[name]
            } else {
                record[name] = last[name]
                held[name] = .some(target[name])
            }
        }
        for name in ShellExports.competing(account, environment: target) where wanted[name] == nil { target.removeValue(forKey: name) }
        if let account {
            target[ShellExports.accountVariable] = account.id
        } else {
            target.removeValue(forKey: ShellExports.accountVariable)
        }
        if account != nil || !record.isEmpty {
            target[ShellExports.namesVariable] = ShellExports.names(record, exports: exports)
            target[ShellExports.setVariable] = encode(record.mapValues { $0 })
        } else {
            target.removeValue(forKey: ShellExports.namesVariable)
            target.removeValue(forKey: ShellExports.setVariable)
        }
        return ScopedEnvironment(variables: target, secrets: [:], failures: [], account: account?.id, kind: nil, held: held)
    }

    /// The shell text that turns `current` (the shell's exported variables) into `target`:
    /// `unset` and `export` lines for each variable that differs, by name, then the wrapping
    /// functions removed or defined (see ``ToolScope/secrets``).
    public static func script(from current: [String: String], to target: ScopedEnvironment, shell: ShellKind) -> String {
        var lines: [String] = []
        for name in Set(current.keys).union(target.variables.keys).sorted() where EnvironmentEntry.isValidName(name) {
            switch (current[name], target.variables[name]) {
            case (_?, nil): lines.append(ShellExports.unset(name, shell))
            case (let before, let after?) where before != after: lines.append(ShellExports.export(name, after, shell))
            default: break
            }
        }
        let wrapped = (current[wrapsVariable] ?? "").split(separator: " ").map(String.init)
        for program in wrapped where target.secrets[program] == nil && EnvironmentEntry.isValidName(program) {
            lines.append(shell == .fish ? "functions -e \(program)" : "unset -f \(program)")
        }
        for (program, entries) in target.secrets.sorted(by: { $0.key < $1.key }) where EnvironmentEntry.isValidName(program) {
            lines.append(wrapper(program, entries, readers: target.readers, shell))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// A function named `program` that runs the real one with `entries` in its environment only.
    /// A secret is never in the function's text (`type gh`, `declare -f`, `set -x` would show
    /// it): the function reads it when called, with its reader (``ToolScope/readers``); a secret
    /// without one is left out.
    // Bug (trust issue): perch use printed `gh() { GH_TOKEN='gho_…' command gh "$@"; }`.
    static func wrapper(_ program: String, _ entries: [EnvironmentEntry], readers: [String: [String]], _ shell: ShellKind) -> String {
        switch shell {
        case .bash, .zsh:
            let assignments = entries.compactMap { entry -> String? in
                if let reader = readers[entry.name] {
                    return "\(entry.name)=\"$(command \(reader.map(ShellExports.posixQuoted).joined(separator: " ")))\""
                }
                return entry.isSecret ? nil : "\(entry.name)=\(ShellExports.posixQuoted(entry.value))"
            }.joined(separator: " ")
            return "\(program)() { \(assignments) command \(program) \"$@\"; }"
        case .fish:
            let assignments = entries.compactMap { entry -> String? in
                if let reader = readers[entry.name] {
                    return "set -lx \(entry.name) (command \(reader.map(ShellExports.fishQuoted).joined(separator: " ")))"
                }
                return entry.isSecret ? nil : "set -lx \(entry.name) \(ShellExports.fishQuoted(entry.value))"
            }.joined(separator: "; ")
            return "function \(program) --wraps \(program); \(assignments); command \(program) $argv; end"
        }
    }

    /// The variables whose values differ between `before` and `after`, each with its value in
    /// `before` (nil: unset there); Perch's own scope variables left out.
    static func differences(from before: [String: String], to after: [String: String]) -> [String: String?] {
        var saved: [String: String?] = [:]
        for name in Set(before.keys).union(after.keys) where before[name] != after[name] {
            guard !ownVariables.contains(name) else { continue }
            saved[name] = .some(before[name])
        }
        return saved
    }

    static func encode(_ saved: [String: String?]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(saved)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func decode(_ text: String) -> [String: String?]? {
        try? JSONDecoder().decode([String: String?].self, from: Data(text.utf8))
    }
}
