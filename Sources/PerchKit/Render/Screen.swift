/// A rectangle of cells that rendering writes into and a backend draws.
///
/// Everything written is clipped to the screen; nothing can land outside it.
/// Tests compare ``lines`` with the expected text.
public struct Screen: Hashable, Sendable {
    /// Columns × rows.
    public let size: Size
    /// Row-major cells, `size.width * size.height` of them.
    public private(set) var cells: [Cell]

    /// Largest screen laid out, columns × rows. A terminal reporting more (a window size is up to
    /// 65535 × 65535) is drawn in its top-left part, so a frame never takes more than 500,000
    /// cells.
    public static let maximumSize = Size(width: 1000, height: 500)

    /// `size` limited to ``maximumSize``, columns × rows.
    public static func capped(_ size: Size) -> Size {
        Size(width: min(size.width, maximumSize.width), height: min(size.height, maximumSize.height))
    }

    /// A blank screen of `size` (columns × rows).
    public init(size: Size) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.width * size.height)
    }

    /// The cell at 0-based `column`, `row` (both must be on the screen).
    public subscript(column: Int, row: Int) -> Cell {
        cells[row * size.width + column]
    }

    /// Rows `rows` of this screen as a screen of their own, as wide as this one; rows past its
    /// bottom (or above its top) are blank.
    public func rows(_ rows: Range<Int>) -> Screen {
        var result = Screen(size: Size(width: size.width, height: rows.count))
        let kept = rows.clamped(to: 0..<size.height)
        guard !kept.isEmpty else { return result }
        let start = (kept.lowerBound - rows.lowerBound) * size.width
        result.cells.replaceSubrange(
            start..<(start + kept.count * size.width), with: cells[(kept.lowerBound * size.width)..<(kept.upperBound * size.width)])
        return result
    }

    /// The text of each row, continuation cells left out (so a wide character reads once).
    public var lines: [String] {
        (0..<size.height).map { row in
            var line = ""
            for column in 0..<size.width where !self[column, row].isContinuation {
                line.append(self[column, row].character)
            }
            return line
        }
    }

    /// The whole screen as text, rows joined by newlines, trailing spaces kept.
    public var text: String { lines.joined(separator: "\n") }

    /// Writes `text` from (`column`, `row`) in `style`, at most `width` columns (default: to the
    /// right edge); returns the column after the last one written. Text that does not fit ends in
    /// `…`; each grapheme cluster is drawn as ``DisplayWidth/drawable(_:)`` (controls as U+FFFD) and takes ``DisplayWidth/columns(of:)`` cells,
    /// the first holding it and the rest marked as continuations.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, style: Style = .plain, width: Int? = nil) -> Int {
        guard row >= 0, row < size.height else { return column }
        let limit = min(size.width, width.map { column + $0 } ?? size.width)
        let fitted = DisplayWidth.fits(text, in: limit - column) ? text : DisplayWidth.truncated(text, to: limit - column)
        if column >= 0, DisplayWidth.isPrintableASCII(fitted) {
            // Most text: one cell per byte. Only a wide character across either end of the span
            // needs detaching; every cell inside it is overwritten.
            let end = column + fitted.utf8.count
            guard end > column else { return column }
            detachWideCharacters(column: column, row: row)
            detachWideCharacters(column: end - 1, row: row)
            var index = row * size.width + column
            for byte in fitted.utf8 {
                cells[index] = Cell(ascii: byte, style: style)
                index += 1
            }
            return end
        }
        if column >= 0, fitted.unicodeScalars.allSatisfy(DisplayWidth.isOneColumnCluster) {
            // Letters, dashes, arrows, box lines and blocks: one cell a scalar, each its own
            // cluster, so no segmentation into characters (a chart row is 48 of them).
            let end = column + fitted.unicodeScalars.count
            detachWideCharacters(column: column, row: row)
            detachWideCharacters(column: end - 1, row: row)
            var index = row * size.width + column
            for scalar in fitted.unicodeScalars {
                cells[index] = Cell(scalar, style: style)
                index += 1
            }
            return end
        }
        var x = column
        // Places one character `w` columns wide; false when it does not fit (the rest is padded).
        func place(_ cell: Cell, width w: Int) -> Bool {
            if x + w > limit {
                // Only when `…` itself could not be placed; pad instead of cutting a character.
                for pad in max(0, x)..<max(0, limit) { set(column: pad, row: row, Cell(ascii: 0x20, style: style)) }
                x = limit
                return false
            }
            if x >= 0 {
                detachWideCharacters(column: x, row: row)
                if w > 1 { detachWideCharacters(column: x + w - 1, row: row) }
                cells[row * size.width + x] = cell
                for extra in 1..<max(1, w) { cells[row * size.width + x + extra] = Cell(" ", style: style, isContinuation: true) }
            } else {
                // The character starts left of the screen: show spaces for its visible part.
                for pad in 0..<max(0, min(x + w, limit)) { set(column: pad, row: row, Cell(ascii: 0x20, style: style)) }
            }
            x += w
            return true
        }
        for raw in fitted {
            // Printable ASCII in mixed text (a row with a `·` in it) needs no look-ups either.
            if raw.utf8.count == 1, let byte = raw.utf8.first, byte >= 0x20, byte < 0x7F {
                guard place(Cell(ascii: byte, style: style), width: 1) else { return limit }
                continue
            }
            // One safe scalar (a bar, a box line, `·`) is drawn as it is: no cluster to rework.
            let scalars = raw.unicodeScalars
            if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex, !DisplayWidth.isUnsafe(only) {
                let w = DisplayWidth.columns(of: only)
                if w > 0, !place(Cell(raw, style: style), width: w) { return limit }
                continue
            }
            for character in DisplayWidth.drawable(raw) {
                let w = DisplayWidth.columns(of: character)
                if w == 0 { continue }
                guard place(Cell(character, style: style), width: w) else { return limit }
            }
        }
        return x
    }

    /// Fills `rect` (clipped) with `character` in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let x0 = max(0, rect.x)
        let x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y)
        let y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let cell = Cell(character, style: style)
        for y in y0..<y1 {
            detachWideCharacters(column: x0, row: y)
            detachWideCharacters(column: x1 - 1, row: y)
        }
        // One stretch of cells a row, written through the buffer: no bounds or uniqueness check
        // per cell (a full-screen fill is 12,000 cells at 200×60).
        let width = size.width
        cells.withUnsafeMutableBufferPointer { cells in
            for y in y0..<y1 {
                UnsafeMutableBufferPointer(rebasing: cells[(y * width + x0)..<(y * width + x1)]).update(repeating: cell)
            }
        }
    }

    /// Copies every cell of `block` so that its top-left cell lands on (`column`, `row`) (0-based,
    /// in cells; either may be negative or past the edge), clipped to this screen: what drawing `block`'s content there would have written over blank cells.
    /// A wide character of this screen cut at either edge of the copy is detached first, and one
    /// of `block`'s cut by either edge of the copy becomes spaces.
    public mutating func paste(_ block: Screen, column: Int, row: Int) {
        let x0 = max(0, column)
        let x1 = min(size.width, column + block.size.width)
        let y0 = max(0, row)
        let y1 = min(size.height, row + block.size.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            detachWideCharacters(column: x0, row: y)
            detachWideCharacters(column: x1 - 1, row: y)
            let from = (y - row) * block.size.width + (x0 - column)
            cells.replaceSubrange((y * size.width + x0)..<(y * size.width + x1), with: block.cells[from..<(from + x1 - x0)])
            // A character of `block` cut by either edge of the copy is shown as spaces.
            let start = y * size.width
            if cells[start + x0].isContinuation {
                var x = x0
                while x < x1, cells[start + x].isContinuation {
                    cells[start + x] = Cell(ascii: 0x20, style: cells[start + x].style)
                    x += 1
                }
            }
            if x1 - column < block.size.width, block[x1 - column, y - row].isContinuation {
                var x = x1 - 1
                while x > x0, cells[start + x].isContinuation { x -= 1 }
                for pad in x..<x1 { cells[start + pad] = Cell(ascii: 0x20, style: cells[start + pad].style) }
            }
        }
    }

    /// Applies `change` to the style of every cell in `rect` (clipped).
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let x0 = max(0, rect.x)
        let x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y)
        let y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 { change(&cells[y * size.width + x].style) }
        }
    }

    /// Applies `change` to the style of every cell, in place: inlined with its closure, so no
    /// call is made per cell (12,000 of them at 200×60).
    @inline(__always)
    public mutating func restyleAll(_ change: (inout Style) -> Void) {
        cells.withUnsafeMutableBufferPointer { cells in
            for index in cells.indices { change(&cells[index].style) }
        }
    }

    /// Gives every coloured or dim cell the style `map` gives its style; other cells are left as
    /// they are.
    public mutating func restyle(with map: StyleMap) {
        // One test per cell, and a store only where the style changes (12,000 cells at 200×60).
        cells.withUnsafeMutableBufferPointer { cells in
            for index in cells.indices {
                let style = cells[index].style
                guard style.hasColorOrDim else { continue }
                let mapped = map[style]
                if mapped != style { cells[index].style = mapped }
            }
        }
    }

    /// Writes `cell` as it is at 0-based `column`, `row`; nothing happens off the screen. A wide
    /// character the cell lands on any part of is blanked first, so none is left half drawn.
    /// The cell's width is not measured: text goes through ``put(_:column:row:style:width:)``.
    public mutating func set(column: Int, row: Int, _ cell: Cell) {
        guard column >= 0, column < size.width, row >= 0, row < size.height else { return }
        detachWideCharacters(column: column, row: row)
        cells[row * size.width + column] = cell
    }

    /// Before the cell at (`column`, `row`) is overwritten: if it belongs to a character wider
    /// than one column, blanks that whole character, so no part of one is ever left on a row.
    private mutating func detachWideCharacters(column: Int, row: Int) {
        guard column >= 0, column < size.width, row >= 0, row < size.height else { return }
        let rowStart = row * size.width
        var start = column
        while start > 0, cells[rowStart + start].isContinuation { start -= 1 }
        var end = start + 1
        while end < size.width, cells[rowStart + end].isContinuation { end += 1 }
        guard end - start > 1 else { return }
        for x in start..<end { cells[rowStart + x] = Cell(" ", style: cells[rowStart + x].style) }
    }
}
