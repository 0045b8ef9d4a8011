import Dispatch
import Glibc
import PerchKit
import PerchKitLoop
import PerchTestSupport
import Synchronization

/// A pane for the tests: it counts its `+` presses, holds its tab to raise a sheet of three
/// rows, and asks for work that doubles its count.
struct CounterPane: Pane {
    var count = 0
    var picked: Int?
    var doubled: Int?
    var holds = true
    var name = "Counter"

    enum Message: Sendable, Equatable {
        case picked(Int)
        case doubled(Int)
    }

    enum Verb: Hashable, Sendable { case increment, double }

    struct Double: Work {
        let value: Int
        func perform() -> Int { value * 2 }
    }

    var title: String { name }
    var holdsTab: Bool { holds }
    var keys: KeyTable<Verb> {
        KeyTable(name, [.init([.char("+")], "+", "count one more", .increment), .init([.char("d")], "d", "double", .double)])
    }

    mutating func tabHeld(_ context: Context) -> [Reaction<Message>] {
        [.present(Sheet(title: "Pick", items: [.init("One"), .init("Two"), .init("Three")]), onReply: { .picked($0) })]
    }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        switch input {
        case .verb(.increment): count += 1
        case .verb(.double): return [.perform(Double(value: count), then: { .doubled($0) })]
        default: break
        }
        return []
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .picked(let index): picked = index
        case .doubled(let value): doubled = value
        }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("\(name) \(count)", column: 0, row: area.y)
    }
}

/// A pane with nothing to do.
struct PlainPane: Pane {
    var title: String { "Plain" }
    var keys: KeyTable<Never> { KeyTable("Plain") }
    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Never>] { [] }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) { frame.screen.put("plain", column: 0, row: area.y) }
}

/// A pane that opens a one-line text field (`n`) and keeps the text it replies.
struct NotePane: Pane {
    var note: String?

    enum Message: Sendable { case written(String) }
    enum Verb: Hashable, Sendable { case write }

    var title: String { "Notes" }
    var keys: KeyTable<Verb> { KeyTable("Notes", [.init([.char("n")], "n", "write a note", .write)]) }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        input == .verb(.write) ? [.present(NoteField(), onReply: { .written($0) })] : []
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .written(let text) = message { note = text }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("note: \(note ?? "none")", column: 0, row: area.y)
    }
}

/// A one-line text field: every printable key it does not bind is its text (``KeyTable/takesTyping``);
/// Enter replies the text and goes.
struct NoteField: Layer {
    var text = ""

    typealias Reply = String
    enum Verb: Hashable, Sendable { case done, erase, draft }

    var keys: KeyTable<Verb> {
        KeyTable(
            "Note",
            [
                .init([KeyEvent(.enter)], "Enter", "keep the note", .done), .init([KeyEvent(.backspace)], "Backspace", "erase", .erase),
                .init([KeyEvent(.tab)], "Tab", "save a draft (a banner says so)", .draft),
            ],
            takesTyping: true)
    }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        switch input {
        case .key(let key): if case .character(let c) = key.key { text.append(c) }
        case .paste(let pasted): text += pasted
        case .verb(.erase): if !text.isEmpty { text.removeLast() }
        case .verb(.done): return [Self.reply(text), .dismiss]
        case .verb(.draft): return [.banner("Draft saved")]
        default: break
        }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("[\(text)]", column: 0, row: area.y + 1)
    }
}

/// A layer that is gone once the clock reaches `until` (as a menu goes with its item), and asks
/// its question with an alert (`a`).
struct ExpiringLayer: Layer {
    var until: Int64
    var answered: Int?

    enum Message: Sendable { case answered(Int) }
    enum Verb: Hashable, Sendable { case ask }

    var keys: KeyTable<Verb> { KeyTable("Expiring", [.init([.char("a")], "a", "ask", .ask)]) }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        guard input == .verb(.ask) else { return [] }
        return [
            .present(
                AlertLayer(title: "Sure?", message: "", buttons: [.init("No", role: .cancel), .init("Yes")]), onReply: { .answered($0) })
        ]
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .answered(let index) = message { answered = index }
        return []
    }

    mutating func advance(_ context: Context) -> Bool { context.clock < until }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// A pane that opens an ``ExpiringLayer`` (`x`).
