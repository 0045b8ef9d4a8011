import PerchInterfaceTesting
import PerchKit

@testable import PerchDomain
@testable import PerchInterface

/// What a pane or a layer driven alone asked of the root, in Perch's words, so a test compares a
/// list: a message for Perch's model (``send(_:)``, or its cases by name: `.openSheet`), a layer
/// presented (the layer itself), a job (``effect(_:)`` of ``Effect/perform(_:)``), a banner, and
/// the root's own verbs.
enum Asked: Hashable {
    case send(PerchModel.Message)
    case sendOther(String)
    case present(AnyHashable)
    case dismiss
    case dismissAll
    case reply(AnyOutcome)
    case effect(Effect)
    case work
    case banner(String, stays: Bool = false)
    case announce(String)
    case tellPresented(String)
    case selectTab(Int)
    case quit

    static func pick(accountIndex: Int) -> Asked { .send(.pick(accountIndex: accountIndex)) }
    static var openSheet: Asked { .send(.openSheet) }
    static var prepareSearch: Asked { .send(.prepareSearch) }
    static var reapplyIdentities: Asked { .send(.reapplyIdentities) }
    static var verifyIdentities: Asked { .send(.verifyIdentities) }
    static var keepPaneMemory: Asked { .send(.keepPaneMemory) }
    static var startAfresh: Asked { .send(.startAfresh) }
    static func replaceAccounts(_ accounts: [Account], configPath: String) -> Asked {
        .send(.replaceAccounts(accounts, configPath: configPath))
    }
    static func revealAccount(id: String) -> Asked { .send(.revealAccount(id: id)) }
    static func changeSetting(_ key: SettingKey, step: Int) -> Asked { .send(.changeSetting(key, step: step)) }
    static func settingsNotSaved(_ keys: Set<SettingKey>) -> Asked { .send(.settingsNotSaved(keys)) }
}

/// A pane or a layer driven alone, as PerchKit's root drives it (keys through its key table, its
/// answers mapped to its messages as it asked), its reactions told in Perch's words (``Asked``).
struct Alone<C: Component> {
    /// The component.
    var component: C
    /// How the answers to what it asked (a layer's reply, a job's outcomes) become its messages.
    private var answers: [@Sendable (any Sendable) -> (any Sendable)?] = []

    init(_ component: C) { self.component = component }

    /// The component, as a pane.
    var pane: C {
        get { component }
        set { component = newValue }
    }
    /// The component, as a layer.
    var layer: C {
        get { component }
        set { component = newValue }
    }

    /// `key` as the root hands it: its table's verb, or the key itself.
    mutating func key(_ key: KeyEvent, _ context: ModelContext) -> [Asked] {
        update(component.keys.verb(for: key).map { .verb($0) } ?? .key(key), context)
    }

    /// `input` handed to it.
    mutating func update(_ input: ComponentInput<C.Verb>, _ context: ModelContext) -> [Asked] {
        asked(component.update(input, context.kit))
    }

    /// One of its own messages handed to it.
    mutating func deliver(_ message: C.Message, _ context: ModelContext) -> [Asked] {
        asked(component.receive(message, context.kit))
    }

    /// An answer to what it asked (an outcome of its job, a reply of a layer it presented), as
    /// the message it named; anything else changes nothing.
    mutating func take(_ answer: any Sendable, _ context: ModelContext) -> [Asked] {
        for map in answers.reversed() {
            if let message = map(answer) as? C.Message { return deliver(message, context) }
        }
        return []
    }

    /// ``take(_:_:)`` for an answer wrapped as ``AnyOutcome``.
    mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Asked] { take(outcome.base, context) }

    /// Draws it (a pane above the tab bar, a layer over the whole screen).
    func render(into frame: inout Frame, _ context: ModelContext) {
        let area = component is any Pane ? context.layout.pane : Rect(x: 0, y: 0, width: context.size.width, height: context.size.height)
        component.render(into: &frame, in: area, context.kit)
    }

    fileprivate mutating func asked(_ reactions: [Reaction<C.Message>]) -> [Asked] {
        reactions.map { reaction in
            switch reaction.request {
            case .present(let layer, let reply):
                answers.append(reply)
                let value = layer.base as! any Hashable
                return .present(hashable(value))
            case .send(let message as PerchModel.Message): return .send(message)
            case .send(let message): return .sendOther("\(message)")
            case .perform(let work):
                guard case .job(let job, let message) = work.kind else { return .work }
                answers.append(message)
                return .effect(.job(job))
            case .terminal(.copyToClipboard(let text)): return .effect(.copyToClipboard(text))
            case .terminal(.setMouse(let on)): return .effect(.setMouse(on))
            case .terminal(.ask(let query)): return .effect(.ask(query))
            case .terminal(.pushKeyboardFlags(let flags)): return .effect(.pushKeyboardFlags(flags))
            case .reply(let value):
                let reply = value as! any Hashable & Sendable
                return .reply(outcome(reply))
            case .dismiss: return .dismiss
            case .dismissAll: return .dismissAll
            case .banner(let text, let stays): return .banner(text, stays: stays)
            case .announce(let line): return .announce(line)
            case .tellPresented(let message): return .tellPresented("\(message)")
            case .selectTab(let index): return .selectTab(index)
            case .quit: return .quit
            }
        }
    }
}

extension Alone where C: Pane {
    /// The model changed: the pane follows it.
    mutating func follow(_ context: ModelContext) -> [Asked] { asked(component.modelChanged(context.kit)) }
    /// What it asks for without input.
    mutating func due(_ context: ModelContext) -> [Asked] { asked(component.due(context.kit)) }
}

extension Alone where C: Layer {
    /// Moves its animation on; false once it is gone.
    mutating func advance(_ context: ModelContext) -> Bool { component.advance(context.kit) }
    /// Asks it to go; true when it animates away.
    mutating func beginDismissal(_ context: ModelContext) -> Bool { component.beginDismissal(context.kit) }
}

/// `value` as an ``AnyOutcome`` (its type opened).
private func outcome<T: Hashable & Sendable>(_ value: T) -> AnyOutcome { AnyOutcome(value) }

/// `value` as `AnyHashable` (its type opened).
private func hashable<T: Hashable>(_ value: T) -> AnyHashable { AnyHashable(value) }
