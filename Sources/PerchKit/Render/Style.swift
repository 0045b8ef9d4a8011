/// One of the eight standard terminal colours (ANSI/ECMA-48 SGR 30–37).
public enum TerminalColor: Int, CaseIterable, Hashable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white

    /// The colour's lower-case name, as a configuration file writes it (`"red"`).
    public var name: String { String(describing: self) }

    /// The colour named `name` (lower-case, as in ``name``), or nil.
    public init?(name: String) {
        guard let color = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = color
    }
}

/// A colour a cell is drawn in: one of the terminal's palette (the 8 standard colours, 0–7;
/// their bright forms, 8–15; xterm's 256-colour cube and grey ramp, 16–255) or a true colour
/// (24-bit sRGB). Each is drawn as the terminal can (``Color/downsampled(toPaletteOf:)``): a true
/// colour exactly where terminfo says the terminal takes RGB (a `-direct` TERM such as
/// `xterm-direct`), else the nearest colour of its 256, 16 or 8; nothing with `NO_COLOR`.
///
/// Colour is decoration only (see ``Style``): what matters is also shown another way.
public struct Color: Hashable, Sendable {
    /// 0 for none; 1 << 24 | index for a palette colour; 2 << 24 | RRGGBB for a true colour
    /// (26 bits, as a ``Style`` packs it).
    let bits: UInt32

    init(bits: UInt32) { self.bits = bits }

    /// Colour `index` of the terminal's palette (0–255: xterm's numbering, SGR 38;5;n).
    public static func indexed(_ index: UInt8) -> Color { Color(bits: 1 << 24 | UInt32(index)) }

    /// One of the eight standard colours (palette 0–7).
    public init(_ color: TerminalColor) { bits = 1 << 24 | UInt32(color.rawValue) }

    /// The bright form of one of the eight colours (palette 8–15, SGR 90–97).
    public static func bright(_ color: TerminalColor) -> Color { .indexed(UInt8(8 + color.rawValue)) }

    /// A true colour, 8 bits a channel (SGR 38;2;r;g;b where the terminal takes it).
    public init(_ rgb: RGBColor) { bits = 2 << 24 | UInt32(rgb.red) << 16 | UInt32(rgb.green) << 8 | UInt32(rgb.blue) }

    /// Standard colour 0, black (SGR 30 as a foreground, 40 as a background).
    public static let black = Color(TerminalColor.black)
    /// Standard colour 1, red (SGR 31 as a foreground, 41 as a background).
    public static let red = Color(.red)
    /// Standard colour 2, green (SGR 32 as a foreground, 42 as a background).
    public static let green = Color(.green)
    /// Standard colour 3, yellow (SGR 33 as a foreground, 43 as a background).
    public static let yellow = Color(.yellow)
    /// Standard colour 4, blue (SGR 34 as a foreground, 44 as a background).
    public static let blue = Color(.blue)
    /// Standard colour 5, magenta (SGR 35 as a foreground, 45 as a background).
    public static let magenta = Color(.magenta)
    /// Standard colour 6, cyan (SGR 36 as a foreground, 46 as a background).
    public static let cyan = Color(.cyan)
    /// Standard colour 7, white (SGR 37 as a foreground, 47 as a background).
    public static let white = Color(TerminalColor.white)

    /// Its palette index (0–255), or nil for a true colour.
    public var paletteIndex: UInt8? { bits >> 24 == 1 ? UInt8(truncatingIfNeeded: bits) : nil }

    /// The standard colour it is (palette 0–7), or nil.
    public var standard: TerminalColor? { paletteIndex.flatMap { TerminalColor(rawValue: Int($0)) } }

    /// The true colour it was given as, or nil for a palette colour.
    public var trueColor: RGBColor? {
        bits >> 24 == 2
            ? RGBColor(
                red: UInt8(truncatingIfNeeded: bits >> 16), green: UInt8(truncatingIfNeeded: bits >> 8),
                blue: UInt8(truncatingIfNeeded: bits))
            : nil
    }

    /// What it looks like: a true colour as given; a palette colour as xterm draws it by default
    /// (its 16 colours, the 6×6×6 cube of levels 0, 95, 135, 175, 215, 255, and the greys
    /// 8, 18, …, 238).
    public var rgb: RGBColor { trueColor ?? Self.xtermRGB(paletteIndex ?? 0) }

