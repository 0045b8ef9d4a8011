import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

private func formState() -> TabApp {
    var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
    _ = state.update(.key(.char("a")))
    _ = state.update(.key(KeyEvent(.end)))
    _ = state.update(.key(KeyEvent(.enter)))
    return state
}

private func type(_ state: inout TabApp, _ text: String) {
    for c in text { _ = state.update(.key(.char(c))) }
}

@Suite("The Add account… form")
struct AccountFormTests {
    @Test("Enter on the sheet's last row opens the form over the sheet; it is not picked as an account")
    func opensFromSheet() {
        let state = formState()
        #expect(state.presented.count == 2)
        #expect(state.keysTitle == AccountForm.keyTable.title)
        #expect(state.saved.switchCount == 0)
        #expect(state.accountForm?.opensSheet == false)
    }

    // Bug: with a filter that matched no account, Enter opened an empty form: what was typed was lost.
    @Test("Enter on Add account… under a filter that matched no account opens the form with the filter as the name, its focus on the id")
    func filterBecomesTheName() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("a")))
        type(&state, "/Zed Corp")
        _ = state.update(.key(KeyEvent(.enter)))
        #expect(state.accountForm?.value(.name) == "Zed Corp")
        #expect(state.accountForm?.value(.id) == "" && state.accountForm?.focus == .id)
        var plain = formState()
        #expect(plain.accountForm?.value(.name) == "", "no filter: an empty form")
        _ = plain.update(.key(KeyEvent(.escape)))
    }

    @Test("the Settings row and a click on the sheet's last row open the form too")
    func opensFromSettingsAndClick() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("4")))
        _ = state.update(.tap(.settingsRow(1)))
        #expect(state.accountForm?.opensSheet == true)
        var sheet = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = sheet.update(.key(.char("a")))
        #expect(sheet.hitTest(Position(column: 5, row: 22)) == .sheetAddAccount)
        _ = sheet.update(.tap(.sheetAddAccount))
        #expect(sheet.keysTitle == AccountForm.keyTable.title)
    }

    @Test("printable keys, q and ? included, go into the focused field at its cursor; controls never; Readline's editing keys edit")
    func typing() {
        var state = formState()
        type(&state, "q?1a")
        _ = state.update(.key(KeyEvent(.control("a"))))
        #expect(state.accountForm?.value(.id) == "q?1a", "Ctrl-A is no text: it moves the cursor to the start")
        type(&state, "x")
        #expect(state.accountForm?.value(.id) == "xq?1a", "typed at the cursor")
        _ = state.update(.key(KeyEvent(.end)))
        _ = state.update(.key(KeyEvent(.backspace)))
        #expect(state.accountForm?.value(.id) == "xq?1")
        _ = state.update(.key(KeyEvent(.left)))
        _ = state.update(.key(KeyEvent(.control("k"))))
        #expect(state.accountForm?.value(.id) == "xq?")
        _ = state.update(.key(KeyEvent(.control("w"))))
        #expect(state.accountForm?.value(.id) == "")
        type(&state, "q?1")
        #expect(state.presented.count == 2, "q did not quit, ? opened no help")
    }

    @Test("a paste goes into the focused field without line breaks or controls, up to the length cap")
    func paste() {
        var state = formState()
        _ = state.update(.paste("ab\ncd\u{1B}[31m"))
        #expect(state.accountForm?.value(.id) == "abcd[31m")
        _ = state.update(.paste(String(repeating: "x", count: 200)))
        #expect(state.accountForm?.value(.id).count == AccountForm.maximumLength)
    }

    @Test("Tab, ↓ move to the next field, Shift-Tab, ↑ to the previous, wrapping; a click focuses a field")
    func focus() {
        var state = formState()
        let steps: [(KeyEvent, AccountField)] = [
            (KeyEvent(.tab), .name), (KeyEvent(.down), .handle), (KeyEvent(.tab), .group), (KeyEvent(.tab), .id),
            (KeyEvent(.tab, modifiers: .shift), .group), (KeyEvent(.up), .handle),
        ]
        for (key, field) in steps {
            _ = state.update(.key(key))
            #expect(state.accountForm?.focus == field, "after \(key)")
        }
        let layout = AccountFormLayout(screen: state.size)
        let target = state.hitTest(Position(column: 14, row: layout.row(of: .name)))
        #expect(target == .formField(.name))
        _ = state.update(.tap(target))
        #expect(state.accountForm?.focus == .name)
    }

    @Test(
        "each rule gives its message beside its field, and nothing is asked of the event loop",
        arguments: [
            ("", "Ada", AccountField.id, "must not be empty"),
            ("Ada", "Ada", .id, "\"Ada\" may hold only a–z, 0–9, '.', '_' and '-'"),
            ("work", "Ada", .id, "\"work\" is already used by another account"),
            ("ada", "", .name, "must not be empty"),
            ("ada", "   ", .name, "must not be empty"),
            ("ada", "\u{200B}", .name, "has nothing visible (only zero-width or control characters)"),
            // fish-shell PR #10319: an id that looks like an option is refused in the form too.
            ("-rf", "Ada", .id, "\"-rf\" must not begin with '-' (it would read as an option)"),
        ])
    func validationMessages(_ id: String, _ name: String, _ field: AccountField, _ message: String) {
        var state = formState()
        _ = state.update(.paste(id))
        _ = state.update(.key(KeyEvent(.tab)))
        _ = state.update(.paste(name))
        let effects = state.update(.key(KeyEvent(.enter)))
        #expect(effects.isEmpty)
        #expect(state.accountForm?.problems[field]?.message == message)
        #expect(state.accountForm?.problems.count == 1)
        #expect(state.accountForm?.focus == field, "the field with the problem takes the focus")
        let row = AccountFormLayout(screen: state.size).row(of: field) + 1
        #expect(state.render().lines[row].contains(message))
    }

    // Bug (issue 20): a handle or group of only spaces was accepted.
    @Test("a handle or group of only spaces is refused beside its field")
    func blankHandleOrGroup() {
        let form = AccountForm()
        var filled = form
        filled.fields = [.id: TextField("ada"), .name: TextField("Ada"), .handle: TextField("   "), .group: TextField(" ")]
        guard case .failure(let list) = filled.validated(existingIDs: []) else {
            Issue.record("accepted")
            return
        }
        #expect(list.problems == [.handle: .blank, .group: .blank])
        #expect(AccountProblem.blank.message == "must not be only spaces")
    }

    @Test(
        "an optional text is blank exactly when every character is white space, ASCII or not",
        arguments: ["", " ", "   ", "\t\n", "\u{3000}", " \u{00A0} ", "@ada", " x ", "\u{7F}", "\u{1}", " é", "\u{3000}の", "e\u{301}"])
    func blankText(_ text: String) {
        let reference = text.allSatisfy(\.isWhitespace)
        #expect((AccountValidation.optionalTextProblem(text) == .blank) == reference, "\(Array(text.unicodeScalars))")
    }

    @Test("a valid form asks for the account to be appended; empty optional fields are absent")
    func submit() {
        var state = formState()
        type(&state, "ada")
        _ = state.update(.key(KeyEvent(.tab)))
        type(&state, "Ada L")
        _ = state.update(.key(KeyEvent(.tab)))
        type(&state, "@ada")
        let asker = formAsker(state)
        #expect(
            state.update(.key(KeyEvent(.enter))) == [
                .asked(by: asker, .perform(AddAccount(Account(id: "ada", name: "Ada L", handle: "@ada"))))
            ])
        #expect(state.accountForm != nil, "the form stays until the write is done")
        let layout = AccountFormLayout(screen: state.size)
        let add = layout.button(.add)
        #expect(state.hitTest(Position(column: add.x, row: add.y)) == .formButton(.add))
        #expect(state.update(.tap(.formButton(.add))).count == 1)
    }

    @Test("once written the form closes and the sheet shows the new account with the cursor on it")
    func added() {
        var state = formState()
        let account = Account(id: "ada", name: "Ada")
        let asker = submittedForm(&state)
        _ = state.update(
            .outcome(
                AnyOutcome(
                    AccountAddition.added(account, accounts: Account.samples + [account], configPath: "/c/accounts.json", backupPath: nil)),
                for: asker))
        #expect(state.accountForm == nil)
        #expect(state.accounts.last == account)
        #expect(state.sheet?.cursor.cursor == 4)
        #expect(state.info.configDescription == "/c/accounts.json")
        #expect(state.render().lines.contains { $0.hasPrefix("   Ada ") })
        // Bug: after adding, the sheet stayed one row short (no `Add account…` row) until reopened.
        #expect(state.render().lines.contains { $0.contains("Add account…") }, "the sheet fits its new content")
        // Bug: the banner was never seen from the keyboard: the sheet covered it, and the Esc that
        // closed the sheet took it too.
        #expect(state.bannerText == "Added Ada to /c/accounts.json.")
        _ = state.update(.key(KeyEvent(.down)))
        _ = state.update(.key(KeyEvent(.escape)))
        _ = state.update(.animationFrame, at: 10_000)
        #expect(state.presented.isEmpty && state.bannerText == "Added Ada to /c/accounts.json.", "shown once the sheet is gone")
        #expect(state.render().lines.contains { $0.contains("Added Ada to /c/accounts.json.") })
        _ = state.update(.key(.char("j")))
        #expect(state.bannerText == nil, "the next key with no layer up takes it")
    }

    @Test("from Settings, the sheet opens on the new account")
    func addedFromSettings() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("4")))
        _ = state.update(.key(.char("j")))
        _ = state.update(.key(KeyEvent(.enter)))
        let account = Account(id: "ada", name: "Ada", group: "Home")
        let asker = submittedForm(&state)
        _ = state.update(
            .outcome(
                AnyOutcome(AccountAddition.added(account, accounts: Account.samples + [account], configPath: "/c", backupPath: nil)),
                for: asker))
        #expect(state.presented.count == 1)
        guard let sheet = state.sheet else {
            Issue.record("no sheet")
            return
        }
        #expect(sheet.row(sheet.cursor.cursor, accounts: state.accounts.count) == .account(4))
    }

    @Test("a failed write keeps the form open with the error; Esc and ✕ cancel")
    func failedAndCancel() {
        var state = formState()
        let asker = submittedForm(&state)
        _ = state.update(
            .outcome(
                AnyOutcome(AccountAddition.notAdded("Could not write the config: /c: cannot replace: Permission denied")),
                for: asker))
        #expect(state.accountForm?.writeError != nil)
        #expect(state.render().lines[23].contains("Permission denied"))
        _ = state.update(.key(KeyEvent(.escape)))
        #expect(state.accountForm == nil)
        #expect(state.sheet != nil, "the sheet below is back")
        var other = formState()
        #expect(other.hitTest(Position(column: 1, row: 0)) == .coverClose)
        _ = other.update(.tap(.coverClose))
        #expect(other.accountForm == nil)
    }

    @Test("F1 opens help listing the form's keys from the one table")
    func help() {
        var state = formState()
        _ = state.update(.key(KeyEvent(.function(1))))
        guard let help = state.presented.last?.help else {
            Issue.record("no help")
            return
        }
        #expect(help.title == AccountForm.keyTable.title)
        #expect(Array(help.rows.prefix(AccountForm.keyTable.helpRows.count)) == AccountForm.keyTable.helpRows, "the form's own first")
        #expect(help.rows.contains(HelpLayer.Row("? F1", "help (F1 where you type)")), "help's key where you type")
        // Bug: F1 opened help in the form, but a second F1 did not close it (Esc, ? and q did).
        _ = state.update(.key(KeyEvent(.function(1))))
        #expect(state.presented.last?.help == nil && state.accountForm != nil, "F1 again closes help, back to the form")
        #expect(AccountForm.keyTable.helpRows.contains(HelpLayer.Row("wheel", "previous or next field")))
    }
}

