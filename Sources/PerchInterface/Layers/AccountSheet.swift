import PerchDomain
import PerchKit

/// A row of the account sheet's list: a group heading, or an account by its index in
/// the accounts (``AccountsIndex``).
public enum SheetRow: Hashable, Sendable {
    case heading(String)
    case account(Int)
    /// The `Add account…` row, last in the list.
    case addAccount
}

/// The account sheet: PerchKit's sheet list (``SheetList``: the cursor stepping over group
/// headings, the filter typed after `/`, the detents, the drag and the motion) over Perch's
/// account rows, presented by Perch's model and driven alone by the inline picker
/// (``AccountPicker``). What is Perch's own: the rows, read from the accounts through the app's
/// model (``ModelContext``, `context.perch`) and built only where shown; the filter's matcher
/// (the model's fuzzy search); how an account row is drawn (the current account's mark, name
/// and handle columns, the letters matched); the `Add account…` row; the accessible mode's row
/// numbers; and what it asks Perch's root by message (``PerchModel/Message``: a switch, the
/// form, the search text). Its keys change while the filter is typed (``keys``: ``keyTable``,
/// ``filterKeyTable``).
public struct AccountSheet: Layer, Hashable {
    /// PerchKit's list: the cursor over ``rows`` (or over all accounts when ``rows`` is nil), the
    /// filter, and how it moves.
    public var list = SheetList()
    /// Cursor over ``rows`` (or over all accounts when ``rows`` is nil).
    public var cursor: ListCursor {
        get { list.cursor }
        set { list.cursor = newValue }
    }
    /// The filter typed after `/`, or nil when there is none.
    public var filter: String? {
        get { list.filter }
        set { list.filter = newValue }
    }
    /// Whether keys go to the filter.
    public var isEditingFilter: Bool {
        get { list.isEditingFilter }
        set { list.isEditingFilter = newValue }
    }
    /// The rows shown when they are not simply every account in order: groups or a filter.
    /// Nil means row `i` is account `i` (built in constant time, whatever the number of accounts).
    public var rows: [SheetRow]?
    /// The accounts a non-empty filter matched, by index in config order (ascending), else nil:
    /// the accounts of ``rows`` when it lists a filter's matches. Typing on searches only these.
    public var filterMatches: [Int32]?
    /// How it moves (PerchKit's ``SheetMotion``): detent, drag, dismissal, animation.
    public var motion: SheetMotion {
        get { list.motion }
        set { list.motion = newValue }
    }
    /// The detent it rests at.
    public var detent: SheetDetent {
        get { motion.detent }
        set { motion.detent = newValue }
    }
    /// Screen row of the grabber while it is dragged with the pointer.
    public var dragTop: Int? {
        get { motion.dragTop }
        set { motion.dragTop = newValue }
    }
    /// Set once dismissed: the sheet slides down, taking no input, and is removed at the end.
    public var isClosing: Bool {
        get { motion.isClosing }
        set { motion.isClosing = newValue }
    }
    /// The height last aimed at, in rows; a new target starts an ``animation`` from where it is.
    public var target: Int {
        get { motion.target }
        set { motion.target = newValue }
    }
    /// The animation of its height under way, or nil at rest.
    public var animation: HeightAnimation? { motion.animation }
    /// Whether the last row is `Add account…` (not in the inline picker, which has no form).
    /// While the accounts are being read (``AccountsIndex/isLoading``), that row says so instead.
    public var offersAddAccount = true
    /// The row number typed so far in the accessible mode (``typeNumber(_:_:_:)``); empty when none.
    var typedNumber = ""
    /// Whether the last number typed had no row: `Enter` then picks nothing, and says so.
    var missedNumber = false

    /// What the sheet shows while the config is still being read: no account can be picked.
    public static let loadingText = "loading…"

    /// A sheet over every account, its cursor on the first row, at the fit detent, not yet risen.
    public init() {}

    /// Number of rows in the list, headings and the `Add account…` row (when offered) included.
    public func rowCount(accounts: Int) -> Int { (rows?.count ?? accounts) + (offersAddAccount ? 1 : 0) }

    /// The row at `index`, which must be below ``rowCount(accounts:)``: the last is the
    /// `Add account…` row when it is offered.
    public func row(_ index: Int, accounts: Int) -> SheetRow {
        index < listedCount(accounts: accounts) ? rows?[index] ?? .account(index) : .addAccount
    }

    /// Number of rows that are accounts or headings (every row but `Add account…`).
    public func listedCount(accounts: Int) -> Int { rows?.count ?? accounts }

