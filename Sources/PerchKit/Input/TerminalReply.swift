/// An answer the terminal sent to a query Perch made, decoded from the input like a key.
///
/// Replies are never keys: the digits in `ESC [ ? 62 ; 22 c` select no tab, whenever they come.
/// References: kitty "Comprehensive keyboard handling in terminals", "Detection of support for
/// this protocol" (`CSI ? flags u`); xterm ctlseqs "Send Device Attributes (Primary DA)"
/// (`CSI ? Ps ; … c`), "Request DEC private mode" (`CSI ? Ps ; Pm $ y`) and "Device Status
/// Report", cursor position (`CSI r ; c R`).
public enum TerminalReply: Hashable, Sendable {
    /// The kitty keyboard protocol's flags in effect now (`CSI ? flags u`): the terminal speaks it.
    case keyboardFlags(Int)
    /// The primary device attributes (`CSI ? Ps ; … c`), which every terminal sends: as it
    /// answers queries in order, it also ends the wait for anything asked before it.
    case primaryDeviceAttributes([Int])
    /// The state of a DEC private mode (DECRQM's answer, `CSI ? mode ; value $ y`, xterm ctlseqs
    /// "Request DEC private mode"): 0 not recognised, 1 set, 2 reset, 3 permanently set, 4
    /// permanently reset.
    case privateMode(Int, value: Int)
    /// The cursor position (DSR 6's answer), 0-based row and column. Only decoded while one is
    /// expected (``InputDecoder/expectsCursorReport``): otherwise `CSI 1 ; 2 R` is Shift-F3.
    case cursorPosition(row: Int, column: Int)
    /// The default background colour (OSC 11's answer, `OSC 11 ; rgb:R/G/B` ended by BEL or
    /// `ESC \`, each channel of 1 to 4 hexadecimal digits, scaled to 8 bits; xterm ctlseqs
    /// "Operating System Commands" and XParseColor's `rgb:` form).
    case backgroundColor(RGBColor)
}
