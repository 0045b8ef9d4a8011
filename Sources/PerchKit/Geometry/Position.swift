/// A cell position: 0-based `column` from the left and `row` from the top.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Column, 0-based, counted from the left edge.
    public var column: Int
    /// Row, 0-based, counted from the top edge.
    public var row: Int

    /// The cell at 0-based `column` and `row` (not clamped: a position may lie off the screen).
    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    /// `(column,row)`, e.g. `(3,0)`.
    public var description: String { "(\(column),\(row))" }
}
