/// One line of editable text: a cursor between grapheme clusters, the editing keys of a shell's
/// line editor (GNU Readline's emacs mode: `Ctrl-A`, `Ctrl-E`, `Ctrl-W`, `Ctrl-U`, `Ctrl-K`,
/// `Alt-B`, `Alt-F`, and the arrow, Home, End, Backspace and Delete keys), typed or pasted text
/// with line breaks and control characters left out, a length limit, and a view that keeps the
/// cursor shown however long the text, wide characters counted by their columns
/// (``DisplayWidth``). A value: the component that holds it changes it and draws it.
///
/// ```swift
/// var name = TextField(maximumLength: 64)
/// name.insert("Ada Lovelace")
/// name.apply(.deleteWordBackward)     // "Ada "
/// name.render(into: &frame.screen, column: 4, row: 2, width: 20, focused: true)
/// ```
public struct TextField: Hashable, Sendable {
    /// The text, as typed.
    public private(set) var text: String
    /// Where the cursor is: the number of grapheme clusters (``Character``s) before it, from 0
    /// to `text.count`.
    public private(set) var cursor: Int
    /// Longest text kept, in grapheme clusters; what is typed or pasted past it is dropped.
    public let maximumLength: Int

    /// A field holding `text` (cut to `maximumLength`), the cursor at its end.
    public init(_ text: String = "", maximumLength: Int = 256) {
        self.maximumLength = max(0, maximumLength)
        self.text = ""
        self.cursor = 0
        insert(text)
    }

    /// A change the editing keys make (``rows(_:)`` binds them).
    public enum Edit: Hashable, Sendable, CaseIterable {
        /// The cursor a character left or right.
        case left, right
        /// The cursor to the start of the word before it, or past the end of the word after it
        /// (words are runs of characters other than spaces).
        case wordLeft, wordRight
        /// The cursor to the start or the end of the text.
        case start, end
        /// The character before the cursor deleted, or the one under it.
        case deleteBackward, deleteForward
        /// The word before the cursor deleted, with the spaces after it (Readline's
        /// `unix-word-rubout`).
        case deleteWordBackward
        /// Everything before the cursor deleted, or everything from it on.
        case deleteToStart, deleteToEnd
    }

    /// Key table rows for the editing keys, each bound to `verb(edit)`, in the order help lists
    /// them: ← →, Alt-← Alt-→, Home End, Backspace Delete, Ctrl-W, Ctrl-U, Ctrl-K.
    public static func rows<Verb: Hashable & Sendable>(_ verb: (Edit) -> Verb) -> [KeyTable<Verb>.Row] {
        [
            .init([KeyEvent(.left), KeyEvent(.control("b"))], "← Ctrl-B", "cursor left", verb(.left)),
            .init([KeyEvent(.right), KeyEvent(.control("f"))], "→ Ctrl-F", "cursor right", verb(.right)),
            .init(
                [KeyEvent(.left, modifiers: .alt), KeyEvent(.left, modifiers: .control), KeyEvent(.character("b"), modifiers: .alt)],
                "Alt-← Ctrl-← Alt-B", "cursor a word left", verb(.wordLeft)),
            .init(
                [KeyEvent(.right, modifiers: .alt), KeyEvent(.right, modifiers: .control), KeyEvent(.character("f"), modifiers: .alt)],
                "Alt-→ Ctrl-→ Alt-F", "cursor a word right", verb(.wordRight)),
            .init([KeyEvent(.home), KeyEvent(.control("a"))], "Home Ctrl-A", "cursor to the start", verb(.start)),
            .init([KeyEvent(.end), KeyEvent(.control("e"))], "End Ctrl-E", "cursor to the end", verb(.end)),
            .init([KeyEvent(.backspace)], "Backspace", "delete the character before the cursor", verb(.deleteBackward)),
            .init(
                [KeyEvent(.delete), KeyEvent(.control("d"))], "Delete Ctrl-D", "delete the character under the cursor", verb(.deleteForward)
            ),
            .init([KeyEvent(.control("w"))], "Ctrl-W", "delete the word before the cursor", verb(.deleteWordBackward)),
            .init([KeyEvent(.control("u"))], "Ctrl-U", "delete to the start", verb(.deleteToStart)),
            .init([KeyEvent(.control("k"))], "Ctrl-K", "delete to the end", verb(.deleteToEnd)),
        ]
    }

    /// Inserts `typed` at the cursor, which moves past it: line breaks and control characters
    /// are left out (a paste of several lines joins them), and what would go past
    /// ``maximumLength`` is dropped. Returns whether the text changed.
    @discardableResult
    public mutating func insert(_ typed: String) -> Bool {
        let kept = typed.filter { c in
            !c.isNewline && c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
        }
        let room = maximumLength - text.count
        guard room > 0, !kept.isEmpty else { return false }
        let at = index(cursor)
        // Counted again, not added up: a combining mark typed after a letter joins its cluster
        // (bug: the cursor was then past the text's end).
        let through = String(text[..<at]) + String(kept.prefix(room))
        text = through + String(text[at...])
        cursor = min(through.count, text.count)
        return true
    }

