/// A bottom sheet over a list: at its fit detent it is as tall as its rows (plus the grabber,
/// the title and a footer), capped to leave 2 rows of the screen above it; at its large detent it
/// takes all but the top row (UISheetPresentationController's detents, in rows). It rises and
/// slides away in 150 ms unless motion is reduced; its grabber drags it between the detents and
/// down to close. `Enter`, or a tap on a row, picks the row: the sheet replies with the item's
/// index (``Reply``) and slides away.
///
/// Items may be group headings (``Item/heading(_:)``), which the cursor steps over. A
/// filterable sheet (`filterable: true`) narrows its items to those whose title or detail holds
/// what is typed after `/`, ignoring case (headings hide meanwhile); `Esc` then clears the
/// filter, and a second `Esc` closes. Its cursor, filter and motion are PerchKit's
/// ``SheetList``, which a sheet with rows of its own holds too.
public struct Sheet: Layer {
    /// One row of the list.
    public struct Item: Hashable, Sendable {
        /// The row's text.
        public var title: String
        /// Dimmed text after the title, or nil.
        public var detail: String?
        /// A mark drawn before the title (`✓`), or nil.
        public var mark: String?
        /// The swatch's colour, drawn as a two-column block before the title, or nil.
        public var swatch: Color?
        /// Whether it is a group heading: drawn bold and dim, never under the cursor or picked.
        public var isHeading = false

        /// A row showing `title`, with an optional dimmed `detail` after it, a one-column `mark`
        /// and a colour `swatch` before it.
        public init(_ title: String, detail: String? = nil, mark: String? = nil, swatch: Color? = nil) {
            self.title = title
            self.detail = detail
            self.mark = mark
            self.swatch = swatch
        }

        /// A group heading titled `title`: the items after it, up to the next heading, are its.
        public static func heading(_ title: String) -> Item {
            var item = Item(title)
            item.isHeading = true
            return item
        }
    }

    /// The title above the rows.
    public var title: String
    /// The rows.
    public var items: [Item] {
        didSet { refilter() }
    }
    /// Whether `/` starts a filter.
    public var isFilterable: Bool
    /// The cursor (over ``shown``), the filter and the motion.
    public var list: SheetList
    /// Indices in ``items`` of the rows shown, in order: every item, or the filter's matches.
    public private(set) var shown: [Int]

    /// The row under the cursor (an index in ``shown``) and the first row shown.
    public var cursor: ListCursor {
        get { list.cursor }
        set { list.cursor = newValue }
    }
    /// The detent, the drag, the dismissal and the animation.
    public var motion: SheetMotion {
        get { list.motion }
        set { list.motion = newValue }
    }

    /// A sheet titled `title` over `items`, with the cursor on item `selected` (or the first
    /// item after it that is not a heading); `filterable` lets `/` narrow the items.
    public init(title: String, items: [Item], selected: Int = 0, style: SheetStyle = .edgeToEdge, filterable: Bool = false) {
        self.title = title
        self.items = items
        self.isFilterable = filterable
        self.list = SheetList(motion: SheetMotion(style: style))
        self.shown = Array(items.indices)
        var index = max(0, min(selected, items.count - 1))
        while index < items.count - 1, items[index].isHeading { index += 1 }
        list.cursor.cursor = index
    }

    /// The index in ``items`` of the row picked.
    public typealias Reply = Int

    /// What the sheet's keys mean.
    public enum Verb: Hashable, Sendable {
        /// Move the cursor (``ListMove``).
        case move(ListMove)
        /// Pick the row under the cursor, or go to the large (`larger`) or fit (`smaller`) detent.
        case pick, larger, smaller
        /// Start typing a filter, clear it, or delete its last character.
        case startFilter, clearFilter, deleteBackward
    }

    /// What the sheet marks in the hit map.
    public enum Part: HitPart {
        /// The top edge with the grabber: dragging it resizes the sheet.
        case grabber
        /// The list row of this item (its index in ``Sheet/items``).
        case row(Int)
        /// Anywhere else on the sheet.
        case chrome

        /// True for the grabber alone.
        public var acceptsDrag: Bool { self == .grabber }
    }