@Suite("Account form problems")
struct AccountFormProblemTests {
    // Bug: after an invalid id was corrected, its old message stayed until the next Enter.
    @Test("editing a field clears the message about its old text; the other fields keep theirs")
    func editingClears() {
        var form = AccountForm()
        form.problems = [.id: .invalidID("Work!"), .name: .empty]
        form.type("x")
        #expect(form.problems[.id] == nil)
        #expect(form.problems[.name] == .empty)
        form.focus = .name
        form.problems[.id] = .invalidID("x")
        form.edit(.deleteBackward)  // nothing to delete: the message stays
        #expect(form.problems[.name] == .empty)
        form.type("N")
        form.edit(.deleteBackward)
        #expect(form.problems[.name] == nil)
        #expect(form.problems[.id] == .invalidID("x"))
    }
}

@Suite("Delete alert wording")
struct DeleteAlertWordingTests {
    // Bug: with no account chosen, the Delete alert read "It leaves this’s Catalog for this session."
    // With no account there is no Catalog to delete from: the pane says so and m opens nothing.
    @Test("with no account chosen the Catalog is empty and says why; no menu or alert opens")
    func noAccount() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.selectedTab = .catalog
        _ = state.update(.key(.char("m")))
        #expect(state.presented.isEmpty)
        let text = state.render().lines.joined(separator: "\n")
        #expect(text.contains("No account yet"), "\(text)")
        #expect(!text.contains("this’s"))
    }
}

