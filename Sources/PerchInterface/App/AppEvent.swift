import PerchDomain
import PerchKit

/// What the inline picker (``AccountPicker``) reacts to, and how tests hand Perch's interface an outcome: PerchKit's input, gestures, frames and resizes
/// (``UIEvent``), and the outcomes of jobs, which come back from whatever performed them (the
/// event loop's worker).
public enum AppEvent: Hashable, Sendable, LoopEvent {
    /// Input, a gesture, an animation frame or a resize, from PerchKit's loop and recogniser.
    case ui(UIEvent)
    /// How a job went (its ``Job/Outcome``), from whatever performed it, for the model that asked
    /// for it (``Effect/asker``): the root hands it to that model alone. The root's own events
    /// (``StateChanged``, ``HistoryChanged``, ``WallTime``) come this way too, for ``ModelID/root``.
    case outcome(AnyOutcome, for: ModelID = .root)

    public init(_ event: UIEvent) { self = .ui(event) }
}
