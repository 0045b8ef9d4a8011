import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The accessible mode's lines (issue 51): each change said once, as one line, from the same
/// model and keys as the full-screen interface.
@Suite("Narration (accessible mode)")
struct NarrationTests {
    private func makeState(current: String? = "personal", accessible: Bool = true) -> TabApp {
        var info = RunInfo()
        info.accessible = accessible
        return TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: current), size: Size(width: 80, height: 24), info: info)
    }

    /// The lines said for `events`, in order.
    private func said(_ state: inout TabApp, _ events: UIEvent...) -> [String] {
        events.flatMap { state.update($0) }.compactMap { if case .say(let line) = $0.work { line } else { nil } }
    }

    private func char(_ c: Character) -> UIEvent { .key(.char(c)) }
    private func key(_ k: Key) -> UIEvent { .key(KeyEvent(k)) }

    @Test("opening the sheet says its rows numbered, the current one marked, in one line")
    func sheetOpens() {
        var state = makeState()
        #expect(
            said(&state, char("a")) == [
                "Switch account, 5 rows: 1 Work, @ada.lovelace; 2 Personal, @ada, current; 3 Open Source, @ada-oss; "
                    + "4 Side Project, @analytical-engine; 5 Add account…. Type a number and Enter to pick; / filters; Esc closes."
            ])
    }

    @Test("a number puts the cursor on its row and says it; Enter then switches to it")
    func numberPicks() {
        var state = makeState()
        _ = said(&state, char("a"))
        #expect(said(&state, char("3")) == ["3 of 5: Open Source, @ada-oss."])
        let effects = state.update(key(.enter))
        #expect(effects.contains { $0.isSwitch }, "Enter asks for the switch: \(effects)")
        let lines = effects.compactMap { if case .say(let line) = $0.work { line } else { nil } }
        #expect(lines == ["Switching to Open Source (@ada-oss)…"])
        #expect(state.pendingSwitch?.accountID == "oss")
    }

    @Test("a number with no row is said and moves nothing")
    func numberWithoutRow() {
        var state = makeState()
        _ = said(&state, char("a"))
        let before = state.sheet?.cursor.cursor
        #expect(said(&state, char("9")) == ["No row 9: the list has 5."])
        #expect(state.sheet?.cursor.cursor == before)
        // Bug: Enter after a number with no row switched to the row the cursor was still on.
        let effects = state.update(key(.enter))
        #expect(!effects.contains { $0.isSwitch }, "nothing is picked: \(effects)")
        #expect(effects.contains { $0.work == .say("No row chosen: type a number from 1 to 5, or move with ↑ ↓, then Enter.") })
        #expect(state.sheet != nil, "the sheet stays")
        _ = said(&state, char("2"))
        #expect(state.update(key(.enter)).contains { $0.isSwitch }, "a number with a row picks it")
    }

    @Test("the filter says what it matches, numbered from 1")
    func filterSays() {
        var state = makeState()
        _ = said(&state, char("a"))
        #expect(said(&state, char("/")) == ["Filter: type to narrow the list; Enter picks the row under the cursor; Esc clears it."])
        #expect(said(&state, char("s"), char("i")).last == "Filter \"si\": 2 rows: 1 Side Project, @analytical-engine; 2 Add account….")
    }

    @Test("choosing a tab says its name, place and text; digits still choose tabs over the panes")
    func tabSays() {
        var state = makeState()
        let lines = said(&state, char("4"))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Settings tab, 4 of 4: Settings") == true, "\(lines)")
        #expect(lines.first?.contains("Accessible mode") == true, "the setting is listed: \(lines)")
        #expect(said(&state, key(.tab)).first?.hasPrefix("Overview tab, 1 of 4") == true)
    }

    @Test("help says every key of where it is, whole, and Esc goes back to the sheet")
    func helpSays() {
        var state = makeState()
        _ = said(&state, char("a"))
        let help = said(&state, char("?"))
        #expect(help.count == 1)
        #expect(help.first?.hasPrefix("Keys for Account sheet: Esc: close the sheet; ") == true, "\(help)")
        #expect(help.first?.contains("Ctrl-C: quit") == true, "the process's keys too")
        #expect(help.first?.contains("Enter: switch to the account") == true)
        #expect(said(&state, key(.escape)).first?.hasPrefix("Switch account, 5 rows:") == true)
    }

    // Bug: the Catalog's menu was said with the Catalog rows beside it ("Pin report · 500 words"),
    // and its Delete alert mixed in with them.
    @Test("a menu and its alert are said alone, without the rows of the pane around them")
    func menuSaidAlone() {
        var state = makeState()
        _ = said(&state, char("2"))
        let menu = said(&state, char("m"))
        #expect(menu.count == 1 && menu[0].hasPrefix("Context menu: "), "\(menu)")
        #expect(menu[0].contains("Open") && menu[0].contains("Delete…"), "\(menu)")
        let beside = state.catalogItems.dropFirst(10).prefix(5).map(\.title)
        #expect(!beside.contains { menu[0].contains($0) }, "no Catalog row beside the menu: \(menu)")
        let pin = said(&state, key(.down))
        #expect(pin.count == 1 && !pin[0].contains("words"), "\(pin)")
        _ = said(&state, key(.down), key(.down))
        let alert = said(&state, key(.enter))
        #expect(alert.count == 1 && alert[0].contains("Cancel") && alert[0].contains("Delete"), "\(alert)")
        #expect(!beside.contains { alert[0].contains($0) }, "no Catalog row beside the alert: \(alert)")
    }

    // Bug: Enter on the current account closed the sheet and said nothing.
    @Test("picking the current account says so")
    func pickCurrentSays() {
        var state = makeState()
        _ = said(&state, char("a"), char("2"))
        #expect(said(&state, key(.enter)) == ["Already signed in as Personal (@ada)."])
    }

    // Bug: the notice on a screen too small was said in pieces ("terminal too · small (15×5, · needs 20×6)").
    @Test("a screen too small is said in one line, and growing again says what shows")
    func tooSmallSaidWhole() {
        var state = makeState()
        #expect(said(&state, .resize(Size(width: 15, height: 5))) == ["Terminal too small (15×5, needs 20×6)."])
        #expect(said(&state, .resize(Size(width: 16, height: 5))) == ["Terminal too small (16×5, needs 20×6)."])
        let back = said(&state, .resize(Size(width: 80, height: 24)))
        #expect(back.count == 1 && back[0].hasPrefix("Overview tab, 1 of 4: "), "\(back)")
    }

    @Test("without the accessible mode nothing is said")
    func fullScreenSaysNothing() {
        var state = makeState(accessible: false)
        #expect(said(&state, char("a"), char("3"), key(.escape), char("2")).isEmpty)
    }
}
