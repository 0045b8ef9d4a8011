import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Bugs a new user's trial of the interface and the inline picker found, each with the test that
/// names it.
struct TrialFaultTests {
    /// 40 accounts named `Account 1`…`Account 40`: every one matches the filter `acc`.
    static let accounts = (1...40).map { Account(id: "a\($0)", name: "Account \($0)") }

    // Bug: PgUp, PgDn, Home and End did nothing in the sheet once a filter was typed.
    @Test("With a filter typed, PgDn, End, PgUp and Home move the sheet's cursor; k, j, g and G are the filter's text")
    func filterPagesAndEnds() {
        var state = TabApp.perch(accounts: Self.accounts, size: Size(width: 80, height: 24))
        for key in [KeyEvent.char("a"), .char("/"), .char("a"), .char("c"), .char("c")] { _ = state.update(.key(key)) }
        #expect(state.sheet?.filter == "acc")
        #expect(state.sheet?.cursor.cursor == 0)
        _ = state.update(.key(KeyEvent(.pageDown)))
        let page = state.sheet?.cursor.cursor ?? 0
        #expect(page > 1, "a page down")
        _ = state.update(.key(KeyEvent(.end)))
        #expect(state.sheet?.cursor.cursor == Self.accounts.count, "the last row: Add account…, after the 40 matches")
        _ = state.update(.key(KeyEvent(.pageUp)))
        #expect(state.sheet?.cursor.cursor ?? 0 < Self.accounts.count - 1)
        _ = state.update(.key(KeyEvent(.home)))
        #expect(state.sheet?.cursor.cursor == 0)
        _ = state.update(.key(.char("G")))
        #expect(state.sheet?.filter == "accG", "G is text in the filter")
    }

    @Test("The inline picker: with a filter typed, PgDn and End move too")
    func pickerFilterPagesAndEnds() {
        var picker = AccountPicker(
            accounts: Self.accounts, saved: SavedState(), terminal: Size(width: 60, height: 24), height: nil, verb: "pick")
        for c in "acc" { _ = picker.update(.key(.char(c))) }
        #expect(picker.sheet?.filter == "acc")
        _ = picker.update(.key(KeyEvent(.pageDown)))
        #expect(picker.sheet?.cursor.cursor ?? 0 > 1)
        _ = picker.update(.key(KeyEvent(.end)))
        #expect(picker.sheet?.cursor.cursor == Self.accounts.count - 1)
    }

    // Bug: Ctrl-Z did nothing in the inline picker, and what was typed next went into its filter.
    @Test("Ctrl-Z in the inline picker suspends it, as it does the interface, and types nothing")
    func pickerSuspends() {
        var picker = InlinePickerModeTests.picker()
        #expect(picker.update(.key(KeyEvent(.control("z")))) == [.suspend])
        #expect(picker.sheet?.filter == nil)
        #expect(picker.outcome == nil, "the picker runs on after fg")
    }

    // Bug: help listed no wheel for Stats or the sheet, though it scrolls the one and moves the
    // other's cursor.
    @Test("Help lists the wheel on Stats and over the sheet, where it works")
    func helpListsTheWheel() {
        #expect(StatsPane.keyTable.helpRows.contains { $0.label == "wheel" })
        #expect(AccountSheet.keyTable.helpRows.contains { $0.label == "wheel" })
        var stats = StatsPane()
        let context = ModelUpdateTests.statsContext()
        #expect(stats.update(.scroll(.none, notches: 1), context.kit).isEmpty)
        #expect(stats.list.scroll == ListMove.rowsPerScrollNotch, "the wheel scrolls Stats")
    }

    // Bug: the wheel did nothing on Settings.
    @Test("The wheel moves the Settings cursor a row a notch, and help lists it")
    func settingsWheel() {
        var settings = SettingsPane()
        let context = ModelUpdateTests.context()
        #expect(settings.update(.scroll(.settingsRow(0), notches: 2), context.kit).isEmpty)
        #expect(settings.list.cursor == 2)
        _ = settings.update(.scroll(.settingsRow(0), notches: -1), context.kit)
        #expect(settings.list.cursor == 1)
        #expect(SettingsPane.keyTable.helpRows.contains { $0.label == "wheel" })
    }

    // Bug: `r` and `v` in Overview, and `r` in the Catalog, said nothing when they had nothing to do.
    @Test("r and v say why they do nothing: no account chosen yet, or an account without tools; the Catalog's r, no command")
    func silentKeysSayWhy() {
        var none = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = none.update(.key(.char("r")))
        #expect(none.bannerText == "No account chosen yet: press a to switch to one.")
        _ = none.update(.key(.char("v")))
        #expect(none.bannerText == "No account chosen yet: press a to switch to one.")
        let bare = [Account(id: "bare", name: "Bare")]
        var plain = TabApp.perch(accounts: bare, saved: SavedState(currentAccount: "bare"), size: Size(width: 80, height: 24))
        #expect(plain.update(.key(.char("r"))).isEmpty)
        #expect(plain.bannerText?.hasPrefix("Bare has no tool identities to apply") == true, "\(plain.bannerText ?? "none")")
        #expect(plain.update(.key(.char("v"))).isEmpty)
        #expect(plain.bannerText?.hasPrefix("Bare has no tool to ask") == true, "\(plain.bannerText ?? "none")")
        _ = plain.update(.key(.char("2")))
        _ = plain.update(.key(.char("r")))
        #expect(plain.bannerText == "Bare's Catalog has no command to run again (catalog.command in the config).")
    }
}

/// A pane that greets each account it is shown for, and asks for the account's tools to be read
/// again: what it asks on a change of account must be carried out, as PerchKit's root does.
private struct GreetingPane: Pane {
    var shown: String?
    var title: String { "Greeting" }
    var keys: KeyTable<Never> { KeyTable("Greeting") }
    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Never>] { [] }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
    mutating func modelChanged(_ context: Context) -> [Reaction<Never>] {
        let current = context.perch?.saved.currentAccount
        guard current != shown else { return [] }
        shown = current
        return [.banner("Now showing \(current ?? "nobody")"), .perch(.verifyIdentities)]
    }
}

@Suite("A pane following the account")
struct PaneFollowTests {
    // Bug: what a pane asked when the current account changed was dropped (a debug build stopped
    // on it), where PerchKit's root carries it out.
    @Test("what a pane asks when the account changes is carried out, once per change, as the pane's")
    func followAsks() {
        let accounts = ["personal", "work"].map { Account(id: $0, name: $0, identities: ToolIdentities([.fixture(.git, "<\($0)@x>")])) }
        var app = TabApp(
            panes: [GreetingPane()], model: PerchModel(accounts: accounts, saved: SavedState(currentAccount: "personal")),
            size: Size(width: 80, height: 24))
        #expect(app.pane(GreetingPane.self, at: 0)?.shown == "personal", "it followed the model from the start")
        let first = TabApp.effects(app.update(.ui(.animationFrame)))
        #expect(app.bannerText == "Now showing personal")
        #expect(first.contains { $0.job(VerifyIdentities.self) != nil }, "\(first)")
        let again = TabApp.effects(app.update(.deliver(PerchModel.Message.wallTime(WallTime(seconds: 0)), to: .app)))
        #expect(again.allSatisfy { $0.job(VerifyIdentities.self) == nil }, "the same account: nothing asked")
        _ = app.update(.deliver(PerchModel.Message.stateChanged(StateChanged(SavedState(currentAccount: "work"), warning: nil)), to: .app))
        #expect(app.pane(GreetingPane.self, at: 0)?.shown == "work")
    }
}
