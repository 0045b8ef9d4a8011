/// One line of text in one style: a row of a cover's text or of a menu's preview card.
public struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The text, drawn as it is (cut with `…` where it does not fit).
    public var text: String
    /// The style every cell of it is drawn in.
    public var style: Style

    /// `text` in `style` (plain by default).
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// A plain line: `"loading…"`.
    public init(stringLiteral text: String) { self.init(text) }
}
