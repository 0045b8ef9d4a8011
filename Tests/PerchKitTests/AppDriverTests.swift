import Foundation
import PerchKitLoop
import PerchKitTesting
import Testing

@testable import PerchKit

/// PerchKit's test driver: a whole app on a virtual terminal and clock, fed the bytes a terminal
/// sends at the times the test says.
@Suite("AppDriver")
struct AppDriverTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots").path

    static func driver(_ panes: [any Pane] = [CounterPane(), NotePane()], gestures: GestureRecognizer.Configuration = .init()) throws
        -> AppDriver
    {
        try AppDriver(TabApp(panes: panes, size: Size(width: 40, height: 12), reduceMotion: true), gestures: gestures)
    }

    /// Column of `label` on the tab bar (the last row).
    static func tab(_ label: String, _ driver: AppDriver) throws -> Int {
        let row = try #require(driver.lines.last)
        let range = try #require(row.range(of: label))
        return row.distance(from: row.startIndex, to: range.lowerBound) + 1
    }

    @Test("Every key the driver sends, legacy or kitty with its event type, decodes to that key")
    func encodingRoundTrips() {
        let keys: [KeyEvent] = [
            .char("a"), .char("é"), KeyEvent(.character("x"), modifiers: .alt), KeyEvent(.control("w")), KeyEvent(.enter), KeyEvent(.tab),
            KeyEvent(.tab, modifiers: .shift), KeyEvent(.backspace), KeyEvent(.escape), KeyEvent(.up), KeyEvent(.left, modifiers: .alt),
            KeyEvent(.home), KeyEvent(.end), KeyEvent(.pageUp), KeyEvent(.pageDown), KeyEvent(.delete), KeyEvent(.insert),
            KeyEvent(.function(1)), KeyEvent(.function(3)), KeyEvent(.function(5)), KeyEvent(.function(12)), KeyEvent(.menu),
            KeyEvent(.down, modifiers: .control), KeyEvent(.function(13)), KeyEvent(.function(20)), KeyEvent(.function(35)),
        ]
        for key in keys {
            var decoder = InputDecoder()
            #expect(decoder.feed(TerminalInput.legacy(key)[...]) == [.key(key)], "legacy \(key)")
            var kitty = InputDecoder()
            #expect(kitty.feed(TerminalInput.kitty(key, .press)[...]) == [.key(key)], "kitty press \(key)")
            #expect(kitty.feed(TerminalInput.kitty(key, .repeat)[...]) == [.keyRepeat(key)], "kitty repeat \(key)")
            #expect(kitty.feed(TerminalInput.kitty(key, .release)[...]) == [.keyRelease(key)], "kitty release \(key)")
        }
    }

    @Test("A key held with auto-repeat raises the tab's sheet at the long-press time; a short press does not")
    func autoRepeatHold() throws {
        let driver = try Self.driver()
        driver.holdKey(.char("1"), for: 200)
        #expect(!driver.text.contains("Three"), "200 ms is a press:\n\(driver.text)")
        driver.advance(by: 1_000)
        driver.holdKey(.char("1"), for: 700)
        #expect(driver.text.contains("Three"), "held 700 ms, the sheet is up:\n\(driver.text)")
        driver.press(KeyEvent(.down))
        driver.press(KeyEvent(.enter))
        driver.advance(by: 400)
        #expect(driver.app.pane(CounterPane.self)?.picked == 1)
    }

    @Test("With kitty release events, a held key with no repeats raises the sheet before its release; a press and release at once does not")
    func kittyHold() throws {
        var gestures = GestureRecognizer.Configuration()
        gestures.keyHoldMode = .releaseEvents
        let driver = try Self.driver(gestures: gestures)
        driver.kittyHold(.char("1"), for: 100, repeats: false)
        #expect(!driver.text.contains("Three"))
        driver.kitty(.char("1"), .press)
        driver.advance(by: 600)
        #expect(driver.text.contains("Three"), "up while still held:\n\(driver.text)")
        driver.kitty(.char("1"), .release)
    }

    @Test("A mouse press held on the tab raises the sheet; a click on a row picks it")
    func mouseLongPressAndClick() throws {
        let driver = try Self.driver()
        let column = try Self.tab("Counter", driver)
        driver.longPress(column: column, row: 11, for: 600)
        let row = try #require(driver.lines.firstIndex { $0.contains("Three") })
        driver.click(column: 6, row: row)
        driver.advance(by: 400)
        #expect(driver.app.pane(CounterPane.self)?.picked == 2)
        #expect(!driver.text.contains("Three"), "the sheet went")
    }

    @Test("Typed keys, work off the loop, a paste into a layer, a resize and q: each reaches the app as a terminal would send it")
    func keysWorkPasteResizeQuit() throws {
        let driver = try Self.driver()
        driver.type("++d")
        #expect(driver.settleWork())
        #expect(driver.app.pane(CounterPane.self)?.doubled == 4)
        #expect(driver.lines[0].hasPrefix("Counter 2"))
        driver.type("2n")
        driver.paste("hello\n")
        driver.press(KeyEvent(.enter))
        #expect(driver.lines.contains { $0.hasPrefix("note: hello") }, "\(driver.text)")
        driver.resize(to: Size(width: 30, height: 8))
        #expect(driver.screen.size == Size(width: 30, height: 8))
        driver.type("q")
        #expect(driver.exitStatus == 0)
    }

    @Test("A snapshot holds the text and the styles; a screen that differs fails with the rows that differ")
    func snapshots() throws {
        let driver = try Self.driver()
        driver.holdKey(.char("1"), for: 700)
        try driver.expectSnapshot("counter-sheet-40x12", in: Self.snapshots)
        #expect(driver.snapshot.contains("reverse") || driver.snapshot.contains("bold"), "styles are described:\n\(driver.snapshot)")
        let folder = NSTemporaryDirectory() + "appdriver-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A missing snapshot fails (and is written, to be checked and committed).
        #expect(throws: AppDriver.DriverError.self) { try driver.expectSnapshot("new", in: folder) }
        #expect(FileManager.default.fileExists(atPath: folder + "/new.txt"))
        try driver.expectSnapshot("new", in: folder)
        #expect(
            !driver.snapshot.split(separator: "\n").contains { $0.hasSuffix(" ") && !$0.hasPrefix("  ") }, "rows without trailing spaces")
        try driver.snapshot.replacingOccurrences(of: "Three", with: "Four!").write(
            toFile: folder + "/s.txt", atomically: true, encoding: .utf8)
        #expect(throws: AppDriver.DriverError.self) { try driver.expectSnapshot("s", in: folder) }
        do {
            try driver.expectSnapshot("s", in: folder)
        } catch {
            #expect("\(error)".contains("expected") && "\(error)".contains("Four!"), "\(error)")
        }
    }
}