/// Small screens: whatever has the focus is in view, and content past an edge is marked.
@Suite("Small screens")
struct SmallScreenTests {
    // Bug: at 30×8 the form hid its lower fields and buttons, and a focused field took typing while out of sight.
    @Test("at 30×8 the focused field of the form is scrolled into view, with ↑/↓ marks at the edges")
    func formScrolls() throws {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 30, height: 8))
        _ = state.update(.key(.char("4")))
        _ = state.update(.key(.char("j")))
        _ = state.update(.key(KeyEvent(.enter)))  // Add account…
        try #require(state.accountForm != nil)
        var lines = state.render().lines
        #expect(
            lines.contains { $0.contains("Id") && $0.contains("▏") }, "the focused Id field is shown:\n\(lines.joined(separator: "\n"))")
        #expect(lines[6].hasSuffix("↓ "), "more below is marked")
        for _ in 0..<3 { _ = state.update(.key(KeyEvent(.tab))) }
        _ = state.update(.paste("team"))
        lines = state.render().lines
        #expect(
            lines.contains { $0.contains("Group") && $0.contains("team▏") }, "typing shows where it goes:\n\(lines.joined(separator: "\n"))"
        )
        #expect(lines[2].hasSuffix("↑ "), "more above is marked")
        #expect(lines.contains { $0.contains("[ Add ]") }, "the buttons come into view with the last field")
        let add = try #require(lines.firstIndex { $0.contains("[ Add ]") })
        let column = try #require(lines[add].range(of: "[ Add ]")).lowerBound.utf16Offset(in: lines[add])
        #expect(state.hitTest(Position(column: column + 1, row: add)) == .formButton(.add))
        #expect(state.hitTest(Position(column: 29, row: 2)) == .layerScroll(-1))
        _ = state.update(.tap(.layerScroll(-1)))
        #expect(state.accountForm?.focus == .handle, "a click on the mark moves the focus that way")
    }

    // Bug: the form's ↑/↓ marks overwrote a field's `]` and its hint (`Handle  [        ↓`, `requir↓d`).
    @Test(
        "while the form scrolls its fields and hints end before the ↑/↓ marks",
        arguments: [
            Size(width: 30, height: 8), Size(width: 20, height: 6), Size(width: 25, height: 10),
        ])
    func marksCoverNothing(_ size: Size) throws {
        var state = TabApp.perch(accounts: Account.samples, size: size)
        _ = state.update(.key(.char("a")))
        _ = state.update(.key(.char("+")))
        try #require(state.accountForm != nil)
        for _ in 0..<4 {
            let lines = state.render().lines
            let layout = AccountFormLayout(screen: size, focus: try #require(state.accountForm?.focus))
            #expect(layout.scrolls)
            for field in AccountForm.fields where layout.isContentRow(layout.row(of: field)) {
                #expect(lines[layout.row(of: field)].dropLast(2).contains("]"), "\(field) ends in ]: \(lines[layout.row(of: field)])")
            }
            #expect(!lines.contains { $0.contains("requir↓") || $0.contains("option↓") }, "\(lines.joined(separator: "\n"))")
            _ = state.update(.key(KeyEvent(.tab)))
        }
    }

    // Bug: a context menu's actions past the screen's edge had no mark, so a mouse-only user could not reach Delete.
    @Test("a context menu whose actions do not all fit marks the rest, and a click on the mark brings Delete into view")
    func menuMarksHiddenActions() throws {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 30, height: 8))
        _ = state.update(.key(.char("2")))
        _ = state.update(.key(.char("m")))
        let menu = try #require(state.presented.last?.as(ContextMenu.self))
        let layout = try #require(state.contextMenuLayout(menu))
        try #require(layout.visibleActions < ContextMenuAction.allCases.count, "the screen is small enough to hide actions")
        let lines = state.render().lines
        #expect(lines[layout.menu.maxY - 1].contains("↓ more"), "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("Delete") })
        var tapped = state
        for _ in 0..<ContextMenuAction.allCases.count {
            if tapped.render().lines.contains(where: { $0.contains("Delete") }) { break }
            _ = tapped.update(.tap(tapped.hitTest(Position(column: layout.menu.x + 2, row: layout.menu.maxY - 1))))
        }
        #expect(tapped.render().lines.contains { $0.contains("Delete") }, "Delete reached with the mouse alone")
    }
}

