import Glibc
import PerchKit
import PerchKitLoop
import PerchKitTerminal

/// Runs a whole ``TabApp`` on a virtual terminal and a virtual clock, for tests: the app's own
/// runner and loop (``TabAppRunner``, ``TerminalLoop``) read the bytes a terminal would send
/// (keys in the legacy encoding or the kitty keyboard protocol's, with press, repeat and release,
/// SGR mouse presses, drags, releases and wheel notches, bracketed paste, terminal replies), at
/// the times the test gives, and draw into a recording backend; the test reads the screen as text
/// and styles, and compares it with a snapshot file. No real time passes but for work the app
/// runs on its threads (``settleWork(timeout:)``).
///
/// ```swift
/// let driver = try AppDriver(TabApp(panes: [ColorsPane(), AboutPane()], size: Size(width: 40, height: 12)))
/// driver.holdKey(.char("1"), for: 600)          // auto-repeat: press, then a repeat every 30 ms
/// #expect(driver.text.contains("Pick a colour"))
/// driver.press(KeyEvent(.down)); driver.press(KeyEvent(.enter))
/// try driver.expectSnapshot("picked-green", in: snapshots)
/// ```
public final class AppDriver {
    /// The app's runner, whose loop runs on this thread.
    public let runner: TabAppRunner
    /// The virtual terminal: every frame drawn, every control sequence and call.
    public let backend: RecordingBackend
    private let poller: VirtualPoller
    private var input: [Int32] = [-1, -1]

    /// The app as it is now.
    public var app: TabApp { runner.loop.root }
    /// Now, in milliseconds on the virtual clock (starting at 1,000).
    public var now: Int64 { poller.now() }
    /// The exit status once the app has quit, else nil.
    public var exitStatus: Int32? { runner.loop.endStatus }
    /// The last frame drawn.
    public var screen: Screen { backend.frames.last ?? Screen(size: backend.size) }
    /// The last frame's rows as text (trailing spaces kept).
    public var lines: [String] { screen.lines }
    /// The last frame as text, rows joined by line breaks.
    public var text: String { screen.text }

    /// Errors the driver throws.
    public enum DriverError: Error, CustomStringConvertible {
        /// The pipe that stands for the terminal's input could not be made (errno).
        case noInput(Int32)
        /// A snapshot file differs from the screen: its path and the rows that differ.
        case snapshotDiffers(path: String, differences: [String])
        /// A snapshot file could not be written or read (errno).
        case snapshotFile(path: String, errno: Int32)
        /// There was no snapshot file: it has been written; check it and commit it.
        case snapshotWritten(path: String)

        /// The error in one sentence (with the rows that differ, for a snapshot).
        public var description: String {
            switch self {
            case .noInput(let code): "cannot make the driver's input pipe: \(String(cString: strerror(code)))"
            case .snapshotDiffers(let path, let differences):
                "the screen differs from \(path) (set PERCHKIT_RECORD_SNAPSHOTS=1 to write it anew):\n"
                    + differences.joined(separator: "\n")
            case .snapshotFile(let path, let code): "snapshot \(path): \(String(cString: strerror(code)))"
            case .snapshotWritten(let path): "no snapshot \(path): it has been written from the screen; check it and commit it"
            }
        }
    }

    /// Starts `app` on a virtual terminal of the app's size: draws its first frame and tells the
    /// app's model it started (``AppModel/started(_:)``), as ``TabAppRunner/run()`` does.
    /// - Parameters:
    ///   - gestures: the recogniser's timing (the long-press, 500 ms by default).
    ///   - performer: who does the jobs the app asks for, if any.
    /// - Throws: ``DriverError/noInput(_:)`` when no pipe can be made.
    public init(_ app: TabApp, gestures: GestureRecognizer.Configuration = .init(), performer: JobPerformer? = nil) throws {
        guard pipe(&input) == 0 else { throw DriverError.noInput(errno) }
        for end in input { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(input[0], F_SETFL, fcntl(input[0], F_GETFL) | O_NONBLOCK)
        poller = VirtualPoller()
        backend = RecordingBackend(size: app.size, inputDescriptor: input[0])
        runner = TabAppRunner(app: app, backend: backend, gestures: gestures, poller: poller)
        runner.performer = performer
        runner.loop.drawIfChanged()
        runner.loop.send([.started])
        settle()
    }

    deinit {
        runner.cancelWork()
        for end in input where end >= 0 { close(end) }
    }

    // MARK: Time

    /// Lets `milliseconds` pass on the virtual clock: every deadline on the way fires in order
    /// (a long-press, an animation frame, a lone `Esc`, an app timer), and a frame is drawn after
    /// each wake-up that changed anything.
    public func advance(by milliseconds: Int64) {
        let target = now + max(0, milliseconds)
        poller.at(target) {}
        while exitStatus == nil, now < target {
            runner.loop.wakeUp()
            runner.loop.drawIfChanged()
        }
        settle()
    }

    /// Waits, in real time, up to `timeout` milliseconds for the work the app runs on its threads
    /// (``Work``, and jobs whose performer answers on other threads) to come back, then hands
    /// each outcome to the component that asked; returns whether none was left running.
    @discardableResult
    public func settleWork(timeout: Int64 = 5_000) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        while runner.workInFlight > 0, MonotonicClock.now() < deadline { usleep(1_000) }
        settle()
        return runner.workInFlight == 0
    }

