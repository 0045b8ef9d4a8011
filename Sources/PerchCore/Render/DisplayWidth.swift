/// Terminal display width of text, in columns, and the replacement of characters that must never
/// reach a terminal. This is the one place that decides how many columns a character takes.
///
/// Widths follow Unicode East Asian Width (wide and fullwidth ranges take 2 columns) and treat
/// emoji presentation characters as 2 columns, as xterm, tmux and VTE draw them.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster: 0, 1 or 2.
    public static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.count > 1,
            character.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
        {
            return 2
        }
        return columns(of: first)
    }

    /// Columns taken by a scalar on its own.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
            return 0
        }
        if v == 0x200B || v == 0x200C || v == 0x200D || v == 0x2060 || v == 0xFEFF { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Columns taken by `text`.
    public static func columns(of text: String) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `character` made safe to draw: C0 and C1 controls and DEL (which would let data move the
    /// cursor, retitle the window or write the clipboard) become U+FFFD.
    public static func sanitized(_ character: Character) -> Character {
        for scalar in character.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (v >= 0x7F && v < 0xA0) { return "\u{FFFD}" }
        }
        return character
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if columns(of: text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = columns(of: character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }
}
