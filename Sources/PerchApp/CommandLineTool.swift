import FoundationEssentials
import Glibc
import PerchCore
import PerchIdentities
import PerchStore

/// The commands of `perch` other than the interface (`list`, `current`, `switch`, `history`,
/// `init`, `config path|check|edit`). Each returns its exit status (``PerchApp/ExitStatus``).
struct CommandLineTool {
    let options: CommandLineOptions
    let console: Console
    let paths: PerchPaths

    init(options: CommandLineOptions, console: Console, lookup: (String) -> String? = PerchPaths.environment) {
        self.options = options
        self.console = console
        self.paths = PerchPaths(config: options.configPath, state: options.statePath, lookup: lookup)
    }

    /// Runs the command its record names; the exit status.
    func run() -> Int32 {
        // A switch whose process was killed between its journal and its commit is put right
        // first, whatever the command (one access(2) when there is none). A switch does it
        // itself under the state lock, waiting as long as a tool's program may run, and says it
        // once. (An undo reads the undo record first, which a recovery may write.)
        // `perch current` and `perch status`, which prompts run, never wait for it: they put it
        // right when they can at once, and otherwise say that a switch is under way.
        if ![.completion, .manPage, .configPath, .shellInit, .switchAccount, .current, .status].contains(options.command) {
            recoverInterruptedSwitch()
        }
        return options.command.record.run?(self) ?? ExitStatus.usage
    }

    // MARK: - Loading

    /// The config, or nil after reporting why it cannot be used.
    func loadConfig(reportUnknownKeys: Bool = false) -> LoadedConfig? {
        do {
            return try ConfigLoader.load(paths, reportUnknownKeys: reportUnknownKeys)
        } catch {
            for line in error.lines { console.error(line) }
            return nil
        }
    }

    /// The state with its problems reported on stderr, or nil after reporting why it cannot be
    /// read. With `repair`, a file that cannot be parsed is set aside and a current account no
    /// longer in the config is cleared (each said once); without, nothing on disk changes.
    func loadState(_ config: LoadedConfig, repair: Bool = false) -> SavedState? {
        do {
            let store = StateStore(path: paths.state)
            let ids = Set(config.accounts.map(\.id))
            let loaded = try repair ? store.load(accountIDs: ids) : store.peek(accountIDs: ids)
            if let warning = loaded.warning { console.error(warning) }
            return loaded.state
        } catch {
            console.error("cannot read the state: \(error)")
            return nil
        }
    }

    // MARK: - Commands

