import PerchDomain
import PerchInterface
import PerchKit
import Testing

@testable import PerchStore

@Suite("The settings file")
struct SettingsFileTests {
    // Bug: two open windows each wrote their own copy of the settings whole, so the later one
    // undid the other's change (Reduce motion set in one window was gone once Sheet style was
    // set in the other).
    @Test("a write keeps what the file holds for the keys it did not change: two windows both keep their change")
    func twoWindows() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/settings.json"
            var windowA = SavedSettings()
            windowA.reduceMotion = true
            try SettingsFile.merge([.reduceMotion], from: windowA, into: path)
            var windowB = SavedSettings()  // read before A's change: holds no reduceMotion
            windowB.sheetStyle = SheetStyle.inset.rawValue
            try SettingsFile.merge([.sheetStyle], from: windowB, into: path)
            let read = SettingsFile.read(path)
            #expect(read.warning == nil)
            #expect(read.settings.reduceMotion == true, "A's change is kept")
            #expect(read.settings.sheetStyle == "inset", "B's change is written")
            // A key the window changed back to nothing set is removed; the others stay.
            try SettingsFile.merge([.reduceMotion], from: SavedSettings(), into: path)
            let after = SettingsFile.read(path).settings
            #expect(after.reduceMotion == nil && after.sheetStyle == "inset")
        }
    }

    // Bug: a value Perch cannot use was dropped without a word, and `high-contrast`, as the
    // --theme flag spells it, was one of them.
    @Test("the theme as the command line spells it is read; a value Perch cannot use is named, with what it must be")
    func unusableValues() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/settings.json"
            try #"{"theme": "high-contrast", "sheetStyle": "edge-to-edge"}"#.write(toFile: path, atomically: true, encoding: .utf8)
            var read = SettingsFile.read(path)
            #expect(read.warning == nil, "\(read.warning ?? "")")
            #expect(SettingsState(file: read.settings).values.theme == .highContrast)
            #expect(SettingsState(file: read.settings).source(.theme) == .saved)
            try #"{"longPressMilliseconds": 20000, "mouse": "yes", "reduceMotion": true}"#.write(
                toFile: path, atomically: true, encoding: .utf8)
            read = SettingsFile.read(path)
            #expect(
                read.warning
                    == "Settings file \(path): longPressMilliseconds must be a whole number from 50 to 10000; mouse must be true or false; they use their default."
            )
            #expect(read.settings.reduceMotion == true, "the usable ones are read")
            try #"{"theme": "neon"}"#.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(
                SettingsFile.read(path).warning
                    == #"Settings file \#(path): theme must be one of "default", "light", "dark", "high contrast", "monochrome"; it uses its default."#
            )
        }
    }
}
