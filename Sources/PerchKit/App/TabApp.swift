/// Which component a message or a piece of work belongs to.
public enum ComponentID: Hashable, Sendable {
    /// The pane at this index of ``TabApp/panes``.
    case pane(Int)
    /// The presented layer with this id (given when it was presented, counted up for the run, so
    /// that an outcome for a dismissed layer never reaches a later one).
    case layer(Int)
    /// The app's model (``TabApp/model``).
    case app
}

/// The root of a tab-bar app: the app's model (``AppModel``, the state its components share), the
/// panes (each kept for the whole run), the tab bar over them, and the stack of presented layers.
/// It knows no component's cases: it routes input to the component it is for (the top layer
/// that takes input, else the selected pane), carries out the ``Reaction``s they return, hands
/// their messages back to them, and what they send to the model to the model.
///
/// Its own keys: `1`–`9` select a tab, `Tab`/`Shift-Tab` the next or previous, `?` shows help
/// (built from the key tables), `Esc` dismisses the top layer, `q` and `Ctrl-C` quit, `Ctrl-Z`
/// suspends; with a layer up, only `?`, `Esc`, `Ctrl-C` and `Ctrl-Z` (``keysOverLayers``). A
/// component's own binding of a key comes first, then, with no layer up, the app model's own
/// (``AppModel/keys``). Holding a tab (the mouse held on it, or its digit key held) calls its
/// pane's ``Pane/tabHeld(_:)`` when ``Pane/holdsTab``; a key the active component's table holds
/// (``KeyTable/holds``), held, is that hold's verb. On a screen below ``minimumSize`` only a
/// notice is drawn.
public struct TabApp: Sendable {
    /// The app's model, which every component reads through its ``Context`` and changes only by
    /// sending it messages (``Reaction/send(to:_:)``).
    public private(set) var model: any AppModel
    /// The panes, in tab order.
    public private(set) var panes: [AnyPane]
    /// Index of the selected tab (``select(tab:)`` changes it from outside a run).
    public private(set) var selected = 0
    /// The presented layers, bottom first.
    public private(set) var layers: [AnyLayer] = []
    private var nextLayerID = 1
    /// Whether a quit was asked for: the model's ``AppModel/willQuit(_:)`` is asked once.
    private var quitting = false
    /// What the panes asked when they first followed the model, carried out at the first event.
    private var askedAtStart: [(ComponentID, [ReactionRequest])] = []
    /// Whether the app's model took a message during the current event: the panes are told once
    /// it has been handled (``Pane/modelChanged(_:)``).
    private var modelTookMessage = false
    /// The screen, columns × rows.
    public private(set) var size: Size
    /// Time of the latest event, in milliseconds on the loop's clock.
    public private(set) var clock: Int64 = 0
    /// Whether animations are off.
    public var reduceMotion: Bool
    /// The message shown above the tab bar (``Reaction/banner(_:stays:)``); nil when none is.
    public private(set) var banner: Banner?
    /// The smallest screen it lays out, columns × rows (20×6 by default). Below it only a notice
    /// is drawn (``tooSmallNotice``) and only `q`, `Ctrl-C` and `Ctrl-Z` act; nothing is laid
    /// out, so every pane and layer is as it was when the screen grows again. The messages of
    /// work under way are still delivered.
    public var minimumSize = Size(width: 20, height: 6)

    /// What the root asks the loop to carry out.
    public enum Effect: Sendable {
        /// Perform `work` off the loop's thread; deliver its message to `component`
        /// (``Event/deliver(_:to:)``).
        case perform(AnyWork, for: ComponentID)
        /// End the run (exit status 0).
        case quit
        /// Give the terminal back and stop the process (Ctrl-Z).
        case suspend
        /// Ask the terminal for `request` (the clipboard, mouse reporting).
        case terminal(TerminalRequest)
        /// Say `line` below what was said before, for a screen reader (the app's model narrates,
        /// ``AppModel/narrates``); a backend that draws frames says nothing.
        case say(String)
    }

