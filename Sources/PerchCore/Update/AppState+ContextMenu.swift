extension AppState {
    /// Screen row of the Catalog item at `index` as the pane draws it now.
    func catalogRow(of index: Int) -> Int {
        Layout(size: size).pane.y + Layout.paneHeaderRows + index - catalog.scroll
    }

    /// The index in ``catalogItems`` of the item with this id.
    func catalogIndex(of id: String) -> Int? { catalogItems.firstIndex { $0.id == id } }

    /// Geometry of `menu` as drawn now, or nil when its item is gone.
    public func contextMenuLayout(_ menu: ContextMenu) -> ContextMenuLayout? {
        guard let index = catalogIndex(of: menu.itemID) else { return nil }
        return ContextMenuLayout(anchorRow: catalogRow(of: index), actionCount: ContextMenuAction.allCases.count, screen: size)
    }

    /// Opens the context menu of the Catalog item at `index`, putting the pane's cursor on it.
    /// Does nothing while another layer is up, or when the index is not an item.
    mutating func openContextMenu(at index: Int) {
        guard activeTop == nil, selectedTab == .catalog, catalogItems.indices.contains(index) else { return }
        catalog.moveTo(index, count: catalogItems.count, visible: Layout(size: size).listRows)
        presented.append(.contextMenu(ContextMenu(itemID: catalogItems[index].id)))
    }

    /// Changes the top context menu that takes input.
    mutating func updateContextMenu(_ change: (inout ContextMenu) -> Void) {
        guard let index = activeTop, case .contextMenu(var menu) = presented[index] else { return }
        change(&menu)
        presented[index] = .contextMenu(menu)
    }

    /// Carries out the focused row of the top context menu: the preview opens the item.
    mutating func activateContextMenu() -> [Effect] {
        guard let index = activeTop, case .contextMenu(let menu) = presented[index] else { return [] }
        guard let action = menu.focusedAction else { return openItem(menu.itemID) }
        return perform(action, on: menu.itemID)
    }

    /// Carries out a context menu action on the item with this id. Every action but Delete
    /// dismisses the menu; Delete presents a confirmation alert over it.
    mutating func perform(_ action: ContextMenuAction, on id: String) -> [Effect] {
        guard let item = catalogItems.first(where: { $0.id == id }) else { return [] }
        switch action {
        case .open:
            return openItem(id)
        case .pin:
            dismissTop()
            var edits = catalogEdits[catalogKey] ?? CatalogEdits()
            if let at = edits.pinned.firstIndex(of: id) {
                edits.pinned.remove(at: at)
            } else {
                edits.pinned.insert(id, at: 0)
            }
            catalogEdits[catalogKey] = edits
            rebuildCatalog()
            catalog.moveTo(catalogIndex(of: id) ?? 0, count: catalogItems.count, visible: Layout(size: size).listRows)
            return []
        case .copyID:
            dismissTop()
            banner = "Copied \(id) (OSC 52, where the terminal allows it)."
            return [.copyToClipboard(id)]
        case .delete:
            let catalog = currentAccount.map { "\($0.name)’s Catalog" } ?? "the Catalog"
            presented.append(
                .alert(
                    Alert(
                        title: "Delete “\(item.title)”?", message: "It leaves \(catalog) for this session.",
                        confirmTitle: "Delete", action: .deleteItem(id: id))))
            return []
        }
    }

    /// Dismisses the layers down to the panes and opens the item with this id in a cover.
    mutating func openItem(_ id: String) -> [Effect] {
        guard let item = catalogItems.first(where: { $0.id == id }) else { return [] }
        while let top = activeTop, case .contextMenu = presented[top] { presented.remove(at: top) }
        presented.append(.cover(.item(item)))
        return []
    }

    /// Carries out the focused button of the top alert: Cancel dismisses it alone; the
    /// confirmation also dismisses the context menu below and does what the alert asked.
    mutating func activateAlert(button: Int) -> [Effect] {
        guard let index = activeTop, case .alert(let alert) = presented[index] else { return [] }
        presented.remove(at: index)
        guard button == 1 else { return [] }
        switch alert.action {
        case .deleteItem(let id):
            if let top = activeTop, case .contextMenu = presented[top] { presented.remove(at: top) }
            var edits = catalogEdits[catalogKey] ?? CatalogEdits()
            edits.deleted.insert(id)
            edits.pinned.removeAll { $0 == id }
            catalogEdits[catalogKey] = edits
            rebuildCatalog()
            catalog.clamp(count: catalogItems.count, visible: Layout(size: size).listRows)
        }
        return []
    }

    /// Moves the focus of the top context menu or alert by `delta`, stopping at the ends.
    mutating func moveLayerFocus(by delta: Int) {
        guard let index = activeTop else { return }
        switch presented[index] {
        case .contextMenu(var menu):
            menu.cursor = max(0, min(ContextMenu.focusCount - 1, menu.cursor + delta))
            presented[index] = .contextMenu(menu)
        case .alert(var alert):
            alert.cursor = max(0, min(alert.buttons.count - 1, alert.cursor + delta))
            presented[index] = .alert(alert)
        case .accountForm(var form):
            form.moveFocus(by: delta)
            presented[index] = .accountForm(form)
        default: break
        }
    }

    /// Removes context menus whose item is gone (the account changed under them).
    mutating func dropStaleContextMenus() {
        guard presented.contains(where: { if case .contextMenu = $0 { true } else { false } }) else { return }
        let items = Set(catalogItems.map(\.id))
        presented.removeAll { layer in
            if case .contextMenu(let menu) = layer { return !items.contains(menu.itemID) }
            return false
        }
    }
}
