import FoundationEssentials
import Glibc
import PerchDomain
import PerchStore

/// The journal of a switch under way, written atomically beside the state file before any tool
/// changes (``IdentityFiles/journal``), and removed once the switch is recorded: the accounts
/// switched from and to, and each tool's state before the switch. A journal found by a later
/// command belongs to a process that died in between; the switch is then rolled back (see
/// ``SwitchSession/recoverInterrupted(waitingMilliseconds:)``).
public struct SwitchJournal: Codable, Hashable, Sendable {
    /// The session's id, kept in the state file (``SavedState/lastSwitch``) once recorded.
    public var id: String
    /// The account current before the switch; nil when none was.
    public var from: String?
    /// The account switched to.
    public var to: String
    /// When it started (ISO 8601, UTC).
    public var time: String
    /// The process that wrote it.
    public var pid: Int32
    /// Each tool about to change, with what it had before.
    public var tools: [Entry]

    /// One tool about to change: which, and what it had before (its adapter's keys).
    public struct Entry: Codable, Hashable, Sendable {
        public var tool: IdentityTool
        public var before: ToolState
        public init(tool: IdentityTool, before: ToolState) {
            self.tool = tool
            self.before = before
        }
    }
}

/// What each tool had before Perch first changed it (``IdentityFiles/baseline``): given back to
/// the tool when a switch goes to an account naming nothing for it, and by `perch reset`.
public struct ToolBaseline: Codable, Hashable, Sendable {
    /// The before-state of each tool, by its config key (`kube`).
    public var tools: [String: ToolState] = [:]
    public init(tools: [String: ToolState] = [:]) { self.tools = tools }
}

/// The last switch's accounts and its tools' before-states (``IdentityFiles/undo``), for `perch
/// undo`: an undo is a switch back to `from` with those states, and writes its own record, so a
/// second undo redoes.
public struct UndoRecord: Codable, Hashable, Sendable {
    /// The account before the switch (the one an undo goes back to); nil when none was.
    public var from: String?
    /// The account the switch went to.
    public var to: String
    /// When the switch was recorded (ISO 8601, UTC).
    public var time: String
    /// Each tool the switch changed, with what it had before.
    public var tools: [SwitchJournal.Entry]
}

/// Reading and writing the session's JSON files (sorted keys, atomic, mode 0600).
enum RecordFile {
    static func read<T: Decodable>(_ type: T.Type, at path: String) -> T? {
        guard let bytes = try? FileSystem.read(path) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(bytes))
    }

    static func write<T: Encodable>(_ value: T, to path: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(value) else {
            throw FileError(path: path, code: EINVAL, operation: "encode")
        }
        try FileSystem.writeAtomically(Array(data) + [0x0A], to: path, mode: 0o600)
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }
}

/// Runs closures on threads of their own and waits for all (tools that do not depend on each
/// other apply at once); results in the order given. No thread outlives the call, so an idle
/// Perch has none left to wake it.
private final class ParallelSlot<T>: @unchecked Sendable {
    var value: T?
    let body: @Sendable () -> T
    init(_ body: @escaping @Sendable () -> T) { self.body = body }
    func run() { value = body() }
}

private func parallelThreadMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let run = Unmanaged<ParallelRunner>.fromOpaque(raw!).takeRetainedValue()
    run.body()
    return nil
}

private final class ParallelRunner: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

enum Parallel {
    static func map<T: Sendable>(_ work: [@Sendable () -> T]) -> [T] {
        if work.count <= 1 { return work.map { $0() } }
        let slots = work.map(ParallelSlot.init)
        var threads: [pthread_t] = []
        for slot in slots.dropFirst() {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(ParallelRunner { slot.run() }).toOpaque()
            if pthread_create(&thread, nil, parallelThreadMain, box) == 0 {
                threads.append(thread)
            } else {
                Unmanaged<ParallelRunner>.fromOpaque(box).release()
                slot.run()
            }
        }
        slots[0].run()
        for thread in threads { pthread_join(thread, nil) }
        return slots.map { $0.value! }
    }
}