    /// What the root takes.
    public enum Event: Sendable {
        /// Input, a gesture, a frame or a resize.
        case ui(UIEvent)
        /// A message for a component (the outcome of its work).
        case deliver(any Sendable, to: ComponentID)
        /// The first frame is on the screen (the loop sends this once): the app's model does
        /// what waits for it (``AppModel/started(_:)``).
        case started
    }

    /// The root's own verbs.
    public enum Verb: Hashable, Sendable {
        case selectTab(Int)
        case nextTab, previousTab, help, dismiss, quit, suspend
    }

    /// An app of `panes` sharing `model` (none by default) on a screen of `size` (columns × rows).
    public init(panes: [any Pane], model: any AppModel = NoAppModel(), size: Size, reduceMotion: Bool = false) {
        self.model = model
        self.panes = panes.map(AnyPane.init)
        self.size = size
        self.reduceMotion = reduceMotion
        // Each pane follows the model from the start, so the first frame shows what it holds;
        // what a pane asks then is carried out at the first event.
        let context = self.context
        for index in self.panes.indices {
            let asked = self.panes[index].modelChanged(context)
            if !asked.isEmpty { askedAtStart.append((.pane(index), asked)) }
        }
    }

    /// Whether the screen is below ``minimumSize``.
    public var isTooSmall: Bool { TooSmallNotice(size: size, minimum: minimumSize).applies }

    /// What is drawn instead of the app on a screen below ``minimumSize``, e.g.
    /// "terminal too small (19×6, needs 20×6)".
    public var tooSmallNotice: String { TooSmallNotice(size: size, minimum: minimumSize).text }

    /// What the components see.
    public var context: Context {
        var context = Context(size: size, clock: clock, reduceMotion: reduceMotion || model.reducesMotion, model: model)
        context.panes = panes
        context.layers = layers
        return context
    }

    /// Selects the tab at `index` (0-based), when there is one: for a host that restores where
    /// a run was, or a test that starts on a tab.
    public mutating func select(tab index: Int) { if panes.indices.contains(index) { selected = index } }

    /// Changes the first pane of type `P` in place with `change` (a host seeding it, a test
    /// setting it up); returns what `change` returned, or nil when no pane is a `P`.
    @discardableResult
    public mutating func modifyPane<P: Pane, R>(_ type: P.Type, _ change: (inout P) -> R) -> R? {
        guard let index = panes.firstIndex(where: { $0.base is P }), var pane = panes[index].base as? P else { return nil }
        let result = change(&pane)
        panes[index].base = pane
        return result
    }

    /// Presents `layer` on top, presented by no component (its replies go nowhere): a host's
    /// notice at start, or a test setting up a stack.
    public mutating func present(_ layer: some Layer) { present(AnyLayer(layer), by: nil) }

    /// Changes the app's model in place with `change` when it is an `M` (a host seeding it, a
    /// test setting it up); returns what `change` returned, or nil when it is not an `M`. The
    /// panes are not told (``Pane/modelChanged(_:)``) until the model next takes a message.
    @discardableResult
    public mutating func modifyModel<M: AppModel, R>(_ type: M.Type, _ change: (inout M) -> R) -> R? {
        guard var typed = model as? M else { return nil }
        let result = change(&typed)
        model = typed
        return result
    }

    /// Changes the topmost presented layer of type `L` in place with `change`; returns what
    /// `change` returned, or nil when no layer is an `L`.
    @discardableResult
    public mutating func modifyLayer<L: Layer, R>(_ type: L.Type, _ change: (inout L) -> R) -> R? {
        guard let index = layers.lastIndex(where: { $0.base is L }), var layer = layers[index].base as? L else { return nil }
        let result = change(&layer)
        layers[index].base = layer
        return result
    }

    /// The app's model when it is an `M`.
    public func model<M: AppModel>(_ type: M.Type) -> M? { model as? M }

