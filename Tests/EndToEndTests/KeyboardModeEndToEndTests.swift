import Foundation
import Testing

/// End-to-end, issue 11 §4: a terminal left sending kitty-protocol or `modifyOtherKeys` forms by
/// a program that crashed earlier still drives Perch, which did not turn either on (tmux does not
/// answer the protocol query).
@Suite(.serialized, .currentBinary)
struct KeyboardModeEndToEndTests {
    @Test("With the sheet open, the kitty form of Esc (CSI 27 u) closes it, and Enter's (CSI 13 u) picks")
    func kittyFormsOfEscAndEnter() throws {
        let session = try TmuxSession.started()
        try session.expectAfter("a", shows: "Switch account")
        try session.sendLiteral("\u{1B}[27u")
        #expect(try session.waitUntil { !$0.contains { $0.contains("Switch account") } }, "Esc closed the sheet")
        try session.expectAfter("a", shows: "Switch account")
        try session.sendLiteral("\u{1B}[13u")
        #expect(try session.waitFor("Switches so far: 1"), "Enter picked an account")
    }

    @Test("modifyOtherKeys forms: Tab (CSI 27;1;9~) selects the next tab, Ctrl-C (CSI 27;5;99~) quits")
    func modifyOtherKeysForms() throws {
        let session = try TmuxSession.started()
        try session.sendLiteral("\u{1B}[27;1;9~")
        #expect(try session.waitFor("Catalog ·"), "Tab moved to the Catalog")
        try session.sendLiteral("\u{1B}[27;5;99~")
        #expect(try session.waitFor("EXIT="), "Ctrl-C quit")
    }
}
