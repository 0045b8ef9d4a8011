import PerchTestSupport
import Testing

@testable import PerchKit

/// PerchKit's text field: Readline's editing keys, paste, the length limit, wide characters and
/// combining marks, and the view that keeps the cursor shown.
@Suite("TextField")
struct TextFieldTests {
    @Test("Typing inserts at the cursor; ← → Home End move it; Backspace and Delete delete either side")
    func editsAtTheCursor() {
        var field = TextField("Ada Lovelace")
        #expect(field.cursor == 12)
        field.apply(.start)
        field.insert("Countess ")
        #expect(field.text == "Countess Ada Lovelace" && field.cursor == 9)
        field.apply(.right)
        field.apply(.deleteBackward)
        #expect(field.text == "Countess da Lovelace" && field.cursor == 9)
        field.apply(.deleteForward)
        #expect(field.text == "Countess a Lovelace")
        field.apply(.end)
        let deletedAtEnd = field.apply(.deleteForward)
        #expect(!deletedAtEnd, "nothing under the cursor at the end")
        field.apply(.left)
        #expect(field.cursor == field.text.count - 1)
        field.apply(.start)
        let deletedAtStart = field.apply(.deleteBackward)
        #expect(!deletedAtStart, "nothing before the cursor at the start")
        field.apply(.left)
        #expect(field.cursor == 0, "never before the start")
    }

    @Test(
        "Ctrl-W deletes the word before the cursor with the spaces after it, Ctrl-U and Ctrl-K either side, Alt-B and Alt-F move by words")
    func readlineKeys() {
        var field = TextField("git  push origin")
        field.apply(.deleteWordBackward)
        #expect(field.text == "git  push ")
        field.apply(.deleteWordBackward)
        #expect(field.text == "git  ", "the word and the space before the cursor")
        field.replace(with: "one two three")
        field.apply(.wordLeft)
        #expect(field.cursor == 8)
        field.apply(.wordLeft)
        field.apply(.wordLeft)
        #expect(field.cursor == 0)
        field.apply(.wordRight)
        #expect(field.cursor == 3)
        field.apply(.deleteToEnd)
        #expect(field.text == "one" && field.cursor == 3)
        field.apply(.left)
        field.apply(.deleteToStart)
        #expect(field.text == "e" && field.cursor == 0)
    }

    @Test("Each editing key is bound once, and the rows name the keys help shows")
    func rows() {
        let rows = TextField.rows { $0 }
        #expect(Set(rows.compactMap(\.verb)) == Set(TextField.Edit.allCases))
        let keys = rows.flatMap(\.keys)
        #expect(Set(keys).count == keys.count, "no key in two rows")
        #expect(rows.first { $0.verb == .deleteWordBackward }?.keys == [KeyEvent(.control("w"))])
    }

    @Test("A paste of several lines is joined, control characters left out, and the text stops at its limit")
    func pasteAndLimit() {
        var field = TextField(maximumLength: 10)
        field.insert("ab\ncd\r\ne\u{1B}[31mf\u{7F}")
        #expect(field.text == "abcde[31mf")
        let took = field.insert("more")
        #expect(!took, "full: nothing is taken")
        field.apply(.start)
        field.apply(.deleteForward)
        field.insert("XYZ")
        #expect(field.text == "Xbcde[31mf", "only what fits")
    }

    /// A combining mark typed after a letter joins its grapheme cluster: the cursor counted
    /// what was typed, not the clusters, and went past the text's end (a crash when drawn).
    @Test("A combining mark typed after a letter joins it, and the cursor stays on the text")
    func combiningMark() {
        var field = TextField("cafe")
        field.insert("\u{301}")
        #expect(field.text == "café" && field.text.count == 4 && field.cursor == 4)
        #expect(field.view(width: 10, focused: true).cursorColumn == 4)
        field.apply(.left)
        field.insert("\u{301}")
        #expect(field.cursor <= field.text.count)
        _ = field.view(width: 3, focused: true)
    }

