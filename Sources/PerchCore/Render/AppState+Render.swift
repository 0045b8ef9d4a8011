extension AppState {
    /// Draws the whole screen for the current state: the selected pane, the tab bar, the banner,
    /// then each presented layer, bottom first. Pure: the same state always gives the same screen.
    public func render() -> Screen {
        var screen = Screen(size: size)
        let layout = Layout(size: size)
        guard size.width > 0, size.height > 0 else { return screen }
        if layout.isTooSmall {
            renderTooSmall(into: &screen)
            return screen
        }
        switch selectedTab {
        case .overview: renderOverview(into: &screen, layout.pane)
        case .catalog: renderCatalog(into: &screen, layout.pane)
        case .stats: renderStats(into: &screen, layout.pane)
        case .settings: renderSettings(into: &screen, layout.pane)
        }
        let bannerLines = self.bannerLines
        let bannerStyle = Style(foreground: .yellow, reverse: true)
        for (offset, line) in bannerLines.enumerated() {
            let row = layout.pane.maxY - bannerLines.count + offset
            screen.fill(Rect(x: 0, y: row, width: size.width, height: 1), style: bannerStyle)
            screen.put(" " + line, column: 0, row: row, style: bannerStyle)
        }
        renderTabBar(into: &screen, layout)
        for layer in presented {
            switch layer {
            case .accountSheet(let sheet): renderSheet(sheet, into: &screen)
            case .help(let help): renderHelp(help, into: &screen)
            case .contextMenu(let menu): renderContextMenu(menu, into: &screen)
            case .alert(let alert): renderAlert(alert, into: &screen)
            case .cover(let cover): renderCover(cover, into: &screen)
            case .accountForm(let form): renderAccountForm(form, into: &screen)
            }
        }
        return screen
    }

    /// Most rows a banner takes; a longer message ends in `…`.
    public static let maximumBannerRows = 3

    /// The banner's text wrapped at spaces to the screen width (less one column of margin), on at
    /// most ``maximumBannerRows`` rows and never more than half the pane; empty without a banner.
    public var bannerLines: [String] {
        let pane = Layout(size: size).pane
        let rows = min(Self.maximumBannerRows, pane.height / 2)
        guard let banner, rows > 0, size.width > 2 else { return [] }
        return DisplayWidth.wrapped(banner, to: size.width - 2, rows: rows)
    }

    /// The notice shown instead of the interface on a screen below ``Layout/minimumSize``,
    /// e.g. "terminal too small (19×6, needs 20×6)".
    public var tooSmallNotice: String {
        "terminal too small (\(size.width)×\(size.height), needs \(Layout.minimumSize.width)×\(Layout.minimumSize.height))"
    }

    /// The ``tooSmallNotice``, wrapped and centred on a blank screen.
    private func renderTooSmall(into screen: inout Screen) {
        let lines = DisplayWidth.wrapped(tooSmallNotice, to: size.width, rows: size.height)
        let top = (size.height - lines.count) / 2
        for (offset, line) in lines.enumerated() {
            let column = (size.width - DisplayWidth.columns(of: line)) / 2
            screen.put(line, column: column, row: top + offset, style: .bold)
        }
    }

    private func renderTabBar(into screen: inout Screen, _ layout: Layout) {
        if layout.tabBarHeight == 2 {
            screen.fill(Rect(x: 0, y: layout.tabBar.y, width: size.width, height: 1), with: "─", style: .dim)
        }
        for tab in Tab.allCases {
            let columns = layout.tabColumns(tab)
            let selected = tab == selectedTab
            let style = selected ? Style(foreground: .cyan, bold: true, reverse: true) : Style.plain
            screen.fill(Rect(x: columns.lowerBound, y: layout.tabRow, width: columns.count, height: 1), style: style)
            let label = DisplayWidth.truncated(tab.title, to: columns.count)
            let start = columns.lowerBound + max(0, (columns.count - DisplayWidth.columns(of: label)) / 2)
            screen.put(label, column: start, row: layout.tabRow, style: style, width: columns.upperBound - start)
        }
    }

    func header(_ title: String, trailing: String = "", into screen: inout Screen, _ rect: Rect) {
        guard rect.height > 0 else { return }
        // The trailing note (a count, a position) keeps its place; the title gives way, with `…`.
        let width = DisplayWidth.columns(of: trailing)
        let showTrailing = !trailing.isEmpty && width + 8 < rect.width
        let titleWidth = showTrailing ? rect.width - width - 2 : rect.width
        screen.put(" " + title, column: rect.x, row: rect.y, style: .bold, width: titleWidth)
        if showTrailing {
            screen.put(trailing, column: rect.maxX - width - 1, row: rect.y, style: .dim)
        }
    }

    private func renderOverview(into screen: inout Screen, _ rect: Rect) {
        header("Overview", into: &screen, rect)
        var row = rect.y + 2
        func line(_ text: String, _ style: Style = .plain, indent: Int = 3) {
            if row < rect.maxY { screen.put(text, column: rect.x + indent, row: row, style: style, width: rect.width - indent) }
            row += 1
        }
        if let account = currentAccount {
            line("Signed in as", .dim)
            line("● " + account.name, Style(foreground: .green, bold: true))
            line(account.handle ?? "(no handle)", account.handle == nil ? .dim : .plain, indent: 5)
        } else {
            line("No account chosen yet.", .bold)
            line("\(accounts.count) account\(accounts.count == 1 ? "" : "s") available.", .dim)
        }
        if let pending = pendingSwitch {
            // Until the store confirms it, a switch is shown as asked for, never as done.
            row += 1
            line("Switching to \(displayName(of: pending.accountID))…", Style(foreground: .yellow, bold: true))
            if let reason = pending.waitingReason { line(reason, .dim, indent: 5) }
            if let queued = pending.queued { line("then to \(displayName(of: queued))", .dim, indent: 5) }
        }
        row += 1
        line("Switches so far: \(saved.switchCount)")
        row += 1
        line("Hold the Overview tab (or the 1 key), or press a, to switch account.", .dim)
    }

    private func renderCatalog(into screen: inout Screen, _ rect: Rect) {
        let owner = currentAccount?.name ?? "no account"
        let position = catalogItems.isEmpty ? "empty" : "\(catalog.cursor + 1)/\(catalogItems.count)"
        header("Catalog · \(owner)", trailing: position, into: &screen, rect)
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        let numberWidth = String(catalogItems.count).count
        for offset in 0..<visible {
            let index = catalog.scroll + offset
            guard catalogItems.indices.contains(index) else { break }
            let item = catalogItems[index]
            let row = rect.y + Layout.paneHeaderRows + offset
            let isCursor = index == catalog.cursor
            let number = String(repeating: " ", count: numberWidth - String(index + 1).count) + String(index + 1)
            // The cursor is the gutter in reverse video: a move changes 3 cells per row, not the rows.
            var x = screen.put(isCursor ? " ▸ " : "   ", column: rect.x, row: row, style: isCursor ? .selected : .plain)
            x = screen.put(number + "  ", column: x, row: row, style: .dim)
            let titleWidth = min(24, max(0, rect.maxX - x))
            let title = isPinned(item.id) ? AppState.pinMark + " " + item.title : item.title
            screen.put(DisplayWidth.truncated(title, to: titleWidth), column: x, row: row)
            x += titleWidth + 1
            if x < rect.maxX {
                screen.put(DisplayWidth.truncated(item.detail, to: rect.maxX - x), column: x, row: row, style: .dim)
            }
        }
    }

    private func renderStats(into screen: inout Screen, _ rect: Rect) {
        header("Stats · switches per account", trailing: "total \(saved.switchCount)", into: &screen, rect)
        let visible = max(0, rect.height - Layout.paneHeaderRows)
        let nameWidth = min(max(8, rect.width / 3), nameColumns)
        let most = max(1, saved.switchesPerAccount.values.max() ?? 0)
        let barSpace = max(0, rect.width - nameWidth - max(6, String(most).count) - 8)
        for offset in 0..<visible {
            let index = stats.scroll + offset
            guard accounts.indices.contains(index) else { break }
            let account = accounts[index]
            let count = saved.switchesPerAccount[account.id] ?? 0
            let row = rect.y + Layout.paneHeaderRows + offset
            let isCurrent = account.id == saved.currentAccount
            var x = screen.put(isCurrent ? " ● " : "   ", column: rect.x, row: row, style: Style(foreground: .green))
            screen.put(DisplayWidth.truncated(account.name, to: nameWidth), column: x, row: row, style: isCurrent ? .bold : .plain)
            x += nameWidth + 2
            let length = Int((Double(count) / Double(most) * Double(barSpace)).rounded(.down))
            let bar = count == 0 ? "" : String(repeating: "█", count: max(1, min(barSpace, length)))
            x = screen.put(bar, column: x, row: row, style: Style(foreground: .cyan))
            screen.put(" \(count)", column: x, row: row)
        }
    }

    private func renderSettings(into screen: inout Screen, _ rect: Rect) {
        header("Settings", into: &screen, rect)
        let first = rect.y + Layout.paneHeaderRows
        let rows: [(String, String)] = [
            ("Long-press duration", "\(info.longPressMilliseconds) ms"),
            ("Key hold", info.keyHold.summary),
            ("Config file", info.configDescription),
            ("State file", info.statePath),
        ]
        for (offset, (label, value)) in rows.enumerated() where first + offset < rect.maxY {
            let x = screen.put("   " + label, column: rect.x, row: first + offset, style: .dim, width: rect.width)
            let valueColumn = max(x + 1, rect.x + 25)
            let valueWidth = max(0, rect.maxX - valueColumn)
            screen.put(DisplayWidth.truncatedLeading(value, to: valueWidth), column: valueColumn, row: first + offset, width: valueWidth)
        }
        for (index, action) in SettingsAction.allCases.enumerated() {
            let row = first + SettingsPaneLayout.actionsOffset + index
            guard row < rect.maxY else { break }
            let isCursor = index == settings.cursor
            let style = isCursor ? Style.selected : Style.plain
            let value: String
            switch action {
            case .switchAccount, .addAccount: value = ""
            case .reduceMotion: value = ": " + (reduceMotion ? "on" : "off")
            case .sheetStyle: value = ": " + sheetStyle.rawValue
            }
            screen.put(
                (isCursor ? " ▸ " : "   ") + action.title + value + "  (Enter)", column: rect.x, row: row, style: style, width: rect.width)
        }
    }
}