struct ExpiringPane: Pane {
    enum Verb: Hashable, Sendable { case open }
    var title: String { "Expiring" }
    var keys: KeyTable<Verb> { KeyTable("Expiring", [.init([.char("x")], "x", "open", .open)]) }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        input == .verb(.open) ? [.present(ExpiringLayer(until: 1_000))] : []
    }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// A pane that asks a question with an alert (`a`) and keeps the index of the button pressed.
struct AskingPane: Pane {
    var answer: Int?

    enum Message: Sendable { case answered(Int) }
    enum Verb: Hashable, Sendable { case ask }

    var title: String { "Asking" }
    var keys: KeyTable<Verb> { KeyTable("Asking", [.init([.char("a")], "a", "ask", .ask)]) }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        guard case .verb(.ask) = input else { return [] }
        let alert = AlertLayer(
            title: "Reset?", message: "Everything goes back to the start.",
            buttons: [.init("Cancel", role: .cancel), .init("Reset", role: .destructive)])
        return [.present(alert, onReply: { .answered($0) })]
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .answered(let index): answer = index
        }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("answer \(answer.map(String.init) ?? "none")", column: 0, row: area.y)
    }
}

/// An app model for the tests: a total that panes add to by sending it messages, a sheet it
/// presents itself, and work of its own.
struct TallyModel: AppModel {
    var total = 0
    var picked: Int?
    var halved: Int?

    enum Message: Sendable {
        case add(Int)
        case chooseFromSheet
        case picked(Int)
        case halve
        case halved(Int)
    }

    struct Halve: Work {
        let value: Int
        func perform() -> Int { value / 2 }
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .add(let amount): total += amount
        case .chooseFromSheet: return [.present(Sheet(title: "Choose", items: [.init("A"), .init("B")]), onReply: { .picked($0) })]
        case .picked(let index): picked = index
        case .halve: return [.perform(Halve(value: total), then: { .halved($0) })]
        case .halved(let value): halved = value
        }
        return []
    }
}

/// A pane that reads the tally (it draws the total) and sends it messages: `+` adds 10, `s` asks
/// it for its sheet, `h` for its work, `x` sends a message of a type the model does not take,
/// and `m` opens a menu and asks for its preview, which it tells the menu when it comes.
struct TallyPane: Pane {
    enum Verb: Hashable, Sendable { case add, addHundred, sheet, halve, menu, copy, warn }
    enum Message: Sendable {
        case chosen(Int)
        case previewed([String])
    }

    struct Preview: Work {
        func perform() -> [String] { ["ready"] }
    }

    var title: String { "Tally" }
    var keys: KeyTable<Verb> {
        KeyTable(
            "Tally",
            [
                .init([.char("+")], "+", "add ten", .add), .init([.char("s")], "s", "sheet", .sheet),
                .init([.char("h")], "h", "halve", .halve),
                .init([.char("m")], "m", "menu", .menu), .init([.char("c")], "c", "copy", .copy),
                .init([.char("w")], "w", "warn", .warn),
            ], holds: [.init(.char("+"), "hold +", "add a hundred", .addHundred)])
    }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        switch input {
        case .verb(.add): return [.send(to: TallyModel.self, .add(10))]
        case .verb(.addHundred): return [.send(to: TallyModel.self, .add(100))]
        case .verb(.copy):
            let total = context.model(TallyModel.self)?.total ?? 0
            return [.terminal(.copyToClipboard("total \(total)")), .banner("Copied the total")]
        case .verb(.warn): return [.banner("The tally could not be saved: the disk is full, so nothing was written.", stays: true)]
        case .verb(.sheet): return [.send(to: TallyModel.self, .chooseFromSheet)]
        case .verb(.halve): return [.send(to: TallyModel.self, .halve)]
        case .verb(.menu):
            return [
                .present(MenuLayer(title: "Item", preview: ["loading…"], actions: [.init("Open")], anchorRow: 2), onReply: { .chosen($0) }),
                .perform(Preview(), then: { .previewed($0) }),
            ]
        default: return []
        }
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .chosen: return []
        case .previewed(let lines): return [.tellPresented(MenuLayer.self, .preview(lines))]
        }
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("total \(context.model(TallyModel.self)?.total ?? -1)", column: 0, row: area.y)
    }
}

/// What ``LoggedWork`` did, in the order it did it.
let workLog = Mutex<[String]>([])

/// The pieces of ``LoggedWork`` that have started, and whether the gated one may end (the test
/// opens it once it has seen what ran meanwhile).
let laneStarted = Mutex<[String]>([])
let laneGate = Mutex(false)

