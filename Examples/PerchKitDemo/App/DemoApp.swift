// The PerchKitDemo app's panes and model, a library so that tests drive them (PerchKitTesting).

import Glibc
import PerchKit

/// What both tabs share: the colour picked so far. Panes read it from their context and change
/// it only by sending it a message.
struct DemoModel: AppModel {
    /// The colours the sheet offers, in order.
    static let colors: [(name: String, color: Color)] = [
        ("Red", .red), ("Green", .green), ("Blue", .blue), ("Yellow", .yellow), ("Magenta", .magenta), ("Cyan", .cyan),
    ]

    /// Index in ``colors`` of the colour picked, or nil before the first pick.
    var picked: Int?
    /// How a held key is told from a press: by auto-repeat until the terminal says it speaks the
    /// kitty keyboard protocol, then by its release events.
    var keyHold = KeyHoldMode.autoRepeat

    /// What the panes send it.
    enum Message: Sendable { case pick(Int) }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .pick(let index): picked = index
        }
        return []
    }

    /// Once the first frame is up: does the terminal speak the kitty keyboard protocol?
    func started(_ context: Context) -> [Reaction<Message>] { [.terminal(.ask(.keyboardProtocol))] }

    /// It does: key releases are turned on, and a hold is their absence for the long-press time.
    mutating func terminalReplied(_ reply: TerminalReply, _ context: Context) -> [Reaction<Message>] {
        guard case .keyboardFlags = reply, keyHold != .releaseEvents else { return [] }
        keyHold = .releaseEvents
        return [.terminal(.pushKeyboardFlags(KeyHoldPreference.keyboardFlags))]
    }

    func gestures(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        configuration.keyHoldMode = keyHold
        return configuration
    }

    /// The name of the colour picked, or "none".
    var pickedName: String { picked.map { Self.colors[$0].name } ?? "none" }
}

/// The first tab: the colour picked so far, and a sheet of colours raised by holding the tab.
struct ColorsPane: Pane {
    static var colors: [(name: String, color: Color)] { DemoModel.colors }

    /// What ``Describe`` said of the colour picked.
    var description: String?
    /// Whether `!` crashes the demo on purpose (`--allow-crash`).
    var allowsCrash = false
    /// What the slow work is doing: nil before any, else a line to show.
    var slowWork: String?

    /// The pane's own messages: the sheet's reply, and its work's outcome.
    enum Message: Sendable {
        case picked(Int)
        case described(String)
        case slowWorkEnded(seconds: Int)
    }

    /// The pane's own key verbs.
    enum Verb: Hashable, Sendable { case openSheet, copy, startSlowWork, crash }

    /// Slow work that can be cancelled: 20 s of waiting in 50 ms slices, which stops early once
    /// the runner cancels it (when the app quits or is ended by a signal). Returns the whole
    /// seconds it waited.
    struct SlowWork: CancellableWork {
        static let seconds = 20
        func perform(until cancellation: WorkCancellation) -> Int {
            var waited = 0
            while waited < Self.seconds * 1000, !cancellation.isCancelled {
                var slice = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                nanosleep(&slice, nil)
                waited += 50
            }
            return waited / 1000
        }
    }

    /// The pane's own work: describing a colour (a stand-in for something slow, such as saving).
    struct Describe: Work {
        let name: String
        let code: Int
        func perform() -> String { "\(name) is colour \(code) of the terminal's eight (SGR \(30 + code))." }
    }

    var title: String { "Colors" }
    var holdsTab: Bool { true }

    var keys: KeyTable<Verb> {
        KeyTable(
            "Colors",
            [
                .init([KeyEvent(.enter)], "Enter", "pick a colour", .openSheet),
                .init([.char("c")], "c", "copy the colour's name", .copy),
                .init([.char("w")], "w", "start \(SlowWork.seconds) s of slow work", .startSlowWork),
            ] + (allowsCrash ? [.init([.char("!")], "!", "crash on purpose", .crash)] : []))
    }

    func sheet(_ context: Context) -> Reaction<Message> {
        let picked = context.model(DemoModel.self)?.picked
        let items = Self.colors.enumerated().map { index, entry in
            Sheet.Item(entry.name, mark: index == picked ? "✓" : nil, swatch: entry.color)
        }
        return .present(Sheet(title: "Pick a colour", items: items, selected: picked ?? 0, filterable: true), onReply: { .picked($0) })
    }

