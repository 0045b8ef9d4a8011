import CNcursesw
import Glibc
import PerchKit

/// Why the terminal cannot be used. Its ``description`` is the one line printed on stderr.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// `TERM` is unset, empty or `dumb`.
    case noTerminalType
    /// terminfo has no entry for `TERM`.
    case unknownTerminalType(String)

    /// One line for standard error, saying what to do (set `TERM`, e.g. to `xterm-256color`).
    public var description: String {
        switch self {
        case .notATerminal:
            return "the interface needs a terminal on standard input and output"
        case .noTerminalType:
            return "TERM is not set (or is \"dumb\"); set it to your terminal's type, e.g. TERM=xterm-256color"
        case .unknownTerminalType(let name):
            let shown = name.count > 40 ? name.prefix(40) + "…" : Substring(name)
            return "terminal type \"\(shown)\" is not in the terminfo database; try TERM=xterm-256color"
        }
    }
}

/// The only code that talks to ncurses (wide-character `ncursesw`).
///
/// ncurses draws: the frame is diffed against the previous one here and only changed cells are
/// handed to ncurses, which sends only what differs from the terminal's contents. They are
/// written into ncurses' virtual screen (`newscr`) and sent with `doupdate`, not written into
/// `stdscr` and copied from it by `wnoutrefresh` (`refresh`), a copy and comparison of every
/// changed cell that took 0.2–0.3 M instructions of a frame redrawn whole at 200×60. Input is not
/// read through ncurses: the event loop reads raw bytes from ``inputDescriptor`` and decodes
/// them itself, so mouse reporting is enabled with explicit xterm private modes (1000 press and
/// release, 1002 drag, 1006 SGR encoding; bracketed paste 2004) whatever terminfo's `kmous`
/// says. References: ncurses curs_initscr(3X), curs_inopts(3X), curs_kernel(3X),
/// resizeterm(3X); xterm "Control Sequences" (ctlseqs), "Mouse Tracking".
public final class NcursesBackend: TerminalBackend {
    /// Bytes that turn on the modes the backend uses: mouse press/release, drag, SGR encoding, bracketed
    /// paste, focus reporting (1004: `CSI I` and `CSI O` when the window gains and loses focus).
    public static let modesOn = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[?1004h"
    /// Bytes that turn them off again, in reverse order.
    public static let modesOff = "\u{1B}[?1004l\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

    /// The terminal's size, columns × rows, as ncurses last gave it (capped to
    /// ``Screen/maximumSize`` by ``updateSize()``).
    public private(set) var size: Size
    /// Standard input, read raw by the event loop (ncurses reads no input).
    public let inputDescriptor: Int32 = STDIN_FILENO
    private let colors: Bool
    /// The colours drawn: none without colour or with `NO_COLOR`, else terminfo's `colors`
    /// (a `-direct` TERM: true colour).
    public private(set) var depth = ColorDepth.none
    /// The colour numbers at ``depth`` of styles beyond the eight foregrounds on the default
    /// background, by the style's two colours (``Style/colorKey``): worked out once (the nearest
    /// colour is a search of the palette). The pair itself is asked of ncurses each time, which
    /// may have given a pair unused for long to other colours.
    private var colorNumbers: [UInt64: (foreground: Int32, background: Int32)] = [:]
    /// Whether colour pairs ``solidPairBase`` + 1 … + 8 exist: each colour on itself, for a cell
    /// filled with that colour (see ``draw(_:)``).
    private var solidColors = false
    private var previous: Screen?
    /// The styles cells are drawn in (``draw(_:styles:)``), applied per run; nil: their own.
    private var styles: StyleMap?
    /// Where ``draw(_:)`` decodes a run of non-ASCII text for ncurses: 512 wide characters, as
    /// many as `perch_put_wide` takes, allocated once rather than per frame.
    private let wide = UnsafeMutableBufferPointer<wchar_t>.allocate(capacity: 512)
    private var active = true
    private let screenPointer: OpaquePointer
    /// Whether the terminal has an alternate screen (terminfo's `rmcup`) that it honours, which
    /// leaving curses mode gives back the shell's screen from; without one (a `vt100`), or
    /// under GNU screen (``alternateScreenHonoured(hasRmcup:environment:)``), the frame is cleared.
    private var alternateScreen = true
    /// Whether the cursor was hidden with DECTCEM (`CSI ? 25 l`) by hand, as terminfo has no
    /// `civis` (a `vt100`): it is shown again the same way (`CSI ? 25 h`) on every way out.
    private var cursorHiddenByHand = false
    /// xterm's DECTCEM: hide and show the cursor (xterm ctlseqs, `CSI ? 25 l` / `CSI ? 25 h`).
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    /// Sent after ``modesOn`` and before ``modesOff``: the kitty keyboard protocol's push and pop,
    /// once ``pushKeyboardFlags(_:)`` turned it on.
    private var keyboardOn = ""
    private var keyboardOff = ""

    /// Frees the buffer ``draw(_:)`` decodes wide text into; the terminal is given back by
    /// ``shutdown()``, not here.
    deinit { wide.deallocate() }

    /// Takes over the terminal: alternate screen, raw input, no echo, hidden cursor, mouse and
    /// bracketed paste on. `colors` false (for `NO_COLOR`) draws with attributes only.
    /// - Throws: ``TerminalError`` before touching the terminal when it cannot be used.
    public init(colors: Bool) throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else { throw .noTerminalType }
        guard perch_terminfo_knows(term) == 1 else { throw .unknownTerminalType(term) }
        Self.selectUTF8Locale()
        Self.saveForEmergency()
        guard let screen = perch_newterm(term) else { throw .unknownTerminalType(term) }
        screenPointer = screen
        alternateScreen = Self.alternateScreenHonoured(hasRmcup: perch_has_alternate_screen() == 1) {
            getenv($0).map { String(cString: $0) }
        }
        raw()
        noecho()
        nonl()
        typeahead(-1)
        intrflush(perch_stdscr(), false)
        leaveok(perch_stdscr(), true)
        // Frames are written into the virtual screen (see draw(_:)), which doupdate reads this from.
        leaveok(perch_newscr(), true)
        // Bug: under TERM=vt100 the cursor stayed visible, as terminfo has no civis and curs_set
        // fails; terminals that take that TERM today are xterm-like and honour DECTCEM.
        if curs_set(0) == perch_ERR {
            cursorHiddenByHand = true
            Self.write(Self.hideCursor)
        }
        self.colors = colors && has_colors()
        if self.colors {
            start_color()
            use_default_colors()
            depth = ColorDepth(terminfoColors: Int(perch_colors()))
            for color in TerminalColor.allCases {
                init_pair(Int16(color.rawValue + 1), Int16(color.rawValue), -1)
            }
            let count = TerminalColor.allCases.count
            if perch_colors() >= count, perch_color_pairs() > Int32(Self.solidPairBase) + Int32(count) {
                solidColors = TerminalColor.allCases.allSatisfy { color in
                    init_pair(Self.solidPairBase + Int16(color.rawValue + 1), Int16(color.rawValue), Int16(color.rawValue)) == perch_OK
                }
            }
        }
        size = Size(width: Int(perch_getmaxx(perch_stdscr())), height: Int(perch_getmaxy(perch_stdscr())))
        refresh()
        Self.write(Self.modesOn)
        if !alternateScreen { Self.saveEmergencyBytes(modesOff: Self.modesOff + Self.clearScreen) }
        EmergencyRestore.captureStandardError()
    }

