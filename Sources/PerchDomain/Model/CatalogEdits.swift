/// Changes made to one account's Catalog: pinned items (kept across runs in the state file, see
/// ``CatalogMemory``) and deleted ones (for this run only).
public struct CatalogEdits: Hashable, Sendable {
    /// Ids of pinned items, the most recently pinned first; they are listed in this order at
    /// the top of the Catalog.
    public var pinned: [String] = []
    /// Ids of deleted items.
    public var deleted: Set<String> = []

    public init() {}

    /// `items` without the deleted ones, the pinned ones first.
    public func applied(to items: [CatalogItem]) -> [CatalogItem] {
        let kept = items.filter { !deleted.contains($0.id) }
        let byID = Dictionary(kept.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pinnedSet = Set(pinned)
        return pinned.compactMap { byID[$0] } + kept.filter { !pinnedSet.contains($0.id) }
    }
}
