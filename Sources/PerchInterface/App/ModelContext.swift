import PerchDomain
import PerchKit

/// What a Perch pane or layer reads of the app while it updates or draws (`context.perch`): Perch's
/// model (``PerchModel``) for the screen and clock of the moment, with the Catalog read from its
/// pane. Read-only: a component changes the model only by sending it a message.
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
    /// How many times the config was read again in this run (``PerchModel/configReads``).
    public var configReads = 0
    /// How many times the state was set aside in this run (``PerchModel/freshStarts``).
    public var freshStarts = 0

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

/// A change to the current account's Catalog.
public enum CatalogChange: Hashable, Sendable {
    /// Pin the item with this id to the top, or unpin it.
    case togglePin(id: String)
    /// Take the item with this id out of the list (kept per account for the run).
    case delete(id: String)
}
