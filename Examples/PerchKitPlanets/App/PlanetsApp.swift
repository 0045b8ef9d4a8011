// The PerchKitPlanets app's panes and model, a library so that tests drive them (PerchKitTesting).

import Glibc
import PerchKit

/// The first tab: the planets in a table; `/` types a filter into a text field above it.
struct PlanetsPane: Pane {
    static let planets: [[String]] = [
        ["Mercury", "0", "0.39"], ["Venus", "0", "0.72"], ["Earth", "1", "1.00"], ["Mars", "2", "1.52"],
        ["Jupiter", "95", "5.20"], ["Saturn", "146", "9.58"], ["Uranus", "28", "19.2"], ["Neptune", "16", "30.1"],
    ]

    var table: Table = {
        var table = Table(
            columns: [
                .init("Planet", .fill), .init("Moons", .fixed(6), alignment: .trailing), .init("AU", .fixed(6), alignment: .trailing),
            ],
            rows: planets)
        // A band in a true colour, both colours given so it reads on a light or a dark terminal:
        // exact where the terminal takes RGB, else the nearest of its 256 (or 16, or 8).
        table.headerStyle = Style(foreground: .white, background: Self.band, bold: true)
        return table
    }()
    /// The header band's colour: night blue, #1F3A5F.
    static let band = Color(RGBColor(0x1F_3A5F))
    var filter = TextField(maximumLength: 32)
    var isFiltering = false

    enum Verb: Hashable, Sendable {
        case move(ListMove)
        case startFilter, stopFilter, clearFilter
        case edit(TextField.Edit)
        case show
    }

    var title: String { "Planets" }
    var keys: KeyTable<Verb> {
        isFiltering
            ? KeyTable(
                "Filter",
                [
                    .init([KeyEvent(.enter)], "Enter", "keep the filter, back to the table", .stopFilter),
                    .init([KeyEvent(.escape)], "Esc", "clear the filter", .clearFilter),
                ]
                    + TextField.rows(Verb.edit) + [
                        // Arrows only: letters are text here.
                        .init([KeyEvent(.up)], "↑", "move up", .move(.up)), .init([KeyEvent(.down)], "↓", "move down", .move(.down)),
                    ],
                takesTyping: true)
            : KeyTable(
                "Planets",
                ListMove.rows(Verb.move, scrolling: false) + [
                    .init([.char("/")], "/", "filter the planets", .startFilter),
                    .init([KeyEvent(.enter)], "Enter", "say how many moons", .show),
                    .init([], "click a row", "select it", nil),
                ]
                    // Bug: a filter kept with Enter could not be cleared with Esc, as --help says.
                    + (filter.text.isEmpty ? [] : [.init([KeyEvent(.escape)], "Esc", "clear the filter", .clearFilter)]))
    }

    /// Rows of the table: below the filter's row and a blank one.
    static func tableArea(_ area: Rect) -> Rect { area.rows([.fixed(1), .fixed(2), .fill])[2].inset(left: 1, right: 1) }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let visible = Table.visibleRows(in: Self.tableArea(paneArea(context)))
        switch input {
        case .verb(.move(let move)): table.move(move, visible: visible)
        case .verb(.startFilter): isFiltering = true
        case .verb(.stopFilter): isFiltering = false
        case .verb(.clearFilter):
            isFiltering = false
            filter.replace(with: "")
            table.setFilter("", visible: visible)
        case .verb(.edit(let edit)):
            if filter.apply(edit) { table.setFilter(filter.text, visible: visible) }
        case .key(let key):
            if keys.typesText(key), case .character(let character) = key.key, filter.insert(String(character)) {
                table.setFilter(filter.text, visible: visible)
            }
        case .paste(let text):
            if isFiltering, filter.insert(text) { table.setFilter(filter.text, visible: visible) }
        case .verb(.show):
            guard let index = table.selected else { return [.banner("No planet is selected.")] }
            let row = table.rows[index]
            return [.banner("\(row[0]) has \(row[1]) known moon\(row[1] == "1" ? "" : "s").")]
        case .tap(let target):
            if case .row(let index)? = target.part(Table.Part.self), let position = table.shown.firstIndex(of: index) {
                table.move(.first, visible: visible)
                for _ in 0..<position { table.move(.down, visible: visible) }
            }
        case .scroll(_, let notches): table.scroll(by: notches * ListMove.rowsPerScrollNotch, visible: visible)
        default: break
        }
        return []
    }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let parts = area.rows([.fixed(1), .fixed(2), .fill])
        frame.screen.header("Planets", trailing: "\(table.shown.count) of \(table.rows.count)", in: parts[0])
        let line = parts[1].inset(left: 1, right: 1)
        let label = frame.screen.put("Filter: ", column: line.x, row: line.y, style: .dim)
        if isFiltering || !filter.text.isEmpty {
            filter.render(into: &frame.screen, column: label, row: line.y, width: line.maxX - label, style: .bold, focused: isFiltering)
        } else {
            frame.screen.put("press / to type one", column: label, row: line.y, style: .dim, width: line.maxX - label)
        }
        table.render(into: &frame, in: Self.tableArea(area), focused: !isFiltering)
    }
}

