import PerchInterfaceTesting
import PerchKit
import PerchKitLoop
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Answers to Perch's queries decoded as replies, never keys, and the queries still waiting for
/// an answer (issue 21, "draw first, ask in passing"; qwen-code PR #2718).
struct TerminalReplyTests {
    static let attributes = Array("\u{1B}[?62;22c".utf8)

    @Test("A device attributes answer split anywhere is one reply: its digits select no tab (ESC [ ? 62 ; 22 c)")
    func attributesAtEverySplit() {
        for cut in 1..<Self.attributes.count {
            var decoder = InputDecoder()
            var events = decoder.feed(Self.attributes[..<cut])
            events += decoder.feed(Self.attributes[cut...])
            #expect(events == [.reply(.primaryDeviceAttributes([62, 22]))], "cut at \(cut)")
            var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
            var recognizer = GestureRecognizer(configuration: .perch)
            for event in events {
                for appEvent in recognizer.handle(event, at: 0, hitTest: { _ in .none }) { _ = state.update(AppEvent(appEvent)) }
            }
            #expect(state.selectedTab == .overview, "no tab selected by the answer, cut at \(cut)")
        }
    }

    @Test(
        "Replies to the start-up queries and doctor's decode as replies",
        arguments: [
            ("\u{1B}[?1u", InputEvent.reply(.keyboardFlags(1))),
            ("\u{1B}[?0u", .reply(.keyboardFlags(0))),
            ("\u{1B}[?64;1;2;6;22c", .reply(.primaryDeviceAttributes([64, 1, 2, 6, 22]))),
            // DECRQM's answers, which perch doctor asks for: before, they were unknown bytes doctor parsed itself.
            ("\u{1B}[?1006;1$y", .reply(.privateMode(1006, value: 1))),
            ("\u{1B}[?2004;0$y", .reply(.privateMode(2004, value: 0))),
            ("\u{1B}[?2004$y", .unknown(Array("\u{1B}[?2004$y".utf8))),
        ])
    func replies(_ text: String, _ expected: InputEvent) {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array(text.utf8)) == [expected])
    }

    @Test("A cursor position report is a reply only while one is expected; otherwise CSI 1;2R stays Shift-F3")
    func cursorReportOnlyWhenExpected() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[1;2R".utf8)) == [.key(KeyEvent(.function(3), modifiers: .shift))])
        decoder.expectsCursorReport = true
        #expect(decoder.feed(Array("\u{1B}[12;40R".utf8)) == [.reply(.cursorPosition(row: 11, column: 39))])
        #expect(!decoder.expectsCursorReport, "one report expected, one taken")
    }

    @Test("Under --key-hold auto the kitty flags, whenever they come, turn release events on once and push the flags")
    func flagsTurnReleaseEventsOn() {
        var info = RunInfo()
        info.keyHoldPreference = .auto
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), info: info)
        #expect(state.startupQueries == [.backgroundColor, .keyboardProtocol])
        #expect(state.gestureConfiguration(.init()).keyHoldMode == .autoRepeat)
        #expect(state.update(.terminalReply(.keyboardFlags(0))) == [.pushKeyboardFlags(31)])
        #expect(state.gestureConfiguration(.init()).keyHoldMode == .releaseEvents)
        #expect(state.update(.terminalReply(.keyboardFlags(0))) == [], "pushed once")
        var fixed = RunInfo()
        fixed.keyHoldPreference = .repeat
        var repeating = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), info: fixed)
        #expect(repeating.startupQueries == [.backgroundColor, .deviceAttributes], "the background colour only, then CSI c")
        #expect(repeating.update(.terminalReply(.keyboardFlags(0))) == [], "--key-hold repeat keeps auto-repeat")
    }

    @Test(
        "OSC 11's answer is the background colour, ended by BEL or ESC \\, 1 to 4 digits a channel, split anywhere",
        arguments: [
            ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", RGBColor.white), ("\u{1B}]11;rgb:0000/0000/0000\u{07}", .black),
            ("\u{1B}]11;rgb:2e2e/3434/3636\u{1B}\\", RGBColor(0x2E3436)), ("\u{1B}]11;rgb:f/8/0\u{07}", RGBColor(0xFF8800)),
        ])
    func backgroundColorAnswer(_ answer: String, _ color: RGBColor) {
        let bytes = Array(answer.utf8)
        for split in 0...bytes.count {
            var decoder = InputDecoder()
            let events = decoder.feed(bytes[..<split]) + decoder.feed(bytes[split...])
            #expect(events == [.reply(.backgroundColor(color))], "split at \(split)")
        }
        var decoder = InputDecoder()
        #expect(
            decoder.feed(Array("\u{1B}]11;rgb:zz/00/00\u{07}1".utf8)).count == 2, "a garbled answer is dropped; the 1 after it is a key")
        #expect(decoder.feed(Array("\u{1B}]11;rgb:".utf8)).isEmpty && decoder.pendingTimeoutMilliseconds == 500, "waited for like a CSI")
    }

    @Test("The background's answer chooses light or dark colours; the device attributes end its wait on a silent terminal")
    func backgroundColorChoosesVariant() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        #expect(state.info.background == nil)
        #expect(state.update(.terminalReply(.backgroundColor(RGBColor(0xFFFFDD)))) == [])
        #expect(state.info.background == .light)
        _ = state.update(.terminalReply(.backgroundColor(RGBColor(0x1D1F21))))
        #expect(state.info.background == .dark)
        var queries = TerminalQueries()
        queries.sent(.backgroundColor, at: 0)
        queries.sent(.deviceAttributes, at: 0)
        queries.received(.primaryDeviceAttributes([62]))
        #expect(!queries.isWaiting, "a terminal that does not answer OSC 11 answers CSI c, after it")
    }

    @Test("Queries wait for their answer at most 500 ms after being sent; one left unanswered is not asked again")
    func queriesWaitAtMost500ms() {
        var queries = TerminalQueries()
        #expect(queries.shouldAsk(.keyboardProtocol))
        queries.sent(.keyboardProtocol, at: 1_000)
        #expect(queries.isWaiting && queries.deadline == 1_500)
        #expect(!queries.shouldAsk(.keyboardProtocol), "already waiting")
        queries.received(.keyboardFlags(1))
        #expect(queries.isWaiting, "the flags come before the attributes, which end the wait")
        queries.received(.primaryDeviceAttributes([62]))
        #expect(!queries.isWaiting && queries.deadline == nil)
        queries.sent(.cursorPosition, at: 2_000)
        queries.expire(at: 2_499)
        #expect(queries.isWaiting)
        queries.expire(at: 2_500)
        #expect(!queries.isWaiting && queries.unanswered == [.cursorPosition])
        #expect(!queries.shouldAsk(.cursorPosition), "a terminal that did not answer is not waited for again")
    }

    @Test("Focus regained checks the current account's tool identities again")
    func focusRegainedChecksIdentities() throws {
        let account = try #require(Account.samples.first { !$0.identities.isEmpty })
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: account.id), size: Size(width: 80, height: 24))
        #expect(state.update(.focus(false)) == [])
        #expect(state.update(.focus(true)) == [.perform(CheckIdentities(accountID: account.id))])
    }
}

/// The sheet as the inline picker opens it (issue 20: its `+ Add account…` row led nowhere).
struct PickerSheetTests {
    @Test("A sheet opened without Add account… lists only the accounts, and its last row is the last account")
    func noAddAccountRow() throws {
        let picker = AccountPicker(
            accounts: Account.samples, saved: SavedState(), terminal: Size(width: 80, height: 12), height: nil, verb: "switch to")
        let sheet = try #require(picker.sheet)
        #expect(sheet.rowCount(accounts: Account.samples.count) == Account.samples.count)
        #expect(sheet.row(Account.samples.count - 1, accounts: Account.samples.count) == .account(Account.samples.count - 1))
        #expect(!picker.renderFrame().screen.text.contains("Add account"))
        var interface = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 12))
        interface.openSheet()
        #expect(interface.render().text.contains("Add account"), "the interface's sheet still offers it")
    }
}
