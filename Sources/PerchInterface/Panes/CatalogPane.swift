import PerchDomain
import PerchKit
import Synchronization

/// The Catalog pane: the current account's items and the list cursor.
///
/// Where the items come from, per account (``CatalogCommands``):
/// - `catalog.command`: what it printed last (kept per account while Perch runs, so switching
///   back shows it at once); while it runs the header shows a spinner and how long it has run,
///   and `r` runs it again;
/// - the embedded sample accounts: their harmless sample entries;
/// - otherwise: the account's config fields (``CatalogItem/configFields(of:)``, the one place
///   where tool identities will replace them).
///
/// Each account keeps its cursor, scroll and pins (``CatalogMemory``) across switches, and
/// across runs through the state file; deletions last for the run.
///
/// A PerchKit ``Pane`` of Perch's own (``PerchPane``): it reads the
/// current account through the app's model (``ModelContext``); it asks for its own jobs (a
/// source run, a preview, `catalog.open`, a removal from the config) and presents its own layers
/// (the ``ContextMenu``, the ``Cover``), whose outcomes and replies come back as its ``Message``.
public struct CatalogPane: PerchPane {
    /// The cursor and scroll offset over ``items``.
    public internal(set) var list = ListCursor()
    /// The current account's items, pinned ones first.
    public private(set) var items: [CatalogItem] = []
    /// Pins and deletions of each account's Catalog, by account id ("" for no account).
    public private(set) var edits: [String: CatalogEdits] = [:]
    /// Where each account's source stands, by account id (absent: never run).
    public private(set) var loads: [String: CatalogLoad] = [:]
    /// The current account's item previews, by item id.
    public private(set) var previews: [String: CatalogPreview] = [:]
    /// The last good list of each account with a source command.
    private var fetched: [String: [CatalogItem]] = [:]
    /// Cursors of the accounts not shown now.
    private var cursors: [String: ListCursor] = [:]
    /// The account whose items are listed ("" for none).
    public private(set) var owner = ""
    /// Its Catalog commands.
    private var commands: CatalogCommands?
    /// The rows last drawn, shared by copies of the pane and no part of its value.
    var rowsCache = CatalogRowsCache()

    /// The mark before a pinned item's title, in its row and its preview.
    public static let pinMark = "★"
    /// Time between two frames of the spinner, in milliseconds.
    public static let spinnerFrameMilliseconds: Int64 = 100
    static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public init() {}

    /// Seeds what was kept from the previous run: each account's cursor, scroll and pins.
    public init(memory: [String: CatalogMemory]) {
        for (id, kept) in memory {
            cursors[id] = ListCursor(cursor: max(0, kept.cursor), scroll: max(0, kept.scroll))
            var edit = CatalogEdits()
            edit.pinned = kept.pinned
            edits[id] = edit
        }
    }

    /// Seeds what was kept from the previous run (``AccountPanes/catalog``).
    public init(kept: [String: AccountPanes]) { self.init(memory: kept.compactMapValues(\.catalog)) }

    /// Adds each account's cursor, scroll and pins (``memory``).
    public func remember(into memory: inout [String: AccountPanes]) {
        for (id, kept) in self.memory { memory[id, default: AccountPanes()].catalog = kept }
    }

    /// The model's ``PerchModel/configReads`` and ``PerchModel/freshStarts`` when last seen.
    private var seenConfigReads = 0
    private var seenFreshStarts = 0

    /// Lists the current account's items. After the state was set aside it forgets every
    /// account's view; after the config was read again (the accounts' commands may have
    /// changed) each source runs again when next shown, its last list shown meanwhile.
    public mutating func modelChanged(_ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        if context.freshStarts != seenFreshStarts { self = CatalogPane() }
        if context.configReads != seenConfigReads { forgetLoads() }
        (seenConfigReads, seenFreshStarts) = (context.configReads, context.freshStarts)
        load(for: context.currentAccount, visible: context.layout.listRows)
        return []
    }

