import PerchTestSupport
import Testing

@testable import PerchKit

/// The invariants every operation must keep: the cursor is a valid row and is inside the viewport,
/// and the viewport does not start past the last full page.
private func expectInvariants(_ c: ListCursor, count: Int, visible: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    if count == 0 {
        #expect(c.cursor == 0, sourceLocation: sourceLocation)
        return
    }
    #expect((0..<count).contains(c.cursor), "cursor \(c.cursor) outside 0..<\(count)", sourceLocation: sourceLocation)
    if visible > 0 {
        #expect(c.scroll >= 0, sourceLocation: sourceLocation)
        #expect(
            c.cursor >= c.scroll && c.cursor < c.scroll + visible, "cursor \(c.cursor) not in view \(c.scroll)..<\(c.scroll + visible)",
            sourceLocation: sourceLocation)
        #expect(c.scroll <= max(0, count - visible), "scroll \(c.scroll) past the last page", sourceLocation: sourceLocation)
    }
}

@Suite("ListCursor")
struct ListCursorTests {
    @Test("starts at the top")
    func initial() {
        let c = ListCursor()
        #expect(c == ListCursor(cursor: 0, scroll: 0))
    }

    @Test("move down within the viewport does not scroll")
    func moveWithinView() {
        var c = ListCursor()
        c.move(by: 3, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 3, scroll: 0))
    }

    @Test("moving past the bottom of the viewport scrolls just enough")
    func moveScrolls() {
        var c = ListCursor()
        for _ in 0..<10 { c.move(by: 1, count: 60, visible: 10) }
        #expect(c == ListCursor(cursor: 10, scroll: 1))
        c.move(by: 9, count: 60, visible: 10)  // page down
        #expect(c == ListCursor(cursor: 19, scroll: 10))
        c.move(by: -10, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 9, scroll: 9))
    }

    @Test(
        "move clamps at both ends",
        arguments: [
            // (start, delta, expected cursor)
            (0, -1, 0), (0, -100, 0), (59, 1, 59), (30, 100, 59), (5, -3, 2),
        ])
    func moveClamps(_ c: (Int, Int, Int)) {
        var cursor = ListCursor()
        cursor.moveTo(c.0, count: 60, visible: 10)
        cursor.move(by: c.1, count: 60, visible: 10)
        #expect(cursor.cursor == c.2)
        expectInvariants(cursor, count: 60, visible: 10)
    }

    @Test("moveTo the end shows the last page")
    func moveToEnd() {
        var c = ListCursor()
        c.moveTo(59, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 59, scroll: 50))
        c.moveTo(0, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 0, scroll: 0))
    }

    @Test("scroll moves the viewport and pulls the cursor into view")
    func scrollPullsCursor() {
        var c = ListCursor()
        c.scroll(by: 3, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 3, scroll: 3))
        c.scroll(by: 100, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 50, scroll: 50))
        c.scroll(by: -100, count: 60, visible: 10)
        #expect(c == ListCursor(cursor: 9, scroll: 0))
    }

    @Test("scroll does nothing when everything fits")
    func scrollShortList() {
        var c = ListCursor(cursor: 2, scroll: 0)
        c.scroll(by: 3, count: 4, visible: 10)
        #expect(c == ListCursor(cursor: 2, scroll: 0))
    }

    /// A clamp case: the cursor before, the new count and viewport, the cursor after.
    struct ClampCase: Sendable, CustomTestStringConvertible {
        var name: String
        var before: ListCursor
        var count: Int
        var visible: Int
        var after: ListCursor
        var testDescription: String { name }
    }

    @Test(
        "clamp re-establishes the invariants after the list or the viewport changed",
        arguments: [
            ClampCase(
                name: "list shrank: cursor on a row, viewport filled", before: ListCursor(cursor: 59, scroll: 50),
                count: 20, visible: 10, after: ListCursor(cursor: 19, scroll: 10)),
            ClampCase(
                name: "viewport grew: no empty rows past the end", before: ListCursor(cursor: 59, scroll: 53),
                count: 60, visible: 21, after: ListCursor(cursor: 59, scroll: 39)),
            ClampCase(
                name: "viewport shrank: cursor stays visible", before: ListCursor(cursor: 20, scroll: 0),
                count: 60, visible: 7, after: ListCursor(cursor: 20, scroll: 14)),
        ])
    func clamp(_ c: ClampCase) {
        var cursor = c.before
        cursor.clamp(count: c.count, visible: c.visible)
        #expect(cursor == c.after)
    }

    @Test("an empty list keeps the cursor at 0")
    func emptyList() {
        var c = ListCursor(cursor: 5, scroll: 3)
        c.clamp(count: 0, visible: 10)
        #expect(c == ListCursor(cursor: 0, scroll: 0))
        c.move(by: 1, count: 0, visible: 10)
        #expect(c.cursor == 0)
        c.scroll(by: 3, count: 0, visible: 10)
        #expect(c == ListCursor(cursor: 0, scroll: 0))
    }

    @Test("a zero-row viewport puts the scroll on the cursor")
    func zeroViewport() {
        var c = ListCursor()
        c.moveTo(7, count: 10, visible: 0)
        #expect(c == ListCursor(cursor: 7, scroll: 7))
    }

    @Test("random walks keep the invariants", arguments: [1, 2, 5, 10, 25])
    func randomWalk(visible: Int) {
        var rng = SplitMix64(seed: UInt64(visible))
        for count in [0, 1, 3, 10, 60] {
            var c = ListCursor()
            for _ in 0..<500 {
                switch rng.next() % 4 {
                case 0: c.move(by: Int(rng.next() % 21) - 10, count: count, visible: visible)
                case 1: c.moveTo(Int(rng.next() % 80) - 10, count: count, visible: visible)
                case 2: c.scroll(by: Int(rng.next() % 21) - 10, count: count, visible: visible)
                default: c.clamp(count: count, visible: visible)
                }
                expectInvariants(c, count: count, visible: visible)
            }
        }
    }
}

@Suite("Scroll kept across a resize")
struct ListCursorResizeTests {
    // Bug: cursor on item 30 with item 10 at the top, resized to 80×12 and back to 80×24: the top row was item 22.
    @Test("a viewport that shrinks and grows again brings the scroll position back")
    func shrinkAndGrow() {
        var list = ListCursor()
        list.moveTo(29, count: 60, visible: 21)
        list.scroll(by: -(list.scroll - 9), count: 60, visible: 21)
        list.moveTo(29, count: 60, visible: 21)
        #expect(list == ListCursor(cursor: 29, scroll: 9))
        list.clamp(count: 60, visible: 9)
        #expect(list == ListCursor(cursor: 29, scroll: 21), "the cursor as far from the top as the viewport allows")
        list.clamp(count: 60, visible: 21)
        #expect(list == ListCursor(cursor: 29, scroll: 9), "the scroll position chosen before comes back")
    }

    @Test("when the chosen position cannot show the cursor, the cursor keeps its distance from the top")
    func keepsDistance() {
        var list = ListCursor()
        list.moveTo(12, count: 100, visible: 20)  // scroll 0: the cursor 12 rows from the top
        list.clamp(count: 100, visible: 10)
        #expect(list == ListCursor(cursor: 12, scroll: 3), "9 rows from the top, the most 10 rows allow")
        list.move(by: 1, count: 100, visible: 10)
        #expect(list == ListCursor(cursor: 13, scroll: 4))
        list.clamp(count: 100, visible: 20)
        #expect(list == ListCursor(cursor: 13, scroll: 4), "a move made since is the new choice")
    }
}
