import Foundation
import PerchCore
import Testing

@testable import PerchApp

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

/// The events `worker` posts until `count` have come, for at most 10 s (polling its wake-up
/// descriptor every 50 ms).
func outcomes(of worker: EffectWorker, count: Int) -> [AppEvent] {
    var events: [AppEvent] = []
    let deadline = Date().addingTimeInterval(10)
    while events.count < count, Date() < deadline {
        var entry = pollfd(fd: worker.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, 50) > 0 { events += worker.drain() }
    }
    return events
}

extension AppEvent {
    /// The outcome this event carries when it is a `T`, and the model it is addressed to.
    func taken<T>(_ type: T.Type) -> (value: T, asker: ModelID)? {
        guard case .outcome(let outcome, let asker) = self, let value = outcome.as(T.self) else { return nil }
        return (value, asker)
    }
}
