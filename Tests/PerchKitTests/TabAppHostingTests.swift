import Testing

@testable import PerchKit

/// What an app of its own needs of the root beyond routing (each gap found moving an app onto
/// ``TabApp``): the model keeping state before quit, outcomes of dismissed layers, one reaction
/// that dismisses every layer, components reading the panes and layers, narration for screen
/// readers, panes following the model from the first frame, and a host seeding the app.
@Suite("TabApp hosting")
struct TabAppHostingTests {
    let size = Size(width: 40, height: 16)

    func app(_ model: KeepingModel = KeepingModel(), reduceMotion: Bool = true) -> TabApp {
        TabApp(panes: [CounterPane(), StackPane(), FollowPane()], model: model, size: size, reduceMotion: reduceMotion)
    }

    @Test("Quitting asks the model once what to keep, reading the panes, and that work comes before the quit")
    func willQuit() throws {
        var app = app()
        _ = app.update(.ui(.key(.char("+"))))
        _ = app.update(.ui(.key(.char("+"))))
        let effects = app.update(.ui(.key(.char("q"))))
        guard effects.count == 2, case .perform(_, let asker) = effects[0], case .quit = effects[1] else {
            throw TestFailure("expected the model's work, then quit: \(effects)")
        }
        #expect(asker == .app)
        #expect(app.model(KeepingModel.self)?.kept == [2], "the model read the counter pane through its context")
        _ = app.update(.ui(.key(KeyEvent(.control("c")))))
        #expect(app.model(KeepingModel.self)?.quitAsks == 1, "asked once")
    }

    @Test("An outcome for a layer dismissed meanwhile goes to the model, which may still want it")
    func unclaimedOutcome() {
        var app = app()
        _ = app.update(.ui(.keyHold(.char("1"))))
        let id = app.layers[0].id
        _ = app.update(.ui(.key(KeyEvent(.escape))))
        _ = app.update(.deliver(7, to: .layer(id)))
        #expect(app.model(KeepingModel.self)?.unclaimed == ["7"])
    }

    @Test("dismissAll dismisses every layer: a sheet slides away, the others go at once")
    func dismissAll() {
        var app = app(reduceMotion: false)
        _ = app.update(.ui(.key(.char("2"))), at: 0)
        _ = app.update(.ui(.key(.char("s"))), at: 0)
        _ = app.update(.ui(.animationFrame), at: 400)
        #expect(app.layers.count == 2, "a sheet with a layer above it")
        _ = app.update(.ui(.key(.char("x"))), at: 500)
        #expect(app.layers.count == 1, "the layer on top went at once")
        #expect(app.activeTop == nil, "the sheet slides away, taking no input")
        _ = app.update(.ui(.animationFrame), at: 900)
        #expect(app.layers.isEmpty)
    }

    @Test("A component's announce is said; a narrating model's lines are said after each event a person notices, not after a frame")
    func narration() {
        var quiet = app()
        let unsaid = quiet.update(.ui(.key(.char("2")))).compactMap(\.said)
        #expect(unsaid.isEmpty, "a model that does not narrate says nothing")
        var model = KeepingModel()
        model.narrating = true
        var app = app(model)
        #expect(app.update(.ui(.key(.char("2")))).compactMap(\.said) == ["tab Stack"])
        #expect(app.update(.ui(.animationFrame)).compactMap(\.said).isEmpty)
        _ = app.update(.ui(.key(.char("s"))))
        #expect(app.update(.ui(.key(.char("a")))).compactMap(\.said) == ["hello"])
        _ = app.update(.ui(.key(.char("k"))))
        #expect(app.model(KeepingModel.self)?.keptAsked == 1, "a message sent typed (send(to:_:)) reaches the model")
    }

    @Test("Layers and the model read the panes and the layers through their context, read-only")
    func contextReadsPanesAndLayers() {
        var app = app()
        for _ in 0..<3 { _ = app.update(.ui(.key(.char("+")))) }
        _ = app.update(.ui(.key(.char("2"))))
        _ = app.update(.ui(.key(.char("s"))))
        let lines = app.renderFrame().screen.lines
        #expect(lines.contains { $0.contains("counter at 3 over a sheet") }, "\(lines)")
        #expect(app.context.panes((any Pane).self).count == 3)
        #expect(app.context.layer(Sheet.self) != nil)
    }

    @Test("Each pane follows the model from the start: the first frame shows it, and what it asked is done at the first event")
    func followsFromStart() {
        var model = KeepingModel()
        model.label = "from the model"
        var app = app(model)
        #expect(app.pane(FollowPane.self, at: 2)?.seen == "from the model")
        var fresh = app
        #expect(app.banner == nil)
        _ = app.update(.ui(.animationFrame))
        #expect(app.banner?.text == "following")
        let effects = fresh.update(.ui(.key(.char("q"))))
        #expect(effects.contains { if case .quit = $0 { true } else { false } }, "the first event's own effects are kept too")
    }

