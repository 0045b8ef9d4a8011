import Testing

@testable import PerchDomain

@Suite("Where Stats says a switch was made")
struct SwitchSourceTextTests {
    // Bug: Stats said "another Perch" beside "this window", where the interface's banner says
    // "switched outside this window".
    @Test("this window, another window, or the command line")
    func sources() {
        #expect(SwitchEvent(account: "work", time: 0, source: .tui, here: true).sourceText == "this window")
        #expect(SwitchEvent(account: "work", time: 0, source: .tui).sourceText == "another window")
        #expect(SwitchEvent(account: "work", time: 0, source: .cli).sourceText == "command line")
    }
}
