import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

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

struct PresentedLayerTests {
    static func withToast() -> TabApp {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 60, height: 16))
        state.present(Toast(text: "Saved"))
        return state
    }

    @Test("A layer declared outside the core is presented, drawn, takes its own keys and is dismissed like the others")
    func toastLayer() {
        var state = Self.withToast()
        #expect(state.layer(Toast.self) != nil)
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

    @Test("Help over the toast lists the toast's keys under its title, then those that work over every layer")
    func toastHelp() throws {
        var state = Self.withToast()
        _ = state.update(.key(.char("?")))
        let help = try #require(state.presented.last?.help)
        #expect(help.rows.map(\.label).first == "Esc", "its own first")
        #expect(help.rows.map(\.label).contains("Ctrl-C"), "then the root's, over every layer")
        #expect(state.render().text.contains("Keys · Toast"))
    }
}
