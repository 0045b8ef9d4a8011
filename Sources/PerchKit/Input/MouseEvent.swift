/// A mouse report decoded from an SGR (1006) sequence `ESC [ < b ; x ; y M|m`
/// (xterm ctlseqs, "Extended coordinates" and "Button-event tracking").
public struct MouseEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// A button went down or up; the pointer moved with a button down (mode 1002) or with
        /// none; a wheel notch (SGR buttons 64–67: up, down, left, right).
        case press, release, drag, move, scrollUp, scrollDown, scrollLeft, scrollRight
    }

    /// Which button, for press, release and drag.
    public enum Button: Hashable, Sendable {
        /// Buttons 1–3, or none (a wheel notch, a move without a button, a release that names
        /// no button).
        case left, middle, right, none
        /// Buttons 8–11 (back, forward and others; SGR codes 128–131), which neither tap nor
        /// long-press.
        case other
    }

    /// What happened.
    public var kind: Kind
    /// Which button.
    public var button: Button
    /// Cell under the pointer, 0-based (the wire format is 1-based).
    public var position: Position
    /// Shift, alt (meta) and control held with it (SGR button bits 4, 8 and 16).
    public var modifiers: Modifiers

    /// A report of `kind` for `button` at `position` (0-based column and row).
    public init(kind: Kind, button: Button, position: Position, modifiers: Modifiers = []) {
        self.kind = kind
        self.button = button
        self.position = position
        self.modifiers = modifiers
    }
}
