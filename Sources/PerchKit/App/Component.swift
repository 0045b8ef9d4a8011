import Synchronization

/// A pane or a presented layer: its own state, its own `update`, its own `render`, and its own
/// types: the messages it takes (``Message``: replies of the layers it presents, outcomes of the
/// work it asks for), the verbs its keys mean (``Verb``, bound in ``keys``), and the parts it
/// marks in the hit map (a nested ``HitPart`` enum). The root (``TabApp``) routes input to the
/// component it is for and carries out the ``Reaction``s it returns; it knows no component's
/// cases, as Bubble Tea's components return their own `Cmd` and `Msg`.
public protocol Component: Sendable {
    /// What this component takes besides input: the replies of the layers it presents and the
    /// outcomes of the work it asks for, each mapped to a message when it asked.
    associatedtype Message: Sendable = Never
    /// What its keys mean.
    associatedtype Verb: Hashable & Sendable = Never

    /// Its key bindings, for ``update(_:_:)`` (keys arrive as verbs) and the help overlay.
    var keys: KeyTable<Verb> { get }
    /// Reacts to input meant for it; returns what the root must do.
    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>]
    /// Takes one of its own messages; returns what the root must do. Nothing by default.
    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>]
    /// Draws itself into `area` of `frame` (a pane: the screen above the tab bar; a layer: the
    /// whole screen) and marks its parts in the frame's hit map.
    func render(into frame: inout Frame, in area: Rect, _ context: Context)
}

extension Component where Message == Never {
    /// A component with no messages (it presents no layer and asks for no work) needs no
    /// `receive`. One that declares a ``Message`` must write its own: there is no default for
    /// it, so a misspelt one (`receive(_:context:)`) is a compile error, not a method never called.
    public mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {}
}

/// A pane of the tab bar, kept for the whole run: switching tabs only changes which is drawn, so
/// its cursor and scroll are as they were when it is shown again.
public protocol Pane: Component {
    /// Its tab's label.
    var title: String { get }
    /// Whether holding its tab (a long-press with the mouse, or holding its digit key) means
    /// something (``tabHeld(_:)``). False by default.
    var holdsTab: Bool { get }
    /// Its tab was held: what the root must do (present a sheet). Nothing by default.
    mutating func tabHeld(_ context: Context) -> [Reaction<Message>]
    /// The app's model took a message (``AppModel``): the pane may follow what changed, say the
    /// item it shows, comparing with what it showed. Every pane is asked, shown or not. Nothing
    /// by default.
    mutating func modelChanged(_ context: Context) -> [Reaction<Message>]
    /// Asked after every event, shown or not: work due without input (a list never loaded yet,
    /// at the first event). Nothing by default.
    mutating func due(_ context: Context) -> [Reaction<Message>]
    /// While it is shown and no layer covers the screen: when it must be drawn again without
    /// input (a spinner's next frame), in milliseconds on the loop's clock, `clock` being now;
    /// nil when nothing moves (the default), so an idle app makes no wake-ups.
    func nextDeadline(clock: Int64) -> Int64?
}

extension Pane {
    /// False: holding its tab means nothing.
    public var holdsTab: Bool { false }
    /// Nothing to do.
    public mutating func tabHeld(_ context: Context) -> [Reaction<Message>] { [] }
    /// Shows the same whatever the model holds.
    public mutating func modelChanged(_ context: Context) -> [Reaction<Message>] { [] }
    /// Asks for nothing.
    public mutating func due(_ context: Context) -> [Reaction<Message>] { [] }
    /// Nothing moves.
    public func nextDeadline(clock: Int64) -> Int64? { nil }
}

