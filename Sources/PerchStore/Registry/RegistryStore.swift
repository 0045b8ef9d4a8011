import FoundationEssentials
import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Where Perch keeps the registries of this machine, beside the state file (its `.json` suffix
/// replaced): the index `state.registries.json` and the folder `state.registries/`, holding a
/// bare repository per registry (`NAME.git`), each registry's definitions at the commit in use
/// (`NAME-COMMIT.json`) and the accounts every command reads (`accounts-N.json`). None of them is
/// a file of the user's: a registry never rewrites `accounts.json`, `~/.aws/config` or the like.
public struct RegistryPaths: Hashable, Sendable {
    /// The index (``RegistryIndex``).
    public var index: String
    /// The folder of the rest.
    public var folder: String

    /// The paths for the state file at `statePath`.
    public init(statePath: String) {
        let stem = statePath.hasSuffix(".json") ? String(statePath.dropLast(5)) : statePath
        index = stem + ".registries.json"
        folder = stem + ".registries"
    }

    /// The bare repository of registry `name`.
    public func repository(_ name: String) -> String { folder + "/" + name + ".git" }
    /// The definitions `record` uses.
    public func definitions(_ record: RegistryRecord) -> String {
        folder + "/" + (record.file ?? record.name + "-" + record.commit + ".json")
    }
}

/// One registry as recorded on this machine.
public struct RegistryRecord: Codable, Hashable, Sendable {
    /// Its name: the group its accounts are listed under (`a`–`z`, `0`–`9`, `.`, `_`, `-`).
    public var name: String
    /// What git fetches from (any URL git knows, ssh and https included).
    public var url: String
    /// The branch, tag or commit asked for; nil for the repository's default branch (`HEAD`).
    public var ref: String?
    /// The folder in the repository that holds `perch-registry.json`; nil for its top.
    public var path: String?
    /// The commit in use (40 or 64 hex digits).
    public var commit: String
    /// When the commit was fetched, seconds since the epoch.
    public var fetched: Int64
    /// The member's answers to the file's `values`, by name.
    public var values: [String: String]
    /// An allowed-signers file (ssh-keygen(1) ALLOWED SIGNERS): when set, a commit is used only
    /// when `git verify-commit` finds it signed by a key the file names.
    public var allowedSigners: String?
    /// An OpenPGP key's fingerprint: when set, a commit is used only when it carries a valid
    /// signature by that key (``allowedSigners`` is for ssh keys).
    public var signingKey: String?
    /// The code-bearing parts trusted (``RegistryDefinitions/codeText``), or nil.
    public var trustedCode: String?
    /// The commit that was trusted (for messages).
    public var trustedCommit: String?
    /// The file (in ``RegistryPaths/folder``) of its definitions, named anew whenever they
    /// change, so that the index in use never names a file being written.
    public var file: String?

    /// A record with no signing requirement and nothing trusted; `fetched` in seconds since the epoch.
    public init(name: String, url: String, ref: String?, path: String?, commit: String, fetched: Int64, values: [String: String]) {
        self.name = name
        self.url = url
        self.ref = ref
        self.path = path
        self.commit = commit
        self.fetched = fetched
        self.values = values
    }

    /// The commit's first 7 hex digits, as git shows it short.
    public var shortCommit: String { String(commit.prefix(7)) }

    /// Whether the code-bearing parts of `definitions` (this registry's at ``commit``) are trusted:
    /// always, when there are none.
    public func trusts(_ definitions: RegistryDefinitions) -> Bool {
        let code = definitions.codeText
        return code.isEmpty || code == trustedCode
    }

    /// Whether `name` can name a registry: an account id's characters, not starting with `-` or `.`.
    public static func isValidName(_ name: String) -> Bool {
        // Bug (hostile review): a registry named `tools-a` had its files removed as stale tool folders.
        Account.isValidID(name) && !name.hasPrefix("-") && !name.hasPrefix(".") && name.utf8.count <= 64
            && !name.hasPrefix("tools-") && !name.hasPrefix("accounts-")
    }
}

/// The registries of this machine, in order (the first one's fields win nowhere: a field two
/// registries set differently is a conflict, never resolved by order).
public struct RegistryIndex: Codable, Hashable, Sendable {
    /// Format version of the index.
    public var version = 1
    /// The registries, in the order they were added.
    public var registries: [RegistryRecord] = []
    /// The file (in ``RegistryPaths/folder``) of the accounts every command reads.
    public var accounts: String?
    /// The folder (in ``RegistryPaths/folder``) of the trusted registries' tool descriptions,
    /// one file each, read at start-up beside the user's own (which win); nil for none.
    public var tools: String?

    /// An index with no registry (what a machine without one reads).
    public init() {}

    /// The record named `name`, or nil.
    public func record(_ name: String) -> RegistryRecord? { registries.first { $0.name == name } }
}

/// Why the registries' files could not be read or written.
public struct RegistryFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line: the file and what is wrong with it.
    public var description: String
    /// The error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Two registries that set one field of one account differently.
public struct RegistryConflict: Hashable, Sendable, CustomStringConvertible {
    /// The account's id (or `(tool description)`).
    public var account: String
    /// The field's dotted path (`git.email`, or `tool NAME`).
    public var field: String
    /// The earlier registry in order and its value as JSON text.
    public var first: (registry: String, value: String)
    /// The later registry and its value as JSON text.
    public var second: (registry: String, value: String)

    /// Equal when they say the same (``description``).
    public static func == (a: RegistryConflict, b: RegistryConflict) -> Bool { a.description == b.description }
    /// Hashes ``description``.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// `account web, field git.email: registry company says "a@x", registry team says "b@x"`.
    public var description: String {
        "account \(account), field \(field): registry \(first.registry) says \(first.value), registry \(second.registry) says \(second.value)"
    }
}

/// Reads and writes the registries' files (``RegistryPaths``).
public enum RegistryStore {
    /// The index, or an empty one when there is none.
    /// - Throws: ``RegistryFileError`` when it exists but cannot be read or decoded.
    public static func readIndex(_ paths: RegistryPaths) throws(RegistryFileError) -> RegistryIndex {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(paths.index, limit: 4 << 20)
        } catch {
            if error.isNotFound { return RegistryIndex() }
            throw RegistryFileError("\(error)")
        }
        do {
            return try JSONDecoder().decode(RegistryIndex.self, from: Data(bytes))
        } catch {
            throw RegistryFileError("\(paths.index): not an index this Perch can read (\(error))")
        }
    }

    /// The definitions `record` uses, as written when it was accepted.
    /// - Throws: ``RegistryFileError``.
    public static func definitions(of record: RegistryRecord, _ paths: RegistryPaths) throws(RegistryFileError) -> RegistryDefinitions {
        let path = paths.definitions(record)
        do {
            return try RegistryDefinitions.readAccepted(try FileSystem.read(path, limit: 256 << 20))
        } catch let error as FileError {
            throw RegistryFileError("\(error)")
        } catch {
            throw RegistryFileError("\(path): \(error)")
        }
    }

    /// Fields two registries set differently: each account's fields, registry by registry in
    /// `order`, compared by their dotted paths (`git.email`). `group` is the registry's name and
    /// never compared.
    /// - Parameter overridden: by account id, the fields the user's own `accounts.json` sets
    ///   over the registries' (their dotted paths): the user's value wins there, so two
    ///   registries that disagree on such a field do not conflict.
    public static func conflicts(
        _ order: [(name: String, definitions: RegistryDefinitions)], overridden: [String: Set<String>] = [:]
    ) -> [RegistryConflict] {
        var seen: [String: [(registry: String, leaves: [(path: String, value: JSONValue)])]] = [:]
        var conflicts: [RegistryConflict] = []
        for (name, definitions) in order {
            for (id, object) in definitions.accounts {
                let leaves = object.leaves(prefix: "").filter { $0.path != "group" && $0.path != "id" }
                let mine = overridden[id] ?? []
                for earlier in seen[id] ?? [] {
                    for leaf in leaves where !mine.contains(where: { leaf.path == $0 || leaf.path.hasPrefix($0 + ".") }) {
                        for other in earlier.leaves
                        where other.path == leaf.path
                            ? other.value != leaf.value
                            : (other.path.hasPrefix(leaf.path + ".") || leaf.path.hasPrefix(other.path + "."))
                        {
                            conflicts.append(
                                RegistryConflict(
                                    account: id, field: min(other.path, leaf.path), first: (earlier.registry, other.value.text),
                                    second: (name, leaf.value.text)))
                        }
                    }
                }
                seen[id, default: []].append((name, leaves))
            }
        }
        // A tool two registries describe differently.
        var tools: [String: (registry: String, object: JSONValue)] = [:]
        for (name, definitions) in order {
            for tool in definitions.tools {
                if let earlier = tools[tool.name], earlier.object != tool.object {
                    conflicts.append(
                        RegistryConflict(
                            account: "(tool description)", field: "tool " + tool.name, first: (earlier.registry, "one description"),
                            second: (name, "another")))
                } else if tools[tool.name] == nil {
                    tools[tool.name] = (name, tool.object)
                }
            }
        }
        return conflicts
    }

    /// Makes `index` the registries of this machine, with `definitions` (by registry name) as
    /// the definitions of each record's commit, in one step: the definitions and the accounts
    /// are written first under new names, then the index is replaced (rename(2)); a crash or
    /// Ctrl-C at any point leaves the previous index, and the files it names, in use. Files no
    /// index names any more are removed last. Runs under the state file's lock (the one a
    /// switch takes), so an update and a switch never interleave.
    /// - Parameters:
    ///   - statePath: the state file (its lock is taken).
    ///   - replacing: the index the change was made from: when another command changed it since,
    ///     nothing is written (two registry commands at once would lose one's change).
    /// - Throws: ``RegistryFileError``; nothing changed then.
    public static func commit(
        _ index: RegistryIndex, definitions: [String: RegistryDefinitions], paths: RegistryPaths, statePath: String,
        replacing previous: RegistryIndex? = nil
    ) throws(RegistryFileError) {
        do {
            try FileSystem.withExclusiveLock(statePath + ".lock", timeoutMilliseconds: 10_000) {
                if let previous, try readIndex(paths) != previous {
                    throw RegistryFileError("another registry command changed the registries meanwhile; run this one again")
                }
                try FileSystem.createDirectory(paths.folder)
                var index = index
                var effective: [(id: String, object: JSONValue)] = []
                var positions: [String: Int] = [:]
                for (position, record) in index.registries.enumerated() {
                    guard let found = definitions[record.name] else { throw RegistryFileError("no definitions for \(record.name)") }
                    let text = Array(found.acceptedText.utf8)
                    if record.file == nil || (try? FileSystem.read(paths.definitions(record), limit: 256 << 20)) != text {
                        let name = "\(record.name)-\(record.commit)-\(CurrentAccountCache.realTimeNanoseconds()).json"
                        try FileSystem.writeAtomically(text, to: paths.folder + "/" + name, mode: 0o600)
                        index.registries[position].file = name
                    }
                    let trusted = record.trusts(found)
                    for (id, object) in found.accounts {
                        var object = trusted ? object : RegistryDefinitions.withoutCode(object)
                        object = object.merging(.object([("group", .string(record.name))]))
                        if let at = positions[id] {
                            // No conflict remains here (refused before): the fields join.
                            effective[at].object = object.merging(effective[at].object)
                        } else {
                            positions[id] = effective.count
                            effective.append((id, object))
                        }
                    }
                }
                // The tool descriptions of the trusted registries, one file each, in a folder of their own.
                let trustedTools = index.registries.flatMap { record in
                    let found = definitions[record.name]!
                    return record.trusts(found) ? found.tools.map { (record.name, $0.name, $0.object) } : []
                }
                index.tools = nil
                if !trustedTools.isEmpty {
                    let name = "tools-\(CurrentAccountCache.realTimeNanoseconds())"
                    try FileSystem.createDirectory(paths.folder + "/" + name)
                    // Named as the tool (its description must be): registries never disagree on one (``conflicts(_:)``).
                    for (_, tool, object) in trustedTools {
                        let file = paths.folder + "/" + name + "/" + tool + ".json"
                        try FileSystem.writeAtomically(Array((object.text + "\n").utf8), to: file, mode: 0o600)
                    }
                    index.tools = name
                }
                if index.registries.isEmpty {
                    index.accounts = nil
                } else {
                    let name = "accounts-\(CurrentAccountCache.realTimeNanoseconds()).json"
                    let text = "{\"version\": 1, \"accounts\": [\n" + effective.map(\.object.text).joined(separator: ",\n") + "\n]}\n"
                    try FileSystem.writeAtomically(Array(text.utf8), to: paths.folder + "/" + name, mode: 0o600)
                    index.accounts = name
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(index)
                try FileSystem.writeAtomically(Array(data) + [0x0A], to: paths.index, mode: 0o600)
                // The commit point is behind us: what no index names goes.
                var kept = Set(index.registries.map { paths.definitions($0) })
                if let accounts = index.accounts { kept.insert(paths.folder + "/" + accounts) }
                for name in FileSystem.names(in: paths.folder) where name.hasSuffix(".json") && !kept.contains(paths.folder + "/" + name) {
                    unlink(paths.folder + "/" + name)
                }
                // What a write killed half-way left (`.NAME.tmp-XXXXXX`), here and beside the index.
                for name in FileSystem.names(in: paths.folder) where name.hasPrefix(".") && name.contains(".tmp-") {
                    unlink(paths.folder + "/" + name)
                }
                FileSystem.removeStaleTemporaryFiles(of: paths.index)
                for name in FileSystem.names(in: paths.folder) where name.hasPrefix("tools-") && name != index.tools {
                    removeTree(paths.folder + "/" + name)
                }
                for name in FileSystem.names(in: paths.folder) where name.hasSuffix(".git") {
                    if !index.registries.contains(where: { $0.name + ".git" == name }) { removeTree(paths.folder + "/" + name) }
                }
            }
        } catch let error as RegistryFileError {
            throw error
        } catch {
            throw RegistryFileError("\(error)")
        }
    }

    /// Removes `path` and, for a folder, everything below it (symbolic links are removed, never followed).
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in FileSystem.names(in: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The accounts of the registries, as every command reads them: nil when there is no
    /// registry. A file that cannot be read is reported in ``Effective/warning`` and its
    /// accounts left out, never stopping Perch.
    public static func effective(statePath: String) -> Effective? {
        let paths = RegistryPaths(statePath: statePath)
        guard access(paths.index, F_OK) == 0 else { return nil }
        let index: RegistryIndex
        do {
            index = try readIndex(paths)
        } catch {
            return Effective(accounts: [], document: nil, warning: "registries: \(error)")
        }
        guard let name = index.accounts else { return nil }
        let path = paths.folder + "/" + name
        do {
            let bytes = try FileSystem.read(path, limit: 256 << 20)
            let document = try JSONReader.read(bytes)
            var reading = ConfigReading(document: document, reportUnknownKeys: false)
            let accounts = reading.file()
            if !reading.problems.isEmpty {
                return Effective(accounts: accounts, document: document, warning: "registries: \(path): " + reading.problems[0])
            }
            return Effective(accounts: accounts, document: document, warning: nil)
        } catch {
            return Effective(accounts: [], document: nil, warning: "registries: \(path): \(error)")
        }
    }

    /// The registries' accounts as loaded for a run.
    public struct Effective: Sendable {
        /// The accounts, in the registries' order, code left out where not trusted.
        public var accounts: [Account]
        /// The accounts file as read (for the user's overrides, which patch its objects).
        var document: JSONDocument?
        /// Why some accounts are missing, or nil.
        public var warning: String?

        /// The object of account `id` in the file, or nil.
        func object(_ id: String) -> JSONValue? {
            guard let document, let list = document.value(of: document.root, forKey: "accounts") else { return nil }
            for element in document.elements(list) {
                if let value = document.value(of: element, forKey: "id"), document.string(value) == id {
                    return JSONValue(document, element)
                }
            }
            return nil
        }
    }
}

extension RegistryDefinitions {
    /// The definitions as the index keeps them (templates filled): `{"version": 1, "values": […], "accounts": […]}`.
    var acceptedText: String {
        let values =
            "["
            + self.values.map { value in
                "{\"name\": \(ConfigWriter.json(value.name)), \"prompt\": \(ConfigWriter.json(value.prompt))"
                    + (value.example.map { ", \"example\": " + ConfigWriter.json($0) } ?? "") + "}"
            }.joined(separator: ", ") + "]"
        return "{\"version\": 1, \"values\": \(values), \"accounts\": [\n" + accounts.map(\.object.text).joined(separator: ",\n")
            + "\n], \"tools\": [" + tools.map(\.object.text).joined(separator: ",\n") + "]}\n"
    }

    /// Reads back ``acceptedText``: nothing is filled again.
    static func readAccepted(_ bytes: [UInt8]) throws -> RegistryDefinitions {
        let document = try JSONReader.read(bytes)
        guard case .object(let members) = JSONValue(document, document.root) else { throw RegistryFileError("not an object") }
        let top = Dictionary(members, uniquingKeysWith: { first, _ in first })
        var values: [Value] = []
        if case .array(let list)? = top["values"] {
            for case .object(let fields) in list {
                let fields = Dictionary(fields, uniquingKeysWith: { first, _ in first })
                guard case .string(let name)? = fields["name"], case .string(let prompt)? = fields["prompt"] else { continue }
                var example: String?
                if case .string(let text)? = fields["example"] { example = text }
                values.append(Value(name: name, prompt: prompt, example: example))
            }
        }
        var accounts: [(id: String, object: JSONValue)] = []
        if case .array(let list)? = top["accounts"] {
            for object in list {
                guard case .object(let fields) = object, case .string(let id)? = fields.first(where: { $0.0 == "id" })?.1 else { continue }
                accounts.append((id, object))
            }
        }
        var tools: [(name: String, object: JSONValue)] = []
        if case .array(let list)? = top["tools"] {
            for object in list {
                guard case .object(let fields) = object, case .string(let name)? = fields.first(where: { $0.0 == "tool" })?.1 else {
                    continue
                }
                tools.append((name, object))
            }
        }
        return RegistryDefinitions(values: values, accounts: accounts, tools: tools)
    }
}

extension RegistryStore {
    /// The folder of the trusted registries' tool descriptions for the state file at
    /// `statePath`, or nil when there is none (one access(2) when there is no registry).
    public static func trustedToolsFolder(statePath: String) -> String? {
        let paths = RegistryPaths(statePath: statePath)
        guard access(paths.index, F_OK) == 0, let index = try? readIndex(paths), let tools = index.tools else { return nil }
        return paths.folder + "/" + tools
    }
}

/// The state file whose registries the config being edited is layered over, for the config
/// writer: an entry of `accounts.json` with a registry account's id is an override that may
/// name only some fields (``ConfigLoader/Override``), and an edit must read it so. Set around
/// a command or a job with `ConfigLayering.$statePath.withValue(…)`; the ids are read only
/// when the writer asks (a command that writes nothing never reads the registries).
public enum ConfigLayering {
    @TaskLocal public static var statePath: String?

    /// The ids of the registries' accounts for ``statePath``; empty when there is none.
    public static var registryIDs: Set<String> {
        guard let statePath, let effective = RegistryStore.effective(statePath: statePath) else { return [] }
        return Set(effective.accounts.map(\.id))
    }
}
