/// Whether the terminal's default background is light or dark, which decides the colours text
/// can be drawn in (``Style/readable(on:)``).
public enum TerminalBackground: String, CaseIterable, Hashable, Sendable {
    /// A light background (xterm's, rxvt-unicode's and mlterm's white by default).
    case light
    /// A dark background (most terminals' default).
    case dark

    /// The background of colour `rgb`: light when black text reads better on it than white text
    /// (``RGBColor/isLight``).
    public init(_ rgb: RGBColor) { self = rgb.isLight ? .light : .dark }

    /// The background as a contrast check takes it: white when light, black when dark.
    public var rgb: RGBColor { self == .light ? .white : .black }
}
