import Glibc
import PerchCore
import PerchTerminal

/// The account sheet drawn inline, below the cursor's line, as `fzf --height` draws: no
/// alternate screen and no ncurses. It takes the rows it needs below the line (the terminal
/// scrolls them up at its bottom; text already on the line stays, fzf #2446), draws the
/// interface's own sheet there (``AppState``'s sheet, filter and hit-testing, at a virtual screen
/// just tall enough) through a ``LineModeBackend``, and on the way out clears those rows and puts
/// the cursor back where it was on the line.
///
/// It shares the interface's terminal handling: the input decoder (answers are replies, never
/// keys), the signal pipe (every terminating signal ends it with the rows cleared and status 128 +
/// the signal; fatal ones restore through ``EmergencyRestore``), and the queries' bookkeeping
/// (``TerminalQueries``): the first frame is drawn before any answer, and answers still expected
/// are read before the terminal is given back.
///
/// Keys: printable keys type into the filter at once, ↑ ↓ PgUp PgDn Home End move, `Enter`
/// picks, `Esc` and `Ctrl-C` cancel. The mouse (SGR reports, xterm ctlseqs modes 1000 and
/// 1006) clicks rows and scrolls with the wheel once the terminal has answered the cursor
/// position report (DSR 6) that places the rows on the screen; it is asked in passing.
final class InlinePicker {
    /// How the picker ended.
    enum Outcome: Equatable {
        case picked(Account)
        case cancelled
        /// A terminating signal ended it (the rows cleared, the terminal restored).
        case signalled(Int32)
    }

    /// Why the picker could not run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Rows of the sheet with the default cap: half the terminal, but never fewer than this.
    static let minimumDefaultRows = 6

    private var state: AppState
    private let input: Int32
    private let terminal: LineModeBackend
    private let requestedHeight: Int?
    /// What `Enter` does, for the footer: `switch` or `pick`.
    private let verb: String
    private var decoder = InputDecoder()
    /// Rows the picker took below the cursor's line.
    private var blockHeight = 0
    /// Queries sent and not answered yet (the cursor position report).
    private var queries = TerminalQueries()
    /// When input last arrived (ms), for the decoder's timeouts.
    private var lastInput: Int64 = 0
    /// Rows of the sheet's list (accounts and group headings), for its fit height.
    private var rowCount = 0
    /// Screen row (0-based) of the block's first row, when the terminal said; mouse needs it.
    private var blockTop: Int?
    /// Column (0-based) the cursor had on its line, when the terminal said: 0 is an empty line.
    private var lineColumn: Int?
    /// The target of the last mouse press, for a click (press and release on the same target).
    private var pressed: HitTarget?

    /// - Parameters:
    ///   - input: the terminal to read keys from (standard input).
    ///   - output: the terminal to draw on (standard output, or standard error for `perch pick`).
    ///   - height: `--height`, the most rows to take; nil for the default cap.
    ///   - verb: what `Enter` does, shown in the footer (`switch`, `pick`).
    init(accounts: [Account], saved: SavedState, input: Int32, output: Int32, height: Int?, colors: Bool, verb: String) {
        self.verb = verb
        self.input = input
        terminal = LineModeBackend(input: input, output: output, colors: colors)
        requestedHeight = height
        state = AppState(accounts: accounts, saved: saved, size: Size(width: 80, height: 24), reduceMotion: true)
    }

    /// Block height for `rowCount` sheet list rows on a terminal of `terminal` size, in rows:
    /// the sheet's fit height (list rows and chrome, as in the interface), capped by `requested`
    /// or by half the terminal (at least ``minimumDefaultRows``), and by the rows below the
    /// cursor's line (the terminal's height less that line).
    static func blockHeight(rowCount: Int, terminal: Size, requested: Int?) -> Int {
        let fitted = rowCount + SheetLayout.chromeRows
        let cap = requested ?? max(minimumDefaultRows, terminal.height / 2)
        return max(0, min(fitted, cap, terminal.height - 1))
    }

