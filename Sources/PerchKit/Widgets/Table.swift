/// A scrolling table: a header row of column titles over rows of cells, a cursor row drawn
/// selected, and a filter that keeps the rows with a cell holding its text. A value the
/// component that holds it moves (``move(_:visible:)``, ``setFilter(_:visible:)``) and draws
/// (``render(into:in:focused:)``); a table of one column is a list.
///
/// ```swift
/// var table = Table(columns: [.init("Name", .fill(2)), .init("Size", .fixed(8), alignment: .trailing)],
///                   rows: files.map { [$0.name, "\($0.size)"] })
/// table.move(.down, visible: Table.visibleRows(in: area))
/// table.render(into: &frame, in: area, focused: true)
/// ```
public struct Table: Hashable, Sendable {
    /// One column: its title, its width (``LayoutSize``, over the table's width less one column
    /// between two columns) and which side its cells keep to.
    public struct Column: Hashable, Sendable {
        /// The title in the header row.
        public var title: String
        /// How wide it is.
        public var size: LayoutSize
        /// Which side its text keeps to.
        public var alignment: Alignment

        /// A column titled `title`, `size` wide, its text to the `alignment` side.
        public init(_ title: String, _ size: LayoutSize = .fill, alignment: Alignment = .leading) {
            self.title = title
            self.size = size
            self.alignment = alignment
        }
    }

    /// Which side of its column a cell's text keeps to.
    public enum Alignment: Hashable, Sendable { case leading, trailing }

    /// What the table marks in the hit map: a shown row, by its index in ``rows``. A component
    /// reads it back from a tap with `target.part(Table.Part.self)`.
    public enum Part: HitPart { case row(Int) }

    /// The columns, left to right.
    public var columns: [Column]
    /// Every row, as many cells as columns (missing cells are blank), in order.
    public private(set) var rows: [[String]]
    /// The filter: rows shown are those with a cell that holds it, ignoring case; empty shows all.
    public private(set) var filter = ""
    /// Indices in ``rows`` of the rows shown, in order.
    public private(set) var shown: [Int]
    /// The cursor and scroll, over ``shown``.
    public private(set) var list = ListCursor()
    /// The header row's style: bold by default. A style with a background fills the whole row
    /// (a band across the table), dropped with `NO_COLOR` as every colour is.
    public var headerStyle = Style.bold

    /// A table of `rows` under `columns`, the cursor on the first row.
    public init(columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
        self.shown = Array(rows.indices)
    }

    /// Rows of cells a table drawn in `area` shows: its height less the header row.
    public static func visibleRows(in area: Rect) -> Int { max(0, area.height - 1) }

    /// The index in ``rows`` of the row under the cursor, or nil when no row is shown.
    public var selected: Int? { shown.indices.contains(list.cursor) ? shown[list.cursor] : nil }

    /// Replaces the rows (new data), keeping the filter, and the cursor where it was when there
    /// are enough rows.
    public mutating func replaceRows(_ rows: [[String]], visible: Int) {
        self.rows = rows
        refilter(visible: visible)
    }

    /// Shows only the rows with a cell holding `text` (ignoring case); the cursor goes to the
    /// first of them.
    public mutating func setFilter(_ text: String, visible: Int = .max) {
        filter = text
        list = ListCursor()
        refilter(visible: visible)
    }

    /// Moves the cursor (``ListMove``) in a table showing `visible` rows of cells.
    public mutating func move(_ move: ListMove, visible: Int) {
        let delta = move.delta(count: shown.count, visible: visible)
        list.move(by: delta, count: shown.count, visible: visible)
    }

    /// Scrolls by `delta` rows (the mouse wheel), the cursor kept in view.
    public mutating func scroll(by delta: Int, visible: Int) { list.scroll(by: delta, count: shown.count, visible: visible) }

    /// Puts the cursor on the shown row drawn at `row` of `area` (a click), when there is one;
    /// returns whether there was.
    @discardableResult
    public mutating func select(row: Int, in area: Rect) -> Bool {
        list.clamp(count: shown.count, visible: Self.visibleRows(in: area))
        let index = list.scroll + row - area.y - 1
        guard row > area.y, shown.indices.contains(index) else { return false }
        list.moveTo(index, count: shown.count, visible: Self.visibleRows(in: area))
        return true
    }

    /// The columns' rects across `area` (one blank column between two).
    public func columnRects(in area: Rect) -> [Rect] { area.columns(columns.map(\.size), spacing: 1) }

    /// Draws the header row (in ``headerStyle``) and the shown rows into `area`, the cursor's row selected when
    /// `focused` (underlined otherwise); each row is marked in the hit map as ``Part/row(_:)``
    /// with its index in ``rows``. A cell too long for its column ends in `…`; with no row to
    /// show, "No rows" or "No match for …" stands under the header.
    public func render(into frame: inout Frame, in area: Rect, focused: Bool) {
        guard area.height > 0, area.width > 0 else { return }
        let rects = columnRects(in: area)
        if headerStyle.background != nil { frame.screen.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1), style: headerStyle) }
        for (column, rect) in zip(columns, rects) {
            put(column.title, in: rect, row: area.y, alignment: column.alignment, style: headerStyle, screen: &frame.screen)
        }
        let visible = Self.visibleRows(in: area)
        // The cursor and scroll as they fit this area (bug: a table grown taller kept the scroll
        // a shorter one needed, rows above it hidden and blank rows below).
        var list = self.list
        list.clamp(count: shown.count, visible: visible)
        if shown.isEmpty, visible > 0 {
            let text = rows.isEmpty ? "No rows" : "No match for \"\(filter)\""
            frame.screen.put(text, column: area.x, row: area.y + 1, style: .dim, width: area.width)
            return
        }
        for offset in 0..<visible {
            let index = list.scroll + offset
            guard shown.indices.contains(index) else { break }
            let row = area.y + 1 + offset
            let cells = rows[shown[index]]
            let isCursor = index == list.cursor
            let style: Style = isCursor ? (focused ? .selected : Style(underline: true)) : .plain
            if isCursor { frame.screen.fill(Rect(x: area.x, y: row, width: area.width, height: 1), style: style) }
            for (column, (rect, spec)) in zip(rects, columns).enumerated() {
                put(
                    column < cells.count ? cells[column] : "", in: rect, row: row, alignment: spec.alignment, style: style,
                    screen: &frame.screen)
            }
            frame.hits.mark(Rect(x: area.x, y: row, width: area.width, height: 1), .hit(Part.row(shown[index])))
        }
    }

    /// `text` in `rect`'s columns on `row`, cut with `…`, kept to `alignment`'s side.
    private func put(_ text: String, in rect: Rect, row: Int, alignment: Alignment, style: Style, screen: inout Screen) {
        guard rect.width > 0 else { return }
        let fitted = DisplayWidth.truncated(text, to: rect.width)
        let column = alignment == .trailing ? rect.maxX - DisplayWidth.columns(of: fitted) : rect.x
        screen.put(fitted, column: column, row: row, style: style, width: rect.maxX - column)
    }

    /// ``shown`` again for the filter, the cursor clamped.
    private mutating func refilter(visible: Int) {
        let needle = filter.lowercased()
        shown = needle.isEmpty ? Array(rows.indices) : rows.indices.filter { rows[$0].contains { $0.lowercased().contains(needle) } }
        list.clamp(count: shown.count, visible: visible == .max ? shown.count : visible)
    }
}
