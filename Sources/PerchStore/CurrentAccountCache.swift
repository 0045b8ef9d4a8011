import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// The current account (every field and tool identity, as `perch current --json` prints them), kept beside the state file (`<state>.current`) so that
/// `perch current`, which runs in every shell prompt, need not read a large config.
///
/// An entry is keyed by the identity of the config and of the state file it was made from:
/// device, inode, size, and modification and status-change times in nanoseconds
/// (``FileIdentity``). Any write to either file changes its status-change time, and an atomic
/// replace its inode, so an entry made before a change never matches after it. File times come
/// from a coarse clock, so two writes a few milliseconds apart can leave the same times: as Git
/// does with its index, an entry is only made when both files are older than
/// ``racyWindowNanoseconds`` (a write after that gets newer times). The config's contents are
/// never trusted from the cache when its identity is unknown or does not match.
public struct CurrentAccountCache: Sendable {
    /// The cache file.
    public let path: String

    /// The format of the cache file: 2 keeps the whole account, tool identities included (1
    /// kept only its fields, and is not read any more).
    /// 3 also keys it by the registries' index (``RegistryPaths/index``).
    static let version = 3

    /// How old both files must be, in nanoseconds, before an entry is made from them (2 s).
    public static let racyWindowNanoseconds: Int64 = 2_000_000_000

    /// The cache for the state file at `statePath`.
    public init(statePath: String) {
        path = statePath + ".current"
    }

    /// Who a file is, as far as a cache can tell without reading it.
    public struct FileIdentity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        /// Bytes.
        public var size: Int64
        /// Modification time, nanoseconds since the epoch.
        public var modified: Int64
        /// Status-change time, nanoseconds since the epoch (not settable by `touch`).
        public var changed: Int64

        /// The identity of the regular file at `path` (symbolic links followed), or nil.
        public static func of(_ path: String) -> FileIdentity? {
            guard let status = FileStatus.of(path), status.kind == .regular else { return nil }
            return FileIdentity(
                device: status.device, inode: status.inode, size: status.size, modified: status.modified, changed: status.changed)
        }

        var numbers: [Int64] { [Int64(bitPattern: device), Int64(bitPattern: inode), size, modified, changed] }
    }

    /// The current account as cached for these two files, or nil when there is no entry for
    /// them as they are now.
    public func account(configPath: String, statePath: String) -> Account? {
        guard let config = FileIdentity.of(configPath), let state = FileIdentity.of(statePath),
            let bytes = try? FileSystem.read(path, limit: 64 << 10),
            let document = try? JSONReader.read(bytes), document.kind(document.root) == .object
        else { return nil }
        let root = document.root
        func numbers(_ key: String) -> [Int64]? {
            guard let list = document.value(of: root, forKey: key) else { return nil }
            let values = document.elements(list).compactMap { document.numberText($0).flatMap { Int64($0) } }
            return values.count == 5 ? values : nil
        }
        guard document.value(of: root, forKey: "version").flatMap(document.integer) == Self.version,
            document.value(of: root, forKey: "config").flatMap(document.string) == configPath,
            document.value(of: root, forKey: "state").flatMap(document.string) == statePath,
            numbers("configIdentity") == config.numbers, numbers("stateIdentity") == state.numbers,
            numbers("registriesIdentity") == FileIdentity.of(RegistryPaths(statePath: statePath).index)?.numbers,
            let entry = document.value(of: root, forKey: "account")
        else { return nil }
        // The account as the config writer wrote it, read back as the config's reader reads it.
        let wrapped = Array(#"{"accounts": ["#.utf8) + bytes[document.range(entry)] + Array("]}".utf8)
        guard let parsed = try? ConfigLoader.parse(wrapped, path: path, reportUnknownKeys: false), parsed.accounts.count == 1 else {
            return nil
        }
        return parsed.accounts[0]
    }

    /// Keeps `account` (every field, as `perch current --json` prints them) for the config and state files as
    /// `config` and `state` identified them before they were read. Does nothing when either is
    /// unknown or younger than ``racyWindowNanoseconds`` at `now` (nanoseconds since the epoch,
    /// the clock file times use). A cache that cannot be written is no error: the next run reads
    /// the config again.
    public func store(
        _ account: Account, configPath: String, config: FileIdentity?, statePath: String, state: FileIdentity?,
        now: Int64 = CurrentAccountCache.realTimeNanoseconds()
    ) {
        guard let config, let state else { return }
        // The registries' index is identified now, not before the config was read: it is
        // replaced by rename(2), and one replaced in the racy window is never kept.
        let registries = FileIdentity.of(RegistryPaths(statePath: statePath).index)
        let newest = max(
            config.modified, config.changed, state.modified, state.changed, registries?.modified ?? 0, registries?.changed ?? 0)
        guard now - newest >= Self.racyWindowNanoseconds else { return }
        let accountText = ConfigWriter.jsonLine(account)
        func list(_ identity: FileIdentity) -> String { "[" + identity.numbers.map(String.init).joined(separator: ", ") + "]" }
        let text = """
            {"version": \(Self.version), "config": \(ConfigWriter.json(configPath)), "configIdentity": \(list(config)),
             "state": \(ConfigWriter.json(statePath)), "stateIdentity": \(list(state)),
             "registriesIdentity": \(registries.map(list) ?? "null"),
             "account": \(accountText)}

            """
        try? FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
    }

    /// `CLOCK_REALTIME` in nanoseconds since the epoch: the clock of file times.
    public static func realTimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
