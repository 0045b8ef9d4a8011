import PerchCore
import PerchTerminal

/// Frame time on a real terminal: state → rendered screen → changed runs → ncurses → bytes out,
/// for every screen that exists, at the terminal's size. bench.py runs this on a pty.
struct FrameBench {
    var smoke: Bool
    var runs: Int?
    var only: String?

    func run() -> [Figure] {
        guard let backend = try? NcursesBackend(colors: true) else { fatalError("perch-bench frames needs a terminal") }
        defer { backend.shutdown() }
        let size = backend.size
        let screens = Scenarios.screens(size: size)
        let runs = self.runs ?? (smoke ? 1 : 400)
        var figures: [Figure] = []
        let overview = screens[0].1
        for (name, state) in screens where only == nil || only == name {
            // Each frame follows a frame of another screen, so most of the screen is redrawn.
            let other = name == "overview" ? screens[1].1 : overview
            let samples = timeRuns(
                runs: runs, prepare: { backend.draw(other.render()) }, body: { measuredFrame(backend, state) })
            figures.append(Figure(id: "frame_\(name)_\(size.width)x\(size.height)", timed: samples))
        }
        // A small frame: the Catalog cursor moving down and back up.
        if only == nil || only == "cursor_move" {
            figures.append(cursorMove(backend: backend, overview: overview, runs: runs, size: size))
        }
        if only == nil || only == "source_cursor_move" {
            figures.append(sourceCursorMove(backend: backend, runs: runs, size: size))
        }
        return figures
    }

    private func cursorMove(backend: NcursesBackend, overview: AppState, runs: Int, size: Size) -> Figure {
        var catalog = overview
        _ = catalog.update(.key(.char(Tab.catalog.shortcut)))
        var moved = catalog
        _ = moved.update(.key(.char("j")))
        let samples = timeRuns(runs: runs, prepare: { backend.draw(catalog.render()) }, body: { measuredFrame(backend, moved) })
        return Figure(id: "frame_cursor_move_\(size.width)x\(size.height)", timed: samples)
    }

    private func sourceCursorMove(backend: NcursesBackend, runs: Int, size: Size) -> Figure {
        // The same move in a Catalog of 100,000 lines from a source, at its end: a frame draws
        // only the rows on screen, so it should cost what the move above costs.
        var big = Scenarios.catalogFromSource(lines: 100_000, size: size)
        _ = big.update(.key(.char("G")))
        var bigMoved = big
        _ = bigMoved.update(.key(.char("k")))
        let bigSamples = timeRuns(runs: runs, prepare: { backend.draw(big.render()) }, body: { measuredFrame(backend, bigMoved) })
        return Figure(id: "frame_source_cursor_move_\(size.width)x\(size.height)", timed: bigSamples)
    }
}

/// One timed frame: render `state` and draw it. Never inlined, so a profiler can collect this
/// function alone (`valgrind --tool=callgrind --toggle-collect='*measuredFrame*'`).
@inline(never)
func measuredFrame(_ backend: NcursesBackend, _ state: AppState) {
    backend.draw(state.render())
}
