import Foundation
import Testing

/// `make test`'s check that the tests leave HOME and tmux's socket folder as they were
/// (`scripts/home-guard.py`), run on a scratch folder (`HOME_GUARD_ROOTS`) with writes planted
/// between the snapshot and the check.
@Suite("make test's HOME check")
struct HomeGuardTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/home-guard.py").path

    /// A scratch folder standing for HOME, with a file and a folder in it.
    static func scratch() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("perch-home-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".config/app"), withIntermediateDirectories: true)
        try "keep\n".write(to: root.appendingPathComponent(".bash_history"), atomically: true, encoding: .utf8)
        return root
    }

    static func guardRun(_ command: String, _ root: URL, _ snapshot: String) throws -> Spawn.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME_GUARD_ROOTS"] = root.path
        return try Spawn.run(["python3", script, command, snapshot], environment: environment)
    }

    /// A write a test could plant in HOME, made between the snapshot and the check.
    struct Plant: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var expected: String
        var make: @Sendable (URL) throws -> Void
    }

    static let plants: [Plant] = [
        Plant(testDescription: "a new file", expected: "added") {
            try "x".write(to: $0.appendingPathComponent(".config/app/new"), atomically: false, encoding: .utf8)
        },
        Plant(testDescription: "a line appended to a file", expected: "changed") { root in
            let handle = try FileHandle(forWritingTo: root.appendingPathComponent(".bash_history"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("perch switch\n".utf8))
            try handle.close()
        },
        Plant(testDescription: "a removed file", expected: "removed") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent(".bash_history"))
        },
        Plant(testDescription: "a dead socket-like file left behind", expected: "added") {
            try Data().write(to: $0.appendingPathComponent("perch-shell-1-abcdef12"))
        },
    ]

    @Test("the check fails and names the entry when a write is planted in HOME", arguments: plants)
    func catchesPlantedWrite(_ plant: Plant) throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let snapshot = root.path + ".json"
        defer { unlink(snapshot) }
        #expect(try Self.guardRun("snapshot", root, snapshot).status == 0)
        try plant.make(root)
        let check = try Self.guardRun("check", root, snapshot)
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains(plant.expected), "\(check.stdout)")
    }

    @Test("the check passes when nothing under HOME changed")
    func passesUntouched() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let snapshot = root.path + ".json"
        defer { unlink(snapshot) }
        #expect(try Self.guardRun("snapshot", root, snapshot).status == 0)
        _ = try String(contentsOf: root.appendingPathComponent(".bash_history"), encoding: .utf8)  // reading is no change
        let check = try Self.guardRun("check", root, snapshot)
        #expect(check.status == 0, "\(check.stdout)")
    }
}
