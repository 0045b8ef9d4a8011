import FoundationEssentials
import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Why the state could not be read or saved. Its ``description`` is one line for a banner or stderr.
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (or its folder or lock) could not be read or written.
    case file(FileError)
    /// The file was written by a newer Perch (its `version`); this one will not change it.
    case newerVersion(path: String, version: Int)
    /// The file is a Perch config (it has `accounts`), given as the state file by mistake; it is
    /// neither read as state nor changed.
    case notState(path: String)

    public var description: String {
        switch self {
        case .file(let error): return "\(error)"
        case .newerVersion(let path, let version):
            return "\(path) is from a newer Perch (format version \(version)); not changing it"
        case .notState(let path):
            return "\(path) is a Perch config (it lists accounts), not a state file; not changing it (check --state)"
        }
    }
}

/// Reads and writes `state.json` (see ``SavedState`` for the format). Every change is a
/// read-modify-write under an exclusive lock on `state.json.lock` that lands atomically.
/// A file that cannot be parsed is never overwritten: it is first renamed aside to
/// `state.json.corrupt-<UTC time>`; a file that cannot be read at all is left alone.
public struct StateStore: Sendable {
    /// Path of the state file.
    public let path: String
    /// Turns a state into the file's bytes (``encoded(_:)``).
    private let encode: @Sendable (SavedState) throws -> [UInt8]

    /// - Parameter encode: turns a state into the file's bytes; tests pass one that fails.
    public init(path: String, encode: @escaping @Sendable (SavedState) throws -> [UInt8] = StateStore.encoded) {
        self.path = path
        self.encode = encode
    }

    /// Path of the lock file beside the state file.
    public var lockPath: String { path + ".lock" }

    /// The switch history beside the state file.
    public var history: HistoryLog { HistoryLog(statePath: path) }

    /// The state read at start, and a warning to show once when something was wrong.
    public struct Loaded: Sendable {
        public var state: SavedState
        public var warning: String?
    }

    private enum Contents {
        case missing
        case state(SavedState)
        case corrupt
    }

    /// Reads the state at start-up. A missing file gives the default state. A file that cannot
    /// be parsed is renamed aside (kept, never dropped) and the default state is used, with a
    /// warning that says so. When `accountIDs` is given and the file's current account is not
    /// among them (it was removed from the config), a copy of the file is kept aside, the current
    /// account is cleared in the file, and the warning says so; counts and history are kept.
    /// - Throws: ``StateError`` when the file exists but cannot be read, or cannot be set aside.
    public func load(accountIDs: Set<String>? = nil) throws(StateError) -> Loaded {
        try load(isKnown: accountIDs.map { ids in { ids.contains($0) } }, repair: true)
    }

    /// As ``load(accountIDs:)`` with the ids of `accounts`, without making a set of them (one
    /// account is looked for; hashing 100,000 ids cost 14 ms of start-up).
    public func load(accounts: [Account]) throws(StateError) -> Loaded {
        try load(isKnown: { id in accounts.contains { $0.id == id } }, repair: true)
    }

    /// Reads the state and changes nothing on disk, for readers (`perch list`, `current`,
    /// `history`, and the interface when another process changed the file): a file that cannot
    /// be parsed reads as the default state, a current account outside `accountIDs` as none,
    /// each with a warning. The next switch repairs the file as ``load(accountIDs:)`` would.
    /// - Throws: ``StateError`` when the file exists but cannot be read.
    public func peek(accountIDs: Set<String>? = nil) throws(StateError) -> Loaded {
        try load(isKnown: accountIDs.map { ids in { ids.contains($0) } }, repair: false)
    }

    /// As ``peek(accountIDs:)`` with the ids of `accounts`, without making a set of them.
    public func peek(accounts: [Account]) throws(StateError) -> Loaded {
        try load(isKnown: { id in accounts.contains { $0.id == id } }, repair: false)
    }

    private func load(isKnown: ((String) -> Bool)?, repair: Bool) throws(StateError) -> Loaded {
        switch try read() {
        case .missing:
            return Loaded(state: SavedState(), warning: nil)
        case .state(var state):
            if state.version > SavedState.currentVersion {
                return Loaded(
                    state: state, warning: "\(StateError.newerVersion(path: path, version: state.version)); switches will not be saved.")
            }
            if let isKnown, let current = state.currentAccount, !isKnown(current) {
                if repair { return try clearUnknownAccount(isKnown) }
                state.currentAccount = nil
                return Loaded(
                    state: state, warning: "State names account \"\(current)\", which is not in the config; read as no current account.")
            }
            return Loaded(state: state, warning: nil)
        case .corrupt:
            guard repair else {
                return Loaded(
                    state: SavedState(),
                    warning: "State file \(path) could not be parsed; left as it is (the next switch keeps it aside and starts afresh).")
            }
            let setAside = try locked { () throws(StateError) in try setAsideIfCorrupt() }
            // Another Perch set it aside (or replaced it) first: read what is there now.
            guard let aside = setAside else { return try load(isKnown: isKnown, repair: true) }
            return Loaded(
                state: SavedState(), warning: "State file could not be parsed; kept it as \(Self.fileName(aside)) and started afresh.")
        }
    }

