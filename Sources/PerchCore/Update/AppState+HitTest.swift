extension AppState {
    /// What lies under `position` on the screen as it is drawn now (top layer first).
    public func hitTest(_ position: Position) -> HitTarget {
        let layout = Layout(size: size)
        if layout.isTooSmall { return .none }
        if sheet != nil {
            let sheetLayout = self.sheetLayout
            guard position.row >= sheetLayout.top else { return .outsideSheet }
            let offset = position.row - sheetLayout.firstRow
            if offset >= 0, offset < sheetLayout.visibleRows, let cursor = sheet {
                let index = cursor.scroll + offset
                return accounts.indices.contains(index) ? .sheetRow(index) : .sheetChrome
            }
            return .sheetChrome
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
    static let actionsOffset = 4
}
