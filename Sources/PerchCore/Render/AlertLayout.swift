/// Geometry of an alert: a box centred on the screen, at most ``maximumWidth`` columns wide,
/// with a title, a message and a row of buttons at the bottom, right-aligned.
public struct AlertLayout: Hashable, Sendable {
    /// Widest box drawn, in columns.
    public static let maximumWidth = 52
    /// Height with every row: border, title, message, blank, buttons, border.
    public static let height = 6

    /// The box, border included.
    public let frame: Rect
    /// Each button's cells, left to right (`[ Cancel ]`).
    public let buttons: [Rect]

    public init(buttons labels: [String], screen: Size) {
        let width = max(0, min(Self.maximumWidth, screen.width - 2))
        let height = max(0, min(Self.height, screen.height))
        frame = Rect(x: (screen.width - width) / 2, y: (screen.height - height) / 2, width: width, height: height)
        buttons = AlertLayer.Layout.buttons(labels, in: frame)
    }

    /// A button as drawn, e.g. `[ Delete ]` (PerchKit's alert's).
    public static func buttonText(_ label: String) -> String { AlertLayer.Layout.buttonText(label) }
}
