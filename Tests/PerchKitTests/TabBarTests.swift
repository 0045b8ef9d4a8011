import Testing

@testable import PerchKit

@Suite("Tab bar")
struct TabBarTests {
    static let titles = ["Overview", "Catalog", "Stats", "Settings"]

    /// The label row of a bar `width` columns wide, with `selected` selected.
    func labels(_ width: Int, selected: Int = 1) -> String {
        var frame = Frame(size: Size(width: width, height: 2))
        TabBar(titles: Self.titles, selected: selected).render(into: &frame, in: Rect(x: 0, y: 0, width: width, height: 2))
        return frame.screen.lines[1]
    }

    @Test("the width is shared out evenly while every label fits its share with a blank column each side")
    func even() {
        #expect(TabBar.cells(titles: Self.titles, width: 80) == [0..<20, 20..<40, 40..<60, 60..<80])
        #expect(TabBar.cells(titles: Self.titles, width: 41) == [0..<10, 10..<20, 20..<30, 30..<41])
    }

    // Bug: at 30–33 columns the even share cut `Overview` to `Overvi…` while `Catalog` had
    // room, and at 32–33 `OverviewCatalog` ran together.
    @Test(
        "on a narrow bar the columns go by label: no label is cut while they fit, and a blank column follows each where there is room",
        arguments: 28...40)
    func byLabel(width: Int) {
        let cells = TabBar.cells(titles: Self.titles, width: width)
        #expect(cells.first?.lowerBound == 0 && cells.last?.upperBound == width, "the cells cover the bar: \(cells)")
        #expect(zip(cells, cells.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        let row = labels(width)
        for title in Self.titles { #expect(row.contains(title), "\(title) whole at \(width): \(row)") }
        if width >= 31 {  // the labels' 28 columns and 3 gaps
            for pair in ["OverviewCatalog", "CatalogStats", "StatsSettings"] {
                #expect(!row.contains(pair), "a gap between the labels at \(width): \(row)")
            }
        }
        let bar = TabBar(titles: Self.titles)
        for (index, cell) in cells.enumerated() {
            #expect(
                bar.index(atColumn: cell.lowerBound, width: width) == index
                    && bar.index(atColumn: cell.upperBound - 1, width: width) == index)
        }
    }

    @Test("below the labels' width the even share comes back as far as it can: each label is cut, none vanishes")
    func tooNarrow() {
        let cells = TabBar.cells(titles: Self.titles, width: 12)
        #expect(cells.map(\.count).reduce(0, +) == 12 && cells.allSatisfy { $0.count == 3 }, "\(cells)")
    }
}