/// The second tab: notes typed into a field at the bottom and listed above it, newest last.
struct NotesPane: Pane {
    var notes = Table(columns: [.init("Notes", .fill)], rows: [])
    var field = TextField(maximumLength: 80)

    enum Verb: Hashable, Sendable {
        case add
        case move(ListMove)
        case edit(TextField.Edit)
    }

    var title: String { "Notes" }
    var keys: KeyTable<Verb> {
        KeyTable(
            "Notes",
            [
                .init([KeyEvent(.enter)], "Enter", "add the note", .add), .init([KeyEvent(.up)], "↑", "previous note", .move(.up)),
                .init([KeyEvent(.down)], "↓", "next note", .move(.down)),
            ] + TextField.rows(Verb.edit),
            takesTyping: true)
    }

    mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        // Bug: it counted a row more than the list shows, so a note added last was off screen.
        let visible = Table.visibleRows(in: Self.listArea(paneArea(context)))
        switch input {
        case .verb(.add):
            guard !field.text.allSatisfy(\.isWhitespace) else { return [.banner("Type a note first.")] }
            notes.replaceRows(notes.rows + [[field.text]], visible: visible)
            notes.move(.last, visible: visible)
            field.replace(with: "")
        case .verb(.move(let move)): notes.move(move, visible: visible)
        case .verb(.edit(let edit)): field.apply(edit)
        case .key(let key):
            if keys.typesText(key), case .character(let character) = key.key { field.insert(String(character)) }
        case .paste(let text): field.insert(text)
        default: break
        }
        return []
    }

    /// The list's rows: below the header, above the field.
    static func listArea(_ area: Rect) -> Rect { area.rows([.fixed(1), .fill, .fixed(1)], spacing: 1)[1].inset(left: 1, right: 1) }

    func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let parts = area.rows([.fixed(1), .fill, .fixed(1)], spacing: 1)
        frame.screen.header("Notes", trailing: "\(notes.rows.count)", in: parts[0])
        notes.render(into: &frame, in: Self.listArea(area), focused: false)
        let label = frame.screen.put(" New: ", column: parts[2].x, row: parts[2].y, style: .dim)
        field.render(into: &frame.screen, column: label, row: parts[2].y, width: parts[2].maxX - label - 1, style: .bold, focused: true)
    }
}

/// The area a pane is drawn in: the screen above the tab bar (``TabBar/height(screenHeight:)``).
func paneArea(_ context: Context) -> Rect {
    Rect(x: 0, y: 0, width: context.size.width, height: context.size.height - TabBar.height(screenHeight: context.size.height))
}

/// The app as it starts on a terminal of `size`: the Planets and Notes tabs.
public func planetsApp(size: Size) -> TabApp { TabApp(panes: [PlanetsPane(), NotesPane()], size: size) }
