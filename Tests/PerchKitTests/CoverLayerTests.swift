import Testing

@testable import PerchKit

/// The full-screen cover alone: its update and its render into a small area, without the root.
@Suite("CoverLayer")
struct CoverLayerTests {
    let context = Context(size: Size(width: 40, height: 12), reduceMotion: true)
    var area: Rect { Rect(x: 0, y: 0, width: 40, height: 12) }

    func cover(_ count: Int = 30) -> CoverLayer {
        CoverLayer(title: "Notes", lines: (1...count).map { "Line \($0)" })
    }

    @Test(
        "Keys scroll the text within its lines: a row, a page (the rows shown less one), the ends",
        arguments: [
            ([.down], 1), ([.down, .up, .up], 0), ([.pageDown], 7), ([.pageDown, .pageUp], 0),
            ([.last], 22), ([.last, .down], 22), ([.last, .first], 0),
        ] as [([ListMove], Int)])
    func scrolls(moves: [ListMove], scroll: Int) {
        var cover = cover()
        for move in moves { #expect(cover.update(.verb(.move(move)), context).isEmpty) }
        #expect(cover.scroll == scroll)
    }

    @Test("The wheel scrolls 3 rows a notch; a text shorter than the screen does not scroll")
    func wheel() {
        var cover = cover()
        _ = cover.update(.scroll(.layerChrome, notches: 2), context)
        #expect(cover.scroll == 6)
        _ = cover.update(.scroll(.layerChrome, notches: -5), context)
        #expect(cover.scroll == 0)
        var short = self.cover(3)
        _ = short.update(.verb(.move(.last)), context)
        #expect(short.scroll == 0)
    }

    @Test("Esc, q or a tap on the ✕ dismisses it; a tap elsewhere on it does nothing")
    func closes() {
        var cover = cover()
        #expect(cover.coversScreen)
        #expect(cover.keys.verb(for: KeyEvent(.escape)) == .close)
        #expect(cover.keys.verb(for: .char("q")) == .close)
        #expect(described(cover.update(.verb(.close), context)) == ["dismiss"])
        #expect(described(cover.update(.tap(.hit(CoverLayer.Part.close)), context)) == ["dismiss"])
        #expect(cover.update(.tap(.layerChrome), context).isEmpty)
    }

    @Test("Rendered into 40×12: the ✕ and the title, a rule, the lines shown, a footer with the position; the ✕ marked, the rest its own")
    func render() {
        var cover = cover()
        _ = cover.update(.verb(.move(.down)), context)
        var frame = Frame(size: context.size)
        frame.screen.put("below", column: 0, row: 5)
        cover.render(into: &frame, in: area, context)
        let lines = frame.screen.lines
        #expect(lines[0].hasPrefix(" ✕  Notes"))
        #expect(lines[1] == String(repeating: "─", count: 40))
        #expect(lines[2].allSatisfy { $0 == " " })
        #expect(lines[3].hasPrefix("  Line 2"))
        #expect(lines[5].hasPrefix("  Line 4"), "what was below is hidden")
        #expect(lines[10].hasPrefix("  Line 9"))
        #expect(lines[11].hasPrefix(" Esc or ✕ close · ↑↓ scroll (2–9 of 30)"))
        #expect(frame.hits.target(at: Position(column: 1, row: 0)) == .hit(CoverLayer.Part.close))
        #expect(frame.hits.target(at: Position(column: 20, row: 6)) == .layerChrome)
        var short = Frame(size: context.size)
        self.cover(2).render(into: &short, in: area, context)
        #expect(short.screen.lines[11].hasPrefix(" Esc or ✕ close "), "nothing to scroll: no position")
        #expect(!short.screen.lines[11].contains("scroll"))
    }

    @Test("Styled lines keep their style; footer hints follow the footer's own words, scroll position included")
    func styledLinesAndHints() {
        let cover = CoverLayer(
            title: "Notes",
            styledLines: [StyledLine("Warning", style: Style(foreground: .red))] + (1...20).map { StyledLine("Line \($0)") },
            scroll: 0, footerHints: ["a: another sheet"])
        var frame = Frame(size: Size(width: 60, height: 12))
        cover.render(into: &frame, in: Rect(x: 0, y: 0, width: 60, height: 12), context)
        #expect(frame.screen.lines[CoverLayer.firstTextRow].hasPrefix("  Warning"))
        #expect(frame.screen[2, CoverLayer.firstTextRow].style.foreground == .red)
        #expect(frame.screen[2, CoverLayer.firstTextRow + 1].style.foreground == nil)
        #expect(frame.screen.lines[11].hasPrefix(" Esc or ✕ close · ↑↓ scroll (1–8 of 21) · a: another sheet"), "\(frame.screen.lines[11])")
    }
}
