import Foundation
import PerchDomain
import PerchInterface
import PerchKit
import Synchronization
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

/// What the tests' jobs answered, by worker: the runner hands a job's outcomes to the answer it
/// gave; here they are kept as the events the model's loop would deliver.
private let answered = Mutex<[ObjectIdentifier: [AppEvent]]>([:])

extension EffectWorker {
    /// Starts `effect`'s job as the runner would, each outcome kept for ``outcomes(of:count:)``,
    /// addressed to the model that asked.
    func perform(_ effect: PerchInterface.Effect, accounts: [Account]) {
        guard case .job(let job) = effect.work else { return }
        let (asker, key) = (effect.asker, ObjectIdentifier(self))
        perform(job, accounts: accounts) { outcome in
            let value = outcome as! any Hashable & Sendable
            let event = AppEvent.outcome(erased(value), for: asker)
            answered.withLock { $0[key, default: []].append(event) }
        }
    }

    /// What the worker posted of its own (the state file or the config changed) and its jobs
    /// answered, oldest first of each, as events; both emptied.
    func drainEvents() -> [AppEvent] {
        let news = drain().map { message -> AppEvent in
            let value = message.outcome
            return AppEvent.outcome(erased(value), for: .root)
        }
        let key = ObjectIdentifier(self)
        return answered.withLock { all in
            defer { all[key] = [] }
            return all[key] ?? []
        } + news
    }
}

extension PerchModel.Message {
    /// The outcome this message carries, as the job or the loop reported it.
    var outcome: any Hashable & Sendable {
        switch self {
        case .configRead(let value): value
        case .stateChanged(let value): value
        case .historyChanged(let value): value
        case .wallTime(let value): value
        case .switchProgress(let value): value
        case .identitiesApplied(let value): value
        case .identitiesChecked(let value): value
        case .identitiesVerified(let value): value
        case .hookEnded(let value): value
        default: self
        }
    }
}

/// `value` as an ``AnyOutcome`` (its type opened).
private func erased<T: Hashable & Sendable>(_ value: T) -> AnyOutcome { AnyOutcome(value) }

/// The events `worker` posts until `count` have come, for at most 10 s (polling its wake-up
/// descriptor every 50 ms, and what its jobs answered).
func outcomes(of worker: EffectWorker, count: Int) -> [AppEvent] {
    var events: [AppEvent] = []
    let deadline = Date().addingTimeInterval(10)
    while events.count < count, Date() < deadline {
        var entry = pollfd(fd: worker.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 50)
        events += worker.drainEvents()
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
