import PerchDomain
import PerchKit

/// Which of Perch's components asked for an effect, in Perch's words (PerchKit's ``ComponentID``
/// with the pane named by its ``Tab``): how tests name the asker of what the root asks, and whom
/// an outcome is for (``AppEvent/outcome(_:for:)``).
public enum ModelID: Hashable, Sendable {
    /// Perch's model (``PerchModel``): the switch, the tool identities, the state file, the clock.
    case root
    /// One of the panes, each kept for the whole run.
    case pane(Tab)
    /// The presented layer with this id (``AnyLayer/id``, given when it was presented; a layer
    /// dismissed before its outcome came back no longer takes it).
    case layer(Int)
}

/// What the inline picker (``AccountPicker``) asks its loop to do, and Perch's words for what
/// the interface's root (PerchKit's ``TabApp``) asks its runner: a job (``perform(_:)``, with the
/// component that asked, ``asker``), or one of the terminal's and the loop's own verbs. Update
/// itself does no I/O.
public enum Effect: Hashable, Sendable {
    /// Perform this job (``Job``): its own conformance in the app layer says how and where.
    case job(AnyJob)
    /// Put this text on the terminal's clipboard with OSC 52 (``OSC52``), where the terminal
    /// allows programs to set it.
    case copyToClipboard(String)
    /// Turn the kitty keyboard protocol on with these flags (`CSI > flags u`), popped on every way out.
    case pushKeyboardFlags(Int)
    /// Turn the terminal's mouse reporting on or off (xterm modes 1000, 1002, 1006).
    case setMouse(Bool)
    /// Ask the terminal `query` (when it is worth asking: ``TerminalQueries/shouldAsk(_:)``); the
    /// answer comes back as ``AppEvent/terminalReply(_:)``.
    case ask(TerminalQuery)
    /// Take this many rows below the cursor's line for the frame (the inline picker's block),
    /// clearing rows taken before; with `clearingLine`, the cursor's line (empty) is cleared too.
    /// A full-screen backend has every row already and does nothing.
    case takeRows(Int, clearingLine: Bool)
    /// Say `line` on the terminal, below what was said before: the accessible mode's one line a
    /// change (``Narration``), for a screen reader to read. A backend that draws frames says nothing.
    case say(String)
    /// Restore the terminal and exit with status 0.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw everything when continued.
    case suspend
    /// `effect`, asked for by `model`: its outcome goes back to that model. What Perch's model
    /// asks for itself is not wrapped.
    indirect case asked(by: ModelID, Effect)

    /// Performing `job`.
    public static func perform(_ job: some Job) -> Effect { .job(AnyJob(job)) }
}

extension Effect {
    /// Whether this effect asks the store for a switch.
    var isSwitch: Bool { if case .job(let job) = work { job.base is RecordSwitch } else { false } }

    /// The job this effect performs, when it is a `J`.
    public func job<J: Job>(_ type: J.Type) -> J? { if case .job(let job) = work { job.as(J.self) } else { nil } }

    /// The model whose outcome this is: the one named by ``asked(by:_:)``, else the root.
    public var asker: ModelID { if case .asked(let model, _) = self { model } else { .root } }

    /// The work itself, without who asked for it.
    public var work: Effect { if case .asked(_, let effect) = self { effect.work } else { self } }

    /// This effect asked for by `model` (an effect already addressed keeps its asker; the root's
    /// own stay unwrapped).
    public func asked(by model: ModelID) -> Effect {
        if case .asked = self { return self }
        return model == .root ? self : .asked(by: model, self)
    }
}
