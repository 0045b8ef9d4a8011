import Testing

@testable import PerchCore

/// `Screen.changedRuns(from:)` and `changedCellCount(from:)`: what a backend is handed to draw.
@Suite("Screen diff")
struct ScreenDiffTests {
    let size = Size(width: 10, height: 3)

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
        var state = AppState(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
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
        var state = AppState(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.openSheet()
        let before = state.render()
        _ = state.update(.key(KeyEvent(.down)))
        #expect(state.render().changedCellCount(from: before) == 6)
    }
}