    /// The palette colour (0 up to `count` − 1, for a palette of 8, 16 or 256) a terminal with
    /// `count` colours draws for it: itself when it is in range, else the nearest in CIELAB
    /// (``RGBColor``'s CIE 1976 distance, which keeps a hue that the nearest in sRGB turns grey:
    /// night blue #1F3A5F is 24, not grey 237) of xterm's colours 16–255 for 256 (the 16 are
    /// themes', not fixed), or of the first 8 or 16.
    public func downsampled(toPaletteOf count: Int) -> UInt8 {
        if let index = paletteIndex, Int(index) < count { return index }
        let target = rgb.lab
        let candidates = count >= 256 ? 16..<256 : 0..<(count >= 16 ? 16 : 8)
        var best = candidates.lowerBound
        var bestDistance = Double.infinity
        for index in candidates {
            let color = Self.xtermLab[index]
            let (dl, da, db) = (color.l - target.l, color.a - target.a, color.b - target.b)
            let distance = dl * dl + da * da + db * db
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return UInt8(best)
    }

    /// xterm's 256 colours in CIELAB, worked out once.
    private static let xtermLab = (0..<256).map { xtermRGB(UInt8($0)).lab }

    /// Level `step` (0–5) of xterm's colour cube: 0, then 95 + 40 a step.
    private static func level(_ step: Int) -> UInt8 { step == 0 ? 0 : UInt8(55 + 40 * step) }

    /// xterm's default colour `index` (its `XTerm-col` resources and 256-colour palette).
    static func xtermRGB(_ index: UInt8) -> RGBColor {
        switch index {
        case 0..<16: return TerminalPalette.xterm.colors[Int(index)]
        case 16..<232:
            let cube = Int(index) - 16
            return RGBColor(red: level(cube / 36), green: level(cube / 6 % 6), blue: level(cube % 6))
        default:
            let grey = UInt8(8 + 10 * (Int(index) - 232))
            return RGBColor(red: grey, green: grey, blue: grey)
        }
    }
}

extension Color: CustomStringConvertible {
    /// `cyan`, `bright red`, `palette 208` or `#FF8700`: as the test driver's snapshots write it.
    public var description: String {
        if let rgb = trueColor {
            let hex = Array("0123456789ABCDEF")
            return "#" + String([rgb.red, rgb.green, rgb.blue].flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] })
        }
        let index = paletteIndex ?? 0
        if let standard { return standard.name }
        if index < 16, let color = TerminalColor(rawValue: Int(index) - 8) { return "bright \(color.name)" }
        return "palette \(index)"
    }
}

/// How a cell is drawn: foreground and background colours and video attributes.
/// Colour is decoration only: every state that matters is also shown by bold, reverse or a glyph,
/// so a terminal without colour (or `NO_COLOR`) loses nothing.
///
/// A style is 7 bytes with no padding (both colours and the four attributes packed in 56 bits),
/// so that a ``Cell`` stays 24 bytes and compares as three words.
public struct Style: Hashable, Sendable {
    /// Bits 0–3: bold, reverse, dim, underline; 4–29: the foreground (``Color``'s 26 bits);
    /// 30–31: the background's lowest 2 bits.
    private var low: UInt32
    /// The background's next 16 bits.
    private var middle: UInt16
    /// The background's top 8 bits.
    private var high: UInt8

    private static let colorMask: UInt64 = (1 << 26) - 1

    private var bits: UInt64 {
        @inline(__always) get { UInt64(low) | UInt64(middle) << 32 | UInt64(high) << 48 }
        @inline(__always) set {
            low = UInt32(truncatingIfNeeded: newValue)
            middle = UInt16(truncatingIfNeeded: newValue >> 32)
            high = UInt8(truncatingIfNeeded: newValue >> 48)
        }
    }

    @inline(__always) private func flag(_ bit: UInt32) -> Bool { low & bit != 0 }
    @inline(__always) private mutating func set(_ bit: UInt32, _ on: Bool) { low = on ? low | bit : low & ~bit }