    /// Runs the current account's source when it never ran.
    public mutating func due(_ kit: Context) -> [Reaction<Message>] {
        guard needsFirstLoad, let context = kit.perch, let account = context.currentAccount,
            let command = startLoading(at: context.clock)
        else { return [] }
        return [Self.run(LoadCatalog(accountID: account.id, command: command))]
    }

    /// The spinner's next frame while the source runs.
    public func nextDeadline(clock: Int64) -> Int64? { isLoading ? clock + Self.spinnerFrameMilliseconds : nil }

    /// What to keep of each account's Catalog for the next run (accounts with nothing to keep are left out).
    public var memory: [String: CatalogMemory] {
        var result: [String: CatalogMemory] = [:]
        var all = cursors
        all[owner] = list
        for id in Set(all.keys).union(edits.keys) where !id.isEmpty {
            let cursor = all[id] ?? ListCursor()
            let pinned = edits[id]?.pinned ?? []
            if cursor == ListCursor(), pinned.isEmpty { continue }
            result[id] = CatalogMemory(cursor: cursor.cursor, scroll: cursor.scroll, pinned: pinned)
        }
        return result
    }

    /// Whether the current account's source is running.
    public var isLoading: Bool { if case .loading = loads[owner] { true } else { false } }

    /// Whether the current account lists what a command prints.
    var hasCommand: Bool { commands?.command != nil }

    /// Whether the current account's list is not there yet (its source has not succeeded once):
    /// its kept cursor is then left as it is rather than clamped to an empty list.
    private var awaitingFirstList: Bool { hasCommand && fetched[owner] == nil }

    /// Lists `account`'s items (its edits applied), with the cursor it had when last shown.
    mutating func load(for account: Account?, visible: Int) {
        let key = account?.id ?? ""
        if key != owner {
            cursors[owner] = list
            list = cursors.removeValue(forKey: key) ?? ListCursor()
            previews = [:]
        }
        owner = key
        commands = account?.catalog
        rebuild(account)
        clampList(visible: visible)
    }

    /// The items of `account` before its edits.
    private func baseItems(_ account: Account?) -> [CatalogItem] {
        guard let account else { return [] }
        if account.catalog?.samples == true { return CatalogItem.samples(for: account) }
        if account.catalog?.command != nil { return fetched[account.id] ?? [] }
        return CatalogItem.configFields(of: account)
    }

    private mutating func rebuild(_ account: Account?) {
        let base = baseItems(account)
        items = edits[owner].map { $0.applied(to: base) } ?? base
    }

    private mutating func clampList(visible: Int) {
        if awaitingFirstList, items.isEmpty { return }
        list.clamp(count: items.count, visible: visible)
    }

    /// Marks the current account's source as running from `time`; returns its command, or nil
    /// when it has none or it is running already.
    mutating func startLoading(at time: Int64) -> String? {
        guard let command = commands?.command, !isLoading else { return nil }
        loads[owner] = .loading(since: time)
        return command
    }

    /// Forgets how each source last ran (the config changed): each runs again when next shown,
    /// its last list shown meanwhile.
    mutating func forgetLoads() { loads = loads.filter { if case .loading = $0.value { true } else { false } } }

    /// Whether the current account's source has never been run.
    var needsFirstLoad: Bool { hasCommand && loads[owner] == nil }

    /// Takes in a list from `accountID`'s source; the current account's items are listed anew,
    /// the cursor kept where it was (clamped).
    mutating func loaded(_ newItems: [CatalogItem], skipped: Int, accountID: String, account: Account?, visible: Int) {
        fetched[accountID] = newItems
        loads[accountID] = .loaded(skipped: skipped)
        if accountID == owner {
            rebuild(account)
            clampList(visible: visible)
        }
    }

    /// Takes in a failed run of `accountID`'s source (its last good list stays).
    mutating func failed(_ reason: String, accountID: String) {
        loads[accountID] = .failed(reason)
    }