/// A layer presented above the panes (a sheet, an alert, a cover, the help overlay). It is
/// modal: keys go to the top layer that takes input, and a tap outside it dismisses it.
/// It may reply to the component that presented it (``Layer/reply(_:)``, a value of its own
/// ``Reply`` type: another is a compile error), which mapped the reply to one of its own
/// messages when it presented it (``Reaction/present(_:onReply:)``).
public protocol Layer: Component {
    /// What it replies to its presenter (a sheet: the row picked; an alert: the button).
    associatedtype Reply: Sendable = Never
    /// Whether it covers the whole screen, tab bar included, so nothing below it is drawn.
    /// False by default.
    var coversScreen: Bool { get }
    /// Whether it takes input; a sheet sliding away after its dismissal does not. True by default.
    var isActive: Bool { get }
    /// Whether it is animating: the loop then sends animation frames. False by default.
    var isAnimating: Bool { get }
    /// Asked to go: it may animate away (return true and stop being active) or go at once
    /// (return false, the default).
    mutating func beginDismissal(_ context: Context) -> Bool
    /// After every event: moves its animation on; returns false once it is gone (a sheet that
    /// has slid away). True by default.
    mutating func advance(_ context: Context) -> Bool
}

extension Layer {
    /// Hands `value` to the component that presented this layer, as the message it named when it
    /// presented it (``Reaction/present(_:onReply:)``). Only a ``Reply`` compiles: a layer
    /// cannot reply with a value its presenter would drop.
    public static func reply(_ value: Reply) -> Reaction<Message> { Reaction(request: .reply(value)) }

    /// False: the panes and the tab bar show around it.
    public var coversScreen: Bool { false }
    /// True: it takes input for as long as it is presented.
    public var isActive: Bool { true }
    /// False: it never moves by itself.
    public var isAnimating: Bool { false }
    /// False: it goes at once.
    public mutating func beginDismissal(_ context: Context) -> Bool { false }
    /// True: it stays until dismissed.
    public mutating func advance(_ context: Context) -> Bool { true }
}

/// Work a component asks for that takes time or does I/O (reading a file, running a program):
/// the loop performs it off its thread and the ``Outcome`` comes back to the component that
/// asked, as the message it named (``Reaction/perform(_:then:)``). Each component declares its
/// own work types beside it; nothing lists them all.
public protocol Work: Sendable {
    /// How the work went.
    associatedtype Outcome: Sendable
    /// Work of the same lane runs one piece at a time, in the order it was asked for (writes to
    /// one file, say); nil, the default, runs each piece at once on a thread of its own.
    static var lane: String? { get }
    /// Does the work (on a worker thread) and says how it went.
    func perform() -> Outcome
}

extension Work {
    /// No lane: each piece runs at once, beside any other.
    public static var lane: String? { nil }
}

/// ``Work`` that stops early when asked: it checks its ``WorkCancellation`` between steps (a
/// file at a time, a wait in short slices) and returns what it has. The runner cancels every
/// piece still running when the app quits or is ended by a signal, after the terminal is
/// restored, and waits for running work at most a bounded time (`TabAppRunner.workGrace`).
/// Work that is not cancellable is simply not waited for past that time.
public protocol CancellableWork: Work {
    /// How the work went (``Work/Outcome``), inferred from ``perform(until:)``.
    associatedtype Outcome
    /// Does the work (on a worker thread), returning early once `cancellation` says so.
    func perform(until cancellation: WorkCancellation) -> Outcome
}

extension CancellableWork {
    /// Does the work with a token nothing cancels.
    public func perform() -> Outcome { perform(until: WorkCancellation()) }
}

/// A flag a runner sets and ``CancellableWork`` reads: once cancelled, it stays cancelled.
/// Safe to read and set from any thread.
public final class WorkCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A token not yet cancelled.
    public init() {}

    /// Whether the work should stop.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Asks the work to stop (idempotent).
    public func cancel() { flag.store(true, ordering: .releasing) }
}

