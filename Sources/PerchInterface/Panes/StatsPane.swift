import PerchDomain
import PerchKit
import Synchronization

/// The Stats pane: pictures from the switch history. Time spent in each account today, in the
/// last 7 days and in the last 30 days, as bars with hours and minutes (the current interval
/// counting up); switches per day over the last 30 days as a column chart with a date axis; and
/// the most recent switches with their source. Its keys scroll the view; each account keeps
/// its own scroll. A PerchKit ``Pane`` of Perch's own (``PerchPane``): it
/// reads the history and the wall clock through the app's model (``ModelContext``).
public struct StatsPane: PerchPane {
    /// The scroll offset, in lines (the cursor follows it).
    public internal(set) var list = ListCursor()
    /// The scroll of the accounts not shown now, by account id.
    private var scrolls: [String: Int] = [:]
    /// The account whose scroll ``list`` is.
    private var owner = ""
    /// The picture last drawn, with what it was drawn from (shared by copies of the pane).
    private let cache = StatsPictureCache()

    public init() {}

    /// Seeds each account's scroll kept from the previous run.
    public init(scrolls: [String: Int]) {
        self.scrolls = scrolls.mapValues { max(0, $0) }
    }

    /// Seeds each account's scroll kept from the previous run (``AccountPanes/statsScroll``).
    public init(kept: [String: AccountPanes]) { self.init(scrolls: kept.compactMapValues(\.statsScroll)) }

    /// Adds each account's scroll (``memory``).
    public func remember(into memory: inout [String: AccountPanes]) {
        for (id, scroll) in self.memory { memory[id, default: AccountPanes()].statsScroll = scroll }
    }

    /// The model's ``PerchModel/freshStarts`` when last seen.
    private var freshStarts = 0

    /// Shows the current account's scroll; after the state was set aside, forgets every
    /// account's.
    public mutating func modelChanged(_ kit: Context) -> [Reaction<Never>] {
        guard let context = kit.perch else { return [] }
        if context.freshStarts != freshStarts {
            self = StatsPane()
            freshStarts = context.freshStarts
        }
        show(context.saved.currentAccount ?? "")
        return []
    }

    /// Each account's scroll, for the next run (zeros left out).
    public var memory: [String: Int] {
        var all = scrolls
        all[owner] = list.scroll
        return all.filter { $0.value > 0 && !$0.key.isEmpty }
    }

    /// Shows the scroll the account with this id had when last shown.
    mutating func show(_ id: String) {
        guard id != owner else { return }
        scrolls[owner] = list.scroll
        let scroll = scrolls.removeValue(forKey: id) ?? 0
        list = ListCursor(cursor: scroll, scroll: scroll)
        owner = id
    }

    /// Scrolls by a line, a page or to either end (its keys), or 3 lines a notch of the wheel;
    /// keeps the scroll in the picture when the screen changes.
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Never>] {
        guard let context = kit.perch else { return [] }
        let count = cache.picture(context).lines.count
        let visible = context.layout.listRows
        switch input {
        case .verb(.move(let move)):
            move.scroll(&list, count: count, visible: visible)
        case .scroll(_, let notches):
            list.scroll(by: notches * ListMove.rowsPerScrollNotch, count: count, visible: visible)
        case .relayout:
            // Before the history is read the picture may be short: a kept scroll is not lost.
            if count > 1 { list.clamp(count: count, visible: visible) }
        default: break
        }
        return []
    }

    /// Draws the header and the picture's lines from the scroll into `area`.
    public func render(into frame: inout Frame, in rect: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        let (picture, body) = cache.rows(context, scroll: list.scroll, size: Size(width: rect.width, height: visible))
        frame.screen.header("Stats · time per account", trailing: picture.clockText, in: rect)
        frame.screen.paste(body, column: rect.x, row: rect.y + Layout.paneHeaderRows)
    }

    /// Draws `lines` from the top-left of `block`, a line per row.
    static func draw(_ lines: ArraySlice<[StatsPicture.Segment]>, into block: inout Screen) {
        let width = block.size.width
        for (row, line) in lines.enumerated() {
            for segment in line where segment.column < width {
                let column = segment.column
                let columns = min(segment.width ?? width, width - segment.column)
                // A bar, a chart column or the axis that fits is a fill: the cells `put` would
                // write, without reading the text character by character.
                if let run = segment.run, column >= 0, run.columns <= columns {
                    block.put(run.lead, column: column, row: row, style: segment.style)
                    block.fill(
                        Rect(x: column + run.lead.count, y: row, width: run.count, height: 1), with: run.character, style: segment.style)
                    block.put(run.tail, column: column + run.lead.count + run.count, row: row, style: segment.style)
                } else {
                    block.put(segment.text, column: column, row: row, style: segment.style, width: columns)
                }
            }
        }
    }
}