    /// Marks the preview of the item with this id as running; a preview already shown stays
    /// until the new one arrives (no flicker when the cover opens from the card).
    mutating func startPreview(_ id: String) { if previews[id] == nil { previews[id] = .loading } }

    /// Takes in a preview of one of `accountID`'s items.
    mutating func previewed(_ preview: CatalogPreview, itemID: String, accountID: String) {
        if accountID == owner { previews[itemID] = preview }
    }

    /// Whether the item with this id is pinned.
    public func isPinned(_ id: String) -> Bool { edits[owner]?.pinned.contains(id) ?? false }

    /// The index in ``items`` of the item with this id (the cursor's item is tried first, so a
    /// context menu over 100,000 items finds its own at once).
    public func index(of id: String) -> Int? {
        if items.indices.contains(list.cursor), items[list.cursor].id == id { return list.cursor }
        return items.firstIndex { $0.id == id }
    }

    /// The item with this id, if listed.
    public func item(_ id: String) -> CatalogItem? { index(of: id).map { items[$0] } }

    /// Screen row of the item at `index` as the pane draws it now (off the pane when scrolled away).
    public func screenRow(of index: Int, _ context: ModelContext) -> Int {
        context.layout.pane.y + Layout.paneHeaderRows + index - list.scroll
    }

    /// Pins, unpins or deletes an item of the current account; the cursor follows a pinned item.
    mutating func apply(_ change: CatalogChange, visible: Int, account: Account?) {
        var edit = edits[owner] ?? CatalogEdits()
        switch change {
        case .togglePin(let id):
            if let at = edit.pinned.firstIndex(of: id) { edit.pinned.remove(at: at) } else { edit.pinned.insert(id, at: 0) }
            edits[owner] = edit
            load(for: account, visible: visible)
            list.moveTo(index(of: id) ?? 0, count: items.count, visible: visible)
        case .delete(let id):
            edit.deleted.insert(id)
            edit.pinned.removeAll { $0 == id }
            edits[owner] = edit
            load(for: account, visible: visible)
            list.clamp(count: items.count, visible: visible)
        }
    }

