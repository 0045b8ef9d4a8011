import PerchKit

/// The root model: the accounts, the confirmed state, one model per pane (each registered in
/// ``Tab/panes`` and reached through ``TabPane``) and the stack of presented layers, each with
/// its own model (``Presentation``). Changed only by ``update(_:at:)``, which routes each event to
/// the model it is for and carries out what that model asks (``Intent``); nothing outside the
/// core assigns a field, and the outcomes of effects come back as events. Drawn by
/// ``renderFrame()``.
///
/// All four panes live for the whole run: switching tabs changes only ``selectedTab``, so each
/// pane's cursor and scroll offset are exactly as they were when it is shown again.
public struct AppState: Hashable, Sendable {
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
    /// The tab whose pane is drawn.
    public internal(set) var selectedTab: Tab = .overview
    /// The panes' own models, one of each type registered in ``Tab/panes``, each kept for the
    /// whole run; the root reaches them only through ``TabPane``.
    var panes: PaneList
    /// The row number typed so far over the account sheet in the accessible mode
    /// (``typeNumber(_:)``); empty when none.
    var typedNumber = ""
    /// Layers above the panes, bottom first.
    public internal(set) var presented: [Presentation] = []
    /// The ``Presentation/id`` the next presented layer gets: counted up for the whole run, so
    /// that an outcome for a dismissed layer never reaches a later one.
    var nextLayerID = LayerCounter()
    /// Terminal size, columns × rows, at most ``Layout/maximumSize``.
    public internal(set) var size: Size
    /// A message shown above the tab bar until the next key, e.g. a save failure; a new one
    /// replaces it.
    public internal(set) var banner: String? {
        didSet { bannerStays = false }
    }
    /// Whether ``banner`` stays, whole, until `Esc` dismisses it (a reason to read and act on,
    /// such as why an edited config was not loaded), instead of going at the next key.
    public internal(set) var bannerStays = false
    /// What the Settings pane shows about this run.
    public internal(set) var info: RunInfo
    /// Time of the latest event, in milliseconds on the event loop's monotonic clock; the
    /// animations are drawn for this time.
    public internal(set) var clock: Int64 = 0
    /// The kept settings in effect, where each comes from, and the settings file's contents.
    public internal(set) var settingsState: SettingsState
    /// Whether animations are off (`--reduce-motion`, or the Settings switch): every change of
    /// a sheet's height then shows at once.
    public internal(set) var reduceMotion: Bool {
        get { settingsState.values.reduceMotion }
        set { settingsState.values.reduceMotion = newValue }
    }
    /// Edge-to-edge or inset sheets (a Settings switch).
    public internal(set) var sheetStyle: SheetStyle {
        get { settingsState.values.sheetStyle }
        set { settingsState.values.sheetStyle = newValue }
    }
    /// A switch handed to the store and not confirmed yet; Overview shows it as pending.
    public internal(set) var pendingSwitch: PendingSwitch?
    /// The switches, for Stats.
    public internal(set) var history: SwitchHistory
    /// The wall clock as last read by the loop (a ``WallTime`` outcome); nil before.
    public internal(set) var wallTime: WallTime?
    /// The pane state last handed to the store (``SavePanes``), so that an unchanged
    /// one is not written again.
    var savedPanes: [String: AccountPanes]
    /// What the panes asked when they followed a change of account, in order, carried out once
    /// the event is handled (at the first event for what they asked at start).
    var followed: [PaneIntents] = []
    /// The current account's tool identities as last applied and checked; Overview shows them.
    public internal(set) var identities: IdentityStatus?
    /// The config's problems, one line each (`config PATH: line L, column C: …`), when the config
    /// read after the first frame could not be used: the interface then ends, and the caller
    /// reports them as a start with that config always did (exit status 2). Nil otherwise.
    public internal(set) var unusableConfig: [String]?