    /// The root's key bindings (help lists them after the component's).
    public var keys: KeyTable<Verb> {
        let digits = panes.indices.prefix(9).map { index in
            KeyTable<Verb>.Row([.char(Character(String(index + 1)))], "\(index + 1)", panes[index].title, .selectTab(index))
        }
        // Bug: help said "hold a tab or digit: its sheet, where it has one" whatever tab had one.
        let holding = panes.indices.prefix(9).filter { panes[$0].base.holdsTab }
        let holds: [KeyTable<Verb>.Row] =
            holding.isEmpty
            ? []
            : [
                .init(
                    [], "hold " + holding.map { "\(panes[$0].title) or \($0 + 1)" }.joined(separator: ", "),
                    holding.count == 1 ? "its sheet" : "the tab's sheet", nil)
            ]
        return KeyTable(
            "Everywhere",
            digits + [
                .init([KeyEvent(.tab)], "Tab", "next tab", .nextTab),
                .init([KeyEvent(.tab, modifiers: .shift)], "Shift-Tab", "previous tab", .previousTab),
                Self.helpRow, Self.dismissRow,
                .init([.char("q"), KeyEvent(.control("c"))], "q Ctrl-C", "quit", .quit),
                Self.suspendRow,
                .init([], "click a tab", "select it", nil),
            ] + holds)
    }

    /// The root's keys while a layer takes input (help lists them after the layer's): help over
    /// the layer, closing it, and the process's own; the others wait until it goes.
    public var keysOverLayers: KeyTable<Verb> {
        KeyTable("Everywhere", [Self.helpRow, Self.dismissRow, .init([KeyEvent(.control("c"))], "Ctrl-C", "quit", .quit), Self.suspendRow])
    }

    /// The rows both root tables hold: help (`?`, or `F1` where a component takes typing),
    /// closing the top layer, suspending.
    private static let helpRow = KeyTable<Verb>.Row([.char("?"), KeyEvent(.function(1))], "? F1", "help (F1 where you type)", .help)
    private static let dismissRow = KeyTable<Verb>.Row([KeyEvent(.escape)], "Esc", "close the top layer", .dismiss)
    private static let suspendRow = KeyTable<Verb>.Row([KeyEvent(.control("z"))], "Ctrl-Z", "suspend (fg resumes)", .suspend)

    /// Index in ``layers`` of the top layer that takes input.
    public var activeTop: Int? { layers.lastIndex { $0.base.isActive } }

    /// Shows `text` above the tab bar from the next frame (a host's message at start); with
    /// `stays`, whole, until `Esc` dismisses it.
    public mutating func showBanner(_ text: String, stays: Bool = false) { banner = Banner(text, stays: stays) }

    /// The selected pane when it is a `P`, else nil.
    // Bug: it returned the first pane of the type, selected or not.
    public func pane<P: Pane>(_ type: P.Type) -> P? { panes.indices.contains(selected) ? panes[selected].base as? P : nil }

    /// The pane of tab `index` (0-based) when it is a `P`, selected or not; nil when there is no
    /// such tab or it holds another type.
    public func pane<P: Pane>(_ type: P.Type, at index: Int) -> P? { panes.indices.contains(index) ? panes[index].base as? P : nil }

    /// The topmost presented layer that is a `L`.
    public func layer<L: Layer>(_ type: L.Type) -> L? { layers.reversed().lazy.compactMap { $0.base as? L }.first }

    /// The keys whose hold may mean something: the digits of the panes that hold their tab, and
    /// every key a pane's table holds (``KeyTable/holds``); a layer's holds are added while it is
    /// up (``acceptsKeyHold(_:)`` says which count now).
    public var holdableKeys: Set<KeyEvent> {
        var keys = Set(panes.indices.prefix(9).filter { panes[$0].base.holdsTab }.map { KeyEvent.char(Character(String($0 + 1))) })
        for pane in panes { keys.formUnion(pane.heldKeys) }
        if let top = activeTop { keys.formUnion(layers[top].heldKeys) }
        return keys
    }

    /// The digits of the panes that hold their tab: a press selects the tab at once, in both
    /// key-hold modes, and the hold follows (``GestureRecognizer/Configuration/tapFirstKeys``).
    public var tabHoldKeys: Set<KeyEvent> {
        Set(panes.indices.prefix(9).filter { panes[$0].base.holdsTab }.map { KeyEvent.char(Character(String($0 + 1))) })
    }

