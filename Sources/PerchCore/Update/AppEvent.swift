/// What ``AppState/update(_:)`` reacts to: plain input plus the gestures recognised from it.
public enum AppEvent: Hashable, Sendable {
    /// A key press (a key held down delivers this once, for its first press).
    case key(KeyEvent)
    /// A key held down past the long-press duration (its auto-repeats kept arriving).
    case keyHold(KeyEvent)
    /// Press and release of the primary button on the same target.
    case tap(HitTarget)
    /// The primary button held on a target for the long-press duration, fired while still down.
    case longPress(HitTarget)
    /// Mouse wheel over a target: negative is up, in notches.
    case scroll(HitTarget, notches: Int)
    /// Bracketed-paste text.
    case paste(String)
    /// The terminal now has this size (columns × rows).
    case resize(Size)
    /// The terminal gained (`true`) or lost focus.
    case focus(Bool)
}