    /// Where each colour's 26 bits start in ``bits``.
    private static let foregroundShift: UInt64 = 4
    private static let backgroundShift: UInt64 = 30

    /// The colour whose bits start at `shift`, or nil (0: the terminal's default).
    @inline(__always) private func color(at shift: UInt64) -> Color? {
        let color = UInt32(truncatingIfNeeded: bits >> shift & Self.colorMask)
        return color == 0 ? nil : Color(bits: color)
    }

    @inline(__always) private mutating func setColor(_ color: Color?, at shift: UInt64) {
        bits = bits & ~(Self.colorMask << shift) | UInt64(color?.bits ?? 0) << shift
    }

    /// Foreground colour, or nil for the terminal's default.
    public var foreground: Color? {
        get { color(at: Self.foregroundShift) }
        set { setColor(newValue, at: Self.foregroundShift) }
    }
    /// Background colour, or nil for the terminal's default.
    public var background: Color? {
        get { color(at: Self.backgroundShift) }
        set { setColor(newValue, at: Self.backgroundShift) }
    }
    /// Bold, or increased intensity (SGR 1).
    public var bold: Bool {
        get { flag(1) }
        set { set(1, newValue) }
    }
    /// Reverse video: foreground and background swapped (SGR 7).
    public var reverse: Bool {
        get { flag(2) }
        set { set(2, newValue) }
    }
    /// Dim, or decreased intensity (SGR 2).
    public var dim: Bool {
        get { flag(4) }
        set { set(4, newValue) }
    }
    /// Underlined (SGR 4).
    public var underline: Bool {
        get { flag(8) }
        set { set(8, newValue) }
    }

    /// Its two colours as one number, equal for two styles exactly when their colours are (a
    /// backend's key for what it worked out for them).
    public var colorKey: UInt64 { bits >> Self.foregroundShift }

    /// Whether it has a colour other than one of the eight standard foregrounds: a background,
    /// a bright, 256-palette or true colour (which a ``StyleMap`` leaves as they are).
    public var hasExtendedColor: Bool {
        let bits = self.bits
        if bits >> Self.backgroundShift != 0 { return true }
        let foreground = bits >> Self.foregroundShift & Self.colorMask
        return foreground != 0 && (foreground >> 24 != 1 || foreground & 0xFF_FFFF >= 8)
    }

    /// Whether a theme's map may change it: a colour or dim (one test per cell in
    /// ``Screen/restyle(with:)``).
    @inline(__always) var hasColorOrDim: Bool { low & ~0b1011 != 0 || middle != 0 || high != 0 }

    /// Bold 1, reverse 2, dim 4, underline 8.
    @inline(__always) var attributeBits: Int { Int(low & 0xF) }

    /// 0 without a foreground, else its palette index + 1 (of the eight, for a ``StyleMap``).
    @inline(__always) var foregroundIndex: Int {
        let foreground = UInt64(low) >> Self.foregroundShift & Self.colorMask
        return foreground == 0 ? 0 : Int(foreground & 0xFF) + 1
    }

    /// A style with `foreground` and `background` (nil: the terminal's default) and the
    /// attributes given; plain by default.
    public init(
        foreground: Color? = nil, background: Color? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false,
        underline: Bool = false
    ) {
        (low, middle, high) = (0, 0, 0)
        let attributes: UInt64 = (bold ? 1 : 0) | (reverse ? 2 : 0) | (dim ? 4 : 0) | (underline ? 8 : 0)
        bits = attributes | UInt64(foreground?.bits ?? 0) << Self.foregroundShift | UInt64(background?.bits ?? 0) << Self.backgroundShift
    }

    /// The terminal's default colour, no attribute.
    public static let plain = Style()
    /// Bold alone.
    public static let bold = Style(bold: true)
    /// Dim alone (secondary text, rules and borders).
    public static let dim = Style(dim: true)
    /// The selection highlight: reverse video and bold.
    public static let selected = Style(bold: true, reverse: true)
    /// Letters a filter matched: bold and underlined (in green where there is colour).
    public static let filterMatch = Style(foreground: .green, bold: true, underline: true)
}

