/// Terminal display width of text, in columns, and the form in which each grapheme cluster is
/// drawn. This is the one place that decides how many columns a character takes.
///
/// Terminals disagree about emoji sequences: a ZWJ sequence (👨‍👩‍👧), a skin-tone modifier (👍🏽)
/// or a variation selector 16 (❤️) is one two-column glyph in some terminals and the sum of its
/// parts in others (and in ncursesw, which counts with glibc's wcwidth(3)). A row drawn with one
/// width and shown with another is misaligned to its end. So each cluster is drawn in a form whose
/// width they all agree on (``drawable(_:)``): ZWJ between emoji, emoji modifiers after a base,
/// variation selectors 15 and 16 and tag characters are left out, so 👨‍👩‍👧 is drawn as 👨👩👧 and
/// 👍🏽 as 👍; at most ``maximumZeroWidthScalars`` combining marks are kept on one base (ncursesw
/// keeps no more in a cell); controls and bidirectional overrides become U+FFFD.
///
/// A drawn cluster takes the sum of its scalars' widths, as ncursesw counts it (glibc's
/// wcwidth(3), which this table matches for every scalar glibc knows): wide and fullwidth
/// characters (Unicode East Asian Width W and F, which include emoji with default emoji
/// presentation) take 2 columns, combining marks, variation selectors and format characters take
/// 0, the rest 1. A regional-indicator pair (a flag) takes 2.
public enum DisplayWidth {
    /// Most zero-width scalars (combining marks) drawn on one base character: ncursesw's cell
    /// holds a spacing character and up to four more (CCHARW_MAX 5).
    public static let maximumZeroWidthScalars = 4