    /// The rows as PerchKit's list sees them, over `accounts` accounts: every one takes the
    /// cursor but a group heading.
    struct Rows: SheetRows {
        let rows: [SheetRow]?
        let count: Int

        func takesCursor(_ index: Int) -> Bool {
            guard let rows, index < rows.count, case .heading = rows[index] else { return true }
            return false
        }
    }

    /// Its rows over `context`'s accounts.
    func sheetRows(_ context: ModelContext) -> Rows {
        Rows(rows: rows, count: rowCount(accounts: context.accounts.offeredCount))
    }
}

// MARK: Geometry and animation

extension AccountSheet {
    /// How long a sheet's rise, fall or change of height takes, in milliseconds.
    public static let animationMilliseconds = SheetMotion.animationMilliseconds
    /// Time between animation frames, in milliseconds (about 60 per second).
    public static let animationFrameMilliseconds = SheetMotion.animationFrameMilliseconds

    /// The motion with the sheet style of `context` (a Settings switch, read when drawn).
    private func motion(_ context: ModelContext) -> SheetMotion {
        var styled = motion
        styled.style = context.sheetStyle
        return styled
    }

    /// Height in rows the sheet is headed for: 0 once dismissed, the pointer's row while
    /// dragged, otherwise its detent's height.
    func targetHeight(_ context: ModelContext) -> Int {
        motion.targetHeight(rowCount: rowCount(accounts: context.accounts.offeredCount), context.size)
    }

    /// The height in rows the sheet is drawn at for the clock: on its way from where an
    /// animation started to its target, with an ease-out curve, or at its target.
    func displayedHeight(_ context: ModelContext) -> Int { motion.displayedHeight(at: context.clock) }

    /// Geometry as drawn now (mid-animation or dragged).
    func layout(_ context: ModelContext) -> SheetLayout { motion(context).layout(at: context.clock, context.size) }

    /// The layout the sheet rests at when its animation ends; cursor moves use it.
    func restingLayout(_ context: ModelContext) -> SheetLayout {
        motion(context).restingLayout(rowCount: rowCount(accounts: context.accounts.offeredCount), context.size)
    }

    /// After every event: a target height that changed starts animating from where the sheet is
    /// drawn now (at once with reduced motion or while dragged); a finished animation ends.
    /// Returns false once a dismissed sheet has slid away (the root removes it).
    public mutating func advance(_ kit: Context) -> Bool {
        let offered = kit.perch?.accounts.offeredCount ?? 0
        return list.advance(Rows(rows: rows, count: rowCount(accounts: offered)), kit)
    }

    /// Whether it is moving to a new height (the loop sends animation frames meanwhile).
    public var isAnimating: Bool { animation != nil }

    /// A sheet sliding away after its dismissal takes no input.
    public var isActive: Bool { !isClosing }

    /// Slides away (true), unless motion is reduced: then it goes at once (false).
    public mutating func beginDismissal(_ kit: Context) -> Bool { list.beginDismissal(kit) }

    /// Puts the cursor on row `index` (clamped), stepping on in `direction` (+1 or −1) past
    /// group headings, or back the other way at the end of the list.
    mutating func moveCursor(to index: Int, direction: Int, _ context: ModelContext) {
        list.moveCursor(to: index, direction: direction, rows: sheetRows(context), context.size)
    }

    /// Clamps the cursor after the size or the rows changed.
    mutating func clamp(_ context: ModelContext) { list.clamp(sheetRows(context), context.size) }
}

// MARK: Update

extension AccountSheet {

