import PerchDomain
import PerchKit

/// The inline picker's root model (`perch pick`, `perch switch` with no account): the
/// interface's own account sheet, alone, with the picker's rules (``InlinePickerMode``), drawn
/// as a block of rows below the cursor's line. A root of its own on PerchKit's loop, beside the
/// interface's root (PerchKit's ``TabApp``): neither knows the other.
///
/// - Printable keys and pastes type into the filter at once; `Enter` or a click on a row ends
///   the picker with that row's account (even the current one); `Esc`, `Ctrl-C` (interrupted) and `Ctrl-D`
///   cancel, and so does the sheet going away. Nothing else is presented (no help, no form), and
///   nothing is switched or saved here.
/// - ``size`` is a virtual screen just tall enough for the sheet at its fit height
///   (``InlinePickerMode/virtualSize``); the frame drawn is the block alone, and pointer
///   positions are read against the block's top row, which the terminal's cursor position
///   report (DSR 6) gives.
public struct AccountPicker: LoopRoot, Hashable, Sendable {
    /// The picker's block, rules and ending.
    public private(set) var mode: InlinePickerMode
    /// The accounts offered, and what is derived from them (the filter's search).
    public private(set) var accountsIndex: AccountsIndex
    /// The state the picker was started in: which account is current.
    public let saved: SavedState
    /// The account sheet; nil once it went away (the picker then ends, cancelled).
    public private(set) var sheet: AccountSheet?
    /// The virtual screen the sheet is laid out on, columns × rows.
    public private(set) var size: Size
    /// Time of the latest event, in milliseconds on the loop's clock.
    public private(set) var clock: Int64 = 0
    /// The terminal's background as it answered OSC 11; nil until it does (no colour is drawn).
    public private(set) var background: TerminalBackground?

    /// The picker over `accounts` with `saved` as the current state, the sheet open on the
    /// current account, for a terminal of `terminal` size (columns × rows). Check
    /// ``InlinePickerMode/fits`` (``mode``) before running it.
    /// - Parameters:
    ///   - height: `--height`, the most rows to take; nil for the default cap.
    ///   - verb: what `Enter` does, shown in the footer (`switch`, `pick`).
    public init(accounts: [Account], saved: SavedState, terminal: Size, height: Int?, verb: String) {
        accountsIndex = AccountsIndex(accounts)
        var saved = saved
        if accountsIndex.index(of: saved.currentAccount) == nil { saved.currentAccount = nil }
        self.saved = saved
        mode = InlinePickerMode(
            rowCount: accountsIndex.groupedRows?.count ?? accounts.count, terminal: terminal, requestedHeight: height, verb: verb)
        size = Layout.capped(mode.virtualSize)
        openSheet()
    }

    /// How the picker ended; nil while it runs.
    public var outcome: InlinePickerMode.Outcome? { mode.outcome }

    /// The accounts, in config order.
    public var accounts: [Account] { accountsIndex.accounts }

    /// What the sheet sees of the picker: the accounts, the current one, the virtual screen.
    /// Motion is always reduced: the block has no room for a sheet to rise into.
    var context: ModelContext {
        var settings = SettingsState()
        settings.values.reduceMotion = true
        var info = RunInfo()
        info.background = background
        return ModelContext(
            accounts: accountsIndex, saved: saved, currentIndex: accountsIndex.index(of: saved.currentAccount), pendingSwitch: nil,
            size: size, clock: clock, info: info, reduceMotion: true, sheetStyle: SheetStyle(settings.values.sheetStyle),
            settings: settings,
            catalog: CatalogPane())
    }

    private var layout: Layout { Layout(size: size) }

    /// Opens the sheet on the current account (on the first row when there is none), without
    /// the `Add account…` row: the picker has no room for the form.
    private mutating func openSheet() {
        guard SheetLayout(rowCount: accounts.count + 1, screen: size).visibleRows > 0, !layout.isTooSmall else { return }
        var sheet = AccountSheet()
        sheet.rows = accountsIndex.groupedRows
        sheet.offersAddAccount = false
        let context = self.context
        let current = context.currentIndex
        sheet.moveCursor(
            to: current.map { current in sheet.rows?.firstIndex(of: .account(current)) ?? current } ?? 0, direction: 1, context)
        self.sheet = sheet.advance(context.kit) ? sheet : nil
    }

