import PerchKit

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
