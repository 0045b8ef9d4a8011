import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

@Suite("Layout")
struct LayoutTests {
    @Test(
        "tab columns cover the width left to right with no gap and no overlap",
        arguments: [0, 1, 2, 3, 4, 5, 7, 10, 33, 80, 81, 83, 120, 200])
    func tabColumnsCoverWidth(width: Int) {
        let layout = Layout(size: Size(width: width, height: 24))
        var next = 0
        for tab in Tab.allCases {
            let columns = layout.tabColumns(tab)
            #expect(columns.lowerBound == next, "\(tab) starts at \(columns.lowerBound), expected \(next)")
            next = columns.upperBound
        }
        #expect(next == width)
    }

    @Test("tab widths differ by at most one column where every label fits its even share", arguments: [4, 10, 40, 80, 81, 83, 120])
    func tabColumnsEven(width: Int) {
        let layout = Layout(size: Size(width: width, height: 24))
        let widths = Tab.allCases.map { layout.tabColumns($0).count }
        #expect(widths.max()! - widths.min()! <= 1)
    }

    @Test("80 columns: four tabs of 20")
    func eightyColumns() {
        let layout = Layout(size: Size(width: 80, height: 24))
        #expect(layout.tabColumns(.overview) == 0..<20)
        #expect(layout.tabColumns(.catalog) == 20..<40)
        #expect(layout.tabColumns(.stats) == 40..<60)
        #expect(layout.tabColumns(.settings) == 60..<80)
    }

    @Test(
        "tab(at:) finds the tab on the last row only",
        arguments: [Size(width: 80, height: 24), Size(width: 33, height: 6), Size(width: 10, height: 3)])
    func tabAtLastRowOnly(size: Size) {
        let layout = Layout(size: size)
        for row in 0..<size.height {
            for column in 0..<size.width {
                let tab = layout.tab(at: Position(column: column, row: row))
                if row == size.height - 1 {
                    let expected = Tab.allCases.first { layout.tabColumns($0).contains(column) }
                    #expect(tab != nil)
                    #expect(tab == expected, "column \(column)")
                } else {
                    #expect(tab == nil, "row \(row) column \(column) is not the tab row")
                }
            }
        }
    }

    @Test("tab(at:) is nil outside the screen")
    func tabAtOutside() {
        let layout = Layout(size: Size(width: 80, height: 24))
        #expect(layout.tab(at: Position(column: -1, row: 23)) == nil)
        #expect(layout.tab(at: Position(column: 80, row: 23)) == nil)
        #expect(layout.tab(at: Position(column: 5, row: 24)) == nil)
        #expect(layout.tab(at: Position(column: 0, row: 23)) == .overview)
        #expect(layout.tab(at: Position(column: 79, row: 23)) == .settings)
    }

    @Test(
        "tab bar and pane split the screen",
        arguments: [
            // (height, tab bar height, pane height, list rows)
            (24, 2, 22, 21), (6, 2, 4, 3), (5, 1, 4, 3), (3, 1, 2, 1), (1, 1, 0, 0), (0, 0, 0, 0),
        ])
    func verticalSplit(_ c: (Int, Int, Int, Int)) {
        let layout = Layout(size: Size(width: 80, height: c.0))
        #expect(layout.tabBarHeight == c.1)
        #expect(layout.pane.height == c.2)
        #expect(layout.listRows == c.3)
        #expect(layout.pane.y == 0)
        #expect(layout.pane.maxY == layout.tabBar.y)
        #expect(layout.tabBar.maxY == c.0)
    }
}