    // MARK: Keys

    /// Types `text` as a terminal sends typed text: its UTF-8 bytes.
    public func type(_ text: String) { send(Array(text.utf8)) }

    /// Presses `key` once, as a terminal without the kitty keyboard protocol sends it (xterm's
    /// encoding: `CSI A` for ↑, `ESC` before a key typed with Alt, a control byte for Ctrl plus
    /// a letter); `Esc` is sent as `CSI 27 u`, which the decoder reads at once (a lone `ESC`
    /// byte waits ``InputDecoder/escapeTimeoutMilliseconds`` for more).
    public func press(_ key: KeyEvent) { send(TerminalInput.legacy(key)) }

    /// A key event in the kitty keyboard protocol's form, with its event type (press, repeat or
    /// release), as a terminal sends it once the app pushed flag 2 (report event types).
    public func kitty(_ key: KeyEvent, _ type: TerminalInput.KeyEventType = .press) { send(TerminalInput.kitty(key, type)) }

    /// Holds `key` for `milliseconds` as a keyboard with auto-repeat does on a terminal without
    /// release events: a press, then the same bytes after `delay` ms and every `interval` ms
    /// after, until the time is up (the clock ends `milliseconds` later).
    public func holdKey(_ key: KeyEvent, for milliseconds: Int64, delay: Int64 = 300, interval: Int64 = 30) {
        let start = now
        press(key)
        var next = start + delay
        while next < start + milliseconds, exitStatus == nil {
            advance(by: next - now)
            press(key)
            next += interval
        }
        advance(by: start + milliseconds - now)
    }

    /// Holds `key` for `milliseconds` as a terminal speaking the kitty keyboard protocol reports
    /// it: a press, repeats from `delay` ms every `interval` ms (none with `repeats` false), and
    /// the release at the end.
    public func kittyHold(_ key: KeyEvent, for milliseconds: Int64, repeats: Bool = true, delay: Int64 = 300, interval: Int64 = 30) {
        let start = now
        kitty(key, .press)
        var next = start + delay
        while repeats, next < start + milliseconds, exitStatus == nil {
            advance(by: next - now)
            kitty(key, .repeat)
            next += interval
        }
        advance(by: start + milliseconds - now)
        kitty(key, .release)
    }

    // MARK: Mouse, paste, resize, replies

    /// A mouse button pressed at (`column`, `row`), 0-based (SGR mouse, xterm mode 1006).
    public func mouseDown(column: Int, row: Int, button: Int = 0) { send(TerminalInput.mouse(button, column, row, release: false)) }
    /// The pointer moved to (`column`, `row`) with the button down.
    public func drag(column: Int, row: Int, button: Int = 0) { send(TerminalInput.mouse(button + 32, column, row, release: false)) }
    /// The button let go at (`column`, `row`).
    public func mouseUp(column: Int, row: Int, button: Int = 0) { send(TerminalInput.mouse(button, column, row, release: true)) }
    /// A press and a release at (`column`, `row`): a tap.
    public func click(column: Int, row: Int) {
        mouseDown(column: column, row: row)
        mouseUp(column: column, row: row)
    }
    /// A press held at (`column`, `row`) for `milliseconds`, then let go: a long-press where
    /// the part there accepts one.
    public func longPress(column: Int, row: Int, for milliseconds: Int64) {
        mouseDown(column: column, row: row)
        advance(by: milliseconds)
        mouseUp(column: column, row: row)
    }
    /// The wheel turned `notches` at (`column`, `row`): negative up, positive down.
    public func scroll(column: Int, row: Int, notches: Int) {
        for _ in 0..<abs(notches) { send(TerminalInput.mouse(notches < 0 ? 64 : 65, column, row, release: false)) }
    }

    /// `text` pasted, in bracketed paste (xterm mode 2004).
    public func paste(_ text: String) { send(Array("\u{1B}[200~\(text)\u{1B}[201~".utf8)) }

