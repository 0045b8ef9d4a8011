/// A mouse report decoded from an SGR (1006) sequence `ESC [ < b ; x ; y M|m`
/// (xterm ctlseqs, "Extended coordinates" and "Button-event tracking").
public struct MouseEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        case press, release, drag, move, scrollUp, scrollDown, scrollLeft, scrollRight
    }

    /// Which button, for press, release and drag.
    public enum Button: Hashable, Sendable {
        case left, middle, right, none
        /// Buttons 8–11 (back, forward and others; SGR codes 128–131), which Perch does not use.
        case other
    }

    public var kind: Kind
    public var button: Button
    /// Cell under the pointer, 0-based (the wire format is 1-based).
    public var position: Position
    public var modifiers: Modifiers

    public init(kind: Kind, button: Button, position: Position, modifiers: Modifiers = []) {
        self.kind = kind
        self.button = button
        self.position = position
        self.modifiers = modifiers
    }
}