    func list() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        let current = state.currentAccount
        if let format = options.listFormat {
            return list(config.accounts, current: current, format: format)
        }
        // Piped (`perch list | fzf | awk '{print $1}'`), the first column must be the id.
        let markerFirst = isatty(STDOUT_FILENO) == 1
        let ids = config.accounts.map { shown($0.id) }
        let names = config.accounts.map { shown($0.name) }
        let idWidths = ids.map(columns)
        let nameWidths = names.map(columns)
        let idWidth = idWidths.max() ?? 0
        let nameWidth = nameWidths.max() ?? 0
        var text = ""
        let handles = config.accounts.map { $0.handle.map(shown) ?? "" }
        let handleWidth = markerFirst ? 0 : handles.map(columns).max() ?? 0
        for (index, account) in config.accounts.enumerated() {
            let isCurrent = account.id == current
            if markerFirst { text += isCurrent ? "* " : "  " }
            text += ids[index] + String(repeating: " ", count: idWidth - idWidths[index] + 2)
            if account.handle != nil || (isCurrent && !markerFirst) {
                text += names[index] + String(repeating: " ", count: nameWidth - nameWidths[index] + 2) + handles[index]
            } else {
                text += names[index]
            }
            if isCurrent, !markerFirst {
                text += String(repeating: " ", count: handleWidth - columns(handles[index]) + 2) + "*"
            }
            text += "\n"
        }
        console.write(text)
        if config.path == nil, console.outputFailure == nil, !console.outputClosed { console.error(Self.samplesNote) }
        return ExitStatus.ok
    }

    /// Said on standard error after the list in words (so that the list stays the same for a
    /// pipe; `--format` and `--json` say nothing) when the accounts are the embedded samples.
    static let samplesNote = "these are the embedded sample accounts: there is no config yet (`perch init` writes one to edit)"

    func current() -> Int32 {
        if options.json, options.field != nil {
            console.error("use either --json or --field, not both")
            console.note(Command.current.usage)
            return ExitStatus.usage
        }
        let pending = pendingSwitch()
        // A prompt runs this every time: the account comes from the cache while neither file changed.
        let cache = CurrentAccountCache(statePath: paths.state)
        var account: Account
        // In a shell with an account of its own (perch use, a bound folder, perch exec), that one.
        let own =
            options.identity.global
            ? nil
            : PerchPaths.environment(IdentityScope.scopeVariable).flatMap { _ in
                PerchPaths.environment(ShellExports.accountVariable)
            }
        if let own, let cached = cache.account(configPath: paths.config, statePath: paths.state), cached.id == own {
            account = cached
        } else if let own {
            guard let config = loadConfig() else { return ExitStatus.usage }
            guard let found = config.accounts.first(where: { $0.id == own }) else {
                if options.json { console.print("null") }
                console.error("this shell's account '\(shown(own))' is not in the config; perch use --global follows the global one")
                return ExitStatus.unmet
            }
            account = found
        } else if let cached = cache.account(configPath: paths.config, statePath: paths.state) {
            account = cached
        } else {
            let configIdentity = CurrentAccountCache.FileIdentity.of(paths.config)
            let stateIdentity = CurrentAccountCache.FileIdentity.of(paths.state)
            guard let config = loadConfig() else { return ExitStatus.usage }
            let loaded: StateStore.Loaded
            do {
                loaded = try StateStore(path: paths.state).peek(accounts: config.accounts)
            } catch {
                console.error("cannot read the state: \(error)")
                return ExitStatus.unmet
            }
            if let warning = loaded.warning { console.error(warning) }
            guard let id = loaded.state.currentAccount, let found = config.accounts.first(where: { $0.id == id }) else {
                if options.json { console.print("null") }
                console.error("no account chosen yet; pick one with `perch switch ID` or in the interface")
                return ExitStatus.unmet
            }
            account = found
            // Only what a later run would print the same way: no warning to repeat.
            if config.path != nil, loaded.warning == nil {
                cache.store(account, configPath: paths.config, config: configIdentity, statePath: paths.state, state: stateIdentity)
            }
        }
        if options.json {
            var json = AccountJSON(account, current: true)
            json.switching = pending.map { SwitchingJSON(to: $0.journal.to, interrupted: $0.isFinishing) }
            return printJSON(json)
        }
        guard let field = options.field else {
            console.print(describe(account) + (pending.map { "  (" + Self.pendingNote($0, shown: shown) + ")" } ?? ""))
            return ExitStatus.ok
        }
        // The account being switched to, for a prompt; an empty line when no switch is under way.
        if field == "switching" {
            console.print(pending.map { shown($0.journal.to) } ?? "")
            return ExitStatus.ok
        }
        if let pending { console.note(Self.pendingNote(pending, shown: shown)) }
        // When a tool's credentials end (kube's certificate, AWS's session), read where the tool
        // keeps it: ISO 8601 in UTC, the earliest; an empty line when nothing is recorded.
        if field == "kube.expires" || field == "aws.expires" {
            let tool = IdentityTool(String(field.prefix { $0 != "." }))
            let ends = SessionExpiries.read(account, tool: tool, in: switcher(nil).context).min { $0.ends < $1.ends }
            console.print(ends?.endsText ?? "")
            return ExitStatus.ok
        }
        // Any key of the account, tools' included; an empty line when it has nothing there.
        console.print(shown(AccountFields.value(of: account, at: field).map(AccountFields.text) ?? ""))
        return ExitStatus.ok
    }

    func switchAccount(_ text: String) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        // The state is repaired (a corrupt file set aside, an unknown current account cleared)
        // only once the account is known: a switch that fails (a typo, another config) changes
        // nothing. A dry run changes nothing at all.
        let repair = !options.identity.dryRun
        if text == "-" {
            guard let peeked = loadState(config), let account = previousAccount(config, state: peeked),
                let state = repair ? loadState(config, repair: true) : peeked
            else { return ExitStatus.unmet }
            if options.identity.dryRun { return dryRun(to: account, state: state, config: config) }
            return perform(account, config: config)
        }
        guard let account = lookupAccount(text, in: config) else { return ExitStatus.unmet }
        guard let state = loadState(config, repair: repair) else { return ExitStatus.unmet }
        if options.identity.dryRun { return dryRun(to: account, state: state, config: config) }
        return perform(account, config: config)
    }

    /// The account `text` names in `config` (its id, or its name when exactly one account has
    /// it), or nil after saying why on stderr, in the same words for every command that takes
    /// an account: the accounts a name belongs to, or `no account 'X'` with what it may have
    /// meant; `command` (`exec`) goes first when given.
    func lookupAccount(_ text: String, in config: LoadedConfig, command: String? = nil) -> Account? {
        let prefix = command.map { $0 + ": " } ?? ""
        switch Account.lookup(text, in: config.accounts) {
        case .found(let found):
            return found
        case .ambiguous(let matches):
            console.error(prefix + "'\(shown(text))' is the name of \(matches.count) accounts; give one of their ids:")
            for match in matches { console.note("  " + describe(match)) }
        case .unknown(let candidates):
            let suggestions = Account.suggestions(for: text, in: config.accounts)
            if !suggestions.isEmpty {
                let quoted = suggestions.map { "'" + shown($0) + "'" }
                let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
                console.error(prefix + "no account '\(shown(text))'; did you mean \(list)?")
                return nil
            }
            let near = candidates.count < config.accounts.count
            console.error(prefix + "no account '\(shown(text))'; " + (near ? "did you mean one of these?" : "the accounts are:"))
            for candidate in candidates.prefix(20) { console.note("  " + describe(candidate)) }
            if candidates.count > 20 { console.note("  … and \(candidates.count - 20) more (perch list)") }
        }
        return nil
    }

    func history() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard loadState(config) != nil else { return ExitStatus.unmet }
        let entries: [SwitchRecord]
        do {
            entries = try StateStore(path: paths.state).history.read(limit: options.limit ?? SavedState.historyLimit).reversed()
        } catch {
            console.error("cannot read the history: \(error)")
            return ExitStatus.unmet
        }
        if options.json { return printJSON(entries) }
        if entries.isEmpty, options.limit != 0 {
            console.print("No switches recorded yet.")
            return ExitStatus.ok
        }
        for entry in entries {
            let from = entry.previous.map(shown) ?? "(none)"
            console.print("\(shown(entry.time))  \(entry.source.rawValue)  \(from) → \(shown(entry.account))")
        }
        return ExitStatus.ok
    }

    /// Moves the state the embedded samples were switched in (the state file, its history and
    /// the `perch current` cache) to ``PerchPaths/samplesState``: the starter config has the
    /// samples' ids, and its state and history start empty rather than with the samples'
    /// switches. rename(2) each, under the state lock; a file that is not there is skipped.
    private func moveSamplesState() {
        let store = StateStore(path: paths.state)
        let samples = paths.samplesState
        let moves = [
            (paths.state, samples), (store.history.path, HistoryLog(statePath: samples).path),
            (CurrentAccountCache(statePath: paths.state).path, CurrentAccountCache(statePath: samples).path),
        ]
        let lock = open(store.lockPath, O_RDWR | O_CLOEXEC)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        for (from, to) in moves where access(from, F_OK) == 0 {
            if rename(from, to) != 0 {
                console.error("could not keep the samples' state apart: \(from): \(String(cString: strerror(errno)))")
            }
        }
    }

    func initConfig() -> Int32 {
        // Only a missing file, or an empty regular one, may be written: anything else at the path
        // (a config too large or unreadable, a folder, a FIFO, a device) is left alone.
        var info = stat()
        let samplesInUse = !paths.configIsExplicit && stat(paths.config, &info) != 0 && errno == ENOENT
        if stat(paths.config, &info) == 0 {
            let blank =
                info.st_mode & S_IFMT == S_IFREG
                && (try? FileSystem.read(paths.config))?.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) } == true
            guard blank else {
                let what = info.st_mode & S_IFMT == S_IFREG ? "a config already exists" : "something that is not a config file is"
                console.error(
                    "\(what) at \(paths.config); perch init writes only where there is no file (edit one with `perch config edit`)")
                return ExitStatus.unmet
            }
        } else if errno != ENOENT {
            console.error("cannot write the config: \(FileError(path: paths.config, code: errno, operation: "check"))")
            return ExitStatus.unmet
        }
        do {
            try FileSystem.writeAtomically(Array(StarterConfig.text.utf8), to: paths.config, mode: 0o600)
        } catch {
            console.error("cannot write the config: \(error)")
            return ExitStatus.unmet
        }
        if samplesInUse, !paths.stateIsExplicit { moveSamplesState() }
        console.print("Wrote a starter config to \(paths.config).")
        console.print("Edit it with `perch config edit`; check it with `perch config check`.")
        return ExitStatus.ok
    }

    func configCheck() -> Int32 {
        if !paths.configIsExplicit, access(paths.config, F_OK) != 0 {
            console.error("no config at \(paths.config) (Perch is using its sample accounts); write one with `perch init`")
            return ExitStatus.usage
        }
        guard let config = loadConfig(reportUnknownKeys: true) else { return ExitStatus.usage }
        for warning in config.warnings { console.error("warning: config \(paths.config): \(warning)") }
        let environment = IdentityEnvironment.current()
        for (index, account) in config.accounts.enumerated() {
            guard let ssh = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self),
                access(environment.expandingTilde(ssh.identityFile), F_OK) != 0
            else { continue }
            console.error(
                "warning: config \(paths.config): accounts[\(index)].ssh.identityFile: \"\(shown(ssh.identityFile))\" does not exist (ssh cannot use it)"
            )
        }
        let count = config.accounts.count
        let hooks = config.accounts.filter { $0.onSwitch != nil }.count
        let hookText = hooks == 0 ? "" : ", \(hooks) with an onSwitch hook"
        let tools = config.accounts.filter { !$0.identities.isEmpty }.count
        let toolText = tools == 0 ? "" : ", \(tools) with tool identities"
        console.print("config \(paths.config): valid, \(count) account\(count == 1 ? "" : "s")\(hookText)\(toolText).")
        return ExitStatus.ok
    }

    // MARK: - Output

    /// `id: Name (handle)`, made safe for a terminal.
    func describe(_ account: Account) -> String {
        "\(shown(account.id)): \(shown(account.name))" + (account.handle.map { " (\(shown($0)))" } ?? "")
    }

    func shown(_ text: String) -> String { PerchApp.visibleControls(text) }

    /// Display width in columns; printable ASCII (the common case) is counted directly.
    func columns(_ text: String) -> Int {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? text.utf8.count : DisplayWidth.columns(of: text)
    }

    func printJSON<T: Encodable>(_ value: T) -> Int32 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            console.error("cannot encode the output as JSON")
            return ExitStatus.unmet
        }
        console.print(PerchApp.escapingInvisibleControls(inJSON: String(decoding: data, as: UTF8.self)))
        return ExitStatus.ok
    }
}

