/// Geometry of the account sheet: it fits its content exactly (one row per account plus its
/// chrome) and is capped so that at least ``minimumRowsAbove`` rows of the screen stay visible
/// above it; past the cap its rows scroll.
public struct SheetLayout: Hashable, Sendable {
    /// Rows of chrome: grabber, title, footer.
    public static let chromeRows = 3
    /// Screen rows always left visible above the sheet.
    public static let minimumRowsAbove = 2

    /// Total height of the sheet in rows.
    public let height: Int
    /// Screen row of the sheet's top edge (the grabber row).
    public let top: Int
    /// Number of account rows shown at once.
    public let visibleRows: Int
    /// The sheet's rectangle on the screen.
    public let frame: Rect

    /// The sheet for `rowCount` content rows on a screen of `screen` size.
    public init(rowCount: Int, screen: Size) {
        let wanted = max(0, rowCount) + Self.chromeRows
        let cap = max(0, screen.height - Self.minimumRowsAbove)
        height = min(wanted, cap)
        top = screen.height - height
        visibleRows = max(0, height - Self.chromeRows)
        frame = Rect(x: 0, y: top, width: screen.width, height: height)
    }

    /// Screen row of the first account row.
    public var firstRow: Int { top + 2 }
}
