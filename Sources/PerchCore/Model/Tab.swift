/// The four tabs of the bottom tab bar, in order.
public enum Tab: Int, CaseIterable, Hashable, Sendable {
    case overview, catalog, stats, settings

    /// The label shown in the tab bar.
    public var title: String {
        switch self {
        case .overview: "Overview"
        case .catalog: "Catalog"
        case .stats: "Stats"
        case .settings: "Settings"
        }
    }

    /// The digit key that selects the tab (`1`–`4`).
    public var shortcut: Character { Character(String(rawValue + 1)) }
}