    /// Moves the cursor (keys, the wheel a row a notch), changes the detent, follows a drag of
    /// the grabber (let go low enough, it asks to be dismissed), types and clears the filter,
    /// and picks: an account row asks Perch's root for the switch (``PerchModel/Message/pick(accountIndex:)``),
    /// the `Add account…` row (or `+`) for the form over it. Starting the filter asks the root to
    /// build the accounts' search text (``PerchModel/Message/prepareSearch``); `q` quits. Without Perch's
    /// model in `kit` it does nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        if context.info.accessible, !isEditingFilter, let model = kit.model(PerchModel.self) {
            // Bug: Enter after a number with no row picked the row the cursor was still on.
            if case .verb(.pick) = input, missedNumber {
                missedNumber = false
                let rows = model.sheetSummary(self).rows.count
                return [.announce("No row chosen: type a number from 1 to \(rows), or move with ↑ ↓, then Enter.")]
            }
            if case .key(let key) = input, let said = typeNumber(key, model, context) { return said }
            if case .verb = input { (typedNumber, missedNumber) = ("", false) }
        }
        switch input {
        case .verb(.close): return [.dismiss]
        case .verb(.quit): return [.quit]
        case .verb(.pick):
            guard restingLayout(context).visibleRows > 0, !context.accounts.isLoading else { return [] }
            switch row(cursor.cursor, accounts: context.accounts.offeredCount) {
            case .account(let index): return [.perch(.pick(accountIndex: index))]
            case .addAccount: return [.present(AccountForm(name: filter ?? ""))]
            case .heading: return []
            }
        case .verb(.addAccount):
            return [.present(AccountForm(name: filter ?? ""))]
        case .verb(.startFilter):
            list.startFilter()
            return [.perch(.prepareSearch)]
        case .verb(.clearFilter):
            // The cursor stays on the account it was on (bug: it went back to the first row).
            let selected = row(cursor.cursor, accounts: context.accounts.offeredCount)
            list.clearFilter()
            refilter(context)
            if case .account(let index) = selected, let row = rows?.firstIndex(of: .account(index)) ?? (rows == nil ? index : nil) {
                moveCursor(to: row, direction: 1, context)
            }
        case .verb(.deleteBackward):
            list.deleteBackward()
            refilter(context)
        case .verb(.larger): list.setDetent(.large, rows: sheetRows(context), context.size)
        case .verb(.smaller): list.setDetent(.fit, rows: sheetRows(context), context.size)
        case .verb(.move(let move)):
            // Group headings are stepped over, on in the move's direction.
            list.move(move, rows: sheetRows(context), context.size)
        case .key(let key):
            // Typed text while the filter is typed (a key its rows do not bind); any other key
            // the sheet does not bind means nothing.
            guard isEditingFilter, keys.typesText(key), case .character(let character) = key.key else { return [] }
            type(String(character), context)
        case .paste(let text):
            type(text, context)
            return [.perch(.prepareSearch)]
        case .tap(let target):
            if let index = target.part(Part.self)?.accountIndex { return [.perch(.pick(accountIndex: index))] }
            if target == .sheetAddAccount, !context.accounts.isLoading { return [.present(AccountForm(name: filter ?? ""))] }
        case .scroll(_, let notches):
            list.scroll(byNotches: notches, rows: sheetRows(context), context.size)
        case .drag(.sheetGrabber, let position):
            list.drag(toRow: position.row, context.size)
        case .dragEnded(.sheetGrabber, let position):
            guard list.endDrag(atRow: position.row, rows: sheetRows(context), context.size) else { return [.dismiss] }
        case .relayout:
            clamp(context)
        case .drag, .dragEnded, .longPress:
            break
        }
        return []
    }

    /// What Perch's model tells the sheet it presented.
    public enum Message: Hashable, Sendable {
        /// Show the account with this id (one just added), its cursor on it.
        case reveal(id: String)
        /// The whole config arrived after a first frame drawn from the cache: the rows are
        /// every account now, the filter applied, the cursor on the current account.
        case accountsArrived
    }

    /// Shows an account, or the accounts that arrived.
    public mutating func receive(_ message: Message, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        switch message {
        case .reveal(let id):
            if let index = context.accounts.accounts.firstIndex(where: { $0.id == id }) { reveal(accountAt: index, context) }
        case .accountsArrived:
            filterMatches = nil
            refilter(context)
            if filter?.isEmpty ?? true, let current = context.currentIndex {
                moveCursor(to: rows?.firstIndex(of: .account(current)) ?? current, direction: 1, context)
            }
        }
        return []
    }

    /// The accessible mode's row numbers: a digit adds to the number typed and puts the cursor
    /// on the row of that number (headings not counted; when the number grown so has no row,
    /// the digit alone starts a new one), so that `Enter` picks it; `Backspace` takes a digit
    /// back. A number with no row is said, and moves nothing. Nil for any other key, which ends
    /// the number.
    mutating func typeNumber(_ key: KeyEvent, _ model: PerchModel, _ context: ModelContext) -> [Reaction<Message>]? {
        guard key.modifiers.isEmpty else {
            typedNumber = ""
            return nil
        }
        switch key.key {
        case .character(let c) where c.isASCII && c.isWholeNumber:
            var typed = typedNumber + String(c)
            if Int(typed).flatMap({ model.sheetRow(numbered: $0, in: self) }) == nil { typed = String(c) }
            guard let number = Int(typed), let row = model.sheetRow(numbered: number, in: self) else {
                typedNumber = ""
                missedNumber = true
                return [.announce("No row \(c): the list has \(model.sheetSummary(self).rows.count).")]
            }
            (typedNumber, missedNumber) = (typed, false)
            let before = cursor.cursor
            moveCursor(to: row, direction: 1, context)
            // Already there: nothing changes, so nothing would be said.
            if row == before { return [.announce(PerchModel.cursorLine(model.sheetSummary(self)))] }
            return []
        case .backspace where !typedNumber.isEmpty:
            typedNumber.removeLast()
            return []
        default:
            (typedNumber, missedNumber) = ("", false)
            return nil
        }
    }

    /// Shows the account at `index` (one just added): the filter cleared, the rows grouped
    /// anew from `context`'s accounts, the cursor on it.
    mutating func reveal(accountAt index: Int, _ context: ModelContext) {
        filter = nil
        isEditingFilter = false
        rows = context.accounts.groupedRows
        filterMatches = nil
        moveCursor(to: rows?.firstIndex(of: .account(index)) ?? index, direction: 1, context)
    }

    /// Types `text` into the filter (``SheetList/type(_:)``) and narrows the rows to it.
    private mutating func type(_ text: String, _ context: ModelContext) {
        let previous = list.type(text)
        refilter(context, narrowingFrom: previous)
    }

    /// Rebuilds the rows from the filter (``AccountsIndex/rows(matching:narrowingFrom:among:)``),
    /// searching only the previous matches when the filter grew from `previous`, and puts the
    /// cursor on the first.
    mutating func refilter(_ context: ModelContext, narrowingFrom previous: String? = nil) {
        (rows, filterMatches) = context.accounts.rows(matching: filter, narrowingFrom: previous, among: filterMatches)
        moveCursor(to: 0, direction: 1, context)
    }
}

