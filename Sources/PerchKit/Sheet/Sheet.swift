/// A bottom sheet over a list: at its fit detent it is as tall as its rows (plus the grabber,
/// the title and a footer), capped to leave 2 rows of the screen above it; at its large detent it
/// takes all but the top row (UISheetPresentationController's detents, in rows). It rises and
/// slides away in 150 ms unless motion is reduced; its grabber drags it between the detents and
/// down to close. `Enter`, or a tap on a row, picks the row: the sheet replies with the row's
/// index (``Reply``) and slides away.
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

        /// A row showing `title`, with an optional dimmed `detail` after it, a one-column `mark`
        /// and a colour `swatch` before it.
        public init(_ title: String, detail: String? = nil, mark: String? = nil, swatch: Color? = nil) {
            self.title = title
            self.detail = detail
            self.mark = mark
            self.swatch = swatch
        }
    }

    /// The title above the rows.
    public var title: String
    /// The rows.
    public var items: [Item]
    /// The row under the cursor and the first row shown.
    public var cursor = ListCursor()
    /// The detent, the drag, the dismissal and the animation.
    public var motion: SheetMotion

    /// A sheet titled `title` over `items`, with the cursor on row `selected`.
    public init(title: String, items: [Item], selected: Int = 0, style: SheetStyle = .edgeToEdge) {
        self.title = title
        self.items = items
        self.motion = SheetMotion(style: style)
        cursor.cursor = max(0, min(selected, items.count - 1))
    }

    /// The index in ``items`` of the row picked.
    public typealias Reply = Int

    /// What the sheet's keys mean.
    public enum Verb: Hashable, Sendable {
        /// Move the cursor (``ListMove``).
        case move(ListMove)
        /// Pick the row under the cursor, or go to the large (`larger`) or fit (`smaller`) detent.
        case pick, larger, smaller
    }

    /// What the sheet marks in the hit map.
    public enum Part: HitPart {
        /// The top edge with the grabber: dragging it resizes the sheet.
        case grabber
        /// The list row at this index.
        case row(Int)
        /// Anywhere else on the sheet.
        case chrome

        /// True for the grabber alone.
        public var acceptsDrag: Bool { self == .grabber }
    }

    /// `↑`/`k`, `↓`/`j`, `PgUp`, `PgDn`, `Home`/`g`, `End`/`G`, `Enter` to pick, `Shift-↑`/`K`
    /// and `Shift-↓`/`J` for the detents; the grabber's drag and `Esc` (the root's) are listed
    /// for help only.
    public var keys: KeyTable<Verb> {
        KeyTable(
            "Sheet",
            ListMove.rows(Verb.move) + [
                .init([KeyEvent(.enter)], "Enter", "pick", .pick),
                .init([KeyEvent(.up, modifiers: .shift), .char("K")], "Shift-↑ K", "larger detent", .larger),
                .init([KeyEvent(.down, modifiers: .shift), .char("J")], "Shift-↓ J", "smaller detent", .smaller),
                .init([], "drag the grabber", "resize; drag down to close", nil),
                .init([KeyEvent(.escape)], "Esc", "close", nil),
            ])
    }

    /// Rows of the list plus none: the count the geometry is fitted to.
    private var rowCount: Int { items.count }

    /// False once it is sliding away.
    public var isActive: Bool { !motion.isClosing }
    /// True while its height animates (rising, changing detent, sliding away).
    public var isAnimating: Bool { motion.animation != nil }

    /// Geometry as drawn now (mid-animation or dragged).
    public func layout(_ context: Context) -> SheetLayout { motion.layout(at: context.clock, context.size) }

    /// Moves the cursor (keys; the wheel, 3 rows a notch), changes the detent, follows a drag of
    /// the grabber, and picks a row (`Enter`, or a tap on it): it then replies with the row's
    /// index and is dismissed. A drag released low enough dismisses it without a reply.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        let visible = motion.restingLayout(rowCount: rowCount, context.size).visibleRows
        switch input {
        case .verb(.pick):
            return items.indices.contains(cursor.cursor) && visible > 0 ? pick(cursor.cursor) : []
        case .verb(.larger): motion.detent = .large
        case .verb(.smaller): motion.detent = .fit
        case .verb(.move(let move)): move.apply(to: &cursor, count: rowCount, visible: visible)
        case .tap(let target):
            if case .row(let index)? = target.part(Part.self), items.indices.contains(index) { return pick(index) }
        case .scroll(_, let notches):
            cursor.move(by: notches * ListMove.rowsPerScrollNotch, count: rowCount, visible: visible)
        case .drag(_, let position):
            motion.dragTop = max(1, min(position.row, context.size.height - 1))
        case .dragEnded(_, let position):
            if !motion.endDrag(at: position.row, rowCount: rowCount, context.size) { return [.dismiss] }
        case .relayout:
            cursor.clamp(count: rowCount, visible: visible)
        case .key, .paste, .longPress:
            break
        }
        return []
    }

    /// Replies with row `index` and slides away.
    private mutating func pick(_ index: Int) -> [Reaction<Never>] {
        cursor.cursor = index
        return [Self.reply(index), .dismiss]
    }

    /// Slides away (``SheetMotion/close()``), or goes at once when motion is reduced.
    public mutating func beginDismissal(_ context: Context) -> Bool {
        guard !context.reduceMotion else { return false }
        motion.close()
        return true
    }

    /// Moves its height animation on (``SheetMotion/advance(rowCount:_:clock:reduceMotion:)``);
    /// false once it has slid away.
    public mutating func advance(_ context: Context) -> Bool {
        motion.advance(rowCount: rowCount, context.size, clock: context.clock, reduceMotion: context.reduceMotion)
    }

    /// Draws it at the bottom of the screen at its height now: the chrome and grabber, the title
    /// with the count of items, the visible rows (the cursor's in ``Style/selected``), and a
    /// footer of keys when there is room. Marks the grabber, the rows and the chrome (no row
    /// while it slides away). `area` is not read: a sheet is laid out on the whole screen.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        let layout = layout(context)
        guard layout.height > 0 else { return }
        let columns = motion.drawChrome(
            layout, into: &frame, screenWidth: context.size.width, chrome: .hit(Part.chrome), grabber: .hit(Part.grabber))
        guard layout.height >= 2 else { return }
        let left = columns.lowerBound
        let width = columns.count
        frame.screen.header(
            title, trailing: "\(items.count) item\(items.count == 1 ? "" : "s")",
            in: Rect(x: left, y: layout.top + 1, width: width, height: 1))
        let box = layout.frame
        for offset in 0..<max(0, layout.visibleRows) {
            let index = cursor.scroll + offset
            let row = layout.firstRow + offset
            guard index < items.count, row < box.maxY - 1 else { break }
            let item = items[index]
            let selected = index == cursor.cursor && !motion.isClosing
            let style = selected ? Style.selected : Style.plain
            let rowRect = Rect(x: left, y: row, width: width, height: 1)
            if !motion.isClosing { frame.hits.mark(rowRect, .hit(Part.row(index))) }
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
        if layout.height >= SheetLayout.chromeRows {
            frame.screen.put(" ↑↓ move · Enter pick · Esc close ", column: left, row: box.maxY - 1, style: .dim, width: width)
        }
    }
}
