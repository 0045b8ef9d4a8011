import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// The one "remove" sequence of `perch remove` and the interface: give back, then forget.
@Suite("Removing an account: its tools given back when current, then the account forgotten", .serialized)
struct AccountRemovalTests {
    let work = Account.with("work", .make(git: .init(name: "Ada", email: "ada@work.example"), kube: .init(context: "prod")))

    static let config = #"""
        {"accounts": [
          {"id": "work", "name": "work", "git": {"name": "Ada", "email": "ada@work.example"}, "kube": {"context": "prod"}},
          {"id": "oss", "name": "OSS"}
        ]}

        """#

    /// A scratch home on `work` (git set up, kube switched from dev to prod), with its config.
    func home() throws -> (ScratchHome, AccountRemoval) {
        let scratch = try ScratchHome(fakes: ["gh", "gcloud"] + (ScratchHome.installed("kubectl") ? [] : ["kubectl"]))
        try scratch.writeKubeconfig(current: "dev")
        try scratch.write("[user]\n\tname = Me\n\temail = me@home.example\n", to: ".gitconfig")
        #expect(IdentitySetup.run(.git, undo: false, scratch.switcher()) != .failed(""))
        try scratch.write(Self.config, to: ".config/perch/accounts.json")
        let result = try scratch.session().run(to: work)
        #expect(result.outcome?.changed == true, "\(result.report.results.map(\.summary))")
        let removal = AccountRemoval(
            configPath: scratch.home + "/.config/perch/accounts.json", store: StateStore(path: scratch.environment.statePath),
            session: scratch.session())
        return (scratch, removal)
    }

    func kubeContext(_ scratch: ScratchHome) -> String? { ToolReaders.kubeCurrentContext(scratch.environment) }

    @Test("the current account's tools go back to your own, then it leaves the config and the state")
    func givesBackThenForgets() throws {
        let (scratch, removal) = try home()
        #expect(removal.givesBack(work))
        let removed = try removal.remove("work", givingBack: work)
        let statuses = removed.givenBack?.report.results.map(\.status) ?? []
        #expect(statuses == [.restored, .restored], "\(removed.givenBack?.report.results.map(\.summary) ?? [])")
        #expect(scratch.gitUses("user.email") == "me@home.example")
        #expect(kubeContext(scratch) == "dev")
        #expect(removed.removal.outcome.accounts.map(\.id) == ["oss"])
        #expect(try StateStore(path: scratch.environment.statePath).peek().state.currentAccount == nil)
    }

    @Test("an account that is not current is removed without touching a tool")
    func notCurrent() throws {
        let (scratch, removal) = try home()
        let oss = Account(id: "oss", name: "OSS")
        #expect(!removal.givesBack(oss))
        let removed = try removal.remove("oss", givingBack: oss)
        #expect(removed.givenBack == nil)
        #expect(scratch.gitUses("user.email") == "ada@work.example" && kubeContext(scratch) == "prod")
        #expect(removed.removal.outcome.accounts.map(\.id) == ["work"])
    }

    @Test("a tool that cannot be given back puts every tool back and removes nothing")
    func toolFails() throws {
        let (scratch, removal) = try home()
        // kube's own context is one the kubeconfig no longer has: giving it back fails.
        let files = scratch.switcher().files
        var baseline = scratch.session().baseline
        baseline.tools["kube"]?["context"] = "nope"
        try RecordFile.write(baseline, to: files.baseline)
        let config = scratch.read(".config/perch/accounts.json")
        do {
            _ = try removal.remove("work", givingBack: work)
            Issue.record("removed although kube could not be given back")
        } catch {
            guard case .toolFailed(let result) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(result.failure == "kube failed")
            #expect(result.report.results.first { $0.tool == .git }?.status == .rolledBack)
        }
        #expect(scratch.gitUses("user.email") == "ada@work.example" && kubeContext(scratch) == "prod")
        #expect(scratch.read(".config/perch/accounts.json") == config, "the config is untouched")
        #expect(try StateStore(path: scratch.environment.statePath).peek().state.currentAccount == "work")
    }

    @Test("a config that would refuse the removal is found before any tool is given back")
    func refusedFirst() throws {
        let (scratch, removal) = try home()
        // A config that no longer loads: the removal would be refused.
        try scratch.write(
            #"{"accounts": [{"id": "work", "name": "work"}, {"id": "work", "name": "again"}]}"#, to: ".config/perch/accounts.json")
        do {
            _ = try removal.remove("work", givingBack: work)
            Issue.record("removed from a config that does not load")
        } catch {
            guard case .config = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(scratch.gitUses("user.email") == "ada@work.example" && kubeContext(scratch) == "prod", "no tool was given back")
    }
}