/// Work of one lane that records its name when done; a gated piece first waits (10 s at most)
/// for ``laneGate``, which the test opens: no fixed length that another piece might outlast.
struct LoggedWork: Work {
    static var lane: String? { "log" }
    let name: String
    let gated: Bool
    func perform() -> String {
        laneStarted.withLock { $0.append(name) }
        if gated { _ = waitUntil(timeout: 10) { laneGate.withLock { $0 } } }
        workLog.withLock { $0.append(name) }
        return name
    }
}

/// A pane whose `g` asks for a slow piece of work, then a quick one, in one lane.
struct LanePane: Pane {
    var arrived: [String] = []
    enum Verb: Hashable, Sendable { case go }
    enum Message: Sendable { case done(String) }
    var title: String { "Lane" }
    var keys: KeyTable<Verb> { KeyTable("Lane", [.init([.char("g")], "g", "go", .go)]) }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        guard case .verb(.go) = input else { return [] }
        return [
            .perform(LoggedWork(name: "slow", gated: true), then: { .done($0) }),
            .perform(LoggedWork(name: "quick", gated: false), then: { .done($0) }),
        ]
    }
    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .done(let name) = message { arrived.append(name) }
        return []
    }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// What ``WaitingWork`` saw: "cancelled" when its token said so, "finished" when it ran its
/// whole length.
let waitLog = Mutex<[String]>([])

/// Work `milliseconds` long that ends as soon as its token is cancelled (a wait for that
/// condition, with the work's length as its deadline); `heedsCancellation` false makes it ignore
/// its token, as work that is not cancellable does. Returns the milliseconds it ran.
struct WaitingWork: CancellableWork {
    let milliseconds: Int
    let heedsCancellation: Bool
    func perform(until cancellation: WorkCancellation) -> Int {
        let start = MonotonicClock.now()
        let cancelled = waitUntil(timeout: Double(milliseconds) / 1_000) { heedsCancellation && cancellation.isCancelled }
        waitLog.withLock { $0.append(cancelled ? "cancelled" : "finished") }
        return Int(MonotonicClock.now() - start)
    }
}

/// Signalled by the test once the runner is gone: ``GatedWork`` waits for it.
let workGate = DispatchSemaphore(value: 0)

/// Work that ends only once ``workGate`` is signalled, whatever its token says.
struct GatedWork: Work {
    func perform() -> Int {
        workGate.wait()
        return 1
    }
}

/// A pane whose `g` starts ``GatedWork``.
struct GatedPane: Pane {
    enum Verb: Hashable, Sendable { case go }
    enum Message: Sendable { case done(Int) }
    var title: String { "Gated" }
    var keys: KeyTable<Verb> { KeyTable("Gated", [.init([.char("g")], "g", "start", .go)]) }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        input == .verb(.go) ? [.perform(GatedWork(), then: { .done($0) })] : []
    }
    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] { [] }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// A pane whose `s` starts 10 s of work that stops when cancelled, and `S` 3 s of work that
/// does not.
struct WaitingPane: Pane {
    enum Verb: Hashable, Sendable { case cancellable, stubborn }
    enum Message: Sendable { case done(Int) }
    var title: String { "Waiting" }
    var keys: KeyTable<Verb> {
        KeyTable("Waiting", [.init([.char("s")], "s", "start", .cancellable), .init([.char("S")], "S", "start", .stubborn)])
    }
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        switch input {
        case .verb(.cancellable): return [.perform(WaitingWork(milliseconds: 10_000, heedsCancellation: true), then: { .done($0) })]
        case .verb(.stubborn): return [.perform(WaitingWork(milliseconds: 3_000, heedsCancellation: false), then: { .done($0) })]
        default: return []
        }
    }
    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] { [] }
    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
}

/// An app model that asks whether the terminal speaks the kitty keyboard protocol once the first
/// frame is up, turns key releases on when it does, and counts the times focus came back.
struct KeyboardModel: AppModel {
    var flags: Int?
    var focusRegained = 0
    var startedCount = 0

    mutating func started(_ context: Context) -> [Reaction<Never>] {
        startedCount += 1
        return [.terminal(.ask(.keyboardProtocol))]
    }

    mutating func terminalReplied(_ reply: TerminalReply, _ context: Context) -> [Reaction<Never>] {
        guard case .keyboardFlags(let current) = reply else { return [] }
        flags = current
        return [.terminal(.pushKeyboardFlags(3))]
    }

