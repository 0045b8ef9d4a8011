/// The help overlay: a box in the middle of the screen listing key bindings, built from
/// ``KeyTable``s, so help can never list a key that does nothing. Its top border is titled
/// "Keys · " and the component it describes; each section lists its rows (the keys in bold,
/// padded to the widest, then what they do), under its own bold heading when it has one, with a
/// blank line between sections. A list longer than the box scrolls, and the bottom border says
/// which rows show ("1–12 of 30 · Esc close"). `Esc`, `?`, `q` or `F1` closes it; `↑`/`k`,
/// `↓`/`j` and the wheel scroll it a line, `PgUp`/`PgDn` a page, `Home`/`g` and `End`/`G` to
/// either end.
public struct HelpLayer: Layer, Hashable {
    /// One row: the keys as help names them (`↑ k`), and what they do.
    public struct Row: Hashable, Sendable {
        /// The keys or the gesture, e.g. `↑ k` or `click a tab`.
        public var label: String
        /// What they do.
        public var help: String

        /// A row saying that `label` does `help`.
        public init(_ label: String, _ help: String) {
            self.label = label
            self.help = help
        }
    }

    /// One section: its heading (none when empty) and its rows.
    public struct Section: Hashable, Sendable {
        /// The bold heading above the rows; empty for none.
        public var title: String
        /// The rows, in order.
        public var rows: [Row]

        /// A section headed `title` (empty: no heading) listing `rows`.
        public init(_ title: String, _ rows: [Row]) {
            self.title = title
            self.rows = rows
        }

        /// A section headed `title` listing the rows of a key table (``KeyTable/help``).
        public init(_ title: String, _ rows: [(label: String, help: String)]) {
            self.init(title, rows.map { Row($0.label, $0.help) })
        }
    }

    /// Width of the box, in columns, when the terminal has room and no line needs more; a wider
    /// line widens it up to 2 columns less than the terminal.
    public static let maximumWidth = 60
    /// Blank columns between a row's keys and what they do.
    public static let columnGap = 2

    /// What help describes, shown on the top border as "Keys · title".
    public var title: String
    /// The sections, in order.
    public var sections: [Section]
    /// Index of the first line shown.
    public var scroll = 0

    /// Help titled `title` (the component it describes) over `sections`.
    public init(title: String, sections: [Section]) {
        self.title = title
        self.sections = sections
    }

    /// What help's keys mean: close it, or scroll a line, a page, or to either end.
    public enum Verb: Hashable, Sendable {
        case close
        /// Scroll the text (``ListMove``).
        case move(ListMove)
    }

    /// Its key bindings: what help lists under its title, and the verbs its keys mean.
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The key table of every help overlay, made once (the root reads it for each key pressed).
    public static let keyTable = KeyTable<Verb>(
        "Help",
        [
            .init([KeyEvent(.escape), .char("?"), .char("q"), KeyEvent(.function(1))], "Esc ? q F1", "close help", .close),
            .init([], "click outside", "close help", nil),
        ] + ListMove.rows(Verb.move, scrolling: true))

    /// One line of the overlay: a section's heading, a row, or the blank line between sections.
    public enum Line: Hashable, Sendable {
        /// A section's bold title.
        case heading(String)
        /// A row: keys and what they do.
        case row(Row)
        /// The empty line between two sections.
        case blank
    }