/// What Stats draws, as lines of text placed at columns: pure, from the history, the wall clock
/// and the pane's width and height.
struct StatsPicture: Sendable {
    struct Segment: Sendable {
        var text: String
        var column: Int
        var style: Style = .plain
        /// Columns the text may take (it is cut with `…`); nil for the rest of the row.
        var width: Int?
        /// The text as a run of one character (a bar, a chart column, the axis), drawn as a fill
        /// where it fits; nil for other text.
        var run: Run? = nil

        /// `lead`, then `character` `count` times, then `tail`, at `column`: each character one
        /// column wide and drawn as it is (block elements and box lines).
        static func run(_ character: Character, _ count: Int, lead: String = "", tail: String = "", column: Int, style: Style) -> Segment {
            Segment(
                text: lead + String(repeating: String(character), count: count) + tail, column: column, style: style,
                run: Run(lead: lead, character: character, count: count, tail: tail))
        }
    }

    /// A segment's text as `lead`, `character` × `count`, `tail`, every character one column wide.
    struct Run: Sendable {
        var lead: String
        var character: Character
        var count: Int
        var tail: String
        /// Columns the text takes.
        var columns: Int { lead.count + count + tail.count }
    }

    private(set) var lines: [[Segment]] = []
    /// The header's right side: the time zone and the local time.
    private(set) var clockText = ""

    /// Most accounts listed per period; the rest are summed on one line.
    static let accountsPerPeriod = 8
    /// Widest bar, in columns.
    static let widestBar = 64
    /// Days of the column chart.
    static let chartDays = 30
    /// Most recent switches listed.
    static let recentCount = 10

    init(_ context: ModelContext) {
        let width = context.layout.pane.width
        let height = context.layout.listRows
        let history = context.history
        let wall = context.wallTime ?? WallTime(seconds: history.events.last?.time ?? 0)
        let now = wall.seconds(at: context.clock)
        let clock = wall.localClock(now)
        clockText = "\(wall.zone) \(wall.offsetText) · \(Self.two(clock.hour)):\(Self.two(clock.minute))"
        guard !history.events.isEmpty else {
            lines = [
                [], [Segment(text: "No switches recorded yet.", column: 3, style: .bold)],
                [
                    Segment(
                        text: "Time per account counts from the first switch: hold the Overview tab, or press a.", column: 3, style: .dim)
                ],
            ]
            return
        }
        let today = wall.startOfDay(now)
        let current = context.saved.currentAccount
        let nameWidth = min(max(8, context.accounts.nameColumns), max(8, width / 4))
        let periods: [(String, Int64)] = [("Today", today), ("Last 7 days", today - 6 * 86_400), ("Last 30 days", today - 29 * 86_400)]
        let spentByPeriod = periods.map { history.timeSpent(from: $0.1, to: now + 1, now: now) }
        let recent = history.events.suffix(Self.recentCount)
        // Names only of the accounts drawn: one pass over the accounts, not a table of all of them.
        var needed = Set(recent.map(\.account))
        for spent in spentByPeriod { needed.formUnion(spent.prefix(Self.accountsPerPeriod).map(\.account)) }
        var names: [String: String] = [:]
        for account in context.accounts.accounts where needed.contains(account.id) && names[account.id] == nil {
            names[account.id] = account.name
            if names.count == needed.count { break }
        }
        for ((title, _), spent) in zip(periods, spentByPeriod) {
            lines.append([])
            let total = spent.reduce(0) { $0 + $1.seconds }
            lines.append([
                Segment(text: title, column: 1, style: .bold),
                Segment(
                    text: "total " + durationText(total), column: max(14, min(width, 3 + nameWidth + 2 + Self.widestBar + 10) - 16),
                    style: .dim),
            ])
            if spent.isEmpty {
                lines.append([Segment(text: "no time recorded", column: 3, style: .dim)])
                continue
            }
            let most = max(1, spent.first?.seconds ?? 1)
            let currentColor = context.currentAccount?.markColor ?? .green
            let barColumn = 3 + nameWidth + 2
            // Bars scale to the pane up to 64 columns: wider ones read no better, and each cell
            // of a bar is one more wide-character cell for the terminal to draw.
            let barWidth = max(1, min(Self.widestBar, width - barColumn - 10))
            for entry in spent.prefix(Self.accountsPerPeriod) {
                let isCurrent = entry.account == current
                let name = names[entry.account] ?? entry.account
                lines.append([
                    Segment(text: isCurrent ? "●" : " ", column: 1, style: isCurrent ? Style(foreground: currentColor) : .plain),
                    Segment(
                        text: DisplayWidth.truncated(name, to: nameWidth), column: 3, style: isCurrent ? .bold : .plain, width: nameWidth),
                    Self.bar(entry.seconds, of: most, width: barWidth, column: barColumn, style: Style(foreground: .cyan)),
                    Segment(text: Self.padded(durationText(entry.seconds), 8), column: barColumn + barWidth + 1),
                ])
            }
            if spent.count > Self.accountsPerPeriod {
                let rest = spent.dropFirst(Self.accountsPerPeriod)
                lines.append([
                    Segment(
                        text: "and \(rest.count) more: " + durationText(rest.reduce(0) { $0 + $1.seconds }), column: 3, style: .dim)
                ])
            }
        }
        appendChart(history, wall: wall, today: today, now: now, width: width, height: height)
        lines.append([])
        lines.append([Segment(text: "Recent switches", column: 1, style: .bold)])
        for event in recent.reversed() {
            let date = wall.localDate(event.time)
            let time = wall.localClock(event.time)
            let stamp = "\(date.year)-\(Self.two(date.month))-\(Self.two(date.day)) \(Self.two(time.hour)):\(Self.two(time.minute))"
            lines.append([
                Segment(text: stamp, column: 3, style: .dim),
                Segment(text: DisplayWidth.truncated(names[event.account] ?? event.account, to: nameWidth), column: 21, width: nameWidth),
                Segment(text: event.sourceText, column: 21 + nameWidth + 2, style: .dim),
            ])
        }
    }

