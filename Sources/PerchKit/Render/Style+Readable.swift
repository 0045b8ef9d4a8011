extension Style {
    /// This style with a foreground colour that reads on `background` in every palette of
    /// ``TerminalPalette/common``, whether bold is drawn bright or not: a WCAG 2.2 contrast ratio
    /// of at least 4.5:1 for plain text and 3:1 for bold, against white for a light background
    /// and black for a dark one (checked by the contrast test, from these palettes).
    ///
    /// The eight colours cannot all do it: on white only red, blue, magenta and black read, and
    /// blue and magenta only when not bold (bold may be drawn in their bright, paler forms); on
    /// black, green, yellow, cyan and white read, red and yellow only in bold. So a colour is
    /// drawn as the nearest one that reads (cyan as blue on white, blue as cyan on black, yellow
    /// as magenta on white), made bold where bold is what reads, or left out; everything that
    /// matters is also shown by bold, reverse video or a glyph (see ``Style``). With
    /// `background` nil (not known), no colour reads on both white and black, and none is used.
    /// Reverse video is the same pair swapped (the text in the background's colour), so the
    /// same colours read. Dim text (SGR 2, drawn fainter by an amount each terminal chooses)
    /// keeps no colour. Attributes other than colour and bold are kept.
    ///
    /// A style with a colour of its own beyond the eight foregrounds (``hasExtendedColor``) is
    /// the app's choice and is kept as it is.
    public func readable(on background: TerminalBackground?) -> Style {
        guard !hasExtendedColor, let color = foreground?.standard else { return self }
        var style = self
        guard let background, !dim else {
            style.foreground = nil
            return style
        }
        switch background {
        case .light:
            switch color {
            case .black, .red: break
            case .blue, .magenta: if bold { style.foreground = nil }
            case .cyan: style.foreground = bold ? nil : .blue
            case .yellow: style.foreground = bold ? nil : .magenta
            case .green, .white: style.foreground = nil
            }
        case .dark:
            switch color {
            case .green, .cyan, .white: break
            case .red, .yellow: style.bold = true
            case .blue: style.foreground = .cyan
            case .black, .magenta: style.foreground = nil
            }
        }
        return style
    }
}
