/// What `TerminalLoop` (PerchKitLoop) runs: a pure root model that takes events and returns the effects it
/// wants carried out, and draws itself into a ``Frame``. PerchKit's ``TabApp`` is one; an app
/// may bring its own.
public protocol LoopRoot {
    /// What `update` takes: built from a ``UIEvent`` (input, gestures, frames, resizes), and
    /// whatever else the app sends it (the outcomes of its effects).
    associatedtype Event: LoopEvent
    /// What `update` asks the loop to carry out; the app's ``TerminalLoop/perform`` does.
    associatedtype Effect

    /// Applies one event at `time` (milliseconds on the loop's monotonic clock; nil keeps the
    /// root's clock as it is) and returns the effects to carry out, in order.
    mutating func update(_ event: Event, at time: Int64?) -> [Effect]
    /// The frame for the state as it is now: cells, and what was drawn where for hit-testing.
    func renderFrame() -> Frame
    /// When the loop must send ``UIEvent/animationFrame`` next (milliseconds on the clock), or
    /// nil when nothing moves: then nothing wakes an idle loop.
    var nextAnimationDeadline: Int64? { get }
    /// Where a pointer report at `position` (0-based, on the terminal) falls on the frame, or
    /// nil when it cannot be placed. The whole screen by default.
    func framePosition(_ position: Position) -> Position?
    /// Whether holding `key` means something now; elsewhere its auto-repeats are plain presses.
    func acceptsKeyHold(_ key: KeyEvent) -> Bool
    /// `base` with what the root decides for the recogniser (a long-press duration, holdable
    /// keys); asked after every update. `base` unchanged by default.
    func gestureConfiguration(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration
}

extension LoopRoot {
    /// `position` as it is: the frame covers the whole terminal.
    public func framePosition(_ position: Position) -> Position? { position }
    /// `base` unchanged.
    public func gestureConfiguration(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration { base }
}

/// An event type a ``LoopRoot`` takes: it can be made from a ``UIEvent``.
public protocol LoopEvent {
    /// The event carrying `event` (input, a gesture, an animation frame, a resize).
    init(_ event: UIEvent)
}
