import FoundationEssentials
import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Accounts as loaded for a run, and where they came from.
public struct LoadedConfig: Hashable, Sendable {
    public var accounts: [Account]
    /// The file read, or nil when the embedded sample accounts are in use.
    public var path: String?
    /// Problems that do not stop Perch (unknown keys), each starting with its JSON path.
    public var warnings: [String] = []
    /// Whether, with no config of the user's, the accounts are the registries' (`perch registry`)
    /// rather than the embedded samples.
    public var fromRegistries = false

    /// - Parameter path: the file read, or nil for the embedded sample accounts.
    public init(accounts: [Account], path: String?, warnings: [String] = []) {
        self.accounts = accounts
        self.path = path
        self.warnings = warnings
    }

    /// Whether the accounts are the embedded samples: no config of the user's and no registry.
    /// A switch among them changes no tool.
    public var isSamples: Bool { path == nil && !fromRegistries }

    /// A one-line description for the Settings pane.
    public var description: String {
        path ?? (fromRegistries ? "none (the registries' accounts only)" : "none (embedded sample accounts)")
    }
}

/// Why a config could not be used.
public enum ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(FileError)
    /// The file holds nothing but white space.
    case empty(path: String)
    /// The file is not valid JSON: 1-based line and column of the first error.
    case syntax(path: String, line: Int, column: Int, message: String)
    /// The JSON does not describe accounts; one message per problem, each starting with its JSON path.
    case invalid(path: String, problems: [String])
    /// The file holds commands (``Account/runsCommands``) but others could change them: `mode` is its permission bits.
    case unsafePermissions(path: String, mode: UInt32)
    /// The file holds commands (``Account/runsCommands``) but belongs to another user (`owner` is its uid).
    case unsafeOwner(path: String, owner: UInt32)
    /// A tool description could not be used (docs/tools.md): one line per problem, each starting
    /// `tool description PATH:` (``ToolConfigRegistry/problems``).
    case toolDescriptions(problems: [String])

    /// The message, one line per problem (each starting with `config PATH:`).
    public var lines: [String] {
        switch self {
        case .unreadable(let error):
            return ["config \(error)"]
        case .empty(let path):
            return [
                "config \(path): the file is empty; write a starter config with `perch init` (or remove the file to use the sample accounts)"
            ]
        case .syntax(let path, let line, let column, let message):
            return ["config \(path): line \(line), column \(column): \(message)"]
        case .invalid(let path, let problems):
            return problems.map { "config \(path): \($0)" }
        case .unsafePermissions(let path, let mode):
            let octal = String(mode & 0o7777, radix: 8)
            return [
                "config \(path): holds commands (onSwitch, a Catalog command, or an env variable a shell acts on) but is writable by group or others (mode \(octal)); run: chmod go-w \(ConfigLoader.shellQuoted(path))"
            ]
        case .toolDescriptions(let problems):
            return problems + ["fix or remove the description (docs/tools.md); perch config check lists every problem"]
        case .unsafeOwner(let path, let owner):
            return [
                "config \(path): holds commands (onSwitch, a Catalog command, or an env variable a shell acts on) but belongs to another user (uid \(owner)); only your own config may run commands"
            ]
        }
    }

    /// Every problem on one line (`; ` between them), for a banner.
    public var description: String {
        guard case .invalid(let path, let problems) = self else { return lines.joined(separator: "; ") }
        return "config \(path): " + problems.joined(separator: "; ")
    }
}

/// Reads and validates the accounts config, format version 1 (see "Config" in `docs/files.md`):
/// `{"version": 1, "accounts": [{"id": "work", "name": "Work", "handle": "@someone", "group": "Jobs",
/// "color": "blue", "onSwitch": "…"}]}`. Every problem is collected and reported with its JSON
/// path; unknown keys are warnings.
public enum ConfigLoader {
    /// The config format version this build reads and writes.
    public static let currentVersion = 1

    /// Parsed accounts and the warnings found on the way.
    public struct Parsed: Hashable, Sendable {
        public var accounts: [Account]
        public var warnings: [String]
        /// The user's overrides of registry accounts (see ``parse(_:path:reportUnknownKeys:overriding:)``), in file order.
        public var overrides: [Override] = []
    }

