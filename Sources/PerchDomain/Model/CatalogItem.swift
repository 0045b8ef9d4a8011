/// One entry of the Catalog pane.
public struct CatalogItem: Hashable, Sendable {
    public var id: String
    public var title: String
    public var detail: String
    /// What the item is ("note", "draft", …), for the preview.
    public var kind: String
    /// Length of the item in words, for the preview.
    public var words: Int

    public init(id: String, title: String, detail: String, kind: String = "item", words: Int = 0) {
        self.id = id
        self.title = title
        self.detail = detail
        self.kind = kind
        self.words = words
    }

    /// Eight levels of activity, one block character each (`▁` to `█`), derived from the id so
    /// that the same item always shows the same picture; `count` characters.
    public func activity(_ count: Int) -> String {
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        var seed = Self.stableHash(id)
        return String(
            (0..<max(0, count)).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return levels[Int((seed >> 45) % UInt64(levels.count))]
            })
    }

    /// Whether this is one of the embedded sample accounts' entries (with a kind and a length to
    /// preview), rather than a line from a command or a config field.
    public var isSample: Bool { !kind.isEmpty }

    /// The Catalog of an account without a `catalog.command`: its tool identities first (one row
    /// per tool a switch applies, the detail what the account says it should be; the preview
    /// shows what the tool reported when last checked), then its config fields (title the key,
    /// detail the value).
    public static func configFields(of account: Account) -> [CatalogItem] {
        let identities = account.identities.entries.map { entry in
            CatalogItem(id: identityPrefix + entry.tool.rawValue, title: entry.tool.rawValue, detail: entry.expected, kind: "")
        }
        var fields: [(String, String)] = [("id", account.id), ("name", account.name)]
        if let handle = account.handle { fields.append(("handle", handle)) }
        if let group = account.group { fields.append(("group", group)) }
        if let color = account.color { fields.append(("color", color.name)) }
        if let hook = account.onSwitch { fields.append(("onSwitch", hook)) }
        if let preview = account.catalog?.preview { fields.append(("catalog.preview", preview)) }
        if let open = account.catalog?.open { fields.append(("catalog.open", open)) }
        return identities + fields.map { CatalogItem(id: "config." + $0.0, title: $0.0, detail: $0.1, kind: "") }
    }

    /// The start of the id of a tool identity's row.
    static let identityPrefix = "identity."

    /// The tool of a tool identity's row, else nil.
    public var identityTool: IdentityTool? {
        id.hasPrefix(Self.identityPrefix) ? IdentityTool(rawValue: String(id.dropFirst(Self.identityPrefix.count))) : nil
    }

    /// Number of sample items each account's catalog holds.
    public static let sampleCount = 60

    /// The embedded sample accounts' harmless sample entries: deterministic (the same account
    /// always gets the same list), and nothing is run to list them.
    public static func samples(for account: Account?) -> [CatalogItem] {
        let adjectives = [
            "Quiet", "Amber", "Swift", "Hidden", "Lunar", "Paper", "Copper", "Velvet", "Northern", "Silent", "Bright", "Hollow",
        ]
        let nouns = [
            "Harbor", "Lantern", "Orchard", "Ledger", "Compass", "Atlas", "Meadow", "Signal", "Archive", "Beacon", "Garden", "Canvas",
            "Journal",
        ]
        let kinds = ["note", "draft", "photo", "list", "link", "report"]
        var seed = stableHash(account?.id ?? "")
        return (0..<sampleCount).map { index in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let a = adjectives[Int((seed >> 33) % UInt64(adjectives.count))]
            let n = nouns[Int((seed >> 41) % UInt64(nouns.count))]
            let k = kinds[Int((seed >> 49) % UInt64(kinds.count))]
            let number = index + 1
            let words = Int((seed >> 20) % 900) + 100
            return CatalogItem(
                id: "\(account?.id ?? "item")-\(number)", title: "\(a) \(n)", detail: "\(k) · \(words) words", kind: k, words: words)
        }
    }

    /// FNV-1a, so the sample list does not depend on Swift's per-process hash seed.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
