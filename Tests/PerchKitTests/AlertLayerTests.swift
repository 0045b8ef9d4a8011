import Testing

@testable import PerchKit

/// The alert alone: its update and its render into a small area, without the root.
@Suite("AlertLayer")
struct AlertLayerTests {
    let context = Context(size: Size(width: 40, height: 12), reduceMotion: true)
    var area: Rect { Rect(x: 0, y: 0, width: 40, height: 12) }

    func alert(_ buttons: [AlertLayer.Button] = [.init("Cancel", role: .cancel), .init("Delete", role: .destructive)]) -> AlertLayer {
        AlertLayer(title: "Delete the file?", message: "It cannot be brought back once it is gone from the disk.", buttons: buttons)
    }

    @Test("The focus starts on the cancel button wherever it is, so a stray Enter presses Cancel")
    func focusStartsOnCancel() {
        var first = alert()
        #expect(first.focus == 0)
        #expect(described(first.update(.verb(.press), context)) == ["reply(0)", "dismiss"])
        let last = alert([.init("Delete", role: .destructive), .init("Keep"), .init("Cancel", role: .cancel)])
        #expect(last.focus == 2)
        #expect(alert([.init("Yes"), .init("No")]).focus == 0, "no cancel button: the first")
    }

    @Test("→ and Tab move the focus right, ← and Shift-Tab left, wrapping round; Enter replies with the focused button and dismisses")
    func moveAndPress() {
        var alert = alert([.init("Cancel", role: .cancel), .init("Keep"), .init("Delete", role: .destructive)])
        #expect(alert.keys.verb(for: KeyEvent(.right)) == .next)
        #expect(alert.keys.verb(for: KeyEvent(.tab)) == .next)
        #expect(alert.keys.verb(for: KeyEvent(.left)) == .previous)
        #expect(alert.keys.verb(for: KeyEvent(.tab, modifiers: .shift)) == .previous)
        #expect(alert.keys.verb(for: KeyEvent(.escape)) == .cancel)
        _ = alert.update(.verb(.next), context)
        _ = alert.update(.verb(.next), context)
        #expect(alert.focus == 2)
        _ = alert.update(.verb(.next), context)
        #expect(alert.focus == 0, "wraps to the first")
        _ = alert.update(.verb(.previous), context)
        #expect(alert.focus == 2, "wraps to the last")
        _ = alert.update(.verb(.previous), context)
        #expect(described(alert.update(.verb(.press), context)) == ["reply(1)", "dismiss"])
    }

    @Test("Esc presses the cancel button; with no cancel button it dismisses without a reply; a tap on a button presses it")
    func cancelAndTap() {
        var alert = alert([.init("Delete", role: .destructive), .init("Cancel", role: .cancel)])
        _ = alert.update(.verb(.previous), context)
        #expect(described(alert.update(.verb(.cancel), context)) == ["reply(1)", "dismiss"])
        var plain = self.alert([.init("OK")])
        #expect(described(plain.update(.verb(.cancel), context)) == ["dismiss"])
        var tapped = self.alert()
        #expect(described(tapped.update(.tap(.hit(AlertLayer.Part.button(1))), context)) == ["reply(1)", "dismiss"])
        #expect(described(tapped.update(.tap(.layerChrome), context)).isEmpty, "a tap on the box presses nothing")
        #expect(described(tapped.update(.tap(.hit(AlertLayer.Part.button(7))), context)).isEmpty, "no such button")
    }

