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

    /// From a signal handler (async-signal-safe: write(2), tcsetattr(3), dup2(2), lseek(2) and
    /// read(2) only): the bytes sent, the attributes set back, then what went to standard error
    /// while it was captured (``captureStandardError()``) written to the real one, so a crash's
    /// reason is seen after the terminal is back.
    public static func run() {
        if let bytes { _ = Glibc.write(output, bytes.baseAddress, bytes.count) }
        if let attributes { tcsetattr(input, TCSANOW, attributes) }
        replayCaptured()
    }

    // MARK: Standard error while full-screen

    /// The real standard error while it is captured, and the file it goes to meanwhile; -1 when
    /// not captured.
    nonisolated(unsafe) private static var realStandardError: Int32 = -1
    nonisolated(unsafe) private static var captured: Int32 = -1

    /// While the screen is the program's, standard error goes to an unlinked file of its own
    /// (in `$TMPDIR`, else, or when none can be made there, `/tmp`) instead of the terminal, where it would garble the frame and
    /// vanish with the alternate screen (the Swift runtime's message before a crash, a warning
    /// of a library); ``releaseStandardError()`` and a fatal signal's ``run()`` write it out once
    /// the terminal is restored. Only when standard error is a terminal; a second call does
    /// nothing. Returns whether it is captured.
    @discardableResult
    public static func captureStandardError() -> Bool {
        guard captured < 0, isatty(STDERR_FILENO) == 1 else { return captured >= 0 }
        // `$TMPDIR` when it names a folder a file can be made in, else /tmp (bug: a TMPDIR that
        // did not exist lost the crash's reason).
        let named = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
        var file: Int32 = -1
        for folder in [named, "/tmp"].compactMap({ $0 }) where file < 0 {
            var template = Array((folder + "/.perchkit-stderr-XXXXXX").utf8CString)
            file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if file >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        }
        guard file >= 0 else { return false }
        let real = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard real >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            close(file)
            if real >= 0 { close(real) }
            return false
        }
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        realStandardError = real
        captured = file
        return true
    }

    /// Gives standard error back to the terminal (a suspend, the end of the run) and writes to
    /// it what was captured meanwhile, in order.
    public static func releaseStandardError() {
        replayCaptured()
    }

    /// Standard error back where it was, then the captured bytes written to it; the file closed.
    private static func replayCaptured() {
        let file = captured
        let real = realStandardError
        guard file >= 0, real >= 0 else { return }
        captured = -1
        realStandardError = -1
        _ = dup2(real, STDERR_FILENO)
        _ = close(real)
        _ = lseek(file, 0, SEEK_SET)
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { chunk in
            while true {
                let n = read(file, chunk.baseAddress, chunk.count)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                var offset = 0
                while offset < n {
                    let written = Glibc.write(STDERR_FILENO, chunk.baseAddress! + offset, n - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
                if offset < n { break }
            }
        }
        _ = close(file)
    }

    /// The saved attributes, for a normal way out.
    static var savedAttributes: termios? { attributes?.pointee }
}