// MARK: Render

extension AccountSheet {
    /// Draws the sheet at the height it has now (rising, falling, dragged or at rest) and marks
    /// its grabber, rows and chrome; a sheet sliding away swallows the pointer where it is drawn.
    /// `area` is not read: a sheet is laid out on the whole screen. Without Perch's model in
    /// `kit` it draws nothing.
    public func render(into frame: inout Frame, in area: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        render(into: &frame, context)
    }

    /// Draws the sheet over `context`'s accounts.
    func render(into frame: inout Frame, _ context: ModelContext) {
        let layout = layout(context)
        guard layout.height > 0 else { return }
        let box = layout.frame
        // Content sits inside the side borders of an inset sheet.
        let columns = motion(context).drawChrome(
            layout, into: &frame, screenWidth: context.size.width, chrome: .sheetChrome, grabber: .sheetGrabber)
        let left = columns.lowerBound
        let width = columns.count
        guard layout.height >= 2 else { return }
        let accounts = context.accounts.accounts
        let offered = context.accounts.offeredCount
        let count = rowCount(accounts: offered)
        let titleRect = Rect(x: left, y: layout.top + 1, width: width, height: 1)
        if context.accounts.isLoading {
            list.drawTitle("Switch account", trailing: Self.loadingText, into: &frame.screen, in: titleRect)
        } else if let filter {
            // An empty filter shows the grouped list: its heading rows are not matches.
            let matches = filter.isEmpty ? offered : listedCount(accounts: offered)
            let trailing = "\(matches) of \(offered)"
            list.drawTitle("Switch account", trailing: trailing, into: &frame.screen, in: titleRect)
        } else {
            list.drawTitle("Switch account", trailing: "\(offered) account\(offered == 1 ? "" : "s")", into: &frame.screen, in: titleRect)
        }
        let nameWidth = Self.nameWidth(width, names: context.accounts.nameColumns, handles: context.accounts.handleColumns)
        // The filter's letters are marked where they matched, in the name or the handle, whichever scored better.
        let pattern = filter.flatMap { $0.isEmpty ? nil : FuzzyPattern($0) }
        // Only the visible rows are built, so a sheet over 100,000 accounts costs what one over 4 does.
        for offset in 0..<min(layout.visibleRows, layout.height - SheetLayout.chromeRows + 1) {
            let index = cursor.scroll + offset
            guard index < count else { break }
            let row = layout.firstRow + offset
            guard row < box.maxY - (layout.height >= SheetLayout.chromeRows ? 1 : 0) else { break }
            let rowRect = Rect(x: box.x, y: row, width: box.width, height: 1)
            switch self.row(index, accounts: offered) {
            case .heading(let group):
                frame.screen.put(" " + group, column: left, row: row, style: Style(bold: true, dim: true), width: width)
            case .addAccount where context.accounts.isLoading:
                // The one row of a sheet whose accounts have not arrived: nothing to pick or add yet.
                frame.screen.put("   " + Self.loadingText, column: left, row: row, style: .dim, width: width)
            case .addAccount:
                if !isClosing { frame.hits.mark(rowRect, .sheetAddAccount) }
                let isCursor = index == cursor.cursor
                let x = frame.screen.put("   ", column: left, row: row, style: isCursor ? .selected : .plain)
                frame.screen.put(
                    "+ " + SettingsAction.addAccount.title, column: x, row: row, style: Style(foreground: .cyan), width: left + width - x)
            case .account(let accountIndex):
                if !isClosing { frame.hits.mark(rowRect, .sheetRow(accountIndex)) }
                let account = accounts[accountIndex]
                let isCursor = index == cursor.cursor
                let isCurrent = account.id == context.saved.currentAccount
                // The cursor is the gutter in reverse video: a move changes 3 cells per row, not the rows.
                var x = frame.screen.put(
                    isCurrent ? " ● " : "   ", column: left, row: row,
                    style: isCursor ? .selected : isCurrent ? Style(foreground: account.markColor) : .plain)
                let marks = pattern.map { Self.matchedCharacters($0, account) } ?? (name: [], handle: [])
                // A name cut where another one starts alike is cut in its middle, so their ends tell them apart.
                let shownName =
                    DisplayWidth.fits(account.name, in: nameWidth)
                    ? account.name
                    : context.accounts.sharesShownPrefix(accountIndex, columns: nameWidth - 1)
                        ? DisplayWidth.truncatedMiddle(account.name, to: nameWidth) : DisplayWidth.truncated(account.name, to: nameWidth)
                frame.screen.put(
                    shownName, column: x, row: row, width: left + width - x,
                    marking: Self.shownMarks(marks.name, of: account.name, as: shownName),
                    with: .filterMatch)
                x += nameWidth + 2
                if let handle = account.handle, x < left + width {
                    frame.screen.put(
                        DisplayWidth.truncated(handle, to: left + width - x), column: x, row: row, style: .dim, marking: marks.handle,
                        with: .filterMatch)
                }
            }
        }
        guard layout.height >= SheetLayout.chromeRows else { return }
        let footerRow = box.maxY - 1
        var footer =
            isEditingFilter ? " type to filter · Enter switch · Esc clear" : " ↑↓ move · Enter switch · / filter · ? help · Esc close"
        if layout.visibleRows < count, layout.visibleRows > 0 {
            // Bug: the range counted the list's rows, headings and `Add account…` included
            // (`1–19 of 2003` under `2000 accounts`). It counts the accounts shown, of those listed.
            let listed = listedCount(accounts: offered)
            let grouped = filter?.isEmpty ?? true
            var shown: (first: Int, last: Int)?
            for index in cursor.scroll..<min(listed, cursor.scroll + layout.visibleRows) {
                guard case .account = self.row(index, accounts: offered) else { continue }
                let place = grouped ? context.accounts.accountPlace(ofGroupedRow: index) : index + 1
                shown = (shown?.first ?? place, place)
            }
            if let shown { footer += " · \(shown.first)–\(shown.last) of \(grouped ? offered : listed)" }
        }
        frame.screen.put(footer + " ", column: left, row: footerRow, style: .dim, width: width)
    }

