extension AppState {
    /// The root model of the inline picker (``InlinePickerMode``): `accounts` with `saved` as the
    /// current state, the sheet open on the current account, for a terminal of `terminal` size
    /// (columns × rows). Check ``InlinePickerMode/fits`` before running it.
    /// - Parameters:
    ///   - height: `--height`, the most rows to take; nil for the default cap.
    ///   - verb: what `Enter` does, shown in the footer (`switch`, `pick`).
    public init(picking accounts: [Account], saved: SavedState, terminal: Size, height: Int?, verb: String) {
        self.init(accounts: accounts, saved: saved, size: terminal, reduceMotion: true)
        // No `Add account…` row: the picker has no room for the form (the interface and
        // `perch config edit` add accounts).
        let rows = accountsIndex.groupedRows?.count ?? accounts.count
        inlinePicker = InlinePickerMode(rowCount: rows, terminal: terminal, requestedHeight: height, verb: verb)
        fitPicker()
        openSheet(offeringAddAccount: false)
    }

    /// Lays the sheet out on the picker's virtual screen (``InlinePickerMode/virtualSize``).
    private mutating func fitPicker() {
        guard let picker = inlinePicker else { return }
        size = Layout.capped(picker.virtualSize)
        if !layout.isTooSmall { relayout() }
    }

    /// Takes one event in the picker's rules (``InlinePickerMode``); returns the effects.
    mutating func handleInPicker(_ event: AppEvent) -> [Effect] {
        guard inlinePicker?.outcome == nil else { return [] }
        guard case .ui(let event) = event else { return [] }  // outcomes mean nothing here
        let effects: [Effect]
        switch event {
        case .key(let key):
            if key == KeyEvent(.escape) || key == KeyEvent(.control("c")) || key == KeyEvent(.control("d")) {
                return endPicker(.cancelled)
            }
            // Raw mode delivers Ctrl-Z as a key: the picker does not stop for it.
            if key == KeyEvent(.control("z")) { return [] }
            if key == KeyEvent(.enter) {
                effects = route(.action(.activate))
            } else {
                if case .character = key.key, key.modifiers.isEmpty { startPickerFilter() }
                effects = handleKey(key)
            }
        case .paste(let text):
            startPickerFilter()
            effects = routeText(text)
        case .tap(let target) where target.part(AccountSheet.Part.self)?.accountIndex != nil:
            effects = route(.tap(target))
        case .scroll(let target, let notches):
            effects = route(.scroll(target, notches: notches))
        case .resize(let terminal):
            return resizePicker(to: terminal)
        case .terminalReply(.cursorPosition(let row, let column)):
            // The block is the rows under the cursor's line: the pointer can be placed now.
            inlinePicker?.blockTop = row + 1
            inlinePicker?.lineColumn = column
            return [.setMouse(true)]
        default:
            // Holds, long-presses, drags, focus and outcomes mean nothing here.
            return []
        }
        // Only the sheet is shown: any other layer (help, a form) is taken back at once.
        presented.removeAll { !$0.is(AccountSheet.self) }
        if sheet == nil { return endPicker(.cancelled) }
        return effects.filter { $0 == .quit }
    }

    /// The picker's answer to a resize: the block fitted to the new size and taken again (the
    /// terminal may have rewrapped the old rows), the mouse off until the terminal says again
    /// where the rows are.
    private mutating func resizePicker(to terminal: Size) -> [Effect] {
        guard var picker = inlinePicker else { return [] }
        picker.terminal = terminal
        picker.blockHeight = max(
            1, InlinePickerMode.blockHeight(rowCount: picker.rowCount, terminal: terminal, requested: picker.requestedHeight))
        picker.blockTop = nil
        inlinePicker = picker
        fitPicker()
        return [.setMouse(false), .takeRows(picker.blockHeight, clearingLine: picker.lineColumn == 0), .ask(.cursorPosition)]
    }

    /// A printable key or a paste starts the filter at once.
    private mutating func startPickerFilter() {
        guard let sheet, !sheet.isEditingFilter else { return }
        _ = perform(.startFilter, in: inputContext)
    }

    /// The sheet picked the account at `index`: the picker ends with it.
    mutating func pickInPicker(_ index: Int) -> [Effect] {
        guard accounts.indices.contains(index) else { return [] }
        return endPicker(.picked(accountID: accounts[index].id))
    }

    private mutating func endPicker(_ outcome: InlinePickerMode.Outcome) -> [Effect] {
        inlinePicker?.outcome = outcome
        return [.quit]
    }

    /// The picker's block: the sheet's rows of the virtual screen, the picker's keys in its
    /// footer, blank rows under a sheet the filter made shorter; hits in the block's rows.
    func renderPickerFrame(_ picker: InlinePickerMode) -> Frame {
        var frame = Frame(size: size)
        guard let sheet = presented.topmost(AccountSheet.self)?.layer, !layout.isTooSmall else {
            return Frame(size: Size(width: size.width, height: picker.blockHeight))
        }
        let context = self.context
        sheet.render(into: &frame, context)
        let layout = sheet.layout(context)
        if layout.height >= SheetLayout.chromeRows {
            let row = layout.frame.maxY - 1
            let count = sheet.rowCount(accounts: accounts.count)
            let line = Rect(x: layout.frame.x, y: row, width: layout.frame.width, height: 1)
            frame.screen.fill(line)
            frame.screen.put(
                picker.footer(visibleRows: layout.visibleRows, scroll: sheet.cursor.scroll, count: count), column: layout.frame.x, row: row,
                style: .dim, width: layout.frame.width)
        }
        frame.screen.apply(settingsState.values.theme)
        return frame.rows(layout.top..<(layout.top + picker.blockHeight))
    }
}
