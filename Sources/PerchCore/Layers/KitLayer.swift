import PerchKit

/// A PerchKit ``Layer`` presented by Perch's root: how Perch shows PerchKit's own standard
/// layers (its ``AlertLayer``, its ``HelpLayer``) instead of keeping copies of them, and its own
/// layers written as PerchKit layers (the ``Cover``, the ``ContextMenu``). The layer keeps its own
/// state, keys, parts, messages and drawing; this says what Perch's root needs of it
/// (``PresentedLayer``) and translates:
/// - its key table becomes its ``InputContext`` (each row a verb named after the table and the
///   row, and `?` for help over it), so help and the tests that check every key table see its
///   keys as they see every layer's;
/// - Perch's messages become its input (a bound key its row's verb, typed or pasted text a
///   paste, a gesture the same gesture), and the root's context its ``Context``: the screen, the
///   clock, reduced motion, and as the app's model what every Perch model reads
///   (``ModelContext``, `context.model(ModelContext.self)`);
/// - what it asks becomes Perch's intents: ``Reaction/dismiss`` a dismissal,
///   ``Reaction/reply(_:)`` a reply to its presenter (``Intent/reply(_:)``, the value itself),
///   ``Reaction/banner(_:stays:)`` a banner, a request of the terminal (the clipboard, the
///   mouse, a query, the keyboard protocol) an effect, ``Reaction/send(_:)`` of an ``Intent``
///   that intent (`.send(Intent.openSheet)`), a ``Job`` (``Reaction/perform(_:then:)-(J,_)``)
///   the same job, and a layer it presents (``Reaction/present(_:onReply:)``, a
///   ``HostableLayer``) that layer, hosted the same way;
/// - what comes back to it becomes its own ``Component/Message``, as the mapping it gave when it
///   asked says (``Component/receive(_:_:)``): the replies of the layers it presented, and each
///   outcome of its jobs.
///
/// ``Reaction/quit`` quits (the account sheet's `q`). Perch's root does no ``Work`` that performs
/// itself (its slow work is jobs), presents only ``HostableLayer``s, holds no app model's
/// messages but ``Intent``s, and keeps the tab itself: a hosted layer asking for those
/// (``Reaction/perform(_:then:)-(W,_)``, another layer, ``Reaction/tellPresented(_:)``,
/// ``Reaction/selectTab(_:)``) is not carried out, and the first two stop a debug build.
public struct KitLayer<L: Layer & Hashable>: PresentedLayer where L.Reply: Hashable {
    /// The PerchKit layer.
    public private(set) var layer: L

    /// Who receives keys while it is on top: its key table as Perch binds it, read when it is
    /// made and again after each change of the layer, when the table's title changed (the
    /// account sheet's filter has keys of its own), so that no key builds it again.
    public private(set) var inputContext: InputContext
    /// Its verbs by name, and what comes back to it.
    private var host: KitHost<L>

    /// `layer`, hosted in Perch's stack.
    public init(_ layer: L) {
        self.layer = layer
        let table = layer.keys
        inputContext = Self.inputContext(table)
        host = KitHost(table)
    }

    /// The keys of a layer whose key table is `table` (``KitHost/bindings(_:)``), taking typed
    /// text when the table does. Perch's table adds what works everywhere
    /// (``KeyBindings/table(for:)``: Ctrl-C, Ctrl-Z, and help on `?`, or on `F1` where you type).
    public static func inputContext(_ table: KeyTable<L.Verb>) -> InputContext {
        InputContext(title: table.title, takesTyping: table.takesTyping, bindings: KitHost<L>.bindings(table))
    }

