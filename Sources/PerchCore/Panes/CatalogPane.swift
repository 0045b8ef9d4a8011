/// The Catalog pane: the current account's items (its pins and deletions applied) and the list
/// cursor. Each account's edits are kept for the run; a switch starts the list at the top.
public struct CatalogPane: ScreenModel, Hashable, Sendable {
    /// The cursor and scroll offset over ``items``.
    public internal(set) var list = ListCursor()
    /// The current account's items, pinned ones first.
    public private(set) var items: [CatalogItem] = []
    /// Pins and deletions made in each account's Catalog during this run, by account id ("" for
    /// no account).
    public private(set) var edits: [String: CatalogEdits] = [:]
    /// The account whose items are listed ("" for none).
    private var owner = ""

    /// The mark before a pinned item's title, in its row and its preview.
    public static let pinMark = "★"

    public init() {}

    /// Lists `account`'s items (its edits applied), from the top when the account changed.
    mutating func load(for account: Account?) {
        let key = account?.id ?? ""
        if key != owner { list = ListCursor() }
        owner = key
        let samples = CatalogItem.samples(for: account)
        items = edits[key].map { $0.applied(to: samples) } ?? samples
    }

    /// Whether the item with this id is pinned.
    public func isPinned(_ id: String) -> Bool { edits[owner]?.pinned.contains(id) ?? false }

    /// The index in ``items`` of the item with this id.
    public func index(of id: String) -> Int? { items.firstIndex { $0.id == id } }

    /// The item with this id, if listed.
    public func item(_ id: String) -> CatalogItem? { items.first { $0.id == id } }

    /// Screen row of the item at `index` as the pane draws it now (off the pane when scrolled away).
    func screenRow(of index: Int, _ context: ModelContext) -> Int {
        context.layout.pane.y + Layout.paneHeaderRows + index - list.scroll
    }

    /// Pins, unpins or deletes an item of the current account; the cursor follows a pinned item.
    mutating func apply(_ change: CatalogChange, visible: Int, account: Account?) {
        var edit = edits[owner] ?? CatalogEdits()
        switch change {
        case .togglePin(let id):
            if let at = edit.pinned.firstIndex(of: id) { edit.pinned.remove(at: at) } else { edit.pinned.insert(id, at: 0) }
            edits[owner] = edit
            load(for: account)
            list.moveTo(index(of: id) ?? 0, count: items.count, visible: visible)
        case .delete(let id):
            edit.deleted.insert(id)
            edit.pinned.removeAll { $0 == id }
            edits[owner] = edit
            load(for: account)
            list.clamp(count: items.count, visible: visible)
        }
    }

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        let visible = context.layout.listRows
        switch message {
        case .action(.openContextMenu):
            return [.openContextMenu(itemIndex: list.cursor)]
        case .action(.activate):
            // Enter, a tap on a list: opens the item (a hold opens its menu, ``KeyBindings/holds``).
            return items.indices.contains(list.cursor) ? [.openItem(id: items[list.cursor].id)] : []
        case .tap(.catalogRow(let index)) where index == list.cursor && items.indices.contains(index):
            // A click on the row already under the cursor (the second click of a double click too) opens it.
            return [.openItem(id: items[index].id)]
        case .action(let action):
            ListMove.apply(action, to: &list, count: items.count, visible: visible)
        case .tap(.catalogRow(let index)):
            list.moveTo(index, count: items.count, visible: visible)
        case .scroll(_, let notches):
            list.scroll(by: notches * ListMove.rowsPerScrollNotch, count: items.count, visible: visible)
        case .relayout:
            list.clamp(count: items.count, visible: visible)
        default: break
        }
        return []
    }

    public func render(into frame: inout Frame, _ context: ModelContext) {
        let rect = context.layout.pane
        let owner = context.currentAccount?.name ?? "no account"
        let position = items.isEmpty ? "empty" : "\(list.cursor + 1)/\(items.count)"
        frame.screen.header("Catalog · \(owner)", trailing: position, in: rect)
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        let numberWidth = String(items.count).count
        for offset in 0..<visible {
            let index = list.scroll + offset
            guard items.indices.contains(index) else { break }
            let item = items[index]
            let row = rect.y + Layout.paneHeaderRows + offset
            frame.hits.mark(Rect(x: rect.x, y: row, width: rect.width, height: 1), .catalogRow(index))
            let isCursor = index == list.cursor
            let number = String(repeating: " ", count: numberWidth - String(index + 1).count) + String(index + 1)
            // The cursor is the gutter in reverse video: a move changes 3 cells per row, not the rows.
            var x = frame.screen.put(isCursor ? " ▸ " : "   ", column: rect.x, row: row, style: isCursor ? .selected : .plain)
            x = frame.screen.put(number + "  ", column: x, row: row, style: .dim)
            let titleWidth = min(24, max(0, rect.maxX - x))
            let title = isPinned(item.id) ? Self.pinMark + " " + item.title : item.title
            frame.screen.put(DisplayWidth.truncated(title, to: titleWidth), column: x, row: row)
            x += titleWidth + 1
            if x < rect.maxX {
                frame.screen.put(DisplayWidth.truncated(item.detail, to: rect.maxX - x), column: x, row: row, style: .dim)
            }
        }
    }
}
