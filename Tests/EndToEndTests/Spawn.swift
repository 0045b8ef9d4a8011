import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program with posix_spawn(3) and waits for it with waitpid(2), its output captured in
/// files. Used instead of Foundation's `Process`, whose wait never returned for tmux's client
/// (the server it forks keeps inherited descriptors open and the child was never reaped).
enum Spawn {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `argv` (looked up in `PATH`) with `environment`, standard input from `stdin` (a path,
    /// default /dev/null) and no signal blocked; returns the exit status and the captured output.
    static func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment, stdin: String = "/dev/null")
        throws -> Result
    {
        let folder = FileManager.default.temporaryDirectory
        let outPath = folder.appendingPathComponent("perch-spawn-\(UUID().uuidString).out").path
        let errPath = folder.appendingPathComponent("perch-spawn-\(UUID().uuidString).err").path
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let pid = try start(argv, environment: environment, stdin: stdin, stdout: outPath, stderr: errPath)
        let exitStatus = try wait(pid)
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Result(status: exitStatus, stdout: out, stderr: err)
    }

    /// Starts `argv` as ``run(_:environment:stdin:)`` does, output to the files at `stdout` and
    /// `stderr`, without waiting; returns its pid (wait for it with ``wait(_:)``).
    static func start(
        _ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment, stdin: String = "/dev/null",
        stdout: String = "/dev/null", stderr: String = "/dev/null"
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArgs + cEnv { free(pointer) }
        }
        // Start the child with no blocked signals and default dispositions, whatever the test
        // runner's threads have blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        return pid
    }

    /// Waits for `pid`; returns its exit status, or 128 + N when signal N ended it.
    static func wait(_ pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { throw POSIXError(.ECHILD) }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
