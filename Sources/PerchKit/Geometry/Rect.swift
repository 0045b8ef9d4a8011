/// A rectangle of cells: origin at (`x`, `y`) (column, row, 0-based), `width` columns by `height` rows.
public struct Rect: Hashable, Sendable {
    /// 0-based column of the left edge.
    public var x: Int
    /// 0-based row of the top edge.
    public var y: Int
    /// Width in columns.
    public var width: Int
    /// Height in rows.
    public var height: Int

    /// Creates a rectangle; negative sizes are clamped to 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// One past the last row.
    public var maxY: Int { y + height }
    /// One past the last column.
    public var maxX: Int { x + width }
    /// Whether it holds no cell (no width or no height).
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether `position` lies inside the rectangle.
    public func contains(_ position: Position) -> Bool {
        position.column >= x && position.column < maxX && position.row >= y && position.row < maxY
    }
}
