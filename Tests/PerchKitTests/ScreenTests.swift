import Testing

@testable import PerchKit

/// Every row must still be exactly `width` columns when drawn: a backend draws `lines` cell by cell.
private func expectRowsFullWidth(_ screen: Screen, sourceLocation: SourceLocation = #_sourceLocation) {
    for (row, line) in screen.lines.enumerated() {
        #expect(
            DisplayWidth.columns(of: line) == screen.size.width, "row \(row) is \(DisplayWidth.columns(of: line)) columns: \"\(line)\"",
            sourceLocation: sourceLocation)
    }
}

@Suite("Screen")
struct ScreenTests {
    @Test("a new screen is blank")
    func blank() {
        let screen = Screen(size: Size(width: 4, height: 2))
        #expect(screen.lines == ["    ", "    "])
        #expect(screen.text == "    \n    ")
        #expect(screen.cells.count == 8)
    }

    @Test("put writes text and returns the column after it")
    func putBasic() {
        var screen = Screen(size: Size(width: 10, height: 2))
        #expect(screen.put("abc", column: 2, row: 1) == 5)
        #expect(screen.lines == ["          ", "  abc     "])
    }

    @Test("put clips at the right edge, ending the cut text with …")
    func putClipsRight() {
        var screen = Screen(size: Size(width: 5, height: 1))
        #expect(screen.put("abcdefg", column: 0, row: 0) == 5)
        #expect(screen.lines == ["abcd…"])
        screen = Screen(size: Size(width: 5, height: 1))
        screen.put("xyz", column: 3, row: 0)
        #expect(screen.lines == ["   x…"])
        screen = Screen(size: Size(width: 5, height: 1))
        screen.put("xy", column: 3, row: 0)
        #expect(screen.lines == ["   xy"], "text that fits exactly is not cut")
    }

    @Test("put respects an explicit width")
    func putWidth() {
        var screen = Screen(size: Size(width: 10, height: 1))
        #expect(screen.put("abcdef", column: 1, row: 0, width: 3) == 4)
        #expect(screen.lines == [" ab…      "])
    }

    @Test("put outside the screen writes nothing", arguments: [-1, 2, 100])
    func putOutsideRows(row: Int) {
        var screen = Screen(size: Size(width: 5, height: 2))
        screen.put("abc", column: 0, row: row)
        #expect(screen.lines == ["     ", "     "])
    }

