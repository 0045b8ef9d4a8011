import Glibc

/// The event loop's clock and its one wait: behind a protocol so that tests drive time
/// (``VirtualPoller``) instead of sleeping.
public protocol Poller: AnyObject {
    /// Now, in milliseconds on a monotonic clock.
    func now() -> Int64
    /// Waits as poll(2) does for `descriptors`, at most `timeout` milliseconds (-1: no limit);
    /// returns the number of ready descriptors, 0 on timeout, or -1 with `errno` set.
    func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32
}

/// The real clock (``MonotonicClock``) and poll(2).
public final class SystemPoller: Poller {
    /// The system's clock and wait; it holds no state.
    public init() {}
    /// ``MonotonicClock/now()``: milliseconds on `CLOCK_MONOTONIC`.
    public func now() -> Int64 { MonotonicClock.now() }
    /// poll(2) itself: waits up to `timeout` milliseconds (-1: no limit).
    public func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32 {
        Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout)
    }
}

/// A virtual clock for tests: a wait with nothing ready returns at once, with the clock moved
/// to the earlier of the timeout and the next scripted step (whose action runs then, e.g.
/// writing bytes to the loop's input). A wait with no timeout and no step left waits for real,
/// at most 1 s at a time, for work on other threads (the effect worker); end the loop's input
/// (close its pipe) to end the test.
public final class VirtualPoller: Poller {
    /// The virtual time, in milliseconds.
    public private(set) var time: Int64
    private var steps: [(at: Int64, action: () -> Void)] = []
    /// Each timeout the loop asked for, in order (-1 for none).
    public private(set) var timeouts: [Int32] = []
    /// An `errno` value to fail every wait with (``poll(_:timeout:)`` then returns -1), to
    /// simulate a failing poll(2); nil by default.
    public var failure: Int32?

    /// A virtual clock reading `start` milliseconds, with no step scripted.
    public init(start: Int64 = 1_000) { time = start }

    /// Runs `action` when the virtual clock reaches `at` (milliseconds).
    public func at(_ at: Int64, _ action: @escaping () -> Void) {
        steps.append((at, action))
        steps.sort { $0.at < $1.at }
    }

    /// The virtual time (``time``), in milliseconds.
    public func now() -> Int64 { time }

    /// Records `timeout`; returns what is ready now, else runs the next step due within
    /// `timeout` milliseconds (any step with -1), moving the clock to it, and returns what is
    /// ready then; else moves the clock by `timeout` and returns 0 (with -1 and no step left,
    /// waits for real up to 1,000 ms). With ``failure`` set, returns -1 with `errno` set to it.
    public func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32 {
        timeouts.append(timeout)
        if let failure {
            errno = failure
            return -1
        }
        let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), 0)
        if ready != 0 { return ready }
        if let step = steps.first, timeout < 0 || step.at <= time + Int64(timeout) {
            steps.removeFirst()
            time = max(time, step.at)
            step.action()
            return Glibc.poll(&descriptors, nfds_t(descriptors.count), 0)
        }
        if timeout < 0 {
            // Nothing would ever come: wait for real, briefly, for work on other threads.
            return Glibc.poll(&descriptors, nfds_t(descriptors.count), 1_000)
        }
        time += Int64(timeout)
        return 0
    }
}