    /// Under the lock: when the file still names an account outside `accountIDs`, keeps a copy,
    /// clears its current account and says so.
    private func clearUnknownAccount(_ isKnown: @escaping (String) -> Bool) throws(StateError) -> Loaded {
        try locked { () throws(StateError) in
            guard case .state(var state) = try read(), state.version <= SavedState.currentVersion,
                let current = state.currentAccount, !isKnown(current)
            else { return try load(isKnown: isKnown, repair: true) }
            let copy = try keepCopy()
            state.currentAccount = nil
            try write(state)
            return Loaded(
                state: state,
                warning:
                    "State named account \"\(current)\", which is not in the config; kept a copy as \(Self.fileName(copy)) and cleared the current account."
            )
        }
    }

    /// What a switch did (the core's ``PerchDomain.SwitchOutcome``, reported to the interface as is).
    public typealias SwitchOutcome = PerchDomain.SwitchOutcome

    /// Records a switch to `accountID`, the one switching path of the interface and of
    /// `perch switch`: under the lock, reads the file again, applies
    /// ``SavedState/recordingSwitch(to:)``, writes it back atomically, then appends the switch,
    /// with the current UTC time, to the ``history``. Nothing is written when `accountID` is already current in the file.
    /// - Parameters:
    ///   - lockTimeoutMilliseconds: how long to wait for another holder of the lock.
    ///   - shouldWaitForLock: called before each step of waiting for another holder of the lock,
    ///     with the milliseconds waited so far; false gives up (see
    ///     ``FileSystem/withExclusiveLock(_:timeoutMilliseconds:shouldWait:_:)``).
    /// - Throws: ``StateError`` when the file cannot be read, is from a newer version, or the
    ///   lock or the write fails; the old file is then intact.
    public func recordSwitch(
        to accountID: String, source: SwitchSource, time: String? = nil, lockTimeoutMilliseconds: Int = 2000,
        shouldWaitForLock: (Int) -> Bool = { _ in true }
    ) throws(StateError) -> SwitchOutcome {
        try withLock(timeoutMilliseconds: lockTimeoutMilliseconds, shouldWait: shouldWaitForLock) { () throws(StateError) in
            let current = try readForUpdate()
            // A switch to the account that is already current changes nothing.
            guard current.currentAccount != accountID else {
                return SwitchOutcome(accountID: accountID, state: current, previous: current.currentAccount, changed: false)
            }
            return try commitSwitch(from: current, to: accountID, source: source, time: time)
        }
    }

    /// Runs `body` under the state lock (see ``recordSwitch(to:source:time:lockTimeoutMilliseconds:shouldWaitForLock:)``
    /// for the waiting): a switch session holds it from its plan to its commit, so two switches
    /// never interleave.
    /// - Throws: ``StateError`` when the lock cannot be had, or what `body` throws.
    public func withLock<T>(
        timeoutMilliseconds: Int = 2000, shouldWait: (Int) -> Bool = { _ in true }, _ body: () throws(StateError) -> T
    ) throws(StateError) -> T {
        try locked(timeoutMilliseconds: timeoutMilliseconds, shouldWait: shouldWait, body)
    }

    /// The state as it is in the file, for a change made under the lock: a missing file is a new
    /// state, a corrupt one is set aside first.
    /// - Throws: ``StateError`` when the file cannot be read or is from a newer Perch.
    public func readForUpdate() throws(StateError) -> SavedState {
        switch try read() {
        case .missing: return SavedState()
        case .state(let state):
            if state.version > SavedState.currentVersion { throw StateError.newerVersion(path: path, version: state.version) }
            return state
        case .corrupt:
            _ = try setAsideIfCorrupt()
            return SavedState()
        }
    }

    /// Records a switch from `current` (read under the lock, which callers hold) to `accountID`:
    /// the state written atomically, then its line appended to the history.
    /// - Parameter token: the id of the switch session, kept as ``SavedState/lastSwitch``.
    /// - Throws: ``StateError`` when the state cannot be written; the old file is then intact.
    public func commitSwitch(
        from current: SavedState, to accountID: String, source: SwitchSource, time: String? = nil, token: String? = nil
    ) throws(StateError) -> SwitchOutcome {
        var next = current.recordingSwitch(to: accountID)
        next.lastSwitch = token
        try write(next)
        // After the state: a writer killed in between loses this entry, never invents one.
        var warning: String?
        do {
            // The time the switch is saved, under the lock (not when it was asked for: a
            // switch may have waited for another process's lock).
            let saved = time ?? Self.timestamp()
            try history.append(SwitchRecord(account: accountID, previous: current.currentAccount, time: saved, source: source))
        } catch {
            warning = "The switch is saved, but not its history entry: \(error)"
        }
        return SwitchOutcome(accountID: accountID, state: next, previous: current.currentAccount, changed: true, warning: warning)
    }

