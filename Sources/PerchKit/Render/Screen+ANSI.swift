/// How many colours a terminal draws: what terminfo's `colors` says through ncurses (a
/// `-direct` TERM such as `xterm-direct` says 16,777,216: 24-bit RGB), or nothing with
/// `NO_COLOR`. A ``Color`` beyond it is drawn as the nearest it has
/// (``Color/downsampled(toPaletteOf:)``).
public enum ColorDepth: Int, Comparable, Hashable, Sendable {
    /// No colour: attributes only (`NO_COLOR`, or a terminal without colour).
    case none = 0
    /// The eight standard colours (SGR 30–37, 40–47).
    case eight = 8
    /// The eight and their bright forms (SGR 90–97, 100–107).
    case sixteen = 16
    /// xterm's 256-colour palette (SGR 38;5;n, 48;5;n).
    case palette256 = 256
    /// 24-bit true colour (SGR 38;2;r;g;b, 48;2;r;g;b).
    case trueColor = 16_777_216

    /// The depth of a terminal whose terminfo `colors` is `colors` (ncurses' `COLORS`).
    public init(terminfoColors colors: Int) {
        self =
            colors >= Self.trueColor.rawValue
            ? .trueColor : colors >= 256 ? .palette256 : colors >= 16 ? .sixteen : colors >= 8 ? .eight : .none
    }

    /// The depth a terminal has by its environment alone, for a backend that reads no terminfo:
    /// none with `NO_COLOR` set or `TERM` empty or `dumb`; true colour when `COLORTERM` is
    /// `truecolor` or `24bit` (the convention terminals that take SGR 38;2 follow) or `TERM`
    /// names a `-direct` type; 256 for a `TERM` with `256color`; else the eight.
    /// - Parameter environment: a variable's value by name, or nil when unset.
    public static func environment(_ environment: (String) -> String?) -> ColorDepth {
        let term = environment("TERM") ?? ""
        if !(environment("NO_COLOR") ?? "").isEmpty || term.isEmpty || term == "dumb" { return .none }
        let colorTerm = environment("COLORTERM") ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return .trueColor }
        return term.contains("256color") ? .palette256 : .eight
    }

    /// Fewer colours first: ``none`` < ``eight`` < … < ``trueColor``.
    public static func < (left: ColorDepth, right: ColorDepth) -> Bool { left.rawValue < right.rawValue }

    /// The colour number ncurses is given for `color` at this depth (curs_color(3X); with direct
    /// colour, numbers below 8 are the standard colours and the others are `RRGGBB`), or nil for
    /// none.
    public func number(for color: Color) -> Int? {
        switch self {
        case .none: return nil
        case .trueColor:
            if let index = color.paletteIndex, index < 8 { return Int(index) }
            let rgb = color.rgb
            // RGB values below 8 would be read as standard colours: 0x000008 is as black.
            return max(8, Int(rgb.red) << 16 | Int(rgb.green) << 8 | Int(rgb.blue))
        default: return Int(color.downsampled(toPaletteOf: rawValue))
        }
    }

    /// The SGR parameters that set `color` as the foreground (`background` false) or the
    /// background at this depth (ECMA-48 §8.3.117; 38;5 and 38;2 as xterm's ctlseqs), or nil.
    func sgrParameters(for color: Color, background: Bool) -> String? {
        if self == .trueColor, let rgb = color.trueColor {
            return "\(background ? 48 : 38);2;\(rgb.red);\(rgb.green);\(rgb.blue)"
        }
        guard self != .none else { return nil }
        let index = Int(color.downsampled(toPaletteOf: Swift.min(rawValue, 256)))
        switch index {
        case 0..<8: return String((background ? 40 : 30) + index)
        case 8..<16: return String((background ? 100 : 90) + index - 8)
        default: return "\(background ? 48 : 38);5;\(index)"
        }
    }
}

extension Screen {
    /// Row `row` as text for a terminal, with SGR attributes (ECMA-48 §8.3.117) changed only
    /// where the style changes, ending in the default style. Continuation cells of wide
    /// characters are left out. Used by a backend that draws without ncurses
    /// (`LineModeBackend`).
    /// - Parameters:
    ///   - row: 0-based row, which must be on the screen.
    ///   - depth: the colours the terminal draws; ``ColorDepth/none`` (`NO_COLOR`) leaves out
    ///     colours, keeping bold, dim, underline and reverse; a colour beyond the depth is drawn
    ///     as the nearest within it.
    /// - Returns: at most ``size``.width columns of text, with no cursor movement or line end.
    public func ansiLine(_ row: Int, depth: ColorDepth = .palette256) -> String {
        var text = ""
        var current = Style.plain
        for column in 0..<size.width {
            let cell = self[column, row]
            if cell.isContinuation { continue }
            var style = cell.style
            if depth == .none {
                style.foreground = nil
                style.background = nil
            }
            if style != current {
                text += Self.sgr(style, depth: depth)
                current = style
            }
            text.append(cell.character)
        }
        if current != .plain { text += "\u{1B}[0m" }
        return text
    }

    /// The SGR sequence that sets exactly `style` at `depth`, from a reset.
    static func sgr(_ style: Style, depth: ColorDepth) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let color = style.foreground, let code = depth.sgrParameters(for: color, background: false) { codes.append(code) }
        if let color = style.background, let code = depth.sgrParameters(for: color, background: true) { codes.append(code) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
