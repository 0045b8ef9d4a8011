import PerchInterfaceTesting
import PerchTestSupport
import Testing

@testable import PerchDomain
@testable import PerchInterface
@testable import PerchKit

/// `Screen.changedRuns(from:)` and `changedCellCount(from:)`: what a backend is handed to draw.
@Suite("Screen diff")
struct ScreenDiffTests {
    let size = Size(width: 10, height: 3)

    /// The diff written plainly, cell by cell through `Cell`'s fields: what `changedRuns` must
    /// give, however it reads the cells.
    static func referenceRuns(_ new: Screen, from old: Screen?) -> [ScreenRun] {
        let comparable = old.map { $0.size == new.size } ?? false
        func changed(_ column: Int, _ row: Int) -> Bool { !comparable || new[column, row] != old![column, row] }
        var runs: [ScreenRun] = []
        for row in 0..<new.size.height {
            var column = 0
            while column < new.size.width {
                guard changed(column, row) else {
                    column += 1
                    continue
                }
                var start = column
                while start > 0, new[start, row].isContinuation { start -= 1 }
                let style = new[start, row].style
                var text = ""
                column = start
                while column < new.size.width {
                    let cell = new[column, row]
                    if cell.isContinuation {
                        column += 1
                        continue
                    }
                    if column > start, cell.style != style || !changed(column, row) { break }
                    text.append(cell.character)
                    column += 1
                }
                runs.append(ScreenRun(row: row, column: start, text: text, columns: column - start, style: style))
            }
        }
        return runs
    }

    // Bug: with no old screen (the first frame, a resize) the rows were compared with memory past
    // the end of an empty array: from about 122,000 cells (1000×122) Perch crashed (SIGSEGV) at
    // its first frame; below that the garbage could make a row look unchanged and leave it undrawn.
    @Test(
        "Without an old screen every row is drawn, on the largest screen too (1000×500)",
        arguments: [
            Size(width: 1000, height: 500), Size(width: 1000, height: 122), Size(width: 80, height: 24),
        ])
    func noOldScreen(_ size: Size) {
        var screen = Screen(size: size)
        for row in stride(from: 0, to: size.height, by: 7) { screen.put("row \(row)", column: 1, row: row) }
        let changes = screen.changes(from: nil)
        #expect(Set(changes.spans.map(\.row)) == Set(0..<size.height), "every row has a run")
        #expect(changes.spans.map(\.columns).reduce(0, +) == size.width * size.height, "every cell is in a run")
    }

    @Test(
        "changedRuns equals the plain cell-by-cell diff on 2,000 random pairs of screens (ASCII, wide, combining, long clusters, every style)"
    )
    func matchesReference() {
        var generator = SplitMix64(seed: 0x5EED_D1FF)
        let pieces = ["a", "Z", " ", "·", "█", "▆", "日本", "é", "e\u{301}", "👩‍👩‍👧", "ß", "a" + String(repeating: "\u{301}", count: 9), "─"]
        // The eight, and colours beyond them (bright, 256-palette, true colour) as foregrounds
        // and backgrounds: a style's every bit is in the compared words.
        let colors: [Color?] =
            [nil] + TerminalColor.allCases.map { Color($0) } + [.bright(.red), .indexed(208), .indexed(255), Color(RGBColor(0x1E_90FF))]
        func randomStyle() -> Style {
            Style(
                foreground: colors.randomElement(using: &generator)!,
                background: Int.random(in: 0..<3, using: &generator) == 0 ? colors.randomElement(using: &generator)! : nil,
                bold: Bool.random(using: &generator),
                reverse: Int.random(in: 0..<4, using: &generator) == 0, dim: Bool.random(using: &generator),
                underline: Int.random(in: 0..<4, using: &generator) == 0)
        }
        func scribble(_ screen: inout Screen, times: Int) {
            for _ in 0..<times {
                var text = ""
                for _ in 0..<Int.random(in: 1...6, using: &generator) { text += pieces.randomElement(using: &generator)! }
                screen.put(
                    text, column: Int.random(in: -2..<screen.size.width, using: &generator),
                    row: Int.random(in: 0..<screen.size.height, using: &generator), style: randomStyle())
            }
        }
        for round in 0..<2_000 {
            let size = Size(width: Int.random(in: 1...40, using: &generator), height: Int.random(in: 1...4, using: &generator))
            var old = Screen(size: size)
            scribble(&old, times: Int.random(in: 0...8, using: &generator))
            var new = old
            scribble(&new, times: Int.random(in: 0...4, using: &generator))
            let previous: Screen? = round % 10 == 0 ? nil : old
            #expect(new.changedRuns(from: previous) == Self.referenceRuns(new, from: previous), "round \(round)")
            let changes = new.changes(from: previous)
            for span in changes.spans {
                let ascii = changes.utf8[span.bytes].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                #expect(span.isPrintableASCII == ascii, "round \(round): \(changes.text(of: span).debugDescription)")
            }
        }
    }

