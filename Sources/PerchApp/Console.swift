import Glibc

/// Where the command line writes: stdout for results, stderr for messages. Text from the
/// config or the state passes through ``PerchApp/visibleControls(_:)`` first, so it can never
/// drive the terminal. A captured console keeps the text instead, for tests.
public final class Console {
    /// What was written to stdout and stderr (captured consoles only).
    public private(set) var output = ""
    public private(set) var errors = ""
    private let captured: Bool
    /// The `errno` of the first failed write to stdout (other than a closed pipe), or nil.
    public private(set) var outputFailure: Int32?
    /// Whether stdout was a pipe closed by its reader; nothing more is written there.
    public private(set) var outputClosed = false

    /// A console on file descriptors 1 and 2, or (when `captured`) in memory.
    public init(captured: Bool = false) {
        self.captured = captured
    }

    /// Writes `line` and a newline to stdout.
    public func print(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` as it is to stdout, in as few write(2) calls as it takes.
    public func write(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes `perch: message` as one line to stderr, control characters shown as visible escapes.
    public func error(_ message: String) {
        write("perch: " + PerchApp.visibleControls(message) + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` unchanged to stderr (usage lines), with a newline unless `newline` is false.
    public func note(_ text: String, newline: Bool = true) {
        write(newline ? text + "\n" : text, to: STDERR_FILENO)
    }

    private func write(_ text: String, to fd: Int32) {
        if captured {
            if fd == STDOUT_FILENO { output += text } else { errors += text }
            return
        }
        if fd == STDOUT_FILENO, outputClosed { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                // A closed pipe (`perch list | head -1`) only means nobody reads on; anything
                // else (a full disk) is a failure the command must report.
                if n < 0, errno != EPIPE, fd == STDOUT_FILENO { outputFailure = errno }
                if n < 0, errno == EPIPE, fd == STDOUT_FILENO { outputClosed = true }
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }
}

extension Console {
    /// Columns of the terminal standard output is (TIOCGWINSZ, tty_ioctl(4)), or nil when it is
    /// not one: what a command's lines are fitted to on a terminal (`perch list`, `perch doctor`).
    static func outputColumns() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
