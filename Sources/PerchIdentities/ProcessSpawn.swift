import CSystem
import Glibc

/// posix_spawn(3) or pipe(2) failed; ``description`` is the system's reason.
public struct SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    public init(code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}

/// The one way Perch starts a program (hooks, tool programs, Catalog sources, the editor):
/// posix_spawn(3) with no signal blocked and every catchable signal at its default action
/// whatever Perch has set, pipes close-on-exec from the start (other threads spawn too), and
/// the process group or session chosen per use; ``collect(_:timeout:stdoutLimit:stderrTail:)``
/// reads a captured child to its end or its timeout.
public enum ProcessSpawn {
    /// How the child is attached to Perch's terminal and process group.
    public enum Attachment: Equatable, Sendable {
        /// In Perch's process group with Perch's stdin, stdout and stderr (an editor).
        case interactive
        /// stdin from `/dev/null`, stdout and stderr Perch's own, in a process group of its own
        /// (killing the group ends what it started). When `terminal` is a descriptor of Perch's
        /// terminal, that group is made the terminal's foreground group, so the child can prompt
        /// on `/dev/tty` and gets Ctrl-C itself.
        case passThrough(terminal: Int32?)
        /// stdin from `/dev/null`, stdout and stderr on pipes, in a process group of its own (a
        /// tool's program).
        case captured
        /// As ``captured``, in a new session without a controlling terminal (setsid), so it can
        /// never write to the terminal at all (a hook or a Catalog source from the interface).
        case capturedDetached
    }