@Suite("Settings on a narrow screen")
struct NarrowSettingsTests {
    // Bug: at 30 columns Settings cut every value from the left, so a sentence read from its middle (`…0 ms` read as 0 ms).
    @Test("a value in words keeps its beginning when cut; a path keeps its end")
    func valuesCutTheRightWay() throws {
        var state = TabApp.perch(
            accounts: Account.samples, size: Size(width: 40, height: 20),
            info: RunInfo(configDescription: "/home/someone/.config/perch/accounts.json"))
        _ = state.update(.key(.char("4")))
        let lines = state.render().lines
        let keyHold = try #require(lines.first { $0.contains("Key hold") })
        #expect(keyHold.contains("from auto-"), "\(keyHold)")
        let config = try #require(lines.first { $0.contains("Config file") })
        #expect(config.contains("…") && config.contains("accounts.json"), "\(config)")
    }
}

/// Where the `Add account…` form's outcomes are addressed: its layer.
func formAsker(_ state: TabApp) -> ModelID {
    .layer(state.presented.last { $0.is(AccountForm.self) }?.id ?? -1)
}

/// Fills the `Add account…` form on top with a valid account and presses Enter, so that it asks
/// for its job (a layer takes only the outcomes of what it asked for); returns where the job's
/// outcomes are addressed.
func submittedForm(_ state: inout TabApp) -> ModelID {
    for c in "ada" { _ = state.update(.key(.char(c))) }
    _ = state.update(.key(KeyEvent(.tab)))
    for c in "Ada" { _ = state.update(.key(.char(c))) }
    let asker = formAsker(state)
    #expect(state.update(.key(KeyEvent(.enter))) == [.asked(by: asker, .perform(AddAccount(Account(id: "ada", name: "Ada"))))])
    return asker
}
