/// The Stats pane: switches per account as bars. It has no cursor: its keys scroll the view.
public struct StatsPane: ScreenModel, Hashable, Sendable {
    /// The scroll offset (the cursor follows it).
    public internal(set) var list = ListCursor()

    public init() {}

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        let count = context.accounts.count
        let visible = context.layout.listRows
        switch message {
        case .action(let action):
            switch ListMove(action, count: count, visible: visible) {
            case .by(let delta)?: list.scroll(by: delta, count: count, visible: visible)
            case .to(let index)?: list.scroll(by: index == 0 ? -count : count, count: count, visible: visible)
            case nil: break
            }
        case .scroll(_, let notches):
            list.scroll(by: notches * ListMove.rowsPerScrollNotch, count: count, visible: visible)
        case .relayout:
            list.clamp(count: count, visible: visible)
        default: break
        }
        return []
    }

    public func render(into frame: inout Frame, _ context: ModelContext) {
        let rect = context.layout.pane
        let saved = context.saved
        frame.screen.header("Stats · switches per account", trailing: "total \(saved.switchCount)", in: rect)
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        let nameWidth = min(max(8, rect.width / 3), context.accounts.nameColumns)
        let most = max(1, saved.switchesPerAccount.values.max() ?? 0)
        let barSpace = max(0, rect.width - nameWidth - max(6, String(most).count) - 8)
        let accounts = context.accounts.accounts
        for offset in 0..<visible {
            let index = list.scroll + offset
            guard accounts.indices.contains(index) else { break }
            let account = accounts[index]
            let count = saved.switchesPerAccount[account.id] ?? 0
            let row = rect.y + Layout.paneHeaderRows + offset
            let isCurrent = account.id == saved.currentAccount
            var x = frame.screen.put(isCurrent ? " ● " : "   ", column: rect.x, row: row, style: Style(foreground: .green))
            frame.screen.put(DisplayWidth.truncated(account.name, to: nameWidth), column: x, row: row, style: isCurrent ? .bold : .plain)
            x += nameWidth + 2
            let length = Int((Double(count) / Double(most) * Double(barSpace)).rounded(.down))
            let bar = count == 0 ? "" : String(repeating: "█", count: max(1, min(barSpace, length)))
            x = frame.screen.put(bar, column: x, row: row, style: Style(foreground: .cyan))
            frame.screen.put(" \(count)", column: x, row: row)
        }
    }
}

/// Where a list move goes, from a key's action: by a number of rows, or to an index.
enum ListMove {
    case by(Int)
    case to(Int)

    /// Mouse wheel: rows per notch.
    static let rowsPerScrollNotch = 3

    /// Rows a Page Up / Page Down moves in a list of `visible` rows.
    static func pageStep(_ visible: Int) -> Int { max(1, visible - 1) }

    /// The move `action` makes in a list of `count` rows showing `visible`, or nil for another action.
    init?(_ action: KeyAction, count: Int, visible: Int) {
        switch action {
        case .moveUp: self = .by(-1)
        case .moveDown: self = .by(1)
        case .pageUp: self = .by(-Self.pageStep(visible))
        case .pageDown: self = .by(Self.pageStep(visible))
        case .moveToFirst: self = .to(0)
        case .moveToLast: self = .to(count - 1)
        default: return nil
        }
    }

    /// Moves `list`'s cursor by `action`; returns whether it was a move.
    @discardableResult
    static func apply(_ action: KeyAction, to list: inout ListCursor, count: Int, visible: Int) -> Bool {
        switch ListMove(action, count: count, visible: visible) {
        case .by(let delta)?: list.move(by: delta, count: count, visible: visible)
        case .to(let index)?: list.moveTo(index, count: count, visible: visible)
        case nil: return false
        }
        return true
    }
}
