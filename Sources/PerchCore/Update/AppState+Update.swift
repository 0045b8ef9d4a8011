extension AppState {
    /// Applies one event and returns the effects the event loop must carry out, in order.
    /// This is the only function that changes the state in response to input.
    public mutating func update(_ event: AppEvent) -> [Effect] {
        if case .key(let key) = event {
            banner = nil
            if key.key == .control("c") { return [.quit] }
            if key.key == .control("z") { return [.suspend] }
        }
        switch event {
        case .resize(let newSize):
            size = newSize
            clampLists()
            return []
        case .key(let key):
            return sheet != nil ? sheetKey(key) : paneKey(key)
        case .keyHold(let key):
            if key == .char(Tab.overview.shortcut), presented.isEmpty { openSheet() }
            return []
        case .longPress(let target):
            if target == .tab(.overview), presented.isEmpty {
                selectedTab = .overview
                openSheet()
            }
            return []
        case .tap(let target):
            return tap(target)
        case .scroll(let target, let notches):
            scroll(target, notches: notches)
            return []
        case .paste, .focus:
            return []
        }
    }

    /// Rows a Page Up / Page Down moves in a list of `visible` rows.
    static func pageStep(_ visible: Int) -> Int { max(1, visible - 1) }

    /// Mouse wheel: rows per notch.
    public static let rowsPerScrollNotch = 3

    /// Opens the account sheet with its cursor on the current account; on a screen too short to
    /// show a single account row it stays closed (an invisible sheet would swallow every key).
    public mutating func openSheet() {
        guard sheetLayout.visibleRows > 0 else { return }
        let index = currentIndex ?? 0
        var cursor = ListCursor()
        cursor.moveTo(index, count: accounts.count, visible: sheetLayout.visibleRows)
        presented.append(.accountSheet(cursor))
    }

    /// The sheet's geometry for the current accounts and screen size.
    public var sheetLayout: SheetLayout { SheetLayout(rowCount: accounts.count, screen: size) }

    private var layout: Layout { Layout(size: size) }

    /// Picks the account at `index`: it becomes current, the Overview tab is selected and the
    /// sheet is dismissed. The switch is always handed to the store, which reads the file under
    /// its lock and records nothing when the account is already current there; so another
    /// instance's switch that this one has not seen yet cannot make a pick be lost.
    mutating func pick(_ index: Int) -> [Effect] {
        guard accounts.indices.contains(index) else { return [] }
        dismissTop()
        selectedTab = .overview
        let id = accounts[index].id
        if id != saved.currentAccount { adopt(saved.recordingSwitch(to: id)) }
        return [.recordSwitch(accountID: id)]
    }

    mutating func dismissTop() {
        if !presented.isEmpty { presented.removeLast() }
    }

    private mutating func updateSheet(_ change: (inout ListCursor, Int, Int) -> Void) {
        guard case .accountSheet(var cursor)? = presented.last else { return }
        change(&cursor, accounts.count, sheetLayout.visibleRows)
        presented[presented.count - 1] = .accountSheet(cursor)
    }

    private mutating func sheetKey(_ key: KeyEvent) -> [Effect] {
        let visible = sheetLayout.visibleRows
        switch key.key {
        case .escape: dismissTop()
        case .enter:
            // On a screen too short to show any account row, Enter must not pick one unseen.
            guard visible > 0 else { return [] }
            return pick(sheet?.cursor ?? 0)
        case .up, .character("k"): updateSheet { $0.move(by: -1, count: $1, visible: $2) }
        case .down, .character("j"): updateSheet { $0.move(by: 1, count: $1, visible: $2) }
        case .pageUp: updateSheet { $0.move(by: -Self.pageStep(visible), count: $1, visible: $2) }
        case .pageDown: updateSheet { $0.move(by: Self.pageStep(visible), count: $1, visible: $2) }
        case .home, .character("g"): updateSheet { $0.moveTo(0, count: $1, visible: $2) }
        case .end, .character("G"): updateSheet { $0.moveTo($1 - 1, count: $1, visible: $2) }
        default: break
        }
        return []
    }

    private mutating func paneKey(_ key: KeyEvent) -> [Effect] {
        switch key.key {
        case .character("q"):
            return [.quit]
        case .character(let c) where ("1"..."4").contains(c):
            selectedTab = Tab(rawValue: Int(String(c))! - 1) ?? .overview
        case .tab:
            let step = key.modifiers.contains(.shift) ? Tab.allCases.count - 1 : 1
            selectedTab = Tab(rawValue: (selectedTab.rawValue + step) % Tab.allCases.count) ?? .overview
        case .character("a"):
            openSheet()
        default:
            switch selectedTab {
            case .catalog: listKey(key, &catalog, count: catalogItems.count, visible: layout.listRows)
            case .stats: scrollKey(key, &stats, count: accounts.count, visible: layout.listRows)
            case .settings:
                if key.key == .enter { return activate(SettingsAction.allCases[settings.cursor]) }
                listKey(key, &settings, count: SettingsAction.allCases.count, visible: layout.listRows)
            case .overview: break
            }
        }
        return []
    }

    private func listKey(_ key: KeyEvent, _ list: inout ListCursor, count: Int, visible: Int) {
        switch key.key {
        case .up, .character("k"): list.move(by: -1, count: count, visible: visible)
        case .down, .character("j"): list.move(by: 1, count: count, visible: visible)
        case .pageUp: list.move(by: -Self.pageStep(visible), count: count, visible: visible)
        case .pageDown: list.move(by: Self.pageStep(visible), count: count, visible: visible)
        case .home, .character("g"): list.moveTo(0, count: count, visible: visible)
        case .end, .character("G"): list.moveTo(count - 1, count: count, visible: visible)
        default: break
        }
    }

    /// Keys of a list without a cursor (Stats): they scroll the view.
    private func scrollKey(_ key: KeyEvent, _ list: inout ListCursor, count: Int, visible: Int) {
        let delta: Int
        switch key.key {
        case .up, .character("k"): delta = -1
        case .down, .character("j"): delta = 1
        case .pageUp: delta = -Self.pageStep(visible)
        case .pageDown: delta = Self.pageStep(visible)
        case .home, .character("g"): delta = -count
        case .end, .character("G"): delta = count
        default: return
        }
        list.scroll(by: delta, count: count, visible: visible)
    }

    private mutating func activate(_ action: SettingsAction) -> [Effect] {
        switch action {
        case .switchAccount: openSheet()
        }
        return []
    }

    private mutating func tap(_ target: HitTarget) -> [Effect] {
        if sheet != nil {
            switch target {
            case .sheetRow(let index): return pick(index)
            case .outsideSheet: dismissTop()
            default: break
            }
            return []
        }
        switch target {
        case .tab(let tab): selectedTab = tab
        case .catalogRow(let index): catalog.moveTo(index, count: catalogItems.count, visible: layout.listRows)
        case .settingsRow(let index):
            settings.moveTo(index, count: SettingsAction.allCases.count, visible: layout.listRows)
            return activate(SettingsAction.allCases[settings.cursor])
        default: break
        }
        return []
    }

    private mutating func scroll(_ target: HitTarget, notches: Int) {
        let rows = notches * Self.rowsPerScrollNotch
        if sheet != nil {
            updateSheet { $0.move(by: notches, count: $1, visible: $2) }
            return
        }
        switch selectedTab {
        case .catalog: catalog.scroll(by: rows, count: catalogItems.count, visible: layout.listRows)
        case .stats: stats.scroll(by: rows, count: accounts.count, visible: layout.listRows)
        default: break
        }
    }

    /// Keeps every cursor valid and visible after the size or the data changed.
    mutating func clampLists() {
        let rows = layout.listRows
        catalog.clamp(count: catalogItems.count, visible: rows)
        stats.clamp(count: accounts.count, visible: rows)
        settings.clamp(count: SettingsAction.allCases.count, visible: rows)
        updateSheet { $0.clamp(count: $1, visible: $2) }
    }
}
