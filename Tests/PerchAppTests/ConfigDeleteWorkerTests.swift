import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore
import PerchTestSupport
import Testing

@testable import PerchApp

extension LoopSuites {
    /// The Catalog's Delete of a config row, carried out by the effect worker with the config
    /// writer's calls that `perch unset` and `perch remove` make.
    @Suite("Delete from the config through the worker", .serialized)
    struct ConfigDeleteWorkerTests {
        func outcome(of worker: EffectWorker) -> AppEvent? { outcomes(of: worker, count: 1).first }

        @Test("a field is unset and then the account removed: comments kept, a .bak left, the state forgets the account, its history stays")
        func unsetThenRemove() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-delete-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = folder + "/accounts.json"
            let original = """
                {"accounts": [
                  // work first
                  {"id": "work", "name": "Work", "handle": "@ada-work", "git": {"email": "ada@work.example"}},
                  {"id": "home", "name": "Home"},
                ]}

                """
            try original.write(toFile: config, atomically: true, encoding: .utf8)
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .cli)
            let worker = EffectWorker(store: store, configPath: config)

            worker.perform(.asked(by: .pane(.catalog), .perform(DeleteFromConfig(accountID: "work", path: ["handle"]))), accounts: [])
            guard let (deletion, asker) = outcome(of: worker)?.taken(ConfigDeletion.self), asker == .pane(.catalog),
                deletion.accountID == "work", deletion.path == ["handle"], deletion.configPath == config, deletion.problem == nil,
                let accounts = deletion.accounts, let backup = deletion.backupPath
            else {
                Issue.record("expected the field removed")
                return
            }
            #expect(accounts.map(\.id) == ["work", "home"] && accounts[0].handle == nil)
            let text = try String(contentsOfFile: config, encoding: .utf8)
            #expect(text.contains("// work first") && !text.contains("@ada-work") && text.contains("ada@work.example"))
            #expect(try String(contentsOfFile: backup, encoding: .utf8) == original)

            worker.perform(.perform(DeleteFromConfig(accountID: "work", path: [])), accounts: [])
            guard let deletion = outcome(of: worker)?.taken(ConfigDeletion.self)?.value, deletion.accountID == "work", deletion.path == [],
                deletion.problem == nil, let left = deletion.accounts
            else {
                Issue.record("expected the account removed")
                return
            }
            #expect(left.map(\.id) == ["home"])
            #expect(try String(contentsOfFile: config, encoding: .utf8).contains("// work first"), "the comment before it is kept")
            let state = try store.load().state
            #expect(state.currentAccount == nil, "it was current: no account is now")
            #expect(try store.history.read(limit: 10).contains { $0.account == "work" }, "the history keeps its entry")

            worker.perform(.perform(DeleteFromConfig(accountID: "gone", path: ["handle"])), accounts: [])
            guard let deletion = outcome(of: worker)?.taken(ConfigDeletion.self)?.value, deletion.accountID == "gone",
                deletion.accounts == nil, let problem = deletion.problem
            else {
                Issue.record("expected a refusal")
                return
            }
            #expect(problem.contains("gone"), "\(problem)")
        }

        @Test("removing the current account gives the tools it names back to your own, as perch remove does")
        func removeCurrentGivesBack() throws {
            ToolAdapters.installShipped()
            let folder = LoopSuites.scratchFolder("delete")
            try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let kubeconfig = folder + "/kubeconfig"
            try "contexts:\n- context: {}\n  name: dev\n- context: {}\n  name: prod\ncurrent-context: dev\n".write(
                toFile: kubeconfig, atomically: true, encoding: .utf8)
            // Perch writes current-context itself; kubectl need only be there.
            writeExecutable("#!/bin/sh\nexit 0\n", to: folder + "/bin/kubectl")
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "work", "name": "Work", "kube": {"context": "prod"}}, {"id": "home", "name": "Home"}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            let store = StateStore(path: folder + "/state.json")
            let environment = IdentityEnvironment(
                variables: ["HOME": folder, "PATH": folder + "/bin:/usr/bin:/bin", "KUBECONFIG": kubeconfig], statePath: store.path)
            let identities = IdentitySwitcher(environment: environment)
            let work = try #require(try ConfigLoader.parse(FileSystem.read(config), path: config).accounts.first)
            let switched = try identities.session(store: store, source: .cli).run(to: work)
            #expect(ToolReaders.kubeCurrentContext(environment) == "prod", "\(switched.report.results)")
            let worker = EffectWorker(store: store, configPath: config, identities: identities)
            worker.perform(.perform(DeleteFromConfig(accountID: "work", path: [])), accounts: [work])
            guard let deletion = outcome(of: worker)?.taken(ConfigDeletion.self)?.value, deletion.accountID == "work", deletion.path == [],
                deletion.problem == nil, let left = deletion.accounts
            else {
                Issue.record("expected the account removed, with nothing wrong")
                return
            }
            #expect(left.map(\.id) == ["home"])
            #expect(ToolReaders.kubeCurrentContext(environment) == "dev", "kube is back to the context it had before Perch")
            #expect(try store.load().state.currentAccount == nil)
        }
    }
}