/// What a component is handed: a key as the verb its table binds it to, typed or pasted text,
/// or a pointer gesture on one of the parts it drew.
public enum ComponentInput<Verb: Hashable & Sendable>: Hashable, Sendable {
    /// A key bound in the component's ``KeyTable``.
    case verb(Verb)
    /// A key its table does not bind (a character for a filter or a field).
    case key(KeyEvent)
    /// Bracketed-paste text.
    case paste(String)
    /// A tap on a target it drew.
    case tap(HitTarget)
    /// A long-press on a target it drew that ``HitTarget/acceptsLongPress``.
    case longPress(HitTarget)
    /// The mouse wheel over it, in notches (negative is up).
    case scroll(HitTarget, notches: Int)
    /// The pointer moved to a position while dragging a target it drew.
    case drag(HitTarget, Position)
    /// The drag ended at a position.
    case dragEnded(HitTarget, Position)
    /// The screen's size changed: lists are clamped to what is visible.
    case relayout
}

/// What a component sees of the run while it updates or draws: the screen, the clock, and the
/// app's own model (``AppModel``), read-only.
public struct Context: Hashable, Sendable {
    /// The screen, columns × rows.
    public var size: Size
    /// The loop's clock, in milliseconds: animations are drawn for it.
    public var clock: Int64
    /// Whether animations are off: every change shows at once.
    public var reduceMotion: Bool
    /// The app's model as it is now (``TabApp/model``). It takes no part in equality: two
    /// contexts of the same screen and clock are alike whatever the app holds.
    public var appModel: any AppModel
    /// The panes, read-only (``pane(_:)``); empty outside a ``TabApp``.
    var panes: [AnyPane] = []
    /// The presented layers, bottom first, read-only (``layer(_:)``); empty outside a ``TabApp``.
    var layers: [AnyLayer] = []

    /// A context for a screen of `size` (columns × rows) at `clock` (milliseconds on the loop's
    /// clock), with animations off when `reduceMotion`, for an app whose model is `model`
    /// (none by default).
    public init(size: Size, clock: Int64 = 0, reduceMotion: Bool = false, model: any AppModel = NoAppModel()) {
        self.size = size
        self.clock = clock
        self.reduceMotion = reduceMotion
        self.appModel = model
    }

    /// The app's model when it is an `M` (the app's own type), else nil.
    public func model<M: AppModel>(_ type: M.Type) -> M? { appModel as? M }

    /// The first pane that is a `P`, read-only, selected or not (a layer reading the list it was
    /// opened over; the model gathering what each pane keeps); nil when none is.
    public func pane<P>(_ type: P.Type) -> P? {
        for pane in panes { if let match = pane.base as? P { return match } }
        return nil
    }

    /// Every pane that is a `P` (a protocol of the app's own, say), in tab order, read-only.
    public func panes<P>(_ type: P.Type) -> [P] { panes.compactMap { $0.base as? P } }

    /// The topmost presented layer that is an `L`, read-only (the model asking whether its sheet
    /// is up); nil when none is.
    public func layer<L>(_ type: L.Type) -> L? {
        for layer in layers.reversed() { if let match = layer.base as? L { return match } }
        return nil
    }

    public static func == (lhs: Context, rhs: Context) -> Bool {
        lhs.size == rhs.size && lhs.clock == rhs.clock && lhs.reduceMotion == rhs.reduceMotion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(clock)
        hasher.combine(reduceMotion)
    }
}

