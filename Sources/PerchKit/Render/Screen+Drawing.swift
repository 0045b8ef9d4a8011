/// Drawing pieces that panes and layers share.
extension Screen {
    /// A pane or sheet title in bold on `rect`'s first row, with a dim note (a count, a position)
    /// at its right end that keeps its place; the title gives way, with `…`.
    public mutating func header(_ title: String, trailing: String = "", in rect: Rect) {
        guard rect.height > 0 else { return }
        let width = DisplayWidth.columns(of: trailing)
        put(
            " " + title, column: rect.x, row: rect.y, style: .bold,
            width: Self.headerTitleColumns(trailing: trailing, width: rect.width) + 1)
        if !trailing.isEmpty && width + 8 < rect.width {
            put(trailing, column: rect.maxX - width - 1, row: rect.y, style: .dim)
        }
    }

    /// Columns a ``header(_:trailing:in:)`` `width` columns wide gives its title (after its
    /// leading space): all but the trailing note and a gap, when the note is shown (8 columns
    /// are left to the title at least, else the note is not).
    public static func headerTitleColumns(trailing: String, width: Int) -> Int {
        let note = DisplayWidth.columns(of: trailing)
        return (!trailing.isEmpty && note + 8 < width ? width - note - 2 : width) - 1
    }

    /// Writes `text` as ``put(_:column:row:style:width:)`` does, with the characters at
    /// `marked` (indices of grapheme clusters, ascending; a filter's matched letters) in
    /// `markStyle`; returns the column after the last one written. A text cut to fit (ending in
    /// `…`) has its marks inside the part shown.
    @discardableResult
    public mutating func put(
        _ text: String, column: Int, row: Int, style: Style = .plain, width: Int? = nil, marking marked: [Int], with markStyle: Style
    ) -> Int {
        guard !marked.isEmpty else { return put(text, column: column, row: row, style: style, width: width) }
        let limit = width.map { column + $0 } ?? size.width
        let fitted = DisplayWidth.fits(text, in: limit - column) ? text : DisplayWidth.truncated(text, to: limit - column)
        var x = column
        var run = ""
        var runMarked = false
        var next = 0
        // The `…` of a cut text stands for what is hidden: never marked.
        let shown = fitted != text ? fitted.count - 1 : Int.max
        for (index, character) in fitted.enumerated() {
            while next < marked.count && marked[next] < index { next += 1 }
            let isMarked = next < marked.count && marked[next] == index && index < shown
            if isMarked != runMarked && !run.isEmpty {
                x = put(run, column: x, row: row, style: runMarked ? markStyle : style, width: limit - x)
                run = ""
            }
            runMarked = isMarked
            run.append(character)
        }
        if !run.isEmpty { x = put(run, column: x, row: row, style: runMarked ? markStyle : style, width: limit - x) }
        return x
    }

    /// A box: `rect` cleared, with a border of rounded lines.
    public mutating func box(_ rect: Rect, style: Style = .dim) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        fill(rect)
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), with: "─", style: style)
        fill(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), with: "─", style: style)
        for row in rect.y..<rect.maxY {
            let (l, r) = row == rect.y ? ("╭", "╮") : row == rect.maxY - 1 ? ("╰", "╯") : ("│", "│")
            put(l, column: rect.x, row: row, style: style)
            put(r, column: rect.maxX - 1, row: row, style: style)
        }
    }

    /// Blanks the words that `rects` (boxes about to be drawn over the screen) cut at their left
    /// and right edges, so that no stray letter or mark stands beside a box's border: on each row
    /// of a box, the cells beside it up to the nearest blank or line-drawing one (a space, a
    /// rule, another border), the word's punctuation included. Cells inside any of `rects` are kept.
    public mutating func clearCutWords(beside rects: [Rect]) {
        func inside(_ column: Int, _ row: Int) -> Bool { rects.contains { $0.contains(Position(column: column, row: row)) } }
        func isWordCell(_ column: Int, _ row: Int) -> Bool {
            guard column >= 0, column < size.width, !inside(column, row) else { return false }
            let cell = self[column, row]
            if cell.isContinuation { return true }
            // Bug: the full stop of a word the help box cut stood beside its border.
            guard let scalar = cell.character.unicodeScalars.first, !cell.character.isWhitespace else { return false }
            return !(0x2500...0x259F).contains(scalar.value)  // box drawing and block elements end it
        }
        for rect in rects where rect.width > 0 {
            for row in max(0, rect.y)..<min(size.height, rect.maxY) {
                var column = rect.maxX
                while isWordCell(column, row) {
                    set(column: column, row: row, Cell(ascii: 0x20, style: self[column, row].style))
                    column += 1
                }
                column = rect.x - 1
                while isWordCell(column, row) {
                    set(column: column, row: row, Cell(ascii: 0x20, style: self[column, row].style))
                    column -= 1
                }
            }
        }
    }

    /// Dims everything drawn so far: the screen behind a context menu or an alert.
    public mutating func dimAll() {
        restyleAll { style in
            style.dim = true
            style.bold = false
            style.reverse = false
        }
    }
}