    /// Whether the alternate screen terminfo claims (`hasRmcup`) is honoured, reading `environment`:
    /// not under GNU screen (`STY` set), which ignores it unless `altscreen on` is in its
    /// `~/.screenrc` and cannot be asked which (screen's manual, `altscreen`). Clearing the frame
    /// where the alternate screen was honoured after all costs nothing: it is the alternate
    /// screen that is cleared.
    public static func alternateScreenHonoured(hasRmcup: Bool, _ environment: (String) -> String?) -> Bool {
        hasRmcup && (environment("STY") ?? "").isEmpty
    }

    /// Cursor home, then erase the whole display (ECMA-48 CUP and ED 2): the last frame cleared.
    static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// Uses the environment's locale, or C.UTF-8 when it is not UTF-8, so ncursesw draws UTF-8.
    private static func selectUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    /// Colour pair `solidPairBase` + n + 1 is colour n on itself.
    static let solidPairBase: Int16 = 8
    /// The fewest full blocks in a row drawn as a filled stretch (below): fewer cost less as
    /// characters than the two colour changes around the stretch (about 20 bytes).
    static let solidRunMinimum = 8

    /// Draws the cells of `screen` that differ from the last frame drawn.
    ///
    /// A stretch of at least `solidRunMinimum` full blocks (`█`, U+2588) in a foreground colour
    /// and no other attribute, such as a bar of a chart, is drawn as blanks on that colour's background:
    /// the same picture, sent as ASCII (or as one erase-characters, ECH, on a terminal with
    /// `bce`) instead of three bytes a cell, and without ncurses' conversion of each wide
    /// character. Without colour the blocks are drawn as they are.
    /// Draws `screen` as ``draw(_:)`` does, each run of cells in the style `styles` gives its
    /// own (a table look-up per run, not per cell); a change of `styles` redraws every cell.
    public func draw(_ screen: Screen, styles: StyleMap?) {
        if styles != self.styles {
            self.styles = styles
            previous = nil
        }
        draw(screen)
    }

