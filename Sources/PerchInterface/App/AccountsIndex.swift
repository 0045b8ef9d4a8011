import PerchDomain
import PerchKit
import Synchronization

/// The accounts and everything derived from them, in one place and built once per change of
/// accounts: the widest name, the sheet's grouped rows, and (when a filter first needs it) the
/// folded search text. No frame and no keystroke scans the accounts for these.
public struct AccountsIndex: Hashable, Sendable {
    /// The accounts, in config order.
    public let accounts: [Account]
    /// Display width of the longest account name, in columns, capped at ``maximumNameColumns``.
    public let nameColumns: Int
    /// Display width of the longest handle, in columns, capped at ``maximumNameColumns``; 0 when
    /// no account has one.
    public let handleColumns: Int
    /// The sheet's rows in group order (accounts without a group first, then each group under
    /// its heading, groups in order of first appearance); nil when no account has a group.
    public let groupedRows: [SheetRow]?
    /// Indices in ``groupedRows`` of its group headings, in order; empty without groups.
    public let headingRows: [Int]
    /// Names and handles folded for the filter; built by ``prepareSearch()`` when a filter opens.
    public private(set) var search: SearchIndex?
    /// Whether the config is still being read (``init(loadingWith:)``): ``accounts`` then holds
    /// at most the current account, known from the cache, and no account is offered to pick.
    public let isLoading: Bool

    /// Widest name column drawn, in columns; longer names are cut with `…` (a column of 120
    /// already leaves a handle no room on a 200-column terminal).
    public static let maximumNameColumns = 120
    /// Which names share their start with another account's name, found the first time a drawn
    /// name is cut (``sharesShownPrefix(_:columns:)``); no part of the index's value.
    private let prefixes = SharedNamePrefixes()

    public init(_ accounts: [Account]) {
        self.accounts = accounts
        // One loop over the fields: through key paths and lazy maps this was the most of building
        // the index (some 490 instructions an account, of 530).
        var nameColumns = 0
        var handleColumns = 0
        for i in accounts.indices {
            nameColumns = Self.widening(nameColumns, accounts[i].name)
            if let handle = accounts[i].handle { handleColumns = Self.widening(handleColumns, handle) }
        }
        self.nameColumns = nameColumns
        self.handleColumns = handleColumns
        let grouped = Self.groupedRows(accounts)
        groupedRows = grouped
        headingRows = grouped.map { rows in rows.indices.filter { if case .heading = rows[$0] { true } else { false } } } ?? []
        isLoading = false
    }

    /// The index of a run whose config is still being read: only `current` (the current account
    /// as the cache keeps it, or nil) is known, for Overview; the sheet and the filter offer
    /// nothing until the accounts arrive.
    public init(loadingWith current: Account?) {
        accounts = current.map { [$0] } ?? []
        nameColumns = Self.widest(accounts.lazy.map(\.name))
        handleColumns = Self.widest(accounts.lazy.compactMap(\.handle))
        groupedRows = nil
        headingRows = []
        isLoading = true
    }

    public var count: Int { accounts.count }

    /// How many accounts the sheet and the filter may offer: every account, or none while loading.
    public var offeredCount: Int { isLoading ? 0 : accounts.count }

    /// The index of the account with this id, or nil (nil for a nil id).
    public func index(of id: String?) -> Int? {
        guard let id else { return nil }
        return accounts.firstIndex { $0.id == id }
    }

    /// Builds the search text once (a filter is opening).
    public mutating func prepareSearch() {
        if search == nil { search = SearchIndex(accounts) }
    }

    /// Display width of the widest of `texts`, capped at ``maximumNameColumns``.
    private static func widest(_ texts: some Sequence<String>) -> Int {
        texts.reduce(0, widening)
    }

    /// The larger of `widest` and the display width of `text`, capped at ``maximumNameColumns``
    /// (columns).
    private static func widening(_ widest: Int, _ text: String) -> Int {
        widest >= Self.maximumNameColumns || DisplayWidth.fits(text, in: widest)
            ? widest : min(Self.maximumNameColumns, DisplayWidth.columns(of: String(text.prefix(Self.maximumNameColumns + 1))))
    }

