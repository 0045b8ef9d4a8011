import PerchKit

/// One pane or presented layer: its own state, its own `update` and its own `render`, composed by
/// ``AppState`` (as Bubble Tea nests models and ratatui draws stateful widgets). A model changes
/// only itself; what else must happen (a layer presented or dismissed, a switch asked for, an
/// effect) it returns as ``Intent``s for the root to carry out.
public protocol ScreenModel {
    /// Reacts to one message for this model; returns what the root must do besides.
    mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent]
    /// Draws the model into `frame` and marks in its hit map what reacts to the pointer where it
    /// was drawn: hit-testing reads that map, never the layout arithmetic again.
    func render(into frame: inout Frame, _ context: ModelContext)
    /// Takes in the outcome of an effect this model asked for (``Intent/effect(_:)``; the root
    /// hands each outcome to its asker alone, ``ModelID``); returns what the root must do besides.
    /// Nothing by default.
    mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Intent]
}

extension ScreenModel {
    public mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Intent] { [] }
}

/// What the root hands a pane or layer: a key's action from ``KeyBindings`` (looked up in the
/// model's ``InputContext``), text, or a pointer gesture on one of the targets it drew.
public enum ModelMessage: Hashable, Sendable {
    /// A key bound in the model's input context.
    case action(KeyAction)
    /// Typed or pasted text (filters and form fields).
    case text(String)
    /// A tap on a target this model drew.
    case tap(HitTarget)
    /// A long-press on a target this model drew that accepts one.
    case longPress(HitTarget)
    /// The mouse wheel over the model, in notches (negative is up).
    case scroll(HitTarget, notches: Int)
    /// The pointer moved to a row while dragging a target of this model.
    case drag(HitTarget, Position)
    /// The drag ended at a position.
    case dragEnded(HitTarget, Position)
    /// The screen's size or the accounts changed: lists are clamped to what is visible.
    case relayout
}

/// What the rest of the program looks like to a pane or a layer while it updates or draws:
/// read-only facts owned by the root.
public struct ModelContext: Sendable {
    /// The accounts, with what is derived from them.
    public var accounts: AccountsIndex
    /// The confirmed state: current account and counts.
    public var saved: SavedState
    /// Index in the accounts of the current account.
    public var currentIndex: Int?
    /// A switch asked for and not yet confirmed.
    public var pendingSwitch: PendingSwitch?
    /// The screen, columns × rows.
    public var size: Size
    /// The loop's clock, in milliseconds: animations are drawn for it.
    public var clock: Int64
    /// Facts about the run that Settings shows.
    public var info: RunInfo
    /// Whether animations are off: a sheet's change of height shows at once.
    public var reduceMotion: Bool
    /// Edge-to-edge or inset sheets.
    public var sheetStyle: SheetStyle
    /// The kept settings and their sources, for Settings.
    public var settings = SettingsState()
    /// What the layers over the Catalog see of it (a context menu, a cover): its items, pins,
    /// previews and where a row is drawn, read-only (``CatalogListing``).
    public var catalog: any CatalogListing
    /// The switches, for Stats.
    public var history: SwitchHistory = SwitchHistory()
    /// The wall clock as last read; nil before the loop's first reading.
    public var wallTime: WallTime?
    /// The current account's tool identities as last applied and checked, or nil.
    public var identities: IdentityStatus? = nil

    /// What a key that acts on the current account says while there is none (Overview's `r` and
    /// `v`, the Catalog's `r`): one sentence, for a banner.
    public static let noAccountYet = "No account chosen yet: press a to switch to one."

    /// Geometry of the screen's parts.
    public var layout: Layout { Layout(size: size) }
    /// The current account, or nil.
    public var currentAccount: Account? { currentIndex.map { accounts.accounts[$0] } }
    /// The display name of the account with this id, or the id in quotes when the config lacks it.
    public func displayName(of id: String) -> String {
        accounts.accounts.first { $0.id == id }?.name ?? "\"\(id)\""
    }
}

/// What a pane or layer asks of the root, which owns the stack of layers, the tab, the accounts
/// and the switch.
public enum Intent: Hashable, Sendable {
    /// An effect for the event loop, asked for by this model: its outcome comes back to it
    /// (``ScreenModel/take(_:_:)``), unless the effect already names another asker
    /// (``Effect/asked(by:_:)``: an alert that is gone by then leaves it to its pane).
    case effect(Effect)
    /// From a layer: dismiss itself (a sheet slides away); from a pane: the top layer that
    /// takes input.
    case dismiss
    /// Present a layer on top; this model is its presenter, which its replies go to.
    case present(Presentation)
    /// From a layer: hand `value` to the model that presented it, which takes it as it takes an
    /// outcome (``ScreenModel/take(_:_:)``), as a PerchKit layer replies to its presenter. The
    /// value's type is the layer's own (a context menu's ``ContextMenuChoice``, an alert's
    /// ``AlertAction``): nothing lists them all.
    case reply(AnyOutcome)
    /// Switch to the account at this index (``AppState/requestSwitch(to:)``).
    case pick(accountIndex: Int)
    /// Open the account sheet.
    case openSheet
    /// The account sheet's filter opened: build the accounts' search text now
    /// (``AccountsIndex/prepareSearch()``), so that the first key typed into it is quick.
    case prepareSearch
    /// End the run (the account sheet's `q`).
    case quit
    /// Apply the current account's tool identities again (Overview's `r`).
    case reapplyIdentities
    /// Ask each tool of the current account (and each server, with the setting on) who it will
    /// be (Overview's `v`).
    case verifyIdentities
    /// What the panes look like changed in a way worth keeping at once (a pin): the root hands
    /// it to the store (``SavePanes``) when it differs from what was kept.
    case keepPaneMemory
    /// Show a one-line message above the tab bar until the next key pressed while no layer takes
    /// keys, or with `stays` whole until `Esc` dismisses it (a reason to read and act on).
    case banner(String, stays: Bool = false)
    /// The config was written (``WritesConfig``): these accounts replace those in
    /// use, and `configPath` is the file now in use.
    case replaceAccounts([Account], configPath: String)
    /// Show the account with this id in the account sheet, opening it when it is not up.
    case revealAccount(id: String)
    /// Change a kept setting by one step (-1 for `←`, +1 for `→` or `Enter`); it applies at
    /// once. Settings, which asks it, writes the settings file itself (``SaveSettings``).
    case changeSetting(SettingKey, step: Int)
    /// The state was set aside (the first config written over the sample accounts): no account
    /// is current, no switch is pending and the history is empty.
    case startAfresh
    /// The settings file could not be written with these settings' new values: Settings shows
    /// them as not saved (``SettingSource/unsaved``).
    case settingsNotSaved(Set<SettingKey>)
}

/// A change to the current account's Catalog.
public enum CatalogChange: Hashable, Sendable {
    /// Pin the item with this id to the top, or unpin it.
    case togglePin(id: String)
    /// Take the item with this id out of the list (kept per account for the run).
    case delete(id: String)
}