    public func draw(_ screen: Screen) {
        guard active else { return }
        let window = perch_newscr()
        if previous.map({ $0.size != screen.size }) ?? true { wclear(window) }
        // Non-ASCII text is handed to ncurses as wide characters, decoded into `wide` (a bar chart's
        // frame draws hundreds of bars and chart columns).
        let changes = screen.changes(from: previous)
        let last = previous.flatMap { $0.size == screen.size ? $0 : nil }
        /// After cells copied in whole (chtypes or complex characters, which ncurses copies without
        /// its wide-character bookkeeping) from `column` for `count` columns: the cell just after
        /// them is written blank too when it was the right half of a wide character in the last
        /// frame; a later run of this frame draws it.
        // Bug: a character was lost on a redraw where narrow and wide characters shifted (a
        // field holding `日ax漢漢…` after a Backspace showed `日a 漢漢…`): that cell kept ncurses'
        // continuation mark, so the wide character drawn there next blanked the `x` before it.
        func clearHalf(after column: Int32, _ count: Int32, row: Int32) {
            let next = Int(column + count)
            guard let last, next < screen.size.width, last[next, Int(row)].isContinuation else { return }
            _ = perch_put_blanks(window, row, Int32(next), 1, perch_A_NORMAL, 0)
        }
        changes.utf8.withUnsafeBufferPointer { all in
            for run in changes.spans {
                let (attrs, pair) = attributes(run.style)
                let row = Int32(run.row)
                // A run of printable ASCII (most runs) is copied in as chtypes at once (the
                // diff has looked at every byte already).
                if run.isPrintableASCII, !run.bytes.isEmpty, run.bytes.count <= 1024 {
                    all.baseAddress!.withMemoryRebound(to: CChar.self, capacity: all.count) { bytes in
                        _ = perch_put_ascii(
                            window, row, Int32(run.column), bytes + run.bytes.lowerBound, Int32(run.bytes.count), attrs, pair)
                    }
                    clearHalf(after: Int32(run.column), Int32(run.bytes.count), row: row)
                    continue
                }
                let solid = solidPair(run.style)
                // Otherwise printable ASCII is still copied in as chtypes; only the other
                // characters go through ncurses' UTF-8 decoding and width look-ups.
                let utf8 = UnsafeBufferPointer(rebasing: all[run.bytes])
                utf8.withMemoryRebound(to: CChar.self) { bytes in
                    var column = Int32(run.column)
                    var start = 0
                    while start < bytes.count {
                        if solid != 0 {
                            let blocks = Self.fullBlocks(utf8, at: start)
                            if blocks >= Self.solidRunMinimum {
                                _ = perch_put_blanks(window, row, column, Int32(blocks), perch_A_NORMAL, solid)
                                clearHalf(after: column, Int32(blocks), row: row)
                                column += Int32(blocks)
                                start += blocks * 3  // U+2588 is 3 bytes of UTF-8
                                continue
                            }
                        }
                        var end = start
                        let ascii = Self.isPrintableASCII(utf8[start])
                        // An ASCII stretch is at most one row (frames are capped at 1000 columns, the shim
                        // at 1024); other text is never cut, so no character is split; it ends
                        // where a stretch of full blocks to fill begins.
                        while end < bytes.count, Self.isPrintableASCII(utf8[end]) == ascii, !ascii || end - start < 1024 {
                            end += 1
                            if solid != 0, !ascii, end < bytes.count, utf8[end] == 0xE2,
                                Self.fullBlocks(utf8, at: end) >= Self.solidRunMinimum
                            {
                                break
                            }
                        }
                        if ascii {
                            _ = perch_put_ascii(window, row, column, bytes.baseAddress! + start, Int32(end - start), attrs, pair)
                            clearHalf(after: column, Int32(end - start), row: row)
                            column += Int32(end - start)
                        } else {
                            // As complex characters when each is one spacing character, else as UTF-8.
                            let count = Self.decode(UnsafeBufferPointer(rebasing: utf8[start..<end]), into: wide)
                            let drawn = count.map { perch_put_wide(window, row, column, wide.baseAddress, Int32($0), attrs, pair) } ?? -1
                            if drawn >= 0 { clearHalf(after: column, drawn - column, row: row) }
                            column =
                                drawn >= 0
                                ? drawn : perch_put_n(window, row, column, bytes.baseAddress! + start, Int32(end - start), attrs, pair)
                        }
                        start = end
                    }
                }
            }
        }
        doupdate()
        previous = screen
    }

