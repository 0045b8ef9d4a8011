/// Every style mapped to another, as a table: a theme or a background's colours applied to a
/// whole screen in one pass (``Screen/restyle(with:)``), at a table look-up per coloured or dim
/// cell and a test per other cell.
///
/// A cell with no colour and no dim is left as it is: a map must not change such a style. The
/// table holds the styles of the eight standard foregrounds and no background; a style with
/// another colour (``Style/hasExtendedColor``: a background, a bright, 256-palette or true
/// colour) is the app's own choice and is drawn as it is.
public struct StyleMap: Hashable, Sendable {
    /// The style each style becomes, at ``index(_:)``.
    private let styles: [Style]

    /// The map that gives each style `transform(style)`; a style with no colour and no dim must
    /// come out as it went in.
    public init(_ transform: (Style) -> Style) {
        var styles: [Style] = []
        styles.reserveCapacity(Self.count)
        for index in 0..<Self.count { styles.append(transform(Self.style(at: index))) }
        self.styles = styles
    }

    /// The style `style` becomes.
    public subscript(style: Style) -> Style { style.hasExtendedColor ? style : styles[Self.index(style)] }

    /// Nine foregrounds (none, then the eight colours) × 16 attribute sets.
    static let count = 9 * 16

    @inline(__always)
    static func index(_ style: Style) -> Int {
        let color = style.foregroundIndex
        return color << 4 | style.attributeBits
    }

    static func style(at index: Int) -> Style {
        let color = index >> 4
        return Style(
            foreground: color == 0 ? nil : .indexed(UInt8(color - 1)), bold: index & 1 != 0, reverse: index & 2 != 0,
            dim: index & 4 != 0, underline: index & 8 != 0)
    }
}