    /// Switches per day over the last 30 days, as columns of `▁`…`█` (in eighths of a row),
    /// with the day's count scaled to the busiest day, and a date axis under them.
    private mutating func appendChart(_ history: SwitchHistory, wall: WallTime, today: Int64, now: Int64, width: Int, height: Int) {
        let days = Self.chartDays
        let starts = (0..<days).map { today - Int64(days - 1 - $0) * 86_400 }
        let counts = history.switchesPerDay(dayStarts: starts, end: now + 1)
        let most = max(1, counts.max() ?? 1)
        let labelWidth = String(most).count + 1
        let left = 1 + labelWidth + 1
        // At most 3 columns a day (a 2-column bar and a gap): wider columns read no better and
        // cost a wide-character cell each.
        let step = max(1, min(3, (width - left - 1) / days))
        let barWidth = step > 1 ? step - 1 : 1
        let rows = max(2, min(8, (height - 8) / 3))
        lines.append([])
        lines.append([
            Segment(text: "Switches per day, last \(days) days", column: 1, style: .bold),
            Segment(text: "total \(counts.reduce(0, +))", column: max(36, min(width, left + days * step + 1) - 16), style: .dim),
        ])
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for band in (0..<rows).reversed() {
            var segments: [Segment] = []
            if band == rows - 1 { segments.append(Segment(text: Self.padded(String(most), labelWidth - 1), column: 1, style: .dim)) }
            if band == 0 { segments.append(Segment(text: Self.padded("0", labelWidth - 1), column: 1, style: .dim)) }
            segments.append(Segment(text: "│", column: left - 1, style: .dim))
            // The gaps between columns are spaces in the columns' style: nothing shows of it,
            // and the terminal is sent one colour for the band instead of one per day.
            segments.append(.run(" ", days * step, column: left, style: Style(foreground: .cyan)))
            for (day, count) in counts.enumerated() where count > 0 {
                let eighths = max(1, Int((Double(count) / Double(most) * Double(rows * 8)).rounded()))
                let filled = eighths - band * 8
                guard filled > 0 else { continue }
                let cell = filled >= 8 ? "█" : levels[filled - 1]
                segments.append(.run(cell, barWidth, column: left + day * step, style: Style(foreground: .cyan)))
            }
            lines.append(segments)
        }
        // The axis: a tick under each labelled day, the label starting there.
        let labelEvery = max(1, (7 + step - 1) / step)
        var axis: [Segment] = [.run("─", days * step, lead: "└", column: left - 1, style: .dim)]
        var labels: [Segment] = []
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var day = (days - 1) % labelEvery
        while day < days {
            let date = wall.localDate(starts[day] + 43_200)
            axis.append(Segment(text: "┴", column: left + day * step, style: .dim))
            labels.append(Segment(text: "\(date.day) \(months[date.month - 1])", column: left + day * step, style: .dim))
            day += labelEvery
        }
        lines.append(axis)
        lines.append(labels)
    }