    /// Whether holding `key` means something now: a key the top layer that takes input holds;
    /// with no layer up, a key the selected pane holds, or a digit of a pane that holds its tab.
    /// Elsewhere its auto-repeats are plain presses.
    public func acceptsKeyHold(_ key: KeyEvent) -> Bool {
        if let top = activeTop { return layers[top].heldKeys.contains(key) }
        if panes[selected].heldKeys.contains(key) { return true }
        return panes.indices.prefix(9).contains { panes[$0].base.holdsTab && key == .char(Character(String($0 + 1))) }
    }

    /// When the loop must draw again without input: a frame from now while a layer animates,
    /// else the selected pane's own deadline (``Pane/nextDeadline(clock:)``) while no layer
    /// covers the screen; nil when nothing moves.
    public var nextAnimationDeadline: Int64? {
        if layers.contains(where: { $0.base.isAnimating }) { return clock + SheetMotion.animationFrameMilliseconds }
        guard !isTooSmall, !layers.contains(where: { $0.base.coversScreen }) else { return nil }
        return panes[selected].base.nextDeadline(clock: clock)
    }

    // MARK: Update

    /// Applies one event at `time` (milliseconds; nil keeps the clock) and returns what the loop
    /// must carry out.
    public mutating func update(_ event: Event, at time: Int64? = nil) -> [Effect] {
        if let time { clock = max(clock, time) }
        // The app as it was, for the lines its model says about the change (only when it narrates).
        let before = model.narrates && !Self.isSilent(event) ? self : nil
        var effects: [Effect] = []
        if !askedAtStart.isEmpty {
            let asked = askedAtStart
            askedAtStart = []
            for (id, reactions) in asked { effects += carryOut(reactions, from: id) }
        }
        switch event {
        case .ui(let ui): effects += handle(ui)
        case .deliver(let message, let id): effects += deliver(message, to: id)
        case .started: effects += fromModel(model.startedErased(context))
        }
        if modelTookMessage {
            // One pass, so a pane that sends the model a message here cannot loop.
            modelTookMessage = false
            for index in panes.indices { effects += carryOut(panes[index].modelChanged(context), from: .pane(index)) }
        }
        for index in panes.indices { effects += carryOut(panes[index].due(context), from: .pane(index)) }
        advanceLayers()
        if let quit = effects.firstIndex(where: \.isQuit), !quitting {
            // What the model keeps before the run ends (what each pane looked like, say) is asked
            // for before the quit, so the runner starts it first.
            quitting = true
            effects.insert(contentsOf: fromModel(model.willQuitErased(context)), at: quit)
        }
        if let before { effects += model.narration(from: before, to: self).map(Effect.say) }
        return effects
    }

    /// Whether `event` changes nothing a person reads (an animation frame, a reply, focus lost),
    /// so a narrating model is not asked about it.
    private static func isSilent(_ event: Event) -> Bool {
        switch event {
        case .ui(.animationFrame), .ui(.terminalReply), .ui(.focus(false)): true
        default: false
        }
    }

    private mutating func handle(_ event: UIEvent) -> [Effect] {
        if isTooSmall {
            switch event {
            case .resize, .focus, .terminalReply: break
            case .key(let key) where [.char("q"), KeyEvent(.control("c"))].contains(key): return [.quit]
            case .key(let key) where key == KeyEvent(.control("z")): return [.suspend]
            default: return []
            }
        }
        switch event {
        case .key(let key): return handleKey(key)
        case .keyHold(let key):
            if let top = activeTop {
                return layers[top].heldKeys.contains(key) ? route(.held(key)) : []
            }
            if panes[selected].heldKeys.contains(key) { return route(.held(key)) }
            guard let index = panes.indices.first(where: { Character(String($0 + 1)) == key.character }) else { return [] }
            selected = index
            return holdTab(index)
        case .tap(let target):
            if activeTop != nil, target == .outside { return dismissTop() }
            if activeTop == nil, let tab = target.part(TabBar.Part.self), panes.indices.contains(tab.index) {
                selected = tab.index
                return []
            }
            return route(.tap(target))
        case .longPress(let target):
            if activeTop == nil, let tab = target.part(TabBar.Part.self), panes.indices.contains(tab.index) {
                selected = tab.index
                return holdTab(tab.index)
            }
            return route(.longPress(target))
        case .scroll(let target, let notches): return route(.scroll(target, notches: notches))
        case .drag(let target, let position): return route(.drag(target, position))
        case .dragEnded(let target, let position): return route(.dragEnded(target, position))
        case .paste(let text): return route(.paste(text))
        case .resize(let newSize):
            size = Screen.capped(newSize)
            // Below the minimum nothing is laid out, so nothing is clamped to it.
            return isTooSmall ? [] : relayout()
        case .focus(let focused): return fromModel(model.focusChangedErased(to: focused, context))
        case .terminalReply(let reply): return fromModel(model.terminalRepliedErased(reply, context))
        case .animationFrame: return []
        }
    }

