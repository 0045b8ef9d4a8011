import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The inline picker's root model alone (``AccountPicker``): the interface's own sheet, with the
/// picker's rules, drawn as the block alone.
struct InlinePickerModeTests {
    static let terminal = Size(width: 60, height: 24)

    static func picker(current: String? = "personal", height: Int? = nil) -> AccountPicker {
        AccountPicker(
            accounts: Account.samples, saved: SavedState(currentAccount: current), terminal: terminal, height: height, verb: "pick")
    }

    static func trimmed(_ frame: Frame) -> [String] {
        frame.screen.lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    @Test("The frame is the block alone: grabber, title, one row per account, the picker's keys; nothing of the panes")
    func frameIsTheBlock() {
        let state = Self.picker()
        let frame = state.renderFrame()
        #expect(frame.size == Size(width: 60, height: 7), "4 accounts and 3 rows of chrome")
        let lines = Self.trimmed(frame)
        #expect(lines[0].contains("━━━"))
        #expect(lines[1].hasPrefix(" Switch account") && lines[1].hasSuffix("4 accounts"))
        #expect(
            lines[2...5].map { $0.dropFirst(3).prefix(12).trimmingCharacters(in: .whitespaces) } == [
                "Work", "Personal", "Open Source", "Side Project",
            ])
        #expect(lines[3].hasPrefix(" ● "), "the current account is marked")
        #expect(lines[6] == " type to filter · ↑↓ move · Enter pick · Esc cancel")
        #expect(!lines.contains { $0.contains("Overview") || $0.contains("Add account") })
        #expect(frame.hits.target(at: Position(column: 5, row: 5)) == .sheetRow(3), "hits are in the block's rows")
    }

    @Test("Typing filters at once, even ? and q; Enter ends with the first match and asks for no switch")
    func typingThenEnter() {
        var state = Self.picker()
        var effects: [PerchInterface.Effect] = []
        for c in "?q" { effects += state.update(.key(.char(c))) }
        #expect(state.sheet?.filter == "?q", "typed into the filter")
        #expect(state.sheet?.keys.title == AccountSheet.filterKeyTable.title, "no help over the sheet")
        #expect(effects.isEmpty, "\(effects)")
        _ = state.update(.key(KeyEvent(.backspace)))
        _ = state.update(.key(KeyEvent(.backspace)))
        for c in "side" { _ = state.update(.key(.char(c))) }
        #expect(state.update(.key(KeyEvent(.enter))) == [.quit], "it ends, and asks for no switch itself")
        #expect(state.outcome == .picked(accountID: "side"))
    }

    @Test("The block has no colour until the terminal's background is known; then the current account's mark is its colour")
    func colourAfterBackground() {
        var state = Self.picker()
        func colours() -> Set<Color> {
            let screen = state.renderFrame().screen
            var found = Set<Color>()
            for row in 0..<screen.size.height {
                for column in 0..<screen.size.width { if let color = screen[column, row].style.foreground { found.insert(color) } }
            }
            return found
        }
        #expect(state.startupQueries == [.backgroundColor, .cursorPosition])
        #expect(colours().isEmpty)
        _ = state.update(.terminalReply(.backgroundColor(.black)))
        #expect(state.background == .dark)
        // The cursor starts on the current account, drawn in reverse: no colour shows.
        #expect(colours().isEmpty)
        _ = state.update(.key(KeyEvent(.down)))
        // Bug: an account's `color` was never drawn; the mark was green whatever the config said,
        // and the blank gutter of every other row carried green too.
        #expect(colours() == [.green], "personal's own colour")
        var side = Self.picker(current: "side")
        _ = side.update(.terminalReply(.backgroundColor(.black)))
        _ = side.update(.key(KeyEvent(.up)))
        let screen = side.renderFrame().screen
        let marks = (0..<screen.size.height).compactMap { row in
            (0..<screen.size.width).first { screen[$0, row].character == "●" }.map { screen[$0, row].style.foreground }
        }
        #expect(marks == [.yellow], "side's mark in side's colour, yellow (on a dark background, where yellow reads)")
        // Bug: the mark was bold, and bold blue and magenta read on no light background, so a
        // light terminal showed no account's colour.
        var work = Self.picker(current: "work")
        _ = work.update(.terminalReply(.backgroundColor(.white)))
        _ = work.update(.key(KeyEvent(.down)))
        let light = work.renderFrame().screen
        let lightMarks = (0..<light.size.height).compactMap { row in
            (0..<light.size.width).first { light[$0, row].character == "●" }.map { light[$0, row].style }
        }
        #expect(lightMarks.map(\.foreground) == [.blue] && lightMarks.allSatisfy { !$0.bold }, "\(lightMarks)")
    }

