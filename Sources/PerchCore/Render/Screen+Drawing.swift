/// Drawing pieces that panes and layers share.
extension Screen {
    /// A pane or sheet title in bold on `rect`'s first row, with a dim note (a count, a position)
    /// at its right end that keeps its place; the title gives way, with `…`.
    mutating func header(_ title: String, trailing: String = "", in rect: Rect) {
        guard rect.height > 0 else { return }
        let width = DisplayWidth.columns(of: trailing)
        let showTrailing = !trailing.isEmpty && width + 8 < rect.width
        let titleWidth = showTrailing ? rect.width - width - 2 : rect.width
        put(" " + title, column: rect.x, row: rect.y, style: .bold, width: titleWidth)
        if showTrailing {
            put(trailing, column: rect.maxX - width - 1, row: rect.y, style: .dim)
        }
    }

    /// A box: `rect` cleared, with a border of rounded lines.
    mutating func box(_ rect: Rect, style: Style = .dim) {
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

    /// Dims everything drawn so far: the screen behind a context menu or an alert.
    mutating func dimAll() {
        restyle(Rect(x: 0, y: 0, width: size.width, height: size.height)) { style in
            style.dim = true
            style.bold = false
            style.reverse = false
        }
    }
}