    /// Columns taken by one grapheme cluster as drawn (see ``drawable(_:)``); 0 for a cluster of
    /// zero-width scalars only.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return isUnsafe(only) ? 1 : columns(of: only)
        }
        return drawable(character).unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    /// The grapheme cluster `character` in the form a ``Screen`` draws it, whose width every terminal
    /// agrees on: one or more clusters (a ZWJ emoji sequence becomes its emoji side by side), or
    /// U+FFFD for a cluster holding a control or a bidirectional override.
    public static func drawable(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        if scalars.contains(where: isUnsafe) { return "\u{FFFD}" }
        guard scalars.index(after: scalars.startIndex) != scalars.endIndex else { return String(character) }
        let isEmoji = scalars.contains { $0.properties.isEmojiPresentation || $0.properties.isEmojiModifier || $0.value == 0xFE0F }
        var result = String.UnicodeScalarView()
        var zeroWidth = 0
        for scalar in scalars {
            let v = scalar.value
            let isFirst = result.isEmpty
            if v == 0xFE0E || v == 0xFE0F || (0xE0020...0xE007F).contains(v) { continue }
            if isEmoji, v == 0x200D || (!isFirst && scalar.properties.isEmojiModifier) { continue }
            if !isFirst, columns(of: scalar) == 0 {
                zeroWidth += 1
                if zeroWidth > maximumZeroWidthScalars { continue }
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// Whether drawing `scalar` could drive the terminal or reorder the row: C0 and C1 controls
    /// and DEL (which would let data move the cursor, retitle the window or write the clipboard),
    /// and bidirectional overrides and isolates.
    @inlinable
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v < 0xA0) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Columns taken by a scalar on its own: 0, 1 or 2.
    package static func columns(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        // Printable ASCII, most of what is drawn, without the Unicode property look-ups below.
        if v >= 0x20, v < 0x7F { return 1 }
        switch v {
        // Soft hyphen and prepended concatenation marks are format characters drawn with a width.
        case 0xAD, 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: return 1
        // NUL; Hangul medial and final jamo (they join the syllable before them); Ahom medial ra,
        // a nonspacing mark in glibc's tables and a spacing one in newer Unicode (found by the
        // differential test against wcwidth).
        case 0, 0x1160...0x11FF, 0xD7B0...0xD7FF, 0x1171E: return 0
        // Spacing letters and signs an interface draws often (Latin-1 and Latin Extended, dashes and
        // `…`, arrows, box drawing, block elements and the geometric shapes up to U+25FC), all
        // one column in glibc, without the look-ups below: a frame of bar charts draws hundreds of them.
        case 0xA0...0x2FF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC: return 1
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1F1E6...0x1F1FF).contains(v) { return 1 }  // regional indicators: East Asian Width N
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x4DC0...0x4DFF, 0x16FE0...0x18D7F, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Whether `scalar` is drawn as it is in one column and is a grapheme cluster of its own
    /// beside any other such scalar (Grapheme_Cluster_Break Other: no mark, joiner, control or
    /// jamo): printable ASCII, and the spacing letters and signs of ``columns(of:)``'s short list
    /// but the soft hyphen. A text of these alone is drawn one scalar a cell, with no cluster
    /// segmentation (a test holds every one of them to that).
    @inlinable
    package static func isOneColumnCluster(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v >= 0x20, v < 0x7F { return true }
        switch v {
        case 0xAD: return false
        case 0xA0...0x2FF, 0x2010...0x2027, 0x2190...0x21FF, 0x2500...0x25FC: return true
        default: return false
        }
    }

    /// Whether every character of `text` is printable ASCII (one column each, nothing to sanitize).
    @inlinable
    package static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Columns taken by `text`; printable ASCII is counted by its bytes, with no grapheme
    /// cluster segmentation (the tab bar measures its labels every frame).
    public static func columns(of text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` cut to at most `width` columns by dropping its start, which becomes `…` (for paths,
    /// whose end matters most).
    public static func truncatedLeading(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if fits(text, in: width) { return text }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = columns(of: character)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return "…" + String(kept.reversed())
    }

    /// `text` cut to at most `width` columns by dropping its middle, which becomes `…`: the
    /// start takes half the columns left beside `…` (rounded down), the end the rest, so that
    /// two texts alike at the start show where they differ at the end. Empty when `width` < 1.
    public static func truncatedMiddle(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if fits(text, in: width) { return text }
        let tail = truncatedLeading(text, to: width - (width - 1) / 2)
        let head = truncated(text, to: (width - 1) / 2 + 1).dropLast()
        return head + tail
    }

    /// Whether `text` fits in `width` columns; stops reading at the first column past it, so a
    /// very long text costs no more than a short one.
    public static func fits(_ text: String, in width: Int) -> Bool {
        // No character takes more columns than its UTF-8 bytes, so a short text fits unread.
        if text.utf8.count <= width { return true }
        var used = 0
        for character in text {
            used += columns(of: character)
            if used > width { return false }
        }
        return true
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if fits(text, in: width) { return text }
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

    /// `text` wrapped at spaces into lines of at most `width` columns, on at most `rows` lines; a
    /// line break in `text` (`\n`, `\r\n`) always starts a new line, and an empty line between
    /// two breaks is kept. A word longer than a line (a path) starts a line and goes on over the
    /// next ones, broken after a `/` where a line holds one past its start, and when lines are
    /// left over the last one shown ends in `…`. Empty when `width` or `rows` is below 1.
    public static func wrapped(_ text: String, to width: Int, rows: Int) -> [String] {
        guard width > 0, rows > 0 else { return [] }
        // Bug: a line break was kept inside a word, so the text after it was drawn on the same
        // row. Each paragraph is wrapped on its own.
        let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var lines: [String] = paragraphs.count == 1 ? wrappedParagraph(paragraphs[0], to: width) : []
        if paragraphs.count > 1 {
            // A text ending in a line break has no empty last line.
            for paragraph in text.last?.isNewline == true ? paragraphs.dropLast() : paragraphs[...] {
                let wrapped = wrappedParagraph(paragraph, to: width)
                lines += wrapped.isEmpty ? [""] : wrapped
            }
        }
        if lines.count > rows {
            lines = Array(lines.prefix(rows))
            // At most width - 1 columns before the …, never a second … (truncated ends in its own).
            let last = lines[rows - 1]
            let kept = fits(last, in: width - 1) ? last : String(truncated(last, to: width).dropLast())
            lines[rows - 1] = width > 1 ? kept + "…" : "…"
        }
        return lines.map { truncated($0, to: width) }
    }

    /// One paragraph (no line break) wrapped at spaces into lines of at most `width` columns.
    private static func wrappedParagraph(_ text: Substring, to width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if fits(candidate, in: width) {
                current = candidate
            } else if fits(word, in: width) {
                lines.append(current)
                current = word
            } else {
                // Bug: a word longer than a line was cut with …, so the path of a kept edit copy
                // could not be read. It is broken across lines instead.
                if !current.isEmpty { lines.append(current) }
                var piece = ""
                var used = 0
                for character in word {
                    let w = columns(of: character)
                    if used + w > width, !piece.isEmpty {
                        // A path breaks between names where it can (after its last `/` in the line).
                        if let slash = piece.lastIndex(of: "/"), slash != piece.startIndex, piece.index(after: slash) != piece.endIndex {
                            let rest = String(piece[piece.index(after: slash)...])
                            lines.append(String(piece[...slash]))
                            (piece, used) = (rest, columns(of: rest))
                        } else {
                            lines.append(piece)
                            (piece, used) = ("", 0)
                        }
                    }
                    piece.append(character)
                    used += w
                }
                current = piece
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
