import PerchDomain
import PerchKit

/// Where things are on a screen of a given size. Rendering and hit-testing both use it, so what
/// is drawn and what reacts to the pointer can never disagree.
public struct Layout: Hashable, Sendable {
    public let size: Size

    public init(size: Size) { self.size = size }

    /// Smallest screen the interface is drawn on, columns × rows: room for the tab labels, a pane
    /// title, a list row and a one-row sheet. Below it only a "terminal too small" notice is shown.
    public static let minimumSize = Size(width: 20, height: 6)

    /// Largest screen Perch lays out, columns × rows. A terminal reporting more (a window size is
    /// up to 65535 × 65535) is drawn in its top-left part, so a frame never takes more than
    /// 500,000 cells.
    public static let maximumSize = Screen.maximumSize

    /// `size` limited to ``maximumSize``.
    public static func capped(_ size: Size) -> Size {
        Screen.capped(size)
    }

    /// Whether the screen is below ``minimumSize`` in either direction.
    public var isTooSmall: Bool { size.width < Self.minimumSize.width || size.height < Self.minimumSize.height }

    /// Rows taken by the tab bar: a rule and the labels, or the labels alone on a short screen.
    public var tabBarHeight: Int { TabBar.height(screenHeight: size.height) }

    /// The tab bar, at the bottom.
    public var tabBar: Rect { Rect(x: 0, y: size.height - tabBarHeight, width: size.width, height: tabBarHeight) }

    /// The row with the tab labels (the last row).
    public var tabRow: Int { size.height - 1 }

    /// The area the selected pane draws in: everything above the tab bar.
    public var pane: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height - tabBarHeight) }

    /// Columns of `tab`'s label cell, as the tab bar shares out the width (``TabBar/cells(titles:width:)``).
    public func tabColumns(_ tab: Tab) -> Range<Int> {
        TabBar.cells(titles: Tab.titles, width: size.width)[tab.rawValue]
    }

    /// Rows of the pane used by its title line.
    public static let paneHeaderRows = 1

    /// Rows available to a pane's list below its title.
    public var listRows: Int { max(0, pane.height - Self.paneHeaderRows) }

    /// The tab under `position`, if it is on the label row.
    public func tab(at position: Position) -> Tab? {
        guard position.row == tabRow, position.column >= 0, position.column < size.width else { return nil }
        return TabBar(titles: Tab.titles).index(atColumn: position.column, width: size.width).flatMap(Tab.init(rawValue:))
    }
}
