import Testing

@testable import PerchKit

@Suite("SheetLayout")
struct SheetLayoutTests {
    @Test(
        "height fits the accounts plus chrome, capped two rows below the screen top",
        arguments: [1, 4, 10, 30, 100], [24, 12, 6, 60]
    )
    func geometry(accounts: Int, screenHeight: Int) {
        let layout = SheetLayout(rowCount: accounts, screen: Size(width: 80, height: screenHeight))
        let expectedHeight = min(accounts + 3, screenHeight - 2)
        #expect(layout.height == expectedHeight)
        #expect(layout.top == screenHeight - expectedHeight)
        #expect(layout.visibleRows == max(0, expectedHeight - 3))
        #expect(layout.top >= 2, "at least two rows stay visible above the sheet")
        #expect(layout.frame == Rect(x: 0, y: screenHeight - expectedHeight, width: 80, height: expectedHeight))
        #expect(layout.firstRow == layout.top + 2)
        // The account rows end right above the footer, which is the last row of the screen.
        if layout.visibleRows > 0 {
            #expect(layout.firstRow + layout.visibleRows == screenHeight - 1)
        }
    }

    @Test(
        "a few concrete sheets",
        arguments: [
            // (accounts, screen height, height, top, visible rows)
            (4, 24, 7, 17, 4),
            (1, 24, 4, 20, 1),
            (40, 12, 10, 2, 7),
            (4, 6, 4, 2, 1),
            (100, 60, 58, 2, 55),
        ])
    func concrete(_ c: (Int, Int, Int, Int, Int)) {
        let layout = SheetLayout(rowCount: c.0, screen: Size(width: 40, height: c.1))
        #expect(layout.height == c.2)
        #expect(layout.top == c.3)
        #expect(layout.visibleRows == c.4)
    }

    @Test("tiny screens never give negative sizes", arguments: [0, 1, 2, 3, 4, 5])
    func tinyScreens(screenHeight: Int) {
        let layout = SheetLayout(rowCount: 4, screen: Size(width: 10, height: screenHeight))
        #expect(layout.height >= 0)
        #expect(layout.height <= max(0, screenHeight - 2))
        #expect(layout.visibleRows >= 0)
        #expect(layout.top + layout.height == screenHeight)
    }

    @Test("zero or negative row counts give just the chrome")
    func noRows() {
        #expect(SheetLayout(rowCount: 0, screen: Size(width: 80, height: 24)).height == 3)
        #expect(SheetLayout(rowCount: -5, screen: Size(width: 80, height: 24)).height == 3)
        #expect(SheetLayout(rowCount: 0, screen: Size(width: 80, height: 24)).visibleRows == 0)
    }
}
