/// Where a switch was made.
public enum SwitchSource: String, Codable, Hashable, Sendable {
    /// In the interface (the account sheet).
    case tui
    /// With `perch switch`.
    case cli

    /// Where it was made, as a person says it (`perch history`, Stats): `interface` or
    /// `command line`. The raw values stay the files' and the JSON's words.
    public var title: String {
        switch self {
        case .tui: "interface"
        case .cli: "command line"
        }
    }
}

/// One recorded switch: a line of the history log.
public struct SwitchRecord: Codable, Hashable, Sendable {
    /// Id of the account switched to.
    public var account: String
    /// Id of the account that was current before, or nil when none was.
    public var previous: String?
    /// When, as ISO 8601 in UTC with whole seconds (`2026-11-30T08:31:00Z`).
    public var time: String
    /// Where the switch was made.
    public var source: SwitchSource

    public init(account: String, previous: String?, time: String, source: SwitchSource) {
        self.account = account
        self.previous = previous
        self.time = time
        self.source = source
    }

    private enum CodingKeys: String, CodingKey {
        case account, previous, time, source
    }

    /// Encodes every key, `previous` as `null` when there was none, so that readers of the file
    /// always find the same four keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(previous, forKey: .previous)
        try container.encode(time, forKey: .time)
        try container.encode(source, forKey: .source)
    }
}

/// What one account's panes looked like when last left, kept in the state file.
public struct AccountPanes: Codable, Hashable, Sendable {
    /// The Catalog's cursor, scroll and pins.
    public var catalog: CatalogMemory?
    /// The first row of Stats shown.
    public var statsScroll: Int?

    public init(catalog: CatalogMemory? = nil, statsScroll: Int? = nil) {
        self.catalog = catalog
        self.statsScroll = statsScroll
    }
}

/// What Perch remembers between runs: the current account and the switches made so far.
///
/// Stored as JSON (`state.json`, format version 2; see "State" in `docs/files.md`):
/// `{"version": 2, "currentAccount": "work", "switchCount": 3, "switchesPerAccount": {"work": 2,
/// "oss": 1}}`. The switches themselves are in the history log beside it. Version 1 files (the
/// same, before the history log existed) are read as well.
public struct SavedState: Codable, Hashable, Sendable {
    /// The format version this build writes.
    public static let currentVersion = 2
    /// Most history entries kept; older ones are dropped first.
    public static let historyLimit = 10_000

    /// Format version of the file; a file with a higher one is never rewritten.
    public var version: Int
    /// Id of the current account, or nil before the first switch.
    public var currentAccount: String?
    /// Switches made so far, all accounts together.
    public var switchCount: Int
    /// Switches made so far, by the id of the account switched to.
    public var switchesPerAccount: [String: Int]
    /// What each account's panes looked like when last left (Catalog cursor, scroll and pins,
    /// Stats' scroll), by account id; nil when nothing was kept.
    public var panes: [String: AccountPanes]?
    /// The id of the switch session that made the current account current (its journal's), so
    /// that a journal left by a process killed after recording the switch is known as done.
    public var lastSwitch: String?

    public init(currentAccount: String? = nil, switchCount: Int = 0, switchesPerAccount: [String: Int] = [:]) {
        self.version = Self.currentVersion
        self.currentAccount = currentAccount
        self.switchCount = switchCount
        self.switchesPerAccount = switchesPerAccount
    }

    private enum CodingKeys: String, CodingKey {
        case version, currentAccount, switchCount, switchesPerAccount, panes, lastSwitch
    }

    /// Decodes the JSON form. Counts too large for `Int` (written by hand, or by a bigger
    /// machine) are read as `Int.max` rather than making the whole file unreadable; missing
    /// counts are 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        currentAccount = try container.decodeIfPresent(String.self, forKey: .currentAccount)
        switchCount = Self.count(try container.decodeIfPresent(Count.self, forKey: .switchCount))
        switchesPerAccount = try container.decodeIfPresent([String: Count].self, forKey: .switchesPerAccount)?.mapValues(Self.count) ?? [:]
        // Pane state is a convenience: a malformed one is dropped rather than losing the file.
        panes = try? container.decodeIfPresent([String: AccountPanes].self, forKey: .panes)
        lastSwitch = try? container.decodeIfPresent(String.self, forKey: .lastSwitch)
    }

    /// A JSON number read as a whole count, clamped to `Int`'s range.
    private struct Count: Decodable {
        var value: Double
        var exact: Int?
        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            exact = try? single.decode(Int.self)
            value = try exact.map(Double.init) ?? single.decode(Double.self)
        }
    }

    private static func count(_ count: Count?) -> Int {
        guard let count else { return 0 }
        if let exact = count.exact { return exact }
        if count.value.isNaN { return 0 }
        return count.value >= 9.2e18 ? Int.max : count.value <= -9.2e18 ? Int.min : Int(count.value)
    }

    /// This state after a switch to `accountID`: it becomes current and both counters go up by
    /// one (saturating at `Int.max`, so no count from a file can make
    /// it trap).
    public func recordingSwitch(to accountID: String) -> SavedState {
        var next = self
        next.version = Self.currentVersion
        next.currentAccount = accountID
        next.switchCount = Self.incremented(switchCount)
        next.switchesPerAccount[accountID] = Self.incremented(switchesPerAccount[accountID] ?? 0)
        return next
    }

    /// This state with impossible values made possible: negative counts become 0.
    public func sanitized() -> SavedState {
        var clean = self
        clean.switchCount = max(0, switchCount)
        clean.switchesPerAccount = switchesPerAccount.mapValues { max(0, $0) }
        return clean
    }

    private static func incremented(_ count: Int) -> Int {
        count == Int.max ? count : max(0, count) + 1
    }
}