/// The app's own state, which every component reads (``Context/model(_:)``) and none changes
/// itself: a component sends it a message (``Reaction/send(to:_:)``), as Elm's and Bubble Tea's
/// children send messages up to the program's model. It may answer as a component does: present
/// a layer (whose replies come back to it), ask for work (whose outcome comes back to it), select
/// a tab, quit. The root (``TabApp``) keeps it beside the panes and the layers.
public protocol AppModel: Sendable {
    /// What components send it.
    associatedtype Message: Sendable = Never
    /// What its keys mean.
    associatedtype Verb: Hashable & Sendable = Never
    /// The app's own keys, which work on every pane while no layer is up: after the selected
    /// pane's own and before the root's (`a` to open a sheet from any tab, say). Help lists them
    /// between the two. None by default.
    var keys: KeyTable<Verb> { get }
    /// One of its keys was pressed; returns what the root must do. Nothing by default.
    mutating func perform(_ verb: Verb, _ context: Context) -> [Reaction<Message>]
    /// Takes a message a component sent (or a reply, or an outcome of its own work); returns
    /// what the root must do besides. Nothing by default.
    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>]
    /// The first frame is on the screen: what is worth doing only once it is, so that start-up
    /// never waits on it (a query to the terminal, reading a large file). Nothing by default.
    mutating func started(_ context: Context) -> [Reaction<Message>]
    /// The terminal gained (`true`) or lost focus (xterm's focus events, mode 1004, where the
    /// terminal sends them): a tool may have been changed from another window meanwhile.
    /// Nothing by default.
    mutating func focusChanged(to focused: Bool, _ context: Context) -> [Reaction<Message>]
    /// The terminal answered a query (``TerminalRequest/ask(_:)``), at whatever time; it comes
    /// even while the screen is too small to lay out. Nothing by default.
    mutating func terminalReplied(_ reply: TerminalReply, _ context: Context) -> [Reaction<Message>]
    /// The frame as the panes, the tab bar and the layers drew it, before the terminal gets it:
    /// a colour theme applied to every cell, say. Unchanged by default.
    func finish(_ frame: inout Frame, _ context: Context)
    /// The run is about to end (`q`, `Ctrl-C`, a component's ``Reaction/quit``): what to start
    /// first, such as writing what the panes looked like for the next run (read through
    /// ``Context/panes(_:)``); the runner waits for it a bounded time
    /// (`TabAppRunner.workGrace`). Asked once. Nothing by default.
    mutating func willQuit(_ context: Context) -> [Reaction<Message>]
    /// A message for a layer dismissed before it arrived (the outcome of its work): the model
    /// may still want it (a file the layer wrote, which the app must now read). Dropped by
    /// default.
    mutating func unclaimed(_ message: any Sendable, _ context: Context) -> [Reaction<Message>]
    /// Whether the app's own choice turns animations off (a switch the person flipped), besides
    /// ``TabApp/reduceMotion``. False by default.
    var reducesMotion: Bool { get }
    /// Whether it says each change in a line (an accessible mode for screen readers):
    /// ``narration(from:to:)`` is then asked after every event a person could notice. False by
    /// default.
    var narrates: Bool { get }
    /// The lines that tell a person what changed between `before` and `after` (the whole app,
    /// its layers and the frame it draws), oldest first; the runner says each
    /// (``TabApp/Effect/say(_:)``). None by default.
    func narration(from before: TabApp, to after: TabApp) -> [String]
    /// The gesture recogniser's configuration as the model wants it now, from `base` (the app's,
    /// with the keys its panes hold): the long-press duration the person chose, or key holds by
    /// release events once the terminal has turned them on. Asked after every event, so a change
    /// applies to the next gesture. `base` unchanged by default.
    func gestures(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration
}

extension AppModel {
    /// No keys of its own.
    public var keys: KeyTable<Verb> { KeyTable("App") }

    /// Nothing to do.
    public mutating func started(_ context: Context) -> [Reaction<Message>] { [] }
    /// Nothing to do.
    public mutating func focusChanged(to focused: Bool, _ context: Context) -> [Reaction<Message>] { [] }
    /// Nothing to do.
    public mutating func terminalReplied(_ reply: TerminalReply, _ context: Context) -> [Reaction<Message>] { [] }
    /// Leaves the frame as drawn.
    public func finish(_ frame: inout Frame, _ context: Context) {}
    /// Nothing to do.
    public mutating func willQuit(_ context: Context) -> [Reaction<Message>] { [] }
    /// Dropped.
    public mutating func unclaimed(_ message: any Sendable, _ context: Context) -> [Reaction<Message>] { [] }
    /// False: it says nothing.
    public var narrates: Bool { false }
    /// False: the app's ``TabApp/reduceMotion`` alone decides.
    public var reducesMotion: Bool { false }
    /// Nothing.
    public func narration(from before: TabApp, to after: TabApp) -> [String] { [] }
    /// The app's configuration as it is.
    public func gestures(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration { base }
}

extension AppModel where Verb == Never {
    /// A model with no keys of its own has nothing to perform. One that declares a ``Verb`` must
    /// write its own `perform`: a misspelt one is a compile error.
    public mutating func perform(_ verb: Verb, _ context: Context) -> [Reaction<Message>] {}
}

extension AppModel where Message == Never {
    /// A model that takes no message needs no `receive`. One that declares a ``Message`` must
    /// write its own: a misspelt one is a compile error, not a method never called.
    public mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {}
}

/// The model of an app that shares no state between its components.
public struct NoAppModel: AppModel {
    /// The empty model.
    public init() {}
}

/// A component's key bindings: each row's keys, the verb they mean, and the words the help
/// overlay shows for them.
public struct KeyTable<Verb: Hashable & Sendable>: Sendable {
    /// One binding.
    public struct Row: Sendable {
        /// The keys; empty for a pointer gesture listed for help only.
        public var keys: [KeyEvent]
        /// The keys as help names them, e.g. `↑ k`.
        public var label: String
        /// What they do, in help's words.
        public var help: String
        /// The verb, or nil for a row help lists but the component does not take as a verb.
        public var verb: Verb?

