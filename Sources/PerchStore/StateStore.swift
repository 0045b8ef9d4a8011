import FoundationEssentials
import PerchCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why the state could not be read or saved. Its ``description`` is one line for a banner or stderr.
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (or its folder or lock) could not be read or written.
    case file(FileError)
    /// The file was written by a newer Perch (its `version`); this one will not change it.
    case newerVersion(path: String, version: Int)

    public var description: String {
        switch self {
        case .file(let error): return "\(error)"
        case .newerVersion(let path, let version):
            return "\(path) is from a newer Perch (format version \(version)); not changing it"
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

    public init(path: String) { self.path = path }

    /// Path of the lock file beside the state file.
    public var lockPath: String { path + ".lock" }

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
    /// warning that says so.
    /// - Throws: ``StateError`` when the file exists but cannot be read, or cannot be set aside.
    public func load() throws(StateError) -> Loaded {
        switch try read() {
        case .missing:
            return Loaded(state: SavedState(), warning: nil)
        case .state(let state):
            let warning =
                state.version > SavedState.currentVersion
                ? "\(StateError.newerVersion(path: path, version: state.version)); switches will not be saved." : nil
            return Loaded(state: state, warning: warning)
        case .corrupt:
            let setAside: String?
            do {
                setAside = try FileSystem.withExclusiveLock(lockPath) { try setAsideIfCorrupt() }
            } catch let error as FileError {
                throw .file(error)
            } catch {
                throw .file(FileError(path: path, code: EIO, operation: "set aside"))
            }
            // Another Perch set it aside (or replaced it) first: read what is there now.
            guard let aside = setAside else { return try load() }
            let name = aside.split(separator: "/").last.map(String.init) ?? aside
            return Loaded(state: SavedState(), warning: "State file could not be parsed; kept it as \(name) and started afresh.")
        }
    }

    /// Records a switch to `accountID`: under the lock, reads the file again, applies
    /// ``SavedState/recordingSwitch(to:)`` and writes it back atomically. Returns the new state
    /// (the file's state, unchanged and unwritten, when `accountID` is already current in it).
    /// - Throws: ``StateError`` when the file cannot be read, is from a newer version, or the
    ///   lock or the write fails; the old file is then intact.
    public func recordSwitch(to accountID: String) throws(StateError) -> SavedState {
        do {
            return try FileSystem.withExclusiveLock(lockPath) {
                var current = SavedState()
                switch try read() {
                case .missing: break
                case .state(let state):
                    if state.version > SavedState.currentVersion {
                        throw StateError.newerVersion(path: path, version: state.version)
                    }
                    current = state
                case .corrupt:
                    _ = try setAsideIfCorrupt()
                }
                // A switch to the account that is already current changes nothing.
                guard current.currentAccount != accountID else { return current }
                let next = current.recordingSwitch(to: accountID)
                try save(next)
                return next
            }
        } catch let error as StateError {
            throw error
        } catch let error as FileError {
            throw .file(error)
        } catch {
            throw .file(FileError(path: path, code: EIO, operation: "save"))
        }
    }

    /// Writes `state` atomically (callers hold the lock).
    /// - Throws: ``FileError``.
    public func save(_ state: SavedState) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else { return }
        try FileSystem.writeAtomically(Array(data) + [0x0A], to: path)
    }

    private func read() throws(StateError) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: Self.sizeLimit)
        } catch {
            if error.isNotFound { return .missing }
            throw .file(error)
        }
        guard let state = try? JSONDecoder().decode(SavedState.self, from: Data(bytes)) else { return .corrupt }
        return .state(state.sanitized())
    }

    /// Largest state file read, in bytes.
    public static let sizeLimit = 64 << 20

    /// Renames an unparseable state file to `state.json.corrupt-<UTC time>` (callers hold the
    /// lock); returns the new path, or nil when the file is no longer corrupt or gone.
    private func setAsideIfCorrupt() throws -> String? {
        guard case .corrupt = try read() else { return nil }
        // Through a symbolic link, the corrupt file is its target: that is what is set aside.
        let path = FileSystem.resolvingSymbolicLink(self.path)
        let stamp = String(Date.now.ISO8601Format().filter { $0 != ":" })
        var aside = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while access(aside, F_OK) == 0 {
            attempt += 1
            aside = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        guard rename(path, aside) == 0 else { throw FileError(path: path, code: errno, operation: "set aside") }
        return aside
    }
}
