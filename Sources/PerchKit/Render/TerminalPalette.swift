/// A terminal's 16 colours (SGR 30–37 and their bright forms 90–97) and how it draws bold, as
/// shipped by a terminal emulator: the data a contrast check computes ratios from.
public struct TerminalPalette: Hashable, Sendable {
    /// How a terminal draws bold text in one of the eight colours.
    public enum BoldDrawing: Hashable, Sendable {
        /// Either way, as the person sets it (xterm's `boldColors`, VTE's "bold is bright").
        case brightOrNot
        /// Always in the bright colour (8–15): the Linux console, which has no bold face.
        case alwaysBright
    }

    /// The terminal or scheme it comes from (`xterm`, `Tango`).
    public var name: String
    /// Colours 0–15: black, red, green, yellow, blue, magenta, cyan, white, then the bright eight.
    public var colors: [RGBColor]
    public var boldDrawing: BoldDrawing

    /// A palette of exactly 16 colours written as `RRGGBB`.
    public init(_ name: String, _ hex: [UInt32], boldDrawing: BoldDrawing = .brightOrNot) {
        precondition(hex.count == 16, "a palette has 16 colours")
        self.name = name
        self.colors = hex.map(RGBColor.init)
        self.boldDrawing = boldDrawing
    }

    /// `color` as drawn, in its bright form (8–15) when `bright`.
    public func rgb(_ color: TerminalColor, bright: Bool) -> RGBColor { colors[color.rawValue + (bright ? 8 : 0)] }

    /// Whether bold is drawn in the bright colours: both ways for most terminals.
    public var boldBrightnesses: [Bool] { boldDrawing == .alwaysBright ? [true] : [false, true] }

    /// xterm's defaults (its `XTerm-col` resources).
    public static let xterm = TerminalPalette(
        "xterm",
        [
            0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
            0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
        ])
    /// The Tango palette (GNOME Terminal's and xfce4-terminal's long-time default, lxterminal's).
    public static let tango = TerminalPalette(
        "Tango",
        [
            0x2E3436, 0xCC0000, 0x4E9A06, 0xC4A000, 0x3465A4, 0x75507B, 0x06989A, 0xD3D7CF,
            0x555753, 0xEF2929, 0x8AE234, 0xFCE94F, 0x729FCF, 0xAD7FA8, 0x34E2E2, 0xEEEEEC,
        ])
    /// GNOME Terminal's own palette since 3.32 (VTE's "GNOME").
    public static let gnome = TerminalPalette(
        "GNOME",
        [
            0x171421, 0xC01C28, 0x26A269, 0xA2734C, 0x12488B, 0xA347BA, 0x2AA1B3, 0xD0CFCC,
            0x5E5C64, 0xF66151, 0x33D17A, 0xE9AD0C, 0x2A7BDE, 0xC061CB, 0x33C7DE, 0xFFFFFF,
        ])
    /// rxvt-unicode's defaults.
    public static let rxvtUnicode = TerminalPalette(
        "rxvt-unicode",
        [
            0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000CD, 0xCD00CD, 0x00CDCD, 0xFAEBD7,
            0x404040, 0xFF0000, 0x00FF00, 0xFFFF00, 0x0000FF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
        ])
    /// kitty's defaults.
    public static let kitty = TerminalPalette(
        "kitty",
        [
            0x000000, 0xCC0403, 0x19CB00, 0xCECB00, 0x0D73CC, 0xCB1ED1, 0x0DCDCD, 0xDDDDDD,
            0x767676, 0xF2201F, 0x23FD00, 0xFFFD00, 0x1A8FFF, 0xFD28FF, 0x14FFFF, 0xFFFFFF,
        ])
    /// Windows Terminal's "Campbell" (its default, for WSL and remote shells from Windows).
    public static let campbell = TerminalPalette(
        "Campbell",
        [
            0x0C0C0C, 0xC50F1F, 0x13A10E, 0xC19C00, 0x0037DA, 0x881798, 0x3A96DD, 0xCCCCCC,
            0x767676, 0xE74856, 0x16C60C, 0xF9F1A5, 0x3B78FF, 0xB4009E, 0x61D6D6, 0xF2F2F2,
        ])
    /// The Linux console's VGA colours; it draws bold as bright.
    public static let linuxConsole = TerminalPalette(
        "Linux console",
        [
            0x000000, 0xAA0000, 0x00AA00, 0xAA5500, 0x0000AA, 0xAA00AA, 0x00AAAA, 0xAAAAAA,
            0x555555, 0xFF5555, 0x55FF55, 0xFFFF55, 0x5555FF, 0xFF55FF, 0x55FFFF, 0xFFFFFF,
        ], boldDrawing: .alwaysBright)

    /// The palettes a contrast check covers.
    public static let common: [TerminalPalette] = [.xterm, .tango, .gnome, .rxvtUnicode, .kitty, .campbell, .linuxConsole]
}