    private mutating func handleKey(_ key: KeyEvent) -> [Effect] {
        if let shown = banner {
            // A banner goes at the next key with no layer taking input (a key pressed over a layer
            // is the layer's, and the layer may cover the banner); one that stays, at Esc (with no
            // layer up).
            if !shown.stays {
                if activeTop == nil { banner = nil }
            } else if key == KeyEvent(.escape), activeTop == nil {
                banner = nil
                return []
            }
        }
        let component = activeTop.map { layers[$0].takes(key) } ?? panes[selected].takes(key)
        if !component, activeTop == nil, model.binds(key) { return fromModel(model.press(key, context)) }
        // With a layer up only help, its way out and the process's keys are the root's.
        if !component, let verb = (activeTop == nil ? keys : keysOverLayers).verb(for: key) { return perform(verb) }
        return route(.key(key))
    }

    private mutating func perform(_ verb: Verb) -> [Effect] {
        switch verb {
        case .selectTab(let index): if panes.indices.contains(index) { selected = index }
        case .nextTab: selected = (selected + 1) % max(1, panes.count)
        case .previousTab: selected = (selected + panes.count - 1) % max(1, panes.count)
        case .help:
            let table = activeTop.map { layers[$0].help } ?? panes[selected].help
            var sections = [HelpLayer.Section("", table.1)]
            if activeTop == nil, !model.help.1.isEmpty { sections.append(HelpLayer.Section(model.help.0, model.help.1)) }
            let root = activeTop == nil ? keys : keysOverLayers
            sections.append(HelpLayer.Section(root.title, root.help))
            present(AnyLayer(HelpLayer(title: table.0, sections: sections)), by: nil)
        case .dismiss: return dismissTop()
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        }
        return []
    }

    /// Hands `input` to the top layer that takes input, else the selected pane.
    private mutating func route(_ input: RawInput) -> [Effect] {
        let context = self.context
        if let top = activeTop {
            let id = ComponentID.layer(layers[top].id)
            return carryOut(layers[top].update(input, context), from: id)
        }
        let index = selected
        return carryOut(panes[index].update(input, context), from: .pane(index))
    }

    private mutating func holdTab(_ index: Int) -> [Effect] {
        guard panes[index].base.holdsTab else { return [] }
        return carryOut(panes[index].tabHeld(context), from: .pane(index))
    }

    /// Hands `message` to the component `id`, when it is still there.
    private mutating func deliver(_ message: any Sendable, to id: ComponentID) -> [Effect] {
        let context = self.context
        switch id {
        case .pane(let index):
            guard panes.indices.contains(index) else { return [] }
            return carryOut(panes[index].receive(message, context), from: id)
        case .layer(let layerID):
            // A layer dismissed before its work came back: the model may still want the outcome
            // (a config the layer wrote).
            guard let index = layers.firstIndex(where: { $0.id == layerID }) else {
                return fromModel(model.unclaimedErased(message, context))
            }
            return carryOut(layers[index].receive(message, context), from: id)
        case .app: return fromModel(model.receiveErased(message, context))
        }
    }

    /// Carries out what the app's model answered, noting that it took a message, so that the
    /// panes hear of it once the event is handled (``Pane/modelChanged(_:)``); nil (a message of
    /// another type than its own, dropped) is nothing taken.
    private mutating func fromModel(_ reactions: [ReactionRequest]?) -> [Effect] {
        guard let reactions else { return [] }
        modelTookMessage = true
        return carryOut(reactions, from: .app)
    }

