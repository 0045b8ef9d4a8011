/// What one render produces: the cells to show and a map of what was drawn where, which
/// hit-testing reads (a click goes to what the person sees).
public struct Frame: Sendable {
    /// The cells drawn.
    public var screen: Screen
    /// What was drawn where, for hit-testing.
    public var hits: HitMap

    /// A blank frame of `size` (columns × rows) where nothing reacts to the pointer.
    public init(size: Size) {
        screen = Screen(size: size)
        hits = HitMap()
    }

    /// The frame's size, columns × rows.
    public var size: Size { screen.size }
}

/// Rectangles of the screen and what lies under each, in drawing order: a later rectangle is
/// drawn over an earlier one, so lookups take the last that contains the position. A modal
/// layer first covers the whole screen with ``HitTarget/outside``, then marks its own parts.
public struct HitMap: Sendable {
    /// The regions marked, bottom first.
    public private(set) var regions: [(rect: Rect, target: HitTarget)] = []

    public init() {}

    /// Marks `rect` as `target`, over whatever was marked there before.
    public mutating func mark(_ rect: Rect, _ target: HitTarget) {
        guard !rect.isEmpty else { return }
        regions.append((rect, target))
    }

    /// What was drawn last at `position`, or ``HitTarget/none``.
    public func target(at position: Position) -> HitTarget {
        for region in regions.reversed() where region.rect.contains(position) { return region.target }
        return .none
    }
}