    @Test("put past the right edge writes nothing")
    func putPastRight() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("abc", column: 5, row: 0)
        screen.put("abc", column: 50, row: 0)
        #expect(screen.lines == ["     "])
    }

    // Bug: a negative start column with no width stopped writing short of the right edge.
    @Test("put from a negative column clips the left part and still reaches the right edge")
    func putNegativeColumn() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("abcdefg", column: -1, row: 0)
        // Seven columns from -1 do not fit in 6: cut to "abcde…", of which "a" falls off the left edge;
        // the default width is "to the right edge", so all 5 columns are written.
        #expect(screen.lines == ["bcde…"])
    }

    @Test("control characters are drawn as U+FFFD", arguments: ["\u{1B}", "\u{07}", "\u{7F}", "\u{9B}", "\u{85}", "\r\n", "\t", "\u{00}"])
    func controlsReplaced(_ control: String) {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("a" + control + "b", column: 0, row: 0)
        #expect(screen.lines == ["a\u{FFFD}b  "])
    }

    @Test("a wide CJK character takes two cells")
    func wideCharacter() {
        var screen = Screen(size: Size(width: 6, height: 1))
        #expect(screen.put("中x", column: 0, row: 0) == 3)
        #expect(screen[0, 0].character == "中")
        #expect(screen[0, 0].isContinuation == false)
        #expect(screen[1, 0].isContinuation == true)
        #expect(screen[2, 0].character == "x")
        #expect(screen.lines == ["中x   "])
    }

    @Test("a wide character that does not fit at the edge is cut with …, never split")
    func wideAtEdge() {
        var screen = Screen(size: Size(width: 5, height: 1))
        #expect(screen.put("abcd中", column: 0, row: 0) == 5)
        #expect(screen.lines == ["abcd…"])
        #expect(screen[4, 0].isContinuation == false)
        screen = Screen(size: Size(width: 5, height: 1))
        screen.put("abc中", column: 0, row: 0, width: 4)
        #expect(screen.lines == ["abc… "])
    }

    @Test("zero-width characters are skipped")
    func zeroWidth() {
        var screen = Screen(size: Size(width: 4, height: 1))
        #expect(screen.put("a\u{200B}b", column: 0, row: 0) == 2)
        #expect(screen.lines == ["ab  "])
    }

    @Test(
        "text of letters, dashes, arrows, box lines and blocks gives the cells that drawing it cluster by cluster gives",
        arguments: ["─│╭╮╰╯", "▁▂▃▄▅▆▇█ █▇", "Zoë · naïve → ↑↓ … ▶ ● ◆", "a\u{A0}b\u{2D0}c", "éé█─"])
    func oneColumnText(_ text: String) {
        for width in 1...12 {
            var fast = Screen(size: Size(width: 14, height: 2))
            fast.put("中中中中中中中", column: 0, row: 0)
            var slow = fast
            let end = fast.put(text, column: 1, row: 0, style: .bold, width: width)
            // What the cluster path does: each character's cell set in turn, wide ones detached.
            var x = 1
            for character in DisplayWidth.truncated(text, to: width) {
                slow.set(column: x, row: 0, Cell(character, style: .bold))
                x += 1
            }
            #expect(end == x, "\(text) at \(width)")
            #expect(fast == slow, "\(text) at \(width): \(fast.lines) against \(slow.lines)")
        }
    }

    @Test("text of any kind, at any width: rows stay full width, cells hold drawn forms, the next text starts where put said")
    func hostileTextAtEveryWidth() {
        for text in DisplayWidthTests.hostileTexts {
            for width in 1...30 {
                var screen = Screen(size: Size(width: 32, height: 1))
                let end = screen.put(text, column: 1, row: 0, width: width)
                #expect(end <= 1 + width, "\(text.debugDescription) overflowed its \(width) columns")
                screen.put("|", column: end, row: 0)
                #expect(screen[end, 0].character == "|", "\(text.debugDescription) at \(width): the next text starts at column \(end)")
                expectRowsFullWidth(screen)
                for column in 0..<screen.size.width {
                    let character = screen[column, 0].character
                    #expect(DisplayWidth.drawable(character) == String(character), "cell \(column) holds \(character.debugDescription)")
                    #expect(!character.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
                }
            }
        }
    }

    @Test("overwriting either half of a wide character blanks the other half")
    func overwriteHalf() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("中", column: 0, row: 0)
        screen.put("x", column: 1, row: 0)
        #expect(screen.lines == [" x   "])
        screen = Screen(size: Size(width: 5, height: 1))
        screen.put("中", column: 0, row: 0)
        screen.put("x", column: 0, row: 0)
        #expect(screen.lines == ["x    "])
        #expect(screen[1, 0].isContinuation == false)
    }

    // Bug: a wide character over the left half of another left its stray right half behind.
    @Test("a wide character written over the first half of another leaves no stray continuation cell")
    func wideOverWide() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("a中", column: 0, row: 0)  // a, 中 at 1–2
        screen.put("文", column: 0, row: 0)  // 文 at 0–1 cuts 中 in half
        #expect(screen[2, 0].isContinuation == false, "column 2 still claims to continue a character that is gone")
        #expect(screen.lines == ["文   "])
        expectRowsFullWidth(screen)
    }

    // Bug: a wide character over the right half of another left a stray continuation cell.
    @Test("a wide character written over the second half of another leaves no stray continuation cell")
    func wideOverWideShifted() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("中文", column: 0, row: 0)  // 中 at 0–1, 文 at 2–3
        screen.put("字", column: 1, row: 0)  // 字 at 1–2 cuts both
        #expect(screen.lines == [" 字  "])
        expectRowsFullWidth(screen)
    }

    // Bug: fill did not blank the other half of a wide character it cut.
    @Test("fill starting on the right half of a wide character keeps rows full width")
    func fillOverHalf() {
        var screen = Screen(size: Size(width: 5, height: 1))
        screen.put("中", column: 0, row: 0)
        screen.fill(Rect(x: 1, y: 0, width: 4, height: 1), with: "-")
        expectRowsFullWidth(screen)
        #expect(screen.lines == [" ----"])
    }

    @Test("fill is clipped to the screen")
    func fillClipped() {
        var screen = Screen(size: Size(width: 4, height: 3))
        screen.fill(Rect(x: -2, y: 1, width: 4, height: 10), with: "#")
        #expect(screen.lines == ["    ", "##  ", "##  "])
        screen.fill(Rect(x: 10, y: 0, width: 4, height: 1), with: "!")
        #expect(screen.lines == ["    ", "##  ", "##  "])
    }

    @Test("fill sets the style; restyle changes only the style")
    func fillAndRestyle() {
        var screen = Screen(size: Size(width: 3, height: 1))
        screen.put("abc", column: 0, row: 0)
        screen.restyle(Rect(x: 1, y: 0, width: 5, height: 1)) { $0.bold = true }
        #expect(screen.lines == ["abc"])
        #expect(screen[0, 0].style.bold == false)
        #expect(screen[1, 0].style.bold == true)
        #expect(screen[2, 0].style.bold == true)
        screen.fill(Rect(x: 0, y: 0, width: 1, height: 1), style: .selected)
        #expect(screen[0, 0] == Cell(" ", style: .selected))
    }

    @Test("a zero-size screen has no lines")
    func emptyScreen() {
        var screen = Screen(size: Size(width: 0, height: 0))
        screen.put("abc", column: 0, row: 0)
        screen.fill(Rect(x: 0, y: 0, width: 5, height: 5))
        #expect(screen.lines.isEmpty)
    }

    @Test("a cell keeps its grapheme cluster inline and is plain data", arguments: ["a", " ", "é", "e\u{301}", "中", "😀", "🇫🇷", "\u{FFFD}"])
    func cellGlyph(_ text: String) {
        let character = Character(text)
        #expect(Cell(character).character == character)
        var cell = Cell.blank
        cell.character = character
        #expect(cell == Cell(character))
        #expect(_isPOD(Cell.self), "a cell must hold nothing reference-counted")
    }

    @Test("a cluster longer than 15 UTF-8 bytes keeps its first whole scalars")
    func longCluster() {
        // "a" and eight combining acute accents: 1 + 8 × 2 = 17 bytes; seven accents fit.
        let long = Character("a" + String(repeating: "\u{301}", count: 8))
        #expect(Cell(long).character == Character("a" + String(repeating: "\u{301}", count: 7)))
    }
}

