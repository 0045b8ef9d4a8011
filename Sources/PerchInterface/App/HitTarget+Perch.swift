import PerchDomain
import PerchKit

/// Perch's names for the parts its panes and layers mark (``HitPart``, declared by PerchKit);
/// each pane and layer declares its own parts beside it (``CatalogPane/Row``, ``SettingsPane/Row``).
public typealias LayerPart = HitPart

extension HitTarget {
    /// The target for `part` of a presented layer.
    public static func layer(_ part: some HitPart) -> HitTarget { .hit(part) }

    /// The label cell of `tab` in the tab bar; holding the Overview tab raises the account sheet.
    public static func tab(_ tab: Tab) -> HitTarget { .hit(TabBar.Part.tab(tab.rawValue, holdable: tab.holdsTab)) }

    /// The tab here, when this is a tab of the tab bar.
    public var tab: Tab? { part(TabBar.Part.self).flatMap { Tab(rawValue: $0.index) } }
}

extension GestureRecognizer.Configuration {
    /// PerchKit's timing with Perch's holdable keys before the first event (`1`, delivered at
    /// once, and the Catalog's `Enter`); from then on ``TabApp`` names them from the panes.
    public static var perch: Self {
        var configuration = Self(holdableKeys: [.char("1"), KeyEvent(.enter)])
        configuration.tapFirstKeys = [.char("1")]
        return configuration
    }
}
