import Foundation
import PerchKitTesting
import Testing

@testable import PerchKit
@testable import PerchKitDemoApp
@testable import PerchKitPlanetsApp

/// The two example apps, driven whole by the test driver: their behaviours that need no real
/// terminal, in milliseconds (tmux runs the same apps for real in the end-to-end tests).
@Suite("The example apps under the test driver")
struct ExampleAppTests {
    @Test("perchkit-demo: a held 1 raises the colours; Green picked shows on both tabs; kitty's answer turns release events on")
    func demo() throws {
        let driver = try AppDriver(demoApp(size: Size(width: 80, height: 24), reduceMotion: true))
        #expect(
            driver.backend.controls.contains { $0.starts(with: Array("\u{1B}[?u".utf8)) },
            "asked for the kitty keyboard protocol once drawn")
        driver.holdKey(.char("1"), for: 800)
        #expect(driver.text.contains("Pick a colour"), "\(driver.text)")
        driver.press(KeyEvent(.down))
        driver.press(KeyEvent(.enter))
        #expect(driver.text.contains("Picked: Green"))
        #expect(driver.settleWork())
        #expect(driver.text.contains("Green is colour 2"), "the pane's work came back")
        driver.reply(Array("\u{1B}[?0u".utf8))
        #expect(driver.backend.calls.contains { $0.hasPrefix("pushKeyboardFlags") }, "\(driver.backend.calls)")
        driver.type("2")
        #expect(driver.text.contains("Picked so far: Green"))
        #expect(driver.text.contains("Key holds: press and release"), "\(driver.text)")
    }

    @Test("perchkit-demo: / in the colours' sheet narrows them as typed; Esc clears the filter, a second Esc closes; Enter picks the match")
    func demoSheetFilter() throws {
        let driver = try AppDriver(demoApp(size: Size(width: 80, height: 24), reduceMotion: true))
        driver.holdKey(.char("1"), for: 800)
        #expect(driver.text.contains("Pick a colour") && driver.text.contains("6 items"), "\(driver.text)")
        driver.type("/ma")
        #expect(driver.text.contains("/ ma▏") && driver.text.contains("1 of 6") && !driver.text.contains("Green"), "\(driver.text)")
        driver.press(KeyEvent(.escape))
        #expect(driver.text.contains("6 items") && driver.text.contains("Pick a colour"), "Esc cleared the filter: \(driver.text)")
        driver.type("/cy")
        driver.press(KeyEvent(.enter))
        #expect(driver.text.contains("Picked: Cyan"), "\(driver.text)")
        driver.holdKey(.char("1"), for: 800)
        driver.press(KeyEvent(.escape))
        #expect(!driver.text.contains("Pick a colour"), "Esc with no filter closes the sheet")
    }

    @Test("perchkit-demo: w starts slow work, and q quits while it runs")
    func demoQuitsWhileWorking() throws {
        let driver = try AppDriver(demoApp(size: Size(width: 80, height: 24), reduceMotion: true))
        driver.type("w")
        #expect(driver.text.contains("Working…"))
        #expect(driver.runner.workInFlight == 1)
        driver.type("q")
        #expect(driver.exitStatus == 0)
    }

    @Test("perchkit-planets: the filter narrows the table as typed; Enter says a planet's moons; a note is added on the Notes tab")
    func planets() throws {
        let driver = try AppDriver(planetsApp(size: Size(width: 60, height: 16)))
        #expect(driver.text.contains("8 of 8"))
        driver.type("/ur")
        #expect(driver.text.contains("3 of 8") && !driver.text.contains("Neptune"))
        try driver.expectSnapshot("planets-filtered-60x16", in: AppDriverTests.snapshots)
        driver.press(KeyEvent(.enter))
        driver.press(KeyEvent(.down))
        driver.press(KeyEvent(.enter))
        #expect(driver.text.contains("Saturn has 146 known moons."))
        driver.press(KeyEvent(.tab))
        driver.type("hello wrld")
        for _ in 0..<3 { driver.press(KeyEvent(.left)) }
        driver.type("o")
        driver.press(KeyEvent(.enter))
        #expect(driver.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "hello world" }, "\(driver.text)")
        // Bug: a filter kept with Enter could not be cleared with Esc, as --help says.
        driver.press(KeyEvent(.tab))
        #expect(driver.text.contains("3 of 8"), "the filter typed first is kept: \(driver.text)")
        driver.press(KeyEvent(.escape))
        #expect(driver.text.contains("8 of 8"), "Esc cleared the kept filter: \(driver.text)")
        driver.press(KeyEvent(.control("c")))
        #expect(driver.exitStatus == 0)
    }

    /// The Notes list counted a row more than it shows, so the note added last was off screen.
    @Test("perchkit-planets: at 60×12 the note added last is on the screen, the cursor on it")
    func newestNoteShown() throws {
        let driver = try AppDriver(planetsApp(size: Size(width: 60, height: 12)))
        driver.press(KeyEvent(.tab))
        for index in 1...8 {
            driver.type("note\(index)")
            driver.press(KeyEvent(.enter))
        }
        #expect(driver.lines.contains { $0.contains("note8") }, "\(driver.text)")
        // And a table that grew back shows its first rows again.
        driver.resize(to: Size(width: 60, height: 24))
        #expect(driver.lines.contains { $0.contains("note1") } && driver.lines.contains { $0.contains("note8") }, "\(driver.text)")
    }
}