    @Test("Enter on the current account still picks it")
    func currentIsPicked() {
        var state = Self.picker()
        #expect(state.update(.key(KeyEvent(.enter))) == [.quit])
        #expect(state.outcome == .picked(accountID: "personal"))
    }

    @Test(
        "Esc and Ctrl-D cancel, Ctrl-C interrupts, also while filtering",
        arguments: [
            (KeyEvent(.escape), InlinePickerMode.Outcome.cancelled), (KeyEvent(.control("c")), .interrupted),
            (KeyEvent(.control("d")), .cancelled),
        ])
    func cancels(key: KeyEvent, outcome: InlinePickerMode.Outcome) {
        var state = Self.picker()
        _ = state.update(.key(.char("o")))
        #expect(state.update(.key(key)) == [.quit])
        #expect(state.outcome == outcome)
        #expect(state.update(.key(.char("x"))).isEmpty, "nothing is taken after the end")
    }

    @Test("The pointer is placed only once the cursor's line is known; then a tap on a row picks it")
    func pointerAfterTheReport() {
        var state = Self.picker()
        #expect(state.framePosition(Position(column: 4, row: 10)) == nil)
        #expect(state.update(.terminalReply(.cursorPosition(row: 9, column: 0))) == [.setMouse(true)])
        #expect(state.framePosition(Position(column: 4, row: 14)) == Position(column: 4, row: 4))
        let target = state.renderFrame().hits.target(at: Position(column: 4, row: 4))
        #expect(target == .sheetRow(2))
        #expect(state.update(.tap(target)) == [.quit])
        #expect(state.outcome == .picked(accountID: "oss"))
    }

    @Test("A tap on the blank rows under a filtered sheet does not cancel, and drags do nothing")
    func blankRowsAndDrags() {
        var state = Self.picker()
        for c in "side" { _ = state.update(.key(.char(c))) }
        let frame = state.renderFrame()
        #expect(frame.size.height == 7, "the block keeps its rows")
        let blank = frame.hits.target(at: Position(column: 4, row: 6))
        #expect(state.update(.tap(blank)).isEmpty)
        #expect(state.update(.drag(.sheetGrabber, Position(column: 4, row: 0))).isEmpty)
        #expect(state.update(.longPress(.sheetRow(0))).isEmpty)
        #expect(state.outcome == nil)
    }

    @Test("A resize fits the block again, takes the rows again and asks where they are; the pointer waits for the answer")
    func resize() {
        var state = Self.picker()
        _ = state.update(.terminalReply(.cursorPosition(row: 3, column: 0)))
        let effects = state.update(.resize(Size(width: 70, height: 10)))
        #expect(effects == [.setMouse(false), .takeRows(6, clearingLine: true), .ask(.cursorPosition)])
        #expect(state.framePosition(Position(column: 0, row: 5)) == nil)
        #expect(state.renderFrame().size == Size(width: 70, height: 6))
        let lines = Self.trimmed(state.renderFrame())
        #expect(lines[5].hasSuffix("1–3 of 4"), "the footer says where the list is: \(lines)")
    }

    @Test("Before the first frame the rows are taken; after it the background and the cursor's position are asked; no Catalog source runs")
    func startup() {
        var state = Self.picker(height: 5)
        #expect(state.startupEffects == [.takeRows(5, clearingLine: false)])
        #expect(state.startupQueries == [.backgroundColor, .cursorPosition])
        #expect(state.update(.focus(true)).isEmpty, "no identity check")
        #expect(state.update(.key(KeyEvent(.down))).isEmpty, "no Catalog load at the first event")
    }
}
