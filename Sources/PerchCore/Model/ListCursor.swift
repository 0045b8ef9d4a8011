/// A cursor in a scrolling list: which row is selected and which row is at the top of the viewport.
public struct ListCursor: Hashable, Sendable {
    /// Index of the selected row.
    public var cursor: Int
    /// Index of the first visible row.
    public var scroll: Int

    public init(cursor: Int = 0, scroll: Int = 0) {
        self.cursor = cursor
        self.scroll = scroll
    }

    /// Moves the cursor by `delta` rows within `0..<count`, keeping it inside a viewport of `visible` rows.
    public mutating func move(by delta: Int, count: Int, visible: Int) {
        moveTo(cursor + delta, count: count, visible: visible)
    }

    /// Puts the cursor on `index` (clamped to `0..<count`), keeping it inside a viewport of `visible` rows.
    public mutating func moveTo(_ index: Int, count: Int, visible: Int) {
        cursor = max(0, min(index, count - 1))
        clamp(count: count, visible: visible)
    }

    /// Scrolls the viewport by `delta` rows, then pulls the cursor into view.
    public mutating func scroll(by delta: Int, count: Int, visible: Int) {
        let lastTop = max(0, count - max(visible, 1))
        scroll = max(0, min(scroll + delta, lastTop))
        if visible > 0 {
            cursor = max(scroll, min(cursor, scroll + visible - 1))
        }
        cursor = max(0, min(cursor, count - 1))
    }

    /// Re-establishes the invariants after the count or viewport changed: the cursor is a valid
    /// row, it is visible, and the viewport shows no empty rows past the end when it could avoid it.
    public mutating func clamp(count: Int, visible: Int) {
        cursor = max(0, min(cursor, count - 1))
        guard visible > 0 else {
            scroll = cursor
            return
        }
        if cursor < scroll { scroll = cursor }
        if cursor >= scroll + visible { scroll = cursor - visible + 1 }
        scroll = max(0, min(scroll, max(0, count - visible)))
    }
}
