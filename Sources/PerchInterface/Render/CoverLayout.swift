import PerchDomain
import PerchKit

/// Geometry of a full-screen cover: the whole screen, with a close control (`✕`) at the left
/// of the top row.
public struct CoverLayout: Hashable, Sendable {
    /// The cells that react to a click on the close control: the `✕` and a column each side.
    public let close: Rect
    /// The whole screen.
    public let frame: Rect

    public init(screen: Size) {
        frame = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        close = Rect(x: 0, y: 0, width: 3, height: 1)
    }

    /// Column of the `✕`.
    public static let closeColumn = 1
}