    /// Whether the PerchKit layer covers the whole screen.
    public var coversScreen: Bool { layer.coversScreen }
    /// Whether the PerchKit layer takes input.
    public var isActive: Bool { layer.isActive }
    /// Whether the PerchKit layer is animating.
    public var isAnimating: Bool { layer.isAnimating }
    /// Asks the PerchKit layer to go; true when it animates away.
    public mutating func beginDismissal(_ context: ModelContext) -> Bool { layer.beginDismissal(context.kit) }
    /// Moves the PerchKit layer's animation on; false once it is gone.
    public mutating func advance(_ context: ModelContext) -> Bool { layer.advance(context.kit) }

    /// Hands `message` to the PerchKit layer as its input; returns what it asks, as intents.
    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        guard let input = host.input(for: message) else { return [] }
        let reactions = modify { $0.update(input, context.kit) }
        return reactions.flatMap { intents($0) }
    }

    /// Changes the PerchKit layer in place with `change` (the root revealing an account in the
    /// sheet); its keys are read again when its table changed. Returns what `change` returned.
    @discardableResult
    public mutating func modify<R>(_ change: (inout L) -> R) -> R {
        let result = change(&layer)
        let table = layer.keys
        if table.title != inputContext.title {
            inputContext = Self.inputContext(table)
            host.read(table)
        }
        return result
    }

    /// Takes what came back to the layer: the reply of a layer it presented, or an outcome of a
    /// job it asked for, handed to it as the message it named when it asked; anything else, or a
    /// value it named no message for, changes nothing.
    public mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Intent] {
        guard let message = host.message(for: outcome) else { return [] }
        let reactions = modify { $0.receive(message, context.kit) }
        return reactions.flatMap { intents($0) }
    }

    /// Draws the PerchKit layer over the whole screen (columns × rows of `context.size`).
    public func render(into frame: inout Frame, _ context: ModelContext) {
        layer.render(into: &frame, in: Rect(x: 0, y: 0, width: context.size.width, height: context.size.height), context.kit)
    }

    /// What the layer asked, as Perch's root carries it out: a reply goes to its presenter as the
    /// value itself; the rest as any hosted component's (``KitHost/intents(_:)``).
    private mutating func intents(_ reaction: Reaction<L.Message>) -> [Intent] {
        guard case .reply(let value) = reaction.request else { return host.intents(reaction) }
        return (value as? L.Reply).map { [.reply(AnyOutcome($0))] } ?? []
    }
}

/// What Perch's root keeps to talk to a PerchKit component it hosts (a layer, ``KitLayer``; a
/// pane, ``KitPane``), and the translation both share:
/// - a key table becomes Perch's bindings, each row's keys bound to a verb named
///   `<title>.<row index>` (``bindings(_:)``), and such a verb comes back as the row's
///   (``input(for:)``); typed or pasted text is a paste, and a gesture the same gesture;
/// - what the component asks becomes Perch's intents (``intents(_:)``), and what it named for
///   the answers (a presented layer's replies, a job's outcomes) is kept until they come
///   (``message(for:)``).
struct KitHost<C: Component>: Hashable, Sendable {
    /// The title of the key table read last: the first part of its verbs' names.
    private var title: String
    /// Each row's verb, by row index.
    private var verbs: [C.Verb?]
    /// Each key hold's verb, by index in the table's holds.
    private var holdVerbs: [C.Verb]
    /// How what comes back to the component becomes its messages.
    private var answers = Answers()

    /// A host of a component whose key table is `table`.
    init(_ table: KeyTable<C.Verb>) {
        title = table.title
        verbs = table.rows.map(\.verb)
        holdVerbs = table.holds.map(\.verb)
    }

    /// Reads the component's key table again (it changed with the component's state); what it
    /// waits for is kept.
    mutating func read(_ table: KeyTable<C.Verb>) {
        title = table.title
        verbs = table.rows.map(\.verb)
        holdVerbs = table.holds.map(\.verb)
    }