    /// The lines of the overlay, in order: each section's heading (when it has one), then its
    /// rows; a blank line between sections.
    public var lines: [Line] {
        var lines: [Line] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append(.blank) }
            if !section.title.isEmpty { lines.append(.heading(section.title)) }
            lines += section.rows.map(Line.row)
        }
        return lines
    }

    /// The lines as text: a row's keys padded to the widest label, two columns, what they do.
    public var text: [String] {
        let keyWidth = sections.flatMap(\.rows).map { DisplayWidth.columns(of: $0.label) }.max() ?? 0
        return lines.map { line in
            switch line {
            case .heading(let title): title
            case .row(let row):
                row.label + String(repeating: " ", count: keyWidth - DisplayWidth.columns(of: row.label)) + "  " + row.help
            case .blank: ""
            }
        }
    }

    /// Where help draws itself in `area`: a box centred in it, ``maximumWidth`` columns wide (or
    /// as wide as its widest line, `widest` columns, needs) and one column clear of each side, as
    /// tall as its `lineCount` lines plus a border row above and below and one row clear of the
    /// top and the bottom; past that its lines scroll.
    public static func layout(lineCount: Int, widest: Int = 0, in area: Rect) -> (box: Rect, visibleRows: Int) {
        let width = max(0, min(max(maximumWidth, widest + 4), area.width - 2))
        let height = max(0, min(lineCount + 2, area.height - 2))
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        return (box, max(0, height - 2))
    }

    /// One row of the box as drawn: a heading, a row's keys with the first line of what they
    /// do, a further line of a help text too long for one, or a blank.
    enum DrawnLine: Hashable {
        case heading(String)
        case keys(String, help: String)
        case more(String)
        case blank
    }

    /// The lines drawn in a box of `width` columns, and the width of the keys' column: a row
    /// whose help does not fit the box goes on over more lines under the help column (bug: it
    /// was cut with `…` at 60 columns). `widths` are the rows' label and help widths, in order
    /// (``measured``), so a frame measures each text once.
    func drawnLines(width: Int, widths: Measured) -> (lines: [DrawnLine], keyWidth: Int) {
        let inner = width - 2
        let keyWidth = max(0, min(inner / 2 - 1, widths.widestLabel))
        // One blank column before the right border, as after the left one.
        let helpWidth = width - 4 - keyWidth - Self.columnGap
        var drawn: [DrawnLine] = []
        drawn.reserveCapacity(widths.help.count + sections.count * 2)
        var index = 0
        for (number, section) in sections.enumerated() {
            if number > 0 { drawn.append(.blank) }
            if !section.title.isEmpty { drawn.append(.heading(section.title)) }
            for row in section.rows {
                defer { index += 1 }
                // Most rows fit: only those that do not are wrapped.
                if widths.help[index] <= helpWidth {
                    drawn.append(.keys(row.label, help: row.help))
                    continue
                }
                let wrapped = helpWidth > 0 ? DisplayWidth.wrapped(row.help, to: helpWidth, rows: Int.max) : []
                drawn.append(.keys(row.label, help: wrapped.first ?? ""))
                drawn += wrapped.dropFirst().map(DrawnLine.more)
            }
        }
        return (drawn, keyWidth)
    }

    /// The widths of the texts, in columns: the widest label, each row's help in order, and the
    /// widest line as ``text`` lays it out (headings, and labels padded to the widest).
    struct Measured {
        var widestLabel = 0
        var help: [Int] = []
        var widestLine = 0
    }

    /// ``Measured`` for these sections.
    var measured: Measured {
        var measured = Measured()
        var widestHelp = 0
        for section in sections {
            measured.widestLine = max(measured.widestLine, DisplayWidth.columns(of: section.title))
            for row in section.rows {
                measured.widestLabel = max(measured.widestLabel, DisplayWidth.columns(of: row.label))
                let help = DisplayWidth.columns(of: row.help)
                measured.help.append(help)
                widestHelp = max(widestHelp, help)
            }
        }
        if !measured.help.isEmpty { measured.widestLine = max(measured.widestLine, measured.widestLabel + Self.columnGap + widestHelp) }
        return measured
    }

    /// The box, the rows shown and the lines drawn in `area`.
    func layout(in area: Rect) -> (box: Rect, visibleRows: Int, lines: [DrawnLine], keyWidth: Int) {
        let widths = measured
        let width = Self.layout(lineCount: 0, widest: widths.widestLine, in: area).box.width
        let (lines, keyWidth) = drawnLines(width: width, widths: widths)
        let (box, visibleRows) = Self.layout(lineCount: lines.count, widest: widths.widestLine, in: area)
        return (box, visibleRows, lines, keyWidth)
    }

    /// Takes a verb or the wheel; returns its dismissal, or nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let layout = layout(in: Rect(x: 0, y: 0, width: context.size.width, height: context.size.height))
        let (count, visible) = (layout.lines.count, layout.visibleRows)
        let step: Int
        switch input {
        case .verb(.close): return [.dismiss]
        case .verb(.move(let move)): step = move.delta(count: count, visible: visible)
        case .scroll(_, let notches): step = notches < 0 ? -1 : 1
        default: return []
        }
        scroll = max(0, min(scroll + step, count - visible))
        return []
    }

    /// Draws it into `area` (the whole screen, columns × rows) and marks the box as its chrome.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let (box, visibleRows, lines, keyWidth) = layout(in: area)
        // As the lines fit this area: after a resize that gave them more room, a scroll kept from
        // a smaller one left rows blank and hid those above (its footer miscounting them).
        let scroll = max(0, min(self.scroll, lines.count - visibleRows))
        frame.hits.mark(box, .layerChrome)
        guard box.width >= 4, box.height >= 2 else { return }
        frame.screen.clearCutWords(beside: [box])
        frame.screen.box(box)
        frame.screen.put(" Keys · \(title) ", column: box.x + 2, row: box.y, style: .bold, width: box.width - 4)
        var footer = " Esc close "
        if visibleRows < lines.count {
            footer = " \(scroll + 1)–\(min(lines.count, scroll + visibleRows)) of \(lines.count) ·" + footer
        }
        frame.screen.put(footer, column: box.x + 2, row: box.maxY - 1, style: .dim, width: box.width - 4)
        // Keys, then two blank columns, then what they do: with one, the longest key ran into
        // what it does ("click above the sheet close it").
        let inner = box.width - 2
        let x = box.x + 2 + keyWidth + Self.columnGap
        for offset in 0..<visibleRows {
            let index = scroll + offset
            guard lines.indices.contains(index) else { break }
            let row = box.y + 1 + offset
            switch lines[index] {
            case .heading(let heading):
                frame.screen.put(DisplayWidth.truncated(heading, to: inner - 2), column: box.x + 2, row: row, style: .bold)
            case .keys(let label, let help):
                frame.screen.put(DisplayWidth.truncated(label, to: keyWidth), column: box.x + 2, row: row, style: .bold)
                // One blank column before the right border, as after the left one (bug: a help
                // text as wide as the room left ran into the border).
                if x < box.maxX - 2 { frame.screen.put(help, column: x, row: row, width: box.maxX - 2 - x) }
            case .more(let help):
                if x < box.maxX - 2 { frame.screen.put(help, column: x, row: row, width: box.maxX - 2 - x) }
            case .blank: break
            }
        }
    }
}
