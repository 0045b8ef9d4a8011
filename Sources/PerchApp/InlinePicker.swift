import Glibc
import PerchCore

/// The account sheet drawn inline, below the prompt, as `fzf --height` draws: no alternate
/// screen and no ncurses. It takes the rows it needs at the bottom of the shell's screen (the
/// terminal scrolls them up), draws the interface's own sheet there (``AppState``'s sheet,
/// filter and hit-testing, at a virtual screen just tall enough), and on the way out clears
/// those rows and puts the cursor back where the prompt expects it.
///
/// Keys: printable keys type into the filter at once, ↑ ↓ PgUp PgDn Home End move, `Enter`
/// picks, `Esc` and `Ctrl-C` cancel. The mouse (SGR reports, xterm ctlseqs modes 1000 and
/// 1006) clicks rows and scrolls with the wheel, when the terminal answers the cursor position
/// report (DSR 6) that places the rows on the screen.
final class InlinePicker {
    /// How the picker ended.
    enum Outcome: Equatable {
        case picked(Account)
        case cancelled
        /// The `Add account…` row was chosen: the picker has no form; the interface or
        /// `perch config edit` adds accounts.
        case addAccount
    }

    /// Why the picker could not run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Rows of the sheet with the default cap: half the terminal, but never fewer than this.
    static let minimumDefaultRows = 6