    // MARK: LoopRoot

    /// Takes one event at `time` (milliseconds on the loop's clock; nil keeps the clock) in the
    /// picker's rules; returns the effects: the rows taken again and the cursor asked after a
    /// resize, the mouse once the block is placed, `quit` when the picker ends. Outcomes mean
    /// nothing here.
    public mutating func update(_ event: AppEvent, at time: Int64? = nil) -> [Effect] {
        if let time { clock = max(clock, time) }
        guard mode.outcome == nil, case .ui(let event) = event else { return [] }
        let effects = handle(event)
        if mode.outcome == nil, sheet == nil { return end(.cancelled) }
        let context = self.context
        if sheet?.advance(context.kit) == false { sheet = nil }
        return effects
    }

    /// ``update(_:at:)`` for input, a gesture, a frame or a resize.
    public mutating func update(_ event: UIEvent, at time: Int64? = nil) -> [Effect] { update(.ui(event), at: time) }

    private mutating func handle(_ event: UIEvent) -> [Effect] {
        switch event {
        case .key(let key):
            // Bug: Ctrl-C exited 1 here but 130 at prompts: it is an interruption, not a cancel.
            if key == KeyEvent(.control("c")) { return end(.interrupted) }
            if key == KeyEvent(.escape) || key == KeyEvent(.control("d")) { return end(.cancelled) }
            // Bug: Ctrl-Z did nothing in the picker (raw mode delivers it as a key), and what was
            // typed next went into the filter; it stops the picker as it stops the interface.
            if key == KeyEvent(.control("z")) { return [.suspend] }
            if key == KeyEvent(.enter) { return toSheet(.verb(.pick)) }
            if case .character = key.key, key.modifiers.isEmpty { startFilter() }
            return handleKey(key)
        case .paste(let text):
            startFilter()
            return type(text)
        case .tap(let target) where target.part(AccountSheet.Part.self)?.accountIndex != nil:
            return toSheet(.tap(target))
        case .scroll(let target, let notches):
            return toSheet(.scroll(target, notches: notches))
        case .resize(let terminal):
            return resize(to: terminal)
        case .terminalReply(.cursorPosition(let row, let column)):
            // The block is the rows under the cursor's line: the pointer can be placed now.
            mode.blockTop = row + 1
            mode.lineColumn = column
            return [.setMouse(true)]
        case .terminalReply(.backgroundColor(let rgb)):
            background = TerminalBackground(rgb)
            return []
        default:
            // Holds, long-presses, drags, focus and other replies mean nothing here.
            return []
        }
    }

    /// A key as the sheet's own table binds it (``AccountSheet/keys``); a key the filter does
    /// not bind types into it. Its keys for quitting and the form mean nothing here, nor do the
    /// interface's (help, tabs).
    private mutating func handleKey(_ key: KeyEvent) -> [Effect] {
        guard let sheet else { return [] }
        let keys = sheet.keys
        if let verb = keys.verb(for: key) {
            switch verb {
            case .close:
                self.sheet = nil
                return []
            case .quit, .addAccount: return []
            default: return toSheet(.verb(verb))
            }
        }
        guard keys.typesText(key), case .character(let character) = key.key else { return [] }
        return type(String(character))
    }

    /// A printable key or a paste starts the filter at once.
    private mutating func startFilter() {
        guard let sheet, !sheet.isEditingFilter else { return }
        _ = toSheet(.verb(.startFilter))
    }

    /// Typed or pasted text for the filter; the search text is built first.
    private mutating func type(_ text: String) -> [Effect] {
        accountsIndex.prepareSearch()
        return toSheet(.paste(text))
    }

