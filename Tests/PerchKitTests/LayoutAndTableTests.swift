import Testing

@testable import PerchKit

/// Splitting a rect by rows and columns, and the table widget.
@Suite("Layout and Table")
struct LayoutAndTableTests {
    @Test("Rows: fixed and percentage parts first, fill parts share the rest by weight, spacing between, nothing past the rect")
    func rows() {
        let area = Rect(x: 2, y: 1, width: 30, height: 20)
        let parts = area.rows([.fixed(1), .fill, .fill(2), .percent(10)], spacing: 1)
        // 20 − 3 spacing − 1 fixed − 2 (10 %) = 14, shared 1:2: 4 and 9 rounded down, and the
        // cell left over to the first fill part.
        #expect(parts.map(\.height) == [1, 5, 9, 2])
        #expect(parts.map(\.y) == [1, 3, 9, 19])
        #expect(parts.last?.maxY == area.maxY)
        #expect(parts.allSatisfy { $0.x == 2 && $0.width == 30 })
        // Too little room: fixed parts get what is left, in order; the rest are empty at the end.
        let tight = Rect(x: 0, y: 0, width: 10, height: 4).rows([.fixed(3), .fixed(3), .fill])
        #expect(tight.map(\.height) == [3, 1, 0])
        #expect(tight.map(\.maxY).allSatisfy { $0 <= 4 })
        #expect(Rect(x: 0, y: 0, width: 10, height: 4).rows([]).isEmpty)
        // Extreme sizes trapped on overflow; they are clamped.
        let extreme = Rect(x: 0, y: 0, width: 10, height: 30).rows([.fill(Int.max), .fill(Int.max), .fixed(Int.max)], spacing: Int.max)
        #expect(extreme.allSatisfy { $0.maxY <= 30 && $0.height >= 0 })
    }

    @Test("Columns split as rows do; inset takes cells off each edge and never goes below empty")
    func columnsAndInset() {
        let area = Rect(x: 0, y: 0, width: 41, height: 3)
        let parts = area.columns([.fill, .fixed(8), .fill], spacing: 1)
        #expect(parts.map(\.width) == [16, 8, 15])
        #expect(parts.map(\.x) == [0, 17, 26])
        #expect(area.inset(top: 1, left: 2, bottom: 1, right: 2) == Rect(x: 2, y: 1, width: 37, height: 1))
        #expect(area.inset(left: 50).width == 0)
    }

    static let files = [["README.md", "4 KiB"], ["Package.swift", "3 KiB"], ["Sources", "—"], ["Tests", "—"], ["docs", "—"]]

    static func table() -> Table {
        Table(columns: [.init("Name", .fill), .init("Size", .fixed(6), alignment: .trailing)], rows: files)
    }

    static func drawn(_ table: Table, width: Int = 24, height: Int = 4, focused: Bool = true) -> Frame {
        var frame = Frame(size: Size(width: width, height: height))
        table.render(into: &frame, in: Rect(x: 0, y: 0, width: width, height: height), focused: focused)
        return frame
    }

    @Test("A table draws its header, its rows in columns (the size to the right), the cursor's row selected, and scrolls with the cursor")
    func drawsAndScrolls() {
        var table = Self.table()
        var frame = Self.drawn(table)
        #expect(frame.screen.lines[0] == "Name                Size")
        #expect(frame.screen.lines[1] == "README.md          4 KiB")
        #expect(frame.screen[0, 1].style == .selected && frame.screen[0, 2].style == .plain)
        for _ in 0..<4 { table.move(.down, visible: 3) }
        #expect(table.selected == 4)
        frame = Self.drawn(table)
        #expect(frame.screen.lines[1].hasPrefix("Sources") && frame.screen.lines[3].hasPrefix("docs"), "\(frame.screen.lines)")
        #expect(frame.screen[0, 3].style == .selected)
        #expect(Self.drawn(table, focused: false).screen[0, 3].style == Style(underline: true))
        table.move(.first, visible: 3)
        #expect(table.selected == 0)
    }

    @Test("A click on a row selects it, through the part the table marks; a click on the header does nothing")
    func clickSelects() {
        var table = Self.table()
        let frame = Self.drawn(table)
        let area = Rect(x: 0, y: 0, width: 24, height: 4)
        #expect(frame.hits.target(at: Position(column: 3, row: 2)).part(Table.Part.self) == .row(1))
        #expect(table.select(row: 2, in: area) && table.selected == 1)
        #expect(!table.select(row: 0, in: area) && table.selected == 1)
    }

    @Test("The filter keeps rows with a cell holding it, ignoring case; with none it says so; cleared, every row is back")
    func filters() {
        var table = Self.table()
        table.setFilter("S")
        #expect(table.shown == [1, 2, 3, 4], "Package.swift, Sources, Tests, docs; README.md holds no s")
        #expect(table.selected == 1)
        table.setFilter("kib")
        #expect(table.shown == [0, 1])
        table.setFilter("zzz")
        #expect(table.selected == nil)
        #expect(Self.drawn(table).screen.lines[1].hasPrefix("No match for \"zzz\""))
        table.setFilter("")
        #expect(table.shown.count == 5)
        table.replaceRows([["one", "1"]], visible: 3)
        #expect(table.selected == 0 && table.shown == [0])
    }

    @Test("A cell too long for its column ends in …, and a missing cell is blank")
    func cutsCells() {
        let table = Table(columns: [.init("Name", .fixed(6)), .init("Note", .fill)], rows: [["a-very-long-name"], ["b", "x"]])
        let lines = Self.drawn(table, width: 14, height: 3).screen.lines
        #expect(lines[1].hasPrefix("a-ver… ") && lines[1].trimmingCharacters(in: .whitespaces) == "a-ver…", "\(lines)")
        #expect(lines[2].hasPrefix("b      x"))
    }

    /// A table grown taller kept the scroll a shorter one needed: rows above hidden, blank below.
    @Test("A table drawn taller than when it scrolled shows from its first row again, the cursor still shown")
    func growsBack() {
        var table = Self.table()
        table.move(.last, visible: 2)
        #expect(Self.drawn(table, height: 3).screen.lines[2].hasPrefix("docs"))
        let tall = Self.drawn(table, height: 8).screen.lines
        #expect(tall[1].hasPrefix("README.md") && tall[5].hasPrefix("docs"), "\(tall)")
    }
}
