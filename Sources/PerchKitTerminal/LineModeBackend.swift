import Glibc
import PerchKit

/// A terminal of a few rows: a block of rows below the cursor's line on the main screen (no
/// alternate screen, no ncurses), as `fzf --height` draws.
///
/// Text already on the cursor's line stays where it is (fzf #2446): the block opens on the rows
/// below it, taken with IND (`ESC D`, which scrolls at the bottom and keeps the column) and
/// gone back from with CUU; the line's cursor position is then kept with DECSC (`ESC 7`) and
/// every row is addressed from it with DECRC (`ESC 8`) and CUD, so the cursor rests there
/// between frames and is left there at the end. Rows are redrawn only when they change. Raw
/// input and SGR mouse reporting (xterm ctlseqs modes 1000 and 1006) are turned on and off here,
/// and a fatal signal's restore (``EmergencyRestore``) clears the block too. References: xterm
/// ctlseqs (IND, DECSC, DECRC, CUU, CUD, ED, EL, DSR).
public final class LineModeBackend: TerminalBackend {
    /// The descriptor input is read from (the terminal, usually standard input).
    public let input: Int32
    /// The descriptor the block is drawn on.
    public let output: Int32
    /// The colours drawn: `ColorDepth.none` for `NO_COLOR`, else what the environment says
    /// (`ColorDepth.environment(_:)`).
    public let depth: ColorDepth
    /// The terminal's size, columns × rows, as last read (``updateSize()``).
    public private(set) var size: Size
    /// Rows taken below the cursor's line.
    public private(set) var height = 0
    /// What each row of the block shows now.
    private var drawn: [String] = []
    private var saved: termios?
    private var mouse = false
    /// The kitty keyboard protocol's pop, once ``pushKeyboardFlags(_:)`` pushed flags.
    private var keyboardOff = ""
    /// Whether the cursor stays shown (the accessible mode: a screen reader follows it); hidden
    /// by default, as in the inline picker. Set before ``enter()``.
    public var showsCursor = false

    private static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    private static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"
    /// Back to the line, clear every row below it, back to the line again.
    private static let clearBlock = "\u{1B}8\u{1B}[B\r\u{1B}[J\u{1B}8"
    private static let restoreModes = mouseOff + "\u{1B}[0m\u{1B}[?25h"

    /// - Parameters:
    ///   - input: the terminal to read keys from (standard input).
    ///   - output: the terminal to draw on (standard output, or standard error when the output is piped).
    ///   - colors: false (for `NO_COLOR`) draws with attributes only; true draws the colours
    ///     `ColorDepth.environment(_:)` finds in `TERM` and `COLORTERM`.
    public init(input: Int32, output: Int32, colors: Bool) {
        self.input = input
        self.output = output
        depth = colors ? ColorDepth.environment { getenv($0).map { String(cString: $0) } } : .none
        size = Self.size(of: output) ?? Size(width: 0, height: 0)
    }

    /// ``input``.
    public var inputDescriptor: Int32 { input }