    /// `↑`/`k`, `↓`/`j`, `PgUp`, `PgDn`, `Home`/`g`, `End`/`G`, `Enter` to pick, `/` to filter
    /// (when filterable), `Shift-↑`/`K` and `Shift-↓`/`J` for the detents; the grabber's drag and
    /// `Esc` (the root's) are listed for help only. While the filter is typed: `Esc` clears it,
    /// `↑`/`↓`, `PgUp`, `PgDn`, `Home`, `End` move, `Backspace` deletes, other printable keys type.
    public var keys: KeyTable<Verb> { list.isEditingFilter ? Self.filterKeys : isFilterable ? Self.filterableKeys : Self.plainKeys }

    private static let plainKeys = KeyTable<Verb>("Sheet", ListMove.rows(Verb.move) + commonRows)

    private static let filterableKeys = KeyTable<Verb>(
        "Sheet", ListMove.rows(Verb.move) + [.init([.char("/")], "/", "filter by title", .startFilter)] + commonRows)

    private static let commonRows: [KeyTable<Verb>.Row] = [
        .init([KeyEvent(.enter)], "Enter", "pick", .pick),
        .init([KeyEvent(.up, modifiers: .shift), .char("K")], "Shift-↑ K", "larger detent", .larger),
        .init([KeyEvent(.down, modifiers: .shift), .char("J")], "Shift-↓ J", "smaller detent", .smaller),
        .init([], "drag the grabber", "resize; drag down to close", nil),
        .init([KeyEvent(.escape)], "Esc", "close", nil),
    ]

    private static let filterKeys = SheetList.filterKeyTable(
        picks: "pick", pick: Verb.pick, clear: .clearFilter, deleteBackward: .deleteBackward, move: Verb.move)

    /// The shown rows as the list sees them: headings take no cursor.
    private struct Rows: SheetRows {
        let items: [Item]
        let shown: [Int]
        var count: Int { shown.count }
        func takesCursor(_ index: Int) -> Bool { !items[shown[index]].isHeading }
    }

    private var rows: Rows { Rows(items: items, shown: shown) }

    /// ``shown`` again for the filter: every item without one, else the items (not headings)
    /// whose title or detail holds it, ignoring case.
    private mutating func refilter() {
        let needle = (list.filter ?? "").lowercased()
        shown =
            needle.isEmpty
            ? Array(items.indices)
            : items.indices.filter { index in
                let item = items[index]
                return !item.isHeading && (item.title.lowercased().contains(needle) || item.detail?.lowercased().contains(needle) == true)
            }
    }

    /// False once it is sliding away.
    public var isActive: Bool { !motion.isClosing }
    /// True while its height animates (rising, changing detent, sliding away).
    public var isAnimating: Bool { motion.animation != nil }

    /// Geometry as drawn now (mid-animation or dragged).
    public func layout(_ context: Context) -> SheetLayout { motion.layout(at: context.clock, context.size) }