    /// Whether the name of the account at `index`, cut to its first `columns` columns, starts
    /// another account's name too: two names that differ only past the cut would then be drawn
    /// alike (bug: two `Platform Engineering — Europe W…` rows in the sheet and the picker).
    /// The first call sorts the names wider than 12 columns (narrower ones are never cut), once
    /// per list of accounts.
    public func sharesShownPrefix(_ index: Int, columns: Int) -> Bool {
        prefixes.sharedColumns(of: index, in: accounts) >= columns
    }

    /// The place, from 1, among the accounts listed of the account at `row` of ``groupedRows``
    /// (or at `row` of the accounts, without groups): its row less the headings above it, found
    /// by binary search, so a sheet over 100,000 accounts says it per frame for nothing.
    public func accountPlace(ofGroupedRow row: Int) -> Int {
        var (low, high) = (0, headingRows.count)
        while low < high {
            let middle = (low + high) / 2
            if headingRows[middle] < row { low = middle + 1 } else { high = middle }
        }
        return row - low + 1
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

    // MARK: Filter

    /// The sheet's rows for `filter`: accounts whose name or handle the filter matches as fzf
    /// does (``FuzzyMatcher``: its characters in order, compared by match keys, so case,
    /// canonical equivalence and accents aside), best score first, equal scores in config order;
    /// beside them, the same accounts by index in config order (``SearchIndex/Matches/indices``),
    /// for the next keystroke. An empty or nil filter gives the grouped rows (nil: every
    /// account) and no matches.
    ///
    /// When the filter only grew from `previous` (typing on), only the accounts among
    /// `previousMatches` (what this gave for `previous`) can match; they are the ones searched.
    public func rows(
        matching filter: String?, narrowingFrom previous: String? = nil, among previousMatches: [Int32]? = nil
    ) -> (rows: [SheetRow]?, matches: [Int32]?) {
        guard let filter, !filter.isEmpty else { return (groupedRows, nil) }
        // Nothing is offered before the accounts arrive, not even the account known from the cache.
        if isLoading { return ([], []) }
        let pattern = FuzzyPattern(filter)
        guard let search else {
            let found = SearchIndex(accounts).search(pattern, among: 0..<Int32(accounts.count))
            return (found.rows, found.indices)
        }
        let found: SearchIndex.Matches
        if let previous, !previous.isEmpty, filter.hasPrefix(previous), let previousMatches {
            found = search.search(pattern, among: previousMatches)
        } else {
            found = search.search(pattern, among: 0..<Int32(accounts.count))
        }
        return (found.rows, found.indices)
    }

    /// Rows of the accounts matching `filter`, best first (see ``rows(matching:narrowingFrom:among:)``).
    static func matches(of filter: String, in accounts: [Account]) -> [SheetRow] {
        SearchIndex(accounts).matches(FuzzyPattern(filter), among: accounts.indices)
    }
}

/// For each account, the columns of the longest start its name shares with another account's
/// name (0 when none), computed on first use from the names sorted by their UTF-8 bytes (two
/// names' longest shared start is with a neighbour in that order). Copies of an index share one;
/// every one equals every other.
final class SharedNamePrefixes: Hashable, Sendable {
    /// Names no wider than this are never cut (the sheet's narrowest name column), in columns.
    static let neverCutColumns = 12
    private let shared = Mutex<[Int32: Int]?>(nil)

    func sharedColumns(of index: Int, in accounts: [Account]) -> Int {
        if let known = shared.withLock({ $0 }) { return known[Int32(index)] ?? 0 }
        let made = Self.make(accounts)
        shared.withLock { $0 = made }
        return made[Int32(index)] ?? 0
    }

    private static func make(_ accounts: [Account]) -> [Int32: Int] {
        let long = accounts.indices.filter { !DisplayWidth.fits(accounts[$0].name, in: neverCutColumns) }
            .sorted { accounts[$0].name.utf8.lexicographicallyPrecedes(accounts[$1].name.utf8) }
        var shared: [Int32: Int] = [:]
        for (left, right) in zip(long, long.dropFirst()) {
            let columns = commonColumns(accounts[left].name, accounts[right].name)
            guard columns > 0 else { continue }
            for index in [left, right] { shared[Int32(index)] = max(shared[Int32(index)] ?? 0, columns) }
        }
        return shared
    }

    /// Columns of the grapheme clusters `a` and `b` start with alike.
    private static func commonColumns(_ a: String, _ b: String) -> Int {
        var columns = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            columns += DisplayWidth.columns(of: x)
        }
        return columns
    }

    static func == (lhs: SharedNamePrefixes, rhs: SharedNamePrefixes) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
