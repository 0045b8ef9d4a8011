/// A terminal or widget size in columns (`width`) and rows (`height`).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Width in columns.
    public var width: Int
    /// Height in rows.
    public var height: Int

    /// Creates a size; negative values are clamped to 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `WIDTH×HEIGHT`, e.g. `80×24`.
    public var description: String { "\(width)×\(height)" }
}
