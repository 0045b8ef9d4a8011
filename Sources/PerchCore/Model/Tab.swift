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

    /// The keys of its pane's own, declared beside the pane, in the order help lists them.
    var keys: [KeyBinding] {
        switch self {
        case .overview: OverviewPane.keys
        case .catalog: CatalogPane.keys
        case .stats: StatsPane.keys
        case .settings: SettingsPane.keys
        }
    }

    /// The digit key that selects the tab (`1`–`4`).
    public var shortcut: Character { Character(String(rawValue + 1)) }
}
