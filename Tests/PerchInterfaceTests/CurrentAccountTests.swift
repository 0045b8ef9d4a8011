import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The current account is looked up once per change of the saved state, not per frame.
@Suite("TabApp current account")
struct CurrentAccountTests {
    @Test("the current account follows every way the saved state changes")
    func follows() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 80, height: 24))
        #expect(state.currentAccount?.id == "oss" && state.currentIndex == 2)
        state.saved = SavedState(currentAccount: "side")
        #expect(state.currentAccount?.id == "side" && state.currentIndex == 3)
        state.saved.currentAccount = nil
        #expect(state.currentAccount == nil && state.currentIndex == nil)
        state.adopt(SavedState(currentAccount: "work"))
        #expect(state.currentAccount?.id == "work")
        state.adopt(SavedState(currentAccount: "gone"))
        #expect(state.currentAccount == nil && state.saved.currentAccount == nil, "an unknown id is dropped")
        #expect(
            TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "gone"), size: Size(width: 80, height: 24))
                .currentIndex
                == nil)
    }

    @Test("the sheet opens on the current account, also the last of many")
    func sheetOpensOnCurrent() {
        let accounts = (1...5_000).map { Account(id: "a\($0)", name: "Account \($0)") }
        var state = TabApp.perch(accounts: accounts, saved: SavedState(currentAccount: "a5000"), size: Size(width: 80, height: 24))
        state.openSheet()
        #expect(state.sheet?.cursor.cursor == 4_999)
        #expect(state.render().lines.contains { $0.hasPrefix(" ● Account 5000") })
    }
}
