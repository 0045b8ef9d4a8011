/// The rows of a sheet as its list sees them: how many there are, and which take the cursor (a
/// group heading does not). Read each time, never kept: a sheet over 100,000 rows asks only
/// about the rows it moves over.
public protocol SheetRows {
    /// Rows in the list, headings included.
    var count: Int { get }
    /// Whether row `index` (below ``count``) can take the cursor.
    func takesCursor(_ index: Int) -> Bool
}

/// What every bottom sheet over a list keeps and does, whatever its rows are: the cursor, which
/// steps over rows that take none (group headings); a filter typed after `/` (at most
/// ``maximumFilterLength`` characters, no controls or line breaks); and how it moves
/// (``SheetMotion``: detents, the grabber's drag, the rise and the slide away).
///
/// ``Sheet`` is a list of items on one; a layer with rows of its own (built only where shown,
/// filtered by its own matcher) holds one and hands it what they share (``move(_:rows:_:)``,
/// ``setDetent(_:rows:_:)``, ``endDrag(atRow:rows:_:)``, ``type(_:)``) and draws its own rows
/// in the layout the list's motion gives.
public struct SheetList: Hashable, Sendable {
    /// The row under the cursor and the first row shown.
    public var cursor = ListCursor()
    /// The detent, the drag, the dismissal and the animation.
    public var motion: SheetMotion
    /// The filter typed after `/`, or nil when there is none.
    public var filter: String?
    /// Whether typed keys go to the filter.
    public var isEditingFilter = false

    /// Longest filter kept, in characters; more typed or pasted text is dropped.
    public static let maximumFilterLength = 64

    /// A list at rest at the fit detent, its cursor on the first row, no filter.
    public init(motion: SheetMotion = SheetMotion()) { self.motion = motion }

    /// The layout it rests at when its animation ends, for `rows` on a screen of `size`: cursor
    /// moves page by its visible rows.
    public func restingLayout(_ rows: some SheetRows, _ size: Size) -> SheetLayout {
        motion.restingLayout(rowCount: rows.count, size)
    }

    /// Puts the cursor on row `index` (clamped), stepping on in `direction` (+1 or −1) past rows
    /// that take no cursor, or back the other way at the end of the list; nowhere when no row
    /// takes it.
    public mutating func moveCursor(to index: Int, direction: Int, rows: some SheetRows, _ size: Size) {
        let count = rows.count
        let visible = restingLayout(rows, size).visibleRows
        guard count > 0 else {
            cursor = ListCursor()
            return
        }
        var target = max(0, min(index, count - 1))
        var step = direction
        while !rows.takesCursor(target) {
            if !(0..<count).contains(target + step) { step = -step }
            target += step
            guard (0..<count).contains(target) else { return }
        }
        cursor.moveTo(target, count: count, visible: visible)
    }

    /// Moves the cursor as `move` says (`Home` to the first row that takes it, `End` to the last,
    /// else by the move's rows or pages), stepping over rows that take none.
    public mutating func move(_ move: ListMove, rows: some SheetRows, _ size: Size) {
        switch move {
        case .first: moveCursor(to: 0, direction: 1, rows: rows, size)
        case .last: moveCursor(to: rows.count - 1, direction: -1, rows: rows, size)
        default:
            let delta = move.delta(count: rows.count, visible: restingLayout(rows, size).visibleRows)
            moveCursor(to: cursor.cursor + delta, direction: delta < 0 ? -1 : 1, rows: rows, size)
        }
    }

    /// Moves the cursor a row a notch of the wheel (`notches` < 0: up), stepping over rows that
    /// take none: in a list as short as a sheet's, a row a notch lands where the pointer's user
    /// looks.
    public mutating func scroll(byNotches notches: Int, rows: some SheetRows, _ size: Size) {
        guard notches != 0 else { return }
        moveCursor(to: cursor.cursor + notches, direction: notches < 0 ? -1 : 1, rows: rows, size)
    }

    /// Keeps the cursor and scroll within `rows` after the size or the rows changed.
    public mutating func clamp(_ rows: some SheetRows, _ size: Size) {
        cursor.clamp(count: rows.count, visible: restingLayout(rows, size).visibleRows)
    }

    /// Rests at `detent` from now on (its height animates there), the cursor kept in view.
    public mutating func setDetent(_ detent: SheetDetent, rows: some SheetRows, _ size: Size) {
        motion.detent = detent
        clamp(rows, size)
    }

    /// Follows the grabber dragged to screen row `row` (kept below the top row).
    public mutating func drag(toRow row: Int, _ size: Size) {
        motion.dragTop = max(1, min(row, size.height - 1))
    }

