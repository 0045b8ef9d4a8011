import PerchDomain
import PerchInterface
import PerchKit
import Testing

/// The domain keeps its own small lists where the interface draws with PerchKit's: each is held
/// here to PerchKit's, so that neither can gain or rename a case alone.
@Suite("The domain's lists against PerchKit's")
struct DomainMappingTests {
    @Test("An account's colour is PerchKit's terminal colour of the same name and number, for every colour")
    func accountColors() {
        #expect(AccountColor.allCases.map(\.name) == TerminalColor.allCases.map(\.name))
        #expect(AccountColor.allCases.map(\.rawValue) == TerminalColor.allCases.map(\.rawValue))
        for color in AccountColor.allCases {
            #expect(TerminalColor(color).name == color.name)
            #expect(AccountColor(name: color.name) == color)
        }
    }

    @Test("Settings' sheet style is PerchKit's sheet style of the same name, both ways")
    func sheetStyles() {
        #expect(SheetStyleSetting.allCases.map(\.rawValue) == SheetStyle.allCases.map(\.rawValue))
        for setting in SheetStyleSetting.allCases { #expect(SheetStyle(setting).rawValue == setting.rawValue) }
    }
}