    /// Hands `input` to the sheet and carries out what it asks that means something here: a
    /// pick ends the picker with that account, a dismissal takes the sheet away, and the
    /// filter's search text is built when the filter opens.
    private mutating func toSheet(_ input: ComponentInput<AccountSheet.Verb>) -> [Effect] {
        guard var sheet else { return [] }
        let reactions = sheet.update(input, context.kit)
        self.sheet = sheet
        for reaction in reactions {
            switch reaction.request {
            case .send(let intent as PerchModel.Message):
                switch intent {
                case .pick(let index) where accounts.indices.contains(index):
                    return end(.picked(accountID: accounts[index].id))
                case .prepareSearch: accountsIndex.prepareSearch()
                default: break  // the form is the interface's
                }
            case .dismiss:
                self.sheet = nil
            default:
                break  // quitting is the picker's own (Esc, Ctrl-C, Ctrl-D)
            }
        }
        return []
    }

    /// The picker's answer to a resize: the block fitted to the new size and taken again (the
    /// terminal may have rewrapped the old rows), the mouse off until the terminal says again
    /// where the rows are.
    private mutating func resize(to terminal: Size) -> [Effect] {
        mode.terminal = terminal
        mode.blockHeight = max(
            1, InlinePickerMode.blockHeight(rowCount: mode.rowCount, terminal: terminal, requested: mode.requestedHeight))
        mode.blockTop = nil
        size = Layout.capped(mode.virtualSize)
        if !layout.isTooSmall, var sheet {
            _ = sheet.update(.relayout, context.kit)
            self.sheet = sheet
        }
        return [.setMouse(false), .takeRows(mode.blockHeight, clearingLine: mode.lineColumn == 0), .ask(.cursorPosition)]
    }

    private mutating func end(_ outcome: InlinePickerMode.Outcome) -> [Effect] {
        mode.outcome = outcome
        return [.quit]
    }

    /// What the loop carries out before the first frame: taking the block's rows below the
    /// cursor's line.
    public var startupEffects: [Effect] { [.takeRows(mode.blockHeight, clearingLine: false)] }

    /// What the terminal is asked after the first frame: its background colour (OSC 11: the
    /// block has no colour until it answers), then where the cursor's line is (DSR 6), which
    /// places the block for the pointer and, as every terminal answers it after OSC 11's, ends
    /// the wait for a terminal that does not answer that.
    public var startupQueries: [TerminalQuery] { [.backgroundColor, .cursorPosition] }

    /// When the loop must send an animation frame next: a frame from now while the sheet moves.
    public var nextAnimationDeadline: Int64? { sheet?.animation != nil ? clock + AccountSheet.animationFrameMilliseconds : nil }

    /// Where a pointer report at `position` (0-based, on the terminal) falls on the block, or
    /// nil before the terminal said where the block starts.
    public func framePosition(_ position: Position) -> Position? {
        guard let top = mode.blockTop else { return nil }
        return Position(column: position.column, row: position.row - top)
    }

    /// `base` with the interface's defaults for the recogniser (the long-press duration and the
    /// key-hold mode of a run with no settings file); no key is held for anything here.
    public func gestureConfiguration(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        configuration.longPressMilliseconds = context.settings.values.longPressMilliseconds
        configuration.keyHoldMode = RunInfo().keyHold
        configuration.holdableKeys = [.char("1"), KeyEvent(.enter)]
        return configuration
    }

    /// False: no key is held for anything in the picker.
    public func acceptsKeyHold(_ key: KeyEvent) -> Bool { false }

    /// The picker's block: the sheet's rows of the virtual screen, the picker's keys in its
    /// footer, blank rows under a sheet the filter made shorter; hits in the block's rows.
    public func renderFrame() -> Frame {
        var frame = Frame(size: size)
        guard let sheet, !layout.isTooSmall else { return Frame(size: Size(width: size.width, height: mode.blockHeight)) }
        let context = self.context
        sheet.render(into: &frame, context)
        let layout = sheet.layout(context)
        if layout.height >= SheetLayout.chromeRows {
            let row = layout.frame.maxY - 1
            let count = sheet.rowCount(accounts: accounts.count)
            let line = Rect(x: layout.frame.x, y: row, width: layout.frame.width, height: 1)
            frame.screen.fill(line)
            frame.screen.put(
                mode.footer(visibleRows: layout.visibleRows, scroll: sheet.cursor.scroll, count: count), column: layout.frame.x, row: row,
                style: .dim, width: layout.frame.width)
        }
        frame.screen.apply(context.settings.values.theme, reported: context.info.background)
        return frame.rows(layout.top..<(layout.top + mode.blockHeight))
    }
}
