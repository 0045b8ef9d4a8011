import Glibc

/// Writes an executable file (mode 0755) holding `text`, opened with O_CLOEXEC, so that no child
/// forked meanwhile by a test running in parallel keeps it open for writing: exec(2) of it would
/// then fail with ETXTBSY ("Text file busy"), as a git hook rewritten by a test once did. Any
/// file already at `path` is replaced. Returns whether the whole text was written.
@discardableResult
public func writeExecutable(_ text: String, to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
    }
    return fchmod(fd, 0o755) == 0
}

/// Waits on this thread until `condition` holds, for at most `timeout` seconds, asking every
/// millisecond; returns whether it held. The one wait of the in-process tests: for work on
/// other threads (a runner's workers, an effect worker), whose end is their own.
@discardableResult
public func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + timeout
    while true {
        if condition() { return true }
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 >= deadline { return condition() }
        usleep(1_000)
    }
}