    /// An account of the user's file whose id is a registry account's: only the fields it
    /// names, applied over the registry's as JSON Merge Patch (RFC 7396).
    public struct Override: Hashable, Sendable {
        /// Its index in the file's `accounts`.
        public var index: Int
        /// The registry account's id it overrides.
        public var id: String
        /// The account's object as written.
        public var patch: JSONValue
    }

    /// Loads the config at `paths.config`. A missing file that was not named explicitly means
    /// "no config yet": the embedded sample accounts are used.
    /// - Parameter reportUnknownKeys: whether to look for unknown keys (warnings), which costs
    ///   about half as much again as reading the accounts; `perch config check` does.
    /// - Throws: ``ConfigError``.
    public static func load(_ paths: PerchPaths, reportUnknownKeys: Bool = false) throws(ConfigError) -> LoadedConfig {
        // The registries' accounts (`perch registry`), nil when there is none: one stat(2) then.
        let registries = RegistryStore.effective(statePath: paths.state)
        let file: FileContents
        do {
            file = try FileSystem.readContents(paths.config)
        } catch {
            if error.isNotFound, !paths.configIsExplicit {
                if let registries, !registries.accounts.isEmpty {
                    var loaded = LoadedConfig(accounts: registries.accounts, path: nil, warnings: registries.warning.map { [$0] } ?? [])
                    loaded.fromRegistries = true
                    return loaded
                }
                return LoadedConfig(accounts: Account.samples, path: nil)
            }
            throw .unreadable(error)
        }
        // A tool the user described that cannot be used: an account naming it must not lose it silently.
        let described = ToolConfigRegistry.problems
        if !described.isEmpty { throw .toolDescriptions(problems: described) }
        let registryIDs = registries.map { Set($0.accounts.map(\.id)) } ?? []
        let parsed = try parse(file.bytes, path: paths.config, reportUnknownKeys: reportUnknownKeys, overriding: registryIDs)
        if parsed.accounts.contains(where: \.runsCommands)
            || parsed.overrides.contains(where: { Self.runsCommands($0.patch) })
        {
            // As ssh does with its config: commands that others could change are not run.
            if file.mode & 0o022 != 0 { throw .unsafePermissions(path: paths.config, mode: file.mode) }
            if file.owner != getuid(), file.owner != 0 { throw .unsafeOwner(path: paths.config, owner: file.owner) }
        }
        guard let registries else { return LoadedConfig(accounts: parsed.accounts, path: paths.config, warnings: parsed.warnings) }
        // The user's own accounts, then the registries' with the user's fields over theirs.
        var accounts = parsed.accounts
        var problems: [String] = []
        var overridden: [String: Account] = [:]
        for override in parsed.overrides {
            guard let base = registries.object(override.id) else { continue }
            let merged = base.merging(override.patch)
            let text = #"{"accounts": ["# + merged.text + "]}"
            do {
                let one = try parse(Array(text.utf8), path: paths.config, reportUnknownKeys: false)
                if let account = one.accounts.first { overridden[override.id] = account }
            } catch {
                // Messages name the merged account's field, without the merged text's line and column.
                let found: [String] =
                    if case .invalid(_, let list) = error {
                        list.map { line in
                            let text = line.firstRange(of: ": ").map { String(line[$0.upperBound...]) } ?? line
                            return text.hasPrefix("accounts[0].") ? String(text.dropFirst(12)) : text
                        }
                    } else {
                        error.lines
                    }
                problems += found.map { "accounts[\(override.index)] (over the registry's account \"\(override.id)\"): " + $0 }
            }
        }
        if !problems.isEmpty { throw .invalid(path: paths.config, problems: problems) }
        // A folder or remote one of the user's own accounts binds stays theirs: a registry's
        // binding of it is left out, and said. Bug (hostile review): a registry's account took
        // the user's `~/work` (its author chosen there), and config check said all was valid.
        let home = PerchPaths.environment("HOME") ?? "~"
        let ownFolders = Set(parsed.accounts.flatMap { $0.identities.directories.map { DirectoryRules.absolute($0, home: home) } })
        let ownRemotes = Set(parsed.accounts.flatMap(\.identities.remotes))
        var warnings = parsed.warnings + (registries.warning.map { [$0] } ?? [])
        accounts.reserveCapacity(accounts.count + registries.accounts.count)
        for registryAccount in registries.accounts {
            var account = overridden[registryAccount.id] ?? registryAccount
            if !ownFolders.isEmpty || !ownRemotes.isEmpty, !account.identities.directories.isEmpty || !account.identities.remotes.isEmpty {
                var identities = account.identities
                let folders = identities.directories.filter { ownFolders.contains(DirectoryRules.absolute($0, home: home)) }
                let remotes = identities.remotes.filter { ownRemotes.contains($0) }
                for taken in folders + remotes {
                    warnings.append("registry account \(account.id): \(taken) is bound by an account of your own, which keeps it")
                }
                identities.directories.removeAll { folders.contains($0) }
                identities.remotes.removeAll { remotes.contains($0) }
                account.identities = identities
            }
            accounts.append(account)
        }
        return LoadedConfig(accounts: accounts, path: paths.config, warnings: warnings)
    }

