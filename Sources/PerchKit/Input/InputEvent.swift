/// One event decoded from the terminal's input bytes.
public enum InputEvent: Hashable, Sendable {
    /// A key press (every key of a terminal without release events is one).
    case key(KeyEvent)
    /// An auto-repeat of a held key, told apart from a press (kitty keyboard protocol event type 2).
    case keyRepeat(KeyEvent)
    /// A key let go (kitty keyboard protocol event type 3).
    case keyRelease(KeyEvent)
    /// A mouse report (SGR, or the legacy X10 encoding).
    case mouse(MouseEvent)
    /// Text received between bracketed-paste markers (`ESC [ 200 ~` … `ESC [ 201 ~`).
    case paste(String)
    /// Focus in (`true`, `ESC [ I`) or out (`false`, `ESC [ O`).
    case focus(Bool)
    /// An answer to a query sent to the terminal (never a key).
    case reply(TerminalReply)
    /// A well-formed sequence that decodes to no other event, kept as its bytes.
    case unknown([UInt8])
}
