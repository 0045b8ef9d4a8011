import FoundationEssentials
import PerchCore

/// Reads and writes `state.json` (see ``SavedState`` for the format). Every change is a
/// read-modify-write under an exclusive lock on `state.json.lock` that lands atomically.
public struct StateStore: Sendable {
    /// Path of the state file.
    public let path: String

    public init(path: String) { self.path = path }

    /// Path of the lock file beside the state file.
    public var lockPath: String { path + ".lock" }

    /// The state read at start, and a warning to show once when the file had to be set aside.
    public struct Loaded: Sendable {
        public var state: SavedState
        public var warning: String?
    }

    /// Reads the state. A missing file gives the default state. A file that cannot be parsed is
    /// copied to `state.json.corrupt-<UTC time>` (never dropped) and the default state is used,
    /// with a warning that says so.
    /// - Throws: ``FileError`` when the file exists but cannot be read.
    public func load() throws(FileError) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            if error.isNotFound { return Loaded(state: SavedState(), warning: nil) }
            throw error
        }
        if let state = try? JSONDecoder().decode(SavedState.self, from: Data(bytes)) {
            return Loaded(state: state, warning: nil)
        }
        let stamp = String(Date.now.ISO8601Format().filter { $0 != ":" })
        let aside = "\(path).corrupt-\(stamp)"
        do {
            try FileSystem.writeAtomically(bytes, to: aside)
            return Loaded(state: SavedState(), warning: "State file was unreadable; kept a copy at \(aside) and started afresh.")
        } catch {
            return Loaded(
                state: SavedState(),
                warning: "State file was unreadable and could not be copied (\(error)); it will be replaced on the next switch.")
        }
    }

    /// Records a switch to `accountID`: under the lock, reads the file, applies
    /// ``SavedState/recordingSwitch(to:)`` and writes it back atomically. Returns the new state.
    /// - Throws: ``FileError`` when the lock or the write fails (the old file is then intact).
    public func recordSwitch(to accountID: String) throws -> SavedState {
        try FileSystem.withExclusiveLock(lockPath) {
            let current = (try? load().state) ?? SavedState()
            let next = current.recordingSwitch(to: accountID)
            try save(next)
            return next
        }
    }

    /// Writes `state` atomically (callers hold the lock).
    /// - Throws: ``FileError``.
    public func save(_ state: SavedState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(state)
        try FileSystem.writeAtomically(Array(data) + [0x0A], to: path)
    }
}
