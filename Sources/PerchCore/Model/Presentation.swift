/// A layer presented above the panes. ``AppState/presented`` holds them bottom first, so the
/// last element is on top: keys go to it, and a click outside it dismisses it.
public enum Presentation: Hashable, Sendable {
    /// The account sheet.
    case accountSheet(AccountSheet)
    /// The help overlay (`?`), listing the bindings of the context below it.
    case help(HelpOverlay)
    /// A Catalog item's context menu: preview card and actions, over a dimmed screen.
    case contextMenu(ContextMenu)
    /// A confirmation alert, over a dimmed screen.
    case alert(Alert)
    /// A full-screen cover, over everything including the tab bar.
    case cover(Cover)
    /// The `Add account…` form, full-screen like a cover.
    case accountForm(AccountForm)

    /// Whether this layer takes input; a sheet sliding away after its dismissal does not.
    public var isActive: Bool {
        if case .accountSheet(let sheet) = self { return !sheet.isClosing }
        return true
    }

    /// Who receives keys while this layer is on top.
    public var inputContext: InputContext {
        switch self {
        case .accountSheet(let sheet): sheet.isEditingFilter ? .accountSheetFilter : .accountSheet
        case .help: .help
        case .contextMenu: .contextMenu
        case .alert: .alert
        case .cover: .cover
        case .accountForm: .accountForm
        }
    }
}

/// The help overlay: the context whose bindings it lists, and how far they are scrolled.
public struct HelpOverlay: Hashable, Sendable {
    /// The context below the overlay (the one it describes).
    public var context: InputContext
    /// Index of the first binding shown.
    public var scroll = 0

    public init(context: InputContext) { self.context = context }

    /// The bindings listed.
    public var bindings: [KeyBinding] { KeyBindings.table(for: context) }
}

/// Height a sheet rests at (UISheetPresentationController's detents, in rows).
public enum SheetDetent: Hashable, Sendable, CaseIterable {
    /// As tall as its content, capped so that ``SheetLayout/minimumRowsAbove`` rows stay visible.
    case fit
    /// All of the screen but its top row.
    case large
}

/// How the sheet sits on the screen.
public enum SheetStyle: String, Hashable, Sendable, CaseIterable {
    /// Full width, square top edge (the default).
    case edgeToEdge = "edge to edge"
    /// One column of margin on each side, rounded corners.
    case inset
}

/// A row of the account sheet's list: a group heading, or an account by its index in
/// ``AppState/accounts``.
public enum SheetRow: Hashable, Sendable {
    case heading(String)
    case account(Int)
    /// The `Add account…` row, last in the list.
    case addAccount
}

/// An animation of a sheet's height, from ``from`` rows to the sheet's current target.
public struct HeightAnimation: Hashable, Sendable {
    /// Height when the animation started, in rows.
    public var from: Int
    /// Clock time the animation started, in milliseconds.
    public var start: Int64
}

/// The account sheet's state: its cursor over the rows shown, the filter, the detent, a drag
/// in progress and the animation of its height.
public struct AccountSheet: Hashable, Sendable {
    /// Cursor over ``rows`` (or over all accounts when ``rows`` is nil).
    public var cursor = ListCursor()
    /// The filter typed after `/`, or nil when there is none.
    public var filter: String?
    /// Whether keys go to the filter.
    public var isEditingFilter = false
    /// The rows shown when they are not simply every account in order: groups or a filter.
    /// Nil means row `i` is account `i` (built in constant time, whatever the number of accounts).
    public var rows: [SheetRow]?
    public var detent: SheetDetent = .fit
    /// Screen row of the grabber while it is dragged with the pointer.
    public var dragTop: Int?
    /// Set once dismissed: the sheet slides down, taking no input, and is removed at the end.
    public var isClosing = false
    /// The height last aimed at, in rows; a new target starts an ``animation`` from where it is.
    public var target = 0
    public var animation: HeightAnimation?
    /// The accounts' names and handles, folded for the filter; built when the filter opens.
    public var searchIndex: SearchIndex?

    public init() {}

    /// Number of rows in the list, headings and the `Add account…` row included.
    public func rowCount(accounts: Int) -> Int { (rows?.count ?? accounts) + 1 }

    /// The row at `index`, which must be below ``rowCount(accounts:)``: the last is the
    /// `Add account…` row.
    public func row(_ index: Int, accounts: Int) -> SheetRow {
        index < listedCount(accounts: accounts) ? rows?[index] ?? .account(index) : .addAccount
    }

    /// Number of rows that are accounts or headings (every row but `Add account…`).
    public func listedCount(accounts: Int) -> Int { rows?.count ?? accounts }
}
