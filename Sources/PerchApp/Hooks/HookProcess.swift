import CSystem
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKitLoop

/// How an `onSwitch` hook ended.
public enum HookResult: Hashable, Sendable {
    /// Exit status 0.
    case succeeded
    /// A non-zero exit status, with the last line the hook wrote to stderr (captured hooks only).
    case failed(status: Int32, lastLine: String?)
    /// Ended by a signal.
    case signalled(Int32, lastLine: String?)
    /// Still running at the timeout (in milliseconds), and killed.
    case timedOut(milliseconds: Int64, lastLine: String?)
    /// `/bin/sh` could not be started (the reason from posix_spawn(3)).
    case notStarted(String)

    /// Whether the hook did its job.
    public var succeeded: Bool { self == .succeeded }

    /// How a collected child ended (``ProcessSpawn/collect(_:draining:timeout:)``), with the
    /// timeout it was given (milliseconds) and the last line of its stderr.
    init(_ ending: ProcessSpawn.Ending, timeout: Int64, lastLine: String?) {
        switch ending {
        case .timedOut: self = .timedOut(milliseconds: timeout, lastLine: lastLine)
        case .signalled(let signal): self = .signalled(signal, lastLine: lastLine)
        case .exited(let code): self = code == 0 ? .succeeded : .failed(status: code, lastLine: lastLine)
        }
    }

    /// What went wrong, as a phrase: `exited with status 1: no such remote`.
    public var failure: String? {
        func tail(_ line: String?) -> String { line.map { ": " + $0 } ?? "" }
        switch self {
        case .succeeded: return nil
        case .failed(let status, let line): return "exited with status \(status)" + tail(line)
        case .signalled(let signal, let line):
            return "was ended by signal \(signal) (\(strsignal(signal).map { String(cString: $0) } ?? "unknown"))" + tail(line)
        case .timedOut(let milliseconds, let line):
            let limit = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
            return "timed out after \(limit) and was killed" + tail(line)
        case .notStarted(let reason): return "could not start /bin/sh: \(reason)"
        }
    }
}

/// One run of an account's `onSwitch` command: `/bin/sh -c COMMAND` with `PERCH_ACCOUNT_ID`,
/// `PERCH_ACCOUNT_NAME`, `PERCH_ACCOUNT_HANDLE` (empty when none) and `PERCH_PREVIOUS_ID`
/// (empty when none) added to Perch's environment, stdin from `/dev/null`, in a process group of
/// its own that is killed (SIGKILL) after ``timeoutMilliseconds``.
///
/// Two ways to run it:
/// - ``run(_:account:previous:)`` for the command line: output passes through to Perch's own
///   stdout and stderr, and the call waits (sigtimedwait(2) on SIGCHLD, no polling).
/// - ``start(_:account:previous:now:)`` for the interface: in a new session with no controlling
///   terminal (setsid), stdout and stderr on pipes that the event loop drains, so the hook can
///   never write to the terminal; the loop learns of its end from SIGCHLD and ``reap(at:)``.
public final class HookProcess {
    /// How long a hook may run, in milliseconds.
    public static let timeoutMilliseconds: Int64 = 10_000
    /// Most stderr bytes kept for the failure message (the end is kept).
    static let stderrTailBytes = 4096

    /// The hook's process id (also its process group id).
    public let pid: pid_t
    /// The account switched to.
    public let account: Account
    /// When it must have ended, on the monotonic clock, in milliseconds.
    public let deadline: Int64
    /// Its pipes: stdout dropped, the end of stderr kept (interface hooks only).
    private var pipes: PipeDrain?

    /// How long it may run, in milliseconds.
    private let timeout: Int64

    private init(pid: pid_t, account: Account, deadline: Int64, timeout: Int64) {
        self.pid = pid
        self.account = account
        self.deadline = deadline
        self.timeout = timeout
    }

    /// The environment of a hook: Perch's own plus the account's exports (`AWS_PROFILE` and its
    /// `env` values) and the `PERCH_*` variables, as `NAME=value`.
    static func environment(account: Account, previous: String?) -> [String] {
        ShellSpawn.environment(
            adding: account.identities.exports.map { ($0.name, $0.value) } + [
                ("PERCH_ACCOUNT_ID", account.id), ("PERCH_ACCOUNT_NAME", account.name),
                ("PERCH_ACCOUNT_HANDLE", account.handle ?? ""), ("PERCH_PREVIOUS_ID", previous ?? ""),
            ])
    }

