extension AppState {
    /// Draws the account sheet at the height it has now (rising, falling, dragged or at rest).
    func renderSheet(_ sheet: AccountSheet, into screen: inout Screen) {
        let layout = SheetLayout(height: displayedHeight(sheet), screen: size, style: sheetStyle)
        guard layout.height > 0 else { return }
        let frame = layout.frame
        let inset = sheetStyle == .inset && frame.x > 0
        // Content sits inside the side borders of an inset sheet.
        let left = frame.x + (inset ? 1 : 0)
        let width = frame.width - (inset ? 2 : 0)
        screen.fill(frame)
        // Top edge with the grabber (drag indicator) centred on it.
        screen.fill(Rect(x: frame.x, y: layout.top, width: frame.width, height: 1), with: "─", style: .dim)
        if inset {
            screen.put("╭", column: frame.x, row: layout.top, style: .dim)
            screen.put("╮", column: frame.maxX - 1, row: layout.top, style: .dim)
            for row in (layout.top + 1)..<frame.maxY {
                let last = row == frame.maxY - 1
                screen.put(last ? "╰" : "│", column: frame.x, row: row, style: .dim)
                screen.put(last ? "╯" : "│", column: frame.maxX - 1, row: row, style: .dim)
            }
        }
        let grabber = " ━━━━━━ "
        screen.put(grabber, column: frame.x + max(0, (frame.width - DisplayWidth.columns(of: grabber)) / 2), row: layout.top, style: .bold)
        guard layout.height >= 2 else { return }
        let count = sheet.rowCount(accounts: accounts.count)
        let titleRect = Rect(x: left, y: layout.top + 1, width: width, height: 1)
        if let filter = sheet.filter {
            // An empty filter shows the grouped list: its heading rows are not matches.
            let matches = filter.isEmpty ? accounts.count : sheet.listedCount(accounts: accounts.count)
            header(
                "/ " + filter + (sheet.isEditingFilter ? "▏" : ""), trailing: "\(matches) of \(accounts.count)", into: &screen, titleRect)
        } else {
            header("Switch account", trailing: "\(accounts.count) account\(accounts.count == 1 ? "" : "s")", into: &screen, titleRect)
        }
        let nameWidth = max(12, min(width / 2, nameColumns))
        // Only the visible rows are built, so a sheet over 100,000 accounts costs what one over 4 does.
        for offset in 0..<min(layout.visibleRows, layout.height - SheetLayout.chromeRows + 1) {
            let index = sheet.cursor.scroll + offset
            guard index < count else { break }
            let row = layout.firstRow + offset
            guard row < frame.maxY - (layout.height >= SheetLayout.chromeRows ? 1 : 0) else { break }
            switch sheet.row(index, accounts: accounts.count) {
            case .heading(let group):
                screen.put(" " + group, column: left, row: row, style: Style(bold: true, dim: true), width: width)
            case .addAccount:
                let isCursor = index == sheet.cursor.cursor
                let x = screen.put("   ", column: left, row: row, style: isCursor ? .selected : .plain)
                screen.put(
                    "+ " + SettingsAction.addAccount.title, column: x, row: row, style: Style(foreground: .cyan), width: left + width - x)
            case .account(let accountIndex):
                let account = accounts[accountIndex]
                let isCursor = index == sheet.cursor.cursor
                let isCurrent = account.id == saved.currentAccount
                // The cursor is the gutter in reverse video: a move changes 3 cells per row, not the rows.
                var x = screen.put(
                    isCurrent ? " ● " : "   ", column: left, row: row, style: isCursor ? .selected : Style(foreground: .green, bold: true))
                screen.put(DisplayWidth.truncated(account.name, to: nameWidth), column: x, row: row, width: left + width - x)
                x += nameWidth + 2
                if let handle = account.handle, x < left + width {
                    screen.put(DisplayWidth.truncated(handle, to: left + width - x), column: x, row: row, style: .dim)
                }
            }
        }
        guard layout.height >= SheetLayout.chromeRows else { return }
        let footerRow = frame.maxY - 1
        var footer =
            sheet.isEditingFilter
            ? " type to filter · Enter switch · Esc clear" : " ↑↓ move · Enter switch · / filter · ? help · Esc close"
        if layout.visibleRows < count, layout.visibleRows > 0 {
            // The range counts the list's rows: accounts, group headings and the `Add account…` row.
            footer += " · \(sheet.cursor.scroll + 1)–\(min(count, sheet.cursor.scroll + layout.visibleRows)) of \(count)"
        }
        screen.put(footer, column: left, row: footerRow, style: .dim, width: width)
    }

    /// Draws the help overlay: the bindings of the context below it, from ``KeyBindings``.
    func renderHelp(_ help: HelpOverlay, into screen: inout Screen) {
        let bindings = help.bindings
        let layout = HelpLayout(lineCount: bindings.count, screen: size)
        let frame = layout.frame
        guard frame.width >= 4, frame.height >= 2 else { return }
        screen.fill(frame)
        screen.fill(Rect(x: frame.x, y: frame.y, width: frame.width, height: 1), with: "─", style: .dim)
        screen.fill(Rect(x: frame.x, y: frame.maxY - 1, width: frame.width, height: 1), with: "─", style: .dim)
        for row in frame.y..<frame.maxY {
            let (l, r) = row == frame.y ? ("╭", "╮") : row == frame.maxY - 1 ? ("╰", "╯") : ("│", "│")
            screen.put(l, column: frame.x, row: row, style: .dim)
            screen.put(r, column: frame.maxX - 1, row: row, style: .dim)
        }
        screen.put(" Keys · \(help.context.title) ", column: frame.x + 2, row: frame.y, style: .bold, width: frame.width - 4)
        var footer = " Esc close "
        if layout.visibleRows < bindings.count {
            footer = " \(help.scroll + 1)–\(min(bindings.count, help.scroll + layout.visibleRows)) of \(bindings.count) ·" + footer
        }
        screen.put(footer, column: frame.x + 2, row: frame.maxY - 1, style: .dim, width: frame.width - 4)
        let inner = frame.width - 2
        let labelWidth = min(inner / 2, (bindings.map { DisplayWidth.columns(of: $0.label) }.max() ?? 0) + 1)
        for offset in 0..<layout.visibleRows {
            let index = help.scroll + offset
            guard bindings.indices.contains(index) else { break }
            let row = frame.y + 1 + offset
            let binding = bindings[index]
            screen.put(" " + DisplayWidth.truncated(binding.label, to: labelWidth - 1), column: frame.x + 1, row: row, style: .bold)
            let x = frame.x + 2 + labelWidth
            if x < frame.maxX - 1 {
                screen.put(DisplayWidth.truncated(binding.summary, to: frame.maxX - 1 - x), column: x, row: row)
            }
        }
    }
}

extension InputContext {
    /// The context's name, as the help overlay's title shows it.
    public var title: String {
        switch self {
        case .pane(let tab): tab.title
        case .accountSheet: "Account sheet"
        case .accountSheetFilter: "Sheet filter"
        case .help: "Help"
        case .contextMenu: "Context menu"
        case .alert: "Alert"
        case .cover: "Cover"
        case .accountForm: "Add account"
        }
    }
}