    /// `table`'s rows as Perch's bindings: each row's keys bound to a verb named
    /// `<title>.<row index>`; a row without keys or verb is a gesture help lists.
    static func bindings(_ table: KeyTable<C.Verb>) -> [KeyBinding] {
        table.rows.enumerated().map { index, row in
            row.keys.isEmpty || row.verb == nil
                ? KeyBinding(gesture: row.label, row.help)
                : KeyBinding(row.keys, row.label, KeyAction("\(table.title).\(index)"), row.help)
        }
    }

    /// `table`'s key holds as Perch binds them: each hold bound to a verb named
    /// `<title>.hold.<index>` (``input(for:)`` turns it back into the hold's verb).
    static func holdBindings(_ table: KeyTable<C.Verb>) -> [KeyHoldBinding] {
        table.holds.enumerated().map { index, hold in
            KeyHoldBinding(key: hold.key, label: hold.label, action: KeyAction("\(table.title).hold.\(index)"), summary: hold.help)
        }
    }

    /// `message` as the component's input; nil for a verb not of its table.
    func input(for message: ModelMessage) -> ComponentInput<C.Verb>? {
        switch message {
        case .action(let action):
            let prefix = title + "."
            guard action.name.hasPrefix(prefix) else { return nil }
            let name = action.name.dropFirst(prefix.count)
            if name.hasPrefix("hold."), let index = Int(name.dropFirst("hold.".count)), holdVerbs.indices.contains(index) {
                return .verb(holdVerbs[index])
            }
            guard let index = Int(name), verbs.indices.contains(index), let verb = verbs[index] else { return nil }
            return .verb(verb)
        case .text(let text): return .paste(text)
        case .tap(let target): return .tap(target)
        case .longPress(let target): return .longPress(target)
        case .scroll(let target, let notches): return .scroll(target, notches: notches)
        case .drag(let target, let position): return .drag(target, position)
        case .dragEnded(let target, let position): return .dragEnded(target, position)
        case .relayout: return .relayout
        }
    }

    /// The message `outcome` is for the component: a reply of a layer it presented, or an outcome
    /// of a job it asked for, as it named when it asked; nil for anything else.
    func message(for outcome: AnyOutcome) -> C.Message? { answers.message(for: outcome.base) as? C.Message }

    /// What the component asked, as Perch's root carries it out. A reply means nothing here (a
    /// layer's goes to its presenter, ``KitLayer``).
    mutating func intents(_ reaction: Reaction<C.Message>) -> [Intent] {
        switch reaction.request {
        case .dismiss: return [.dismiss]
        case .reply: return []
        case .banner(let text, let stays): return [.banner(text, stays: stays)]
        case .send(let message):
            // Perch's root takes intents: what a component of Perch's own asks of it (the sheet).
            guard let intent = message as? Intent else { return [] }
            return [intent]
        case .present(let presented, let reply):
            guard let hostable = presented.base as? any HostableLayer else {
                assertionFailure("\(type(of: presented.base)) is not a HostableLayer: Perch's root cannot present it")
                return []
            }
            answers.replies[ObjectIdentifier(type(of: hostable))] = reply
            return [.present(hostable.presentation)]
        case .perform(let work):
            guard case .job(let job, let message) = work.kind else {
                assertionFailure("Perch's root does jobs, not Work that performs itself")
                return []
            }
            answers.outcomes[ObjectIdentifier(type(of: job.base))] = message
            return [.effect(.job(job))]
        case .terminal(.copyToClipboard(let text)): return [.effect(.copyToClipboard(text))]
        case .terminal(.setMouse(let on)): return [.effect(.setMouse(on))]
        case .terminal(.ask(let query)): return [.effect(.ask(query))]
        case .terminal(.pushKeyboardFlags(let flags)): return [.effect(.pushKeyboardFlags(flags))]
        case .quit: return [.quit]
        // A message for the layers it presented, the tab and the other layers, which only the
        // root decides, and a line said (Perch's root narrates itself): see ``KitLayer``'s
        // documentation.
        case .tellPresented, .selectTab, .dismissAll, .announce: return []
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.title == rhs.title }
    func hash(into hasher: inout Hasher) { hasher.combine(title) }
}

/// How what comes back to a hosted layer becomes its messages: the mapping it gave for each kind
/// of layer it presented (``Reaction/present(_:onReply:)``, the latest of a kind) and each type of
/// job it asked for. Each mapping turns a value of another type into nil; replies are tried
/// before outcomes. Bookkeeping, not state: two hosts of equal layers are equal whatever they
/// wait for.
struct Answers: Hashable, Sendable {
    typealias Mapping = @Sendable (any Sendable) -> (any Sendable)?
    /// By the type of the layer presented.
    var replies: [ObjectIdentifier: Mapping] = [:]
    /// By the type of the job asked for.
    var outcomes: [ObjectIdentifier: Mapping] = [:]

