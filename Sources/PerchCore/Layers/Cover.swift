/// What a full-screen cover shows (UIModalPresentationStyle `.fullScreen`): it hides
/// everything below it, tab bar included, until it is closed with its `✕` or `Esc`.
public enum Cover: Hashable, Sendable {
    /// A Catalog item, opened from its context menu.
    case item(CatalogItem)
}

extension Cover: ScreenModel {
    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        if case .tap(.coverClose) = message { return [.dismiss] }
        return []
    }

    /// Draws the cover over everything, tab bar included.
    public func render(into frame: inout Frame, _ context: ModelContext) {
        let size = context.size
        let layout = CoverLayout(screen: size)
        frame.hits.mark(layout.frame, .coverBody)
        frame.hits.mark(layout.close, .coverClose)
        frame.screen.fill(layout.frame)
        guard case .item(let item) = self else { return }
        var x = frame.screen.put("✕", column: CoverLayout.closeColumn, row: 0, style: .bold)
        x = frame.screen.put("  " + item.title, column: x, row: 0, style: .bold, width: size.width - x)
        frame.screen.fill(Rect(x: 0, y: 1, width: size.width, height: 1), with: "─", style: .dim)
        let width = size.width - 4
        var row = 3
        func line(_ text: String, _ style: Style = .plain) {
            if row < size.height - 1 {
                frame.screen.put(DisplayWidth.truncated(text, to: max(0, width)), column: 2, row: row, style: style)
            }
            row += 1
        }
        let pinned = context.catalog.isPinned(item.id)
        line((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold)
        line("A \(item.kind) of \(item.words) words, by \(context.currentAccount?.name ?? "no account").")
        line("\(item.id)\(pinned ? " · pinned" : "")", .dim)
        row += 1
        // Activity as a column chart four rows tall: each column is one character of the picture.
        let picture = Array(item.activity(max(0, min(48, width))))
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for band in (0..<4).reversed() where row < size.height - 1 {
            let text = String(
                picture.map { c -> Character in
                    let level = (levels.firstIndex(of: c) ?? 0) + 1  // 1…8 eighths of one band
                    let filled = level * 4 - band * 8  // eighths of this band covered, of 32 in all
                    return filled >= 8 ? "█" : filled <= 0 ? " " : levels[filled - 1]
                })
            frame.screen.put(text, column: 2, row: row, style: Style(foreground: .cyan))
            row += 1
        }
        line("activity", .dim)
        frame.screen.put(" Esc or ✕ close · a switch account · ? help", column: 0, row: size.height - 1, style: .dim, width: size.width)
    }
}
