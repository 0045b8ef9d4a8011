/// One of the eight standard terminal colours (ANSI/ECMA-48 SGR 30–37).
public enum TerminalColor: Int, CaseIterable, Hashable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white

    /// The colour's lower-case name, as written in the config (`"red"`).
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
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool

    public init(foreground: TerminalColor? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    /// The selection highlight: reverse video and bold.
    public static let selected = Style(bold: true, reverse: true)
}

/// One cell of a ``Screen``: a grapheme cluster and its style. The right half of a
/// two-column character is a cell with ``isContinuation`` set and nothing to draw.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster drawn from this cell.
    public var character: Character
    public var style: Style
    /// Whether this cell is covered by the wide character to its left (nothing to draw).
    public var isContinuation: Bool

    public init(_ character: Character, style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell(" ")
}
