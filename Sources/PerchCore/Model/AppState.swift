/// Facts about this run that the Settings pane shows.
public struct RunInfo: Hashable, Sendable {
    /// Long-press duration in effect, in milliseconds.
    public var longPressMilliseconds: Int64
    /// Where accounts come from: a config file path, or a note that the samples are in use.
    public var configDescription: String
    /// Path of the state file.
    public var statePath: String
    /// How a key hold is recognised in this terminal.
    public var keyHold: KeyHoldMode = .autoRepeat

    public init(longPressMilliseconds: Int64 = 500, configDescription: String = "embedded sample accounts", statePath: String = "") {
        self.longPressMilliseconds = longPressMilliseconds
        self.configDescription = configDescription
        self.statePath = statePath
    }
}

/// An action row of the Settings pane.
public enum SettingsAction: CaseIterable, Hashable, Sendable {
    case switchAccount
    /// Opens the `Add account…` form.
    case addAccount
    /// Turns the sheet's animations off or on.
    case reduceMotion
    /// Switches the sheet between edge-to-edge and inset.
    case sheetStyle

    public var title: String {
        switch self {
        case .switchAccount: "Switch account…"
        case .addAccount: "Add account…"
        case .reduceMotion: "Reduce motion"
        case .sheetStyle: "Sheet style"
        }
    }
}

/// Everything the program shows. Changed only by ``update(_:at:)`` (and inside the core):
/// nothing outside assigns a field; the outcomes of effects come back as events. Drawn by
/// ``render()``.
///
/// All four panes live for the whole run: switching tabs changes only ``selectedTab``, so each
/// pane's cursor and scroll offset are exactly as they were when it is shown again.
public struct AppState: Hashable, Sendable {
    public private(set) var accounts: [Account]
    /// Display width of the longest account name, in columns, capped at ``maximumNameColumns``;
    /// kept with the accounts so that no frame scans them all.
    public private(set) var nameColumns: Int
    /// Widest name column drawn, in columns; longer names are truncated with `…`.
    public static let maximumNameColumns = 32
    /// Current account and switch counts, as last read from or written to the state file.
    public internal(set) var saved: SavedState {
        didSet {
            if saved.currentAccount != oldValue.currentAccount { currentIndex = Self.index(of: saved.currentAccount, in: accounts) }
        }
    }
    /// Index in ``accounts`` of the current account, kept with ``saved`` so that neither a frame
    /// nor opening the sheet searches the accounts (100,000 of them took 1 ms per search).
    public private(set) var currentIndex: Int?
    /// The tab whose pane is drawn.
    public internal(set) var selectedTab: Tab = .overview
    /// Catalog pane: the current account's items (its ``catalogEdits`` applied) and the list cursor.
    public private(set) var catalogItems: [CatalogItem]
    /// Pins and deletions made in each account's Catalog during this run, by account id ("" for
    /// no account).
    public internal(set) var catalogEdits: [String: CatalogEdits] = [:]
    public internal(set) var catalog = ListCursor()
    /// Stats pane: its scroll offset.
    public internal(set) var stats = ListCursor()
    /// Settings pane: cursor over ``SettingsAction/allCases``.
    public internal(set) var settings = ListCursor()
    /// Layers above the panes, bottom first.
    public internal(set) var presented: [Presentation] = []
    /// Terminal size, columns × rows, at most ``Layout/maximumSize`` when set by ``init`` or a resize.
    public internal(set) var size: Size
    /// A one-line message shown above the tab bar until the next key, e.g. a save failure.
    public internal(set) var banner: String?
    /// What the Settings pane shows about this run.
    public internal(set) var info: RunInfo
    /// The sheet's rows in group order (accounts without a group first, then each group under
    /// its heading, groups in order of first appearance); nil when no account has a group.
    public private(set) var groupedRows: [SheetRow]?
    /// Time of the latest event, in milliseconds on the event loop's monotonic clock; the
    /// animations are drawn for this time.
    public internal(set) var clock: Int64 = 0
    /// Whether animations are off (`--reduce-motion`, or the Settings switch): every change of
    /// a sheet's height then shows at once.
    public internal(set) var reduceMotion: Bool
    /// Edge-to-edge or inset sheets (a Settings switch).
    public internal(set) var sheetStyle: SheetStyle = .edgeToEdge
    /// A switch handed to the store and not confirmed yet; Overview shows it as pending.
    public internal(set) var pendingSwitch: PendingSwitch?

