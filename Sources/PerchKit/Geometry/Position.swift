/// A cell position: 0-based `column` from the left and `row` from the top.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Column, 0-based, counted from the left edge.
    public var column: Int
    /// Row, 0-based, counted from the top edge.
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    public var description: String { "(\(column),\(row))" }
}
