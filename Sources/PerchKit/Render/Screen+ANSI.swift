extension Screen {
    /// Row `row` as text for a terminal, with SGR attributes (ECMA-48 §8.3.117, colours 30–37)
    /// changed only where the style changes, ending in the default style. Continuation cells of
    /// wide characters are left out. Used by a backend that draws without ncurses
    /// (`LineModeBackend`).
    /// - Parameters:
    ///   - row: 0-based row, which must be on the screen.
    ///   - colors: false leaves out colours (`NO_COLOR`), keeping bold, dim, underline and reverse.
    /// - Returns: at most ``size``.width columns of text, with no cursor movement or line end.
    public func ansiLine(_ row: Int, colors: Bool = true) -> String {
        var text = ""
        var current = Style.plain
        for column in 0..<size.width {
            let cell = self[column, row]
            if cell.isContinuation { continue }
            var style = cell.style
            if !colors { style.foreground = nil }
            if style != current {
                text += Self.sgr(style)
                current = style
            }
            text.append(cell.character)
        }
        if current != .plain { text += "\u{1B}[0m" }
        return text
    }

    /// The SGR sequence that sets exactly `style`, from a reset.
    static func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let color = style.foreground { codes.append(String(30 + color.rawValue)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