    /// Ends a drag of the grabber let go at screen row `row` (``SheetMotion/endDrag(at:rowCount:_:)``):
    /// false when it was let go low enough to close, else true, resting at the nearer detent with
    /// the cursor in view.
    public mutating func endDrag(atRow row: Int, rows: some SheetRows, _ size: Size) -> Bool {
        guard motion.endDrag(at: row, rowCount: rows.count, size) else { return false }
        clamp(rows, size)
        return true
    }

    /// Starts typing a filter (an empty one when there was none).
    public mutating func startFilter() {
        isEditingFilter = true
        filter = filter ?? ""
    }

    /// Clears the filter and stops typing it.
    public mutating func clearFilter() {
        isEditingFilter = false
        filter = nil
    }

    /// Deletes the filter's last character, when it has one.
    public mutating func deleteBackward() {
        if filter?.isEmpty == false { filter?.removeLast() }
    }

    /// Types `text` into the filter (starting one if needed): controls and line breaks are left
    /// out, and the filter stops at ``maximumFilterLength`` characters. Returns the filter as it
    /// was, from which the new one grew (a matcher may search only the previous matches).
    @discardableResult
    public mutating func type(_ text: String) -> String? {
        let previous = filter
        let typed = text.filter { c in !c.isNewline && c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        filter = String(((filter ?? "") + typed).prefix(Self.maximumFilterLength))
        isEditingFilter = true
        return previous
    }

    /// Draws the title line in `rect` (``Screen/header(_:trailing:in:)``): `/ ` and the filter
    /// (with a bar while it is typed) when there is one, else `title`; `trailing` (a count) on
    /// the right. A filter longer than the line keeps its end and the bar in view, its start
    /// dropped for `…`.
    // Bug: a long filter was cut at its end, so what was typed next and the bar never showed.
    public func drawTitle(_ title: String, trailing: String, into screen: inout Screen, in rect: Rect) {
        screen.header(titleText(title, trailing: trailing, width: rect.width), trailing: trailing, in: rect)
    }

    /// The text ``drawTitle(_:trailing:into:in:)`` draws on a line `width` columns wide.
    func titleText(_ title: String, trailing: String, width: Int) -> String {
        guard let filter else { return title }
        let bar = isEditingFilter ? "▏" : ""
        let room = Screen.headerTitleColumns(trailing: trailing, width: width) - 2 - DisplayWidth.columns(of: bar)
        return "/ " + DisplayWidth.truncatedLeading(filter, to: max(1, room)) + bar
    }

    /// The keys of a sheet while its filter is typed, in the order help lists them: `Esc`
    /// clears the filter, `Enter` picks (help says what it `picks`: "pick", "open it"),
    /// `↑`, `↓`, `PgUp`, `PgDn`, `Home` and `End` move (`k`, `j`, `g` and `G` are the filter's
    /// text), `Backspace` deletes; every other printable key types.
    public static func filterKeyTable<Verb: Hashable & Sendable>(
        picks: String, pick: Verb, clear: Verb, deleteBackward: Verb, move: (ListMove) -> Verb
    ) -> KeyTable<Verb> {
        KeyTable(
            "Sheet filter",
            [
                .init([KeyEvent(.escape)], "Esc", "clear the filter", clear),
                .init([KeyEvent(.enter)], "Enter", picks, pick),
                .init([KeyEvent(.up)], "↑", "move up", move(.up)),
                .init([KeyEvent(.down)], "↓", "move down", move(.down)),
                // Bug: PgUp, PgDn, Home and End did nothing once a filter was typed (the docs
                // list them).
                .init([KeyEvent(.pageUp)], "PgUp", "page up", move(.pageUp)),
                .init([KeyEvent(.pageDown)], "PgDn", "page down", move(.pageDown)),
                .init([KeyEvent(.home)], "Home", "first row", move(.first)),
                .init([KeyEvent(.end)], "End", "last row", move(.last)),
                .init([KeyEvent(.backspace)], "Backspace", "delete a character", deleteBackward),
                .init([], "type or paste", "narrow the list", nil),
            ], takesTyping: true)
    }

    /// Moves the height animation on (``SheetMotion/advance(rowCount:_:clock:reduceMotion:)``);
    /// false once it has slid away.
    public mutating func advance(_ rows: some SheetRows, _ context: Context) -> Bool {
        motion.advance(rowCount: rows.count, context.size, clock: context.clock, reduceMotion: context.reduceMotion)
    }

    /// Slides away (``SheetMotion/close()``), or goes at once when motion is reduced (false).
    public mutating func beginDismissal(_ context: Context) -> Bool {
        guard !context.reduceMotion else { return false }
        motion.close()
        return true
    }
}