    // Bug: help said "hold a tab or digit: its sheet, where it has one", whichever tab had one.
    @Test("Help names the tabs whose hold means something, and lists no hold when none has one")
    func holdHelp() {
        let app = TabApp(panes: [CounterPane(), PlainPane()], size: size)
        #expect(app.keys.help.contains { $0.label == "hold Counter or 1" && $0.help == "its sheet" }, "\(app.keys.help)")
        let plain = TabApp(panes: [PlainPane()], size: size)
        #expect(!plain.keys.help.contains { $0.label.hasPrefix("hold") })
    }

    @Test("A host selects a tab, changes a pane or a layer in place and shows a banner; the model may turn motion off")
    func hostSeeding() {
        var app = app()
        app.select(tab: 1)
        #expect(app.selected == 1)
        app.select(tab: 9)
        #expect(app.selected == 1, "no such tab: nothing changes")
        #expect(app.modifyPane(CounterPane.self) { $0.count = 5 } != nil)
        #expect(app.pane(CounterPane.self, at: 0)?.count == 5)
        #expect(app.modifyLayer(Sheet.self) { _ in 1 } == nil, "no sheet up")
        app.showBanner("hello", stays: true)
        #expect(app.bannerLines == ["hello (Esc dismisses this.)"], "one that stays says how it goes")
        #expect(!self.app(reduceMotion: false).context.reduceMotion)
        var model = KeepingModel()
        model.slow = true
        #expect(self.app(model, reduceMotion: false).context.reduceMotion, "the model's own setting")
    }
}

extension TabApp.Effect {
    var said: String? { if case .say(let line) = self { line } else { nil } }
}

/// A model that keeps what the counter panes count when the run ends, takes outcomes of
/// dismissed layers, and may narrate or turn motion off.
struct KeepingModel: AppModel {
    var narrating = false
    var slow = false
    var label = ""
    var kept: [Int]?
    var quitAsks = 0
    var unclaimed: [String] = []

    enum Message: Sendable { case kept }

    struct Keep: Work {
        let counts: [Int]
        func perform() -> Int { counts.count }
    }

    var narrates: Bool { narrating }
    var reducesMotion: Bool { slow }
    var keptAsked = 0

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        keptAsked += 1
        return []
    }

    mutating func willQuit(_ context: Context) -> [Reaction<Message>] {
        quitAsks += 1
        let counts = context.panes(CounterPane.self).map(\.count)
        kept = counts
        return [.perform(Keep(counts: counts), then: { _ in .kept })]
    }

    mutating func unclaimed(_ message: any Sendable, _ context: Context) -> [Reaction<Message>] {
        unclaimed.append("\(message)")
        return []
    }

    func narration(from before: TabApp, to after: TabApp) -> [String] {
        before.selected != after.selected ? ["tab \(after.panes[after.selected].title)"] : []
    }
}

/// A pane that presents a sheet with a layer over it (`s`).
struct StackPane: Pane {
    enum Verb: Hashable, Sendable { case stack }
    var title: String { "Stack" }
    var keys: KeyTable<Verb> { KeyTable("Stack", [.init([.char("s")], "s", "a sheet and a layer over it", .stack)]) }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        input == .verb(.stack) ? [.present(Sheet(title: "Under", items: [.init("One")])), .present(PeekLayer())] : []
    }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// A layer that says what the counter pane counts and whether a sheet is below it; `x`
/// dismisses every layer, `a` announces.
struct PeekLayer: Layer {
    enum Verb: Hashable, Sendable { case clear, announce, keep }
    var keys: KeyTable<Verb> {
        KeyTable(
            "Peek",
            [
                .init([.char("x")], "x", "dismiss all", .clear), .init([.char("a")], "a", "announce", .announce),
                .init([.char("k")], "k", "keep", .keep),
            ])
    }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        switch input {
        case .verb(.keep): [.send(to: KeepingModel.self, .kept)]
        case .verb(.clear): [.dismissAll]
        case .verb(.announce): [.announce("hello")]
        default: []
        }
    }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let count = context.pane(CounterPane.self)?.count ?? -1
        frame.screen.put("counter at \(count)" + (context.layer(Sheet.self) != nil ? " over a sheet" : ""), column: 0, row: 0)
    }
}

/// A pane that shows the model's label as it follows it, and asks for a banner when it does.
struct FollowPane: Pane {
    var seen = ""
    var title: String { "Follow" }
    var keys: KeyTable<Never> { KeyTable("Follow") }
    mutating func modelChanged(_ context: Context) -> [Reaction<Never>] {
        seen = context.model(KeepingModel.self)?.label ?? ""
        return [.banner("following")]
    }
    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Never>] { [] }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}