    @Test(
        "Rendered into 40×12: a bold box centred over the dimmed screen, the title, the message wrapped, the buttons right-aligned and marked"
    )
    func render() {
        let alert = alert()
        var frame = Frame(size: context.size)
        frame.screen.put("Behind", column: 0, row: 0, style: .bold)
        frame.screen.put("wordy", column: 0, row: 4)
        alert.render(into: &frame, in: area, context)
        let lines = frame.screen.lines
        #expect(lines[2] == " ╭────────────────────────────────────╮ ")
        #expect(lines[3] == " │ Delete the file?                   │ ")
        #expect(lines[4] == " │ It cannot be brought back once it  │ ")
        #expect(lines[5] == " │ is gone from the disk.             │ ")
        #expect(lines[6] == " │                                    │ ")
        #expect(lines[7] == " │              [ Cancel ] [ Delete ] │ ")
        #expect(lines[8] == " ╰────────────────────────────────────╯ ")
        #expect(frame.screen[0, 0].style.dim && !frame.screen[0, 0].style.bold, "the screen behind is dimmed")
        #expect(frame.screen[1, 2].style.bold, "a bold border")
        #expect(frame.hits.target(at: Position(column: 20, row: 7)) == .hit(AlertLayer.Part.button(0)))
        #expect(frame.hits.target(at: Position(column: 30, row: 7)) == .hit(AlertLayer.Part.button(1)))
        #expect(frame.hits.target(at: Position(column: 5, row: 5)) == .layerChrome)
        #expect(frame.hits.target(at: Position(column: 0, row: 0)) == .none, "outside the box is the root's to mark")
        #expect(frame.screen[20, 7].style.reverse, "the focused button")
        #expect(frame.screen[30, 7].style.foreground == .red, "the destructive button")
    }

    @Test("On a screen too small for the whole message, the message is cut with … and the box stays inside the area")
    func small() {
        let alert = alert()
        let area = Rect(x: 0, y: 0, width: 24, height: 6)
        let layout = alert.layout(in: area)
        #expect(layout.messageLines.count == 1)
        #expect(layout.messageLines[0].hasSuffix("…"))
        #expect(layout.frame == Rect(x: 1, y: 0, width: 22, height: 6))
        #expect(layout.buttons.allSatisfy { $0.x > layout.frame.x && $0.maxX < layout.frame.maxX })
    }

    // Bug: on a screen 24 columns wide the buttons overlapped (`[ Cancel [ Delete ]`).
    @Test(
        "On a narrow screen the buttons lose their inner spaces, then cut their labels, and never overlap",
        arguments: [
            (24, "[Cancel] [Delete]"), (20, "[Canc…] [Dele…]"), (40, "[ Cancel ] [ Delete ]"),
        ])
    func narrowButtons(width: Int, drawn: String) {
        let area = Rect(x: 0, y: 0, width: width, height: 8)
        let layout = alert().layout(in: area)
        let rects = layout.buttons
        #expect(rects.count == 2 && rects[0].maxX < rects[1].x, "a column between them: \(rects)")
        #expect(rects.allSatisfy { $0.x > layout.frame.x && $0.maxX < layout.frame.maxX }, "inside the box")
        var frame = Frame(size: Size(width: width, height: 8))
        alert().render(into: &frame, in: area, Context(size: Size(width: width, height: 8)))
        #expect(frame.screen.lines[rects[0].y].contains(drawn), "\(frame.screen.lines[rects[0].y])")
        #expect(frame.hits.target(at: Position(column: rects[1].x, row: rects[1].y)).part(AlertLayer.Part.self) == .button(1))
    }

    // Bug: a title wider than the box was cut, not wrapped (at 20 columns, "Delete “Swift…").
    @Test("A title wider than the box wraps onto more rows, above the message, up to three")
    func titleWraps() {
        let area = Rect(x: 0, y: 0, width: 20, height: 12)
        let alert = AlertLayer(
            title: "Delete “Swift Compass”?", message: "It goes.", buttons: [.init("Cancel", role: .cancel), .init("Delete")])
        let layout = alert.layout(in: area)
        #expect(layout.titleLines == ["Delete “Swift", "Compass”?"])
        var frame = Frame(size: Size(width: 20, height: 12))
        alert.render(into: &frame, in: area, Context(size: Size(width: 20, height: 12)))
        let lines = frame.screen.lines
        let top = layout.frame.y
        #expect(lines[top + 1].contains("Delete “Swift") && lines[top + 2].contains("Compass”?"), "\(lines)")
        #expect(lines[top + 3].contains("It goes."), "the message below the title")
        #expect(frame.screen[layout.frame.x + 2, top + 2].style.bold, "the title is bold on every row")
        let long = AlertLayer(title: String(repeating: "word ", count: 20), message: "m", buttons: [.init("OK")])
        #expect(long.layout(in: area).titleLines.count == AlertLayer.Layout.maximumTitleRows)
        #expect(long.layout(in: area).titleLines.last?.hasSuffix("…") == true)
    }
}
