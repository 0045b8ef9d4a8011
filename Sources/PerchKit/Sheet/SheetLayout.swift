/// Geometry of a bottom sheet, anchored to the bottom edge. At the ``SheetDetent/fit`` detent
/// it is as tall as its content (one row per list row plus its chrome), capped so that at least
/// ``minimumRowsAbove`` rows of the screen stay visible above it; at ``SheetDetent/large`` it
/// takes all but the top row. Past its height the rows scroll. Rendering and hit-testing both
/// use it.
public struct SheetLayout: Hashable, Sendable {
    /// Rows of chrome: grabber, title (or filter), footer.
    public static let chromeRows = 3
    /// Screen rows always left visible above the sheet at the fit detent.
    public static let minimumRowsAbove = 2

    /// Total height of the sheet in rows.
    public let height: Int
    /// Screen row of the sheet's top edge (the grabber row).
    public let top: Int
    /// Number of list rows shown at once.
    public let visibleRows: Int
    /// The sheet's rectangle on the screen (one column in from each side when inset).
    public let frame: Rect

    /// The sheet at the fit detent for `rowCount` list rows on a screen of `screen` size.
    public init(rowCount: Int, screen: Size) {
        self.init(height: Self.height(for: .fit, rowCount: rowCount, screen: screen), screen: screen)
    }

    /// A sheet `height` rows tall (clamped to the screen) on a screen of `screen` size.
    public init(height: Int, screen: Size, style: SheetStyle = .edgeToEdge) {
        self.height = max(0, min(height, screen.height))
        top = screen.height - self.height
        visibleRows = max(0, self.height - Self.chromeRows)
        let margin = style == .inset && screen.width > 4 ? 1 : 0
        frame = Rect(x: margin, y: top, width: screen.width - 2 * margin, height: self.height)
    }

    /// Height in rows of a sheet of `rowCount` list rows resting at `detent`.
    public static func height(for detent: SheetDetent, rowCount: Int, screen: Size) -> Int {
        switch detent {
        case .fit: min(max(0, rowCount) + chromeRows, max(0, screen.height - minimumRowsAbove))
        case .large: max(0, screen.height - 1)
        }
    }

    /// Screen row of the first list row.
    public var firstRow: Int { top + 2 }
}