    mutating func tabHeld(_ context: Context) -> [Reaction<Message>] { [sheet(context)] }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        switch input {
        case .verb(.openSheet): return [sheet(context)]
        case .verb(.copy):
            // The terminal says nothing either way, so the banner says where it works.
            guard let name = context.model(DemoModel.self).flatMap({ $0.picked.map { DemoModel.colors[$0].name } }) else {
                return [.banner("Pick a colour first.")]
            }
            return [.terminal(.copyToClipboard(name)), .banner("Copied \"\(name)\" to the clipboard, where the terminal allows it.")]
        case .verb(.startSlowWork):
            guard slowWork != "Working…" else { return [.banner("The slow work is already running.")] }
            slowWork = "Working…"
            return [.perform(SlowWork(), then: { .slowWorkEnded(seconds: $0) })]
        case .verb(.crash) where allowsCrash:
            fatalError("perchkit-demo crashed on purpose (! with --allow-crash)")
        default: return []
        }
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .picked(let index):
            description = nil
            let entry = Self.colors[index]
            return [
                .send(to: DemoModel.self, .pick(index)),
                .perform(Describe(name: entry.name, code: Int(entry.color.paletteIndex ?? 0)), then: { .described($0) }),
            ]
        case .described(let text):
            description = text
            return []
        case .slowWorkEnded(let seconds):
            slowWork = "Slow work done after \(seconds) s."
            return []
        }
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.header("Colors", in: area)
        let picked = context.model(DemoModel.self)?.picked
        let name = picked.map { Self.colors[$0].name } ?? "none"
        let style = picked.map { Style(foreground: Self.colors[$0].color, bold: true) } ?? .bold
        frame.screen.put("Picked: ", column: 2, row: area.y + 2)
        frame.screen.put(name, column: 10, row: area.y + 2, style: style)
        if let description { frame.screen.put(description, column: 2, row: area.y + 3, style: .dim, width: area.width - 4) }
        if let slowWork { frame.screen.put(slowWork, column: 2, row: area.y + 4, style: .dim, width: area.width - 4) }
        let hint = "Hold the Colors tab, or hold 1, to pick a colour (Enter works too); c copies its name. ? for help, q to quit."
        for (offset, line) in DisplayWidth.wrapped(hint, to: max(1, area.width - 4), rows: 3).enumerated() {
            frame.screen.put(line, column: 2, row: area.y + 5 + offset, style: .dim)
        }
    }
}

/// The second tab: a few lines of text.
struct AboutPane: Pane {
    var title: String { "About" }
    var keys: KeyTable<Never> { KeyTable("About") }

    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Never>] { [] }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.header("About", in: area)
        let text = [
            "perchkit-demo runs on PerchKit alone: a tab bar of panes that keep state,",
            "a bottom sheet fitted to its rows, and a long-press by mouse or by key hold.",
            "Perch, the account switcher, is built on the same toolkit.",
        ]
        for (offset, line) in text.enumerated() {
            frame.screen.put(line, column: 2, row: area.y + 2 + offset, width: area.width - 4)
        }
        // Read from the app's model, which the Colors tab changes.
        let model = context.model(DemoModel.self)
        let picked = "Picked so far: " + (model?.pickedName ?? "none")
        frame.screen.put(picked, column: 2, row: area.y + 3 + text.count, style: .dim, width: area.width - 4)
        let holds = "Key holds: " + (model?.keyHold ?? .autoRepeat).summary
        frame.screen.put(holds, column: 2, row: area.y + 4 + text.count, style: .dim, width: area.width - 4)
    }
}

/// The demo as it starts on a terminal of `size`: the Colors and About tabs over the demo's
/// model; `allowsCrash` makes `!` crash it on purpose.
public func demoApp(size: Size, reduceMotion: Bool = false, allowsCrash: Bool = false) -> TabApp {
    TabApp(panes: [ColorsPane(allowsCrash: allowsCrash), AboutPane()], model: DemoModel(), size: size, reduceMotion: reduceMotion)
}
