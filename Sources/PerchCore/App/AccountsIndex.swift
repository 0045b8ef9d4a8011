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

    /// Widest name column drawn, in columns; longer names are truncated with `…`.
    public static let maximumNameColumns = 32

    public init(_ accounts: [Account]) {
        self.accounts = accounts
        nameColumns = Self.nameColumns(accounts)
        groupedRows = Self.groupedRows(accounts)
    }

    public var count: Int { accounts.count }

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
    /// canonical equivalence and accents aside), best score first, equal scores in config order.
    /// An empty or nil filter gives the grouped rows (nil: every account).
    ///
    /// When the filter only grew from `previous` (typing on), only the accounts among
    /// `previousRows` can match; they are the ones searched.
    public func rows(matching filter: String?, narrowingFrom previous: String? = nil, previousRows: [SheetRow]? = nil) -> [SheetRow]? {
        guard let filter, !filter.isEmpty else { return groupedRows }
        let pattern = FuzzyPattern(filter)
        guard let search else { return Self.matches(of: filter, in: accounts) }
        if let previous, !previous.isEmpty, filter.hasPrefix(previous), let previousRows {
            // The previous rows are in score order; the search goes in config order.
            var candidate = [Bool](repeating: false, count: accounts.count)
            var count = 0
            for row in previousRows {
                if case .account(let index) = row, index < candidate.count, !candidate[index] {
                    candidate[index] = true
                    count += 1
                }
            }
            let ascending = [Int](unsafeUninitializedCapacity: count) { indices, written in
                written = 0
                for index in candidate.indices where candidate[index] {
                    indices[written] = index
                    written += 1
                }
            }
            return search.matches(pattern, among: ascending)
        }
        return search.matches(pattern, among: accounts.indices)
    }

    /// Rows of the accounts matching `filter`, best first (see ``rows(matching:narrowingFrom:previousRows:)``).
    static func matches(of filter: String, in accounts: [Account]) -> [SheetRow] {
        SearchIndex(accounts).matches(FuzzyPattern(filter), among: accounts.indices)
    }
}
