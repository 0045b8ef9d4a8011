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

    /// The sheet's rows for `filter`: accounts whose name or handle contains it, compared by match
    /// keys (``TextMatching``: case, canonical equivalence and accents aside); those where either
    /// starts with it (the handle also without its `@`) come first, each part in config order. An empty or nil filter gives the grouped rows (nil: every account).
    ///
    /// When the filter only grew from `previous` (typing on), only the accounts among
    /// `previousRows` can match; they are the ones searched.
    public func rows(matching filter: String?, narrowingFrom previous: String? = nil, previousRows: [SheetRow]? = nil) -> [SheetRow]? {
        guard let filter, !filter.isEmpty else { return groupedRows }
        let needle = TextMatching.key(filter)
        guard let search else { return Self.matches(of: filter, in: accounts) }
        if let previous, !previous.isEmpty, filter.hasPrefix(previous), let previousRows {
            let candidates = previousRows.compactMap { row -> Int? in if case .account(let i) = row { i } else { nil } }.sorted()
            return search.matches(needle, among: candidates)
        }
        return search.matches(needle, among: accounts.indices)
    }

    /// Rows of the accounts matching `filter`, prefix matches first (see ``rows(matching:narrowingFrom:previousRows:)``).
    static func matches(of filter: String, in accounts: [Account]) -> [SheetRow] {
        var prefixMatches: [SheetRow] = []
        var otherMatches: [SheetRow] = []
        let needle = TextMatching.key(filter)
        for (index, account) in accounts.enumerated() {
            let name = Self.match(account.name, needle)
            let handle = account.handle.flatMap { Self.match($0, needle) }
            switch min(name ?? .contained, handle ?? .contained) {
            case .prefix: prefixMatches.append(.account(index))
            case .contained where name != nil || handle != nil: otherMatches.append(.account(index))
            default: break
            }
        }
        return prefixMatches + otherMatches
    }

    /// How a filter matched a name or handle; prefix ranks first.
    typealias FilterMatch = TextMatching.Match

    /// Case-insensitive match of an ASCII `needle` (lowercased UTF-8) in `text`, folding ASCII
    /// letters byte by byte as it compares: 100,000 accounts are filtered in a few milliseconds.
    /// A match right after a leading `@` counts as a prefix.
    static func asciiMatch(_ text: String, _ needle: [UInt8]) -> FilterMatch? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return nil }
            if needle.isEmpty { return .prefix }
            for start in 0...(bytes.count - needle.count) {
                var i = 0
                while i < needle.count {
                    var byte = bytes[start + i]
                    if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                    guard byte == needle[i] else { break }
                    i += 1
                }
                if i == needle.count { return start == 0 || (start == 1 && bytes[0] == 0x40) ? .prefix : .contained }
            }
            return nil
        }
    }

    /// The match of `needle` (a ``TextMatching`` key) in `text`: ASCII text byte by byte, other
    /// text through its key.
    static func match(_ text: String, _ needle: [UInt8]) -> FilterMatch? {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiMatch(text, needle) }
        return TextMatching.match(needle, in: TextMatching.key(text))
    }
}
