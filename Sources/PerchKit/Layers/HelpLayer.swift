/// The help overlay: a box in the middle of the screen listing key bindings, section by section
/// (the component's that had the keys, then the root's), built from their ``KeyTable``s, so help
/// can never list a key that does nothing. `Esc`, `?` or `q` closes it; a long list scrolls.
public struct HelpLayer: Layer {
    /// Each section's title and rows (keys as help names them, and what they do).
    public var sections: [(title: String, rows: [(label: String, help: String)])]
    /// The first line shown.
    public var scroll = 0

    /// Help over `sections`: each a title and its rows (the keys as help names them, what they do).
    public init(sections: [(String, [(label: String, help: String)])]) {
        self.sections = sections.map { (title: $0.0, rows: $0.1) }
    }

    /// What help's keys mean: close it, or scroll one line.
    public enum Verb: Hashable, Sendable { case close, up, down }

    /// Its key bindings: what help lists under its title, and the verbs its keys mean.
    public var keys: KeyTable<Verb> {
        KeyTable(
            "Help",
            [
                .init([KeyEvent(.escape), .char("?"), .char("q")], "Esc ? q", "close", .close),
                .init([KeyEvent(.up), .char("k")], "↑ k", "scroll up", .up),
                .init([KeyEvent(.down), .char("j")], "↓ j", "scroll down", .down),
            ])
    }

    /// The text lines of the overlay: each section's title, then its rows with the keys padded
    /// to the widest label; a blank line between sections.
    public var lines: [(text: String, bold: Bool)] {
        let keyWidth = sections.flatMap(\.rows).map { DisplayWidth.columns(of: $0.label) }.max() ?? 0
        var lines: [(String, Bool)] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append(("", false)) }
            lines.append((section.title, true))
            for row in section.rows {
                lines.append((row.label + String(repeating: " ", count: keyWidth - DisplayWidth.columns(of: row.label)) + "  " + row.help, false))
            }
        }
        return lines
    }

    /// Takes a verb or a tap on one of its parts; returns its reply and dismissal, or nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let visible = max(1, context.size.height - 4)
        switch input {
        case .verb(.close): return [.dismiss]
        case .verb(.up): scroll = max(0, scroll - 1)
        case .verb(.down): scroll = max(0, min(scroll + 1, lines.count - visible))
        case .scroll(_, let notches): scroll = max(0, min(scroll + notches, lines.count - visible))
        default: break
        }
        return []
    }

    /// Draws it into `area` (the whole screen, columns × rows) and marks its parts in the hit map.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let lines = self.lines
        let widest = lines.map { DisplayWidth.columns(of: $0.text) }.max() ?? 0
        let width = min(area.width, widest + 4)
        let height = min(area.height, lines.count + 2)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        frame.hits.mark(box, .layerChrome)
        guard box.width >= 4, box.height >= 3 else { return }
        frame.screen.box(box, style: .bold)
        for (offset, line) in lines.dropFirst(scroll).prefix(box.height - 2).enumerated() {
            frame.screen.put(line.text, column: box.x + 2, row: box.y + 1 + offset, style: line.bold ? .bold : .plain, width: box.width - 4)
        }
    }
}