    /// - Parameters:
    ///   - reduceMotion: true (the default, for callers without a clock) draws every change at
    ///     once; the interface passes false unless `--reduce-motion` is given.
    ///   - banner: a message to show from the first frame (e.g. a state file read with a warning).
    public init(
        accounts: [Account], saved: SavedState = SavedState(), size: Size, info: RunInfo = RunInfo(), reduceMotion: Bool = true,
        banner: String? = nil
    ) {
        self.banner = banner
        self.accounts = accounts
        self.reduceMotion = reduceMotion
        self.groupedRows = Self.groupedRows(accounts)
        self.nameColumns = Self.nameColumns(accounts)
        self.saved = saved
        self.size = Layout.capped(size)
        self.info = info
        self.catalogItems = []
        self.currentIndex = Self.index(of: saved.currentAccount, in: accounts)
        if currentIndex == nil { self.saved.currentAccount = nil }
        rebuildCatalog()
    }

    /// Display width of the longest name in `accounts`, capped at ``maximumNameColumns``.
    private static func nameColumns(_ accounts: [Account]) -> Int {
        accounts.reduce(0) { widest, account in
            widest >= Self.maximumNameColumns || DisplayWidth.fits(account.name, in: widest)
                ? widest : min(Self.maximumNameColumns, DisplayWidth.columns(of: String(account.name.prefix(Self.maximumNameColumns + 1))))
        }
    }

    /// Replaces the accounts (the config was written again): the current account is found anew
    /// by id, and every list is clamped to the new count.
    mutating func replaceAccounts(_ newAccounts: [Account]) {
        accounts = newAccounts
        groupedRows = Self.groupedRows(newAccounts)
        nameColumns = Self.nameColumns(newAccounts)
        currentIndex = Self.index(of: saved.currentAccount, in: newAccounts)
        // A sheet's search index describes the old accounts: it is built again when needed.
        for (index, layer) in presented.enumerated() {
            if case .accountSheet(var sheet) = layer {
                sheet.searchIndex = nil
                presented[index] = .accountSheet(sheet)
            }
        }
        clampLists()
    }

    /// Key of the current account's ``catalogEdits``.
    var catalogKey: String { saved.currentAccount ?? "" }

    /// Whether the Catalog item with this id is pinned.
    public func isPinned(_ id: String) -> Bool { catalogEdits[catalogKey]?.pinned.contains(id) ?? false }

    /// Lists the current account's sample items with its edits applied.
    mutating func rebuildCatalog() {
        let items = CatalogItem.samples(for: currentAccount)
        catalogItems = catalogEdits[catalogKey].map { $0.applied(to: items) } ?? items
    }

    private static func index(of id: String?, in accounts: [Account]) -> Int? {
        guard let id else { return nil }
        return accounts.firstIndex { $0.id == id }
    }

    /// The current account, or nil before the first switch.
    public var currentAccount: Account? {
        currentIndex.map { accounts[$0] }
    }

    /// The account sheet when it is the top layer and takes input.
    public var sheet: AccountSheet? {
        if case .accountSheet(let sheet)? = presented.last, !sheet.isClosing { return sheet }
        return nil
    }

    /// Rows of the sheet grouped under headings, or nil when no account has a group.
    static func groupedRows(_ accounts: [Account]) -> [SheetRow]? {
        guard accounts.contains(where: { $0.group != nil }) else { return nil }
        var order: [String] = []
        var members: [String: [Int]] = [:]
        var rows: [SheetRow] = []
        for (index, account) in accounts.enumerated() {
            guard let group = account.group else {
                rows.append(.account(index))
                continue
            }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(index)
        }
        for group in order {
            rows.append(.heading(group))
            rows += members[group, default: []].map(SheetRow.account)
        }
        return rows
    }

    /// Adopts a saved state read back from disk (it wins over what this process believed).
    mutating func adopt(_ newSaved: SavedState) {
        let previous = saved.currentAccount
        saved = newSaved
        if currentIndex == nil { saved.currentAccount = nil }
        if saved.currentAccount != previous {
            rebuildCatalog()
            catalog = ListCursor()
        }
    }
}
