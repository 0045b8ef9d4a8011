import Testing

@testable import PerchKit

/// The sheet alone: its update and its render into a small area, without the root.
@Suite("Sheet")
struct SheetTests {
    let context = Context(size: Size(width: 30, height: 12), clock: 0, reduceMotion: true)

    func sheet(_ count: Int = 3) -> Sheet {
        var sheet = Sheet(title: "Pick", items: (0..<count).map { Sheet.Item("Row \($0)", swatch: .red) })
        _ = sheet.advance(context)
        return sheet
    }

    @Test("At the fit detent the sheet is as tall as its rows plus grabber, title and footer; at large, all but the top row")
    func fitted() {
        var sheet = sheet(3)
        #expect(sheet.layout(context).height == 3 + SheetLayout.chromeRows)
        _ = sheet.update(.verb(.larger), context)
        _ = sheet.advance(context)
        #expect(sheet.layout(context).height == 11)
        var long = self.sheet(40)
        #expect(long.layout(context).height == 12 - SheetLayout.minimumRowsAbove, "capped to leave 2 rows above")
        _ = long.update(.verb(.move(.last)), context)
        #expect(long.cursor.cursor == 39)
        #expect(long.cursor.scroll == 40 - long.layout(context).visibleRows, "scrolled to show the last row")
    }

