/// A tab of the bottom tab bar: the pane at its place in ``Tab/panes``, the one list where a
/// pane is registered. Each pane names its own tab beside it
/// (`extension Tab { public static let catalog = Tab(CatalogPane.self) }`); its title, keys and
/// whether its tab can be held are its own (``TabPane``).
public struct Tab: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The panes, in tab order. A new pane is its own file (a PerchKit ``Pane``, ``KitTabPane``,
    /// hosted by ``KitPane``) and one entry here.
    static let panes: [any TabPane.Type] = [
        KitPane<OverviewPane>.self, KitPane<CatalogPane>.self, KitPane<StatsPane>.self, KitPane<SettingsPane>.self,
    ]

    /// Its place in the tab bar, from 0 (the leftmost tab).
    public let rawValue: Int

    /// The tab at place `rawValue` (from 0), or nil when there is no such place.
    public init?(rawValue: Int) {
        guard Self.panes.indices.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The tab of the pane `P`, which must be in ``panes``.
    public init<P: TabPane>(_ pane: P.Type) {
        guard let index = Self.panes.firstIndex(where: { ObjectIdentifier($0) == ObjectIdentifier(pane) }) else {
            preconditionFailure("\(P.self) is not registered in Tab.panes")
        }
        rawValue = index
    }

    /// The tab of the PerchKit pane `P`, registered in ``panes`` as `KitPane<P>.self`.
    public init<P: KitTabPane>(_ pane: P.Type) { self.init(KitPane<P>.self) }

    private init(place: Int) { rawValue = place }

    /// Every tab, left to right.
    public static var allCases: [Tab] { panes.indices.map(Tab.init(place:)) }

    /// The type of its pane.
    var pane: any TabPane.Type { Self.panes[rawValue] }

    /// Every tab's label, left to right, read from the panes once: the tab bar is drawn every
    /// frame.
    static let titles: [String] = panes.map { $0.title }
    /// The places of the tabs whose hold opens the account sheet, read from the panes once.
    static let holdable: Set<Int> = Set(panes.indices.filter { panes[$0].holdsTab })
    /// Each pane's own keys as Perch binds them, read from the panes' key tables once: every key
    /// pressed looks them up (``InputContext/pane(_:)``), and binding a table names each row's verb.
    static let paneKeys: [[KeyBinding]] = panes.map { $0.keys }
    /// Each pane's own key holds, read from the panes' key tables once.
    static let paneHolds: [[KeyHoldBinding]] = panes.map { $0.holds }

    /// The label shown in the tab bar.
    public var title: String { Self.titles[rawValue] }

    /// The keys of its pane's own, declared beside the pane, in the order help lists them.
    var keys: [KeyBinding] { Self.paneKeys[rawValue] }

    /// The key holds of its pane's own (``KeyBindings/holds(on:)`` adds the tabs').
    var holds: [KeyHoldBinding] { Self.paneHolds[rawValue] }

    /// Whether holding the tab (a long-press with the mouse) opens the account sheet.
    public var holdsTab: Bool { Self.holdable.contains(rawValue) }

    /// The digit key that selects the tab (`1`–`9`).
    public var shortcut: Character { Character(String(rawValue + 1)) }

    /// Its title, as test arguments and logs show it.
    public var description: String { title }
}