    /// - Parameters:
    ///   - reduceMotion: true (the default, for callers without a clock) draws every change at
    ///     once; the interface passes false unless `--reduce-motion` is given.
    ///   - banner: a message to show from the first frame (e.g. a state file read with a warning).
    ///   - loading: the config is still being read: `accounts` holds only the current account as
    ///     the cache keeps it (or nothing), the sheet offers no account, and the accounts arrive
    ///     with ``ConfigRead/loaded(accounts:)`` after ``firstFrameEffects`` asked for them.
    public init(
        accounts: [Account], saved: SavedState = SavedState(), size: Size, info: RunInfo = RunInfo(), reduceMotion: Bool = true,
        banner: String? = nil, history: SwitchHistory = SwitchHistory(), wallTime: WallTime? = nil, settings: SettingsState? = nil,
        loading: Bool = false
    ) {
        self.accountsIndex = loading ? AccountsIndex(loadingWith: accounts.first) : AccountsIndex(accounts)
        self.banner = banner
        var initialSettings = settings ?? SettingsState()
        if settings == nil {
            initialSettings.values.reduceMotion = reduceMotion
            initialSettings.values.longPressMilliseconds = info.longPressMilliseconds
        }
        self.settingsState = initialSettings
        self.saved = saved
        self.size = Layout.capped(size)
        self.info = info
        self.currentIndex = accountsIndex.index(of: saved.currentAccount)
        if currentIndex == nil, !loading { self.saved.currentAccount = nil }
        self.history = history
        self.wallTime = wallTime
        // Only accounts still in the config: a removed account's pane state is not kept on
        // (while the config is read, every account's is kept: which are still there is not known).
        let index = accountsIndex
        let kept = (saved.panes ?? [:]).filter { loading || index.index(of: $0.key) != nil }
        savedPanes = kept
        panes = PaneList(kept: kept)
        followAccount(accountsReplaced: false)
    }

    /// The pane `tab` shows, as a model (read, or changed in place): the root routes input,
    /// outcomes, relayouts and drawing to it through this, never naming it.
    subscript(pane tab: Tab) -> any TabPane {
        get { panes[tab] }
        set { panes[tab] = newValue }
    }

    /// The pane of type `P` (read, or changed in place), for its own readers beside it.
    subscript<P: TabPane>(pane type: P.Type) -> P {
        get { panes[P.self] }
        set { panes[P.self] = newValue }
    }

    /// The PerchKit pane of type `P` (read, or changed in place), for its own readers beside it.
    subscript<P: KitTabPane>(pane type: P.Type) -> P {
        get { panes[P.self] }
        set { panes[P.self] = newValue }
    }

    /// What to keep of each account's panes for the next run (``SavedState/panes``).
    public var paneMemory: [String: AccountPanes] {
        var result: [String: AccountPanes] = [:]
        for pane in panes.all { pane.remember(into: &result) }
        return result
    }

    /// What the panes and layers see of the root while they update or draw.
    public var context: ModelContext {
        ModelContext(
            accounts: accountsIndex, saved: saved, currentIndex: currentIndex, pendingSwitch: pendingSwitch, size: size, clock: clock,
            info: info,
            reduceMotion: reduceMotion, sheetStyle: sheetStyle, settings: settingsState,
            catalog: panes.first((any CatalogListing).self) ?? EmptyCatalogListing(), history: history,
            wallTime: wallTime, identities: identities?.accountID == saved.currentAccount ? identities : nil)
    }

    // MARK: Reading

    /// The accounts, in config order.
    public var accounts: [Account] { accountsIndex.accounts }
    /// Widest name column drawn, in columns.
    public static let maximumNameColumns = AccountsIndex.maximumNameColumns
    /// The current account, or nil before the first switch.
    public var currentAccount: Account? { currentIndex.map { accounts[$0] } }
    var layout: Layout { Layout(size: size) }

    /// Index in ``presented`` of the top layer that takes input (a sheet sliding away does not).
    var activeTop: Int? { presented.lastIndex { $0.isActive } }

    /// Who receives keys now: the top active layer, or the selected pane.
    public var inputContext: InputContext { activeTop.map { presented[$0].inputContext } ?? .pane(selectedTab) }

    /// The account sheet when it is the top layer and takes input.
    public var sheet: AccountSheet? {
        guard let sheet = presented.last?.as(AccountSheet.self), !sheet.isClosing else { return nil }
        return sheet
    }

    /// Geometry of the top account sheet as drawn now (mid-animation or dragged), or of a sheet
    /// at rest at the fit detent over every account when none is up.
    public var sheetLayout: SheetLayout {
        guard let sheet = presented.topmost(AccountSheet.self)?.layer else {
            return SheetLayout(rowCount: (accountsIndex.groupedRows?.count ?? accounts.count) + 1, screen: size)
        }
        return sheet.layout(context)
    }

    /// When the event loop must send ``AppEvent/animationFrame`` next, in milliseconds on the
    /// clock; nil when nothing moves (then nothing wakes the loop). A layer animates, or the
    /// pane shown asks to be drawn again (``TabPane/nextAnimationDeadline(clock:)``: the
    /// Catalog's spinner while its source runs).
    public var nextAnimationDeadline: Int64? {
        if presented.contains(where: \.isAnimating) { return clock + SheetMotion.animationFrameMilliseconds }
        return isCovered ? nil : self[pane: selectedTab].nextAnimationDeadline(clock: clock)
    }