    /// Carries out what component `id` asked, in order.
    private mutating func carryOut(_ reactions: [ReactionRequest], from id: ComponentID) -> [Effect] {
        var effects: [Effect] = []
        // A layer's presenter, found before the layer dismisses itself: a menu that goes and
        // replies in one breath (`[.dismiss, .reply(choice)]`) still reaches its presenter.
        let presenter: AnyLayer.Presenter? = {
            guard case .layer(let layerID) = id else { return nil }
            return layers.first { $0.id == layerID }?.presenter
        }()
        for reaction in reactions {
            switch reaction {
            case .present(let layer, let reply): present(layer, by: (id, reply))
            case .dismiss:
                if case .layer(let layerID) = id, let index = layers.firstIndex(where: { $0.id == layerID }) {
                    dismiss(at: index)
                } else {
                    effects += dismissTop()
                }
            case .dismissAll:
                // Top first: a sheet slides away, the others go at once.
                for index in layers.indices.reversed() where layers[index].base.isActive { dismiss(at: index) }
            case .reply(let value):
                guard let presenter, let message = presenter.reply(value) else { continue }
                effects += deliver(message, to: presenter.id)
            case .send(let message): effects += deliver(message, to: .app)
            case .tellPresented(let message):
                for layerID in layers.filter({ $0.presenter?.id == id }).map(\.id) { effects += deliver(message, to: .layer(layerID)) }
            case .perform(let work): effects.append(.perform(work, for: id))
            case .banner(let text, let stays): banner = Banner(text, stays: stays)
            case .announce(let line): effects.append(.say(line))
            case .terminal(let request): effects.append(.terminal(request))
            case .selectTab(let index): if panes.indices.contains(index) { selected = index }
            case .quit: effects.append(.quit)
            }
        }
        return effects
    }

    private mutating func present(_ layer: AnyLayer, by presenter: (id: ComponentID, reply: @Sendable (any Sendable) -> (any Sendable)?)?) {
        var layer = layer
        layer.id = nextLayerID
        nextLayerID += 1
        layer.presenter = presenter.map { AnyLayer.Presenter(id: $0.id, reply: $0.reply) }
        layers.append(layer)
        _ = layers[layers.count - 1].update(.relayout, context)
    }

    private mutating func dismissTop() -> [Effect] {
        if let top = activeTop { dismiss(at: top) }
        return []
    }

    private mutating func dismiss(at index: Int) {
        if !layers[index].beginDismissal(context) { layers.remove(at: index) }
    }

    private mutating func relayout() -> [Effect] {
        let context = self.context
        var effects: [Effect] = []
        for index in panes.indices { effects += carryOut(panes[index].update(.relayout, context), from: .pane(index)) }
        for index in layers.indices { effects += carryOut(layers[index].update(.relayout, context), from: .layer(layers[index].id)) }
        return effects
    }

    /// After every event, each layer moves its animation on; one that is gone is removed, and with
    /// it every layer it presented (an alert over a menu whose item went), whose reply would have
    /// nowhere to go.
    private mutating func advanceLayers() {
        let context = self.context
        var gone: Set<Int> = []
        for index in layers.indices.reversed() where !layers[index].advance(context) {
            gone.insert(layers[index].id)
            layers.remove(at: index)
        }
        layers.removePresented(by: gone, id: \.id) { if case .layer(let id)? = $0.presenter?.id { id } else { nil } }
    }

    // MARK: Render

