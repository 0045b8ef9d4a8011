/// A cursor in a scrolling list: which row is selected and which row is at the top of the viewport.
///
/// It remembers the scroll position last chosen by a move or a scroll, so that a viewport that
/// shrinks and grows again (a resize) brings that position back; two cursors are equal when their
/// cursor and scroll are.
public struct ListCursor: Hashable, Sendable {
    /// Index of the selected row.
    public var cursor: Int
    /// Index of the first visible row.
    public var scroll: Int {
        didSet { if !clamping { preferredScroll = scroll } }
    }
    /// The scroll position last chosen (by a move or a scroll), which ``clamp(count:visible:)``
    /// goes back to when it can.
    public private(set) var preferredScroll: Int
    private var clamping = false

    /// A cursor on row `cursor` with row `scroll` at the top, which is also the preferred scroll
    /// position. Neither is clamped until a move or ``clamp(count:visible:)``.
    public init(cursor: Int = 0, scroll: Int = 0) {
        self.cursor = cursor
        self.scroll = scroll
        self.preferredScroll = scroll
    }

    /// Equal when cursor and scroll are; the preferred scroll position is not compared.
    public static func == (lhs: ListCursor, rhs: ListCursor) -> Bool { lhs.cursor == rhs.cursor && lhs.scroll == rhs.scroll }
    /// Hashes cursor and scroll, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(cursor)
        hasher.combine(scroll)
    }

    /// Moves the cursor by `delta` rows within `0..<count`, keeping it inside a viewport of `visible` rows.
    public mutating func move(by delta: Int, count: Int, visible: Int) {
        moveTo(cursor + delta, count: count, visible: visible)
    }

    /// Puts the cursor on `index` (clamped to `0..<count`), keeping it inside a viewport of `visible` rows.
    public mutating func moveTo(_ index: Int, count: Int, visible: Int) {
        cursor = max(0, min(index, count - 1))
        clamp(count: count, visible: visible)
        preferredScroll = scroll
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
    /// The scroll position last chosen is kept when the cursor is in view there; otherwise the
    /// cursor keeps its distance from the top as far as the viewport allows. So a resize to a
    /// small screen and back brings the list back as it was.
    public mutating func clamp(count: Int, visible: Int) {
        clamping = true
        defer { clamping = false }
        cursor = max(0, min(cursor, count - 1))
        guard visible > 0 else {
            scroll = cursor
            return
        }
        let anchor = preferredScroll
        if cursor >= anchor, cursor < anchor + visible {
            scroll = anchor
        } else {
            scroll = cursor - max(0, min(cursor - anchor, visible - 1))
        }
        scroll = max(0, min(scroll, max(0, count - visible)))
    }
}
