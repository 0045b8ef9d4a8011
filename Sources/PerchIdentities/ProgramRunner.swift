import CSystem
import Glibc

/// How a program started by ``ProgramRunner`` ended.
public enum ProgramResult: Hashable, Sendable {
    /// It ran to its end: the exit status (128 + N when ended by signal N) and its output.
    case exited(status: Int32, stdout: String, stderr: String)
    /// It was not on `PATH`.
    case notFound(program: String)
    /// It ran longer than the timeout (in milliseconds) and was killed with its process group.
    case timedOut(milliseconds: Int64)
    /// It could not be started (the system's reason).
    case notStarted(String)

    /// Standard output when it exited with status 0, else nil.
    public var output: String? {
        if case .exited(0, let stdout, _) = self { return stdout }
        return nil
    }

    /// Why it did not succeed, as a phrase (`exited with status 1: error: no context "x"`), or
    /// nil when it exited with status 0.
    public var failure: String? {
        switch self {
        case .exited(0, _, _): return nil
        case .exited(let status, let stdout, let stderr):
            let line = ProgramResult.lastLine(stderr) ?? ProgramResult.lastLine(stdout)
            return "exited with status \(status)" + (line.map { ": " + $0 } ?? "")
        case .notFound(let program): return "\(program) not found"
        case .timedOut(let milliseconds):
            return "timed out after " + (milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms") + " and was killed"
        case .notStarted(let reason): return "could not be started: \(reason)"
        }
    }

    /// The last non-blank line of `text`, at most 200 characters.
    static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }.map { String($0.prefix(200)) }
    }
}

/// Runs a program found on the environment's `PATH` with arguments (no shell), stdin from
/// `/dev/null`, stdout and stderr captured (at most 1 MiB each), in a process group of its own
/// that is killed (SIGKILL) at the timeout. Blocks the calling thread: the interface calls it on
/// its effect worker, never on the event loop's thread.
public enum ProgramRunner {
    /// How long one tool's program may run by default, in milliseconds.
    public static let defaultTimeoutMilliseconds: Int64 = 10_000
    static let outputLimit = 1 << 20

    /// Runs `program` with `arguments` in `environment`; see ``ProgramRunner``.
    /// - Parameters:
    ///   - timeout: in milliseconds.
    ///   - folder: the working directory of the program (nil: Perch's own).
    public static func run(
        _ program: String, _ arguments: [String], in environment: IdentityEnvironment,
        timeout: Int64 = defaultTimeoutMilliseconds, folder: String? = nil
    ) -> ProgramResult {
        guard let path = environment.which(program) else { return .notFound(program: program) }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard perch_pipe_cloexec(&outPipe) == 0 else { return .notStarted(String(cString: strerror(errno))) }
        guard perch_pipe_cloexec(&errPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            close(outPipe[0])
            close(outPipe[1])
            return .notStarted(reason)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let folder { _ = perch_spawn_add_chdir(&actions, folder) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let signalFlags = perch_spawnattr_reset_signals(&attributes)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, signalFlags | Int16(POSIX_SPAWN_SETPGROUP))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.entries.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            return .notStarted(String(cString: strerror(spawned)))
        }
        let deadline = now() + timeout
        var open = [outPipe[0], errPipe[0]]
        var collected: [Int32: [UInt8]] = [outPipe[0]: [], errPipe[0]: []]
        var killed = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = deadline - now()
            if left <= 0 {
                kill(-pid, SIGKILL)
                killed = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: left))
            if ready < 0, errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    if collected[entry.fd]!.count < outputLimit { collected[entry.fd]! += buffer[0..<n] }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        for fd in open { close(fd) }
        var status: Int32 = 0
        // The pipes closed: the program is ending (or a child of it holds them no more). Wait
        // for its end on a pidfd, killing it at the deadline; no polling.
        if !killed, waitpid(pid, &status, WNOHANG) != pid {
            let processDescriptor = perch_pidfd_open(pid)
            defer { if processDescriptor >= 0 { close(processDescriptor) } }
            var ended = false
            while !ended {
                let left = deadline - now()
                if left <= 0 {
                    kill(-pid, SIGKILL)
                    killed = true
                    break
                }
                var entry = pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0)
                // Without a pidfd (kernels before 5.3), the wait wakes every 10 ms to look again.
                _ = poll(&entry, 1, Int32(clamping: processDescriptor >= 0 ? left : min(left, 10)))
                ended = waitpid(pid, &status, WNOHANG) == pid
            }
        }
        if killed {
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return .timedOut(milliseconds: timeout)
        }
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return .exited(
            status: code, stdout: String(decoding: collected[outPipe[0]]!, as: UTF8.self),
            stderr: String(decoding: collected[errPipe[0]]!, as: UTF8.self))
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