    /// When the loop must read the wall clock again (a ``WallTime`` outcome), in milliseconds
    /// on the clock: the next minute, while Stats is shown (its current interval counts up); nil
    /// elsewhere, so that idle stays at zero wake-ups.
    public var nextWallClockDeadline: Int64? {
        guard selectedTab == .stats, !isCovered, let wallTime else { return nil }
        let now = wallTime.seconds(at: clock)
        let next = (now / 60 + 1) * 60
        return wallTime.monotonic + (next - wallTime.seconds) * 1000
    }

    /// Whether a full-screen layer hides the panes.
    var isCovered: Bool {
        presented.contains(where: \.coversScreen)
    }

    // MARK: Accounts and saved state

    /// Asks for the current account's identities to be applied again (`r` in Overview), or for
    /// them to be read at start-up (`check`); applying with no current account, or one without
    /// identities, a banner says so.
    public mutating func refreshIdentities(apply: Bool) -> [Effect] {
        guard apply else { return identityCheck }
        // Bug: `r` said nothing when there was nothing to apply.
        guard let account = currentAccount else {
            banner = ModelContext.noAccountYet
            return []
        }
        guard !account.identities.isEmpty else {
            banner = "\(account.name) has no tool identities to apply: its config gives none (git, ssh, kube, …)."
            return []
        }
        identities = IdentityStatus(accountID: account.id, report: nil, checks: identities?.checks, applying: true)
        return [.perform(ApplyIdentities(accountID: account.id, previous: nil, afterSwitch: false))]
    }

    /// Asking each tool of the current account who it will be (and each server, with the
    /// setting on); with no current account, or one without identities, a banner says so;
    /// nothing while one is asked.
    public mutating func verifyIdentities() -> [Effect] {
        // Bug: `v` said nothing with no account, or for an account without tools.
        guard let account = currentAccount else {
            banner = ModelContext.noAccountYet
            return []
        }
        guard !account.identities.settings.isEmpty else {
            banner = "\(account.name) has no tool to ask: its config gives no tool identities (git, ssh, kube, …)."
            return []
        }
        guard identities?.verifying != true else { return [] }
        if identities?.accountID != account.id { identities = IdentityStatus(accountID: account.id) }
        identities?.verifying = true
        identities?.verifyingOnline = settingsState.values.checkWithServers
        identities?.answers = nil
        return [.perform(VerifyIdentities(accountID: account.id, online: settingsState.values.checkWithServers))]
    }

    /// Reading what the current account's tools report now; nothing without a current account
    /// with identities.
    var identityCheck: [Effect] {
        guard let account = currentAccount, !account.identities.isEmpty else { return [] }
        return [.perform(CheckIdentities(accountID: account.id))]
    }

    /// Adopts a saved state from the store (it wins over what this process believed); the
    /// Catalog follows a change of account.
    mutating func adopt(_ newSaved: SavedState) {
        let previous = saved.currentAccount
        saved = newSaved
        // While the config is read, an account not known yet is looked for again when it arrives.
        if currentIndex == nil, !accountsIndex.isLoading { saved.currentAccount = nil }
        if saved.currentAccount != previous { followAccount(accountsReplaced: false) }
    }

    /// Every pane follows the current account (``TabPane/follow(_:accountsReplaced:)``); with
    /// `accountsReplaced`, the config was read again. What a pane asks then waits in
    /// ``followed`` until the event is handled.
    mutating func followAccount(accountsReplaced: Bool) {
        let context = self.context
        for tab in Tab.allCases {
            let intents = self[pane: tab].follow(context, accountsReplaced: accountsReplaced)
            if !intents.isEmpty { followed.append(PaneIntents(tab: tab, intents: intents)) }
        }
    }

    /// Replaces the accounts (the config was written again): the current account is found anew
    /// by id, and every list is clamped to the new count.
    mutating func replaceAccounts(_ newAccounts: [Account]) {
        accountsIndex = AccountsIndex(newAccounts)
        currentIndex = accountsIndex.index(of: saved.currentAccount)
        // Catalog commands may have changed: each source runs again when next shown.
        followAccount(accountsReplaced: true)
        relayout()
    }
}

/// What one pane asked, for the root to carry out later (``AppState/followed``).
struct PaneIntents: Hashable, Sendable {
    var tab: Tab
    var intents: [Intent]
}