    /// Keeps what each account's panes looked like (``SavedState/panes``): under the lock, reads
    /// the file again, replaces its `panes` and writes it back atomically; nothing else changes
    /// and no history is written. A file from a newer Perch is left alone.
    /// - Throws: ``StateError`` when the file cannot be read or written, or the lock fails.
    public func savePanes(_ panes: [String: AccountPanes], lockTimeoutMilliseconds: Int = 2000) throws(StateError) {
        try locked(timeoutMilliseconds: lockTimeoutMilliseconds) { () throws(StateError) in
            var current = SavedState()
            switch try read() {
            case .missing: break
            case .state(let state):
                if state.version > SavedState.currentVersion { throw StateError.newerVersion(path: path, version: state.version) }
                current = state
            case .corrupt:
                _ = try setAsideIfCorrupt()
            }
            current.version = SavedState.currentVersion
            current.panes = panes.isEmpty ? nil : panes
            try write(current)
        }
    }

    /// What ``renameAccount(from:to:)`` and ``forgetAccount(_:)`` changed.
    public struct AccountChange: Hashable, Sendable {
        /// Whether the account was the current one.
        public var wasCurrent: Bool
        /// History entries that name the account (as the account switched to or from).
        public var historyEntries: Int
    }

    /// Gives account `old` the id `new` everywhere Perch keeps it: the current account, the
    /// switch counts, the pane state, and every history entry (switched to and from), so that
    /// `perch current`, `perch -`, `perch history` and the panes follow the new id. Under the
    /// lock; the state file and the history log are each replaced atomically.
    /// - Throws: ``StateError`` when a file cannot be read or written, or the lock fails.
    public func renameAccount(from old: String, to new: String) throws(StateError) -> AccountChange {
        try changeAccount(
            names: { $0.account == old || $0.previous == old },
            { state in
                var state = state
                let wasCurrent = state.currentAccount == old
                if wasCurrent { state.currentAccount = new }
                if let count = state.switchesPerAccount.removeValue(forKey: old) { state.switchesPerAccount[new, default: 0] += count }
                if let panes = state.panes?.removeValue(forKey: old) { state.panes?[new] = panes }
                return (state, wasCurrent)
            },
            history: { record in
                var record = record
                if record.account == old { record.account = new }
                if record.previous == old { record.previous = new }
                return record
            })
    }

    /// Makes no account current (`perch reset`: every tool is the user's own again), keeping
    /// the counts, panes and history; the account that was current, or nil.
    /// - Throws: ``StateError`` when the file cannot be read or written, or the lock fails.
    @discardableResult
    public func clearCurrentAccount() throws(StateError) -> String? {
        try locked { () throws(StateError) in
            var state = try readForUpdate()
            guard let current = state.currentAccount else { return nil }
            state.currentAccount = nil
            try write(state)
            return current
        }
    }

    /// Forgets what the state keeps for account `id`, which is leaving the config: it stops
    /// being current (no account is, until the next switch), and its switch count and pane
    /// state go. The history is kept as it was: it records what happened, and `perch history`
    /// still lists those entries under the id.
    /// - Throws: ``StateError`` when a file cannot be read or written, or the lock fails.
    public func forgetAccount(_ id: String) throws(StateError) -> AccountChange {
        let names: (SwitchRecord) -> Bool = { $0.account == id || $0.previous == id }
        return try changeAccount(names: names) { state in
            var state = state
            let wasCurrent = state.currentAccount == id
            if wasCurrent { state.currentAccount = nil }
            state.switchesPerAccount[id] = nil
            state.panes?[id] = nil
            if state.panes?.isEmpty == true { state.panes = nil }
            return (state, wasCurrent)
        }
    }

    /// Under the lock: `change` makes the new state and says whether the account was current;
    /// `transform`, when given, rewrites each history entry; `names` tells the entries about the account.
    private func changeAccount(
        names: (SwitchRecord) -> Bool, _ change: (SavedState) -> (SavedState, Bool),
        history transform: ((SwitchRecord) -> SwitchRecord)? = nil
    ) throws(StateError) -> AccountChange {
        try locked { () throws(StateError) in
            var wasCurrent = false
            switch try read() {
            case .missing: break
            case .state(let state):
                if state.version > SavedState.currentVersion { throw StateError.newerVersion(path: path, version: state.version) }
                let (changed, current) = change(state)
                wasCurrent = current
                if changed != state { try write(changed) }
            case .corrupt:
                _ = try setAsideIfCorrupt()
            }
            var entries = 0
            do throws(FileError) {
                let records = try history.read(limit: Int.max)
                entries = records.filter(names).count
                if let transform, entries > 0 {
                    var renamed: [SwitchRecord] = []
                    renamed.reserveCapacity(records.count)
                    for record in records { renamed.append(transform(record)) }
                    try history.replace(with: renamed)
                }
            } catch {
                throw .file(error)
            }
            return AccountChange(wasCurrent: wasCurrent, historyEntries: entries)
        }
    }

