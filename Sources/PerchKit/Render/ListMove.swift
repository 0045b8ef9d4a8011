/// A move every list's keys make: a row up or down (`↑ k`, `↓ j`), a page (`PgUp`, `PgDn`), the
/// first or the last row (`Home g`, `End G`). A component with a list takes it into its own verbs
/// (`case move(ListMove)`), binds its keys with ``rows(_:scrolling:)`` and carries it out on its
/// ``ListCursor`` with ``apply(to:count:visible:)`` (or ``scroll(_:count:visible:)`` for a list
/// without a cursor), so every list moves alike and help names the moves alike.
public enum ListMove: Hashable, Sendable, CaseIterable {
    case up, down, pageUp, pageDown, first, last

    /// Rows the mouse wheel moves a list, per notch.
    public static let rowsPerScrollNotch = 3

    /// Rows a page moves in a list showing `visible` rows: all but one, at least one.
    public static func pageStep(_ visible: Int) -> Int { max(1, visible - 1) }

    /// The key table rows of the moves, in the order help lists them, each meaning `verb(move)`;
    /// with `scrolling`, help says `scroll` for a row's move (a list without a cursor).
    public static func rows<Verb>(_ verb: (ListMove) -> Verb, scrolling: Bool = false) -> [KeyTable<Verb>.Row] {
        let row = scrolling ? "scroll" : "move"
        return [
            .init([KeyEvent(.up), .char("k")], "↑ k", "\(row) up", verb(.up)),
            .init([KeyEvent(.down), .char("j")], "↓ j", "\(row) down", verb(.down)),
            .init([KeyEvent(.pageUp)], "PgUp", "page up", verb(.pageUp)),
            .init([KeyEvent(.pageDown)], "PgDn", "page down", verb(.pageDown)),
            .init([KeyEvent(.home), .char("g")], "Home g", "first row", verb(.first)),
            .init([KeyEvent(.end), .char("G")], "End G", "last row", verb(.last)),
        ]
    }

    /// How many rows the move goes in a list of `count` rows showing `visible`: `first` and
    /// `last` go the whole list's length, which any cursor or scroll clamps.
    public func delta(count: Int, visible: Int) -> Int {
        switch self {
        case .up: -1
        case .down: 1
        case .pageUp: -Self.pageStep(visible)
        case .pageDown: Self.pageStep(visible)
        case .first: -max(1, count)
        case .last: max(1, count)
        }
    }

    /// Moves `list`'s cursor in a list of `count` rows showing `visible` (`first` and `last` to
    /// row 0 and row `count - 1`).
    public func apply(to list: inout ListCursor, count: Int, visible: Int) {
        switch self {
        case .first: list.moveTo(0, count: count, visible: visible)
        case .last: list.moveTo(count - 1, count: count, visible: visible)
        default: list.move(by: delta(count: count, visible: visible), count: count, visible: visible)
        }
    }

    /// Scrolls a list without a cursor (its scroll is `list`'s) of `count` rows showing `visible`.
    public func scroll(_ list: inout ListCursor, count: Int, visible: Int) {
        list.scroll(by: delta(count: count, visible: visible), count: count, visible: visible)
    }
}