    @Test("the same screen twice changes nothing")
    func sameScreen() {
        var screen = Screen(size: size)
        screen.put("hello", column: 1, row: 1, style: .bold)
        #expect(screen.changedRuns(from: screen).isEmpty)
        #expect(screen.changedCellCount(from: screen) == 0)
    }

    @Test("without a previous screen, or after a resize, every cell is drawn: one run per row and style")
    func everything() {
        var screen = Screen(size: size)
        screen.put("ab", column: 4, row: 0, style: .bold)
        let expected = [
            ScreenRun(row: 0, column: 0, text: "    ", columns: 4, style: .plain),
            ScreenRun(row: 0, column: 4, text: "ab", columns: 2, style: .bold),
            ScreenRun(row: 0, column: 6, text: "    ", columns: 4, style: .plain),
            ScreenRun(row: 1, column: 0, text: "          ", columns: 10, style: .plain),
            ScreenRun(row: 2, column: 0, text: "          ", columns: 10, style: .plain),
        ]
        #expect(screen.changedRuns(from: nil) == expected)
        #expect(screen.changedRuns(from: Screen(size: Size(width: 9, height: 3))) == expected)
        #expect(screen.changedCellCount(from: nil) == 30)
    }

    @Test("only changed cells are sent, split where the style changes or a cell is unchanged")
    func onlyChanged() {
        var old = Screen(size: size)
        old.put("abcdef", column: 0, row: 1)
        var new = old
        new.put("xy", column: 1, row: 1)  // b c → x y
        new.put("Z", column: 3, row: 1, style: .bold)  // d → Z in bold
        new.put("F", column: 5, row: 1)  // e unchanged, f → F
        #expect(
            new.changedRuns(from: old) == [
                ScreenRun(row: 1, column: 1, text: "xy", columns: 2, style: .plain),
                ScreenRun(row: 1, column: 3, text: "Z", columns: 1, style: .bold),
                ScreenRun(row: 1, column: 5, text: "F", columns: 1, style: .plain),
            ])
        #expect(new.changedCellCount(from: old) == 4)
    }

    @Test("a style change alone is a change")
    func styleOnly() {
        var old = Screen(size: size)
        old.put("ab", column: 0, row: 0)
        var new = old
        new.restyle(Rect(x: 0, y: 0, width: 1, height: 1)) { $0.reverse = true }
        #expect(new.changedRuns(from: old) == [ScreenRun(row: 0, column: 0, text: "a", columns: 1, style: Style(reverse: true))])
    }

    @Test("a changed continuation cell is drawn by its wide character, from the character's first column")
    func wideCharacter() {
        var old = Screen(size: size)
        old.put("a界", column: 0, row: 0)
        var new = old
        new.restyle(Rect(x: 2, y: 0, width: 1, height: 1)) { $0.bold = true }  // the right half of 界 only
        let runs = new.changedRuns(from: old)
        #expect(runs == [ScreenRun(row: 0, column: 1, text: "界", columns: 2, style: .plain)])
    }

    @Test("a Catalog cursor move changes the two gutters and the position, not the two rows")
    func catalogCursorMove() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("2")))
        let before = state.render()
        _ = state.update(.key(.char("j")))
        let after = state.render()
        // 3 gutter cells on the old row, 3 on the new one, and "1/60" → "2/60" in the title.
        #expect(after.changedCellCount(from: before) == 7)
        #expect(after.changedRuns(from: before).map(\.row).sorted() == [0, 1, 2])
        #expect(after.lines[2].hasPrefix(" ▸  2  "))
        #expect((0..<3).allSatisfy { after[$0, 2].style == .selected })
        #expect((3..<80).allSatisfy { !after[$0, 2].style.reverse })
    }

    @Test("a sheet cursor move changes the two gutters only")
    func sheetCursorMove() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.openSheet()
        let before = state.render()
        _ = state.update(.key(KeyEvent(.down)))
        #expect(state.render().changedCellCount(from: before) == 6)
    }
}