    @Test(
        "The view keeps the cursor shown: the start while it fits, else a window ending at the cursor after …; wide characters take two columns"
    )
    func viewFollowsTheCursor() {
        var field = TextField("abcdefghij")
        #expect(field.view(width: 20, focused: true) == ("abcdefghij", 10))
        let end = field.view(width: 6, focused: true)
        #expect(end.text == "…ghij" && end.cursorColumn == 5, "\(end)")
        field.apply(.start)
        let start = field.view(width: 6, focused: true)
        #expect(start.text == "abcde…" && start.cursorColumn == 0, "\(start)")
        #expect(field.view(width: 6, focused: false) == ("abcde…", nil))
        field.replace(with: "日本語テキスト")
        field.apply(.start)
        field.apply(.right)
        field.apply(.right)
        let wide = field.view(width: 8, focused: true)
        #expect(wide.cursorColumn == 4 && DisplayWidth.columns(of: wide.text) <= 8, "\(wide)")
    }

    /// A wide character under the cursor at the right edge was cut to `…`, and the cursor with it.
    @Test("A wide character under the cursor near the right edge is drawn whole, in reverse video, however far left the cursor goes")
    func wideCharacterAtTheEdge() {
        var field = TextField(String(repeating: "x", count: 41) + "日本語", maximumLength: 64)
        for expected: Character in ["語", "本", "日"] {
            field.apply(.left)
            let (shown, column) = field.view(width: 40, focused: true)
            #expect(DisplayWidth.columns(of: shown) <= 40)
            let cursorColumn = column ?? -1
            // The character drawn from the cursor's column on.
            var used = 0
            let drawnThere = shown.first { character in
                defer { used += DisplayWidth.columns(of: character) }
                return used == cursorColumn
            }
            #expect(drawnThere == expected, "\(shown) at \(cursorColumn)")
            var screen = Screen(size: Size(width: 40, height: 1))
            let x = field.render(into: &screen, column: 0, row: 0, width: 40, focused: true) ?? -1
            #expect(screen[x, 0].style.reverse && screen.lines[0].contains(String(expected)), "\(screen.lines[0])")
        }
    }

    @Test("Drawn focused, the character under the cursor is in reverse video, or ▏ past the end")
    func rendersTheCursor() {
        var screen = Screen(size: Size(width: 20, height: 1))
        var field = TextField("ab")
        let cursorColumn = field.render(into: &screen, column: 1, row: 0, width: 10, focused: true)
        #expect(cursorColumn == 3)
        #expect(screen.lines[0].hasPrefix(" ab▏"))
        field.apply(.left)
        screen = Screen(size: Size(width: 20, height: 1))
        field.render(into: &screen, column: 1, row: 0, width: 10, focused: true)
        #expect(screen[2, 0].style.reverse && !screen[1, 0].style.reverse)
        screen = Screen(size: Size(width: 20, height: 1))
        let unfocused = field.render(into: &screen, column: 1, row: 0, width: 10, focused: false)
        #expect(unfocused == nil)
        #expect(!screen[2, 0].style.reverse)
    }

    @Test("Any sequence of typing and edits keeps the cursor on the text and the text within its limit (2,000 random steps)")
    func randomEdits() {
        var generator = SplitMix64(seed: 48)
        var field = TextField(maximumLength: 12)
        let pieces = ["a", " ", "日", "e\u{301}", "\u{301}", "👩‍👩‍👧", "x y", "\n", "\u{1B}"]
        for _ in 0..<2_000 {
            if Bool.random(using: &generator) {
                field.insert(pieces.randomElement(using: &generator)!)
            } else {
                field.apply(TextField.Edit.allCases.randomElement(using: &generator)!)
            }
            #expect(field.cursor >= 0 && field.cursor <= field.text.count)
            #expect(field.text.count <= 12)
            let view = field.view(width: 5, focused: true)
            #expect(DisplayWidth.columns(of: view.text) <= 5 && (view.cursorColumn ?? 0) <= 5)
        }
    }
}
