import PerchDomain
import PerchKit

/// Perch's app model (PerchKit's ``AppModel``): the state every pane and layer shares and none
/// changes itself — the accounts, the confirmed state, the switch under way, the history, the
/// tool identities, the settings and what the run is. PerchKit's ``TabApp`` is the root: it keeps
/// this model beside the panes and the stack of layers, routes input, and hands the model what a
/// component sends it (``Message``) and the outcomes of the jobs the model asked for. A
/// component reads it through ``ModelContext`` (`context.perch`).
public struct PerchModel: AppModel {
    /// The accounts and what is derived from them.
    public internal(set) var accountsIndex: AccountsIndex
    /// Current account and switch counts, as last confirmed by the store.
    public internal(set) var saved: SavedState {
        didSet {
            if saved.currentAccount != oldValue.currentAccount { currentIndex = accountsIndex.index(of: saved.currentAccount) }
        }
    }
    /// Index in ``accounts`` of the current account, kept with ``saved`` so that neither a frame
    /// nor opening the sheet searches the accounts (100,000 of them took 1 ms per search).
    public internal(set) var currentIndex: Int?
    /// What the Settings pane shows about this run.
    public internal(set) var info: RunInfo
    /// The kept settings in effect, where each comes from, and the settings file's contents.
    public internal(set) var settingsState: SettingsState
    /// A switch handed to the store and not confirmed yet; Overview shows it as pending.
    public internal(set) var pendingSwitch: PendingSwitch?
    /// The switches, for Stats.
    public internal(set) var history: SwitchHistory
    /// The wall clock as last read by the loop (``Message/wallTime(_:)``); nil before.
    public internal(set) var wallTime: WallTime?
    /// The pane state last handed to the store (``SavePanes``), so that an unchanged one is not
    /// written again.
    var savedPanes: [String: AccountPanes]
    /// The current account's tool identities as last applied and checked; Overview shows them.
    public internal(set) var identities: IdentityStatus?
    /// The config's problems, one line each, when the config read after the first frame could
    /// not be used: the interface then ends, and the caller reports them as a start with that
    /// config always did (exit status 2). Nil otherwise.
    public internal(set) var unusableConfig: [String]?
    /// How many times the config was read again in this run: a pane whose lists come from the
    /// accounts' commands runs them again when it sees this change (the Catalog).
    public internal(set) var configReads = 0
    /// How many times the state was set aside in this run (the first config written over the
    /// sample accounts): a pane that keeps each account's view forgets it when this changes.
    public internal(set) var freshStarts = 0

    /// - Parameters:
    ///   - reduceMotion: true (the default, for callers without a clock) draws every change at
    ///     once; the interface passes false unless `--reduce-motion` is given.
    ///   - loading: the config is still being read: `accounts` holds only the current account as
    ///     the cache keeps it (or nothing), the sheet offers no account, and the accounts arrive
    ///     with ``ConfigRead/loaded(accounts:)`` after the first frame (``started(_:)``).
    public init(
        accounts: [Account], saved: SavedState = SavedState(), info: RunInfo = RunInfo(), reduceMotion: Bool = true,
        history: SwitchHistory = SwitchHistory(), wallTime: WallTime? = nil, settings: SettingsState? = nil, loading: Bool = false
    ) {
        self.accountsIndex = loading ? AccountsIndex(loadingWith: accounts.first) : AccountsIndex(accounts)
        var initialSettings = settings ?? SettingsState()
        if settings == nil {
            initialSettings.values.reduceMotion = reduceMotion
            initialSettings.values.longPressMilliseconds = info.longPressMilliseconds
        }
        self.settingsState = initialSettings
        self.saved = saved
        self.info = info
        self.currentIndex = accountsIndex.index(of: saved.currentAccount)
        if currentIndex == nil, !loading { self.saved.currentAccount = nil }
        self.history = history
        self.wallTime = wallTime
        // Only accounts still in the config: a removed account's pane state is not kept on
        // (while the config is read, every account's is kept: which are still there is not known).
        let index = accountsIndex
        savedPanes = (saved.panes ?? [:]).filter { loading || index.index(of: $0.key) != nil }
    }

    // MARK: Reading

