import Glibc

/// How a child process ended, from its wait status (waitpid(2)).
public enum ChildEnd: Hashable, Sendable {
    /// It exited with this status (0–255).
    case exited(Int32)
    /// It was ended by this signal.
    case signalled(Int32)

    /// Decodes a wait status as waitpid(2) gives it (`WIFSIGNALED`, `WTERMSIG`, `WEXITSTATUS`).
    public init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xFF)
    }

    /// The status a shell gives it: the exit status, or 128 plus the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    /// Waits for the child `pid` to end (waitpid(2), again after EINTR). With `blocking` false
    /// it only looks (WNOHANG).
    /// - Returns: how it ended; nil when `blocking` is false and it still runs.
    /// - Throws: ``SpawnError`` with waitpid's errno (ECHILD: not a child of Perch's, or
    ///   already waited for).
    public static func wait(for pid: pid_t, blocking: Bool = true) throws(SpawnError) -> ChildEnd? {
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if waited == pid { return ChildEnd(waitStatus: status) }
            if waited == 0 { return nil }
            if errno != EINTR { throw SpawnError(code: errno) }
        }
    }
}

/// The read ends of a captured child's stdout and stderr pipes, drained as they become
/// readable: the first `stdoutLimit` bytes of stdout are kept (more is read and dropped, so a
/// runaway child cannot fill memory), and the last `stderrTail` bytes of stderr. Each pipe is
/// closed once, at its end of file or error; the one drain of every child whose output Perch
/// reads (tools' programs, hooks, Catalog sources).
public struct PipeDrain: Sendable {
    /// Pipes still open, stdout first.
    public private(set) var open: [Int32]
    /// What stdout gave, up to the limit.
    public private(set) var stdout: [UInt8] = []
    /// The end of what stderr gave.
    public private(set) var stderr: [UInt8] = []
    private let stdoutDescriptor: Int32
    private let stdoutLimit: Int
    private let stderrTail: Int

    /// Takes over `spawned`'s pipes (-1 for none) and makes them non-blocking.
    /// - Parameters:
    ///   - stdoutLimit: most stdout bytes kept.
    ///   - stderrTail: most stderr bytes kept (the last ones).
    public init(_ spawned: ProcessSpawn.Spawned, stdoutLimit: Int, stderrTail: Int) {
        open = [spawned.stdout, spawned.stderr].filter { $0 >= 0 }
        stdoutDescriptor = spawned.stdout
        self.stdoutLimit = stdoutLimit
        self.stderrTail = stderrTail
        for fd in open { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Reads what is waiting on `fd` (one of ``open``) until the pipe would block, and closes it
    /// at end of file. A descriptor no longer held is left alone: it was closed already, and its
    /// number may belong to another file by now.
    public mutating func drain(_ fd: Int32) {
        guard open.contains(fd) else { return }
        while true {
            let n = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65_536) { buffer in
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n > 0 { keep(buffer[0..<n], from: fd) }
                return n
            }
            if n > 0 { continue }
            if n < 0, errno == EINTR { continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                close(fd)
                open.removeAll { $0 == fd }
            }
            return
        }
    }

    /// Drains every pipe still open, then closes them: what is left in them was written before
    /// the child ended (a child it left behind holding them is not waited for).
    public mutating func finish() {
        for fd in open { drain(fd) }
        for fd in open { close(fd) }
        open = []
    }

    private mutating func keep(_ bytes: Slice<UnsafeMutableBufferPointer<UInt8>>, from fd: Int32) {
        if fd == stdoutDescriptor {
            if stdout.count < stdoutLimit { stdout += bytes.prefix(stdoutLimit - stdout.count) }
        } else {
            stderr += bytes
            if stderr.count > stderrTail { stderr.removeFirst(stderr.count - stderrTail) }
        }
    }
}
