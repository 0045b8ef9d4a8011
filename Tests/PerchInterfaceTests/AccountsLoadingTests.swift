import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

private func accounts(_ n: Int) -> [Account] {
    (1...n).map { Account(id: "a\($0)", name: "Account \($0)", handle: "@user\($0)") }
}

/// A run whose first frame came from the current-account cache: only `a2` is known, current.
private func loadingState() -> TabApp {
    let cached = Account(id: "a2", name: "Account 2", handle: "@user2")
    var saved = SavedState()
    saved.currentAccount = "a2"
    saved.switchCount = 3
    return TabApp.perch(accounts: [cached], saved: saved, size: Size(width: 80, height: 24), loading: true)
}

private func text(_ state: TabApp) -> String { state.render().lines.joined(separator: "\n") }

@Suite("Accounts read after the first frame (the first frame from the current-account cache)")
struct AccountsLoadingTests {
    @Test("the first frame shows the cached current account and the switch count, and asks for the config after it")
    func firstFrameFromTheCache() {
        let state = loadingState()
        #expect(state.currentAccount?.id == "a2")
        #expect(text(state).contains("Account 2"))
        #expect(text(state).contains("Switches so far: 3"))
        var started = state
        #expect(started.started().contains { $0.job(LoadConfig.self) != nil }, "the whole config is read once the first frame is up")
        var whole = TabApp.perch(accounts: accounts(4), size: Size(width: 80, height: 24))
        #expect(!whole.started().contains { $0.job(LoadConfig.self) != nil })
    }

    @Test("a sheet opened before the accounts arrive says loading…, offers no account, and Enter switches to nothing")
    func sheetBeforeTheAccounts() {
        var state = loadingState()
        _ = state.update(.key(.char("a")), at: 1_000)
        let shown = text(state)
        #expect(shown.contains(AccountSheet.loadingText), "\(shown)")
        #expect(!shown.contains("Add account"), "\(shown)")
        #expect(state.update(.key(KeyEvent(.enter)), at: 1_010).isEmpty, "nothing to pick")
        // Typing a filter matches nothing yet, not even the cached account.
        for c in "/acc" { _ = state.update(.key(.char(c)), at: 1_020) }
        #expect(state.sheet?.rowCount(accounts: state.accountsIndex.offeredCount) == 1)
        #expect(state.update(.key(KeyEvent(.enter)), at: 1_030).allSatisfy { !$0.isSwitch })
        #expect(text(state).contains(AccountSheet.loadingText))
    }

    @Test("when the accounts arrive, an open sheet lists them all, its filter applied, and a pick switches")
    func sheetGetsTheAccounts() {
        var state = loadingState()
        _ = state.update(.key(.char("a")), at: 1_000)
        _ = state.update(.outcome(AnyOutcome(ConfigRead.loaded(accounts: accounts(30)))), at: 1_100)
        let shown = text(state)
        #expect(!shown.contains(AccountSheet.loadingText), "\(shown)")
        #expect(shown.contains("30 accounts"), "\(shown)")
        #expect(state.sheet?.cursor.cursor == 1, "the cursor on the current account")
        _ = state.update(.key(KeyEvent(.down)), at: 1_200)
        #expect(state.update(.key(KeyEvent(.enter)), at: 1_210).contains { $0.isSwitch })
    }

    @Test("a current account the config no longer has is dropped when the accounts arrive, never offered")
    func removedAccountIsDropped() {
        var state = loadingState()
        _ = state.update(.key(.char("a")), at: 1_000)
        let without = accounts(4).filter { $0.id != "a2" }
        _ = state.update(.outcome(AnyOutcome(ConfigRead.loaded(accounts: without))), at: 1_100)
        #expect(state.currentAccount == nil)
        #expect(state.saved.currentAccount == nil)
        #expect(!text(state).contains("Account 2"), "\(text(state))")
        #expect(state.bannerText?.contains("not in the config") == true)
    }

    /// A config reader's problem line, as a start with that config prints it.
    static let unusableLines = ["config /x/accounts.json: line 3, column 16: expected a comma or a closing brace"]

    @Test("a config found unusable after the first frame ends the run with its problems, before any switch")
    func unusableConfigQuits() {
        var state = loadingState()
        _ = state.update(.key(.char("a")), at: 1_000)
        let lines = Self.unusableLines
        let effects = state.update(.outcome(AnyOutcome(ConfigRead.unusable(lines: lines))), at: 1_100)
        #expect(effects == [.quit])
        #expect(state.unusableConfig == lines)
        // Nothing was switched, and Enter on the sheet still switches nothing.
        let afterEnter = state.update(.key(KeyEvent(.enter)), at: 1_200)
        #expect(afterEnter.isEmpty || afterEnter == [.quit], "\(afterEnter)")
        #expect(state.saved.currentAccount == "a2")
        #expect(state.saved.switchCount == 3)
    }

    @Test("pane state of every account is kept while the config is read")
    func paneMemoryKeptWhileLoading() {
        let cached = Account(id: "a2", name: "Account 2")
        var saved = SavedState()
        saved.currentAccount = "a2"
        saved.panes = ["a7": AccountPanes(statsScroll: 4)]
        let state = TabApp.perch(accounts: [cached], saved: saved, size: Size(width: 80, height: 24), loading: true)
        #expect(state.paneMemory["a7"]?.statsScroll == 4)
    }
}
