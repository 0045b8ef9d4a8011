import PerchKit
import Testing

@testable import PerchCore

/// A layer written in this file alone, to show that a new layer needs no central enum (issue
/// 21): a one-line toast that `Esc`, a click on it or a click outside dismisses, with its own
/// keys, title and part under the pointer. It is a PerchKit `Layer`, as every layer of Perch's
/// stack is, hosted by `KitLayer`.
struct Toast: Layer, Hashable {
    enum Part: HitPart { case text }
    enum Verb: Hashable, Sendable { case close }

    var text: String

    static let keyTable = KeyTable<Verb>("Toast", [.init([KeyEvent(.escape)], "Esc", "close the toast", .close)])
    var keys: KeyTable<Verb> { Self.keyTable }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        switch input {
        case .verb(.close): return [.dismiss]
        case .tap(let target) where target.part(Part.self) == .text: return [.dismiss]
        default: return []
        }
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.hits.mark(Rect(x: 2, y: 1, width: text.count + 2, height: 1), .hit(Part.text))
        frame.screen.put(" \(text) ", column: 2, row: 1, style: .bold)
    }
}

extension InputContext {
    static let toast = KitLayer<Toast>.inputContext(Toast.keyTable)
}

struct PresentedLayerTests {
    static func withToast() -> AppState {
        var state = AppState(accounts: Account.samples, size: Size(width: 60, height: 16))
        _ = state.apply([.present(Presentation(Toast(text: "Saved")))])
        return state
    }

    @Test("A layer declared outside the core is presented, drawn, takes its own keys and is dismissed like the others")
    func toastLayer() {
        var state = Self.withToast()
        #expect(state.inputContext == .toast)
        #expect(state.render().lines[1].hasPrefix("   Saved "))
        #expect(state.update(.key(.char("2"))).isEmpty)
        #expect(state.selectedTab == .overview, "the pane below takes no key while the toast is up")
        _ = state.update(.key(KeyEvent(.escape)))
        #expect(state.presented.isEmpty)
        var clicked = Self.withToast()
        _ = clicked.update(.tap(clicked.hitTest(Position(column: 40, row: 10))))
        #expect(clicked.presented.isEmpty, "a click outside dismisses it, as for every modal layer")
        var tapped = Self.withToast()
        let target = tapped.hitTest(Position(column: 4, row: 1))
        #expect(target.part(Toast.Part.self) == .text, "its own part, declared beside it")
        #expect(!target.acceptsDrag && !target.acceptsLongPress)
        _ = tapped.update(.tap(target))
        #expect(tapped.presented.isEmpty)
    }

    @Test("Help over the toast lists the toast's keys under its title")
    func toastHelp() {
        let help = InputContext.toast.help
        #expect(help.help?.rows.map(\.label) == ["Ctrl-C", "Ctrl-Z", "Esc", "?"], "? (help) works over every layer that takes no text")
        var state = Self.withToast()
        _ = state.apply([.present(help)])
        #expect(state.render().text.contains("Keys · Toast"))
    }

    @Test("Two presentations are equal when they hold equal layers of the same type")
    func equality() {
        #expect(Presentation(Toast(text: "a")) == Presentation(Toast(text: "a")))
        #expect(Presentation(Toast(text: "a")) != Presentation(Toast(text: "b")))
        #expect(InputContext.toast.help != Presentation(Toast(text: "a")))
        #expect(Set([Presentation(Toast(text: "a")), Presentation(Toast(text: "a"))]).count == 1)
    }
}