    /// The accounts, in config order.
    public var accounts: [Account] { accountsIndex.accounts }
    /// The current account, or nil before the first switch.
    public var currentAccount: Account? { currentIndex.map { accounts[$0] } }
    /// Whether animations are off (`--reduce-motion`, or the Settings switch).
    public var reduceMotion: Bool { settingsState.values.reduceMotion }
    /// Edge-to-edge or inset sheets (a Settings switch).
    public var sheetStyle: SheetStyle { SheetStyle(settingsState.values.sheetStyle) }
    /// The display name of the account with this id, or the id in quotes when the config lacks it.
    public func displayName(of id: String) -> String { accounts.first { $0.id == id }?.name ?? "\"\(id)\"" }

    /// What a component reads of the model while it updates or draws, for the screen and clock
    /// of `kit` (the Catalog read from its pane).
    public func view(_ kit: Context) -> ModelContext {
        ModelContext(
            accounts: accountsIndex, saved: saved, currentIndex: currentIndex, pendingSwitch: pendingSwitch, size: kit.size,
            clock: kit.clock, info: info, reduceMotion: kit.reduceMotion || reduceMotion, sheetStyle: sheetStyle,
            settings: settingsState, catalog: kit.pane((any CatalogListing).self) ?? EmptyCatalogListing(), history: history,
            wallTime: wallTime, identities: identities?.accountID == saved.currentAccount ? identities : nil, configReads: configReads,
            freshStarts: freshStarts)
    }

    /// Whether the Settings switch turns animations off.
    public var reducesMotion: Bool { settingsState.values.reduceMotion }

    // MARK: Messages

    /// What the panes and layers send the model (``Reaction/send(_:)``), and the outcomes of the
    /// jobs it asked for and the loop's own news (the state file changed, the wall clock).
    public enum Message: Hashable, Sendable {
        /// Switch to the account at this index: the sheet goes, Overview shows, and the store is
        /// asked (``PerchModel/requestSwitch(to:)``).
        case pick(accountIndex: Int)
        /// Open the account sheet.
        case openSheet
        /// The account sheet's filter opened: build the accounts' search text now
        /// (``AccountsIndex/prepareSearch()``), so that the first key typed into it is quick.
        case prepareSearch
        /// Apply the current account's tool identities again (Overview's `r`).
        case reapplyIdentities
        /// Ask each tool of the current account (and each server, with the setting on) who it
        /// will be (Overview's `v`).
        case verifyIdentities
        /// What the panes look like changed in a way worth keeping at once (a pin): handed to the
        /// store (``SavePanes``) when it differs from what was kept.
        case keepPaneMemory
        /// The config was written: these accounts replace those in use, and `configPath` is the
        /// file now in use.
        case replaceAccounts([Account], configPath: String)
        /// Show the account with this id in the account sheet, opening it when it is not up.
        case revealAccount(id: String)
        /// Change a kept setting by one step (-1 for `←`, +1 for `→` or `Enter`); it applies at
        /// once. Settings, which asks it, writes the settings file itself (``SaveSettings``).
        case changeSetting(SettingKey, step: Int)
        /// The state was set aside (the first config written over the sample accounts): no
        /// account is current, no switch is pending, the history is empty, and the panes forget
        /// each account's view.
        case startAfresh
        /// The settings file could not be written with these settings' new values: Settings
        /// shows them as not saved (``SettingSource/unsaved``).
        case settingsNotSaved(Set<SettingKey>)
        /// A step of the switch the model asked the store for (``RecordSwitch``).
        case switchProgress(SwitchProgress)
        /// Tool identities applied (``ApplyIdentities``).
        case identitiesApplied(IdentitiesApplied)
        /// What each tool reported (``CheckIdentities``).
        case identitiesChecked(IdentitiesChecked)
        /// What each tool answered (``VerifyIdentities``).
        case identitiesVerified(IdentitiesVerified)
        /// An `onSwitch` hook ended (``RunHook``).
        case hookEnded(HookEnded)
        /// The config read after the first frame, or again after it changed (``LoadConfig``).
        case configRead(ConfigRead)
        /// Another process changed the state file.
        case stateChanged(StateChanged)
        /// The history log as it is now.
        case historyChanged(HistoryChanged)
        /// The wall clock, read at start and each minute while Stats shows.
        case wallTime(WallTime)
        /// An outcome that wrote the config, for a layer dismissed before it came back: its
        /// accounts are adopted all the same.
        case configWritten([Account], configPath: String)
    }