    /// Moves the cursor (keys; the wheel, a row a notch), stepping over headings, changes the
    /// detent, follows a drag of the grabber, types and clears the filter, and picks a row
    /// (`Enter`, or a tap on it): it then replies with the item's index and is dismissed. A drag
    /// released low enough dismisses it without a reply.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let rows = self.rows
        switch input {
        case .verb(.pick):
            guard shown.indices.contains(cursor.cursor), rows.takesCursor(cursor.cursor),
                list.restingLayout(rows, context.size).visibleRows > 0
            else { return [] }
            return pick(shown[cursor.cursor])
        case .verb(.larger): list.setDetent(.large, rows: rows, context.size)
        case .verb(.smaller): list.setDetent(.fit, rows: rows, context.size)
        case .verb(.move(let move)): list.move(move, rows: rows, context.size)
        case .verb(.startFilter):
            guard isFilterable else { return [] }
            list.startFilter()
        case .verb(.clearFilter):
            // The cursor stays on the item it was on (bug: it went back to the first row).
            let selected = shown.indices.contains(cursor.cursor) ? shown[cursor.cursor] : nil
            refiltered(context) { $0.clearFilter() }
            if let selected, let row = shown.firstIndex(of: selected) {
                list.moveCursor(to: row, direction: 1, rows: self.rows, context.size)
            }
        case .verb(.deleteBackward): refiltered(context) { $0.deleteBackward() }
        case .key(let key):
            guard list.isEditingFilter, keys.typesText(key), case .character(let character) = key.key else { return [] }
            refiltered(context) { $0.type(String(character)) }
        case .paste(let text):
            guard isFilterable else { return [] }
            refiltered(context) { $0.type(text) }
        case .tap(let target):
            if case .row(let index)? = target.part(Part.self), items.indices.contains(index), !items[index].isHeading {
                return pick(index)
            }
        case .scroll(_, let notches): list.scroll(byNotches: notches, rows: rows, context.size)
        case .drag(_, let position):
            list.drag(toRow: position.row, context.size)
        case .dragEnded(_, let position):
            if !list.endDrag(atRow: position.row, rows: rows, context.size) { return [.dismiss] }
        case .relayout:
            list.clamp(rows, context.size)
        case .longPress:
            break
        }
        return []
    }

    /// Changes the filter with `change`, shows its matches and puts the cursor on the first.
    private mutating func refiltered(_ context: Context, _ change: (inout SheetList) -> Void) {
        change(&list)
        refilter()
        list.moveCursor(to: 0, direction: 1, rows: rows, context.size)
    }

    /// Replies with item `index` and slides away.
    private mutating func pick(_ index: Int) -> [Reaction<Never>] {
        if let row = shown.firstIndex(of: index) { cursor.cursor = row }
        return [Self.reply(index), .dismiss]
    }

    /// Slides away (``SheetMotion/close()``), or goes at once when motion is reduced.
    public mutating func beginDismissal(_ context: Context) -> Bool { list.beginDismissal(context) }

    /// Moves its height animation on (``SheetMotion/advance(rowCount:_:clock:reduceMotion:)``);
    /// false once it has slid away.
    public mutating func advance(_ context: Context) -> Bool { list.advance(rows, context) }

    /// Draws it at the bottom of the screen at its height now: the chrome and grabber, the title
    /// (or the filter) with the count of items, the visible rows (the cursor's in
    /// ``Style/selected``, headings bold and dim), and a footer of keys when there is room. Marks
    /// the grabber, the rows and the chrome (no row while it slides away). `area` is not read: a
    /// sheet is laid out on the whole screen.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let layout = layout(context)
        guard layout.height > 0 else { return }
        let columns = motion.drawChrome(
            layout, into: &frame, screenWidth: context.size.width, chrome: .hit(Part.chrome), grabber: .hit(Part.grabber))
        guard layout.height >= 2 else { return }
        let left = columns.lowerBound
        let width = columns.count
        let itemCount = items.count { !$0.isHeading }
        let trailing =
            list.filter?.isEmpty == false ? "\(shown.count) of \(itemCount)" : "\(itemCount) item\(itemCount == 1 ? "" : "s")"
        list.drawTitle(title, trailing: trailing, into: &frame.screen, in: Rect(x: left, y: layout.top + 1, width: width, height: 1))
        let box = layout.frame
        for offset in 0..<max(0, layout.visibleRows) {
            let index = cursor.scroll + offset
            let row = layout.firstRow + offset
            guard index < shown.count, row < box.maxY - 1 else { break }
            let item = items[shown[index]]
            let rowRect = Rect(x: left, y: row, width: width, height: 1)
            if item.isHeading {
                frame.screen.put(" " + item.title, column: left, row: row, style: Style(bold: true, dim: true), width: width)
                continue
            }
            let selected = index == cursor.cursor && !motion.isClosing
            let style = selected ? Style.selected : Style.plain
            if !motion.isClosing { frame.hits.mark(rowRect, .hit(Part.row(shown[index]))) }
            frame.screen.fill(rowRect, style: style)
            var x = left + 1
            frame.screen.put(item.mark ?? " ", column: x, row: row, style: style, width: 1)
            x += 2
            if let swatch = item.swatch {
                frame.screen.put("██", column: x, row: row, style: Style(foreground: swatch), width: 2)
                x += 3
            }
            frame.screen.put(item.title, column: x, row: row, style: style, width: max(0, left + width - x))
            x += DisplayWidth.columns(of: item.title) + 2
            if let detail = item.detail, x < left + width {
                frame.screen.put(detail, column: x, row: row, style: selected ? style : .dim, width: left + width - x)
            }
        }
        if shown.isEmpty, layout.visibleRows > 0, layout.firstRow < box.maxY - 1 {
            frame.screen.put("   No match", column: left, row: layout.firstRow, style: .dim, width: width)
        }
        if layout.height >= SheetLayout.chromeRows {
            let footer =
                list.isEditingFilter
                ? " type to filter · Enter pick · Esc clear "
                : isFilterable ? " ↑↓ move · Enter pick · / filter · Esc close " : " ↑↓ move · Enter pick · Esc close "
            frame.screen.put(footer, column: left, row: box.maxY - 1, style: .dim, width: width)
        }
    }
}
