/// What one render produces: the cells to show and a map of what was drawn where, which
/// hit-testing reads (a click goes to what the person sees).
public struct Frame: Sendable {
    /// The cells drawn.
    public var screen: Screen
    /// What was drawn where, for hit-testing.
    public var hits: HitMap
    /// The styles the cells are drawn in (a theme's colours for the terminal's background), or
    /// nil for their own: the backend applies them per run of cells as it draws
    /// (`TerminalBackend.draw(_:styles:)`), so a frame pays nothing per cell for them.
    public var styles: StyleMap?

    /// A blank frame of `size` (columns × rows) where nothing reacts to the pointer.
    public init(size: Size) {
        screen = Screen(size: size)
        hits = HitMap()
    }

    /// The frame's size, columns × rows.
    public var size: Size { screen.size }

    /// Rows `rows` of this frame as a frame of their own (``Screen/rows(_:)``), with the hit map
    /// moved up to match: row `rows.lowerBound` becomes row 0.
    public func rows(_ rows: Range<Int>) -> Frame {
        var result = Frame(size: Size(width: size.width, height: rows.count))
        result.screen = screen.rows(rows)
        result.hits = hits.moved(rows: -rows.lowerBound)
        result.styles = styles
        return result
    }

    /// The screen as the terminal shows it: ``screen`` with ``styles`` applied to every cell.
    public var drawnScreen: Screen {
        guard let styles else { return screen }
        var drawn = screen
        drawn.restyle(with: styles)
        return drawn
    }
}

/// Rectangles of the screen and what lies under each, in drawing order: a later rectangle is
/// drawn over an earlier one, so lookups take the last that contains the position. A modal
/// layer first covers the whole screen with ``HitTarget/outside``, then marks its own parts.
public struct HitMap: Sendable {
    /// The regions marked, bottom first.
    public private(set) var regions: [(rect: Rect, target: HitTarget)] = []

    /// An empty map: every position is ``HitTarget/none``.
    public init() {}

    /// Marks `rect` as `target`, over whatever was marked there before.
    public mutating func mark(_ rect: Rect, _ target: HitTarget) {
        guard !rect.isEmpty else { return }
        regions.append((rect, target))
    }

    /// The same regions, each moved down by `rows` (up when negative).
    public func moved(rows: Int) -> HitMap {
        var result = HitMap()
        result.regions = regions.map { (Rect(x: $0.rect.x, y: $0.rect.y + rows, width: $0.rect.width, height: $0.rect.height), $0.target) }
        return result
    }

    /// What was drawn last at `position`, or ``HitTarget/none``.
    public func target(at position: Position) -> HitTarget {
        for region in regions.reversed() where region.rect.contains(position) { return region.target }
        return .none
    }
}
