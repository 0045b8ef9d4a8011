import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore
import Testing

@testable import PerchApp

extension LoopSuites {
    /// A switch the interface asks for is made to the account as the config has it on disk at
    /// that moment, not as the interface last read it.
    @Suite("A switch to an account another process removed", .serialized)
    struct StaleAccountSwitchTests {
        // Bug: with the interface open, `perch remove oss --yes` in another terminal, then OSS
        // picked in the sheet (which still listed it): the interface said "Signed in as Open
        // Source", the tools were set to it, and the state named an account the config no longer
        // had (`perch current`: no account chosen, exit 1).
        @Test("an account removed from the config since the interface read it is not switched to; the interface gets the config as it is")
        func removedAccountIsNotSwitchedTo() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-stale-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "work", "name": "Work"}, {"id": "oss", "name": "Open Source"}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            let paths = PerchPaths(config: config, state: folder + "/state.json", lookup: { _ in nil })
            let shown = try ConfigLoader.load(paths).accounts
            let store = StateStore(path: paths.state)
            _ = try store.recordSwitch(to: "work", source: .cli)
            let worker = EffectWorker(store: store, configPath: config, configPaths: paths)
            defer { worker.finishStoreWork() }
            // Another process removes oss.
            try #"{"accounts": [{"id": "work", "name": "Work"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)

            worker.perform(.perform(RecordSwitch(accountID: "oss")), accounts: shown)
            let events = outcomes(of: worker, count: 2)
            let now = try ConfigLoader.load(paths).accounts
            let read = events.compactMap { $0.taken(ConfigRead.self) }.first
            #expect(now.map(\.id) == ["work"])
            #expect(read.map { $0.value == .loaded(accounts: now) && $0.asker == .root } == true, "\(events)")
            guard case .failed(let id, let reason)? = events.compactMap({ $0.taken(SwitchProgress.self)?.value }).first else {
                Issue.record("the switch did not fail: \(events)")
                return
            }
            #expect(id == "oss" && reason.contains("no longer in the config"), "\(reason)")
            #expect(try store.load().state.currentAccount == "work", "the state still names work")
            #expect(try store.history.read(limit: 10).allSatisfy { $0.account != "oss" }, "no switch to oss recorded")
        }
    }
}