        /// A row binding `keys` to `verb`, which help lists as `label` (the keys, e.g. `↑ k`)
        /// and `help` (what they do); with `verb` nil, help lists it but no key is bound.
        public init(_ keys: [KeyEvent], _ label: String, _ help: String, _ verb: Verb?) {
            self.keys = keys
            self.label = label
            self.help = help
            self.verb = verb
        }
    }

    /// A key hold: what holding `key` means, recognised from release events or from
    /// auto-repeats (``GestureRecognizer``); a quick press of the key still means its row's verb.
    public struct Hold: Sendable {
        /// The key held.
        public var key: KeyEvent
        /// The hold as help names it, e.g. `hold Enter`.
        public var label: String
        /// What it does, in help's words.
        public var help: String
        /// The verb it means.
        public var verb: Verb

        /// Holding `key` means `verb`; help lists it as `label` and `help`.
        public init(_ key: KeyEvent, _ label: String, _ help: String, _ verb: Verb) {
            self.key = key
            self.label = label
            self.help = help
            self.verb = verb
        }
    }

    /// The component's name, as the help overlay's title shows it.
    public var title: String
    /// The bindings, in the order help lists them.
    public var rows: [Row]
    /// The key holds, listed by help after the rows.
    public var holds: [Hold]
    /// Whether the component takes typed text (a text field, a filter): a printable key its rows
    /// do not bind reaches it (``ComponentInput/key(_:)``) even where the root binds that key
    /// (`q`, `?`, a tab's digit), and pasted text too; help is then on `F1`.
    public var takesTyping: Bool

    /// A table headed `title` in help, with `rows` in the order help lists them, then `holds`;
    /// a key in more than one row means the first row's verb. With `takesTyping`, printable keys
    /// it does not bind are the component's text.
    public init(_ title: String, _ rows: [Row] = [], holds: [Hold] = [], takesTyping: Bool = false) {
        self.title = title
        self.rows = rows
        self.holds = holds
        self.takesTyping = takesTyping
    }

    /// Whether `key` is text for the component: it takes typing, its rows do not bind the key,
    /// and the key is a character typed with no modifier but Shift.
    public func typesText(_ key: KeyEvent) -> Bool {
        guard takesTyping, verb(for: key) == nil, case .character = key.key else { return false }
        return key.modifiers.subtracting(.shift).isEmpty
    }

    /// The verb `key` is bound to, or nil.
    public func verb(for key: KeyEvent) -> Verb? {
        rows.first { $0.keys.contains(key) }?.verb
    }

    /// The verb holding `key` means, or nil.
    public func heldVerb(for key: KeyEvent) -> Verb? {
        holds.first { $0.key == key }?.verb
    }

    /// What help lists: each row's label and words, then each hold's.
    public var help: [(label: String, help: String)] { rows.map { ($0.label, $0.help) } + holds.map { ($0.label, $0.help) } }
}