/// One cell of a ``Screen``: a grapheme cluster and its style. The right half of a
/// two-column character is a cell with ``isContinuation`` set and nothing to draw.
///
/// A cell is plain data (24 bytes, nothing reference-counted): the cluster is kept as its UTF-8
/// bytes, inline, so that filling, copying and comparing the 12,000 cells of a 200×60 frame
/// costs no more than copying and comparing integers.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster's UTF-8 bytes, at most ``Glyph/capacity`` of them.
    var glyph: Glyph
    /// How it is drawn.
    public var style: Style
    /// Whether this cell is covered by the wide character to its left (nothing to draw). With
    /// the glyph's 16 bytes and the style's 7, it fills the cell to 24 bytes with no padding, so
    /// that its bytes alone say what it holds (``Screen`` compares cells as three words).
    public var isContinuation: Bool

    /// The grapheme cluster drawn from this cell. A cluster of more than 15 UTF-8 bytes (a
    /// letter under a pile of combining marks) keeps its first 15 bytes' whole scalars, more
    /// than a terminal cell shows (ncurses keeps 5 characters per cell).
    public var character: Character {
        get { glyph.character }
        set { glyph = Glyph(newValue) }
    }

    /// A cell holding the grapheme cluster `character` (cut to 15 UTF-8 bytes as ``character``
    /// says) in `style`. It does not measure the cluster: ``Screen/put(_:column:row:style:width:)``
    /// does, and marks the continuation cells of a wide one.
    public init(_ character: Character, style: Style = .plain, isContinuation: Bool = false) {
        self.glyph = Glyph(character)
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A cell holding printable ASCII `byte` (0x20–0x7E), made without a `Character`.
    init(ascii byte: UInt8, style: Style) {
        self.glyph = Glyph(ascii: byte)
        self.style = style
        self.isContinuation = false
    }

    /// A cell holding `scalar` alone, made without a `Character`.
    init(_ scalar: Unicode.Scalar, style: Style) {
        self.glyph = Glyph(scalar)
        self.style = style
        self.isContinuation = false
    }

    /// A space in the plain style: what a new ``Screen`` is filled with.
    public static let blank = Cell(" ")
}

/// A grapheme cluster's UTF-8 bytes in two integers: bytes 0–7 in `low`, 8–14 in `high`, and
/// the count in `high`'s top byte.
struct Glyph: Hashable, Sendable {
    var low: UInt64
    var high: UInt64

    /// The most bytes a glyph holds.
    static let capacity = 15

    init(ascii byte: UInt8) {
        low = UInt64(byte)
        high = 1 << 56
    }

    /// The glyph whose two words are `low` and `high` (as a ``Cell`` holds them).
    @inline(__always) init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The UTF-8 of `scalar` alone (as ``init(_:)-(Character)`` makes it for a one-scalar character).
    init(_ scalar: Unicode.Scalar) {
        low = 0
        var count = 0
        for byte in UTF8.encode(scalar)! {
            low |= UInt64(byte) << (count * 8)
            count += 1
        }
        high = UInt64(count) << 56
    }

    init(_ character: Character) {
        low = 0
        high = 0
        var count = 0
        for scalar in character.unicodeScalars {
            let encoded = UTF8.encode(scalar)!
            guard count + encoded.count <= Self.capacity else { break }
            for byte in encoded {
                if count < 8 { low |= UInt64(byte) << (count * 8) } else { high |= UInt64(byte) << ((count - 8) * 8) }
                count += 1
            }
        }
        high |= UInt64(count) << 56
    }

    /// Bytes held.
    var count: Int { Int(high >> 56) }

    /// Byte `index` (below ``count``).
    @inline(__always) subscript(index: Int) -> UInt8 {
        index < 8 ? UInt8(truncatingIfNeeded: low >> (index * 8)) : UInt8(truncatingIfNeeded: high >> ((index - 8) * 8))
    }

    /// Appends the bytes to `buffer`.
    @inline(__always) func append(to buffer: inout [UInt8]) {
        let count = self.count
        if count == 1 {
            buffer.append(UInt8(truncatingIfNeeded: low))
            return
        }
        for index in 0..<count { buffer.append(self[index]) }
    }

    var character: Character {
        if count == 1 { return Character(Unicode.Scalar(UInt8(truncatingIfNeeded: low))) }
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self).first ?? " "
    }
}
