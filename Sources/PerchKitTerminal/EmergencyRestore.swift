import Glibc

/// What a fatal signal's handler sends and sets to give the terminal back, kept ready before the
/// signal can come: the bytes that turn the current backend's modes off, and the terminal
/// attributes (termios) it found. One for the full-screen backend (``NcursesBackend``) and the
/// line-mode one (``LineModeBackend``), whichever holds the terminal.
public enum EmergencyRestore {
    nonisolated(unsafe) private static var bytes: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var attributes: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) private static var output: Int32 = STDOUT_FILENO
    nonisolated(unsafe) private static var input: Int32 = STDIN_FILENO

    /// Keeps `text` as the bytes to send to `fd` (standard output by default; the previous buffer is left allocated: a
    /// handler may be reading it).
    public static func setBytes(_ text: [UInt8], output fd: Int32 = 1) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = buffer.initialize(from: text)
        output = fd
        bytes = buffer
    }

    /// Keeps the attributes `fd` has now, to be set again by ``run()``; false when it has none.
    @discardableResult
    public static func saveAttributes(of fd: Int32) -> Bool {
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: termios())
        guard tcgetattr(fd, saved) == 0 else {
            saved.deallocate()
            attributes = nil
            return false
        }
        input = fd
        attributes = saved
        return true
    }

    /// From a signal handler (async-signal-safe: write(2) and tcsetattr(3) only): the bytes sent,
    /// the attributes set back.
    public static func run() {
        if let bytes { _ = Glibc.write(output, bytes.baseAddress, bytes.count) }
        if let attributes { tcsetattr(input, TCSANOW, attributes) }
    }

    /// The saved attributes, for a normal way out.
    static var savedAttributes: termios? { attributes?.pointee }
}
