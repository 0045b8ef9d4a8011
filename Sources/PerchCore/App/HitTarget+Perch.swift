/// Perch's names for the parts its panes and layers mark (``HitPart``, declared by PerchKit).
public typealias LayerPart = HitPart

extension HitTarget {
    /// The target for `part` of a presented layer.
    public static func layer(_ part: some HitPart) -> HitTarget { .hit(part) }

    /// The label cell of `tab` in the tab bar; holding the Overview tab raises the account sheet.
    public static func tab(_ tab: Tab) -> HitTarget { .hit(TabBar.Part.tab(tab.rawValue, holdable: tab.holdsTab)) }

    /// A row of the Catalog list, by item index; holding it opens the item's context menu.
    public static func catalogRow(_ index: Int) -> HitTarget { .hit(PaneRow.catalog(index)) }

    /// A row of the Settings pane, by row index.
    public static func settingsRow(_ index: Int) -> HitTarget { .hit(PaneRow.settings(index)) }

    /// The tab here, when this is a tab of the tab bar.
    public var tab: Tab? { part(TabBar.Part.self).flatMap { Tab(rawValue: $0.index) } }
    /// The Catalog row here, by item index.
    public var catalogRow: Int? { if case .catalog(let index)? = part(PaneRow.self) { index } else { nil } }
    /// The Settings row here, by row index.
    public var settingsRow: Int? { if case .settings(let index)? = part(PaneRow.self) { index } else { nil } }
}

/// A list row of a pane, as the pane marks it.
public enum PaneRow: HitPart {
    /// A row of the Catalog list, by item index.
    case catalog(Int)
    /// A row of the Settings pane, by row index.
    case settings(Int)

    public var acceptsLongPress: Bool { if case .catalog = self { true } else { false } }
}

extension GestureRecognizer.Configuration {
    /// PerchKit's timing with Perch's holdable keys (``KeyBindings/holdableKeys``: `1` and `Enter`).
    public static var perch: Self { Self(holdableKeys: KeyBindings.holdableKeys) }
}
