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

    /// A figure from raw samples; the 99th percentile is the nearest-rank one.
    init(id: String, unit: String, samples: [Double], note: String? = nil) {
        let sorted = samples.sorted()
        self.id = id
        self.unit = unit
        self.runs = sorted.count
        self.median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        let rank = Int((0.99 * Double(sorted.count)).rounded(.up)) - 1
        self.p99 = sorted.isEmpty ? 0 : sorted[max(0, min(sorted.count - 1, rank))]
        self.note = note
    }
}

/// Nanoseconds on the monotonic clock (clock_gettime(2) CLOCK_MONOTONIC).
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Times `body` `runs` times after `warmup` untimed calls; returns the samples in milliseconds.
/// `prepare` runs untimed before each call (to put the terminal or state back).
func timeRuns(runs: Int, warmup: Int = 3, prepare: () -> Void = {}, body: () -> Void) -> [Double] {
    for _ in 0..<warmup {
        prepare()
        body()
    }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        prepare()
        let start = monotonicNanoseconds()
        body()
        samples.append(Double(monotonicNanoseconds() - start) / 1_000_000)
    }
    return samples
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