    /// The model's own keys, on every pane while no layer is up: `a` opens the account sheet.
    public enum Verb: Hashable, Sendable {
        /// Open the account sheet (`a`).
        case openSheet
    }

    /// `a` switches account from any pane (help lists it between the pane's keys and the root's).
    public var keys: KeyTable<Verb> {
        KeyTable("Accounts", [.init([.char("a")], "a", "switch account", .openSheet)])
    }

    /// One of its keys was pressed over a pane: `a` opens the account sheet.
    public mutating func perform(_ verb: Verb, _ context: Context) -> [Reaction<Message>] {
        switch verb {
        case .openSheet: openSheet(context)
        }
    }

    /// Takes what a component sent, an outcome of its own jobs, or the loop's news; returns what
    /// the root must do besides (a banner, a layer, a job, a tab, the quit).
    public mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .pick(let index): return pick(index, context)
        case .openSheet: return openSheet(context)
        case .prepareSearch:
            accountsIndex.prepareSearch()
            return []
        case .reapplyIdentities: return refreshIdentities(apply: true)
        case .verifyIdentities: return verifyIdentities()
        case .keepPaneMemory: return panesToSave(context)
        case .replaceAccounts(let accounts, let path), .configWritten(let accounts, let path):
            adoptAccounts(accounts, configPath: path)
            return []
        case .revealAccount(let id): return revealAccount(id, context)
        case .changeSetting(let key, let step): return changeSetting(key, step: step)
        case .startAfresh:
            startAfresh()
            return []
        case .settingsNotSaved(let keys):
            settingsState.markUnsaved(keys)
            return []
        case .switchProgress(let progress): return takeSwitchProgress(progress, context)
        case .identitiesApplied(let applied): return takeIdentitiesApplied(applied)
        case .identitiesChecked(let checked):
            guard saved.currentAccount == checked.accountID else { return [] }
            if identities?.accountID != checked.accountID { identities = IdentityStatus(accountID: checked.accountID) }
            identities?.checks = checked.checks
            return []
        case .identitiesVerified(let verified):
            guard saved.currentAccount == verified.accountID else { return [] }
            if identities?.accountID != verified.accountID { identities = IdentityStatus(accountID: verified.accountID) }
            identities?.answers = verified.answers
            identities?.verifying = false
            return []
        case .hookEnded(let hook):
            guard let failure = hook.failure else { return [] }
            return [.banner("onSwitch hook for \(displayName(of: hook.accountID)) \(failure)")]
        case .configRead(let read):
            switch read {
            case .loaded(let newAccounts): return takeLoadedAccounts(newAccounts, context)
            case .unusable(let lines):
                unusableConfig = lines
                return [.quit]
            case .changedUnusable(let lines):
                // Bug: `perch set` and `perch add` made elsewhere were not seen until a restart;
                // a config that no longer loads keeps the accounts as they were, and says so.
                return [
                    .banner(
                        "The config changed and does not load now (\(lines.first ?? "")); the accounts stay as they were: perch config edit"
                    )
                ]
            }
        case .stateChanged(let changed): return takeStateChanged(changed)
        case .historyChanged(let changed):
            // Switches this window made keep their mark.
            let mine = Set(history.events.filter(\.here).map { "\($0.account)@\($0.time)" })
            history = SwitchHistory(
                events: changed.history.events.map { event in
                    var event = event
                    event.here = mine.contains("\(event.account)@\(event.time)")
                    return event
                })
            return []
        case .wallTime(let time):
            wallTime = time
            return []
        }
    }

    /// An outcome that wrote the config (an account added, the config edited) for a layer that
    /// was dismissed before it came back: the accounts it left are adopted all the same.
    public mutating func unclaimed(_ message: any Sendable, _ context: Context) -> [Reaction<Message>] {
        guard let written = (message as? any WritesConfig)?.writtenAccounts else { return [] }
        return receive(.configWritten(written.accounts, configPath: written.configPath), context)
    }

    /// The first frame is on the screen: the terminal is asked its background colour (OSC 11),
    /// then the kitty keyboard protocol's flags under `--key-hold auto` (else the device
    /// attributes alone, whose answer ends the wait for a terminal that does not answer OSC 11);
    /// the whole config is read when the first frame came from the current-account cache
    /// (``AccountsIndex/isLoading``); and what the current account's tools report is read
    /// (Overview shows drift).
    public mutating func started(_ context: Context) -> [Reaction<Message>] {
        var reactions: [Reaction<Message>] = startupQueries.map { .terminal(.ask($0)) }
        if accountsIndex.isLoading { reactions.append(.perform(LoadConfig()) { .configRead($0) }) }
        return reactions + identityCheck
    }

    /// What the terminal is asked once the first frame is drawn (never before it).
    public var startupQueries: [TerminalQuery] {
        [.backgroundColor, info.keyHoldPreference == .auto ? .keyboardProtocol : .deviceAttributes]
    }

    /// Back from another window, where a tool may have been switched by hand: drift shows without
    /// pressing `r`.
    public mutating func focusChanged(to focused: Bool, _ context: Context) -> [Reaction<Message>] {
        focused ? refreshIdentities(apply: false) : []
    }

    /// The kitty keyboard protocol's flags arrived (at start or late): under `--key-hold auto`
    /// release events are turned on now, once. The background colour arrived: colours are
    /// chosen for it from the next frame (``RunInfo/background``). Other replies change nothing.
    public mutating func terminalReplied(_ reply: TerminalReply, _ context: Context) -> [Reaction<Message>] {
        if case .backgroundColor(let rgb) = reply {
            info.background = TerminalBackground(rgb)
            return []
        }
        guard case .keyboardFlags = reply, info.keyHoldPreference == .auto, info.keyHold != .releaseEvents else { return [] }
        info.keyHold = .releaseEvents
        return [.terminal(.pushKeyboardFlags(KeyHoldPreference.keyboardFlags))]
    }

    /// The theme's colours for the terminal's background, applied to the whole frame.
    public func finish(_ frame: inout Frame, _ context: Context) {
        let theme = settingsState.values.theme
        frame.styles = theme.styleMap(on: theme.background(reported: info.background))
    }

    /// `base` with the long-press duration from Settings and the key-hold mode in effect.
    public func gestures(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        configuration.longPressMilliseconds = settingsState.values.longPressMilliseconds
        configuration.keyHoldMode = info.keyHold
        return configuration
    }

    /// What each account's panes looked like is kept for the next run before the run ends.
    public mutating func willQuit(_ context: Context) -> [Reaction<Message>] { panesToSave(context) }

    // MARK: Accounts and saved state

    /// Asks for the current account's identities to be applied again (`r` in Overview), or for
    /// them to be read (`apply` false); applying with no current account, or one without
    /// identities, a banner says so.
    mutating func refreshIdentities(apply: Bool) -> [Reaction<Message>] {
        guard apply else { return identityCheck }
        // Bug: `r` said nothing when there was nothing to apply.
        guard let account = currentAccount else { return [.banner(ModelContext.noAccountYet)] }
        guard !account.identities.isEmpty else {
            return [.banner("\(account.name) has no tool identities to apply: its config gives none (git, ssh, kube, …).")]
        }
        identities = IdentityStatus(accountID: account.id, report: nil, checks: identities?.checks, applying: true)
        return [.perform(ApplyIdentities(accountID: account.id, previous: nil, afterSwitch: false)) { .identitiesApplied($0) }]
    }

    /// Asks each tool of the current account who it will be (and each server, with the setting
    /// on); with no current account, or one without identities, a banner says so; nothing while
    /// one is asked.
    mutating func verifyIdentities() -> [Reaction<Message>] {
        // Bug: `v` said nothing with no account, or for an account without tools.
        guard let account = currentAccount else { return [.banner(ModelContext.noAccountYet)] }
        guard !account.identities.settings.isEmpty else {
            return [.banner("\(account.name) has no tool to ask: its config gives no tool identities (git, ssh, kube, …).")]
        }
        guard identities?.verifying != true else { return [] }
        if identities?.accountID != account.id { identities = IdentityStatus(accountID: account.id) }
        identities?.verifying = true
        identities?.verifyingOnline = settingsState.values.checkWithServers
        identities?.answers = nil
        let online = settingsState.values.checkWithServers
        return [.perform(VerifyIdentities(accountID: account.id, online: online)) { .identitiesVerified($0) }]
    }

    /// Reading what the current account's tools report now; nothing without a current account
    /// with identities.
    var identityCheck: [Reaction<Message>] {
        guard let account = currentAccount, !account.identities.isEmpty else { return [] }
        return [.perform(CheckIdentities(accountID: account.id)) { .identitiesChecked($0) }]
    }

    /// Adopts a saved state from the store (it wins over what this process believed).
    mutating func adopt(_ newSaved: SavedState) {
        saved = newSaved
        // While the config is read, an account not known yet is looked for again when it arrives.
        if currentIndex == nil, !accountsIndex.isLoading { saved.currentAccount = nil }
    }

    /// Replaces the accounts (the config was written again): the current account is found anew
    /// by id; the panes' lists follow (``configReads``).
    mutating func replaceAccounts(_ newAccounts: [Account]) {
        accountsIndex = AccountsIndex(newAccounts)
        currentIndex = accountsIndex.index(of: saved.currentAccount)
        configReads += 1
    }

    /// The config was written: `newAccounts` replace those in use, `configPath` is the file now
    /// in use (no longer the sample accounts), and a current account no longer in it is dropped.
    mutating func adoptAccounts(_ newAccounts: [Account], configPath: String) {
        replaceAccounts(newAccounts)
        info.configDescription = configPath
        info.usesSampleAccounts = false
        if currentIndex == nil, saved.currentAccount != nil { saved.currentAccount = nil }
    }

    /// The state was set aside: no account is current, nothing is pending, the history, what
    /// the tools were last seen to use and what the panes kept of each account are gone.
    mutating func startAfresh() {
        saved = SavedState()
        pendingSwitch = nil
        history = SwitchHistory()
        identities = nil
        savedPanes = [:]
        freshStarts += 1
    }

    /// The whole config arrived after a first frame drawn from the cache: the sheet, the filter
    /// and the Catalog get every account. A current account the config no longer has is dropped,
    /// as a start with that config drops it; the tools are read again only when the current
    /// account changed.
    mutating func takeLoadedAccounts(_ newAccounts: [Account], _ context: Context) -> [Reaction<Message>] {
        let before = currentAccount
        accountsIndex = AccountsIndex(newAccounts)
        currentIndex = accountsIndex.index(of: saved.currentAccount)
        var reactions: [Reaction<Message>] = []
        if currentIndex == nil, let id = saved.currentAccount {
            saved.currentAccount = nil
            reactions.append(.banner("State names account \"\(id)\", which is not in the config; read as no current account."))
        }
        // Pane state of accounts no longer in the config is not kept on.
        let index = accountsIndex
        savedPanes = savedPanes.filter { index.index(of: $0.key) != nil }
        if currentAccount != before {
            configReads += 1
            identities = nil
            reactions += identityCheck
        }
        // A sheet opened meanwhile shows the accounts now, its filter applied, on the current one.
        return reactions + [.tellPresented(AccountSheet.self, .accountsArrived)]
    }

    /// Another process changed the state file: its state is adopted, and the tools read again
    /// when the account changed.
    mutating func takeStateChanged(_ changed: StateChanged) -> [Reaction<Message>] {
        let (newSaved, warning) = (changed.saved, changed.warning)
        let before = saved
        adopt(newSaved)
        // The other process applied the identities: read what the tools say now.
        var reactions = saved.currentAccount != before.currentAccount ? refreshIdentities(apply: false) : []
        if let warning {
            reactions.append(.banner(warning))
        } else if let id = newSaved.currentAccount, id != before.currentAccount {
            // Bug: "switched in another Perch" for a switch made with `perch switch`.
            reactions.append(
                .banner(
                    currentAccount.map { "Now on \($0.name): switched outside this window." }
                        ?? "Now on \"\(id)\", switched outside this window; it is not in this one's config (restart Perch to load it)."))
        } else if newSaved.currentAccount == nil, before.currentAccount != nil {
            reactions.append(.banner("No account is current now: changed outside this window."))
        }
        return reactions
    }

    /// Changes a kept setting by one step: it applies at once. Settings, which asked, writes
    /// the settings file itself.
    mutating func changeSetting(_ key: SettingKey, step: Int) -> [Reaction<Message>] {
        settingsState.change(key, step: step)
        if key == .longPress { info.longPressMilliseconds = settingsState.values.longPressMilliseconds }
        return key == .mouse ? [.terminal(.setMouse(settingsState.values.mouse))] : []
    }

    // MARK: Pane memory

    /// What to keep of each account's panes for the next run (``SavedState/panes``), read from
    /// the panes that keep some (``PerchPane``).
    static func paneMemory(_ context: Context) -> [String: AccountPanes] {
        var result: [String: AccountPanes] = [:]
        for pane in context.panes((any PerchPane).self) { pane.remember(into: &result) }
        return result
    }

    /// ``SavePanes`` when the panes' memory changed since last saved.
    mutating func panesToSave(_ context: Context) -> [Reaction<Message>] {
        let memory = Self.paneMemory(context)
        guard memory != savedPanes else { return [] }
        savedPanes = memory
        return [.perform(SavePanes(memory)) { _ in .keepPaneMemory }]
    }

    // MARK: The sheet and switching

    /// Opens the account sheet with its cursor on the current account, at the fit detent; on a
    /// screen too short to show a single account row it stays closed (an invisible sheet would
    /// swallow every key). A sheet still sliding away is taken back: the new one rises from
    /// where that one is.
    mutating func openSheet(_ context: Context, revealing id: String? = nil) -> [Reaction<Message>] {
        let view = self.view(context)
        guard SheetLayout(rowCount: accounts.count + 1, screen: context.size).visibleRows > 0, !view.layout.isTooSmall else { return [] }
        var sheet = AccountSheet()
        sheet.rows = accountsIndex.groupedRows
        if let closing = context.layer(AccountSheet.self), closing.isClosing { sheet.target = closing.displayedHeight(view) }
        // On the current account; with none, on the first row (not on account 0, which may sit
        // under a group heading in the middle of the list).
        let row = currentIndex.map { current in sheet.rows?.firstIndex(of: .account(current)) ?? current } ?? 0
        sheet.moveCursor(to: row, direction: 1, view)
        if let id, let index = accounts.firstIndex(where: { $0.id == id }) { sheet.reveal(accountAt: index, view) }
        return [.present(sheet)]
    }

    /// Shows the account with this id in the account sheet, with its cursor on it, opening the
    /// sheet when none is up.
    mutating func revealAccount(_ id: String, _ context: Context) -> [Reaction<Message>] {
        guard accounts.contains(where: { $0.id == id }) else { return [] }
        if let sheet = context.layer(AccountSheet.self), !sheet.isClosing { return [.tellPresented(AccountSheet.self, .reveal(id: id))] }
        return openSheet(context, revealing: id)
    }

    /// Picks the account at `index`: the Overview tab is selected, every layer is dismissed (the
    /// sheet slides away; the layers below it belong to the Catalog of the account being left)
    /// and the switch is handed to the store (``requestSwitch(to:)``). The account becomes
    /// current only when the store confirms it (``SwitchProgress/saved(_:)``): the screen never
    /// shows a switch that was not saved. What the panes looked like is kept first.
    mutating func pick(_ index: Int, _ context: Context) -> [Reaction<Message>] {
        guard accounts.indices.contains(index) else { return [] }
        return [.dismissAll, .selectTab(Tab.overview.rawValue)] + panesToSave(context) + requestSwitch(to: accounts[index].id)
    }

    /// Asks the store to switch to `id`, or, while another switch is pending, queues it to be
    /// asked for next (the latest pick wins; Overview shows it). Never drops a pick.
    mutating func requestSwitch(to id: String) -> [Reaction<Message>] {
        guard var pending = pendingSwitch else {
            pendingSwitch = PendingSwitch(accountID: id)
            return [.perform(RecordSwitch(accountID: id)) { .switchProgress($0) }]
        }
        pending.queued = id == pending.accountID ? nil : id
        pendingSwitch = pending
        return []
    }

    /// A step of the switch the model asked the store for (``RecordSwitch``).
    mutating func takeSwitchProgress(_ record: SwitchProgress, _ context: Context) -> [Reaction<Message>] {
        switch record {
        case .saved(let outcome):
            guard let pending = pendingSwitch, pending.accountID == outcome.accountID else {
                adopt(outcome.state)
                return []
            }
            pendingSwitch = nil
            adopt(outcome.state)
            if outcome.changed, let wallTime {
                history.append(SwitchEvent(account: outcome.accountID, time: wallTime.seconds(at: context.clock), source: .tui, here: true))
            }
            var reactions: [Reaction<Message>] = outcome.warning.map { [.banner($0)] } ?? []
            // The tools were applied and verified before the switch was recorded (the switch
            // session): their report follows as identitiesApplied, which runs the hook.
            if outcome.changed || identities?.accountID != outcome.accountID {
                identities = IdentityStatus(accountID: outcome.accountID, report: identities?.report, applying: true)
            }
            if let queued = pending.queued { reactions += requestSwitch(to: queued) }
            return reactions
        case .waiting(let id, let reason):
            if pendingSwitch?.accountID == id { pendingSwitch?.waitingReason = reason }
            return []
        case .failed(let id, let reason):
            let queued = pendingSwitch?.accountID == id ? pendingSwitch?.queued : nil
            if pendingSwitch?.accountID == id { pendingSwitch = nil }
            return [.banner("Could not switch to \(displayName(of: id)): \(reason)")] + (queued.map { requestSwitch(to: $0) } ?? [])
        case .identities(let applied):
            return takeIdentitiesApplied(applied)
        }
    }

    /// Tool identities applied: a step of a switch under way, or the whole report (after a
    /// switch, or `r`), which runs the hook and reads the tools again.
    mutating func takeIdentitiesApplied(_ applied: IdentitiesApplied) -> [Reaction<Message>] {
        let (report, previous, afterSwitch) = (applied.report, applied.previous, applied.afterSwitch)
        let account = accounts.first { $0.id == report.accountID }
        // A step of a switch under way (a tool pending, applied or failed): shown as it comes back.
        if report.results.contains(where: { $0.status == .pending }) || (pendingSwitch?.accountID == report.accountID && !afterSwitch) {
            if identities?.accountID != report.accountID { identities = IdentityStatus(accountID: report.accountID) }
            identities?.report = report
            identities?.applying = true
            return []
        }
        if identities?.accountID == report.accountID || saved.currentAccount == report.accountID {
            identities = IdentityStatus(accountID: report.accountID, report: report, checks: identities?.checks, applying: false)
        }
        var reactions: [Reaction<Message>] = []
        if !report.failures.isEmpty {
            let failed = report.failures.map { "\($0.tool.rawValue) \($0.detail)" }.joined(separator: "; ")
            reactions.append(.banner("\(displayName(of: report.accountID)): \(failed)"))
        }
        if afterSwitch, account?.onSwitch != nil {
            reactions.append(.perform(RunHook(accountID: report.accountID, previous: previous)) { .hookEnded($0) })
        }
        if account?.identities.isEmpty == false {
            reactions.append(.perform(CheckIdentities(accountID: report.accountID)) { .identitiesChecked($0) })
        }
        return reactions
    }
}

extension Reaction {
    /// Sends `message` to Perch's model, typed (``Reaction/send(to:_:)``): what a pane or a layer
    /// asks of the app, e.g. `.perch(.openSheet)`.
    public static func perch(_ message: PerchModel.Message) -> Reaction { .send(to: PerchModel.self, message) }
}

extension Context {
    /// What a Perch pane or layer reads of the app: Perch's model (``PerchModel``) for this
    /// screen and clock, or the snapshot a root of its own gives (the inline picker's); nil
    /// outside Perch.
    public var perch: ModelContext? {
        if let view = model(ModelContext.self) { return view }
        return model(PerchModel.self)?.view(self)
    }
}

/// A snapshot of what a Perch component reads is also a model a root of its own can give its
/// components (the inline picker's, ``AccountPicker``): it takes no message.
extension ModelContext: AppModel {}

extension ModelContext {
    /// The snapshot as PerchKit's context for its components: the screen, the clock, reduced
    /// motion, and this snapshot as the app's model.
    public var kit: Context { Context(size: size, clock: clock, reduceMotion: reduceMotion, model: self) }
}
