import Glibc

/// One measured figure: the median and 99th percentile of `runs` samples, in `unit`.
struct Figure: Codable {
    /// Stable key that bench.py matches budgets and labels against.
    var id: String
    var unit: String
    var runs: Int
    var median: Double
    var p99: Double
    /// Extra facts printed beside the figure (e.g. runs of cells handed to ncurses).
    var note: String?
    /// Median and 99th percentile of the thread's CPU time over the same runs, in ms: the work
    /// itself, without the time the thread waited for a core on a busy machine.
    var cpuMedian: Double?
    var cpuP99: Double?

    /// A figure from raw samples; the 99th percentile is the nearest-rank one.
    init(id: String, unit: String, samples: [Double], note: String? = nil) {
        self.id = id
        self.unit = unit
        self.runs = samples.count
        (median, p99) = Self.medianAndP99(samples)
        self.note = note
    }

    /// A timed figure: wall-clock samples and the CPU time of the same runs.
    init(id: String, timed: Timed, note: String? = nil) {
        self.init(id: id, unit: "ms", samples: timed.wall, note: note)
        (cpuMedian, cpuP99) = Self.medianAndP99(timed.cpu)
    }

    static func medianAndP99(_ samples: [Double]) -> (Double, Double) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (0, 0) }
        let rank = Int((0.99 * Double(sorted.count)).rounded(.up)) - 1
        return (sorted[sorted.count / 2], sorted[max(0, min(sorted.count - 1, rank))])
    }
}

/// Samples of a timed body, in milliseconds: wall clock (CLOCK_MONOTONIC) and the thread's CPU
/// time (CLOCK_THREAD_CPUTIME_ID).
struct Timed {
    var wall: [Double] = []
    var cpu: [Double] = []
}

/// Nanoseconds on `clock` (clock_gettime(2)): CLOCK_MONOTONIC by default.
func nanoseconds(_ clock: clockid_t = CLOCK_MONOTONIC) -> UInt64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Times `body` `runs` times after `warmup` untimed calls. `prepare` runs untimed before each
/// call (to put the terminal or state back).
func timeRuns(runs: Int, warmup: Int = 3, prepare: () -> Void = {}, body: () -> Void) -> Timed {
    for _ in 0..<warmup {
        prepare()
        body()
    }
    var timed = Timed()
    for _ in 0..<runs {
        prepare()
        let start = nanoseconds()
        let cpuStart = nanoseconds(CLOCK_THREAD_CPUTIME_ID)
        body()
        let cpuEnd = nanoseconds(CLOCK_THREAD_CPUTIME_ID)
        let end = nanoseconds()
        timed.wall.append(Double(end - start) / 1_000_000)
        timed.cpu.append(Double(cpuEnd - cpuStart) / 1_000_000)
    }
    return timed
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
