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

/// How a cell is drawn: foreground colour and video attributes.
/// Colour is decoration only: every state that matters is also shown by bold, reverse or a glyph,
/// so a terminal without colour (or `NO_COLOR`) loses nothing.
public struct Style: Hashable, Sendable {
    /// Foreground colour, or nil for the terminal's default.
    public var foreground: TerminalColor?
    /// Bold, or increased intensity (SGR 1).
    public var bold: Bool
    /// Reverse video: foreground and background swapped (SGR 7).
    public var reverse: Bool
    /// Dim, or decreased intensity (SGR 2).
    public var dim: Bool
    /// Underlined (SGR 4).
    public var underline: Bool

    /// A style with `foreground` (nil: the terminal's default) and the attributes given; plain
    /// by default.
    public init(foreground: TerminalColor? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
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
    /// Whether this cell is covered by the wide character to its left (nothing to draw).
    public var isContinuation: Bool
    /// Fills the cell to 24 bytes with no padding, so that its bytes alone say what it holds
    /// (``Screen`` compares cells as three words).
    private var reserved: UInt16 = 0

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
