import FoundationEssentials
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchStore

/// What every command other than the interface runs with: the console, the paths of its files,
/// and the steps several commands share (loading, account look-up, output). Each command's own
/// options stay in its own type (``PerchCommand``); the two settings here belong to shared
/// steps, set by the command that takes them: consent (``consent(_:would:)``) and the switch
/// session (``perform(_:config:)``).
struct CommandLineTool {
    let console: Console
    let paths: PerchPaths
    /// `--config` and `--state` as given (nil for the defaults), for text that names them again.
    let files: FileOptions
    /// `--yes`: consent given on the command line.
    var assumeYes = false
    /// How a switch runs: `--dry-run`, `--force`, `--keep-going`.
    var switching = SwitchSettings()

    init(files: FileOptions, console: Console, lookup: (String) -> String? = PerchPaths.environment) {
        self.files = files
        self.console = console
        self.paths = PerchPaths(config: files.config, state: files.state, lookup: lookup)
    }

    /// Runs `command`; the exit status.
    func run(_ command: any PerchCommand) -> Int32 {
        // A switch whose process was killed between its journal and its commit is put right
        // first, whatever the command (one access(2) when there is none). A switch does it
        // itself under the state lock, waiting as long as a tool's program may run, and says it
        // once. (An undo reads the undo record first, which a recovery may write.)
        // `perch current` and `perch status`, which prompts run, never wait for it: they put it
        // right when they can at once, and otherwise say that a switch is under way.
        if type(of: command).configuration.recoversInterruptedSwitch {
            recoverInterruptedSwitch()
        }
        // The config writer reads the user's overrides of registry accounts as overrides. Only
        // with a registry: a task-local value brings the concurrency runtime's task-local code
        // into every start (`perch current` in a prompt), which pushed the hot functions apart.
        guard access(RegistryPaths(statePath: paths.state).index, F_OK) == 0 else { return command.run(self) }
        return ConfigLayering.$statePath.withValue(paths.state) { command.run(self) }
    }

    /// This tool with consent given or not (`--yes`).
    func with(assumeYes: Bool) -> CommandLineTool {
        var tool = self
        tool.assumeYes = assumeYes
        return tool
    }

    /// This tool with a switch run as `switching` says.
    func with(switching: SwitchSettings) -> CommandLineTool {
        var tool = self
        tool.switching = switching
        return tool
    }

    // MARK: - Loading

    /// The config, or nil after reporting why it cannot be used.
    func loadConfig(reportUnknownKeys: Bool = false) -> LoadedConfig? {
        do {
            return try ConfigLoader.load(paths, reportUnknownKeys: reportUnknownKeys)
        } catch {
            // Bug: a broken config stopped every command with no word of how to mend it (an
            // empty one already names perch init).
            var lines = error.lines
            switch error {
            case .syntax: lines[lines.count - 1] += "; fix it with `perch config edit`"
            case .invalid: lines.append("fix it with `perch config edit` (it checks the copy before installing it)")
            default: break
            }
            for line in lines { console.error(line) }
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

    // MARK: - Accounts

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

    // MARK: - Output

    /// `id: Name (handle)`, made safe for a terminal.
    func describe(_ account: Account) -> String {
        "\(shown(account.id)): \(shown(account.name))" + (account.handle.map { " (\(shown($0)))" } ?? "")
    }

    func shown(_ text: String) -> String { PerchApp.visibleControls(text) }

    /// `path` as `~/…` when it is below HOME, as the rest of Perch's output names files, made
    /// safe for a terminal. (`perch config path` prints the whole path, for scripts.)
    func shownPath(_ path: String) -> String {
        shown(PerchPaths.tilde(path, home: IdentityEnvironment.current().home))
    }

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