/// An account as `perch list --json` and `perch current --json` print it: every field (`id`,
/// `name`, `handle`, `group`, `color`, `onSwitch`, `current`), `null` where there is nothing,
/// and `identities`: the tools it names, keyed by tool, as the config writes them
/// (`{"kube": {"context": "prod"}}`, `{}` for none).
struct AccountJSON: Encodable {
    var account: Account
    var current: Bool
    /// `perch current --json` while a switch is under way (or a killed one still finishing):
    /// the key `switching`, left out otherwise.
    var switching: SwitchingJSON?

    init(_ account: Account, current: Bool) {
        self.account = account
        self.current = current
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, handle, group, color, onSwitch, current, identities, switching
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account.id, forKey: .id)
        try container.encode(account.name, forKey: .name)
        try container.encode(account.handle, forKey: .handle)
        try container.encode(account.group, forKey: .group)
        try container.encode(account.color?.name, forKey: .color)
        try container.encode(account.onSwitch, forKey: .onSwitch)
        try container.encode(current, forKey: .current)
        try container.encode(EncodableJSON(AccountFields.identities(account)), forKey: .identities)
        try container.encodeIfPresent(switching, forKey: .switching)
    }
}

/// A switch not yet committed: the account it goes to, and whether it was interrupted (its
/// process killed; it is rolled back once the programs it started have ended).
struct SwitchingJSON: Encodable {
    var to: String
    var interrupted: Bool
}

/// A ``JSONValue`` for `JSONEncoder`: objects keep their keys (the encoder sorts them).
struct EncodableJSON: Encodable {
    var value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, member) in members { try container.encode(EncodableJSON(member), forKey: Key(stringValue: key)) }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(EncodableJSON(item)) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}
