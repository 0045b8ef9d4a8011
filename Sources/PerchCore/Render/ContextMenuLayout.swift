/// Geometry of a context menu: the preview card and the action menu, placed inside the screen
/// wherever the item's row is. Rendering and hit-testing both use it.
///
/// The card's title row lines up with the item's row when there is room; near the top or the
/// bottom of the screen the pair moves inwards. The menu goes below the card when both fit in
/// the screen's height, beside it when they do not and the screen is wide enough, and otherwise
/// below a card that has shrunk (down to ``minimumCardHeight`` rows). Past that the menu's
/// actions scroll, so nothing is ever drawn off the screen.
public struct ContextMenuLayout: Hashable, Sendable {
    /// Widest card, in columns.
    public static let cardWidth = 46
    /// Card height with every line (border included), in rows.
    public static let cardHeight = 7
    /// Narrowest card put beside the menu, in columns.
    public static let minimumBesideWidth = 30
    /// Shortest card: its border and the title, in rows.
    public static let minimumCardHeight = 3
    /// Menu width, border included, in columns.
    public static let menuWidth = 16

    /// The preview card, border included.
    public let card: Rect
    /// The action menu, border included.
    public let menu: Rect
    /// Whether the menu is beside the card (else below it).
    public let isBeside: Bool

    /// - Parameters:
    ///   - anchorRow: screen row of the item the menu is for.
    ///   - actionCount: number of actions in the menu.
    ///   - screen: screen size, columns × rows.
    public init(anchorRow: Int, actionCount: Int, screen: Size) {
        let (width, height) = (screen.width, screen.height)
        let menuHeight = actionCount + 2
        var cardWidth = min(Self.cardWidth, max(0, width - 2))
        var cardHeight = Self.cardHeight
        var menuRows = menuHeight
        let besideWidth = min(Self.cardWidth, width - 3 - Self.menuWidth)
        if cardHeight + menuHeight <= height {
            isBeside = false
        } else if besideWidth >= Self.minimumBesideWidth {
            isBeside = true
            cardWidth = besideWidth
            cardHeight = min(cardHeight, height)
            menuRows = min(menuHeight, height)
        } else {
            isBeside = false
            cardHeight = max(min(Self.minimumCardHeight, height), height - menuHeight)
            menuRows = max(0, min(menuHeight, height - cardHeight))
        }
        let menuWidth = min(Self.menuWidth, width)
        let totalWidth = isBeside ? cardWidth + 1 + menuWidth : max(cardWidth, menuWidth)
        let totalHeight = isBeside ? max(cardHeight, menuRows) : cardHeight + menuRows
        // Three columns in, under the rows' gutter; centred when the screen is narrow.
        let x = width - totalWidth >= 8 ? 3 : max(0, (width - totalWidth) / 2)
        let top = max(0, min(anchorRow - 1, height - totalHeight))
        card = Rect(x: x, y: top, width: cardWidth, height: cardHeight)
        menu =
            isBeside
            ? Rect(x: x + cardWidth + 1, y: top, width: menuWidth, height: menuRows)
            : Rect(x: x, y: top + cardHeight, width: menuWidth, height: menuRows)
    }

    /// Action rows shown at once.
    public var visibleActions: Int { max(0, menu.height - 2) }

    /// Index of the first action shown when action `focused` (0-based, or −1 for none) must be visible.
    public func actionScroll(focused: Int) -> Int { max(0, focused - visibleActions + 1) }
}
