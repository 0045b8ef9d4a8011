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
        var x = frame.maxX - 2
        var rects: [Rect] = []
        for label in labels.reversed() {
            let w = DisplayWidth.columns(of: Self.buttonText(label))
            x -= w
            rects.insert(Rect(x: max(frame.x + 1, x), y: frame.maxY - 2, width: w, height: 1), at: 0)
            x -= 1
        }
        buttons = rects
    }

    /// A button as drawn, e.g. `[ Delete ]`.
    public static func buttonText(_ label: String) -> String { "[ \(label) ]" }
}
