import Foundation
import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The way back from effects: a switch is shown only once the store confirms it, and every
/// outcome reaches the screen through `update`.
@Suite("Outcomes of effects")
struct SwitchOutcomeTests {
    private func picking(_ index: Int, current: String? = "work", accounts: [Account] = Account.samples) -> (
        TabApp, [PerchInterface.Effect]
    ) {
        var state = TabApp.perch(accounts: accounts, saved: SavedState(currentAccount: current), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("a")))
        let effects = state.update(.tap(.sheetRow(index)))
        return (state, effects)
    }

    // Bug: after a failed save, Overview said "Signed in as" the picked account and counted the switch.
    @Test("a failed save never shows the switch: the account, the count and Overview stay as they were; the banner says why")
    func failedSaveShowsNothing() {
        var (state, effects) = picking(1)
        #expect(effects == [.perform(RecordSwitch(accountID: "personal"))])
        _ = state.update(
            .outcome(AnyOutcome(SwitchProgress.failed(accountID: "personal", reason: "/s/state.json: cannot replace: Is a directory"))))
        #expect(state.saved == SavedState(currentAccount: "work"))
        #expect(state.pendingSwitch == nil)
        #expect(state.bannerText == "Could not switch to Personal: /s/state.json: cannot replace: Is a directory")
        let text = state.render().text
        #expect(text.contains("● Work"))
        #expect(!text.contains("Switching"))
        #expect(text.contains("Switches so far: 0"))
    }

    @Test("while the store waits for another process's lock, Overview says the switch is pending and why; the rest answers keys")
    func lockBusyIsPending() {
        var (state, _) = picking(2)
        _ = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.waiting(accountID: "oss", reason: "waiting for another process to release the state file's lock…"))))
        var lines = state.render().lines
        #expect(lines.contains { $0.contains("Switching to Open Source…") })
        #expect(lines.contains { $0.contains("waiting for another process") })
        #expect(lines.contains { $0.contains("● Work") }, "the confirmed account is still the one shown as current")
        _ = state.update(.key(.char("4")))
        #expect(state.selectedTab == .settings)
        _ = state.update(.key(.char("1")))
        _ = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("oss", from: state.saved)))))
        lines = state.render().lines
        #expect(lines.contains { $0.contains("● Open Source") })
        #expect(!lines.contains { $0.contains("Switching") })
    }

    @Test("a pick made while another switch is pending is queued, shown, and asked for once the first is saved")
    func pickWhilePendingIsQueued() {
        var (state, first) = picking(1)
        #expect(first == [.perform(RecordSwitch(accountID: "personal"))])
        _ = state.update(.key(.char("a")))
        #expect(state.update(.tap(.sheetRow(3))) == [], "not asked for twice at once")
        #expect(state.pendingSwitch == PendingSwitch(accountID: "personal", queued: "side"))
        #expect(state.render().lines.contains { $0.contains("then to Side Project") })
        let next = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("personal", from: state.saved)))))
        #expect(next == [.perform(RecordSwitch(accountID: "side"))], "the tools were applied before the save; the queued pick follows")
        #expect(state.saved.currentAccount == "personal")
        _ = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("side", from: state.saved)))))
        #expect(state.saved.currentAccount == "side")
        #expect(state.saved.switchCount == 2)
        #expect(state.pendingSwitch == nil)
    }

    @Test("a queued pick is still asked for when the pending switch fails")
    func queuedAfterFailure() {
        var (state, _) = picking(1)
        _ = state.update(.key(.char("a")))
        _ = state.update(.tap(.sheetRow(2)))
        #expect(
            state.update(.outcome(AnyOutcome(SwitchProgress.failed(accountID: "personal", reason: "locked")))) == [
                .perform(RecordSwitch(accountID: "oss"))
            ])
        #expect(state.pendingSwitch == PendingSwitch(accountID: "oss"))
    }

    @Test("a saved switch's identity report (applied before the save) runs its hook; the hook's failure becomes the banner")
    func hookFollowsSave() {
        let accounts = [Account(id: "a", name: "Alpha"), Account(id: "b", name: "Beta", onSwitch: "exit 3")]
        var (state, _) = picking(1, current: "a", accounts: accounts)
        let effects = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("b", from: state.saved)))))
        #expect(effects == [], "the tools were applied by the switch session before it was saved")
        #expect(state.identities?.applying == true, "their report follows")
        let report = IdentityReport(accountID: "b", results: [])
        #expect(
            state.update(.outcome(AnyOutcome(IdentitiesApplied(report, previous: "a", afterSwitch: true)))) == [
                .perform(RunHook(accountID: "b", previous: "a"))
            ])
        _ = state.update(.outcome(AnyOutcome(HookEnded(accountID: "b", failure: "exited with status 3"))))
        #expect(state.bannerText == "onSwitch hook for Beta exited with status 3")
        _ = state.update(.outcome(AnyOutcome(HookEnded(accountID: "b", failure: nil))))
        #expect(state.bannerText == "onSwitch hook for Beta exited with status 3", "a success leaves the banner as it was")
    }

    @Test("a store that finds the account already current runs no hook")
    func unchangedRunsNoHook() {
        let accounts = [Account(id: "a", name: "Alpha", onSwitch: "true"), Account(id: "b", name: "Beta")]
        var (state, _) = picking(0, current: "a", accounts: accounts)
        #expect(state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("a", from: state.saved))))) == [])
    }

    @Test("a change made by another process is adopted, with a banner naming the account")
    func changedElsewhere() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        _ = state.update(.outcome(AnyOutcome(StateChanged(SavedState(currentAccount: "oss", switchCount: 4), warning: nil))))
        #expect(state.saved.currentAccount == "oss")
        #expect(state.bannerText == "Now on Open Source: switched outside this window.")
        _ = state.update(.outcome(AnyOutcome(StateChanged(SavedState(), warning: nil))))
        #expect(state.bannerText == "No account is current now: changed outside this window.")
        _ = state.update(.outcome(AnyOutcome(StateChanged(SavedState(currentAccount: "work"), warning: "State names account \"x\"…"))))
        #expect(state.bannerText == "State names account \"x\"…")
    }

    @Test("outcomes are taken in even while the screen is too small to draw the interface")
    func outcomesWhenTooSmall() {
        var (state, _) = picking(1)
        _ = state.update(.resize(Size(width: 10, height: 4)))
        _ = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("personal", from: state.saved)))))
        #expect(state.saved.currentAccount == "personal")
        #expect(state.pendingSwitch == nil)
    }

    @Test("Add account's write failure is shown whole, wrapped over several rows, not cut at the screen's edge")
    func writeErrorWrapped() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 40, height: 20))
        _ = state.update(.key(.char("a")))
        _ = state.update(.key(.char("+")))
        let reason =
            "Could not write the config: /home/someone/.config/perch/accounts.json: cannot replace: Read-only file system (remount it or use --config)"
        let asker = submittedForm(&state)
        _ = state.update(.outcome(AnyOutcome(AccountAddition.notAdded(reason)), for: asker))
        let text = state.render().lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("Read-only file system (remount it or use --config)"), "\(text)")
    }
}
