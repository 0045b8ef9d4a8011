import Glibc
import PerchKitTerminal

/// Turns signals into bytes on a pipe (the self-pipe pattern), so the event loop learns of
/// them in the same poll(2) that waits for input, and nothing else runs in a signal handler.
///
/// Watched: SIGWINCH (resize), SIGTSTP (suspend), SIGCONT (resume), SIGCHLD (a child process ended), and every other signal whose
/// default action ends the process (SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
/// SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGIO and the real-time signals):
/// those end the program with the terminal restored and status 128 + the signal number.
/// Fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS; Swift runtime traps
/// raise SIGILL or SIGTRAP) restore the terminal and then end the process as before.
public enum SignalPipe {
    /// Signals whose handler restores the terminal, then ends the process with the signal's
    /// default action (a core dump where that is the default).
    public static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS]
    /// Signals left alone: uncatchable, ignored by default, or job control the loop does not drive
    /// (SIGPIPE is ignored, so a write to a closed pipe fails with `EPIPE` instead).
    public static let untouched: Set<Int32> = [SIGKILL, SIGSTOP, SIGURG, SIGTTIN, SIGTTOU, SIGPIPE]
    /// Every catchable signal that is neither fatal nor untouched, the real-time ones included
    /// (those glibc reserves for itself refuse a handler, which is harmless).
    public static let watched: [Int32] = (1..<Int32(NSIG)).filter { !fatal.contains($0) && !untouched.contains($0) }

    nonisolated(unsafe) static var writeEnd: Int32 = -1
    /// The pipe's read end, which the loop polls: one byte per signal, its number. -1 before
    /// ``install()`` and after ``uninstall()``.
    nonisolated(unsafe) public static var readEnd: Int32 = -1

    /// Creates the pipe and installs the handlers. Call before starting ncurses, so that ncurses
    /// keeps them rather than installing its own.
    public static func install() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        for signal in watched {
            setHandler(signal, forwardSignal)
        }
        for signal in fatal {
            setHandler(signal) { number in
                EmergencyRestore.run()
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
        }
        Glibc.signal(SIGPIPE, SIG_IGN)
        // A blocked signal mask is inherited across exec: unblock what the loop relies on, or a
        // parent that blocked SIGTSTP (say) would make Ctrl-Z or a resize silently do nothing.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched + fatal { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Puts the default handlers back (before exiting) and closes the pipe.
    public static func uninstall() {
        for signal in watched + fatal { Glibc.signal(signal, SIG_DFL) }
        for end in [readEnd, writeEnd] where end >= 0 { close(end) }
        readEnd = -1
        writeEnd = -1
    }

    private static func setHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
    }

    /// Signals received since the last call, in order (reads the pipe without blocking).
    public static func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var result: [Int32] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            result += buffer[0..<n].map { Int32($0) }
        }
        return result
    }

    /// Stops the process with `signal`'s default action (SIGTSTP as Ctrl-Z would, SIGTTOU as a
    /// background write to the terminal would), then returns once continued. In an orphaned
    /// process group the kernel discards these signals and this returns at once.
    public static func stop(with signal: Int32) {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        if watched.contains(signal) { setHandler(signal, forwardSignal) }
    }
}

/// The handler of watched signals: one byte, the signal number, on the pipe (async-signal-safe).
/// It keeps `errno` as it found it: the code it interrupted may be about to read it, and a
/// write(2) to a full pipe sets it to `EAGAIN`.
private func forwardSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(SignalPipe.writeEnd, &byte, 1)
    errno = saved
}
