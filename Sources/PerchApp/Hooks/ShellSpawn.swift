import CSystem
import Glibc

/// posix_spawn(3) or pipe(2) failed; ``description`` is the system's reason.
public struct SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    public var description: String { String(cString: strerror(code)) }
}

/// Starts `/bin/sh -c SCRIPT` children (hooks and the config editor) with posix_spawn(3), with
/// no signal blocked and default signal dispositions whatever Perch has set.
enum ShellSpawn {
    /// How the child is attached to Perch's terminal.
    enum Mode: Equatable {
        /// In Perch's process group with Perch's stdin, stdout and stderr (an editor).
        case interactive
        /// stdin from `/dev/null`, stdout and stderr Perch's own, in a process group of its own
        /// (a hook run by the command line; killing the group ends what it started). When
        /// `terminal` is a descriptor of Perch's terminal, that group is made the terminal's
        /// foreground group, so the hook can prompt on `/dev/tty` and gets Ctrl-C itself.
        case passThrough(terminal: Int32?)
        /// stdin from `/dev/null`, stdout and stderr on pipes, in a new session without a
        /// controlling terminal (setsid), so it cannot write to the terminal at all (a hook
        /// run by the interface).
        case captured
    }

    /// A started child: its pid and, in ``Mode/captured``, the read ends of its stdout and
    /// stderr pipes (close-on-exec), else -1.
    struct Spawned {
        var pid: pid_t
        var stdout: Int32 = -1
        var stderr: Int32 = -1
    }

    /// Perch's environment with `added` set (replacing variables of the same names), as `NAME=value`.
    static func environment(adding added: [(String, String)]) -> [String] {
        let names = Set(added.map { $0.0 })
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !names.contains(name) { result.append(text) }
            entry += 1
        }
        return result + added.map { "\($0.0)=\($0.1)" }
    }

    /// Spawns `/bin/sh -c script sh arguments…` with `environment` (`NAME=value` entries).
    /// - Throws: ``SpawnError`` when the pipes or the process cannot be created.
    static func spawn(_ script: String, arguments: [String] = [], environment: [String], mode: Mode) throws(SpawnError) -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .passThrough(let terminal?) = mode {
            // Before stdin is replaced: the action runs in the child, in order.
            let result = perch_spawn_add_foreground(&actions, terminal)
            if result != 0 { throw SpawnError(code: result) }
        }
        if mode != .interactive {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        if mode == .captured {
            guard perch_pipe_cloexec(&outPipe) == 0 else { throw SpawnError(code: errno) }
            guard perch_pipe_cloexec(&errPipe) == 0 else {
                let code = errno
                close(outPipe[0])
                close(outPipe[1])
                throw SpawnError(code: code)
            }
            // Close-on-exec from the start: hooks and tools are spawned from worker threads too.
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(perch_spawnattr_reset_signals(&attributes))
        switch mode {
        case .interactive:
            break
        case .passThrough:
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .captured:
            flags |= Int32(perch_spawn_setsid_flag())
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = (["/bin/sh", "-c", script, "sh"] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        if mode == .captured {
            close(outPipe[1])
            close(errPipe[1])
        }
        guard result == 0 else {
            if mode == .captured {
                close(outPipe[0])
                close(errPipe[0])
            }
            throw SpawnError(code: result)
        }
        return Spawned(pid: pid, stdout: outPipe[0], stderr: errPipe[0])
    }
}