    @inline(__always) private static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// How many full blocks (U+2588, `E2 96 88` in UTF-8) follow one another in `utf8` from byte `start` (0 when none does).
    private static func fullBlocks(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        var count = 0
        var index = start
        while index + 2 < utf8.count, utf8[index] == 0xE2, utf8[index + 1] == 0x96, utf8[index + 2] == 0x88 {
            count += 1
            index += 3
        }
        return count
    }

    /// The colour pair that fills a cell with `style`'s foreground colour, or 0 when a cell in
    /// `style` is drawn as it is: no colour, or an attribute that a filled cell would not show.
    private func solidPair(_ style: Style) -> Int32 {
        let style = styles?[style] ?? style
        guard solidColors, style.background == nil, let color = style.foreground?.standard, !style.bold, !style.reverse, !style.dim,
            !style.underline
        else { return 0 }
        return Int32(Self.solidPairBase) + Int32(color.rawValue + 1)
    }

    /// The scalars of UTF-8 `bytes` as wide characters in `buffer`; their count, or nil when the
    /// bytes are not valid UTF-8 or hold more scalars than `buffer` does.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<wchar_t>) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        var count = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard count < buffer.count else { return nil }
                buffer[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            case .emptyInput: return count
            case .error: return nil
            }
        }
    }

    private func attributes(_ style: Style) -> (attr_t, Int32) {
        let style = styles?[style] ?? style
        var attrs = perch_A_NORMAL
        if style.bold { attrs |= perch_A_BOLD }
        if style.reverse { attrs |= perch_A_REVERSE }
        if style.dim { attrs |= perch_A_DIM }
        if style.underline { attrs |= perch_A_UNDERLINE }
        return (attrs, colorPair(style))
    }

    /// The colour pair that draws `style`'s colours: pairs 1–8 for the eight foregrounds on the
    /// default background, else one made for the pair of colour numbers at ``depth`` (each
    /// colour the nearest the terminal has); 0 (the default colours) without colour.
    private func colorPair(_ style: Style) -> Int32 {
        guard colors else { return 0 }
        if style.background == nil {
            guard let foreground = style.foreground else { return 0 }
            if let standard = foreground.standard { return Int32(standard.rawValue + 1) }
        }
        let key = style.colorKey
        let numbers =
            colorNumbers[key]
            ?? {
                let numbers = (
                    foreground: Int32(style.foreground.flatMap(depth.number(for:)) ?? -1),
                    background: Int32(style.background.flatMap(depth.number(for:)) ?? -1)
                )
                colorNumbers[key] = numbers
                return numbers
            }()
        // No pair number is kept: ncurses, out of pairs (64 under TERM=xterm), gives its least
        // recently used one to other colours. alloc_pair finds a pair it made by hashing.
        return max(0, perch_alloc_pair(numbers.foreground, numbers.background))
    }

    /// A window size as given to resizeterm(3): at most ``Screen/maximumSize``, so ncurses never
    /// allocates the 65535 × 65535 cells a terminal may claim (frames are capped the same way).
    static func cappedWindowSize(rows: Int32, columns: Int32) -> (rows: Int32, columns: Int32) {
        let capped = Screen.capped(Size(width: Int(columns), height: Int(rows)))
        return (Int32(capped.height), Int32(capped.width))
    }

    /// Reads the window size (TIOCGWINSZ), capped to ``Screen/maximumSize``, and resizes ncurses
    /// to it (resizeterm(3X)); the next frame is drawn in full. Returns the new size.
    public func updateSize() -> Size {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if perch_window_size(STDOUT_FILENO, &rows, &columns) == 0 {
            let capped = Self.cappedWindowSize(rows: rows, columns: columns)
            resizeterm(capped.rows, capped.columns)
        }
        size = Size(width: Int(perch_getmaxx(perch_stdscr())), height: Int(perch_getmaxy(perch_stdscr())))
        clearok(perch_curscr(), true)
        previous = nil
        return size
    }

    /// Turns on kitty keyboard protocol `flags` by pushing them on the terminal's stack
    /// (`CSI > flags u`); every way out pops them (`CSI < u`): shutdown, suspend (pushed again on
    /// resume) and the fatal-signal restore. Reference: kitty "Comprehensive keyboard handling in
    /// terminals", "Progressive enhancement".
    public func pushKeyboardFlags(_ flags: Int) {
        keyboardOn = "\u{1B}[>\(flags)u"
        keyboardOff = "\u{1B}[<u"
        Self.saveEmergencyBytes(modesOff: keyboardOff + Self.modesOff + (alternateScreen ? "" : Self.clearScreen))
        if active { Self.write(keyboardOn) }
    }

    /// Pops the keyboard flags, turns the modes off and leaves curses mode (endwin(3X)), so the
    /// shell has the terminal as it was; ``resume()`` takes it back.
    public func suspend() {
        guard active else { return }
        Self.write(keyboardOff + Self.modesOff)
        endwin()
        if cursorHiddenByHand { Self.write(Self.showCursor) }
        active = false
        EmergencyRestore.releaseStandardError()
    }

    /// After its own ``suspend()`` this re-enters the program's modes; after a stop it did not see
    /// coming (SIGSTOP), when the shell may have put the terminal back in cooked mode, it restores
    /// the saved program mode (raw, no echo) too.
    public func resume() {
        if active { reset_prog_mode() }
        EmergencyRestore.captureStandardError()
        Self.write(Self.modesOn + keyboardOn + (cursorHiddenByHand ? Self.hideCursor : ""))
        active = true
        // doupdate, not refresh: frames are in the virtual screen, and stdscr, which refresh
        // would copy over them, is blank (a blank screen would flash before the next frame).
        doupdate()
        clearok(perch_curscr(), true)
        previous = nil
    }

    /// Turns the modes off, shows the cursor, leaves curses mode and frees its screen
    /// (endwin(3X), delscreen(3X)); nothing is drawn after it. Safe to call twice.
    public func shutdown() {
        guard active else { return }
        Self.write(keyboardOff + Self.modesOff)
        // Bug: on a terminal without an alternate screen (TERM=vt100) the last frame stayed, and
        // the shell's prompt was written over its bottom line; under GNU screen, which claims one
        // and ignores it, the frame stayed under the prompt after q and after SIGTERM.
        if !alternateScreen {
            wclear(perch_stdscr())
            wrefresh(perch_stdscr())
        }
        curs_set(1)
        endwin()
        if cursorHiddenByHand { Self.write(Self.showCursor) }
        delscreen(screenPointer)
        active = false
        EmergencyRestore.releaseStandardError()
    }

    /// xterm mouse reporting: press and release (1000), drag (1002), SGR encoding (1006).
    public static let mouseOn = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
    /// Mouse reporting off, in reverse order.
    public static let mouseOff = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"

    /// Sends ``mouseOn`` or ``mouseOff`` (bracketed paste and focus reporting stay on).
    public func setMouse(_ on: Bool) { write(control: Array((on ? Self.mouseOn : Self.mouseOff).utf8)) }

    /// Writes `bytes` straight to standard output, retrying on `EINTR`; dropped while suspended
    /// or after ``shutdown()``.
    public func write(control bytes: [UInt8]) {
        guard active else { return }
        Self.write(bytes: bytes)
    }

    private static func write(_ text: String) { write(bytes: Array(text.utf8)) }

    private static func write(bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    // MARK: What terminfo says (for a diagnosis)

    /// terminfo's `colors` for `term`: the number of colours, nil when the entry has none.
    /// - Throws: ``TerminalError/unknownTerminalType(_:)`` when terminfo has no entry for `term`.
    public static func terminfoColors(_ term: String) throws(TerminalError) -> Int? {
        let colors = perch_terminfo_colors(term)
        if colors == -2 { throw .unknownTerminalType(term) }
        return colors < 0 ? nil : Int(colors)
    }

    /// Whether terminfo's entry for `term` has the string capability `name` (e.g. `kmous`, or
    /// the user-defined `Ms` for OSC 52); false without an entry.
    public static func terminfoHasString(_ term: String, _ name: String) -> Bool {
        perch_terminfo_has_string(term, name) == 1
    }

    // MARK: Emergency restore (fatal signals)

    /// Keeps the bytes the fatal-signal restore sends; called again when the modes to undo change.
    private static func saveEmergencyBytes(modesOff: String) {
        EmergencyRestore.setBytes(Array((modesOff + "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l").utf8))
    }

    private static func saveForEmergency() {
        saveEmergencyBytes(modesOff: modesOff)
        EmergencyRestore.saveAttributes(of: STDIN_FILENO)
    }

    /// Restores the terminal from a signal handler (async-signal-safe: write(2) and tcsetattr(3)
    /// only): modes off, attributes reset, cursor shown, main screen, original termios.
    public static func emergencyRestore() { EmergencyRestore.run() }
}