    /// Runs the hook for the command line and waits for it (at most ``timeoutMilliseconds``);
    /// its output passes through. When Perch is in the foreground of a terminal, the hook's
    /// process group takes the foreground while it runs (so it can prompt on `/dev/tty`, and
    /// Ctrl-C reaches it) and Perch takes it back after. SIGINT, SIGTERM, SIGHUP or SIGQUIT sent
    /// to Perch meanwhile is passed on to the hook's process group and then ends Perch as it
    /// would have.
    /// - Parameter timeout: how long it may run, in milliseconds.
    public static func run(_ command: String, account: Account, previous: String?, timeout: Int64 = timeoutMilliseconds) -> HookResult {
        var watched = sigset_t()
        sigemptyset(&watched)
        for signal in [SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&watched, signal) }
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &watched, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let terminal = [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].first { isatty($0) == 1 && tcgetpgrp($0) == getpgrp() }
        let pid: pid_t
        do {
            pid = try ShellSpawn.spawn(
                command, environment: environment(account: account, previous: previous), mode: .passThrough(terminal: terminal)
            ).pid
        } catch {
            return .notStarted(error.description)
        }
        defer { if let terminal { takeForeground(terminal) } }
        let start = MonotonicClock.now()
        while true {
            let ended: ChildEnd?
            do { ended = try ChildEnd.wait(for: pid, blocking: false) } catch { return .succeeded }  // reaped already
            if let ended { return result(ended, lastLine: nil) }
            let left = start + timeout - MonotonicClock.now()
            if left <= 0 {
                kill(-pid, SIGKILL)
                _ = try? ChildEnd.wait(for: pid)
                return .timedOut(milliseconds: timeout, lastLine: nil)
            }
            var wait = timespec(tv_sec: Int(left / 1000), tv_nsec: Int(left % 1000) * 1_000_000)
            let signal = sigtimedwait(&watched, nil, &wait)
            if signal == SIGINT || signal == SIGTERM || signal == SIGHUP || signal == SIGQUIT {
                kill(-pid, signal)
                _ = try? ChildEnd.wait(for: pid)
                if let terminal { takeForeground(terminal) }
                pthread_sigmask(SIG_SETMASK, &old, nil)
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
        }
    }

    /// Makes Perch's process group the foreground of the terminal on `fd` again (tcsetpgrp(3)
    /// from the background, with SIGTTOU blocked so that it is not stopped for asking).
    private static func takeForeground(_ fd: Int32) {
        var ttou = sigset_t()
        sigemptyset(&ttou)
        sigaddset(&ttou, SIGTTOU)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &ttou, &old)
        tcsetpgrp(fd, getpgrp())
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    /// Starts the hook for the interface: detached from the terminal, output on pipes.
    /// - Parameters:
    ///   - now: the monotonic time, in milliseconds, the timeout counts from.
    ///   - timeout: how long it may run, in milliseconds.
    public static func start(
        _ command: String, account: Account, previous: String?, now: Int64, timeout: Int64 = timeoutMilliseconds
    ) -> Result<HookProcess, SpawnError> {
        do {
            let spawned = try ShellSpawn.spawn(command, environment: environment(account: account, previous: previous), mode: .captured)
            let process = HookProcess(pid: spawned.pid, account: account, deadline: now + timeout, timeout: timeout)
            process.pipes = PipeDrain(spawned, stdoutLimit: 0, stderrTail: stderrTailBytes)
            return .success(process)
        } catch {
            return .failure(error)
        }
    }

    /// Waits for the hook to end, draining its pipes (``ProcessSpawn/collect(_:draining:timeout:)``:
    /// stdout dropped, the end of stderr kept), and returns how it ended; past the deadline its
    /// process group is killed. Blocks the calling thread (the event loop's worker runs it).
    /// - Parameter now: the monotonic clock, in milliseconds.
    public func waitForEnd(now: () -> Int64 = MonotonicClock.now) -> HookResult {
        if let ended { return ended }
        var pipes = self.pipes ?? PipeDrain(ProcessSpawn.Spawned(pid: pid), stdoutLimit: 0, stderrTail: 0)
        let ending = ProcessSpawn.collect(pid, draining: &pipes, timeout: max(0, deadline - now()))
        self.pipes = pipes
        let result = HookResult(ending, timeout: timeout, lastLine: lastLine(pipes.stderr))
        ended = result
        return result
    }

    /// How it ended, once ``waitForEnd(now:)`` has seen it (asked again, the same answer).
    private var ended: HookResult?

    /// The last non-empty line of the captured stderr, at most 200 characters.
    private func lastLine(_ stderrTail: [UInt8]) -> String? {
        let text = String(decoding: stderrTail, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return String(line.prefix(200))
    }

    private static func result(_ ended: ChildEnd, lastLine: String?) -> HookResult {
        switch ended {
        case .signalled(let signal): .signalled(signal, lastLine: lastLine)
        case .exited(let code): code == 0 ? .succeeded : .failed(status: code, lastLine: lastLine)
        }
    }
}
