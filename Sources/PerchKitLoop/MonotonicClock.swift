import Glibc

/// Milliseconds on the system's monotonic clock (clock_gettime(2) CLOCK_MONOTONIC), truncated,
/// so a deadline compared with it is never reached early.
public enum MonotonicClock {
    /// Now, in milliseconds since an arbitrary fixed point (boot).
    public static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