    /// Moves the cursor (keys, the wheel, a tap), opens the item under it (`Enter`, a tap on the
    /// cursor's row), opens its context menu (`m`, a hold of `Enter` or of the row), runs the
    /// source again (`r`).
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        let visible = context.layout.listRows
        switch input {
        case .verb(.menu):
            return openContextMenu(at: list.cursor, context)
        case .longPress(let target) where target.catalogRow != nil:
            // A row held: its menu, with the cursor on it.
            return openContextMenu(at: target.catalogRow ?? 0, context)
        case .verb(.refresh):
            // Bug: `r` said nothing on a Catalog with no command to run.
            guard let account = context.currentAccount else { return [.banner(ModelContext.noAccountYet)] }
            guard hasCommand else {
                let whose = context.info.usesSampleAccounts ? "The sample accounts' Catalog" : "\(account.name)'s Catalog"
                return [.banner("\(whose) has no command to run again (catalog.command in the config).")]
            }
            guard let command = startLoading(at: context.clock) else { return [] }
            return [Self.run(LoadCatalog(accountID: account.id, command: command))]
        case .verb(.open):
            // Enter, a tap on a list: opens the item (a hold opens its menu: the table's `hold Enter`).
            return items.indices.contains(list.cursor) ? open(items[list.cursor].id, context) : []
        case .tap(let target) where target.catalogRow.map { $0 == list.cursor && items.indices.contains($0) } == true:
            let index = list.cursor
            // A click on the row already under the cursor (the second click of a double click too) opens it.
            return open(items[index].id, context)
        case .verb(.move(let move)):
            move.apply(to: &list, count: items.count, visible: visible)
        case .tap(let target) where target.catalogRow != nil:
            let index = target.catalogRow ?? 0
            list.moveTo(index, count: items.count, visible: visible)
        case .scroll(_, let notches):
            list.scroll(by: notches * ListMove.rowsPerScrollNotch, count: items.count, visible: visible)
        case .relayout:
            clampList(visible: visible)
        default: break
        }
        return []
    }

    /// The header's right-hand side: the spinner and how long the source has run, a failure,
    /// or the cursor's position.
    func status(_ context: ModelContext) -> String {
        let position = items.isEmpty ? "empty" : "\(list.cursor + 1)/\(items.count)"
        switch loads[owner] {
        case .loading(let since)?:
            let elapsed = max(0, context.clock - since)
            let frame = Self.spinnerFrames[Int((elapsed / Self.spinnerFrameMilliseconds) % Int64(Self.spinnerFrames.count))]
            return "\(frame) loading \(elapsed / 1000) s" + (items.isEmpty ? "" : " · " + position)
        case .failed?:
            return "load failed · r retry" + (items.isEmpty ? "" : " · " + position)
        case .loaded(let skipped)? where skipped > 0:
            return "\(skipped) unreadable · " + position
        default:
            return position
        }
    }

    /// Draws the header with its status, then the items from the scroll, into `rect`.
    public func render(into frame: inout Frame, in rect: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        let ownerName = context.currentAccount?.name ?? "no account"
        frame.screen.header("Catalog · \(ownerName)", trailing: status(context), in: rect)
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        if items.isEmpty {
            renderEmpty(into: &frame, context, rows: visible)
            return
        }
        // Only rows with an item are drawn; the rest of the pane stays as it is.
        let rows = min(visible, max(0, items.count - list.scroll))
        for offset in 0..<rows {
            frame.hits.mark(
                Rect(x: rect.x, y: rect.y + Layout.paneHeaderRows + offset, width: rect.width, height: 1), .catalogRow(list.scroll + offset)
            )
        }
        let pinned = edits[owner]?.pinned ?? []
        let body = rowsCache.rows(items: items, pinned: pinned, list: list, size: Size(width: rect.width, height: rows)) { block in
            Self.drawRows(items, pinned: pinned, list: list, into: &block)
        }
        frame.screen.paste(body, column: rect.x, row: rect.y + Layout.paneHeaderRows)
    }

    /// The rows of `items` from `list`'s scroll into `block` (one row an item, as wide as the
    /// pane): the cursor's gutter, the number, the title (after ``pinMark`` when pinned) and the
    /// detail, dim.
    private static func drawRows(_ items: [CatalogItem], pinned: [String], list: ListCursor, into block: inout Screen) {
        let width = block.size.width
        let numberWidth = String(items.count).count
        for row in 0..<block.size.height {
            let index = list.scroll + row
            guard items.indices.contains(index) else { break }
            let item = items[index]
            let isCursor = index == list.cursor
            let numberText = String(index + 1)
            let number = String(repeating: " ", count: numberWidth - numberText.count) + numberText
            // The cursor is the gutter in reverse video: a move changes 3 cells per row, not the rows.
            var x = block.put(isCursor ? " ▸ " : "   ", column: 0, row: row, style: isCursor ? .selected : .plain)
            x = block.put(number + "  ", column: x, row: row, style: .dim)
            let titleWidth = min(item.detail.isEmpty ? width : max(24, (width - x) / 2), max(0, width - x))
            let title = pinned.contains(item.id) ? pinMark + " " + item.title : item.title
            block.put(DisplayWidth.truncated(title, to: titleWidth), column: x, row: row)
            x += titleWidth + 1
            if x < width, !item.detail.isEmpty {
                block.put(DisplayWidth.truncated(item.detail, to: width - x), column: x, row: row, style: .dim)
            }
        }
    }

    /// The pane without items: what the source is doing, its failure (the end of its stderr,
    /// sanitised by the screen), or that it printed nothing.
    private func renderEmpty(into frame: inout Frame, _ context: ModelContext, rows: Int) {
        let rect = context.layout.pane
        var lines: [(String, Style)]
        switch loads[owner] {
        case .loading?: lines = [("Running the catalog command…", .plain)]
        case .failed(let reason)?:
            lines = [("The catalog command failed:", Style(foreground: .red, bold: true))]
            lines += reason.split(separator: "\n").suffix(max(0, rows - 3)).map { (String($0).replacingTabs(), Style.plain) }
            lines.append(("r runs it again.", .dim))
        default:
            lines = [(context.currentAccount == nil ? "No account yet: switch to one to see its Catalog." : "Nothing to list.", .dim)]
            // Bug: with every item deleted, the pane said the command had printed nothing.
            if edits[owner]?.deleted.isEmpty == false, !baseItems(context.currentAccount).isEmpty {
                lines.append(("Every item is deleted for this session (Delete… in the context menu).", .dim))
            } else if hasCommand {
                lines.append(("The catalog command printed nothing. r runs it again.", .dim))
            }
        }
        let width = max(0, rect.width - 6)
        for (offset, (text, style)) in lines.prefix(rows).enumerated() {
            frame.screen.put(
                DisplayWidth.truncated(text, to: width), column: rect.x + 3, row: rect.y + Layout.paneHeaderRows + offset, style: style)
        }
    }
}