@Suite("Cell layout")
struct CellLayoutTests {
    // The diff compares cells as three words: a padding byte would make equal cells differ.
    @Test("a cell is 24 bytes with no padding: its fields fill it")
    func noPadding() {
        #expect(MemoryLayout<Cell>.size == 24)
        #expect(MemoryLayout<Cell>.stride == 24)
        #expect(MemoryLayout<Style>.size == 7, "two 26-bit colours and four attributes, packed")
        #expect(MemoryLayout<Style>.size + MemoryLayout<Bool>.size + 16 == 24)
    }
}

@Suite("Screen.paste")
struct ScreenPasteTests {
    /// A block with a wide character (日) and styled text, drawn at its own top-left.
    static func block() -> Screen {
        var block = Screen(size: Size(width: 6, height: 2))
        block.put("a日b", column: 0, row: 0, style: Style(foreground: .cyan))
        block.put("xyz", column: 1, row: 1, style: .bold)
        return block
    }

    @Test("a block pasted inside the screen is what drawing its content there writes over blank cells, styles included")
    func insideEqualsDrawing() {
        var pasted = Screen(size: Size(width: 10, height: 4))
        pasted.paste(Self.block(), column: 2, row: 1)
        var drawn = Screen(size: Size(width: 10, height: 4))
        drawn.put("a日b", column: 2, row: 1, style: Style(foreground: .cyan))
        drawn.put("xyz", column: 3, row: 2, style: .bold)
        #expect(pasted == drawn)
        #expect(pasted.lines[1] == "  a日b    ", "10 columns, 日 in two of them")
    }

    @Test("a wide character cut by either edge of the paste becomes spaces, the block's and the screen's")
    func cutWideCharacters() {
        // The block's 日 (columns 1–2) cut by the screen's right edge.
        var right = Screen(size: Size(width: 4, height: 2))
        right.paste(Self.block(), column: 2, row: 0)
        #expect(right.lines[0] == "  a ")
        #expect(!right[3, 0].isContinuation)
        // Its 日 cut by the screen's left edge.
        var left = Screen(size: Size(width: 6, height: 2))
        left.paste(Self.block(), column: -2, row: 0)
        #expect(left.lines[0] == " b    ")
        #expect(!left[0, 0].isContinuation)
        // The screen's own 日 under the paste's left edge is detached, not left half drawn.
        var under = Screen(size: Size(width: 10, height: 2))
        under.put("日", column: 1, row: 0)
        under.paste(Screen(size: Size(width: 3, height: 1)), column: 2, row: 0)
        #expect(under.lines[0] == "          ")
        #expect((0..<10).allSatisfy { !under[$0, 0].isContinuation })
    }
}
