import Testing

@testable import PerchKit

/// The root alone: routing, the layer stack, replies and work, without a terminal.
@Suite("TabApp")
struct TabAppTests {
    let size = Size(width: 40, height: 16)

    func app(reduceMotion: Bool = true) -> TabApp {
        TabApp(panes: [CounterPane(), PlainPane()], size: size, reduceMotion: reduceMotion)
    }

    /// The row of the tab labels and a column of the first tab.
    var firstTab: Position { Position(column: 5, row: 15) }

    @Test("Keys bound by the pane go to it as its verbs; digits and Tab select tabs; a pane keeps its state across tabs")
    func panesKeepState() {
        var app = app()
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("2"))))
        #expect(app.selected == 1)
        _ = app.update(.ui(.key(.char("+"))))  // not Plain's: nothing
        _ = app.update(.ui(.key(KeyEvent(.tab))))
        #expect(app.selected == 0)
        #expect(app.pane(CounterPane.self)?.count == 2)
        #expect(app.renderFrame().screen.lines[0].hasPrefix("Counter 2"))
    }

    @Test("A long-press on a holding tab presents its pane's sheet; the sheet's pick reaches the pane as its own message")
    func longPressTabThenPick() {
        var app = app()
        let target = app.renderFrame().hits.target(at: firstTab)
        #expect(target.acceptsLongPress, "the tab bar marks a holding pane's tab as one a long-press fires on")
        _ = app.update(.ui(.longPress(target)))
        #expect(app.layer(Sheet.self) != nil)
        _ = app.update(.ui(.key(KeyEvent(.down))))
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.pane(CounterPane.self)?.picked == 1)
        #expect(app.layers.isEmpty, "picking closed the sheet (at once with reduced motion)")
    }

    @Test("A tab whose pane holds nothing is no long-press target, and its digit is no holdable key")
    func plainTabHoldsNothing() {
        let app = app()
        let second = app.renderFrame().hits.target(at: Position(column: 30, row: 15))
        #expect(second.part(TabBar.Part.self)?.index == 1)
        #expect(!second.acceptsLongPress)
        #expect(app.holdableKeys == [.char("1")])
    }

    @Test("A held digit key selects its tab and raises the sheet; with a layer up no key hold is taken")
    func keyHold() {
        var app = app()
        _ = app.update(.ui(.key(.char("2"))))
        #expect(app.acceptsKeyHold(.char("1")))
        _ = app.update(.ui(.keyHold(.char("1"))))
        #expect(app.selected == 0)
        #expect(app.layer(Sheet.self) != nil)
        #expect(!app.acceptsKeyHold(.char("1")))
    }

    @Test("A tap outside the top layer dismisses it without a reply; Esc too")
    func outsideDismisses() {
        var app = app()
        _ = app.update(.ui(.keyHold(.char("1"))))
        let frame = app.renderFrame()
        #expect(frame.hits.target(at: Position(column: 1, row: 0)) == .outside)
        _ = app.update(.ui(.tap(.outside)))
        #expect(app.layers.isEmpty)
        #expect(app.pane(CounterPane.self)?.picked == nil)
        _ = app.update(.ui(.keyHold(.char("1"))))
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        #expect(app.layers.isEmpty)
    }

    @Test("A sheet slides away over 150 ms when motion is not reduced, taking no input meanwhile, and asks for frames")
    func slidesAway() {
        var app = app(reduceMotion: false)
        _ = app.update(.ui(.keyHold(.char("1"))), at: 1_000)
        #expect(app.nextAnimationDeadline == 1_016, "rising")
        _ = app.update(.ui(.animationFrame), at: 1_200)
        #expect(app.nextAnimationDeadline == nil, "at rest: nothing wakes the loop")
        _ = app.update(.ui(.key(KeyEvent(.escape))), at: 1_300)
        #expect(app.layers.count == 1, "still drawn while it slides")
        #expect(app.activeTop == nil, "but takes no input")
        _ = app.update(.ui(.animationFrame), at: 1_460)
        #expect(app.layers.isEmpty, "gone once it slid away")
    }

    @Test("Work a pane asks for goes to the loop addressed to it; its outcome comes back as the pane's message")
    func workComesBack() throws {
        var app = app()
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("+"))))
        let effects = app.update(.ui(.key(.char("d"))))
        guard case .perform(let work, let component)? = effects.first, case .run(let run) = work.kind else {
            Issue.record("no work: \(effects)")
            return
        }
        #expect(component == .pane(0))
        _ = app.update(.deliver(run(WorkCancellation()), to: component))
        #expect(app.pane(CounterPane.self)?.doubled == 6)
    }

    @Test("An outcome for a layer dismissed meanwhile reaches no one")
    func outcomeForGoneLayer() {
        var app = app()
        _ = app.update(.ui(.keyHold(.char("1"))))
        let id = app.layers[0].id
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        #expect(app.update(.deliver(3, to: .layer(id))).isEmpty)
        _ = app.update(.ui(.keyHold(.char("1"))))
        #expect(app.layers[0].id != id, "ids are never given twice")
    }

    @Test("? shows help built from the pane's key table and the root's; q and Ctrl-C quit, but not while a layer is up")
    func helpAndQuit() {
        var app = app()
        _ = app.update(.ui(.key(.char("?"))))
        let help = app.layer(HelpLayer.self)
        #expect(help != nil)
        let text = help?.text.joined(separator: "\n") ?? ""
        #expect(text.contains("+") && text.contains("count one more"), "the pane's keys")
        #expect(text.contains("Shift-Tab") && text.contains("quit"), "the root's keys")
        #expect(app.update(.ui(.key(.char("q")))).isEmpty, "q closes help, it does not quit")
        #expect(app.layers.isEmpty)
        let quit = app.update(.ui(.key(.char("q"))))
        #expect(quit.count == 1)
        if case .quit? = quit.first {} else { Issue.record("q did not quit: \(quit)") }
        _ = app.update(.ui(.keyHold(.char("1"))))
        if case .quit? = app.update(.ui(.key(KeyEvent(.control("c"))))).first {
        } else {
            Issue.record("Ctrl-C did not quit with a layer up")
        }
    }

    @Test("An alert a pane presents takes the keys; the button pressed, by key or by tap, reaches the pane as its own message")
    func alertReplies() throws {
        var app = TabApp(panes: [AskingPane()], size: size, reduceMotion: true)
        _ = app.update(.ui(.key(.char("a"))))
        #expect(app.layer(AlertLayer.self)?.focus == 0, "presented, with Cancel focused")
        _ = app.update(.ui(.key(KeyEvent(.tab))))
        #expect(app.selected == 0 && app.layer(AlertLayer.self)?.focus == 1, "Tab moves the alert's focus, not the tab")
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.pane(AskingPane.self)?.answer == 1)
        #expect(app.layers.isEmpty)
        _ = app.update(.ui(.key(.char("a"))))
        let alert = try #require(app.layer(AlertLayer.self))
        let cancel = alert.layout(in: Rect(x: 0, y: 0, width: size.width, height: size.height)).buttons[0]
        let target = app.renderFrame().hits.target(at: Position(column: cancel.x + 2, row: cancel.y))
        #expect(target == .hit(AlertLayer.Part.button(0)))
        _ = app.update(.ui(.tap(target)))
        #expect(app.pane(AskingPane.self)?.answer == 0)
        #expect(app.layers.isEmpty)
    }

    @Test("A resize relays out every pane and layer; a too-large size is capped")
    func resize() {
        var app = app()
        _ = app.update(.ui(.keyHold(.char("1"))))
        _ = app.update(.ui(.resize(Size(width: 5_000, height: 20))))
        #expect(app.size == Size(width: 1_000, height: 20))
        let frame = app.renderFrame()
        #expect(frame.screen.lines.contains { $0.contains("━━━━━━") })
    }

    @Test(
        "Panes read the app's model and change it only by sending it messages; its sheet's reply and its work's outcome come back to it; a stray message is dropped"
    )
    func appModel() throws {
        var app = TabApp(panes: [TallyPane(), PlainPane()], model: TallyModel(), size: size, reduceMotion: true)
        #expect(app.renderFrame().screen.lines[0].hasPrefix("total 0"))
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.model(TallyModel.self)?.total == 20)
        #expect(app.renderFrame().screen.lines[0].hasPrefix("total 20"), "the pane draws what the model holds")
        _ = app.update(.ui(.key(.char("x"))))
        #expect(app.model(TallyModel.self)?.total == 20, "a message of another type changes nothing")
        _ = app.update(.ui(.key(.char("s"))))
        #expect(app.layer(Sheet.self) != nil, "the model presented its own sheet")
        _ = app.update(.ui(.key(KeyEvent(.down))))
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.model(TallyModel.self)?.picked == 1, "the sheet replied to the model that presented it")
        #expect(app.layers.isEmpty)
        let effects = app.update(.ui(.key(.char("h"))))
        guard case .perform(let work, let asker)? = effects.first else { throw TestFailure("no work asked: \(effects)") }
        #expect(asker == .app)
        _ = app.update(.deliver(work.performNow(), to: asker))
        #expect(app.model(TallyModel.self)?.halved == 10, "the work's outcome came back to the model")
    }

    @Test("Below the minimum size only a notice is drawn and only q, Ctrl-C and Ctrl-Z act; growing again shows everything as it was")
    func tooSmall() throws {
        var app = app()
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.resize(Size(width: 19, height: 6))))
        #expect(app.isTooSmall)
        let lines = app.renderFrame().screen.lines
        #expect(app.tooSmallNotice == "terminal too small (19×6, needs 20×6)")
        #expect(
            lines.contains { $0.contains("terminal too small") } && lines.contains { $0.contains("(19×6, needs 20×6)") },
            "wrapped to the width: \(lines)")
        #expect(!lines.contains { $0.hasPrefix("Counter") }, "nothing of the app is drawn")
        for key: KeyEvent in [.char("+"), .char("2"), KeyEvent(.tab), .char("?")] { _ = app.update(.ui(.key(key))) }
        _ = app.update(.ui(.keyHold(.char("1"))))
        #expect(app.selected == 0 && app.layers.isEmpty && app.pane(CounterPane.self)?.count == 1, "no key but quitting acts")
        // Work asked before the shrink still comes back.
        _ = app.update(.deliver(CounterPane.Message.doubled(2), to: .pane(0)))
        #expect(app.pane(CounterPane.self)?.doubled == 2)
        if case .suspend? = app.update(.ui(.key(KeyEvent(.control("z"))))).first {} else { Issue.record("Ctrl-Z did not suspend") }
        _ = app.update(.ui(.resize(size)))
        #expect(!app.isTooSmall)
        #expect(app.renderFrame().screen.lines[0].hasPrefix("Counter 1"), "as it was")
        _ = app.update(.ui(.resize(Size(width: 40, height: 3))))
        if case .quit? = app.update(.ui(.key(.char("q")))).first {} else { Issue.record("q did not quit on a small screen") }
    }

    @Test(
        "A key a pane's table holds means its hold verb when held and its own verb when pressed; help lists the hold; elsewhere its repeats are presses"
    )
    func paneKeyHold() {
        var app = TabApp(panes: [TallyPane(), CounterPane()], model: TallyModel(), size: size, reduceMotion: true)
        #expect(app.acceptsKeyHold(.char("+")), "Tally holds +")
        #expect(app.holdableKeys.isSuperset(of: [.char("+"), .char("2")]), "the recogniser watches it, and the holding tab's digit")
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.model(TallyModel.self)?.total == 10, "a press is the row's verb")
        _ = app.update(.ui(.keyHold(.char("+"))))
        #expect(app.model(TallyModel.self)?.total == 110, "a hold is the hold's verb")
        _ = app.update(.ui(.key(.char("?"))))
        let help = app.renderFrame().screen.lines.joined(separator: "\n")
        #expect(help.contains("hold +"), "help lists the hold")
        #expect(TallyPane().keys.help.last.map { $0 == ("hold +", "add a hundred") } == true, "after the rows, in help's words")
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        _ = app.update(.ui(.key(.char("2"))))
        #expect(!app.acceptsKeyHold(.char("+")), "Counter holds no key: its + repeats are presses")
        _ = app.update(.ui(.keyHold(.char("+"))))
        #expect(app.model(TallyModel.self)?.total == 110 && app.pane(CounterPane.self)?.count == 0)
        _ = app.update(.ui(.key(.char("m"))))
        #expect(app.layer(MenuLayer.self) == nil, "m is Tally's, not Counter's")
        _ = app.update(.ui(.key(.char("1"))))
        _ = app.update(.ui(.key(.char("m"))))
        #expect(!app.acceptsKeyHold(.char("+")), "with a layer up the pane's holds do not count")
    }

    @Test(
        "A banner shows above the tab bar until the next key; one that stays goes only at Esc; a terminal request reaches the loop as an effect"
    )
    func bannerAndTerminal() throws {
        var app = TabApp(panes: [TallyPane()], model: TallyModel(), size: size, reduceMotion: true)
        let effects = app.update(.ui(.key(.char("c"))))
        guard case .terminal(.copyToClipboard(let text))? = effects.first else { throw TestFailure("no clipboard request: \(effects)") }
        #expect(text == "total 0")
        let barRow = size.height - TabBar.height(screenHeight: size.height)
        var lines = app.renderFrame().screen.lines
        #expect(lines[barRow - 1].contains("Copied the total"), "on the pane's last row, above the tab bar")
        #expect(app.renderFrame().hits.target(at: Position(column: 3, row: barRow - 1)) == .none)
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.banner == nil, "gone at the next key, which still acts")
        #expect(app.model(TallyModel.self)?.total == 10)
        _ = app.update(.ui(.key(.char("w"))))
        lines = app.renderFrame().screen.lines
        #expect(app.bannerLines.joined(separator: " ").hasSuffix("(Esc dismisses this.)"), "a banner that stays says how it goes: \(lines)")
        #expect(lines.contains { $0.contains("The tally could not be saved") })
        #expect(app.bannerLines.count >= 2, "whole, on as many rows as it needs")
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.banner?.stays == true && app.model(TallyModel.self)?.total == 20, "it stays; the key still acts")
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        #expect(app.banner == nil)
    }

    @Test("A presenter tells the layers it presented: a late preview reaches its menu; a message of another type is dropped")
    func tellPresented() throws {
        var app = TabApp(panes: [TallyPane(), PlainPane()], model: TallyModel(), size: size, reduceMotion: true)
        let effects = app.update(.ui(.key(.char("m"))))
        #expect(app.layer(MenuLayer.self)?.preview == ["loading…"])
        guard case .perform(let work, let asker)? = effects.first else { throw TestFailure("no preview asked: \(effects)") }
        #expect(asker == .pane(0))
        _ = app.update(.deliver(work.performNow(), to: asker))
        #expect(app.layer(MenuLayer.self)?.preview == ["ready"], "the late preview reached the menu the pane presented")
        #expect(app.layers.count == 1)
    }

    @Test("Focus and the terminal's answers go to the app's model, even on a screen too small to lay out; started is its own")
    func terminalEventsReachTheModel() {
        var app = TabApp(panes: [PlainPane()], model: KeyboardModel(), size: Size(width: 40, height: 12))
        let started = app.update(.started)
        if case .terminal(.ask(.keyboardProtocol))? = started.first {} else { Issue.record("started asked nothing: \(started)") }
        _ = app.update(.ui(.resize(Size(width: 10, height: 3))))
        #expect(app.isTooSmall)
        let pushed = app.update(.ui(.terminalReply(.keyboardFlags(1))))
        if case .terminal(.pushKeyboardFlags(3))? = pushed.first {} else { Issue.record("the answer pushed nothing: \(pushed)") }
        _ = app.update(.ui(.focus(false)))
        _ = app.update(.ui(.focus(true)))
        #expect(app.model(KeyboardModel.self)?.flags == 1)
        #expect(app.model(KeyboardModel.self)?.focusRegained == 1)
        #expect(app.model(KeyboardModel.self)?.startedCount == 1)
    }

    /// Issue 48: `pane(_:)` returned the first pane of its type, not the selected one its
    /// comment promised.
    @Test("pane(_:) is the selected pane when it is of the type; pane(_:at:) any tab's")
    func paneIsTheSelectedOne() {
        var app = TabApp(panes: [CounterPane(), CounterPane()], size: Size(width: 40, height: 12), reduceMotion: true)
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.pane(CounterPane.self)?.count == 1)
        _ = app.update(.ui(.key(.char("2"))))
        #expect(app.selected == 1)
        #expect(app.pane(CounterPane.self)?.count == 0, "the second tab's, which is selected, not the first's")
        #expect(app.pane(CounterPane.self, at: 0)?.count == 1)
        #expect(app.pane(PlainPane.self) == nil && app.pane(CounterPane.self, at: 2) == nil)
    }

    @Test("Every pane hears that the model changed, once per event, shown or not; due work is asked once without input")
    func panesFollowTheModel() {
        var app = TabApp(panes: [TallyPane(), FollowerPane()], model: TallyModel(), size: Size(width: 40, height: 12), reduceMotion: true)
        let first = app.update(.ui(.key(.char("?"))))
        guard case .perform(let work, let asker)? = first.first else {
            Issue.record("the follower's list was not asked for at the first event: \(first)")
            return
        }
        #expect(asker == .pane(1))
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        #expect(app.update(.ui(.key(.char("+")))).isEmpty, "asked once only")
        #expect(app.pane(FollowerPane.self, at: 1)?.seenTotal == 10, "the hidden pane followed the model")
        #expect(app.pane(FollowerPane.self, at: 1)?.told == 2, "once at the start, once for the model's message")
        _ = app.update(.ui(.key(.char("x"))))
        #expect(app.pane(FollowerPane.self, at: 1)?.told == 2, "a message of another type, which the model drops, tells no pane")
        _ = app.update(.deliver(work.performNow(), to: asker))
        #expect(app.pane(FollowerPane.self, at: 1)?.list == ["one", "two"])
    }

    @Test("The selected pane's deadline wakes the loop while it shows; a covering layer, another tab or a screen too small stop it")
    func paneDeadline() {
        var app = TabApp(panes: [FollowerPane(), PlainPane()], size: Size(width: 40, height: 12), reduceMotion: true)
        _ = app.update(.ui(.animationFrame), at: 1_000)
        #expect(app.nextAnimationDeadline == 1_080, "the spinner's next frame")
        _ = app.update(.ui(.key(.char("2"))))
        #expect(app.nextAnimationDeadline == nil, "not shown")
        _ = app.update(.ui(.key(.char("1"))))
        _ = app.update(.ui(.resize(Size(width: 10, height: 3))))
        #expect(app.nextAnimationDeadline == nil, "too small to draw")
        var covered = TabApp(panes: [FollowerPane()], size: Size(width: 40, height: 12), reduceMotion: true)
        _ = covered.update(.ui(.animationFrame), at: 1_000)
        _ = covered.update(.ui(.key(.char("c"))))
        #expect(covered.layer(CoverLayer.self) != nil)
        #expect(covered.nextAnimationDeadline == nil, "under a cover")
    }

    @Test("The app's model finishes every frame (a theme)")
    func modelFinishesFrames() {
        let plain = TabApp(panes: [PlainPane()], size: Size(width: 20, height: 6)).renderFrame()
        let themed = TabApp(panes: [PlainPane()], model: ThemedModel(), size: Size(width: 20, height: 6)).renderFrame()
        #expect(!plain.screen[0, 0].style.reverse && themed.screen[0, 0].style.reverse)
        #expect(themed.screen.lines == plain.screen.lines, "the same text")
    }

    @Test("The app's model has keys of its own on every tab, after the pane's and before the root's, and help lists them between")
    func appModelKeys() {
        var app = TabApp(
            panes: [PlainPane(), CounterPane()], model: ShortcutModel(), size: Size(width: 40, height: 16), reduceMotion: true)
        _ = app.update(.ui(.key(.char("2"))))
        _ = app.update(.ui(.key(.char("a"))))
        #expect(app.layer(Sheet.self) != nil, "a raised the app's sheet on the second tab")
        _ = app.update(.ui(.key(KeyEvent(.down))))
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.model(ShortcutModel.self)?.picked == 1, "the sheet replied to the model")
        _ = app.update(.ui(.key(.char("?"))))
        let text = app.layer(HelpLayer.self)?.text ?? []
        let own = text.firstIndex { $0.hasPrefix("a ") && $0.contains("choose from anywhere") }
        let everywhere = text.firstIndex(of: "Everywhere")
        #expect(own != nil && everywhere != nil && own! < everywhere!, "\(text)")
        _ = app.update(.ui(.key(.char("a"))))
        #expect(app.layer(Sheet.self) == nil, "with a layer up the key is not the app's")
    }

    @Test("? over a layer lists the layer's keys, then only the root's that work over it; Esc closes the help, then the layer")
    func helpOverALayer() {
        var app = app()
        _ = app.update(.ui(.keyHold(.char("1"))))
        #expect(app.layer(Sheet.self) != nil)
        _ = app.update(.ui(.key(.char("?"))))
        let text = app.layer(HelpLayer.self)?.text ?? []
        #expect(app.layer(HelpLayer.self)?.title == "Sheet", "\(text)")
        #expect(text.contains { $0.contains("Esc") } && !text.contains { $0.contains("next tab") }, "\(text)")
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        #expect(app.layer(HelpLayer.self) == nil && app.layer(Sheet.self) != nil)
    }

    @Test("Over a layer that takes typing, printable keys are its text even where the root binds them (q, ?, a digit); F1 is help there")
    func typingLayer() {
        var app = TabApp(panes: [NotePane(), PlainPane()], size: size, reduceMotion: true)
        _ = app.update(.ui(.key(.char("n"))))
        #expect(app.layer(NoteField.self) != nil)
        for c in "q2?A" { #expect(app.update(.ui(.key(.char(c)))).isEmpty, "\(c) does not quit") }
        _ = app.update(.ui(.key(KeyEvent(.backspace))))
        _ = app.update(.ui(.paste(" b")))
        #expect(app.layer(NoteField.self)?.text == "q2? b")
        #expect(app.selected == 0 && app.layer(HelpLayer.self) == nil, "no tab selected, no help")
        _ = app.update(.ui(.key(KeyEvent(.function(1)))))
        #expect(app.layer(HelpLayer.self)?.title == "Note", "F1 is help over it")
        #expect(app.layer(HelpLayer.self)?.text.contains { $0.contains("? F1") } == true)
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.layer(NoteField.self) == nil)
        #expect(app.pane(NotePane.self)?.note == "q2? b", "the text reached the pane that opened the field")
        _ = app.update(.ui(.key(.char("2"))))
        #expect(app.selected == 1, "with no field up, a digit selects its tab again")
    }

    // Bug: a layer that went by itself (a menu whose item went) left the alert it presented up,
    // and the alert's reply went nowhere.
    @Test("A layer that goes by itself takes the layers it presented with it")
    func orphansGo() {
        var app = TabApp(panes: [ExpiringPane()], size: size, reduceMotion: true)
        _ = app.update(.ui(.key(.char("x"))), at: 10)
        _ = app.update(.ui(.key(.char("a"))), at: 20)
        #expect(app.layers.count == 2 && app.layer(AlertLayer.self) != nil)
        _ = app.update(.ui(.animationFrame), at: 1_000)
        #expect(app.layers.isEmpty, "the alert went with the layer that presented it")
    }

    // Bug: a banner shown while a layer was up went at the layer's next key, before it could be
    // seen (the layer may cover it).
    @Test("A banner goes at the next key with no layer up; keys over a layer leave it")
    func bannerWaitsForTheLayer() {
        var app = TabApp(panes: [NotePane(), PlainPane()], size: size, reduceMotion: true)
        _ = app.update(.ui(.key(.char("n"))))
        _ = app.update(.ui(.key(KeyEvent(.tab))))
        #expect(app.banner?.text == "Draft saved")
        _ = app.update(.ui(.key(.char("x"))))
        _ = app.update(.ui(.key(KeyEvent(.enter))))
        #expect(app.layers.isEmpty && app.banner?.text == "Draft saved", "still there once the field is gone")
        _ = app.update(.ui(.key(.char("+"))))
        #expect(app.banner == nil, "the next key with no layer up takes it")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

}
