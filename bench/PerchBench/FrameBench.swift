import PerchDomain
import PerchInterface
import PerchKit
import PerchKitTerminal

/// Frame time on a real terminal: state → rendered screen → changed runs → ncurses → bytes out,
/// for every screen that exists, at the terminal's size. bench.py runs this on a pty.
struct FrameBench {
    var smoke: Bool
    var runs: Int?
    var only: String?
    /// Each screen drawn after Overview (Overview after the Catalog) instead of after the screen
    /// a person reaches it from: the definition of a frame before 2026-12-03, for comparison.
    var afterOverview = false

    /// The screens to draw and, for each, the state drawn before it.
    private func screens(size: Size) -> [Scenarios.Screen] {
        let screens = Scenarios.screens(size: size)
        guard afterOverview else { return screens }
        return screens.map { screen in
            var screen = screen
            screen.before = screen.name == "overview" ? screens[1].state : screens[0].state
            return screen
        }
    }

    func run() -> [Figure] {
        guard let backend = try? NcursesBackend(colors: true) else { fatalError("perch-bench frames needs a terminal") }
        defer { backend.shutdown() }
        let size = backend.size
        let screens = screens(size: size)
        let runs = self.runs ?? (smoke ? 1 : 400)
        var figures: [Figure] = []
        let overview = screens[0].state
        for screen in screens where only == nil || only == screen.name {
            // Each frame follows a frame of the screen a person reaches it from: another tab, or
            // the screen a layer opens over.
            let before = screen.before.renderFrame()
            let samples = timeRuns(
                runs: runs, prepare: { backend.draw(before.screen, styles: before.styles) }, body: { measuredFrame(backend, screen.state) })
            figures.append(Figure(id: "frame_\(screen.name)_\(size.width)x\(size.height)", timed: samples))
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

    /// The frames callgrind counts (`perch-bench instructions`): for each screen, one frame of
    /// it drawn untimed after the screen a person reaches it from (caches warm, as in the timed
    /// runs; see ``Scenarios/Screen``), then `runs` frames of it through ``measuredFrame(_:_:)``,
    /// each after a frame of that screen, then one call of ``instructionCheckpoint()``. bench.py runs this under
    /// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=*measuredFrame*
    /// --dump-after=*instructionCheckpoint*`: each dump holds the instructions of one screen's
    /// `runs` frames and nothing else, in the order of the figures returned (unit "frames").
    func countInstructions() -> [Figure] {
        guard let backend = try? NcursesBackend(colors: true) else { fatalError("perch-bench instructions needs a terminal") }
        defer { backend.shutdown() }
        let size = backend.size
        let screens = screens(size: size)
        let runs = max(1, self.runs ?? 10)
        var figures: [Figure] = []
        for screen in screens where only == nil || only == screen.name {
            let before = screen.before.renderFrame()
            let after = screen.state.renderFrame()
            backend.draw(before.screen, styles: before.styles)
            backend.draw(after.screen, styles: after.styles)
            for _ in 0..<runs {
                backend.draw(before.screen, styles: before.styles)
                measuredFrame(backend, screen.state)
            }
            instructionCheckpoint()
            figures.append(
                Figure(id: "instructions_\(screen.name)_\(size.width)x\(size.height)", unit: "frames", samples: [Double(runs)]))
        }
        return figures
    }

    private func cursorMove(backend: NcursesBackend, overview: TabApp, runs: Int, size: Size) -> Figure {
        var catalog = overview
        _ = catalog.update(.ui(.key(.char(Tab.catalog.shortcut))))
        var moved = catalog
        _ = moved.update(.ui(.key(.char("j"))))
        let samples = timeRuns(runs: runs, prepare: { drawFrame(backend, catalog) }, body: { measuredFrame(backend, moved) })
        return Figure(id: "frame_cursor_move_\(size.width)x\(size.height)", timed: samples)
    }

    private func sourceCursorMove(backend: NcursesBackend, runs: Int, size: Size) -> Figure {
        // The same move in a Catalog of 100,000 lines from a source, at its end: a frame draws
        // only the rows on screen, so it should cost what the move above costs.
        var big = Scenarios.catalogFromSource(lines: 100_000, size: size)
        _ = big.update(.ui(.key(.char("G"))))
        var bigMoved = big
        _ = bigMoved.update(.ui(.key(.char("k"))))
        let bigSamples = timeRuns(runs: runs, prepare: { drawFrame(backend, big) }, body: { measuredFrame(backend, bigMoved) })
        return Figure(id: "frame_source_cursor_move_\(size.width)x\(size.height)", timed: bigSamples)
    }
}

/// Draws `state`'s frame as the event loop does (its theme's styles applied per run), untimed.
func drawFrame(_ backend: NcursesBackend, _ state: TabApp) {
    let frame = state.renderFrame()
    backend.draw(frame.screen, styles: frame.styles)
}

/// One timed frame: render `state` and draw it. Never inlined, so a profiler can collect this
/// function alone (`valgrind --tool=callgrind --toggle-collect='*measuredFrame*'`).
@inline(never)
func measuredFrame(_ backend: NcursesBackend, _ state: TabApp) {
    let frame = state.renderFrame()
    backend.draw(frame.screen, styles: frame.styles)
}

/// Marks the end of one screen's frames for callgrind (`--dump-after=*instructionCheckpoint*`
/// writes the counts so far and zeroes them); does nothing else. Never inlined, so the symbol
/// exists and is called.
@inline(never)
func instructionCheckpoint() {
    keep(0)
}
