import Testing

@testable import PerchKit

/// The context menu alone: its update, its messages and its render into a small area, without
/// the root.
@Suite("MenuLayer")
struct MenuLayerTests {
    let context = Context(size: Size(width: 40, height: 12), reduceMotion: true)
    var area: Rect { Rect(x: 0, y: 0, width: 40, height: 12) }

    func menu(anchorRow: Int = 5, actions: [MenuLayer.Action]? = nil) -> MenuLayer {
        MenuLayer(
            title: "notes.txt", preview: ["12 lines", "edited today"],
            actions: actions ?? [.init("Open"), .init("Rename"), .init("Delete", isDestructive: true)], anchorRow: anchorRow)
    }

    @Test("↑ and ↓ move the focus between the actions, stopping at the ends; Enter replies with the focused action and dismisses")
    func moveAndPick() {
        var menu = menu()
        #expect(menu.keys.verb(for: KeyEvent(.down)) == .down)
        #expect(menu.keys.verb(for: KeyEvent(.escape)) == .close)
        _ = menu.update(.verb(.up), context)
        #expect(menu.focus == 0)
        for _ in 0..<5 { _ = menu.update(.verb(.down), context) }
        #expect(menu.focus == 2)
        _ = menu.update(.scroll(.layerChrome, notches: -1), context)
        #expect(menu.focus == 1)
        #expect(described(menu.update(.verb(.pick), context)) == ["reply(1)", "dismiss"])
    }

    @Test("A tap on an action picks it; Esc dismisses without a reply; a tap on the card does nothing")
    func tapAndClose() {
        var menu = menu()
        #expect(described(menu.update(.tap(.hit(MenuLayer.Part.action(2))), context)) == ["reply(2)", "dismiss"])
        #expect(menu.focus == 2)
        #expect(described(menu.update(.verb(.close), context)) == ["dismiss"])
        #expect(menu.update(.tap(.layerChrome), context).isEmpty)
    }

    @Test("Rendered into 40×12: the card with the title and preview above the actions, kept on the screen; each action marked")
    func render() {
        let menu = menu()
        var frame = Frame(size: context.size)
        frame.screen.put("Below", column: 0, row: 0, style: .bold)
        menu.render(into: &frame, in: area, context)
        let lines = frame.screen.lines
        // Anchored at row 5, the pair (10 rows) moves up to end on the last row.
        #expect(lines[2].hasPrefix(" ╭──") && lines[2].hasSuffix("──╮ "))
        #expect(lines[3].hasPrefix(" │ notes.txt"))
        #expect(lines[4].hasPrefix(" │ 12 lines"))
        #expect(lines[5].hasPrefix(" │ edited today"))
        #expect(lines[7].hasPrefix(" ╭──────────────╮"))
        #expect(lines[8].hasPrefix(" │ Open         │"))
        #expect(lines[10].hasPrefix(" │ Delete       │"))
        #expect(lines[11].hasPrefix(" ╰──────────────╯"))
        #expect(frame.screen[0, 0].style.dim, "the screen behind is dimmed")
        #expect(frame.hits.target(at: Position(column: 5, row: 8)) == .hit(MenuLayer.Part.action(0)))
        #expect(frame.hits.target(at: Position(column: 5, row: 10)) == .hit(MenuLayer.Part.action(2)))
        #expect(frame.hits.target(at: Position(column: 5, row: 3)) == .layerChrome)
        #expect(frame.hits.target(at: Position(column: 30, row: 9)) == .none, "beside the menu is outside")
        #expect(frame.screen[5, 8].style.reverse, "the focused action")
        #expect(frame.screen[5, 10].style.foreground == .red, "the destructive action")
    }

    @Test("The card's title lines up with the anchor row when there is room")
    func anchored() {
        let layout = menu(anchorRow: 2).layout(in: area)
        #expect(layout.card.y + 1 == 2, "the title row is the anchor row")
        #expect(menu(anchorRow: 0).layout(in: area).card.y == 0, "at the top it stays on the screen")
        #expect(layout.menu.y == layout.card.maxY)
    }

    @Test("On a short screen the card shrinks to its title and the actions scroll to keep the focus shown")
    func short() {
        let area = Rect(x: 0, y: 0, width: 40, height: 8)
        let context = Context(size: Size(width: 40, height: 8), reduceMotion: true)
        var menu = menu(actions: (1...5).map { MenuLayer.Action("Action \($0)") })
        let layout = menu.layout(in: area)
        #expect(layout.card.height == MenuLayer.Layout.minimumCardHeight)
        #expect(layout.visibleActions == 3)
        #expect(layout.menu.maxY <= 8 && layout.card.y >= 0)
        for _ in 0..<4 { _ = menu.update(.verb(.down), context) }
        var frame = Frame(size: context.size)
        menu.render(into: &frame, in: area, context)
        #expect(frame.screen.lines[6].contains("Action 5"))
        #expect(frame.hits.target(at: Position(column: 5, row: 6)) == .hit(MenuLayer.Part.action(4)))
    }