    /// `bytes` from the terminal itself: an answer to a query (``TerminalQuery``).
    public func reply(_ bytes: [UInt8]) { send(bytes) }

    /// The terminal resized to `size`, as SIGWINCH tells the loop.
    public func resize(to size: Size) {
        backend.setSize(size)
        runner.loop.terminalResized()
        runner.loop.drawIfChanged()
        settle()
    }

    // MARK: Reading the screen

    /// The screen as text with its styles: each row without its trailing spaces (which editors
    /// strip), then for each run of cells in a style other than plain a line
    /// `  COLUMN-COLUMN STYLE` (bold, dim, reverse, underline, a colour). What a snapshot file holds.
    public var snapshot: String { Self.describe(screen) }

    /// Compares ``snapshot`` with `folder/NAME.txt`; with `PERCHKIT_RECORD_SNAPSHOTS=1` in the
    /// environment, writes it instead.
    /// - Throws: ``DriverError/snapshotDiffers(path:differences:)`` naming each row that
    ///   differs; ``DriverError/snapshotWritten(path:)`` when there was no file (it is written,
    ///   to be checked and committed); ``DriverError/snapshotFile(path:errno:)``.
    public func expectSnapshot(_ name: String, in folder: String) throws {
        let path = folder + "/" + name + ".txt"
        let now = snapshot
        let record = getenv("PERCHKIT_RECORD_SNAPSHOTS").map { String(cString: $0) == "1" } ?? false
        if record {
            try Self.write(now, to: path)
            return
        }
        guard let old = try Self.read(path) else {
            // Written, but the check fails: a snapshot missing in CI (renamed, not committed) is
            // an error, not a pass.
            try Self.write(now, to: path)
            throw DriverError.snapshotWritten(path: path)
        }
        guard old != now else { return }
        let (a, b) = (
            old.split(separator: "\n", omittingEmptySubsequences: false), now.split(separator: "\n", omittingEmptySubsequences: false)
        )
        var differences: [String] = []
        for index in 0..<max(a.count, b.count) where (index < a.count ? a[index] : nil) != (index < b.count ? b[index] : nil) {
            differences.append(
                "line \(index + 1): expected \(index < a.count ? "\"\(a[index])\"" : "nothing"), got \(index < b.count ? "\"\(b[index])\"" : "nothing")"
            )
            if differences.count == 10 { break }
        }
        throw DriverError.snapshotDiffers(path: path, differences: differences)
    }

    /// `screen` as ``snapshot`` describes it.
    public static func describe(_ screen: Screen) -> String {
        var out: [String] = []
        for row in 0..<screen.size.height {
            var line = Substring(screen.lines[row])
            while line.last == " " { line.removeLast() }
            out.append(String(line))
            var column = 0
            while column < screen.size.width {
                let style = screen[column, row].style
                var end = column + 1
                while end < screen.size.width, screen[end, row].style == style { end += 1 }
                if style != .plain { out.append("  \(column)-\(end - 1) \(name(of: style))") }
                column = end
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    private static func name(of style: Style) -> String {
        var parts: [String] = []
        if let color = style.foreground { parts.append("\(color)") }
        if let color = style.background { parts.append("on \(color)") }
        if style.bold { parts.append("bold") }
        if style.dim { parts.append("dim") }
        if style.reverse { parts.append("reverse") }
        if style.underline { parts.append("underline") }
        return parts.joined(separator: " ")
    }

    // MARK: Plumbing

    /// Writes `bytes` to the input and lets the loop read them at the present time.
    private func send(_ bytes: [UInt8]) {
        guard exitStatus == nil else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(input[1], $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
        settle()
    }

    /// Wakes the loop while anything is ready now (input, work's outcomes), drawing after each;
    /// the clock does not move.
    private func settle() {
        while exitStatus == nil, readyNow() {
            runner.loop.wakeUp()
            runner.loop.drawIfChanged()
        }
        runner.loop.drawIfChanged()
    }

    /// Whether the input or one of the loop's sources is readable at once.
    private func readyNow() -> Bool {
        var fds = [pollfd(fd: input[0], events: Int16(POLLIN), revents: 0)]
        for source in runner.loop.sources { fds.append(pollfd(fd: source.descriptor(), events: Int16(POLLIN), revents: 0)) }
        return Glibc.poll(&fds, nfds_t(fds.count), 0) > 0
    }

    private static func read(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw DriverError.snapshotFile(path: path, errno: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw DriverError.snapshotFile(path: path, errno: errno) }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DriverError.snapshotFile(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw DriverError.snapshotFile(path: path, errno: errno) }
            offset += n
        }
    }
}