    /// The frame for the state as it is: the selected pane above the tab bar, then each layer,
    /// bottom first. Just before the top layer that takes input, the whole screen is marked
    /// ``HitTarget/outside``, so only that layer reacts to the pointer.
    public func renderFrame() -> Frame {
        var frame = Frame(size: size)
        guard size.width > 0, size.height > 0 else { return frame }
        if isTooSmall {
            TooSmallNotice(size: size, minimum: minimumSize).render(into: &frame.screen)
            return frame
        }
        let context = self.context
        let barHeight = TabBar.height(screenHeight: size.height)
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        if !layers.contains(where: { $0.base.coversScreen }) {
            let paneArea = Rect(x: 0, y: 0, width: size.width, height: size.height - barHeight)
            panes[selected].base.render(into: &frame, in: paneArea, context)
            banner?.render(into: &frame, above: paneArea)
            TabBar(titles: panes.map(\.title), selected: selected, holdable: Set(panes.indices.filter { panes[$0].base.holdsTab }))
                .render(into: &frame, in: Rect(x: 0, y: size.height - barHeight, width: size.width, height: barHeight))
        }
        let top = activeTop
        for (index, layer) in layers.enumerated() {
            if index == top { frame.hits.mark(screen, .outside) }
            layer.base.render(into: &frame, in: screen, context)
        }
        model.finish(&frame, context)
        return frame
    }
}

extension TabApp {
    /// The banner's lines as drawn now (``Banner/lines(width:paneHeight:)``); empty without one.
    public var bannerLines: [String] {
        banner?.lines(width: size.width, paneHeight: size.height - TabBar.height(screenHeight: size.height)) ?? []
    }
}

/// Input for a component before its key table turns keys into its verbs.
enum RawInput {
    case key(KeyEvent)
    case held(KeyEvent)
    case paste(String)
    case tap(HitTarget)
    case longPress(HitTarget)
    case scroll(HitTarget, notches: Int)
    case drag(HitTarget, Position)
    case dragEnded(HitTarget, Position)
    case relayout

    /// The same input for `C`, a key as its verb when its table binds it.
    func typed<C: Component>(for component: C) -> ComponentInput<C.Verb> {
        switch self {
        case .key(let key): component.keys.verb(for: key).map { .verb($0) } ?? .key(key)
        case .held(let key): component.keys.heldVerb(for: key).map { .verb($0) } ?? .key(key)
        case .paste(let text): .paste(text)
        case .tap(let target): .tap(target)
        case .longPress(let target): .longPress(target)
        case .scroll(let target, let notches): .scroll(target, notches: notches)
        case .drag(let target, let position): .drag(target, position)
        case .dragEnded(let target, let position): .dragEnded(target, position)
        case .relayout: .relayout
        }
    }
}

/// Calls into a component whose type is known only at run time (``AnyPane``, ``AnyLayer``).
private enum Dispatch {
    static func update<C: Component>(_ component: inout C, _ input: RawInput, _ context: Context) -> [ReactionRequest] {
        component.update(input.typed(for: component), context).map(\.request)
    }

    static func receive<C: Component>(_ component: inout C, _ message: any Sendable, _ context: Context) -> [ReactionRequest] {
        guard let message = message as? C.Message else { return [] }
        return component.receive(message, context).map(\.request)
    }

    /// Whether `key` is the component's: bound in its table, or text it types (its table read once).
    static func takes<C: Component>(_ component: C, _ key: KeyEvent) -> Bool {
        let table = component.keys
        return table.verb(for: key) != nil || table.typesText(key)
    }

    static func heldKeys<C: Component>(_ component: C) -> Set<KeyEvent> { Set(component.keys.holds.map(\.key)) }

    static func help<C: Component>(_ component: C) -> (String, [(label: String, help: String)]) {
        (component.keys.title, component.keys.help)
    }

    static func tabHeld<P: Pane>(_ pane: inout P, _ context: Context) -> [ReactionRequest] { pane.tabHeld(context).map(\.request) }

    static func modelChanged<P: Pane>(_ pane: inout P, _ context: Context) -> [ReactionRequest] {
        pane.modelChanged(context).map(\.request)
    }

    static func due<P: Pane>(_ pane: inout P, _ context: Context) -> [ReactionRequest] { pane.due(context).map(\.request) }
}

extension AppModel {
    /// ``receive(_:_:)`` for a message whose type is known only at run time: one of another type
    /// than ``Message`` is dropped (nil).
    mutating func receiveErased(_ message: any Sendable, _ context: Context) -> [ReactionRequest]? {
        guard let message = message as? Message else { return nil }
        return receive(message, context).map(\.request)
    }