    /// The current time as ISO 8601 in UTC with whole seconds, e.g. `2026-11-30T08:31:00Z`.
    public static func timestamp() -> String {
        Date.now.ISO8601Format()
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Runs `body` under the state lock, with lock failures as ``StateError``.
    private func locked<T>(
        timeoutMilliseconds: Int = 2000, shouldWait: (Int) -> Bool = { _ in true }, _ body: () throws(StateError) -> T
    ) throws(StateError) -> T {
        do {
            return try FileSystem.withExclusiveLock(lockPath, timeoutMilliseconds: timeoutMilliseconds, shouldWait: shouldWait) {
                try body()
            }
        } catch let error as StateError {
            throw error
        } catch let error as FileError {
            throw .file(error)
        } catch {
            throw .file(FileError(path: path, code: EIO, operation: "lock"))
        }
    }

    /// Writes `state` (callers hold the lock), first removing temporary files of writers that
    /// were killed mid-write.
    private func write(_ state: SavedState) throws(StateError) {
        FileSystem.removeStaleTemporaryFiles(of: path)
        do {
            try save(state)
        } catch {
            throw .file(error)
        }
    }

    /// Writes `state` atomically (callers hold the lock).
    /// - Throws: ``FileError`` when the state cannot be encoded (`EINVAL`) or written; the old
    ///   file is then intact, and a switch is not reported as saved.
    public func save(_ state: SavedState) throws(FileError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(state)
        } catch {
            throw FileError(path: path, code: EINVAL, operation: "encode", reason: "cannot encode the state: \(error)")
        }
        try FileSystem.writeAtomically(bytes, to: path)
    }

    /// The file's bytes for `state`: pretty-printed JSON with sorted keys and a final newline.
    /// - Throws: what `JSONEncoder` throws.
    public static func encoded(_ state: SavedState) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(state)) + [0x0A]
    }

    private func read() throws(StateError) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: Self.sizeLimit)
        } catch {
            if error.isNotFound { return .missing }
            throw .file(error)
        }
        let data = Data(bytes)
        // A Perch config given as the state file (it has a version too) is never taken for one:
        // rewriting it would drop its accounts.
        if (try? JSONDecoder().decode(ConfigMarker.self, from: data))?.hasAccounts == true {
            throw .notState(path: path)
        }
        guard let state = try? JSONDecoder().decode(SavedState.self, from: data) else { return .corrupt }
        return .state(state.sanitized())
    }

    /// Whether a JSON object has a top-level `accounts` key, as a config has and a state never.
    private struct ConfigMarker: Decodable {
        var hasAccounts: Bool
        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            hasAccounts = try decoder.container(keyedBy: Key.self).contains(Key(stringValue: "accounts"))
        }
    }

    /// Largest state file read, in bytes.
    public static let sizeLimit = 64 << 20

    /// Renames an unparseable state file to `state.json.corrupt-<UTC time>` (callers hold the
    /// lock); returns the new path, or nil when the file is no longer corrupt or gone.
    private func setAsideIfCorrupt() throws(StateError) -> String? {
        guard case .corrupt = try read() else { return nil }
        // Through a symbolic link, the corrupt file is its target: that is what is set aside.
        let path = FileSystem.resolvingSymbolicLink(self.path)
        let aside = asidePath(for: path)
        guard rename(path, aside) == 0 else { throw .file(FileError(path: path, code: errno, operation: "set aside")) }
        return aside
    }

    /// Copies the state file to `state.json.corrupt-<UTC time>` (callers hold the lock); returns the copy's path.
    private func keepCopy() throws(StateError) -> String {
        let path = FileSystem.resolvingSymbolicLink(self.path)
        let copy = asidePath(for: path)
        do {
            try FileSystem.writeAtomically(try FileSystem.read(path, limit: Self.sizeLimit), to: copy)
        } catch {
            throw .file(error)
        }
        return copy
    }

    /// A free name `<path>.corrupt-<UTC time>` (with `-2`, `-3`, … when taken).
    private func asidePath(for path: String) -> String {
        let stamp = String(Self.timestamp().filter { $0 != ":" })
        var aside = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while access(aside, F_OK) == 0 {
            attempt += 1
            aside = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        return aside
    }
}
