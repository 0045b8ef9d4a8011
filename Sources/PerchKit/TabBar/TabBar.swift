/// The bottom tab bar: one label cell per tab, the width shared out evenly left to right (by
/// label where a label would not fit its even share, ``cells(titles:width:)``), the selected tab
/// in reverse video, and a rule above the labels when the screen has room.
///
/// It draws itself and marks each tab in the hit map as ``Part/tab(_:holdable:)``; a tap on a
/// tab selects it, and holding a tab the app names ``holdable`` fires a long-press (its pane
/// raises a sheet). What each tab shows is the app's panes (``TabApp``).
public struct TabBar: Hashable, Sendable {
    /// The labels, in order.
    public var titles: [String]
    /// Index in ``titles`` of the selected tab.
    public var selected: Int
    /// The tabs whose long-press means something (``HitPart/acceptsLongPress``).
    public var holdable: Set<Int>
    /// How the selected tab is drawn.
    public var selectedStyle = Style(foreground: .cyan, bold: true, reverse: true)

    /// A bar of tabs labelled `titles`, tab `selected` (an index in `titles`) selected, and a
    /// long-press on the tabs at the indices in `holdable` meaning something.
    public init(titles: [String], selected: Int = 0, holdable: Set<Int> = []) {
        self.titles = titles
        self.selected = selected
        self.holdable = holdable
    }

    /// What the tab bar marks in the hit map.
    public enum Part: HitPart {
        /// The label cell of the tab at this index; `holdable` when a long-press on it means something.
        case tab(Int, holdable: Bool)

        /// Whether the tab is holdable.
        public var acceptsLongPress: Bool {
            switch self {
            case .tab(_, let holdable): holdable
            }
        }

        /// Index of the tab.
        public var index: Int {
            switch self {
            case .tab(let index, _): index
            }
        }
    }

    /// The hit target of the tab at `index`, as ``render(into:in:)`` marks it.
    public func target(_ index: Int) -> HitTarget { .hit(Part.tab(index, holdable: holdable.contains(index))) }

    /// Rows the tab bar takes on a screen `screenHeight` rows tall: a rule and the labels, or the
    /// labels alone on a screen under 6 rows.
    public static func height(screenHeight: Int) -> Int { screenHeight >= 6 ? 2 : min(screenHeight, 1) }

    /// Columns of each tab's label cell on a bar `width` columns wide, left to right, together
    /// covering the bar. Shared out evenly while every label fits its share with a blank column
    /// each side. Otherwise each tab gets what its label needs, with one blank column after it
    /// where the bar has room for all of them, shortest first, as long as an even share of what
    /// is left allows (max-min fair sharing), and what is still left is shared out from the left:
    /// a short label's spare columns go to a long one, so no label is cut while the labels fit.
    // Bug: on a narrow bar the even share cut the longest label while a shorter one beside it had
    // room, and ran two labels together with no gap.
    public static func cells(titles: [String], width: Int) -> [Range<Int>] {
        let count = titles.count
        guard count > 0, width > 0 else { return titles.map { _ in 0..<0 } }
        // The even share, made and checked in one pass: it is what every frame at a usual width
        // draws, so it builds nothing else.
        var even: [Range<Int>] = []
        even.reserveCapacity(count)
        var fits = true
        for (index, title) in titles.enumerated() {
            let cell = (index * width / count)..<((index + 1) * width / count)
            if fits, cell.count < DisplayWidth.columns(of: title) + 2 { fits = false }
            even.append(cell)
        }
        if fits { return even }
        let labels = titles.map { DisplayWidth.columns(of: $0) }
        // Bug: at 29 columns the last label was cut though the labels fit (28), for the blank
        // columns given to those before it. The blanks come only where all of them fit.
        let gap = width >= labels.reduce(0, +) + count ? 1 : 0
        var widths = Array(repeating: 0, count: count)
        var left = width
        for (taken, index) in (0..<count).sorted(by: { labels[$0] < labels[$1] }).enumerated() {
            // An even share rounded up: a longer label, placed later, takes the odd column first.
            let open = count - taken
            widths[index] = min(labels[index] + gap, (left + open - 1) / open)
            left -= widths[index]
        }
        for index in 0..<count { widths[index] += left / count + (index < left % count ? 1 : 0) }
        var start = 0
        return widths.map { cellWidth in
            defer { start += cellWidth }
            return start..<(start + cellWidth)
        }
    }

    /// Index of the tab whose label cell holds `column` on a bar `width` columns wide, or nil.
    public func index(atColumn column: Int, width: Int) -> Int? {
        guard column >= 0, column < width else { return nil }
        return Self.cells(titles: titles, width: width).firstIndex { $0.contains(column) }
    }

    /// Draws the bar into `rect` (its bottom row holds the labels; a row above it, when `rect`
    /// is 2 rows tall, the rule) and marks the bar as ``HitTarget/none`` and each tab's cell as
    /// its ``Part``.
    public func render(into frame: inout Frame, in rect: Rect) {
        guard rect.height > 0 else { return }
        frame.hits.mark(rect, .none)
        if rect.height >= 2 {
            frame.screen.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), with: "─", style: .dim)
        }
        let row = rect.maxY - 1
        let cells = Self.cells(titles: titles, width: rect.width)
        for index in titles.indices {
            let columns = cells[index]
            let cell = Rect(x: rect.x + columns.lowerBound, y: row, width: columns.count, height: 1)
            frame.hits.mark(cell, target(index))
            let style = index == selected ? selectedStyle : Style.plain
            frame.screen.fill(cell, style: style)
            let label = DisplayWidth.truncated(titles[index], to: columns.count)
            let start = cell.x + max(0, (columns.count - DisplayWidth.columns(of: label)) / 2)
            frame.screen.put(label, column: start, row: row, style: style, width: cell.maxX - start)
        }
    }
}
