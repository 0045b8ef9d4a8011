/// What a component asks of the root (``TabApp``), which owns the tab bar, the layer stack and
/// the loop's work: present a layer, dismiss itself, reply to its presenter, ask for work, select
/// a tab, quit. `Message` is the component's own: replies and outcomes come back as one.
public struct Reaction<Message: Sendable>: Sendable {
    /// What is asked, with the component's message type erased, as a root carries it out
    /// (``TabApp``, or a root of an app's own that hosts PerchKit components).
    public let request: ReactionRequest

    /// Presents `layer` on top; its replies (``Layer/reply(_:)``, an `L.Reply`) come back to this
    /// component as `onReply(reply)`.
    public static func present<L: Layer>(_ layer: L, onReply: @escaping @Sendable (L.Reply) -> Message) -> Reaction {
        Reaction(request: .present(AnyLayer(layer), reply: { ($0 as? L.Reply).map(onReply) }))
    }

    /// Presents `layer` on top; whatever it replies is dropped.
    public static func present<L: Layer>(_ layer: L) -> Reaction {
        Reaction(request: .present(AnyLayer(layer), reply: { _ in nil as Message? }))
    }

    /// Dismisses the layer that returns it (a sheet slides away), or, from a pane, the top layer.
    public static var dismiss: Reaction { Reaction(request: .dismiss) }

    /// Dismisses every presented layer that takes input, top first: one that animates away (a
    /// sheet) slides, the others go at once (a pick in a sheet over a menu over a cover).
    public static var dismissAll: Reaction { Reaction(request: .dismissAll) }

    /// Performs `work` off the loop's thread; its outcome comes back to this component as
    /// `then(outcome)`.
    public static func perform<W: Work>(_ work: W, then: @escaping @Sendable (W.Outcome) -> Message) -> Reaction {
        Reaction(request: .perform(AnyWork(lane: W.lane, kind: .run({ _ in then(work.perform()) }))))
    }

    /// Performs `work` off the loop's thread with a token the runner cancels when the app ends
    /// (``CancellableWork``); its outcome comes back to this component as `then(outcome)`.
    public static func perform<W: CancellableWork>(_ work: W, then: @escaping @Sendable (W.Outcome) -> Message) -> Reaction {
        Reaction(request: .perform(AnyWork(lane: W.lane, kind: .run({ then(work.perform(until: $0)) }))))
    }

    /// Asks the app layer to do `job` (the runner's `JobPerformer`); each of its outcomes comes
    /// back to this component as `then(outcome)`, in order.
    public static func perform<J: Job>(_ job: J, then: @escaping @Sendable (J.Outcome) -> Message) -> Reaction {
        Reaction(request: .perform(AnyWork(lane: nil, kind: .job(AnyJob(job), message: { ($0 as? J.Outcome).map(then) }))))
    }

    /// Sends `message` to the app's model, an `M` (``AppModel/receive(_:_:)``), after this
    /// component's other reactions before it: a message the model does not take is a compile
    /// error, not a message dropped at run time.
    public static func send<M: AppModel>(to model: M.Type, _ message: M.Message) -> Reaction { Reaction(request: .send(message)) }

    /// Hands `message` to each layer of type `L` this component presented that is still up, as
    /// that layer's own ``Component/Message``: a late preview for a menu it opened, say. A message
    /// `L` does not take is a compile error.
    public static func tellPresented<L: Layer>(_ layer: L.Type, _ message: L.Message) -> Reaction {
        Reaction(request: .tellPresented(message))
    }

    /// Shows `text` above the tab bar until the next key pressed while no layer takes keys; with
    /// `stays`, whole, until `Esc` dismisses it (a reason to read and act on). A new one replaces
    /// it.
    public static func banner(_ text: String, stays: Bool = false) -> Reaction { Reaction(request: .banner(text, stays: stays)) }

