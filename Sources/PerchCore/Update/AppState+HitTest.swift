extension AppState {
    /// What lies under `position` on the screen as it is drawn now. Presented layers are modal:
    /// only the top one that takes input reacts, and everywhere outside it is ``HitTarget/outside``.
    public func hitTest(_ position: Position) -> HitTarget {
        let layout = Layout(size: size)
        if layout.isTooSmall { return .none }
        if let index = activeTop {
            switch presented[index] {
            case .accountSheet(let sheet):
                let sheetLayout = SheetLayout(height: displayedHeight(sheet), screen: size, style: sheetStyle)
                guard sheetLayout.frame.contains(position) else { return .outside }
                if position.row == sheetLayout.top { return .sheetGrabber }
                let offset = position.row - sheetLayout.firstRow
                let count = sheet.rowCount(accounts: accounts.count)
                if offset >= 0, offset < sheetLayout.visibleRows, sheet.cursor.scroll + offset < count {
                    switch sheet.row(sheet.cursor.scroll + offset, accounts: accounts.count) {
                    case .account(let account): return .sheetRow(account)
                    case .addAccount: return .sheetAddAccount
                    case .heading: break
                    }
                }
                return .sheetChrome
            case .help(let help):
                return HelpLayout(lineCount: help.bindings.count, screen: size).frame.contains(position) ? .helpBody : .outside
            case .contextMenu(let menu):
                guard let layout = contextMenuLayout(menu) else { return .outside }
                if layout.card.contains(position) { return .contextPreview }
                guard layout.menu.contains(position) else { return .outside }
                let offset = position.row - layout.menu.y - 1
                let index = layout.actionScroll(focused: menu.cursor - 1) + offset
                guard offset >= 0, offset < layout.visibleActions, ContextMenuAction.allCases.indices.contains(index) else {
                    return .layerChrome
                }
                return .contextAction(index)
            case .alert(let alert):
                let layout = AlertLayout(buttons: alert.buttons, screen: size)
                if let button = layout.buttons.firstIndex(where: { $0.contains(position) }) { return .alertButton(button) }
                return layout.frame.contains(position) ? .layerChrome : .outside
            case .cover:
                return CoverLayout(screen: size).close.contains(position) ? .coverClose : .coverBody
            case .accountForm:
                return AccountFormLayout(screen: size).hitTest(position)
            }
        }
        if let tab = layout.tab(at: position) { return .tab(tab) }
        if position.row >= layout.pane.maxY - bannerLines.count, position.row < layout.pane.maxY { return .none }  // the banner
        let listRow = position.row - layout.pane.y - Layout.paneHeaderRows
        guard layout.pane.contains(position), listRow >= 0 else { return .none }
        switch selectedTab {
        case .catalog:
            let index = catalog.scroll + listRow
            return catalogItems.indices.contains(index) ? .catalogRow(index) : .none
        case .settings:
            let index = listRow - SettingsPaneLayout.actionsOffset
            return SettingsAction.allCases.indices.contains(index) ? .settingsRow(index) : .none
        default:
            return .none
        }
    }
}

/// Row positions inside the Settings pane, shared by its renderer and hit-testing.
enum SettingsPaneLayout {
    /// List rows before the first action row (the information lines and a blank line).
    static let actionsOffset = 5
}
