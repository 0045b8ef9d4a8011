import PerchKit
import Synchronization

/// What the event loop needs from a terminal: its size, a byte source, and a way to show a
/// ``Screen``. ``NcursesBackend`` is the real one; ``RecordingBackend`` keeps frames in memory.
public protocol TerminalBackend: AnyObject {
    /// Current size, columns × rows.
    var size: Size { get }
    /// File descriptor the event loop reads input bytes from.
    var inputDescriptor: Int32 { get }
    /// Shows `screen`, sending the terminal only the cells that changed since the last frame.
    func draw(_ screen: Screen)
    /// Shows `screen` with its cells in the styles `styles` gives theirs (nil: their own), as
    /// ``draw(_:)`` does; a change of `styles` redraws every cell. By default the screen is
    /// restyled, then drawn.
    func draw(_ screen: Screen, styles: StyleMap?)
    /// Re-reads the terminal's size after SIGWINCH and returns it; the next frame is drawn in full.
    func updateSize() -> Size
    /// Restores the terminal for a suspend (Ctrl-Z) without ending the session.
    func suspend()
    /// Re-enters the program's modes after a suspend; the next frame is drawn in full.
    func resume()
    /// Restores the terminal for good: modes off, cursor visible, main screen back.
    func shutdown()
    /// Turns on kitty keyboard protocol `flags` (`CSI > flags u`); every way out pops them.
    func pushKeyboardFlags(_ flags: Int)
    /// Sends a complete control sequence that draws nothing (e.g. ``OSC52``) after the frame
    /// drawn last, so it never lands inside a frame's output.
    func write(control bytes: [UInt8])
    /// Turns the terminal's mouse reporting on or off (SGR reports, xterm ctlseqs "Mouse Tracking").
    func setMouse(_ on: Bool)
    /// Takes `count` rows below the cursor's line for the frames that follow, clearing any taken
    /// before (a line-mode backend: ``LineModeBackend``); with `clearingLine`, the cursor's line
    /// (empty) is cleared too. A full-screen backend has every row already and does nothing.
    func takeRows(_ count: Int, clearingLine: Bool)
    /// Writes `line` as one line of text below what was said before, its control characters
    /// made visible (a line-mode backend in the accessible mode: ``LineModeBackend``). A
    /// full-screen backend, whose frames say everything, does nothing.
    func say(_ line: String)
}

extension TerminalBackend {
    /// Nothing: a full-screen backend has every row already.
    public func takeRows(_ count: Int, clearingLine: Bool) {}

    /// Nothing: a full-screen backend's frames say everything.
    public func say(_ line: String) {}

    /// `screen` restyled with `styles`, drawn with ``draw(_:)``.
    public func draw(_ screen: Screen, styles: StyleMap?) {
        guard let styles else { return draw(screen) }
        var drawn = screen
        drawn.restyle(with: styles)
        draw(drawn)
    }
}

/// A backend with no terminal: it records every frame drawn. For tests and tools; the frames
/// may be read from another thread while a loop draws.
public final class RecordingBackend: TerminalBackend, @unchecked Sendable {
    /// The size given at creation or by ``setSize(_:)``, columns × rows.
    public private(set) var size: Size
    /// The descriptor given at creation; nothing reads it here.
    public let inputDescriptor: Int32
    private let recorded = Mutex<[Screen]>([])
    /// Every frame drawn, oldest first.
    public var frames: [Screen] { recorded.withLock { $0 } }
    /// Calls made besides `draw` and `write(control:)`, in order: "updateSize", "suspend",
    /// "resume", "shutdown", "pushKeyboardFlags FLAGS", "setMouse on|off", "takeRows COUNT".
    public private(set) var calls: [String] = []
    /// Control sequences sent with ``write(control:)``, in order.
    public private(set) var controls: [[UInt8]] = []
    private let lines = Mutex<[String]>([])
    /// Every line said with ``say(_:)``, oldest first.
    public var said: [String] { lines.withLock { $0 } }

    /// A backend of `size` that reads input from `inputDescriptor` (e.g. a pipe).
    public init(size: Size, inputDescriptor: Int32) {
        self.size = size
        self.inputDescriptor = inputDescriptor
    }

    /// Sets the size that the next ``updateSize()`` reports.
    public func setSize(_ newSize: Size) { size = newSize }

    /// Appends `screen`, whole, to ``frames``.
    public func draw(_ screen: Screen) { recorded.withLock { $0.append(screen) } }
    /// Recorded as "updateSize"; returns ``size``.
    public func updateSize() -> Size {
        calls.append("updateSize")
        return size
    }
    /// Recorded as "suspend".
    public func suspend() { calls.append("suspend") }
    /// Recorded as "resume".
    public func resume() { calls.append("resume") }
    /// Recorded as "shutdown".
    public func shutdown() { calls.append("shutdown") }
    /// Appends `bytes` to ``controls``.
    public func write(control bytes: [UInt8]) { controls.append(bytes) }
    /// Recorded as "pushKeyboardFlags FLAGS".
    public func pushKeyboardFlags(_ flags: Int) { calls.append("pushKeyboardFlags \(flags)") }
    /// Recorded as "setMouse on" or "setMouse off".
    public func setMouse(_ on: Bool) { calls.append("setMouse \(on ? "on" : "off")") }
    /// Appends `line` to ``said``.
    public func say(_ line: String) { lines.withLock { $0.append(line) } }
    /// Recorded as "takeRows COUNT" (with " clearingLine" when asked).
    public func takeRows(_ count: Int, clearingLine: Bool) { calls.append("takeRows \(count)" + (clearingLine ? " clearingLine" : "")) }
}
