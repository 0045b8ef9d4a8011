/// A message shown on the last rows above the tab bar, in reverse yellow (a save that failed, a
/// copy done): until the next key, or with ``stays`` whole until `Esc` dismisses it (a reason to
/// read and act on). ``TabApp`` shows one a component asks for (``Reaction/banner(_:stays:)``).
public struct Banner: Hashable, Sendable {
    /// The message.
    public var text: String
    /// Whether it stays until `Esc` rather than going at the next key.
    public var stays: Bool

    /// A banner of `text`, going at the next key unless it `stays`.
    public init(_ text: String, stays: Bool = false) {
        self.text = text
        self.stays = stays
    }

    /// Most rows a banner that goes at the next key takes; a longer one ends in `…`.
    public static let maximumRows = 3

    /// Its text wrapped at spaces to `width` columns less two (a column of margin each side), on
    /// at most ``maximumRows`` rows and never more than half of `paneHeight` (rows); one that
    /// stays may take that half, so that its reason shows whole, and ends saying how to dismiss
    /// it. Empty when not even a row fits.
    public func lines(width: Int, paneHeight: Int) -> [String] {
        let rows = stays ? paneHeight / 2 : min(Self.maximumRows, paneHeight / 2)
        guard rows > 0, width > 2 else { return [] }
        return DisplayWidth.wrapped(stays ? text + " (Esc dismisses this.)" : text, to: width - 2, rows: rows)
    }

    /// Draws it on the last rows of `area` (the pane's: columns × rows above the tab bar) and marks
    /// them in the hit map as reaching nothing.
    public func render(into frame: inout Frame, above area: Rect) {
        let lines = lines(width: area.width, paneHeight: area.height)
        let style = Style(foreground: .yellow, reverse: true)
        for (offset, line) in lines.enumerated() {
            let row = area.maxY - lines.count + offset
            let rect = Rect(x: area.x, y: row, width: area.width, height: 1)
            frame.hits.mark(rect, .none)
            frame.screen.fill(rect, style: style)
            frame.screen.put(" " + line, column: area.x, row: row, style: style)
        }
    }
}

/// What is drawn instead of an app on a screen below the smallest it lays out: e.g. "terminal
/// too small (19×6, needs 20×6)", bold, wrapped and centred.
public struct TooSmallNotice: Hashable, Sendable {
    /// The screen, columns × rows.
    public var size: Size
    /// The smallest screen the app lays out, columns × rows.
    public var minimum: Size

    /// The notice for a screen of `size` under an app needing `minimum` (columns × rows).
    public init(size: Size, minimum: Size) {
        self.size = size
        self.minimum = minimum
    }

    /// Whether `size` is below `minimum` in either direction.
    public var applies: Bool { size.width < minimum.width || size.height < minimum.height }

    /// The notice's text.
    public var text: String { "terminal too small (\(size.width)×\(size.height), needs \(minimum.width)×\(minimum.height))" }

    /// Draws the text, wrapped to the screen's width and centred, on `screen` (which it expects blank).
    public func render(into screen: inout Screen) {
        let lines = DisplayWidth.wrapped(text, to: size.width, rows: size.height)
        let top = (size.height - lines.count) / 2
        for (offset, line) in lines.enumerated() {
            screen.put(line, column: max(0, (size.width - DisplayWidth.columns(of: line)) / 2), row: top + offset, style: .bold)
        }
    }
}
