import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Each pane and each presented layer driven alone, without the root (``TabApp``): messages
/// go to the model's own `update`, outcomes to its own `take`, and the test checks the model's
/// state afterwards and the exact intents it hands back for the root to carry out, sometimes
/// with a line of what it then draws (``ModelRenderTests/lines(_:_:)``).
@Suite
struct ModelUpdateTests {
    /// The sample accounts on the small screen, Personal current (``ModelRenderTests/context(current:size:)``).
    static func context(current: String? = "personal", size: Size = ModelRenderTests.size) -> ModelContext {
        ModelRenderTests.context(current: current, size: size)
    }

    /// A context whose only account lists what `gh repo list` prints (a Catalog with a command).
    static func commandContext() -> ModelContext {
        let account = Account(id: "gh", name: "GitHub", catalog: CatalogCommands(command: "gh repo list", preview: "gh repo view"))
        var catalog = CatalogPane()
        catalog.load(for: account, visible: Layout(size: ModelRenderTests.size).listRows)
        return ModelContext(
            accounts: AccountsIndex([account]), saved: SavedState(currentAccount: "gh"), currentIndex: 0, pendingSwitch: nil,
            size: ModelRenderTests.size, clock: 0, info: RunInfo(), reduceMotion: true, sheetStyle: .edgeToEdge, catalog: catalog)
    }

    static let repos = [
        CatalogItem(id: "ada/perch", title: "perch", detail: "", kind: ""),
        CatalogItem(id: "ada/notes", title: "notes", detail: "", kind: ""),
        CatalogItem(id: "ada/site", title: "site", detail: "", kind: ""),
    ]

    // MARK: Overview

    @Test("Overview alone: r and v ask the root to apply and to verify; text, taps and a relayout change nothing and ask nothing")
    func overviewIgnoresMessages() throws {
        let context = Self.context()
        var pane = OverviewPane()
        let before = ModelRenderTests.lines(Alone(pane), context)
        let inputs: [ComponentInput<OverviewPane.Verb>] = [
            .paste("x"), .key(.char("x")), .tap(.catalogRow(0)), .scroll(.catalogRow(0), notches: 1), .relayout,
        ]
        for input in inputs {
            #expect(pane.update(input, context.kit).isEmpty, "\(input)")
        }
        #expect(pane == OverviewPane())
        #expect(ModelRenderTests.lines(Alone(pane), context) == before)
        // As Perch's root holds it and binds its keys.
        var hosted = Alone(pane)
        #expect(hosted.key(.char("r"), context) == [.reapplyIdentities])
        #expect(hosted.key(.char("v"), context) == [.verifyIdentities])
        #expect(hosted.key(.char("z"), context) == [], "a verb not of its table does nothing")
        #expect(hosted.take(AnyOutcome(SettingsNotSaved("disk full")), context) == [])
    }

    // MARK: Catalog

