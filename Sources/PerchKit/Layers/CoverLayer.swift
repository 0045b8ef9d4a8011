/// A full-screen cover (UIModalPresentationStyle `.fullScreen`): it hides everything below it,
/// the tab bar included. Its top row holds a close mark (`✕`) and the title in bold, above a rule;
/// the text lines below scroll (`↑`/`↓` a row, `PgUp`/`PgDn` a page, `Home`/`End`, the wheel 3
/// rows a notch), and a dim footer on the last row says how to close it and which lines show.
/// `Esc`, `q` or a tap on the `✕` closes it. Lines wider than the screen are cut with `…`.
///
/// An app whose cover needs keys of its own (or not `q`) wraps one in a layer of its own with
/// its own key table, and hands it the verbs it shares (``update(_:_:)``) and its drawing
/// (``render(into:in:_:)``), naming its extra keys in ``footerHints``.
public struct CoverLayer: Layer {
    /// One line of the text, in its style.
    public typealias Line = StyledLine

    /// The bold title on the top row, after the `✕`.
    public var title: String
    /// The text, one line a row.
    public var lines: [Line]
    /// Index in ``lines`` of the first line shown.
    public var scroll = 0
    /// What the footer says after how to close and which lines show (`a: another sheet`), each
    /// after a `·`.
    public var footerHints: [String] = []

    /// A cover titled `title` showing `lines` (plain) from the first.
    public init(title: String, lines: [String]) {
        self.init(title: title, styledLines: lines.map { Line($0) })
    }

    /// A cover titled `title` showing `lines`, each in its style, from line `scroll` (0: the
    /// first), with `footerHints` after the footer's own.
    public init(title: String, styledLines lines: [Line], scroll: Int = 0, footerHints: [String] = []) {
        self.title = title
        self.lines = lines
        self.scroll = scroll
        self.footerHints = footerHints
    }

    /// What the cover's keys mean.
    public enum Verb: Hashable, Sendable {
        case close
        /// Scroll the text (``ListMove``).
        case move(ListMove)
    }

    /// What the cover marks in the hit map.
    public enum Part: HitPart {
        /// The close mark (`✕`) and a column each side of it: a tap closes the cover.
        case close
    }

    /// Column of the `✕` on the top row.
    public static let closeColumn = 1
    /// Row of the first text line (below the title, the rule and a blank row).
    public static let firstTextRow = 3

    /// Rows of text shown on a screen `height` rows tall: all but the title, the rule, a blank row
    /// and the footer.
    public static func textRows(height: Int) -> Int { max(0, height - firstTextRow - 1) }

    /// Always: the tab bar is hidden too.
    public var coversScreen: Bool { true }

    /// Its key bindings: what help lists under its title, and the verbs its keys mean.
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The key table of every cover, made once (the root reads it for each key pressed).
    public static let keyTable = KeyTable<Verb>(
        "Cover",
        [
            .init([KeyEvent(.escape), .char("q")], "Esc q", "close", .close),
            .init([], "click ✕", "close", nil),
        ] + ListMove.rows(Verb.move, scrolling: true))

    /// Takes a verb or a tap on one of its parts; returns its reply and dismissal, or nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let visible = max(1, Self.textRows(height: context.size.height))
        switch input {
        case .verb(.close): return [.dismiss]
        case .tap(let target): if target.part(Part.self) == .close { return [.dismiss] }
        case .verb(.move(let move)): scroll += move.delta(count: lines.count, visible: visible)
        case .scroll(_, let notches): scroll += notches * ListMove.rowsPerScrollNotch
        default: break
        }
        scroll = max(0, min(scroll, lines.count - visible))
        return []
    }

    /// Draws it into `area` (the whole screen, columns × rows) and marks its parts in the hit map.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.hits.mark(area, .layerChrome)
        frame.hits.mark(Rect(x: area.x + Self.closeColumn - 1, y: area.y, width: 3, height: 1), .hit(Part.close))
        frame.screen.fill(area)
        guard area.height > 0 else { return }
        let x = frame.screen.put("✕", column: area.x + Self.closeColumn, row: area.y, style: .bold)
        frame.screen.put("  " + title, column: x, row: area.y, style: .bold, width: area.maxX - x)
        guard area.height > 1 else { return }
        frame.screen.fill(Rect(x: area.x, y: area.y + 1, width: area.width, height: 1), with: "─", style: .dim)
        let rows = Self.textRows(height: area.height)
        for (offset, line) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            frame.screen.put(
                line.text, column: area.x + 2, row: area.y + Self.firstTextRow + offset, style: line.style, width: max(0, area.width - 4))
        }
        guard area.height > Self.firstTextRow else { return }
        let shown = lines.count > rows ? " · ↑↓ scroll (\(scroll + 1)–\(min(lines.count, scroll + rows)) of \(lines.count))" : ""
        let hints = footerHints.map { " · " + $0 }.joined()
        frame.screen.put(" Esc or ✕ close" + shown + hints, column: area.x, row: area.maxY - 1, style: .dim, width: area.width)
    }
}