    /// Columns of the name column in a sheet `width` columns wide (inside its border) whose
    /// widest name takes `names` columns and widest handle `handles` (0: no handle): every
    /// name whole when the handles still fit beside it, else at least half of what is left
    /// beside the 3-column gutter; never under 12.
    static func nameWidth(_ width: Int, names: Int, handles: Int) -> Int {
        let available = width - 3
        let besideHandles = available - (handles > 0 ? handles + 2 : 0)
        return max(12, min(names, max(available / 2, besideHandles)))
    }

    /// `marks` (indices of grapheme clusters in `name`) moved to where they are in `shown`,
    /// `name` cut at its end or in its middle with one `…`; a mark on a hidden cluster is
    /// dropped, and the `…` is never marked.
    static func shownMarks(_ marks: [Int], of name: String, as shown: String) -> [Int] {
        guard !marks.isEmpty, shown != name else { return marks }
        // The clusters shown before the `…` are the name's first ones (a `…` in the name itself
        // is not taken for the cut).
        let head = zip(name, shown).prefix { $0 == $1 }.count
        let tail = max(0, shown.count - head - 1)
        let tailStart = name.count - tail
        return marks.compactMap { index in
            index < head ? index : index >= tailStart ? index - tailStart + head + 1 : nil
        }
    }