    /// Says `line` for a screen reader, where the app narrates (``AppModel/narrates``): what a
    /// component alone knows changed (a row number typed that has no row).
    public static func announce(_ line: String) -> Reaction { Reaction(request: .announce(line)) }

    /// Asks the terminal itself for `request` (the clipboard, mouse reporting); the loop's backend
    /// carries it out.
    public static func terminal(_ request: TerminalRequest) -> Reaction { Reaction(request: .terminal(request)) }

    /// Selects the tab at `index`.
    public static func selectTab(_ index: Int) -> Reaction { Reaction(request: .selectTab(index)) }

    /// Ends the run (exit status 0, the terminal restored).
    public static var quit: Reaction { Reaction(request: .quit) }
}

/// What a ``Reaction`` asks, with its message type erased: messages travel as `any Sendable` and
/// each component's own type is restored where it is delivered. ``TabApp`` carries these out; an
/// app with a root of its own that presents PerchKit layers reads them to do the same.
public enum ReactionRequest: Sendable {
    /// Present the layer on top; `reply` turns what it replies into the presenter's message
    /// (nil: the reply is dropped).
    case present(AnyLayer, reply: @Sendable (any Sendable) -> (any Sendable)?)
    /// Dismiss the asking layer, or from a pane the top layer.
    case dismiss
    /// Dismiss every layer that takes input.
    case dismissAll
    /// From a layer: this value (its ``Layer/Reply``) for its presenter.
    case reply(any Sendable)
    /// This message for the app's model.
    case send(any Sendable)
    /// This message for each layer the asker presented that is still up.
    case tellPresented(any Sendable)
    /// This work, off the loop's thread.
    case perform(AnyWork)
    /// This banner above the tab bar; with `stays`, until `Esc`.
    case banner(String, stays: Bool)
    /// This line, said for a screen reader.
    case announce(String)
    /// This request of the terminal itself.
    case terminal(TerminalRequest)
    /// Select the tab at this index.
    case selectTab(Int)
    /// End the run.
    case quit
}

/// Work or a job, with its outcome already mapped to the asker's message.
public struct AnyWork: Sendable {
    /// Its lane (``Work/lane``): work of one lane runs in order, one piece at a time; nil for none
    /// (and for a job, whose performer says where it runs).
    public let lane: String?
    /// How it is done.
    public let kind: Kind

    /// How a piece of work is done.
    public enum Kind: Sendable {
        /// ``Work`` that performs itself: this runs it with the runner's token for it (which
        /// only ``CancellableWork`` reads) and returns the asker's message.
        case run(@Sendable (WorkCancellation) -> any Sendable)
        /// A ``Job`` the app layer does; `message` maps each of its outcomes to the asker's
        /// message (nil for a value that is not one of its outcomes).
        case job(AnyJob, message: @Sendable (any Sendable) -> (any Sendable)?)
    }
}

/// What a component may ask of the terminal itself, through the root (``Reaction/terminal(_:)``);
/// the runner hands it to the backend.
public enum TerminalRequest: Hashable, Sendable {
    /// Put `text` on the terminal's clipboard with OSC 52 (``OSC52``). Terminals take it only
    /// where they allow programs to set the clipboard, and say nothing either way.
    case copyToClipboard(String)
    /// Turn the terminal's mouse reporting on or off (xterm modes 1000, 1002, 1006).
    case setMouse(Bool)
    /// Ask the terminal `query`; its answer comes to the app's model whenever it comes
    /// (``AppModel/terminalReplied(_:_:)``). A query still waiting for its answer, or one the
    /// terminal let go unanswered (500 ms, ``TerminalQueries``), is not sent again; before the
    /// terminal is given back, answers still expected are read, so none is left for the shell.
    case ask(TerminalQuery)
    /// Turn the kitty keyboard protocol on with these flags (`CSI > flags u`: 1 disambiguates
    /// escape codes, 2 reports key releases; kitty "Comprehensive keyboard handling in
    /// terminals"), popped again on every way out.
    case pushKeyboardFlags(Int)
}