    mutating func startedErased(_ context: Context) -> [ReactionRequest] { started(context).map(\.request) }

    /// Whether `key` is one of the app's own.
    func binds(_ key: KeyEvent) -> Bool { keys.verb(for: key) != nil }

    /// `key` pressed: its verb performed.
    mutating func press(_ key: KeyEvent, _ context: Context) -> [ReactionRequest] {
        guard let verb = keys.verb(for: key) else { return [] }
        return perform(verb, context).map(\.request)
    }

    /// Its keys as help lists them: the table's title and rows.
    var help: (String, [(label: String, help: String)]) { (keys.title, keys.help) }

    mutating func focusChangedErased(to focused: Bool, _ context: Context) -> [ReactionRequest] {
        focusChanged(to: focused, context).map(\.request)
    }

    mutating func terminalRepliedErased(_ reply: TerminalReply, _ context: Context) -> [ReactionRequest] {
        terminalReplied(reply, context).map(\.request)
    }

    mutating func willQuitErased(_ context: Context) -> [ReactionRequest] { willQuit(context).map(\.request) }

    mutating func unclaimedErased(_ message: any Sendable, _ context: Context) -> [ReactionRequest] {
        unclaimed(message, context).map(\.request)
    }
}

/// Any ``Pane``, as the root keeps it.
public struct AnyPane: Sendable {
    /// The pane.
    public internal(set) var base: any Pane

    init(_ base: any Pane) { self.base = base }

    /// Its tab's label.
    public var title: String { base.title }
    var help: (String, [(label: String, help: String)]) { Dispatch.help(base) }
    func takes(_ key: KeyEvent) -> Bool { Dispatch.takes(base, key) }
    var heldKeys: Set<KeyEvent> { Dispatch.heldKeys(base) }
    mutating func update(_ input: RawInput, _ context: Context) -> [ReactionRequest] { Dispatch.update(&base, input, context) }
    mutating func receive(_ message: any Sendable, _ context: Context) -> [ReactionRequest] { Dispatch.receive(&base, message, context) }
    mutating func tabHeld(_ context: Context) -> [ReactionRequest] { Dispatch.tabHeld(&base, context) }
    mutating func modelChanged(_ context: Context) -> [ReactionRequest] { Dispatch.modelChanged(&base, context) }
    mutating func due(_ context: Context) -> [ReactionRequest] { Dispatch.due(&base, context) }
}

/// Any ``Layer``, with its id and who presented it, as the root keeps it.
public struct AnyLayer: Sendable {
    /// The layer.
    public internal(set) var base: any Layer
    /// Its id for the run (``ComponentID/layer(_:)``); 0 until presented.
    public internal(set) var id = 0

    /// The component that presented it, and how its replies become that component's messages.
    struct Presenter: Sendable {
        var id: ComponentID
        var reply: @Sendable (any Sendable) -> (any Sendable)?
    }

    var presenter: Presenter?

    init(_ base: any Layer) { self.base = base }

    /// Its key table's title (help's title over it).
    public var title: String { Dispatch.help(base).0 }

    var help: (String, [(label: String, help: String)]) { Dispatch.help(base) }
    func takes(_ key: KeyEvent) -> Bool { Dispatch.takes(base, key) }
    var heldKeys: Set<KeyEvent> { Dispatch.heldKeys(base) }
    mutating func update(_ input: RawInput, _ context: Context) -> [ReactionRequest] { Dispatch.update(&base, input, context) }
    mutating func receive(_ message: any Sendable, _ context: Context) -> [ReactionRequest] { Dispatch.receive(&base, message, context) }
    mutating func beginDismissal(_ context: Context) -> Bool { base.beginDismissal(context) }
    mutating func advance(_ context: Context) -> Bool { base.advance(context) }
}

extension TabApp.Effect {
    /// Whether it ends the run.
    var isQuit: Bool { if case .quit = self { true } else { false } }
}

extension KeyEvent {
    /// The character of a plain character key, else nil.
    var character: Character? {
        if case .character(let c) = key, modifiers.isEmpty { c } else { nil }
    }
}