    private var state: AppState
    private let input: Int32
    private let output: Int32
    private let colors: Bool
    private let requestedHeight: Int?
    /// What `Enter` does, for the footer: `switch` or `pick`.
    private let verb: String
    private var decoder = InputDecoder()
    /// Rows the picker took below the prompt.
    private var blockHeight = 0
    /// Rows of the sheet's list (accounts, group headings, `Add account…`), for its fit height.
    private var rowCount = 0
    /// Screen row (0-based) of the block's first row, when the terminal said; mouse needs it.
    private var blockTop: Int?
    /// Block row the cursor is on.
    private var cursorRow = 0
    /// What each block row shows now, to redraw only rows that changed.
    private var drawn: [String] = []
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
        self.output = output
        self.colors = colors
        requestedHeight = height
        state = AppState(accounts: accounts, saved: saved, size: Size(width: 80, height: 24), reduceMotion: true)
    }

    /// Block height for `rowCount` sheet list rows on a terminal of `terminal` size, in rows:
    /// the sheet's fit height (list rows and chrome, as in the interface), capped by `requested`
    /// or by half the terminal (at least ``minimumDefaultRows``), and by the terminal itself.
    static func blockHeight(rowCount: Int, terminal: Size, requested: Int?) -> Int {
        let fitted = rowCount + SheetLayout.chromeRows
        let cap = requested ?? max(minimumDefaultRows, terminal.height / 2)
        return max(0, min(fitted, cap, terminal.height))
    }

    /// Runs until an account is picked or the picker is cancelled; the terminal is restored and
    /// the rows cleared before it returns.
    /// - Throws: ``Failure`` when the terminal cannot be used (too small, no size, no raw mode).
    func run() throws(Failure) -> Outcome {
        guard let terminal = Self.terminalSize(output) else { throw Failure(description: "cannot read the terminal's size") }
        let rows = (state.accountsIndex.groupedRows?.count ?? state.accounts.count) + 1
        rowCount = rows
        blockHeight = Self.blockHeight(rowCount: rows, terminal: terminal, requested: requestedHeight)
        guard terminal.width >= Layout.minimumSize.width, blockHeight >= SheetLayout.chromeRows + 1 else {
            throw Failure(description: "the terminal is too small for the picker (\(terminal.width)×\(terminal.height))")
        }
        guard TerminalGuard.enter(input: input, output: output) else {
            throw Failure(description: "cannot set the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        defer { TerminalGuard.leave() }
        resize(to: terminal)
        state.openSheet()
        takeRows()
        let outcome = loop()
        // Leave nothing: clear the rows taken and go back to the first, where the prompt expects.
        write(moveTo(row: 0) + "\r\u{1B}[J")
        return outcome
    }

    /// Clears from the cursor's row down and takes ``blockHeight`` rows from there: moves down
    /// through them (the terminal scrolls at its bottom), then back up, and asks where they are.
    private func takeRows() {
        var text = "\r\u{1B}[J" + String(repeating: "\n", count: blockHeight - 1)
        if blockHeight > 1 { text += "\u{1B}[\(blockHeight - 1)A" }
        write(text)
        cursorRow = 0
        blockTop = nil
        locateBlock()
        if blockTop != nil { write(TerminalGuard.mouseOn) }
        drawn = Array(repeating: "\u{0}", count: blockHeight)
    }

    // MARK: - Input

    private func loop() -> Outcome {
        var buffer = [UInt8](repeating: 0, count: 4096)
        draw()
        while true {
            if TerminalGuard.resized {
                TerminalGuard.resized = false
                if let size = Self.terminalSize(output) {
                    // The terminal may have rewrapped the rows: clear from the first one down
                    // and take them again at the new size.
                    blockHeight = max(1, Self.blockHeight(rowCount: rowCount, terminal: size, requested: requestedHeight))
                    resize(to: size)
                    takeRows()
                    draw()
                }
            }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let timeout = decoder.hasPendingBytes ? Int32(InputDecoder.escapeTimeoutMilliseconds) : -1
            let ready = poll(&poller, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .cancelled
            }
            let events: [InputEvent]
            if ready == 0 {
                events = decoder.flush()
            } else {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                if n <= 0 { return .cancelled }
                events = decoder.feed(buffer[0..<n])
            }
            for event in events {
                if let outcome = handle(event) { return outcome }
            }
            draw()
        }
    }

    /// Applies one input event; returns the outcome when the picker is done.
    private func handle(_ event: InputEvent) -> Outcome? {
        switch event {
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
                if target == .sheetAddAccount { return .addAccount }
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
        case .addAccount: return .addAccount  // the picker has no form
        case .heading: return nil
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
        // `+` opens the Add account form, which the picker has no room for.
        if state.accountForm != nil { return .addAccount }
        // Only the sheet is shown: any other layer (help) is taken back at once.
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
        var text = ""
        for row in 0..<blockHeight {
            let line = row < layout.height ? screen.ansiLine(layout.top + row, colors: colors) : ""
            guard drawn[row] != line else { continue }
            text += moveTo(row: row) + "\r" + line + "\u{1B}[0m\u{1B}[K"
            drawn[row] = line
        }
        if !text.isEmpty { write(text + moveTo(row: 0) + "\r") }
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

    /// The cursor movement from ``cursorRow`` to block row `row` (updating it).
    private func moveTo(row: Int) -> String {
        defer { cursorRow = row }
        if row < cursorRow { return "\u{1B}[\(cursorRow - row)A" }
        if row > cursorRow { return "\u{1B}[\(row - cursorRow)B" }
        return ""
    }

    private func write(_ text: String) {
        TerminalGuard.write(text, to: output)
    }

    /// Asks the terminal where the cursor is (DSR 6, answered by `CSI row ; column R`), waiting at
    /// most 500 ms; keys typed meanwhile are kept for the decoder.
    private func locateBlock() {
        write("\u{1B}[6n")
        var received: [UInt8] = []
        let deadline = MonotonicClock.now() + 500
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { break }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            var byte: UInt8 = 0
            guard read(input, &byte, 1) == 1 else { break }
            received.append(byte)
            if byte == 0x52, let reply = Self.cursorReport(in: received) {
                blockTop = reply.row
                received.removeSubrange(reply.range)
                break
            }
        }
        if !received.isEmpty { pendingInput(received) }
    }

    /// Bytes read before the picker's loop: decoded as input.
    private func pendingInput(_ bytes: [UInt8]) {
        for event in decoder.feed(bytes) { _ = handle(event) }
    }

    /// A cursor position report at the end of `bytes`: its 0-based row and where it is.
    static func cursorReport(in bytes: [UInt8]) -> (row: Int, range: Range<Int>)? {
        guard let start = bytes.lastIndex(of: 0x1B), bytes.count - start >= 6, bytes[start + 1] == 0x5B, bytes.last == 0x52 else {
            return nil
        }
        let body = String(decoding: bytes[(start + 2)..<(bytes.count - 1)], as: UTF8.self).split(separator: ";")
        guard body.count == 2, let row = Int(body[0]), Int(body[1]) != nil, row >= 1 else { return nil }
        return (row - 1, start..<bytes.count)
    }

    /// The size of the terminal on `fd` (TIOCGWINSZ), or nil.
    static func terminalSize(_ fd: Int32) -> Size? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return Size(width: Int(size.ws_col), height: Int(size.ws_row))
    }
}

/// The terminal modes of the inline picker, turned on and off, and turned off from a fatal
/// signal's handler too: raw input, no cursor, SGR mouse (xterm ctlseqs 1000, 1006).
enum TerminalGuard {
    static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    static let restoreBytes = Array("\u{1B}[?1000l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h".utf8)
    /// From a fatal signal the picker's rows are cleared too: between frames the cursor rests on
    /// the first of them.
    static let clearAndRestoreBytes = Array("\r\u{1B}[J".utf8) + restoreBytes
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var input: Int32 = -1
    nonisolated(unsafe) static var output: Int32 = -1
    nonisolated(unsafe) static var resized = false
    static let fatalSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]

    /// Raw mode on `input`, the cursor hidden on `output`, handlers for fatal signals and SIGWINCH.
    static func enter(input: Int32, output: Int32) -> Bool {
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { return false }
        saved = attributes
        self.input = input
        self.output = output
        cfmakeraw(&attributes)
        // Output processing stays as the shell had it: "\n" still returns the carriage.
        attributes.c_oflag = saved.c_oflag
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { return false }
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TerminalGuard.restore(clearing: true)
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigaction(signal, &action, nil)
        }
        var winch = sigaction()
        winch.__sigaction_handler.sa_handler = { _ in TerminalGuard.resized = true }
        sigaction(SIGWINCH, &winch, nil)
        write("\u{1B}[?25l", to: output)
        return true
    }

    /// Everything ``enter(input:output:)`` changed, put back.
    static func leave() {
        restore()
        for signal in fatalSignals + [SIGWINCH] { Glibc.signal(signal, SIG_DFL) }
    }

    /// Async-signal-safe: only write(2) and tcsetattr(3).
    static func restore(clearing: Bool = false) {
        let bytes = clearing ? clearAndRestoreBytes : restoreBytes
        _ = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
        _ = tcsetattr(input, TCSAFLUSH, &saved)
    }

    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