// MARK: Its layers

/// What a layer over the Catalog sees of it (a context menu, a cover), through
/// ``ModelContext/catalog``: its items, their pins and previews, and where a row is drawn. It is
/// read-only: a layer changes the Catalog only by replying to it (``ContextMenuChoice``).
public protocol CatalogListing: Sendable {
    /// The current account's items, pinned first.
    var items: [CatalogItem] { get }
    /// Each item's preview, by item id, once asked for.
    var previews: [String: CatalogPreview] { get }
    /// Index in ``items`` of the item with this id, or nil.
    func index(of id: String) -> Int?
    /// The item with this id, or nil.
    func item(_ id: String) -> CatalogItem?
    /// Whether the item with this id is pinned.
    func isPinned(_ id: String) -> Bool
    /// Screen row (0-based) the item at `index` is drawn on, for a layer anchored to it.
    func screenRow(of index: Int, _ context: ModelContext) -> Int
}

extension CatalogPane: CatalogListing {}

/// What the layers see of the Catalog when no pane lists one: nothing.
struct EmptyCatalogListing: CatalogListing {
    var items: [CatalogItem] { [] }
    var previews: [String: CatalogPreview] { [:] }
    func index(of id: String) -> Int? { nil }
    func item(_ id: String) -> CatalogItem? { nil }
    func isPinned(_ id: String) -> Bool { false }
    func screenRow(of index: Int, _ context: ModelContext) -> Int { 0 }
}

/// What a Catalog item's context menu replies to the Catalog that presented it
/// (``Reaction/reply(_:)``), its alert's confirmation included.
public enum ContextMenuChoice: Hashable, Sendable {
    /// Open the item (its `catalog.open`, else a full-screen cover).
    case open(id: String)
    /// Pin the item to the top, or unpin it.
    case togglePin(id: String)
    /// Carry out what the menu's Delete alert confirmed.
    case confirmed(AlertAction)
}

extension CatalogPane {
    /// Opens the context menu of the item at `index`, with the cursor on it, and runs the
    /// account's preview command for its card; nothing when the index is not an item.
    mutating func openContextMenu(at index: Int, _ context: ModelContext) -> [Reaction<Message>] {
        guard items.indices.contains(index) else { return [] }
        list.moveTo(index, count: items.count, visible: context.layout.listRows)
        return [.present(ContextMenu(itemID: items[index].id), onReply: Message.menu)] + preview(items[index], context)
    }

    /// Opens the item with this id: the account's `catalog.open` runs on the terminal when it
    /// has one, else the item is shown in a full-screen cover (and previewed).
    mutating func open(_ id: String, _ context: ModelContext) -> [Reaction<Message>] {
        guard let item = item(id) else { return [] }
        guard let account = context.currentAccount, let command = account.catalog?.open else {
            return [.present(Cover.item(item, scroll: 0))] + preview(item, context)
        }
        return [Self.run(OpenCatalogItem(accountID: account.id, command: command, item: item))]
    }