    /// Runs until an account is picked, the picker is cancelled or a signal ends it; the
    /// terminal is restored and the rows cleared before it returns.
    /// - Throws: ``Failure`` when the terminal cannot be used (too small, no size, no raw mode).
    func run() throws(Failure) -> Outcome {
        guard let size = LineModeBackend.size(of: terminal.output) else { throw Failure(description: "cannot read the terminal's size") }
        // No `Add account…` row: the picker has no room for the form (the interface and
        // `perch config edit` add accounts).
        let rows = state.accountsIndex.groupedRows?.count ?? state.accounts.count
        rowCount = rows
        blockHeight = Self.blockHeight(rowCount: rows, terminal: size, requested: requestedHeight)
        guard size.width >= Layout.minimumSize.width, blockHeight >= SheetLayout.chromeRows + 1 else {
            throw Failure(description: "the terminal is too small for the picker (\(size.width)×\(size.height))")
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        guard terminal.enter() else {
            throw Failure(description: "cannot set the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        resize(to: size)
        state.openSheet(offeringAddAccount: false)
        takeRows()
        let outcome = loop()
        finishReplies()
        terminal.leave()
        return outcome
    }

    /// Takes ``blockHeight`` rows below the cursor's line, and asks in passing where they are
    /// (the mouse is turned on when the answer comes).
    private func takeRows() {
        terminal.setMouse(false)
        terminal.takeRows(blockHeight, clearingLine: lineColumn == 0)
        blockTop = nil
        if queries.shouldAsk(.cursorPosition) {
            terminal.write(control: TerminalQuery.cursorPosition.bytes)
            queries.sent(.cursorPosition, at: MonotonicClock.now())
            decoder.expectsCursorReport = true
        }
    }

    // MARK: - Input

    private func loop() -> Outcome {
        var buffer = [UInt8](repeating: 0, count: 4096)
        draw()
        while true {
            var fds = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            if let pending = decoder.pendingTimeoutMilliseconds {
                timeout = Int32(clamping: max(0, lastInput + pending - MonotonicClock.now()))
            }
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .cancelled
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in SignalPipe.drain() {
                    if let outcome = handle(signal: signal) { return outcome }
                }
            }
            var events: [InputEvent] = []
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                if n <= 0 { return .signalled(SIGHUP) }
                lastInput = MonotonicClock.now()
                events = decoder.feed(buffer[0..<n])
            } else if let pending = decoder.pendingTimeoutMilliseconds, MonotonicClock.now() - lastInput >= pending {
                events = decoder.flush()
            }
            for event in events {
                if let outcome = handle(event) { return outcome }
            }
            draw()
        }
    }

    /// Reacts to one signal from the signal pipe; the outcome when it ends the picker.
    private func handle(signal: Int32) -> Outcome? {
        switch signal {
        case SIGWINCH:
            guard let size = LineModeBackend.size(of: terminal.output) else { return nil }
            // The terminal may have rewrapped the rows: clear them and take them again at the new size.
            blockHeight = max(1, Self.blockHeight(rowCount: rowCount, terminal: size, requested: requestedHeight))
            resize(to: size)
            takeRows()
            draw()
            return nil
        case SIGCHLD, SIGCONT, SIGTSTP:
            return nil  // no child to wait for; raw mode delivers Ctrl-Z as a key
        case _ where signal <= 0:
            return nil
        default:
            return .signalled(signal)
        }
    }

    /// Reads the answers still expected (at most 500 ms after each query was sent), so none is
    /// left for the shell to read as typed text (qwen-code PR #2718).
    private func finishReplies() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            queries.expire(at: MonotonicClock.now())
            guard let deadline = queries.deadline else { return }
            var fd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(clamping: max(0, deadline - MonotonicClock.now())))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            guard fd.revents & Int16(POLLIN) != 0 else { return }
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            for case .reply(let reply) in decoder.feed(buffer[0..<n]) { queries.received(reply) }
        }
    }

    /// Applies one input event; returns the outcome when the picker is done.
    private func handle(_ event: InputEvent) -> Outcome? {
        switch event {
        case .reply(let reply):
            queries.received(reply)
            if case .cursorPosition(let row, let column) = reply {
                // The block is the rows under the cursor's line.
                blockTop = row + 1
                lineColumn = column
                terminal.setMouse(true)
            }
            return nil
        case .key(let key):
            if key == KeyEvent(.escape) || key == KeyEvent(.control("c")) || key == KeyEvent(.control("d")) { return .cancelled }
            if key == KeyEvent(.enter) { return activate(.key(key), row: sheet?.cursor.cursor) }
            if case .character = key.key, key.modifiers.isEmpty, sheet?.isEditingFilter == false {
                _ = state.update(.key(.char("/")))
            }
            return apply(.key(key))
        case .paste(let text):
            if sheet?.isEditingFilter == false { _ = state.update(.key(.char("/"))) }
            return apply(.paste(text))
        case .mouse(let mouse):
            guard let blockTop, let layout = sheetLayout else { return nil }
            let row = mouse.position.row - blockTop
            guard row >= 0, row < blockHeight else { return nil }
            let position = Position(column: mouse.position.column, row: layout.top + row)
            let target = row < layout.height ? state.hitTest(position) : .none
            switch mouse.kind {
            case .press where mouse.button == .left:
                pressed = target
            case .release:
                defer { pressed = nil }
                guard pressed == target else { return nil }
                if case .sheetRow(let index) = target { return activate(.tap(target), row: index) }
            case .scrollUp: return apply(.scroll(target, notches: -1))
            case .scrollDown: return apply(.scroll(target, notches: 1))
            default: break
            }
            return nil
        default:
            return nil
        }
    }

    /// Picks sheet row `row` with `event` (Enter or a click): the account on it, whether or not
    /// it is the current one (the interface records nothing then, but the picker still chose it).
    private func activate(_ event: AppEvent, row: Int?) -> Outcome? {
        guard let sheet, let row, row < sheet.rowCount(accounts: state.accounts.count) else { return nil }
        switch sheet.row(row, accounts: state.accounts.count) {
        case .account(let index): return .picked(state.accounts[index])
        case .addAccount, .heading: return nil
        }
    }

    /// Gives `event` to the sheet; the outcome when that ended it.
    private func apply(_ event: AppEvent) -> Outcome? {
        let effects = state.update(event)
        for effect in effects {
            switch effect {
            case .recordSwitch(let id):
                if let account = state.accounts.first(where: { $0.id == id }) { return .picked(account) }
            case .quit: return .cancelled
            default: break
            }
        }
        // Only the sheet is shown: any other layer (help, a form) is taken back at once.
        while state.presented.count > 1 { _ = state.update(.key(KeyEvent(.escape))) }
        return sheet == nil ? .cancelled : nil
    }

    private var sheet: AccountSheet? {
        guard let sheet = state.sheet, !sheet.isClosing else { return nil }
        return sheet
    }

    private var sheetLayout: SheetLayout? { sheet == nil ? nil : state.sheetLayout }

    // MARK: - Drawing

    /// The interface's state sized so that its sheet at the fit detent is at most the block.
    private func resize(to terminal: Size) {
        blockHeight = min(blockHeight, terminal.height)
        let size = Size(width: terminal.width, height: blockHeight + SheetLayout.minimumRowsAbove)
        _ = state.update(.resize(size))
    }

    /// Draws the rows that changed: the sheet's rows first, blank rows under a sheet the filter
    /// made shorter.
    private func draw() {
        guard let layout = sheetLayout, let sheet else { return }
        var screen = state.render()
        drawFooter(sheet, layout, into: &screen)
        terminal.draw(screen, rows: layout.top..<(layout.top + layout.height))
    }

    /// The picker's own keys in the sheet's footer row, in place of the interface's (`/` and `?`
    /// type here, and `Esc` leaves at once), with the same `first–last of count` when it scrolls.
    private func drawFooter(_ sheet: AccountSheet, _ layout: SheetLayout, into screen: inout Screen) {
        guard layout.height >= SheetLayout.chromeRows else { return }
        let row = layout.frame.maxY - 1
        let count = sheet.rowCount(accounts: state.accounts.count)
        var footer = " type to filter · ↑↓ move · Enter \(verb) · Esc cancel"
        if layout.visibleRows < count, layout.visibleRows > 0 {
            footer += " · \(sheet.cursor.scroll + 1)–\(min(count, sheet.cursor.scroll + layout.visibleRows)) of \(count)"
        }
        let line = Rect(x: layout.frame.x, y: row, width: layout.frame.width, height: 1)
        screen.fill(line)
        screen.put(footer, column: layout.frame.x, row: row, style: .dim, width: layout.frame.width)
    }
}