    /// Carries out `edit`; returns whether the text changed (a cursor move changes none).
    @discardableResult
    public mutating func apply(_ edit: Edit) -> Bool {
        let characters = Array(text)
        switch edit {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .wordLeft: cursor = Self.wordStart(before: cursor, in: characters)
        case .wordRight: cursor = Self.wordEnd(after: cursor, in: characters)
        case .start: cursor = 0
        case .end: cursor = characters.count
        case .deleteBackward: return delete(from: cursor - 1, to: cursor)
        case .deleteForward: return delete(from: cursor, to: cursor + 1)
        case .deleteWordBackward: return delete(from: Self.wordStart(before: cursor, in: characters), to: cursor)
        case .deleteToStart: return delete(from: 0, to: cursor)
        case .deleteToEnd: return delete(from: cursor, to: characters.count)
        }
        return false
    }

    /// Replaces the whole text with `text` (cut to ``maximumLength``), the cursor at its end.
    public mutating func replace(with text: String) {
        self.text = ""
        cursor = 0
        insert(text)
    }

    /// The text and the cursor as drawn in `width` columns: the whole text when it fits with a
    /// column to spare for the cursor, else a window of it that holds the cursor, with `…`
    /// where text is cut off; and the cursor's column from the window's start (nil when
    /// `width` is below 1). Unfocused, the text's start is shown, cut with `…`.
    public func view(width: Int, focused: Bool) -> (text: String, cursorColumn: Int?) {
        guard width > 0 else { return ("", nil) }
        guard focused else { return (DisplayWidth.truncated(text, to: width), nil) }
        let characters = Array(text)
        let before = String(characters[..<cursor])
        let beforeWidth = DisplayWidth.columns(of: before)
        let textWidth = DisplayWidth.columns(of: text)
        // Columns the cursor takes: the character under it (a wide one two), or `▏` past the end.
        let under = cursor < characters.count ? max(1, DisplayWidth.columns(of: characters[cursor])) : 1
        // Columns needed after the cursor's: a `…` when more text follows it.
        let more = cursor + 1 < characters.count ? 1 : 0
        if textWidth < width { return (text, beforeWidth) }
        if beforeWidth + under + more <= width {
            // The start is shown, cut with `…` past the cursor's character.
            return (DisplayWidth.truncated(text, to: width), beforeWidth)
        }
        // The cursor near the right edge: `…` first, the columns before the cursor, then its
        // character whole (bug: a wide one there was cut to `…`, and the cursor hidden) and, when
        // more follows, `…`.
        let head = DisplayWidth.truncatedLeading(before, to: max(1, width - under - more))
        let headWidth = DisplayWidth.columns(of: head)
        let after = String(characters[cursor...])
        let tail = DisplayWidth.truncated(after, to: width - headWidth)
        return (head + tail, headWidth)
    }

    /// Draws the field at (`column`, `row`) in at most `width` columns, in `style` (``view(width:focused:)``);
    /// focused, the cursor is shown: the character under it in reverse video, or `▏` past the
    /// text's end. Returns the cursor's column on the screen, or nil.
    @discardableResult
    public func render(into screen: inout Screen, column: Int, row: Int, width: Int, style: Style = .plain, focused: Bool) -> Int? {
        let (shown, cursorColumn) = view(width: width, focused: focused)
        screen.put(shown, column: column, row: row, style: style, width: width)
        guard let cursorColumn else { return nil }
        let x = column + cursorColumn
        if cursor < text.count {
            let under = Array(text)[cursor]
            var reversed = style
            reversed.reverse.toggle()
            screen.put(String(under), column: x, row: row, style: reversed, width: max(0, column + width - x))
        } else if cursorColumn < width {
            screen.put("▏", column: x, row: row, style: style, width: 1)
        }
        return x
    }

    /// The index in ``text`` of the `offset`-th grapheme cluster.
    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: max(0, min(offset, text.count))) }

    /// Deletes the characters from `start` up to `end` (clamped to the text); the cursor goes to
    /// `start`. Returns whether anything was deleted.
    private mutating func delete(from start: Int, to end: Int) -> Bool {
        let (start, end) = (max(0, start), min(text.count, end))
        guard start < end else { return false }
        text.removeSubrange(index(start)..<index(end))
        // The characters either side may join into one cluster.
        cursor = min(start, text.count)
        return true
    }

    /// The start of the word before `position`: spaces before it skipped, then the word.
    private static func wordStart(before position: Int, in characters: [Character]) -> Int {
        var i = position
        while i > 0, characters[i - 1].isWhitespace { i -= 1 }
        while i > 0, !characters[i - 1].isWhitespace { i -= 1 }
        return i
    }

    /// The end of the word after `position`: spaces after it skipped, then the word.
    private static func wordEnd(after position: Int, in characters: [Character]) -> Int {
        var i = position
        while i < characters.count, characters[i].isWhitespace { i += 1 }
        while i < characters.count, !characters[i].isWhitespace { i += 1 }
        return i
    }
}