    /// A started child: its pid and, when captured, the read ends of its stdout and stderr
    /// pipes (close-on-exec), else -1.
    public struct Spawned: Sendable {
        /// The child's process id.
        public var pid: pid_t
        /// The read end of the child's stdout pipe, or -1 when not collected.
        public var stdout: Int32 = -1
        /// The read end of the child's stderr pipe, or -1 when not collected.
        public var stderr: Int32 = -1
        public init(pid: pid_t, stdout: Int32 = -1, stderr: Int32 = -1) {
            self.pid = pid
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Starts the program at `path` with `argv` (its name first) and `environment` (`NAME=value`).
    /// - Parameters:
    ///   - folder: the child's working directory (nil: Perch's).
    ///   - keeping: descriptors of Perch's (close-on-exec, as all of Perch's are) that the child
    ///     inherits under the same numbers: their close-on-exec flag is cleared in the child
    ///     alone (`posix_spawn_file_actions_adddup2` with equal descriptors, POSIX.1-2024).
    ///   - input: bytes the child reads on stdin instead of `/dev/null` (at most 60,000 bytes, so
    ///     that they fit the pipe's 64 KiB and the write never waits; ignored for
    ///     ``Attachment/interactive``).
    /// - Throws: ``SpawnError`` when the pipes or the process cannot be created.
    public static func spawn(
        _ path: String, _ argv: [String], environment: [String], attachment: Attachment, folder: String? = nil, keeping: [Int32] = [],
        input: [UInt8]? = nil
    ) throws(SpawnError) -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in keeping where fd > 2 { posix_spawn_file_actions_adddup2(&actions, fd, fd) }
        if case .passThrough(let terminal?) = attachment {
            // Before stdin is replaced: the actions run in the child, in order.
            let result = perch_spawn_add_foreground(&actions, terminal)
            if result != 0 { throw SpawnError(code: result) }
        }
        var inPipe: [Int32] = [-1, -1]
        if let input, attachment != .interactive, input.count <= 60_000 {
            guard perch_pipe_cloexec(&inPipe) == 0 else { throw SpawnError(code: errno) }
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else if attachment != .interactive {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        defer {
            if inPipe[0] >= 0 { close(inPipe[0]) }
            if inPipe[1] >= 0 { close(inPipe[1]) }
        }
        if let folder { _ = perch_spawn_add_chdir(&actions, folder) }
        let captures = attachment == .captured || attachment == .capturedDetached
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        if captures {
            guard perch_pipe_cloexec(&outPipe) == 0 else { throw SpawnError(code: errno) }
            guard perch_pipe_cloexec(&errPipe) == 0 else {
                let code = errno
                close(outPipe[0])
                close(outPipe[1])
                throw SpawnError(code: code)
            }
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(perch_spawnattr_reset_signals(&attributes))
        switch attachment {
        case .interactive: break
        case .passThrough, .captured:
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .capturedDetached:
            flags |= Int32(perch_spawn_setsid_flag())
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argvPointers = argv.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argvPointers + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argvPointers, envp)
        if captures {
            close(outPipe[1])
            close(errPipe[1])
        }
        guard result == 0 else {
            if captures {
                close(outPipe[0])
                close(errPipe[0])
            }
            throw SpawnError(code: result)
        }
        if let input, inPipe[1] >= 0 {
            close(inPipe[0])
            inPipe[0] = -1
            // Fits the pipe's buffer (64 KiB on Linux): written whole, never waiting on the child.
            _ = input.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        }
        return Spawned(pid: pid, stdout: outPipe[0], stderr: errPipe[0])
    }

    /// How a collected child ended.
    public enum Ending: Hashable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// It was ended by this signal.
        case signalled(Int32)
        /// It was killed with its process group at the timeout.
        case timedOut
    }

    /// Reads a captured child's stdout (at most `stdoutLimit` bytes kept; more is read and
    /// dropped) and stderr (its last `stderrTail` bytes kept) until it ends, killing its process
    /// group (SIGKILL) at `timeout` milliseconds (``collect(_:draining:timeout:)``).
    public static func collect(_ spawned: Spawned, timeout: Int64, stdoutLimit: Int, stderrTail: Int) -> (
        ending: Ending, stdout: [UInt8], stderr: [UInt8]
    ) {
        var pipes = PipeDrain(spawned, stdoutLimit: stdoutLimit, stderrTail: stderrTail)
        let ending = collect(spawned.pid, draining: &pipes, timeout: timeout)
        return (ending, pipes.stdout, pipes.stderr)
    }

    /// Waits for the child `pid` to end (``ChildEnd/wait(for:blocking:)``), draining `pipes` as
    /// they become readable, and killing its process group (SIGKILL) at `timeout` milliseconds;
    /// the pipes are then drained to their end and closed (``PipeDrain/finish()``). Waits with
    /// one poll(2) over the pipes and a pidfd: no polling. A child it left behind holding the
    /// pipes is not waited for.
    public static func collect(_ pid: pid_t, draining pipes: inout PipeDrain, timeout: Int64) -> Ending {
        let deadline = now() + timeout
        var killed = false
        let processDescriptor = perch_pidfd_open(pid)
        defer { if processDescriptor >= 0 { close(processDescriptor) } }
        var ended: ChildEnd?
        while true {
            if now() >= deadline, !killed {
                kill(-pid, SIGKILL)
                killed = true
            }
            do {
                ended = try ChildEnd.wait(for: pid, blocking: false)
                if ended != nil { break }
            } catch {
                break  // ECHILD: reaped already, by a caller that asked twice.
            }
            let left = max(0, deadline - now())
            // Without a pidfd (kernels before 5.3), the wait wakes every 10 ms to look again.
            let wait = killed ? 10 : processDescriptor >= 0 ? left : min(left, 10)
            var fds = pipes.open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0))
            guard poll(&fds, nfds_t(fds.count), Int32(clamping: wait)) > 0 else { continue }
            for entry in fds.dropLast() where entry.revents != 0 { pipes.drain(entry.fd) }
        }
        // What is still in the pipes was written before it ended.
        pipes.finish()
        if killed { return .timedOut }
        switch ended ?? .exited(0) {
        case .exited(let code): return .exited(code)
        case .signalled(let signal): return .signalled(signal)
        }
    }

    /// Milliseconds of CLOCK_MONOTONIC.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// What SIGPIPE did when Perch started, before the command line set it to be ignored
    /// (``replaceProcess(with:arguments:environment:)`` gives it back). Set once at start-up.
    /// (In Swift `SIG_DFL` is the nil function pointer, so `recorded` says whether it was set.)
    nonisolated(unsafe) public static var inheritedPipeAction: (recorded: Bool, action: sighandler_t?) = (false, nil)

    /// Replaces this process with `program` (a path) run with `arguments` (the program's name
    /// first) and exactly `environment` (execve(2)). Signals are as Perch got them, as a
    /// shell's child would have them: SIGPIPE goes back to what it was before Perch ignored it
    /// (``inheritedPipeAction``), signals Perch's parent ignored stay ignored (`nohup`), and the
    /// mask is the inherited one. Returns only on failure: the errno value.
    public static func replaceProcess(with program: String, arguments: [String], environment: [String: String]) -> Int32 {
        if inheritedPipeAction.recorded { signal(SIGPIPE, inheritedPipeAction.action) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(program, argv, envp)
        let code = errno
        for pointer in argv + envp { free(pointer) }
        return code
    }
}
