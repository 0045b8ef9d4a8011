/// The accounts and everything derived from them, in one place and built once per change of
/// accounts: the widest name, the sheet's grouped rows, and (when a filter first needs it) the
/// folded search text. No frame and no keystroke scans the accounts for these.
public struct AccountsIndex: Hashable, Sendable {
    /// The accounts, in config order.
    public let accounts: [Account]
    /// Display width of the longest account name, in columns, capped at ``maximumNameColumns``.
    public let nameColumns: Int
    /// The sheet's rows in group order (accounts without a group first, then each group under
    /// its heading, groups in order of first appearance); nil when no account has a group.
    public let groupedRows: [SheetRow]?
    /// Names and handles folded for the filter; built by ``prepareSearch()`` when a filter opens.
    public private(set) var search: SearchIndex?
    /// Whether the config is still being read (``init(loadingWith:)``): ``accounts`` then holds
    /// at most the current account, known from the cache, and no account is offered to pick.
    public let isLoading: Bool

    /// Widest name column drawn, in columns; longer names are truncated with `…`.
    public static let maximumNameColumns = 32

    public init(_ accounts: [Account]) {
        self.accounts = accounts
        nameColumns = Self.nameColumns(accounts)
        groupedRows = Self.groupedRows(accounts)
        isLoading = false
    }

    /// The index of a run whose config is still being read: only `current` (the current account
    /// as the cache keeps it, or nil) is known, for Overview; the sheet and the filter offer
    /// nothing until the accounts arrive.
    public init(loadingWith current: Account?) {
        accounts = current.map { [$0] } ?? []
        nameColumns = Self.nameColumns(accounts)
        groupedRows = nil
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

    /// Display width of the longest name in `accounts`, capped at ``maximumNameColumns``.
    private static func nameColumns(_ accounts: [Account]) -> Int {
        accounts.reduce(0) { widest, account in
            widest >= Self.maximumNameColumns || DisplayWidth.fits(account.name, in: widest)
                ? widest : min(Self.maximumNameColumns, DisplayWidth.columns(of: String(account.name.prefix(Self.maximumNameColumns + 1))))
        }
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