    @Test("Enter replies with the row under the cursor and dismisses; a tap on a row picks that row")
    func picks() {
        var sheet = sheet()
        _ = sheet.update(.verb(.move(.down)), context)
        let reactions = sheet.update(.verb(.pick), context)
        #expect(reactions.count == 2)
        if case .reply(let value) = reactions[0].request { #expect(value as? Int == 1) } else { Issue.record("no reply") }
        if case .dismiss = reactions[1].request {} else { Issue.record("no dismiss") }
        let tapped = sheet.update(.tap(.hit(Sheet.Part.row(2))), context)
        if case .reply(let value)? = tapped.first?.request { #expect(value as? Int == 2) } else { Issue.record("no reply to a tap") }
    }

    @Test("Dragging the grabber follows the pointer; released low it dismisses, released high it snaps to large")
    func drag() {
        var sheet = sheet()
        _ = sheet.update(.drag(.hit(Sheet.Part.grabber), Position(column: 3, row: 4)), context)
        _ = sheet.advance(context)
        #expect(sheet.layout(context).top == 4)
        #expect(sheet.update(.dragEnded(.hit(Sheet.Part.grabber), Position(column: 3, row: 2)), context).isEmpty)
        _ = sheet.advance(context)
        #expect(sheet.motion.detent == .large)
        let released = sheet.update(.dragEnded(.hit(Sheet.Part.grabber), Position(column: 3, row: 11)), context)
        if case .dismiss? = released.first?.request {} else { Issue.record("released low, it did not dismiss: \(released.count)") }
    }

    @Test(
        "Rendered into 30×12: grabber on the top edge, title and count, the rows with their swatches, the footer; rows and grabber marked")
    func render() {
        let sheet = sheet()
        var frame = Frame(size: context.size)
        sheet.render(into: &frame, in: Rect(x: 0, y: 0, width: 30, height: 12), context)
        let lines = frame.screen.lines
        #expect(lines[6].contains("━━━━━━"))
        #expect(lines[7].contains("Pick") && lines[7].contains("3 items"))
        #expect(lines[8].contains("██ Row 0") && lines[10].contains("██ Row 2"))
        #expect(lines[11].contains("Enter pick"))
        #expect(frame.hits.target(at: Position(column: 5, row: 9)) == .hit(Sheet.Part.row(1)))
        #expect(frame.hits.target(at: Position(column: 5, row: 6)).acceptsDrag)
        #expect(frame.screen[8, 8].style.reverse, "the cursor's row is highlighted")
        #expect(frame.screen[4, 8].style.foreground == .red, "the swatch")
    }

    @Test("With motion, the sheet rises over 150 ms with an ease-out and slides away after dismissal")
    func motion() {
        var moving = Context(size: context.size, clock: 0, reduceMotion: false)
        var sheet = Sheet(title: "Pick", items: [.init("a"), .init("b")])
        let present = sheet.advance(moving)
        #expect(present)
        #expect(sheet.isAnimating)
        moving.clock = 50
        let midway = sheet.layout(moving).height
        #expect(midway > 0 && midway < 5, "part way up at 50 ms: \(midway)")
        moving.clock = 150
        _ = sheet.advance(moving)
        #expect(!sheet.isAnimating && sheet.layout(moving).height == 5)
        let slides = sheet.beginDismissal(moving)
        #expect(slides)
        #expect(!sheet.isActive)
        _ = sheet.advance(moving)
        moving.clock = 300
        let stays = sheet.advance(moving)
        #expect(!stays, "gone once it slid away")
    }

    /// Two groups of fruit and vegetables, filterable.
    func grouped() -> Sheet {
        var sheet = Sheet(
            title: "Food",
            items: [.heading("Fruit"), .init("Apple"), .init("Pear", detail: "green"), .heading("Vegetables"), .init("Leek")],
            filterable: true)
        _ = sheet.advance(context)
        return sheet
    }

    @Test("Group headings are drawn bold and dim, never take the cursor, and are not picked by a tap; the count leaves them out")
    func headings() {
        var sheet = grouped()
        #expect(sheet.cursor.cursor == 1, "the cursor starts on the first item, past the heading")
        _ = sheet.update(.verb(.move(.down)), context)
        _ = sheet.update(.verb(.move(.down)), context)
        #expect(sheet.cursor.cursor == 4, "Pear, then over Vegetables to Leek")
        _ = sheet.update(.verb(.move(.up)), context)
        #expect(sheet.cursor.cursor == 2)
        _ = sheet.update(.verb(.move(.first)), context)
        #expect(sheet.cursor.cursor == 1, "Home stops at the first item, not the heading")
        #expect(sheet.update(.tap(.hit(Sheet.Part.row(3))), context).isEmpty, "a heading is not picked")
        // The wheel moves the cursor a row a notch, as the account sheet's does (it moved 3).
        _ = sheet.update(.scroll(.hit(Sheet.Part.chrome), notches: 1), context)
        #expect(sheet.cursor.cursor == 2)
        _ = sheet.update(.scroll(.hit(Sheet.Part.chrome), notches: 1), context)
        #expect(sheet.cursor.cursor == 4, "over the heading")
        _ = sheet.update(.verb(.move(.first)), context)
        var frame = Frame(size: context.size)
        sheet.render(into: &frame, in: Rect(x: 0, y: 0, width: 30, height: 12), context)
        let lines = frame.screen.lines
        let heading = lines.firstIndex { $0.contains("Vegetables") }!
        #expect(frame.screen[1, heading].style == Style(bold: true, dim: true))
        #expect(frame.hits.target(at: Position(column: 5, row: heading)) == .hit(Sheet.Part.chrome))
        #expect(lines.contains { $0.contains("Food") && $0.contains("3 items") })
        let wide = Context(size: Size(width: 50, height: 12), clock: 0, reduceMotion: true)
        var wideFrame = Frame(size: wide.size)
        sheet.render(into: &wideFrame, in: Rect(x: 0, y: 0, width: 50, height: 12), wide)
        #expect(wideFrame.screen.lines.contains { $0.contains("/ filter") }, "a filterable sheet's footer says so")
    }

    @Test(
        "/ narrows the items to those whose title or detail holds the text, ignoring case; Enter replies the item's own index; Esc clears the filter first"
    )
    func filter() {
        var sheet = grouped()
        #expect(sheet.keys.verb(for: .char("/")) == .startFilter)
        _ = sheet.update(.verb(.startFilter), context)
        #expect(sheet.keys.typesText(.char("g")), "printable keys type while the filter is typed")
        for character in "GREEN" { _ = sheet.update(.key(.char(character)), context) }
        #expect(sheet.shown == [2], "Pear, by its detail; headings hide")
        var frame = Frame(size: context.size)
        sheet.render(into: &frame, in: Rect(x: 0, y: 0, width: 30, height: 12), context)
        #expect(frame.screen.lines.contains { $0.contains("/ GREEN▏") && $0.contains("1 of 3") })
        let reactions = sheet.update(.verb(.pick), context)
        if case .reply(let value)? = reactions.first?.request { #expect(value as? Int == 2) } else { Issue.record("no reply") }
        var cleared = grouped()
        _ = cleared.update(.verb(.startFilter), context)
        _ = cleared.update(.paste("zzz"), context)
        #expect(cleared.shown.isEmpty && cleared.update(.verb(.pick), context).isEmpty, "nothing to pick")
        frame = Frame(size: context.size)
        cleared.render(into: &frame, in: Rect(x: 0, y: 0, width: 30, height: 12), context)
        #expect(frame.screen.lines.contains { $0.contains("No match") })
        #expect(cleared.keys.verb(for: KeyEvent(.escape)) == .clearFilter, "Esc clears the filter before it closes the sheet")
        _ = cleared.update(.verb(.clearFilter), context)
        #expect(cleared.shown == Array(0..<5) && cleared.list.filter == nil && cleared.cursor.cursor == 1)
        var kept = grouped()
        _ = kept.update(.verb(.startFilter), context)
        _ = kept.update(.paste("leek"), context)
        _ = kept.update(.verb(.clearFilter), context)
        #expect(kept.cursor.cursor == 4, "clearing the filter keeps the cursor on Leek")
        #expect(cleared.keys.verb(for: KeyEvent(.escape)) == nil, "then Esc is the root's: it closes")
        var plain = self.sheet(3)
        #expect(plain.keys.verb(for: .char("/")) == nil && plain.update(.verb(.startFilter), context).isEmpty && plain.list.filter == nil)
    }

    // Bug: an inset sheet's bottom edge was blank between its corners, after the footer.
    @Test("An inset sheet's bottom edge is a rule from corner to corner, the footer drawn on it")
    func insetBottomEdge() {
        let context = Context(size: Size(width: 50, height: 12), clock: 0, reduceMotion: true)
        var sheet = Sheet(title: "Pick", items: (0..<3).map { Sheet.Item("Row \($0)") }, style: .inset)
        _ = sheet.advance(context)
        var frame = Frame(size: context.size)
        sheet.render(into: &frame, in: Rect(x: 0, y: 0, width: 50, height: 12), context)
        let bottom = frame.screen.lines[sheet.layout(context).frame.maxY - 1]
        #expect(bottom.hasPrefix(" ╰ ↑↓ move · Enter pick · Esc close ─"), "\(bottom)")
        #expect(bottom.hasSuffix("──╯ "), "\(bottom)")
        #expect(!bottom.contains("  ╯"), "no blank run before the corner: \(bottom)")
    }
}

@Suite("TabBar, HelpLayer")
struct TabBarAndHelpTests {
    @Test("The tab bar shares the width out, draws a rule above the labels, and marks each tab with its index")
    func tabBar() {
        var frame = Frame(size: Size(width: 21, height: 6))
        TabBar(titles: ["One", "Two", "Three"], selected: 1, holdable: [0]).render(into: &frame, in: Rect(x: 0, y: 4, width: 21, height: 2))
        #expect(frame.screen.lines[4] == String(repeating: "─", count: 21))
        #expect(frame.screen.lines[5] == "  One    Two   Three ")
        #expect(frame.hits.target(at: Position(column: 8, row: 5)).part(TabBar.Part.self)?.index == 1)
        #expect(frame.hits.target(at: Position(column: 1, row: 5)).acceptsLongPress)
        #expect(!frame.hits.target(at: Position(column: 15, row: 5)).acceptsLongPress)
        #expect(frame.screen[8, 5].style.reverse, "the selected tab")
        #expect(TabBar.height(screenHeight: 5) == 1, "no rule on a short screen")
    }

    @Test("Help lists each section's keys padded to the widest label, and closes on Esc, ? or q")
    func help() {
        var help = HelpLayer(title: "Pane", sections: [.init("", [("+", "more")]), .init("Everywhere", [("Shift-Tab", "back")])])
        #expect(help.text == ["+          more", "", "Everywhere", "Shift-Tab  back"], "an untitled section has no heading")
        for key in [KeyEvent(.escape), .char("?"), .char("q")] {
            let verb = help.keys.verb(for: key)
            #expect(verb == .close)
        }
        let context = Context(size: Size(width: 30, height: 10))
        if case .dismiss? = help.update(.verb(.close), context).first?.request {} else { Issue.record("close did not dismiss") }
        var frame = Frame(size: context.size)
        help.render(into: &frame, in: Rect(x: 0, y: 0, width: 30, height: 10), context)
        let lines = frame.screen.lines
        #expect(lines.contains { $0.contains("Shift-Tab  back") })
        #expect(lines[2].contains("Keys · Pane"), "the top border names what help describes: \(lines[2])")
        #expect(lines[7].contains("Esc close") && !lines[7].contains(" of "), "all shows: the footer only says how to close")
    }

    // Bug: a help text as wide as the room left ran into the box's right border.
    @Test("Help keeps a blank column before its right border, as after its left one; a longer text goes on over the next line")
    func helpClearOfTheBorder() throws {
        // A 30-column box: `k` and the gap leave 30 - 2 - 1 - 2 - 2 = 23 columns of text, one
        // less than the box's inside past the key column.
        let help = HelpLayer(
            title: "T", sections: [.init("", [("k", String(repeating: "x", count: 23)), ("j", String(repeating: "y", count: 24))])])
        let context = Context(size: Size(width: 32, height: 10))
        var frame = Frame(size: context.size)
        help.render(into: &frame, in: Rect(x: 0, y: 0, width: 32, height: 10), context)
        let rows = frame.screen.lines.filter { $0.contains("│ k") || $0.contains("│ j") }
        #expect(rows.count == 2, "\(frame.screen.lines)")
        #expect(rows.allSatisfy { $0.contains(" │") && !$0.contains("x│") && !$0.contains("y│") && !$0.contains("…│") }, "\(rows)")
        #expect(rows[0].contains(String(repeating: "x", count: 23)), "a text that fits is whole: \(rows[0])")
        // Issue 48: help was cut with … where it did not fit; it goes on over the next line.
        #expect(rows[1].contains(String(repeating: "y", count: 23) + " │"), "a longer one fills its line: \(rows[1])")
        let index = try #require(frame.screen.lines.firstIndex(of: rows[1]))
        #expect(frame.screen.lines[index + 1].contains("│    y "), "and goes on below: \(frame.screen.lines[index + 1])")
        #expect(!frame.screen.text.contains("…"))
    }

    // Bug: the end of a word the help box cut, a full stop or an ellipsis, stood beside its border.
    @Test("Help blanks the words it cuts beside its border, their punctuation too, and keeps rules and blanks")
    func helpClearsCutWords() {
        let help = HelpLayer(title: "T", sections: [.init("", [("k", "up")])])
        let area = Rect(x: 0, y: 0, width: 40, height: 9)
        var frame = Frame(size: Size(width: 40, height: 9))
        for row in 0..<9 { frame.screen.put(String(repeating: "to switch account. ", count: 3), column: 0, row: row) }
        frame.screen.put(String(repeating: "─", count: 40), column: 0, row: 8)
        help.render(into: &frame, in: area, Context(size: Size(width: 40, height: 9)))
        let (box, _) = HelpLayer.layout(lineCount: help.lines.count, in: area)
        for row in box.y..<box.maxY {
            let line = Array(frame.screen.lines[row])
            #expect(line[box.x - 1] == " " && line[box.maxX] == " ", "nothing stands beside the border: \(String(line))")
        }
        #expect(frame.screen.lines[8].hasPrefix("────"), "a rule is no word: \(frame.screen.lines[8])")
    }

    @Test("Help longer than its box scrolls a line, a page or to either end, and its footer says which lines show")
    func helpScrolls() {
        var help = HelpLayer(title: "Long", sections: [.init("", (1...20).map { HelpLayer.Row("k\($0)", "does \($0)") })])
        let context = Context(size: Size(width: 40, height: 10))
        let screen = Rect(x: 0, y: 0, width: 40, height: 10)
        var frame = Frame(size: context.size)
        help.render(into: &frame, in: screen, context)
        #expect(frame.screen.lines.contains { $0.contains("1–6 of 20 · Esc close") }, "\(frame.screen.lines)")
        _ = help.update(.verb(.move(.down)), context)
        _ = help.update(.scroll(.layerChrome, notches: 3), context)
        #expect(help.scroll == 2, "a key and a wheel event move one line each")
        for _ in 0..<30 { _ = help.update(.verb(.move(.down)), context) }
        #expect(help.scroll == 14, "no further than the last line at the bottom")
        frame = Frame(size: context.size)
        help.render(into: &frame, in: screen, context)
        #expect(frame.screen.lines.contains { $0.contains("15–20 of 20") })
        _ = help.update(.verb(.move(.first)), context)
        _ = help.update(.verb(.move(.pageDown)), context)
        #expect(help.scroll == 5, "a page is the lines shown but one")
        _ = help.update(.verb(.move(.last)), context)
        #expect(help.scroll == 14)
        _ = help.update(.verb(.move(.pageUp)), context)
        #expect(help.scroll == 9)
        #expect(frame.screen.lines.contains { $0.contains("k20") && $0.contains("does 20") })
    }
}