    /// Runs the current account's `catalog.preview` for `item`, when it has one.
    private mutating func preview(_ item: CatalogItem, _ context: ModelContext) -> [Reaction<Message>] {
        guard let account = context.currentAccount, let command = account.catalog?.preview else { return [] }
        startPreview(item.id)
        return [Self.run(PreviewCatalogItem(accountID: account.id, command: command, item: item))]
    }

    /// What its menu (and the menu's alert) replied: open, pin or unpin, delete the item, or
    /// remove it from the config (``DeleteFromConfig``, whose outcome comes back here).
    mutating func take(_ choice: ContextMenuChoice, _ context: ModelContext) -> [Reaction<Message>] {
        let visible = context.layout.listRows
        switch choice {
        case .open(let id): return open(id, context)
        case .togglePin(let id):
            apply(.togglePin(id: id), visible: visible, account: context.currentAccount)
            return [.perch(.keepPaneMemory)]
        case .confirmed(.deleteItem(let id)):
            apply(.delete(id: id), visible: visible, account: context.currentAccount)
            return []
        case .confirmed(.deleteFromConfig(let id, let path)):
            return [Self.run(DeleteFromConfig(accountID: id, path: path))]
        }
    }
}

// MARK: Outcomes

extension CatalogPane {
    /// What comes back of its jobs and its context menu.
    public enum Message: Sendable {
        /// What its context menu chose.
        case menu(ContextMenuChoice)
        /// A source run ended.
        case loaded(CatalogLoaded)
        /// A preview arrived.
        case previewed(CatalogPreviewed)
        /// `catalog.open` ended.
        case opened(CatalogItemOpened)
        /// A removal from the config ended.
        case removed(ConfigDeletion)
    }

    /// `job`, its outcome coming back as this pane's message.
    static func run(_ job: LoadCatalog) -> Reaction<Message> { .perform(job, then: Message.loaded) }
    static func run(_ job: PreviewCatalogItem) -> Reaction<Message> { .perform(job, then: Message.previewed) }
    static func run(_ job: OpenCatalogItem) -> Reaction<Message> { .perform(job, then: Message.opened) }
    static func run(_ job: DeleteFromConfig) -> Reaction<Message> { .perform(job, then: Message.removed) }

    /// Takes what came back of what it asked, as a Bubble Tea model gets back its command's
    /// message: its menu's choice, a list or a failure of its source, a preview, a failed
    /// `catalog.open`, a removal from the config (the accounts written, or why not).
    public mutating func receive(_ message: Message, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        switch message {
        case .menu(let choice):
            return take(choice, context)
        case .loaded(.loaded(let id, let items, let skipped)):
            loaded(items, skipped: skipped, accountID: id, account: context.currentAccount, visible: context.layout.listRows)
        case .loaded(.failed(let id, let reason)):
            failed(reason, accountID: id)
            // With a list kept from before, the pane shows the list; the banner says why it is old.
            if id == owner, !items.isEmpty {
                let last = reason.split(separator: "\n").last.map(String.init) ?? reason
                return [.banner("The catalog command of \(context.displayName(of: id)) failed (the last list is shown): \(last)")]
            }
        case .previewed(let previewed):
            self.previewed(previewed.preview, itemID: previewed.itemID, accountID: previewed.accountID)
        case .opened(let opened):
            if let failure = opened.failure { return [.banner("catalog.open for \(context.displayName(of: opened.accountID)) \(failure)")] }
        case .removed(let deletion):
            let (id, path, accounts, configPath, backup, problem) = (
                deletion.accountID, deletion.path, deletion.accounts, deletion.configPath, deletion.backupPath, deletion.problem
            )
            let what = path.isEmpty ? context.displayName(of: id) : "\(path.joined(separator: ".")) of \(context.displayName(of: id))"
            guard let accounts else {
                return [.banner("Could not remove \(what) from the config: \(problem ?? "it could not be written")", stays: true)]
            }
            return [
                .perch(.replaceAccounts(accounts, configPath: configPath)),
                .banner(
                    "Removed \(what) from \(configPath)" + (backup.map { " (previous file kept as \($0))." } ?? ".")
                        + (problem.map { " But " + $0 + "." } ?? ""), stays: problem != nil),
            ]
        }
        return []
    }
}

