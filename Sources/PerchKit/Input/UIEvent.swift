/// What an app's root reacts to from the terminal and the loop: plain input, the gestures the
/// ``GestureRecognizer`` recognises from it, animation frames and resizes. An app's own messages
/// (the outcomes of its effects) come to it apart from these.
public enum UIEvent: Hashable, Sendable {
    /// A key press (a key held down delivers this once, for its first press).
    case key(KeyEvent)
    /// A key held down past the long-press duration (its auto-repeats kept arriving, or, with
    /// the kitty keyboard protocol's release events, no release came).
    case keyHold(KeyEvent)
    /// Press and release of the primary button on the same target.
    case tap(HitTarget)
    /// The primary button held on a target for the long-press duration, fired while still down.
    case longPress(HitTarget)
    /// Mouse wheel over a target: negative is up, in notches.
    case scroll(HitTarget, notches: Int)
    /// The pointer moved to `position` with the primary button down, in a drag that started on
    /// a target that ``HitTarget/acceptsDrag`` (a sheet's grabber).
    case drag(HitTarget, Position)
    /// The button was released at `position`, ending a drag of the target.
    case dragEnded(HitTarget, Position)
    /// Time passed while something animates: the loop sends this at the root's next animation
    /// deadline so the next frame is drawn.
    case animationFrame
    /// Bracketed-paste text.
    case paste(String)
    /// The terminal now has this size (columns × rows).
    case resize(Size)
    /// The terminal gained (`true`) or lost focus.
    case focus(Bool)
    /// The terminal answered a query (``TerminalQuery``), at whatever time.
    case terminalReply(TerminalReply)
}
