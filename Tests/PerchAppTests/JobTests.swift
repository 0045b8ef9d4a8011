import Foundation
import Glibc
import PerchDomain
import PerchInterface
import PerchKit
import Testing

@testable import PerchApp

/// A job declared and performed outside Perch's sources, as a new one would be: the worker finds
/// how through its own conformance, with nothing listing it, and the outcome comes back to the
/// model that asked, of the job's own type.
private struct Shout: Job {
    var text: String
    typealias Outcome = Shouted
}

private struct Shouted: Hashable, Sendable {
    var text: String
}

extension Shout: WorkerJob {
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (Shouted) -> Void) {
        let text = self.text
        worker.catalogQueue.async { answer(Shouted(text: text.uppercased() + " (\(accounts.count) accounts)")) }
    }
}

extension LoopSuites {
    @Suite("Jobs performed through their own conformance")
    struct JobTests {
        @Test("a job of a type no Perch source names is performed by the worker, its outcome addressed to the model that asked")
        func newJobNeedsNoList() throws {
            let worker = EffectWorker(store: nil, configPath: nil)
            worker.perform(.asked(by: .pane(.stats), .perform(Shout(text: "hello"))), accounts: Account.samples)
            let deadline = Date().addingTimeInterval(10)
            var event: AppEvent?
            while event == nil, Date() < deadline {
                var entry = pollfd(fd: worker.wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 50)
                event = worker.drainEvents().first
            }
            let (outcome, asker) = try #require(event?.taken(Shouted.self), "\(String(describing: event))")
            #expect(outcome == Shouted(text: "HELLO (\(Account.samples.count) accounts)"))
            #expect(asker == .pane(.stats))
        }

        @Test("effects are equal when their jobs are, and a job is found again by its type")
        func jobsCompare() {
            let load = Effect.perform(LoadCatalog(accountID: "gh", command: "gh repo list"))
            #expect(load == .perform(LoadCatalog(accountID: "gh", command: "gh repo list")))
            #expect(load != .perform(LoadCatalog(accountID: "gh", command: "gh repo view")))
            #expect(load != .perform(Shout(text: "gh")))
            #expect(load.asked(by: .pane(.catalog)).job(LoadCatalog.self)?.command == "gh repo list")
            #expect(load.job(Shout.self) == nil)
            #expect(AnyOutcome(Shouted(text: "a")) != AnyOutcome(HookEnded(accountID: "a", failure: nil)))
        }
    }
}
