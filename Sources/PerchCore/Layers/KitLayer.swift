/// A PerchKit ``Layer`` presented by Perch's root: how Perch shows PerchKit's own standard
/// layers (its ``AlertLayer``, its ``HelpLayer``) instead of keeping copies of them, and its own
/// layers written as PerchKit layers (the ``Cover``). The layer keeps its own state, keys, parts
/// and drawing; this says what Perch's root needs of it (``PresentedLayer``) and translates:
/// - its key table becomes its ``InputContext`` (each row a verb named after the table and the
///   row, and `?` for help over it), so help and the tests that check every key table see its
///   keys as they see every layer's;
/// - Perch's messages become its input (a bound key its row's verb, text a paste, a gesture the
///   same gesture), and the root's context its ``Context``: the screen, the clock, reduced
///   motion, and as the app's model what every Perch model reads (``ModelContext``,
///   `context.model(ModelContext.self)`);
/// - what it asks becomes Perch's intents: ``Reaction/dismiss`` a dismissal,
///   ``Reaction/reply(_:)`` the presenter's value for that reply (``replies``),
///   ``Reaction/banner(_:stays:)`` a banner, a request of the terminal (the clipboard, the
///   mouse, a query, the keyboard protocol) an effect, and ``Reaction/send(_:)`` of an
///   ``Intent`` that intent (`.send(Intent.openSheet)`). A layer that takes no message
///   (`Message == Never`) asks for nothing else that Perch's layers may ask.
public struct KitLayer<L: Layer & Hashable>: PresentedLayer where L.Message == Never, L.Reply: Hashable {
    /// The PerchKit layer.
    public private(set) var layer: L
    /// What each of the layer's replies is for its presenter (``Intent/reply(_:)``), taken as an
    /// outcome (an alert's button 1: the action it confirms); a reply not listed goes nowhere.
    public let replies: [L.Reply: AnyOutcome]

    /// Who receives keys while it is on top: its key table as Perch binds it, read once when it
    /// is made (a PerchKit layer's table does not change with its state), so that no key
    /// builds it again.
    public let inputContext: InputContext
    /// Each row's verb, by row index: the verb a bound key's action (`<title>.<row>`) stands for.
    private let verbs: [L.Verb?]

    /// `layer`, whose reply `r` is `replies[r]` for its presenter.
    public init(_ layer: L, replies: [L.Reply: AnyOutcome] = [:]) {
        self.layer = layer
        self.replies = replies
        let table = layer.keys
        inputContext = Self.inputContext(table)
        verbs = table.rows.map(\.verb)
    }

    /// The keys of a layer whose key table is `table`: its title and rows, each row's keys bound to
    /// a verb named `<title>.<row index>` (a row without keys is a gesture help lists). Perch's
    /// table adds what works everywhere (``KeyBindings/table(for:)``: Ctrl-C, Ctrl-Z, `?`).
    public static func inputContext(_ table: KeyTable<L.Verb>) -> InputContext {
        InputContext(
            title: table.title,
            bindings: table.rows.enumerated().map { index, row in
                row.keys.isEmpty || row.verb == nil
                    ? KeyBinding(gesture: row.label, row.help)
                    : KeyBinding(row.keys, row.label, KeyAction("\(table.title).\(index)"), row.help)
            })
    }

    /// Whether the PerchKit layer covers the whole screen.
    public var coversScreen: Bool { layer.coversScreen }
    /// Whether the PerchKit layer takes input.
    public var isActive: Bool { layer.isActive }
    /// Whether the PerchKit layer is animating.
    public var isAnimating: Bool { layer.isAnimating }

    /// Asks the PerchKit layer to go; true when it animates away.
    public mutating func beginDismissal(_ context: ModelContext) -> Bool { layer.beginDismissal(Self.kitContext(context)) }
    /// Moves the PerchKit layer's animation on; false once it is gone.
    public mutating func advance(_ context: ModelContext) -> Bool { layer.advance(Self.kitContext(context)) }

    /// Hands `message` to the PerchKit layer as its input; returns what it asks, as intents.
    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        guard let input = input(for: message) else { return [] }
        return layer.update(input, Self.kitContext(context)).flatMap(intents)
    }

    /// Draws the PerchKit layer over the whole screen (columns × rows of `context.size`).
    public func render(into frame: inout Frame, _ context: ModelContext) {
        layer.render(into: &frame, in: Rect(x: 0, y: 0, width: context.size.width, height: context.size.height), Self.kitContext(context))
    }

    /// What PerchKit's layers see of Perch's root.
    static func kitContext(_ context: ModelContext) -> Context {
        Context(size: context.size, clock: context.clock, reduceMotion: context.reduceMotion, model: context)
    }

    /// `message` as the layer's input; nil for a verb not of its table.
    private func input(for message: ModelMessage) -> ComponentInput<L.Verb>? {
        switch message {
        case .action(let action):
            let prefix = inputContext.title + "."
            guard action.name.hasPrefix(prefix), let index = Int(action.name.dropFirst(prefix.count)),
                verbs.indices.contains(index), let verb = verbs[index]
            else { return nil }
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

    /// What the layer asked, as Perch's root carries it out.
    private func intents(_ reaction: Reaction<Never>) -> [Intent] {
        switch reaction.request {
        case .dismiss: return [.dismiss]
        case .reply(let value):
            guard let reply = value as? L.Reply, let outcome = replies[reply] else { return [] }
            return [.reply(outcome)]
        case .banner(let text, let stays): return [.banner(text, stays: stays)]
        case .send(let message):
            // Perch's root takes intents: what a layer of Perch's own asks of it (the sheet).
            guard let intent = message as? Intent else { return [] }
            return [intent]
        case .terminal(.copyToClipboard(let text)): return [.effect(.copyToClipboard(text))]
        case .terminal(.setMouse(let on)): return [.effect(.setMouse(on))]
        case .terminal(.ask(let query)): return [.effect(.ask(query))]
        case .terminal(.pushKeyboardFlags(let flags)): return [.effect(.pushKeyboardFlags(flags))]
        // What a layer that takes no message cannot ask with a purpose (work or a layer whose
        // answer it could not take), a message for an app model Perch does not have, and what
        // only the root decides (the tab, quitting).
        case .present, .tellPresented, .perform, .selectTab, .quit: return []
        }
    }
}

/// What every Perch model reads, as the app's model PerchKit layers hosted in Perch's root read
/// (``KitLayer``): a snapshot the root makes for each update and draw. It takes no message; what a
/// layer asks of the root it sends as an ``Intent``.
extension ModelContext: AppModel {}

extension Presentation {
    /// A PerchKit layer (one that takes no message) presented in Perch's stack, through ``KitLayer``.
    public init<L: Layer & Hashable>(_ layer: L) where L.Message == Never, L.Reply: Hashable { self.init(KitLayer(layer)) }

    /// The PerchKit layer when it is an `L` presented through ``KitLayer``, else nil.
    public func `as`<L: Layer & Hashable>(_ type: L.Type) -> L? where L.Message == Never, L.Reply: Hashable {
        self.as(KitLayer<L>.self)?.layer
    }

    /// Whether the layer is the PerchKit layer `L`, presented through ``KitLayer``.
    public func `is`<L: Layer & Hashable>(_ type: L.Type) -> Bool where L.Message == Never, L.Reply: Hashable {
        self.is(KitLayer<L>.self)
    }
}
