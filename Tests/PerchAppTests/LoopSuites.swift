import Foundation
import Testing

/// Every suite that runs an event loop, nested here so that they run one at a time: a loop polls
/// the process-wide signal pipe, and two loops (or a loop and a test of the pipe) at once would
/// take each other's signals.
@Suite("Event loops, one at a time", .serialized)
struct LoopSuites {
    /// A new scratch folder under the temporary directory, named after `purpose`; the caller removes it.
    static func scratchFolder(_ purpose: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-\(purpose)-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Waits until `condition` holds, for at most `timeout` seconds (checking every 5 ms); the one wait of the loop tests; returns
/// whether it held.
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

