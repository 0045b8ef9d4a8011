/// Height a sheet rests at (UISheetPresentationController's detents, in rows).
public enum SheetDetent: Hashable, Sendable, CaseIterable {
    /// As tall as its content, capped so that ``SheetLayout/minimumRowsAbove`` rows stay visible.
    case fit
    /// All of the screen but its top row.
    case large
}

/// How the sheet sits on the screen.
public enum SheetStyle: String, Hashable, Sendable, CaseIterable {
    /// Full width, square top edge (the default).
    case edgeToEdge = "edge to edge"
    /// One column of margin on each side, rounded corners.
    case inset
}

/// An animation of a sheet's height, from ``from`` rows to the sheet's current target.
public struct HeightAnimation: Hashable, Sendable {
    /// Height when the animation started, in rows.
    public var from: Int
    /// Clock time the animation started, in milliseconds.
    public var start: Int64

    /// An animation from a height of `from` rows, started at `start` (milliseconds on the clock).
    public init(from: Int, start: Int64) {
        self.from = from
        self.start = start
    }
}