    @Test("Catalog alone: ↓ moves the cursor, Enter opens the item under it, the menu key opens its context menu")
    func catalogMovesAndOpens() {
        let context = Self.context()
        var pane = Alone(context.catalogPane)
        let items = pane.pane.items
        #expect(pane.update(.verb(.move(.down)), context) == [])
        #expect(pane.pane.list.cursor == 1)
        #expect(pane.update(.verb(.open), context) == [.present(AnyHashable(Cover.item(items[1], scroll: 0)))])
        #expect(pane.update(.verb(.menu), context) == [.present(AnyHashable(ContextMenu(itemID: items[1].id)))])
        #expect(pane.update(.verb(.move(.last)), context) == [])
        #expect(pane.pane.list.cursor == 59)
        #expect(pane.update(.verb(.move(.first)), context) == [])
        #expect(pane.pane.list.cursor == 0)
        // The sample accounts' Catalog has no command: r runs nothing, and says so.
        #expect(
            pane.update(.verb(.refresh), context) == [
                .banner("Personal's Catalog has no command to run again (catalog.command in the config).")
            ])
        #expect(!pane.pane.isLoading)
    }

    @Test("Catalog alone: a tap moves the cursor to its row, a second tap on it opens the item, and the header counts it")
    func catalogTaps() {
        let context = Self.context()
        var pane = Alone(context.catalogPane)
        #expect(pane.update(.tap(.catalogRow(5)), context) == [])
        #expect(pane.pane.list.cursor == 5)
        #expect(pane.update(.tap(.catalogRow(5)), context) == [.present(AnyHashable(Cover.item(pane.pane.items[5], scroll: 0)))])
        #expect(pane.pane.list.cursor == 5)
        let drawn = ModelRenderTests.lines(pane, context)
        #expect(drawn[0] == " Catalog · Personal                    6/60")
        #expect(drawn[6] == " ▸  6  Hollow Journal           note · 665 …")
        #expect(drawn[1] == "    1  Swift Compass            report · 38…")
    }

    @Test("Catalog alone: r runs the account's command once, and the list it prints comes back through take")
    func catalogLoadsThroughTake() {
        let context = Self.commandContext()
        var pane = Alone(context.catalogPane)
        #expect(pane.pane.items == [])
        #expect(pane.update(.verb(.refresh), context) == [.effect(.perform(LoadCatalog(accountID: "gh", command: "gh repo list")))])
        #expect(pane.pane.isLoading)
        // Running already: a second r asks for nothing.
        #expect(pane.update(.verb(.refresh), context) == [])
        #expect(pane.take(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: Self.repos, skipped: 1)), context) == [])
        #expect(!pane.pane.isLoading)
        #expect(pane.pane.items == Self.repos)
        #expect(pane.pane.loads["gh"] == .loaded(skipped: 1))
        #expect(pane.update(.verb(.move(.down)), context) == [])
        #expect(
            pane.update(.verb(.open), context) == [
                .present(AnyHashable(Cover.item(Self.repos[1], scroll: 0))),
                .effect(.perform(PreviewCatalogItem(accountID: "gh", command: "gh repo view", item: Self.repos[1]))),
            ])
        #expect(pane.pane.previews["ada/notes"] == .loading, "its preview is on its way")
        #expect(ModelRenderTests.lines(pane, context)[0] == " Catalog · GitHub        1 unreadable · 2/3")
    }

    @Test("Catalog alone: a failed run keeps the last list and says why in a banner; another account's failure says nothing")
    func catalogFailsThroughTake() {
        let context = Self.commandContext()
        var pane = Alone(context.catalogPane)
        _ = pane.deliver(.loaded(.loaded(accountID: "gh", items: Self.repos, skipped: 0)), context)
        #expect(
            pane.deliver(.loaded(.failed(accountID: "gh", reason: "HTTP 502\ngh: try again later")), context) == [
                .banner("The catalog command of GitHub failed (the last list is shown): gh: try again later")
            ])
        #expect(pane.pane.items == Self.repos)
        #expect(pane.pane.loads["gh"] == .failed("HTTP 502\ngh: try again later"))
        #expect(pane.deliver(.loaded(.failed(accountID: "work", reason: "no")), context) == [])
        #expect(pane.pane.loads["work"] == .failed("no"))
        #expect(ModelRenderTests.lines(pane, context)[0] == " Catalog · Git… load failed · r retry · 1/3")
    }

    @Test("Catalog alone: a preview is kept for the shown account only; an item's open failure and a config removal come back as intents")
    func catalogTakesPreviewsAndResults() {
        let context = Self.commandContext()
        var pane = Alone(context.catalogPane)
        _ = pane.deliver(.loaded(.loaded(accountID: "gh", items: Self.repos, skipped: 0)), context)
        #expect(
            pane.deliver(.previewed(CatalogPreviewed(accountID: "gh", itemID: "ada/perch", .text("A terminal account switcher"))), context)
                == [])
        #expect(pane.pane.previews == ["ada/perch": .text("A terminal account switcher")])
        #expect(pane.deliver(.previewed(CatalogPreviewed(accountID: "work", itemID: "ada/site", .text("other"))), context) == [])
        #expect(pane.pane.previews == ["ada/perch": .text("A terminal account switcher")])
        #expect(
            pane.deliver(.opened(CatalogItemOpened(accountID: "gh", failure: "exited with status 1")), context) == [
                .banner("catalog.open for GitHub exited with status 1")
            ])
        #expect(pane.deliver(.opened(CatalogItemOpened(accountID: "gh", failure: nil)), context) == [])
        let left = [Account(id: "gh", name: "GitHub")]
        #expect(
            pane.deliver(
                .removed(
                    ConfigDeletion(
                        accountID: "gh", path: ["catalog", "preview"], accounts: left, configPath: "/tmp/perch.json", backupPath: nil,
                        problem: nil)),
                context) == [
                    .replaceAccounts(left, configPath: "/tmp/perch.json"),
                    .banner("Removed catalog.preview of GitHub from /tmp/perch.json.", stays: false),
                ])
        #expect(
            pane.deliver(
                .removed(
                    ConfigDeletion(
                        accountID: "gh", path: [], accounts: nil, configPath: "/tmp/perch.json", backupPath: nil, problem: "read-only")),
                context) == [.banner("Could not remove GitHub from the config: read-only", stays: true)])
    }

    // MARK: Stats

    /// The sample accounts with a switch every hour for four days, read at the end of them.
    static func statsContext() -> ModelContext {
        var context = Self.context()
        let start = WallTime.parseISO8601("2026-12-01T00:00:00Z")!
        let ids = Account.samples.map(\.id)
        context.history = SwitchHistory(
            events: (0..<96).map { SwitchEvent(account: ids[$0 % ids.count], time: start + Int64($0) * 3_600, source: .tui) })
        context.wallTime = WallTime(seconds: start + 96 * 3_600)
        return context
    }

    @Test("Stats alone: ↓ scrolls one line, End to the last screenful, Home back, the wheel by its notches; nothing is asked of the root")
    func statsScrolls() throws {
        let context = Self.statsContext()
        // As PerchKit's root would hand it its verbs, and as Perch's root holds it.
        var pane = StatsPane()
        let count = StatsPicture(context).lines.count
        let visible = context.layout.listRows
        #expect(count > visible + ListMove.rowsPerScrollNotch)
        let before = ModelRenderTests.lines(Alone(pane), context)
        #expect(pane.update(.verb(.move(.down)), context.kit).isEmpty)
        #expect(pane.list.scroll == 1)
        let after = ModelRenderTests.lines(Alone(pane), context)
        #expect(after[1] == before[2])
        #expect(after[0] == before[0])
        #expect(pane.update(.verb(.move(.last)), context.kit).isEmpty)
        #expect(pane.list.scroll == count - visible)
        #expect(pane.update(.verb(.move(.down)), context.kit).isEmpty)
        #expect(pane.list.scroll == count - visible)
        #expect(pane.update(.verb(.move(.first)), context.kit).isEmpty)
        #expect(pane.list.scroll == 0)
        #expect(pane.update(.scroll(.catalogRow(0), notches: 1), context.kit).isEmpty)
        #expect(pane.list.scroll == ListMove.rowsPerScrollNotch)
        #expect(pane.update(.verb(.move(.pageDown)), Context(size: context.size)).isEmpty, "without Perch's model it does nothing")
        #expect(pane.list.scroll == ListMove.rowsPerScrollNotch)
        var hosted = Alone(pane)
        #expect(hosted.key(KeyEvent(.pageDown), context) == [])
        #expect(hosted.pane.list.scroll == ListMove.rowsPerScrollNotch + ListMove.pageStep(visible), "PgDn as Perch binds it")
        #expect(hosted.key(.char("z"), context) == [], "a verb not of its table does nothing")
        #expect(hosted.pane.list.scroll == ListMove.rowsPerScrollNotch + ListMove.pageStep(visible))
    }

    // MARK: Settings

    @Test("Settings alone: Enter on each kind of row asks the root for the sheet, the form, a setting's step or the editor")
    func settingsActivates() throws {
        let context = Self.context()
        // As Perch's root holds it and binds its keys.
        var pane = Alone(SettingsPane())
        func key(_ key: KeyEvent) throws -> [Asked] { pane.key(key, context) }
        #expect(try key(KeyEvent(.enter)) == [.openSheet])
        // Switch account has no value: ← and → do nothing.
        #expect(try key(.char("l")) == [])
        #expect(try key(KeyEvent(.down)) == [])
        #expect(pane.pane.list.cursor == 1)
        #expect(
            try key(KeyEvent(.enter)) == [.present(AnyHashable(AccountForm(opensSheet: true)))],
            "Settings presents the form itself; the sheet opens once the account is added")
        #expect(try key(KeyEvent(.down)) == [])
        #expect(pane.pane.list.cursor == 2)
        /// The file written with `key` stepped, then the root asked to apply it.
        func stepped(_ setting: SettingKey, _ step: Int) -> [Asked] {
            var settings = context.settings
            settings.change(setting, step: step)
            return [.effect(.perform(SaveSettings(settings.file, keys: [setting]))), .changeSetting(setting, step: step)]
        }
        #expect(try key(KeyEvent(.right)) == stepped(.reduceMotion, 1))
        #expect(try key(.char("h")) == stepped(.reduceMotion, -1))
        #expect(try key(KeyEvent(.enter)) == stepped(.reduceMotion, 1))
        #expect(stepped(.reduceMotion, 1) != stepped(.reduceMotion, -1), "the file written holds the new value")
        #expect(try key(KeyEvent(.down)) == [])
        #expect(try key(KeyEvent(.left)) == stepped(.sheetStyle, -1))
        let drawn = ModelRenderTests.lines(pane, context)
        #expect(drawn[8] == "   Reduce motion         off")
        #expect(drawn[9] == " ▸ Sheet style           edge to edge")
    }

    @Test("Settings alone: a tap on a row moves the cursor there and runs it")
    func settingsTaps() throws {
        let context = Self.context()
        var pane = SettingsPane()
        let edit = pane.update(.tap(.settingsRow(9)), context.kit).map(\.request)
        guard edit.count == 1, case .perform(let work) = edit[0], case .job(let job, _) = work.kind else {
            Issue.record("\(edit)")
            return
        }
        #expect(job.as(EditConfig.self) != nil, "Edit config… is its own job")
        #expect(pane.list.cursor == 9)
        var hosted = Alone(pane)
        var settings = context.settings
        settings.change(.longPress, step: 1)
        #expect(
            hosted.update(.tap(.settingsRow(4)), context) == [
                .effect(.perform(SaveSettings(settings.file, keys: [.longPress]))), .changeSetting(.longPress, step: 1),
            ])
        #expect(hosted.pane.list.cursor == 4)
        #expect(hosted.key(KeyEvent(.home), context) == [])
        #expect(hosted.pane.list.cursor == 0)
    }

    @Test("Settings alone: a failed save, a reloaded config and a config that did not reload come back as banners and accounts")
    func settingsTakesOutcomes() throws {
        let context = Self.context()
        var pane = Alone(SettingsPane())
        #expect(pane.take(AnyOutcome(SettingsNotSaved("disk full")), context) == [], "nothing asked for yet: not its")
        // A setting stepped and the editor run: their outcomes are its own now.
        _ = pane.update(.tap(.settingsRow(2)), context)
        _ = pane.update(.tap(.settingsRow(9)), context)
        #expect(
            pane.take(AnyOutcome(SettingsNotSaved("disk full")), context) == [
                .settingsNotSaved([.reduceMotion]), .banner("Settings apply for this run, but could not be saved: disk full"),
            ])
        let kept = [Account.samples[1], Account.samples[2]]
        #expect(
            pane.take(AnyOutcome(ConfigEdited(accounts: kept, configPath: "/c.json", problem: nil)), context) == [
                .replaceAccounts(kept, configPath: "/c.json"), .banner("Config reloaded: 2 accounts."),
            ])
        let without = [Account.samples[0]]
        #expect(
            pane.take(AnyOutcome(ConfigEdited(accounts: without, configPath: "/c.json", problem: nil)), context) == [
                .replaceAccounts(without, configPath: "/c.json"),
                .banner("Config reloaded: 1 accounts; the current account is no longer in it."),
            ])
        #expect(
            pane.take(AnyOutcome(ConfigEdited(accounts: nil, configPath: "/c.json", problem: "line 3: bad")), context) == [
                .banner("The config was not reloaded (the previous accounts stay): line 3: bad", stays: true)
            ])
        #expect(pane.take(AnyOutcome(WallTime(seconds: 0, monotonic: 0)), context) == [], "another job's outcome is not its")
    }

    // MARK: Account sheet

    /// A sheet at rest over the context, as the root presents it: a PerchKit layer hosted in
    /// Perch's stack.
    static func sheet(_ context: ModelContext) -> Alone<AccountSheet> {
        var sheet = Alone(AccountSheet())
        _ = sheet.advance(context)
        return sheet
    }

    @Test("The account sheet alone: ↓ and Enter pick the second account, End and Enter open the form, a row's tap picks it")
    func sheetPicks() throws {
        let context = Self.context()
        var sheet = Self.sheet(context)
        #expect(sheet.key(KeyEvent(.down), context) == [])
        #expect(sheet.layer.cursor.cursor == 1)
        #expect(sheet.key(KeyEvent(.enter), context) == [.pick(accountIndex: 1)])
        #expect(sheet.key(KeyEvent(.end), context) == [])
        #expect(sheet.layer.cursor.cursor == 4)
        let form = Asked.present(AnyHashable(AccountForm(opensSheet: false)))
        #expect(sheet.key(KeyEvent(.enter), context) == [form], "the sheet presents the form itself, over it")
        #expect(sheet.update(.tap(.sheetRow(2)), context) == [.pick(accountIndex: 2)])
        #expect(sheet.update(.tap(.sheetAddAccount), context) == [form])
        #expect(sheet.key(.char("+"), context) == [form], "+ is the sheet's own key")
        #expect(sheet.update(.tap(.sheetChrome), context) == [])
        #expect(sheet.key(.char("q"), context) == [.quit], "q quits over the sheet")
        #expect(sheet.key(KeyEvent(.escape), context) == [.dismiss])
        #expect(sheet.key(.char("z"), context) == [], "a verb not of the sheet's table does nothing")
    }

    @Test("The account sheet alone: / opens the filter and its own keys, typed text filters, Enter picks the match, Esc clears it")
    func sheetFilters() throws {
        let context = Self.context()
        var sheet = Self.sheet(context)
        #expect(sheet.layer.keys.title == AccountSheet.keyTable.title)
        #expect(sheet.key(.char("/"), context) == [.prepareSearch], "the root builds the search text")
        #expect(sheet.layer.isEditingFilter)
        #expect(sheet.layer.filter == "")
        #expect(sheet.layer.keys.title == AccountSheet.filterKeyTable.title, "the filter's keys are the sheet's now: q is text, Esc clears")
        #expect(sheet.layer.keys.takesTyping)
        #expect(sheet.update(.paste("side"), context) == [.prepareSearch])
        #expect(sheet.layer.filter == "side")
        #expect(sheet.layer.rows == [.account(3)])
        #expect(sheet.layer.cursor.cursor == 0)
        let drawn = ModelRenderTests.lines(sheet, context)
        #expect(drawn.contains { $0.hasPrefix(" / side▏") && $0.hasSuffix("1 of 4") }, "\(drawn)")
        #expect(sheet.key(KeyEvent(.enter), context) == [.pick(accountIndex: 3)])
        #expect(sheet.key(KeyEvent(.backspace), context) == [])
        #expect(sheet.layer.filter == "sid")
        #expect(sheet.key(KeyEvent(.escape), context) == [])
        #expect(sheet.layer.filter == nil)
        #expect(!sheet.layer.isEditingFilter)
        #expect(sheet.layer.keys.title == AccountSheet.keyTable.title, "back to the sheet's keys")
        #expect(sheet.layer.rowCount(accounts: 4) == 5)
    }

    @Test("The account sheet alone: the grabber dragged to the screen's foot and let go dismisses the sheet")
    func sheetDragsAway() {
        let context = Self.context()
        var sheet = Self.sheet(context)
        let bottom = Position(column: 5, row: context.size.height - 1)
        #expect(sheet.update(.drag(.sheetGrabber, bottom), context) == [])
        #expect(sheet.layer.dragTop == context.size.height - 1)
        #expect(sheet.update(.dragEnded(.sheetGrabber, bottom), context) == [.dismiss])
    }

    @Test("The account sheet under a PerchKit root alone: typed keys and pastes go to its filter, and it asks for the switch")
    func sheetUnderPerchKit() {
        let context = Self.context()
        var sheet = AccountSheet()
        _ = sheet.advance(context.kit)
        #expect(sheet.update(.key(.char("x")), Context(size: context.size)).isEmpty, "without Perch's model it does nothing")
        #expect(sheet.update(.key(.char("x")), context.kit).isEmpty && sheet.filter == nil, "a key the sheet does not bind means nothing")
        _ = sheet.update(.verb(.startFilter), context.kit)
        _ = sheet.update(.key(KeyEvent(.character("S"), modifiers: .shift)), context.kit)
        _ = sheet.update(.paste("id\ne"), context.kit)
        #expect(sheet.filter == "Side", "the line break left out")
        #expect(sheet.keys.title == AccountSheet.filterKeyTable.title)
        let picked = sheet.update(.verb(.pick), context.kit).map(\.request)
        guard picked.count == 1, case .send(let intent as PerchModel.Message) = picked[0] else {
            Issue.record("\(picked)")
            return
        }
        #expect(intent == .pick(accountIndex: 3))
    }

    // MARK: Help

    @Test("The help overlay alone: ↓ scrolls a line and the footer counts from 2, ↑ and the wheel scroll back, never above the top")
    func helpScrolls() throws {
        let context = Self.context()
        var help = Alone(ModelRenderTests.overviewHelp)
        #expect(help.key(KeyEvent(.down), context) == [])
        #expect(help.layer.scroll == 1)
        let drawn = ModelRenderTests.lines(help, context)
        // A text too long for the 40-column box goes on over more lines (25 lines in all).
        #expect(drawn[10] == " ╰─ 2–9 of 25 · Esc close ────────────────╯")
        #expect(drawn[2] == " │                     account's tools    │")
        #expect(drawn[3] == " │                     again              │")
        #expect(help.update(.scroll(.layerChrome, notches: -1), context) == [])
        #expect(help.layer.scroll == 0)
        #expect(help.key(.char("k"), context) == [])
        #expect(help.layer.scroll == 0)
        for _ in 0..<25 { _ = help.key(KeyEvent(.down), context) }
        #expect(help.layer.scroll == 25 - 8)
        #expect(help.key(.char("z"), context) == [], "a verb not of help's table does nothing")
        #expect(help.key(KeyEvent(.escape), context) == [.dismiss])
        #expect(help.layer.scroll == 17)
    }

    // MARK: Context menu

    @Test("A context menu alone: the focus starts on Open, ↓ and Enter pin the item, ↑ to the preview and Enter open it")
    func contextMenuKeys() throws {
        let context = Self.context()
        let id = ModelRenderTests.firstItem.id
        // As Perch's root holds it: a PerchKit layer of Perch's own, its keys as Perch's context binds them.
        var menu = Alone(ContextMenu(itemID: id))
        #expect(menu.layer.focusedAction == .open)
        #expect(menu.key(KeyEvent(.enter), context) == [.dismiss, .reply(AnyOutcome(ContextMenuChoice.open(id: id)))])
        #expect(menu.key(.char("j"), context) == [])
        #expect(menu.layer.cursor == 2)
        #expect(menu.key(KeyEvent(.enter), context) == [.dismiss, .reply(AnyOutcome(ContextMenuChoice.togglePin(id: id)))])
        for _ in 0..<3 { #expect(menu.key(KeyEvent(.up), context) == []) }
        #expect(menu.layer.cursor == 0)
        #expect(menu.layer.focusedAction == nil)
        #expect(menu.key(KeyEvent(.enter), context) == [.dismiss, .reply(AnyOutcome(ContextMenuChoice.open(id: id)))])
        for _ in 0..<6 { _ = menu.update(.scroll(.layerChrome, notches: 1), context) }
        #expect(menu.layer.focusedAction == .delete)
        #expect(menu.key(KeyEvent(.escape), context) == [.dismiss])
        #expect(menu.key(.char("z"), context) == [], "a verb not of the menu's table does nothing")
    }

    @Test("A context menu alone: a tap on Copy id copies it, on Delete… presents the alert, on the preview opens the item")
    func contextMenuTaps() {
        let context = Self.context()
        let item = ModelRenderTests.firstItem
        var menu = Alone(ContextMenu(itemID: item.id))
        #expect(
            menu.update(.tap(.contextAction(2)), context) == [
                .dismiss, .banner("Copied \(item.id) (OSC 52, where the terminal allows it)."), .effect(.copyToClipboard(item.id)),
            ])
        let alert = AlertAction.deleteItem(id: item.id).alert(
            title: "Delete “Swift Compass”?", message: "It leaves Personal’s Catalog for this session.", confirmTitle: "Delete")
        #expect(menu.update(.tap(.contextAction(3)), context) == [.present(AnyHashable(alert))])
        // A tap moves the focus to what it picked, as PerchKit's menu does: Delete's alert stands
        // over the menu with Delete focused, where Cancel leaves it.
        #expect(menu.layer.cursor == 4)
        #expect(menu.update(.tap(.contextPreview), context) == [.dismiss, .reply(AnyOutcome(ContextMenuChoice.open(id: item.id)))])
        #expect(menu.layer.cursor == 0)
        #expect(ContextMenu(itemID: "gone").perform(.pin, context).isEmpty)
    }

    @Test("Layers alone say when they go: a menu once its item is gone; a sheet slides away, or goes at once with motion reduced")
    func layersSayWhenTheyGo() {
        var context = Self.context()
        var menu = Alone(ContextMenu(itemID: ModelRenderTests.firstItem.id))
        let stays = menu.advance(context)
        #expect(stays, "its item is there")
        var gone = Alone(ContextMenu(itemID: "no such item"))
        let goneStays = gone.advance(context)
        #expect(!goneStays)
        var sheet = AccountSheet()
        let slides = sheet.beginDismissal(context.kit)
        #expect(!slides, "reduced motion: removed at once")
        context.reduceMotion = false
        let slidesNow = sheet.beginDismissal(context.kit)
        #expect(slidesNow && sheet.isClosing && !sheet.isActive, "slides away, taking no input")
        #expect(!AlertAction.deleteItem(id: "x").alert(title: "t", message: "m", confirmTitle: "OK").isAnimating)
    }

    @Test("A context menu alone: its alert's confirmation makes it go and hand the confirmation on to its presenter; Cancel keeps it")
    func contextMenuForwardsItsAlert() {
        let context = Self.context()
        let id = ModelRenderTests.firstItem.id
        var menu = Alone(ContextMenu(itemID: id))
        #expect(menu.take(AnyOutcome(AlertAction.confirmButton), context) == [], "nothing presented yet: a reply is not its")
        _ = menu.update(.tap(.contextAction(3)), context)
        #expect(menu.take(AnyOutcome(0), context) == [], "Cancel: the menu stays")
        #expect(
            menu.take(AnyOutcome(AlertAction.confirmButton), context) == [
                .dismiss, .reply(AnyOutcome(ContextMenuChoice.confirmed(.deleteItem(id: id)))),
            ])
        #expect(menu.take(AnyOutcome(SettingsNotSaved("x")), context) == [], "other outcomes are not its")
    }

    @Test("Catalog alone: its menu's replies pin, open and delete; its alert's config removal is asked for as its own job")
    func catalogTakesItsLayersReplies() {
        let context = Self.context()
        var pane = Alone(context.catalogPane)
        let item = pane.pane.items[3]
        #expect(pane.deliver(.menu(.togglePin(id: item.id)), context) == [.keepPaneMemory])
        #expect(pane.pane.isPinned(item.id) && pane.pane.items.first == item, "pinned to the top")
        #expect(
            pane.deliver(.menu(.open(id: item.id)), context) == [.present(AnyHashable(Cover.item(item, scroll: 0)))])
        #expect(pane.deliver(.menu(.confirmed(.deleteItem(id: item.id))), context) == [])
        #expect(pane.pane.item(item.id) == nil, "deleted for the session")
        #expect(
            pane.deliver(.menu(.confirmed(.deleteFromConfig(accountID: "work", path: ["handle"]))), context) == [
                .effect(.perform(DeleteFromConfig(accountID: "work", path: ["handle"])))
            ])
    }

    @Test("Catalog alone: a long-press on a row puts the cursor on it and opens its context menu")
    func catalogLongPress() {
        let context = Self.context()
        var pane = Alone(context.catalogPane)
        #expect(pane.update(.longPress(.catalogRow(4)), context) == [.present(AnyHashable(ContextMenu(itemID: pane.pane.items[4].id)))])
        #expect(pane.pane.list.cursor == 4)
    }

    // MARK: Alert

    @Test("An alert alone: Enter on Cancel replies Cancel's index; → then Enter replies the confirmation's; the focus wraps round")
    func alertConfirms() throws {
        let context = Self.context()
        var alert = Alone(AlertAction.deleteItem(id: "personal-1").alert(title: "Delete?", message: "It goes.", confirmTitle: "Delete"))
        let press = KeyEvent(.enter)
        let next = KeyEvent.char("l")
        let previous = KeyEvent(.left)
        #expect(alert.key(press, context) == [.reply(AnyOutcome(0)), .dismiss], "Cancel")
        #expect(alert.key(next, context) == [])
        #expect(alert.layer.focus == 1)
        #expect(alert.key(press, context) == [.reply(AnyOutcome(AlertAction.confirmButton)), .dismiss])
        #expect(alert.key(next, context) == [])
        #expect(alert.layer.focus == 0, "past the last button, the first")
        #expect(alert.key(previous, context) == [])
        #expect(alert.layer.focus == 1)
        #expect(alert.key(.char("z"), context) == [], "a verb not of the alert's table does nothing")
        #expect(alert.layer.focus == 1)
        #expect(
            alert.key(KeyEvent(.escape), context) == [
                .reply(AnyOutcome(0)), .dismiss,
            ],
            "Esc presses Cancel")
    }

    @Test("An alert alone: a tap on a button replies its index to its presenter and dismisses; a tap on its text does nothing")
    func alertTaps() {
        let context = Self.context()
        var alert = Alone(
            AlertAction.deleteFromConfig(accountID: "work", path: ["handle"]).alert(
                title: "Remove?", message: "It leaves the config.", confirmTitle: "Remove"))
        #expect(
            alert.update(.tap(.alertButton(1)), context) == [
                .reply(AnyOutcome(AlertAction.confirmButton)), .dismiss,
            ])
        #expect(alert.update(.tap(.alertButton(0)), context) == [.reply(AnyOutcome(0)), .dismiss])
        #expect(alert.update(.tap(.layerChrome), context) == [])
        #expect(alert.layer.focus == 0)
    }

    // MARK: Cover

    @Test(
        "A cover alone: ↓ scrolls a long preview one line, End to its last screenful, the wheel back; ✕ dismisses it; a asks for the sheet")
    func coverScrolls() throws {
        var context = Self.context()
        let item = CatalogItem(id: "note-7", title: "Long note", detail: "", kind: "")
        let text = (1...20).map { "line \($0)" }.joined(separator: "\n")
        context.catalogPane.previewed(.text(text), itemID: item.id, accountID: "personal")
        // As Perch's root holds it: PerchKit's layer, its keys as Perch's context binds them.
        var cover = Alone(Cover.item(item, scroll: 0))
        // Title, id, a blank line, then 20 lines of preview; 8 rows show at a time.
        let last = 23 - CoverLayer.textRows(height: context.size.height)
        #expect(cover.key(.char("j"), context) == [])
        #expect(cover.layer == .item(item, scroll: 1))
        #expect(ModelRenderTests.lines(cover, context)[3] == "  note-7")
        #expect(cover.key(KeyEvent(.end), context) == [])
        #expect(cover.layer == .item(item, scroll: last))
        #expect(ModelRenderTests.lines(cover, context)[3] == "  line \(last - 2)")
        #expect(cover.key(KeyEvent(.down), context) == [])
        #expect(cover.layer == .item(item, scroll: last))
        #expect(cover.update(.scroll(.coverBody, notches: -1), context) == [])
        #expect(cover.layer == .item(item, scroll: last - ListMove.rowsPerScrollNotch))
        #expect(cover.key(KeyEvent(.pageUp), context) == [])
        #expect(
            cover.layer
                == .item(
                    item, scroll: last - ListMove.rowsPerScrollNotch - ListMove.pageStep(CoverLayer.textRows(height: context.size.height))))
        #expect(cover.key(.char("a"), context) == [.openSheet], "the sheet over the cover, from Perch's root")
        #expect(cover.key(KeyEvent(.escape), context) == [.dismiss])
        #expect(cover.update(.tap(.coverClose), context) == [.dismiss])
        #expect(cover.update(.tap(.coverBody), context) == [])
        #expect(Cover.keyTable.verb(for: .char("?")) == nil, "? is the root's: help over it")
    }

    // MARK: Add account form

    /// The form as Perch's root holds it: a PerchKit layer of Perch's own, its keys as Perch's
    /// context binds them.
    static func form() -> Alone<AccountForm> { Alone(AccountForm()) }

    @Test("The form alone: text goes into the focused field, Tab moves on, Enter asks for the account to be added")
    func formSubmits() throws {
        let context = Self.context()
        var form = Self.form()
        #expect(form.update(.paste("lab"), context) == [])
        #expect(form.key(KeyEvent(.backspace), context) == [])
        #expect(form.update(.paste("ab\n"), context) == [])
        #expect(form.layer.value(.id) == "laab")
        #expect(form.key(KeyEvent(.tab), context) == [])
        #expect(form.layer.focus == .name)
        #expect(form.update(.paste("Lab"), context) == [])
        #expect(form.update(.tap(.formField(.group)), context) == [])
        #expect(form.layer.focus == .group)
        #expect(form.update(.paste("Science"), context) == [])
        #expect(ModelRenderTests.lines(form, context)[8] == " ▸ Group   [Science▏                      ]")
        #expect(
            form.key(KeyEvent(.enter), context) == [
                .effect(.perform(AddAccount(Account(id: "laab", name: "Lab", group: "Science"))))
            ])
        #expect(form.layer.problems == [:])
        #expect(AccountForm.keyTable.takesTyping, "typed and pasted text go into the focused field")
        #expect(AccountForm.keyTable.verb(for: KeyEvent(.function(1))) == nil, "F1 is the root's: help where you type")
        #expect(AccountForm.keyTable.typesText(.char("?")), "? is text in a field")
    }

    @Test("The form alone, as PerchKit's root sends keys: a printable key (with Shift too) types; Ctrl with a key does not")
    func formTakesKeys() {
        let kit = Self.context().kit
        var form = AccountForm()
        _ = form.update(.key(KeyEvent(.character("A"), modifiers: .shift)), kit)
        _ = form.update(.key(.char("q")), kit)
        _ = form.update(.key(KeyEvent(.character("x"), modifiers: .control)), kit)
        #expect(form.value(.id) == "Aq")
    }

    // Bug: a click on the form's Cancel button did nothing; the case for a tap on any part of the
    // form (meant for its fields) came before the one for Cancel and swallowed it.
    @Test("The form alone: a tap on Cancel or on ✕ dismisses it and keeps what was typed; a tap on a field only focuses it")
    func formCancels() throws {
        let context = Self.context()
        var form = Self.form()
        _ = form.update(.paste("lab"), context)
        #expect(form.update(.tap(.formButton(.cancel)), context) == [.dismiss])
        #expect(form.update(.tap(.coverClose), context) == [.dismiss])
        #expect(form.key(KeyEvent(.escape), context) == [.dismiss])
        #expect(form.update(.tap(.formField(.handle)), context) == [])
        #expect(form.layer.focus == .handle)
        #expect(form.layer.value(.id) == "lab")
    }

    @Test("The form alone: a submit with problems asks for nothing, shows them and focuses the first field with one")
    func formRefuses() throws {
        let context = Self.context()
        var form = Alone(AccountForm())
        _ = form.update(.tap(.formField(.group)), context)
        #expect(form.update(.tap(.formButton(.add)), context) == [])
        #expect(form.layer.problems == [.id: .empty, .name: .empty])
        #expect(form.layer.focus == .id)
        #expect(form.update(.paste("personal"), context) == [])
        #expect(form.layer.problems == [.name: .empty])
        #expect(form.key(KeyEvent(.down), context) == [])
        #expect(form.update(.paste("Again"), context) == [])
        #expect(form.key(KeyEvent(.enter), context) == [])
        #expect(form.layer.problems == [.id: .duplicateID("personal")])
        #expect(form.layer.focus == .id)
    }

    @Test("The form alone: a written config closes it and shows the new account; a failed write keeps it up with the reason")
    func formTakesOutcomes() throws {
        let context = Self.context()
        var form = Self.form()
        let addition = AnyOutcome(AccountAddition.notAdded("/c.json is read-only"))
        #expect(form.take(addition, context) == [], "not asked for yet: not its")
        _ = form.update(.paste("lab"), context)
        _ = form.key(KeyEvent(.tab), context)
        _ = form.update(.paste("Lab"), context)
        #expect(
            form.key(KeyEvent(.enter), context) == [.effect(.perform(AddAccount(Account(id: "lab", name: "Lab"))))])
        #expect(form.take(addition, context) == [])
        #expect(form.layer.writeError == "/c.json is read-only")
        #expect(form.layer.value(.id) == "lab")
        #expect(ModelRenderTests.lines(form, context).last == " /c.json is read-only")
        let lab = Account(id: "lab", name: "Lab")
        let accounts = Account.samples + [lab]
        #expect(
            form.take(AnyOutcome(AccountAddition.added(lab, accounts: accounts, configPath: "/c.json", backupPath: "/c.json.bak")), context)
                == [
                    .replaceAccounts(accounts, configPath: "/c.json"), .dismiss, .revealAccount(id: "lab"),
                    .banner("Added Lab to /c.json (previous file kept as /c.json.bak)."),
                ])
        #expect(form.take(AnyOutcome(SettingsNotSaved("x")), context) == [])
    }
}
