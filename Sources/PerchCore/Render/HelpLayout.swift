/// Geometry of the help overlay: a box centred on the screen, at most ``maximumWidth`` columns
/// wide, as tall as its lines plus a border row above and below, and at least one column and
/// one row clear of each edge. Past its height the lines scroll.
public struct HelpLayout: Hashable, Sendable {
    /// Widest box drawn, in columns.
    public static let maximumWidth = 60

    /// The box, border included.
    public let frame: Rect
    /// Lines shown at once.
    public let visibleRows: Int

    /// The box for `lineCount` lines on a screen of `screen` size.
    public init(lineCount: Int, screen: Size) {
        let width = max(0, min(Self.maximumWidth, screen.width - 2))
        let height = max(0, min(lineCount + 2, screen.height - 2))
        frame = Rect(x: (screen.width - width) / 2, y: (screen.height - height) / 2, width: width, height: height)
        visibleRows = max(0, height - 2)
    }
}