    /// The message `value` is for the layer, or nil when it named none for it.
    func message(for value: any Sendable) -> (any Sendable)? {
        for map in replies.values { if let message = map(value) { return message } }
        for map in outcomes.values { if let message = map(value) { return message } }
        return nil
    }

    static func == (lhs: Answers, rhs: Answers) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// A PerchKit layer Perch's root can present when a hosted layer presents it
/// (``Reaction/present(_:onReply:)``, as the context menu presents its alert): its
/// ``presentation`` hosts it in a ``KitLayer``. Conforming is one line; its reply must be
/// `Hashable`, as it travels to its presenter as an ``AnyOutcome``.
public protocol HostableLayer: Layer, Hashable where Reply: Hashable {
    /// The layer hosted in Perch's stack.
    var presentation: Presentation { get }
}

extension HostableLayer {
    /// The layer in a ``KitLayer``, its reply handed to its presenter as the value itself.
    public var presentation: Presentation { Presentation(KitLayer(self)) }
}

extension AlertLayer: HostableLayer {}

/// What every Perch model reads, as the app's model PerchKit layers hosted in Perch's root read
/// (``KitLayer``): a snapshot the root makes for each update and draw. It takes no message; what a
/// layer asks of the root it sends as an ``Intent``.
extension ModelContext: AppModel {}

extension ModelContext {
    /// What PerchKit's layers see of Perch's root: the screen, the clock, reduced motion, and
    /// this context as the app's model.
    public var kit: Context { Context(size: size, clock: clock, reduceMotion: reduceMotion, model: self) }
}

extension Presentation {
    /// Changes the PerchKit layer in place with `change` when it is an `L` presented through
    /// ``KitLayer``; returns what `change` returned, or nil when it is not an `L`.
    @discardableResult
    mutating func modify<L: Layer & Hashable, R>(_ type: L.Type, _ change: (inout L) -> R) -> R? where L.Reply: Hashable {
        modify(KitLayer<L>.self) { $0.modify(change) }
    }

    /// A PerchKit layer presented in Perch's stack, through ``KitLayer``.
    public init<L: Layer & Hashable>(_ layer: L) where L.Reply: Hashable { self.init(KitLayer(layer)) }

    /// The PerchKit layer when it is an `L` presented through ``KitLayer``, else nil.
    public func `as`<L: Layer & Hashable>(_ type: L.Type) -> L? where L.Reply: Hashable {
        self.as(KitLayer<L>.self)?.layer
    }

    /// Whether the layer is the PerchKit layer `L`, presented through ``KitLayer``.
    public func `is`<L: Layer & Hashable>(_ type: L.Type) -> Bool where L.Reply: Hashable {
        self.is(KitLayer<L>.self)
    }
}

extension Array where Element == Presentation {
    /// Index and model of the topmost layer that is the PerchKit layer `L`, or nil.
    func topmost<L: Layer & Hashable>(_ type: L.Type) -> (index: Int, layer: L)? where L.Reply: Hashable {
        topmost(KitLayer<L>.self).map { ($0.index, $0.layer.layer) }
    }
}