    @Test("A preview message replaces the card's lines (a preview worked out late)")
    func previewMessage() {
        var menu = menu()
        #expect(menu.receive(.preview(["340 words", "by the editor"]), context).isEmpty)
        #expect(menu.preview == ["340 words", "by the editor"])
        var frame = Frame(size: context.size)
        menu.render(into: &frame, in: area, context)
        #expect(frame.screen.lines[4].hasPrefix(" │ 340 words"))
        #expect(!frame.screen.text.contains("12 lines"))
    }

    @Test("On a wide short screen the menu goes beside the full card; on a narrow one below a card that shrinks")
    func beside() {
        let wide = menu(anchorRow: 5).layout(in: Rect(x: 0, y: 0, width: 80, height: 8))
        #expect(wide.isBeside && wide.card.height == 5 && wide.menu.x == wide.card.maxX + 1 && wide.menu.y == wide.card.y)
        #expect(wide.card.maxY <= 8 && wide.menu.maxY <= 8 && wide.menu.maxX <= 80)
        let narrow = menu(anchorRow: 5).layout(in: Rect(x: 0, y: 0, width: 40, height: 8))
        #expect(!narrow.isBeside && narrow.card.height == 3 && narrow.menu.y == narrow.card.maxY)
        let tall = menu(anchorRow: 5).layout(in: area)
        #expect(!tall.isBeside, "below when both fit")
    }

    @Test("A focusable card: ↑ from the first action focuses it (border bold), Enter or a tap on it replies previewPicked")
    func focusableCard() {
        var menu = MenuLayer(
            title: "notes.txt", styledPreview: [StyledLine("12 lines", style: Style(foreground: .cyan)), "edited today"],
            actions: [.init("Open"), .init("Delete", isDestructive: true)], anchorRow: 5, previewIsFocusable: true)
        _ = menu.update(.verb(.up), context)
        #expect(menu.focus == MenuLayer.previewPicked)
        _ = menu.update(.verb(.up), context)
        #expect(menu.focus == MenuLayer.previewPicked, "the card is the top")
        var frame = Frame(size: context.size)
        menu.render(into: &frame, in: area, context)
        let card = menu.layout(in: area).card
        #expect(frame.screen[card.x, card.y].style.bold, "the focused card's border is bold")
        #expect(frame.screen[card.x + 2, card.y + 2].style.foreground == .cyan, "a preview line keeps its style")
        #expect(frame.hits.target(at: Position(column: card.x + 3, row: card.y + 1)) == .hit(MenuLayer.Part.preview))
        #expect(described(menu.update(.verb(.pick), context)) == ["reply(-1)", "dismiss"])
        var other = menu
        other.focus = 1
        #expect(described(other.update(.tap(.hit(MenuLayer.Part.preview)), context)) == ["reply(-1)", "dismiss"])
        var plain = self.menu()
        _ = plain.update(.verb(.up), context)
        #expect(plain.focus == 0, "a card that is not focusable never takes the focus")
        #expect(plain.update(.tap(.hit(MenuLayer.Part.preview)), context).isEmpty)
    }

    @Test("Actions past the menu's edge are marked ↑ more / ↓ more on its border, and a click on a mark scrolls to them")
    func moreMarks() {
        var menu = menu(actions: (1...12).map { MenuLayer.Action("Action \($0)") })
        var frame = Frame(size: context.size)
        menu.render(into: &frame, in: area, context)
        let box = menu.layout(in: area).menu
        let visible = menu.layout(in: area).visibleActions
        #expect(visible < 12, "the 12 actions do not fit in 12 rows")
        #expect(frame.screen.lines[box.maxY - 1].contains("↓ more"))
        #expect(!frame.screen.lines[box.y].contains("↑ more"), "nothing above the first")
        #expect(frame.hits.target(at: Position(column: box.x + 2, row: box.maxY - 1)) == .layerScroll(1))
        _ = menu.update(.tap(.layerScroll(1)), context)
        #expect(menu.focus == visible, "the first action below the edge")
        frame = Frame(size: context.size)
        menu.render(into: &frame, in: area, context)
        #expect(frame.screen.lines[box.y].contains("↑ more"))
        _ = menu.update(.tap(.layerScroll(-1)), context)
        #expect(menu.focus == 0)
    }
}