/// The Catalog's rows last drawn and what they were drawn from, so that a frame that draws the
/// same rows again (a tab switch back to the Catalog, each frame of the sheet rising over it or
/// of a context menu on it) copies their cells instead of laying out 57 rows of text at 200×60.
/// The rows are drawn anew whenever any input differs: the items, the pins, the cursor or
/// scroll, the size. Copies of a pane share one cache; every cache equals every other.
///
/// An unchanged item list compares in constant time: it is the same array storage as the one kept.
final class CatalogRowsCache: Hashable, Sendable {
    private struct Kept {
        var items: [CatalogItem]
        var pinned: [String]
        var list: ListCursor
        var block: Screen
    }
    private let last = Mutex<Kept?>(nil)

    /// The rows drawn by `draw` into a blank block of `size` (columns × rows): the kept block
    /// when `items`, `pinned`, `list` and `size` are those it was drawn from.
    func rows(items: [CatalogItem], pinned: [String], list: ListCursor, size: Size, draw: (inout Screen) -> Void) -> Screen {
        let kept: Screen? = last.withLock { last in
            guard var kept = last, kept.block.size == size, kept.list == list, kept.pinned == pinned, kept.items == items else {
                return nil
            }
            // Equal items in other storage (a list loaded again): keep these, compared at once next time.
            kept.items = items
            last = kept
            return kept.block
        }
        if let kept { return kept }
        var block = Screen(size: size)
        draw(&block)
        last.withLock { $0 = Kept(items: items, pinned: pinned, list: list, block: block) }
        return block
    }

    static func == (lhs: CatalogRowsCache, rhs: CatalogRowsCache) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

extension CatalogPane {
    /// What the Catalog marks in the hit map: a row of its list, by item index. Holding one opens
    /// the item's context menu.
    public struct Row: HitPart {
        /// Index of the item.
        public var index: Int
        public var acceptsLongPress: Bool { true }
    }
}

extension HitTarget {
    /// A row of the Catalog list, by item index; holding it opens the item's context menu.
    public static func catalogRow(_ index: Int) -> HitTarget { .hit(CatalogPane.Row(index: index)) }
    /// The Catalog row here, by item index.
    public var catalogRow: Int? { part(CatalogPane.Row.self)?.index }
}

extension Tab {
    /// The current account's items.
    public static let catalog = Tab(CatalogPane.self)
}

extension CatalogPane {
    /// What its keys mean: move the cursor, open the item, its context menu, run the source.
    public enum Verb: Hashable, Sendable {
        case move(ListMove)
        case open, menu, refresh
    }

    /// Its own keys (help lists them first on this pane).
    public static let keyTable = KeyTable<Verb>(
        "Catalog",
        ListMove.rows(Verb.move) + [
            .init([KeyEvent(.enter)], "Enter", "open the item full-screen", .open),
            .init([], "click a row, wheel", "move the cursor, scroll", nil),
            .init([], "click the cursor's row", "open it (or double-click)", nil),
            .init(
                [.char("m"), KeyEvent(.menu), KeyEvent(.function(10), modifiers: .shift)], "m Menu Shift-F10", "context menu of the item",
                .menu),
            .init([], "press and hold a row", "its context menu", nil),
            .init([.char("r")], "r", "run the catalog command again", .refresh),
        ],
        holds: [.init(KeyEvent(.enter), "hold Enter", "context menu (with key releases)", .menu)])
}
