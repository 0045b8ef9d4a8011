import PerchDomain

/// A tab of the bottom tab bar: the pane at its place in ``Tab/panes``, the one list where a
/// pane is registered. Each pane names its own tab beside it
/// (`extension Tab { public static let catalog = Tab(CatalogPane.self) }`); its title, keys and
/// whether its tab can be held are its own (``PerchPane``).
public struct Tab: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The panes, in tab order: the one list where a pane is registered.
    public static let panes: [any PerchPane.Type] = [OverviewPane.self, CatalogPane.self, StatsPane.self, SettingsPane.self]

    /// Its place in the tab bar, from 0 (the leftmost tab).
    public let rawValue: Int

    /// The tab at place `rawValue` (from 0), or nil when there is no such place.
    public init?(rawValue: Int) {
        guard Self.panes.indices.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The tab of the pane `P`, which must be in ``panes``.
    public init<P: PerchPane>(_ pane: P.Type) {
        guard let index = Self.panes.firstIndex(where: { ObjectIdentifier($0) == ObjectIdentifier(pane) }) else {
            preconditionFailure("\(P.self) is not registered in Tab.panes")
        }
        rawValue = index
    }

    private init(place: Int) { rawValue = place }

    /// Every tab, left to right.
    public static var allCases: [Tab] { panes.indices.map(Tab.init(place:)) }

    /// Every tab's label, left to right, read from the panes once.
    static let titles: [String] = panes.map { $0.title }
    /// The places of the tabs whose hold opens the account sheet, read from the panes once.
    static let holdable: Set<Int> = Set(panes.indices.filter { panes[$0].holdsTab })

    /// The label shown in the tab bar.
    public var title: String { Self.titles[rawValue] }

    /// Whether holding the tab (a long-press with the mouse) opens the account sheet.
    public var holdsTab: Bool { Self.holdable.contains(rawValue) }

    /// The digit key that selects the tab (`1`–`9`).
    public var shortcut: Character { Character(String(rawValue + 1)) }

    /// Its title, as test arguments and logs show it.
    public var description: String { title }
}