    /// The characters of `account`'s name and handle that `pattern` matched (indices of grapheme
    /// clusters): those of the better-scoring text, the name on a tie; none where neither matches.
    static func matchedCharacters(_ pattern: FuzzyPattern, _ account: Account) -> (name: [Int], handle: [Int]) {
        let name = FuzzyMatcher.match(pattern, in: account.name)
        let handle = account.handle.flatMap { FuzzyMatcher.match(pattern, in: $0) }
        if let handle, handle.score > name?.score ?? -1 { return ([], handle.characters) }
        return (name?.characters ?? [], [])
    }
}

extension AccountSheet {
    /// What the sheet's keys mean.
    public enum Verb: Hashable, Sendable {
        /// Close the sheet, quit, or pick the row under the cursor (an account, or the form).
        case close, quit, pick
        /// Move a row or a page, or go to the first or last row.
        case move(ListMove)
        /// Start typing a filter, clear it (and stop typing it), delete its last character.
        case startFilter, clearFilter, deleteBackward
        /// Open the `Add account…` form.
        case addAccount
        /// Go to the large (`larger`) or fit (`smaller`) detent.
        case larger, smaller
    }

    /// The filter's keys while it is typed (``filterKeyTable``), else the sheet's (``keyTable``).
    public var keys: KeyTable<Verb> { isEditingFilter ? Self.filterKeyTable : Self.keyTable }

    /// The sheet's keys, in the order help lists them (Perch adds `?`, help over it).
    public static let keyTable = KeyTable<Verb>(
        "Account sheet",
        [
            .init([KeyEvent(.escape)], "Esc", "close the sheet", .close),
            .init([], "click above the sheet", "close it", nil),
            .init([KeyEvent(.enter)], "Enter", "switch to the account", .pick),
            .init([], "click an account", "switch to it", nil),
        ] + ListMove.rows(Verb.move) + [
            // Bug: help left out the wheel, which moves the cursor.
            .init([], "wheel", "move the cursor", nil),
            .init([.char("/")], "/", "filter by name or handle", .startFilter),
            .init([.char("+")], "+", "add an account (or the last row)", .addAccount),
            .init([KeyEvent(.up, modifiers: .shift), .char("K")], "Shift-↑ K", "larger detent", .larger),
            .init([KeyEvent(.down, modifiers: .shift), .char("J")], "Shift-↓ J", "smaller detent", .smaller),
            .init([], "drag the grabber", "resize; drag down to close", nil),
            // Bug: `q` did nothing with the sheet up (and after `Add account…` the sheet is up).
            .init([.char("q")], "q", "quit", .quit),
        ])

    /// The sheet's keys while its filter is typed: printable keys it does not bind go to the
    /// filter (Perch adds `F1`, help over it).
    public static let filterKeyTable = SheetList.filterKeyTable(
        picks: "switch to the account", pick: Verb.pick, clear: .clearFilter, deleteBackward: .deleteBackward, move: Verb.move)
}

extension AccountSheet {
    /// The sheet's parts under the pointer.
    public enum Part: LayerPart {
        /// An account row, by account index.
        case row(Int)
        /// The `Add account…` row, last in the list.
        case addAccount
        /// The title, group headings or footer.
        case chrome
        /// The top edge with the grabber (drag indicator): dragging it resizes the sheet.
        case grabber

        public var acceptsDrag: Bool { self == .grabber }

        /// The account index of an account row, else nil.
        public var accountIndex: Int? { if case .row(let index) = self { index } else { nil } }
    }
}

extension HitTarget {
    /// An account row of the account sheet, by account index.
    public static func sheetRow(_ index: Int) -> HitTarget { .layer(AccountSheet.Part.row(index)) }
    /// The account sheet's `Add account…` row.
    public static let sheetAddAccount = HitTarget.layer(AccountSheet.Part.addAccount)
    /// The sheet's title, group headings or footer.
    public static let sheetChrome = HitTarget.layer(AccountSheet.Part.chrome)
    /// The sheet's grabber.
    public static let sheetGrabber = HitTarget.layer(AccountSheet.Part.grabber)
}
