/// Where an account's Catalog source (`catalog.command`) stands.
public enum CatalogLoad: Hashable, Sendable {
    /// Running since this time, in milliseconds on the loop's clock.
    case loading(since: Int64)
    /// The last run failed: the reason, with the end of its stderr (drawn sanitised).
    case failed(String)
    /// The last run succeeded; `skipped` lines could not be read.
    case loaded(skipped: Int)
}

/// The preview of one Catalog item, from the account's `catalog.preview`.
public enum CatalogPreview: Hashable, Sendable {
    case loading
    /// What the command printed (drawn sanitised, one line per row).
    case text(String)
    /// Why there is none (the command failed, or timed out).
    case failed(String)

    /// The preview's lines, for the card and the cover.
    public var lines: [String] {
        switch self {
        case .loading: ["loading preview…"]
        case .text(let text):
            text.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0.hasSuffix("\r") ? $0.dropLast() : $0).replacingTabs()
            }.reversed().drop { $0.isEmpty }.reversed()
        case .failed(let reason): ["preview failed: " + reason]
        }
    }
}

/// What Perch keeps of one account's Catalog between runs (in the state file): the cursor, the
/// scroll offset and the pins.
public struct CatalogMemory: Codable, Hashable, Sendable {
    /// Index of the selected row.
    public var cursor: Int
    /// Index of the first visible row.
    public var scroll: Int
    /// Ids of pinned items, the most recently pinned first.
    public var pinned: [String]

    public init(cursor: Int = 0, scroll: Int = 0, pinned: [String] = []) {
        self.cursor = cursor
        self.scroll = scroll
        self.pinned = pinned
    }
}

extension String {
    /// Tabs as spaces up to the next multiple of 8 columns' worth of characters.
    package func replacingTabs() -> String {
        guard contains("\t") else { return self }
        var result = ""
        for character in self {
            if character == "\t" {
                result += String(repeating: " ", count: 8 - result.count % 8)
            } else {
                result.append(character)
            }
        }
        return result
    }
}
