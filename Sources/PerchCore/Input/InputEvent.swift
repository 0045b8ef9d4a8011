/// One event decoded from the terminal's input bytes.
public enum InputEvent: Hashable, Sendable {
    case key(KeyEvent)
    case mouse(MouseEvent)
    /// Text received between bracketed-paste markers (`ESC [ 200 ~` … `ESC [ 201 ~`).
    case paste(String)
    /// Focus in (`true`, `ESC [ I`) or out (`false`, `ESC [ O`).
    case focus(Bool)
    /// A well-formed sequence Perch does not use, kept as its bytes.
    case unknown([UInt8])
}