    /// A horizontal bar of `value` against `most`, `width` columns at most, in eighths of a
    /// column (`▏`…`█`); at least one eighth for a value above 0. A segment at `column` in `style`.
    static func bar(_ value: Int64, of most: Int64, width: Int, column: Int, style: Style) -> Segment {
        let eighths = max(value > 0 ? 1 : 0, Int((Double(value) / Double(max(1, most)) * Double(width * 8)).rounded(.down)))
        let partial: [String] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return .run("█", eighths / 8, tail: partial[eighths % 8], column: column, style: style)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `text` right-aligned in `width` columns.
    static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

/// The last ``StatsPicture`` made and what it was made from, so that a frame of Stats over a
/// long history (10,000 switches) does not add up the history again: the picture is made anew
/// whenever any of its inputs differs (the pane's size, the history, the wall clock, the second
/// now, the current account, the accounts). Copies of a pane share one cache; a cache is no
/// part of the pane's value (every cache equals every other).
///
/// The inputs are compared by value; an unchanged history or account list compares in constant
/// time, as it is the same array storage as the one kept here.
final class StatsPictureCache: Hashable, Sendable {
    private struct Inputs: Equatable {
        var size: Size
        var history: SwitchHistory
        var wallTime: WallTime?
        /// The wall time now, in seconds (a picture counts the current interval to the second).
        var now: Int64
        var current: String?
        var accounts: [Account]
        var nameColumns: Int

        init(_ context: ModelContext) {
            size = context.size
            history = context.history
            wallTime = context.wallTime
            now = (context.wallTime ?? WallTime(seconds: context.history.events.last?.time ?? 0)).seconds(at: context.clock)
            current = context.saved.currentAccount
            accounts = context.accounts.accounts
            nameColumns = context.accounts.nameColumns
        }
    }

    /// The last picture with its inputs, and the cells of its rows last drawn (from line `top`),
    /// so that an unchanged frame copies them.
    private struct Kept {
        var inputs: Inputs
        var picture: StatsPicture
        var body: (top: Int, screen: Screen)?
    }
    private let last = Mutex<Kept?>(nil)

    /// The picture of `context`: the kept one when it was made from the same inputs.
    func picture(_ context: ModelContext) -> StatsPicture { kept(context).picture }

    /// The picture of `context` and its rows from line `scroll` (clamped to the picture) drawn
    /// into a block of `size` (columns × rows): the kept block when the picture, that line and
    /// the size are the same.
    func rows(_ context: ModelContext, scroll: Int, size: Size) -> (picture: StatsPicture, body: Screen) {
        let kept = kept(context)
        let top = min(scroll, max(0, kept.picture.lines.count - size.height))
        if let body = kept.body, body.top == top, body.screen.size == size { return (kept.picture, body.screen) }
        var block = Screen(size: size)
        StatsPane.draw(kept.picture.lines.dropFirst(top).prefix(size.height), into: &block)
        last.withLock { $0?.body = (top, block) }
        return (kept.picture, block)
    }

    private func kept(_ context: ModelContext) -> Kept {
        let inputs = Inputs(context)
        let kept: Kept? = last.withLock { last in
            guard var kept = last, kept.inputs == inputs else { return nil }
            // Equal inputs in other storage (a history read again): keep these, compared at once next time.
            kept.inputs = inputs
            last = kept
            return kept
        }
        if let kept { return kept }
        let made = Kept(inputs: inputs, picture: StatsPicture(context), body: nil)
        last.withLock { $0 = made }
        return made
    }

    static func == (lhs: StatsPictureCache, rhs: StatsPictureCache) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

extension Tab {
    /// Pictures from the switch history.
    public static let stats = Tab(StatsPane.self)
}

extension StatsPane {
    /// What its keys mean: scroll a line, a page, or to the top or the bottom.
    public enum Verb: Hashable, Sendable { case move(ListMove) }

    /// Its keys: the list moves, which scroll here (the list has no cursor).
    public static let keyTable = KeyTable<Verb>(
        "Stats",
        // Bug: help left out the wheel, which scrolls Stats.
        ListMove.rows(Verb.move, scrolling: true) + [.init([], "wheel", "scroll", nil)])
}
