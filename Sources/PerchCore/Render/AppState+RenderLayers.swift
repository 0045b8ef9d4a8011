extension AppState {
    /// The mark before a pinned item's title, in its row and its preview.
    public static let pinMark = "★"

    /// Draws a box border of `rect` in dim rounded lines.
    func drawBox(_ rect: Rect, into screen: inout Screen, style: Style = .dim) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        screen.fill(rect)
        screen.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), with: "─", style: style)
        screen.fill(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), with: "─", style: style)
        for row in rect.y..<rect.maxY {
            let (l, r) = row == rect.y ? ("╭", "╮") : row == rect.maxY - 1 ? ("╰", "╯") : ("│", "│")
            screen.put(l, column: rect.x, row: row, style: style)
            screen.put(r, column: rect.maxX - 1, row: row, style: style)
        }
    }

    /// Dims everything drawn so far: the screen behind a context menu or an alert.
    func dimAll(_ screen: inout Screen) {
        screen.restyle(Rect(x: 0, y: 0, width: size.width, height: size.height)) { style in
            style.dim = true
            style.bold = false
            style.reverse = false
        }
    }

    /// The preview lines of `item`, most important first; a shrunk card shows the first ones.
    func previewLines(_ item: CatalogItem, width: Int) -> [(String, Style)] {
        let owner = currentAccount?.name ?? "no account"
        let position = (catalogIndex(of: item.id) ?? 0) + 1
        let pinned = isPinned(item.id)
        return [
            ((pinned ? Self.pinMark + " " : "") + item.title, .bold),
            ("A \(item.kind) of \(item.words) words, by \(owner).", .plain),
            ("\(item.id) · \(position) of \(catalogItems.count)\(pinned ? " · pinned" : "")", .dim),
            ("activity " + item.activity(max(0, min(24, width - 9))), Style(foreground: .cyan)),
            ("Enter or click here to open", .dim),
        ]
    }

    /// Draws a context menu over the dimmed screen: the preview card and the action menu.
    func renderContextMenu(_ menu: ContextMenu, into screen: inout Screen) {
        dimAll(&screen)
        guard let layout = contextMenuLayout(menu), let item = catalogItems.first(where: { $0.id == menu.itemID }) else { return }
        let card = layout.card
        drawBox(card, into: &screen, style: menu.cursor == 0 ? .bold : .dim)
        let inner = card.width - 4
        for (offset, (text, style)) in previewLines(item, width: inner).prefix(max(0, card.height - 2)).enumerated() {
            screen.put(DisplayWidth.truncated(text, to: max(0, inner)), column: card.x + 2, row: card.y + 1 + offset, style: style)
        }
        let box = layout.menu
        drawBox(box, into: &screen)
        let scroll = layout.actionScroll(focused: menu.cursor - 1)
        let pinned = isPinned(item.id)
        for offset in 0..<layout.visibleActions {
            let index = scroll + offset
            guard ContextMenuAction.allCases.indices.contains(index) else { break }
            let action = ContextMenuAction.allCases[index]
            let focused = menu.cursor == index + 1
            var style = action == .delete ? Style(foreground: .red) : Style.plain
            if focused {
                style.reverse = true
                style.bold = true
            }
            let row = box.y + 1 + offset
            screen.fill(Rect(x: box.x + 1, y: row, width: box.width - 2, height: 1), style: style)
            screen.put(" " + action.title(pinned: pinned), column: box.x + 1, row: row, style: style, width: box.width - 2)
        }
    }

    /// Draws an alert over the dimmed screen.
    func renderAlert(_ alert: Alert, into screen: inout Screen) {
        dimAll(&screen)
        let layout = AlertLayout(buttons: alert.buttons, screen: size)
        let frame = layout.frame
        guard frame.width >= 4, frame.height >= 3 else { return }
        drawBox(frame, into: &screen, style: .bold)
        let inner = frame.width - 4
        screen.put(DisplayWidth.truncated(alert.title, to: inner), column: frame.x + 2, row: frame.y + 1, style: .bold)
        if frame.height >= AlertLayout.height {
            screen.put(DisplayWidth.truncated(alert.message, to: inner), column: frame.x + 2, row: frame.y + 2)
        }
        for (index, rect) in layout.buttons.enumerated() {
            var style = index == 1 ? Style(foreground: .red, bold: true) : Style.plain
            if index == alert.cursor { style.reverse = true }
            screen.put(
                AlertLayout.buttonText(alert.buttons[index]), column: rect.x, row: rect.y, style: style, width: frame.maxX - 1 - rect.x)
        }
    }

    /// Draws a full-screen cover over everything, tab bar included.
    func renderCover(_ cover: Cover, into screen: inout Screen) {
        let layout = CoverLayout(screen: size)
        screen.fill(layout.frame)
        guard case .item(let item) = cover else { return }
        var x = screen.put("✕", column: CoverLayout.closeColumn, row: 0, style: .bold)
        x = screen.put("  " + item.title, column: x, row: 0, style: .bold, width: size.width - x)
        screen.fill(Rect(x: 0, y: 1, width: size.width, height: 1), with: "─", style: .dim)
        let width = size.width - 4
        var row = 3
        func line(_ text: String, _ style: Style = .plain) {
            if row < size.height - 1 { screen.put(DisplayWidth.truncated(text, to: max(0, width)), column: 2, row: row, style: style) }
            row += 1
        }
        let pinned = isPinned(item.id)
        line((pinned ? Self.pinMark + " " : "") + item.title, .bold)
        line("A \(item.kind) of \(item.words) words, by \(currentAccount?.name ?? "no account").")
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
            screen.put(text, column: 2, row: row, style: Style(foreground: .cyan))
            row += 1
        }
        line("activity", .dim)
        screen.put(" Esc or ✕ close · a switch account · ? help", column: 0, row: size.height - 1, style: .dim, width: size.width)
    }
}