    /// Whether an override of the user's (`patch`) names a command (``Account/runsCommands``
    /// says the same of an account): `onSwitch`, `catalog`, or an `env` variable a shell acts on.
    static func runsCommands(_ patch: JSONValue) -> Bool {
        guard case .object(let fields) = patch else { return false }
        return fields.contains { key, value in
            if RegistryDefinitions.codeKeys.contains(key) { return value != .null }
            guard key == "env", case .object(let entries) = value else { return false }
            return entries.contains { EnvironmentEntry.isCodeBearingName($0.0) }
        }
    }

    /// Parses and validates config JSON, or JSON with Comments (`//` and `/* */` comments and
    /// trailing commas, see ``JSONReader``); `path` is used in messages only. Every problem
    /// starts with its line and column and then its JSON path.
    /// - Throws: ``ConfigError/empty(path:)``, ``ConfigError/syntax(path:line:column:message:)`` or
    ///   ``ConfigError/invalid(path:problems:)``.
    /// - Parameter overriding: the ids of the registries' accounts: an account of the file with
    ///   one of them is an override (``Parsed/overrides``), which may name only some fields.
    public static func parse(_ bytes: [UInt8], path: String, reportUnknownKeys: Bool = true, overriding: Set<String> = [])
        throws(ConfigError)
        -> Parsed
    {
        // A UTF-8 byte order mark, as some editors write, is not part of the JSON (the reader skips it).
        let hasMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if bytes.dropFirst(hasMark ? 3 : 0).allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .empty(path: path)
        }
        let document: JSONDocument
        do {
            document = try JSONReader.read(bytes, options: .jsonWithComments)
        } catch {
            throw .syntax(path: path, line: error.line, column: error.column, message: error.message)
        }
        var reading = ConfigReading(document: document, reportUnknownKeys: reportUnknownKeys)
        reading.overrideIDs = overriding
        let accounts = reading.file()
        if !reading.problems.isEmpty {
            throw .invalid(path: path, problems: reading.problems + reading.warnings.map { $0 + " (a warning)" })
        }
        let overrides = reading.overrides.map { Override(index: $0.index, id: $0.id, patch: JSONValue(document, $0.element)) }
        return Parsed(accounts: accounts, warnings: reading.warnings, overrides: overrides)
    }

    /// `path` quoted for a POSIX shell when it needs quoting.
    /// Every key an account of format version 1 may have: its fields, then the tools'
    /// (`id`, `name`, …, `git`, `ssh`, …).
    public static var accountKeys: [String] { ConfigReading.accountKeys + IdentityConfig.keys }

    public static func shellQuoted(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "/._-+~,@%:".utf8.contains(byte)
        }
        return plain ? path : "'" + path.replacing("'", with: #"'\''"#) + "'"
    }
}

/// A key that is not one of `known`, as a warning with a guess at what was meant.
func unknownKeyWarning(_ key: String, at parent: String, known: [String]) -> String {
    let place = parent.isEmpty ? key : parent + "." + key
    let guess = known.first { editDistance($0.lowercased(), key.lowercased()) <= 2 }
    return "\(place): unknown key, ignored" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "")
}

/// Levenshtein distance between `a` and `b`, in Unicode scalars.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