    mutating func focusChanged(to focused: Bool, _ context: Context) -> [Reaction<Never>] {
        if focused { focusRegained += 1 }
        return focused ? [.banner("welcome back")] : []
    }

    /// Key holds by release events once the terminal said it speaks the protocol.
    func gestures(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        if flags != nil { configuration.keyHoldMode = .releaseEvents }
        return configuration
    }
}

extension AnyWork {
    /// Runs work that performs itself here, at once, and returns the asker's message; a job
    /// (which needs a performer) returns nothing.
    func performNow() -> any Sendable {
        if case .run(let run) = kind { return run(WorkCancellation()) }
        return ()
    }
}

/// A job that only says what to do: look `word` up; the app layer's performer does it.
struct Lookup: Job {
    typealias Outcome = String
    var word: String
}

/// A pane whose `l` asks for a ``Lookup`` and keeps each answer, in order.
struct LookupPane: Pane {
    var answers: [String] = []
    var title: String { "Lookup" }
    enum Message: Sendable { case answered(String) }
    var keys: KeyTable<Never> { KeyTable("Lookup") }

    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Message>] {
        input == .key(.char("l")) ? [.perform(Lookup(word: "wren"), then: { .answered($0) })] : []
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .answered(let text) = message { answers.append(text) }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put("answers: " + answers.joined(separator: ", "), column: 0, row: area.y)
    }
}

/// The app layer's performer of ``Lookup``s: it answers twice, from a thread of its own.
final class LookupPerformer: JobPerformer, @unchecked Sendable {
    let asked = Mutex<[AnyJob]>([])
    /// Whether the last answer was posted.
    let done = Mutex(false)

    func perform(_ job: AnyJob, answer: @escaping @Sendable (any Sendable) -> Void) {
        asked.withLock { $0.append(job) }
        guard let lookup = job.as(Lookup.self) else { return }
        DispatchQueue.global().async {
            answer("looking up \(lookup.word)")
            answer(42)  // not one of its outcomes: dropped
            answer("\(lookup.word): a small bird")
            self.done.withLock { $0 = true }
        }
    }
}

/// A pane that follows the app's model (the total it last saw, and how often it was told), asks
/// once, without input, for the list it shows, and spins every 80 ms until that list is in;
/// `c` presents a cover.
struct FollowerPane: Pane {
    var seenTotal: Int?
    var told = 0
    var asked = false
    var list: [String]?
    var title: String { "Follower" }
    enum Message: Sendable { case loaded([String]) }
    var keys: KeyTable<Never> { KeyTable("Follower") }

    struct Load: Work {
        func perform() -> [String] { ["one", "two"] }
    }

    /// `c` covers the screen.
    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Message>] {
        input == .key(.char("c")) ? [.present(CoverLayer(title: "Cover", lines: []))] : []
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .loaded(let lines) = message { list = lines }
        return []
    }

    mutating func modelChanged(_ context: Context) -> [Reaction<Message>] {
        told += 1
        seenTotal = context.model(TallyModel.self)?.total
        return []
    }

    mutating func due(_ context: Context) -> [Reaction<Message>] {
        guard !asked else { return [] }
        asked = true
        return [.perform(Load(), then: { .loaded($0) })]
    }

    func nextDeadline(clock: Int64) -> Int64? { list == nil ? clock + 80 : nil }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.put(list?.joined(separator: " ") ?? "loading", column: 0, row: area.y)
    }
}

/// A model whose frames are finished in its theme: every cell's style reversed.
struct ThemedModel: AppModel {
    func finish(_ frame: inout Frame, _ context: Context) {
        frame.screen.restyleAll { $0.reverse.toggle() }
    }
}

/// A model with a key of its own: `a` raises a sheet from any tab, and keeps the row picked.
struct ShortcutModel: AppModel {
    var picked: Int?
    enum Verb: Hashable, Sendable { case choose }
    enum Message: Sendable { case picked(Int) }

    var keys: KeyTable<Verb> { KeyTable("App", [.init([.char("a")], "a", "choose from anywhere", .choose)]) }

    mutating func perform(_ verb: Verb, _ context: Context) -> [Reaction<Message>] {
        [.present(Sheet(title: "Choose", items: [.init("A"), .init("B")]), onReply: { .picked($0) })]
    }

    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        if case .picked(let index) = message { picked = index }
        return []
    }
}