    /// The size of the terminal on `fd` (TIOCGWINSZ), or nil.
    public static func size(of fd: Int32) -> Size? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return Size(width: Int(size.ws_col), height: Int(size.ws_row))
    }

    /// Raw input (output processing as the shell had it, so `\n` still returns the carriage)
    /// and a hidden cursor. Returns false, with `errno` set, when raw mode cannot be set.
    public func enter() -> Bool {
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { return false }
        let original = attributes
        cfmakeraw(&attributes)
        attributes.c_oflag = original.c_oflag
        EmergencyRestore.saveAttributes(of: input)
        EmergencyRestore.setBytes(Array(Self.restoreModes.utf8), output: output)
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { return false }
        saved = original
        if !showsCursor { write("\u{1B}[?25l") }
        return true
    }

    /// Re-reads the terminal's size (TIOCGWINSZ) after SIGWINCH; the rows are taken again when
    /// the root asks (``takeRows(_:clearingLine:)``).
    public func updateSize() -> Size {
        if let current = Self.size(of: output) { size = current }
        return size
    }

    /// Takes `count` rows below the cursor's line (clearing any taken before), so that the next
    /// ``draw(_:)`` fills them; `count` is at most the terminal's height less one. Taken again
    /// after a resize, the line's position is saved anew first: the cursor rests on the line
    /// between frames and the terminal moved it with the line when it rewrapped, while a saved
    /// position stays where it was. With `clearingLine` (the line was empty: nothing on it to
    /// keep) the cursor's line is cleared too, which also clears what is left of the old rows
    /// when the terminal pushed the line itself off the top while rewrapping them.
    public func takeRows(_ count: Int, clearingLine: Bool) {
        var text = height > 0 ? "\u{1B}7" + Self.clearBlock : ""
        if clearingLine { text += "\r\u{1B}[J" }
        if count > 0 { text += String(repeating: "\u{1B}D", count: count) + "\u{1B}[\(count)A\u{1B}7" }
        write(text)
        height = count
        drawn = Array(repeating: "\u{0}", count: count)
        EmergencyRestore.setBytes(Array((Self.clearBlock + keyboardOff + Self.restoreModes).utf8), output: output)
    }

    /// Draws `screen`'s rows into the block's rows from the top (rows past the screen blank),
    /// only those that changed; the cursor goes back to the line.
    public func draw(_ screen: Screen) {
        var text = ""
        for row in 0..<height {
            let line = row < screen.size.height ? screen.ansiLine(row, depth: depth) : ""
            guard drawn[row] != line else { continue }
            text += "\u{1B}8\u{1B}[\(row + 1)B\r" + line + "\u{1B}[0m\u{1B}[K"
            drawn[row] = line
        }
        if !text.isEmpty { write(text + "\u{1B}8") }
    }

    /// Writes `line` at the cursor as one line of plain text and moves to the next (the
    /// accessible mode, with no rows taken): no colour and no cursor movement beyond the line
    /// feed, so a screen reader reads the lines in order. C0 and C1 controls and DEL in `line`
    /// are written as `^X` or `\u{XX}`, never sent.
    public func say(_ line: String) {
        var text = "\r"
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: text += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: text += "^?"
            case 0x80..<0xA0: text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        write(text + "\r\n")
    }

    /// Turns SGR mouse reporting on or off.
    public func setMouse(_ on: Bool) {
        guard on != mouse else { return }
        mouse = on
        write(on ? Self.mouseOn : Self.mouseOff)
    }

    /// Sends a complete control sequence that draws nothing (a query), with the cursor on the line.
    public func write(control bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }

    /// Turns on kitty keyboard protocol `flags` (`CSI > flags u`); every way out pops them.
    public func pushKeyboardFlags(_ flags: Int) {
        keyboardOff = "\u{1B}[<u"
        write("\u{1B}[>\(flags)u")
    }

    /// Gives the terminal back for a stop (Ctrl-Z from outside, SIGTSTP): as ``shutdown()``, but
    /// the shell's termios stay known for ``resume()``.
    public func suspend() {
        let kept = saved
        shutdown()
        saved = kept
    }

    /// Takes the terminal again after a stop: raw input, the cursor hidden; the rows are taken
    /// again when the root asks (after the resize the loop applies on resume).
    public func resume() {
        guard let shell = saved else { return }
        var attributes = shell
        cfmakeraw(&attributes)
        attributes.c_oflag = shell.c_oflag
        EmergencyRestore.setBytes(Array(Self.restoreModes.utf8), output: output)
        tcsetattr(input, TCSADRAIN, &attributes)
        if !showsCursor { write("\u{1B}[?25l") }
    }

    /// Gives the terminal back as it was: the block cleared, the cursor on its line where it
    /// was, the mouse off, the keyboard flags popped, attributes reset, the cursor shown, the
    /// shell's termios.
    public func shutdown() {
        write((height > 0 ? Self.clearBlock : "") + keyboardOff + Self.restoreModes)
        height = 0
        drawn = []
        mouse = false
        keyboardOff = ""
        if var saved { tcsetattr(input, TCSADRAIN, &saved) }
        saved = nil
        EmergencyRestore.setBytes([], output: output)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
