import CSystem
import Glibc
import Synchronization

/// One run of a Catalog command (`catalog.command` or `catalog.preview`): `/bin/sh -c SCRIPT`
/// in a new session without a controlling terminal (so it can never write to the screen),
/// stdin from `/dev/null`, stdout kept (up to ``outputLimit`` bytes) and the end of stderr kept,
/// killed with its process group (SIGKILL) past the timeout. Blocks the calling thread (the
/// effect worker's), waiting with one poll(2) over the pipes and a pidfd: no polling.
public enum CapturedCommand {
    /// How it ended, what it printed, and the end of its stderr.
    struct Output {
        var result: HookResult
        var stdout: [UInt8]
        /// The last lines of stderr (at most ``stderrTailBytes`` bytes), as written.
        var stderrTail: String

        /// Why it failed, with the end of its stderr on the lines after; nil when it succeeded.
        var failure: String? {
            guard let phrase = result.failure else { return nil }
            let tail = stderrTail.split(whereSeparator: \.isNewline).suffix(CapturedCommand.stderrTailLines).joined(separator: "\n")
            return tail.isEmpty ? phrase : phrase + "\n" + tail
        }
    }

    /// Most stdout bytes kept: more is read and dropped (a runaway source cannot fill memory).
    static let outputLimit = 64 << 20
    /// Most stderr bytes kept for the failure (the end is kept).
    static let stderrTailBytes = 4096
    /// Most stderr lines shown with a failure.
    static let stderrTailLines = 12
    /// How long a Catalog command may run, in milliseconds.
    public static let timeoutMilliseconds: Int64 = 10_000

    /// The process groups of the commands one worker runs now, so that quitting ends them.
    final class Running: Sendable {
        private let groups = Mutex<Set<pid_t>>([])

        func add(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }
        func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }

        /// Kills (SIGKILL) every command still running and what it started: Perch is quitting,
        /// and a hanging source must not outlive it.
        func killAll() {
            groups.withLock { groups in
                for group in groups { kill(-group, SIGKILL) }
            }
        }
    }

    /// Runs `script` with `variables` added to Perch's environment.
    /// - Parameter timeout: how long it may run, in milliseconds, before its process group is killed.
    /// - Parameter running: where the command is listed while it runs.
    static func run(_ script: String, variables: [(String, String)], timeout: Int64, running: Running? = nil) -> Output {
        let spawned: ShellSpawn.Spawned
        do {
            spawned = try ShellSpawn.spawn(script, environment: ShellSpawn.environment(adding: variables), mode: .captured)
        } catch {
            return Output(result: .notStarted(error.description), stdout: [], stderrTail: "")
        }
        let pid = spawned.pid
        running?.add(pid)
        defer { running?.remove(pid) }
        for fd in [spawned.stdout, spawned.stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var open = [spawned.stdout, spawned.stderr]
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        let deadline = MonotonicClock.now() + timeout
        var killed = false
        let processDescriptor = perch_pidfd_open(pid)
        defer { if processDescriptor >= 0 { close(processDescriptor) } }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func drain(_ fd: Int32) {
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    if fd == spawned.stdout {
                        if stdout.count < outputLimit { stdout += buffer[0..<min(n, outputLimit - stdout.count)] }
                    } else {
                        stderr += buffer[0..<n]
                        if stderr.count > stderrTailBytes { stderr.removeFirst(stderr.count - stderrTailBytes) }
                    }
                    continue
                }
                if n < 0, errno == EINTR { continue }
                if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    close(fd)
                    open.removeAll { $0 == fd }
                }
                return
            }
        }
        var status: Int32 = 0
        while true {
            if MonotonicClock.now() >= deadline, !killed {
                kill(-pid, SIGKILL)
                killed = true
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                // What is still in the pipes was written before it ended; a child it left behind
                // holding the pipes is not waited for.
                for fd in open { drain(fd) }
                for fd in open { close(fd) }
                break
            }
            let left = max(0, deadline - MonotonicClock.now())
            // Without a pidfd (kernels before 5.3), the wait wakes every 10 ms to look again.
            let wait = killed ? 10 : processDescriptor >= 0 ? left : min(left, 10)
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0))
            guard poll(&fds, nfds_t(fds.count), Int32(clamping: wait)) > 0 else { continue }
            for entry in fds.dropLast() where entry.revents != 0 { drain(entry.fd) }
        }
        let text = String(decoding: stderr, as: UTF8.self)
        let result: HookResult
        if killed {
            result = .timedOut(milliseconds: timeout, lastLine: nil)
        } else if status & 0x7F != 0 {
            result = .signalled(status & 0x7F, lastLine: nil)
        } else {
            let code = (status >> 8) & 0xFF
            result = code == 0 ? .succeeded : .failed(status: code, lastLine: nil)
        }
        return Output(result: result, stdout: stdout, stderrTail: text)
    }
}
