import Glibc

/// Runs jobs on threads of its own that sleep without a timeout while there is nothing to do.
/// Dispatch's pool threads wake from a timed wait to retire after a burst of work, which an
/// idle program would count as a wake-up (a benchmark saw one); these never do.
///
/// A serial queue runs its jobs in order on one thread kept for its life; a concurrent one
/// starts a thread per job, which ends with the job.
public final class WorkerQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [@Sendable () -> Void] = []
    /// Jobs taken and not finished.
    private var running = 0
    private let serial: Bool
    private var threadStarted = false

    /// - Parameter serial: one job at a time, in order; else each job at once on its own thread.
    public init(serial: Bool) {
        self.serial = serial
        pthread_mutex_init(mutex, nil)
        // Timed waits (``wait(milliseconds:)``) on the monotonic clock: a change of the wall
        // clock neither lengthens nor shortens them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// Queues `job` (serial) or starts it at once (concurrent).
    public func async(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if serial {
            jobs.append(job)
            if !threadStarted {
                threadStarted = true
                Self.spawn { [self] in serialLoop() }
            }
            pthread_cond_broadcast(changed)
        } else {
            running += 1
            Self.spawn { [self] in
                job()
                pthread_mutex_lock(mutex)
                running -= 1
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// Waits until every job given so far (and any given meanwhile) has run.
    public func wait() {
        pthread_mutex_lock(mutex)
        while !jobs.isEmpty || running > 0 { pthread_cond_wait(changed, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until every job given so far (and any given meanwhile) has run, or `milliseconds`
    /// have passed; returns whether they all ran. Jobs still running go on.
    @discardableResult
    public func wait(milliseconds: Int64) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int64(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
        deadline.tv_sec += Int(milliseconds / 1000) + Int(nanoseconds / 1_000_000_000)
        deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !jobs.isEmpty || running > 0 {
            if pthread_cond_timedwait(changed, mutex, &deadline) == ETIMEDOUT { return jobs.isEmpty && running == 0 }
        }
        return true
    }

    /// The serial queue's thread: takes jobs in order, sleeping (no timeout) while there are none.
    private func serialLoop() {
        pthread_mutex_lock(mutex)
        while true {
            while jobs.isEmpty { pthread_cond_wait(changed, mutex) }
            let job = jobs.removeFirst()
            running += 1
            pthread_mutex_unlock(mutex)
            job()
            pthread_mutex_lock(mutex)
            running -= 1
            pthread_cond_broadcast(changed)
        }
    }

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a detached thread running `body` (pthread_create(3)).
    private static func spawn(_ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        pthread_attr_destroy(&attributes)
        if started != 0 {
            // No thread could be had: run the job here rather than lose it.
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        }
    }
}
