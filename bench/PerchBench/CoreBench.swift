import Glibc
import PerchDomain
import PerchInterface
import PerchKit
import PerchStore

/// Figures that need no terminal: sheet open, config load, state save, changed cells per action.
struct CoreBench {
    var smoke: Bool
    var scratch: String
    /// Only the sheet filter figures (`--only filter`, for profiling).
    var onlyFilter = false

    func run() -> [Figure] {
        var figures: [Figure] = []
        if !onlyFilter {
            for count in [4, 1_000, 100_000] { figures.append(sheetOpen(accounts: count)) }
        }
        for count in [1_000, 100_000] { figures.append(filterKeystroke(accounts: count)) }
        figures.append(filterKeystroke(typed: "", then: "a", id: "sheet_filter_all_100000"))
        figures.append(filterKeystroke(typed: "a", then: "1", id: "sheet_filter_next_100000"))
        if onlyFilter { return figures }
        figures.append(configLoad(accounts: smoke ? 1_000 : 100_000))
        figures.append(stateSave(history: 0))
        figures.append(stateSave(history: 10_000))
        for size in [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
            figures += changedCells(size: size)
        }
        return figures
    }

    /// Sheet open: the `a` key applied to the state, the frame rendered and diffed into the runs
    /// handed to ncurses, with the current account last (the sheet's cursor search goes furthest).
    func sheetOpen(accounts count: Int) -> Figure {
        let accounts = Scenarios.accounts(count)
        let base = TabApp.perch(accounts: accounts, saved: SavedState(currentAccount: accounts.last!.id), size: Size(width: 80, height: 24))
        return keystroke(.char("a"), on: base, runs: 300, id: "sheet_open_\(count)")
    }

    /// `key` applied to a copy of `base`, the frame rendered and diffed against `base`'s, `runs`
    /// times (once in smoke mode).
    func keystroke(_ key: KeyEvent, on base: TabApp, runs: Int, id: String) -> Figure {
        let before = base.renderFrame().screen
        let samples = timeRuns(runs: smoke ? 1 : runs) {
            var state = base
            _ = state.update(.ui(.key(key)))
            keep(state.renderFrame().screen.changedRuns(from: before))
        }
        return Figure(id: id, timed: samples)
    }

    /// One filter keystroke in the open sheet: `7` typed after `/` (the first character, so every
    /// account is searched), the frame rendered and diffed.
    func filterKeystroke(accounts count: Int) -> Figure {
        var base = TabApp.perch(accounts: Scenarios.accounts(count), size: Size(width: 80, height: 24))
        _ = base.update(.ui(.key(.char("a"))))
        _ = base.update(.ui(.key(.char("/"))))
        return keystroke(.char("7"), on: base, runs: 100, id: "sheet_filter_key_\(count)")
    }

    /// One filter keystroke, `key`, over 100,000 accounts after `/` and `typed` (the fuzzy
    /// filter's worst cases: `a` as the first key matches every account, `1` after it matches
    /// most of them and scores each with the whole alignment); the note gives the matches.
    func filterKeystroke(typed: String, then key: Character, id: String) -> Figure {
        var base = TabApp.perch(accounts: Scenarios.accounts(100_000), size: Size(width: 80, height: 24))
        _ = base.update(.ui(.key(.char("a"))))
        _ = base.update(.ui(.key(.char("/"))))
        for c in typed { _ = base.update(.ui(.key(.char(c)))) }
        var after = base
        _ = after.update(.ui(.key(.char(key))))
        let matches = after.layer(AccountSheet.self)?.rows?.count ?? 0
        var figure = keystroke(.char(key), on: base, runs: 100, id: id)
        figure.note = "\(matches) matches"
        return figure
    }

    /// Config load and validation (`ConfigLoader.load`) of a file of `count` accounts.
    func configLoad(accounts count: Int) -> Figure {
        var json = "{\"accounts\": [\n"
        for (index, account) in Scenarios.accounts(count).enumerated() {
            json += "  {\"id\": \"\(account.id)\", \"name\": \"\(account.name)\", \"handle\": \"\(account.handle!)\"}"
            json += index == count - 1 ? "\n" : ",\n"
        }
        json += "]}\n"
        let path = scratch + "/accounts-\(count).json"
        write(json, to: path)
        let paths = PerchPaths(config: path, state: scratch + "/state-unused.json")
        var loaded = 0
        let samples = timeRuns(runs: smoke ? 1 : 9, warmup: smoke ? 0 : 1) {
            loaded = (try? ConfigLoader.load(paths))?.accounts.count ?? -1
        }
        precondition(loaded == count, "config load failed: \(loaded) accounts of \(count)")
        return Figure(id: "config_load_\(smoke ? "smoke" : "100000")", timed: samples, note: "\(json.utf8.count) bytes")
    }

    /// State save: `StateStore.recordSwitch` (lock, read back, atomic write with fsync, history
    /// line appended and fsynced), from a history of `history` entries, switching between two
    /// accounts so that every run writes.
    func stateSave(history: Int) -> Figure {
        let path = scratch + "/state-\(history).json"
        let store = StateStore(path: path)
        unlink(path)
        try? store.save(SavedState(currentAccount: "a1", switchCount: history, switchesPerAccount: ["a1": history]))
        let line = #"{"account":"a1","previous":"a2","source":"cli","time":"2026-11-30T08:00:00Z"}"# + "\n"
        try? FileSystem.writeAtomically(Array(String(repeating: line, count: history).utf8), to: store.history.path)
        var turn = 0
        var failures = 0
        let samples = timeRuns(runs: smoke ? 2 : 60) {
            turn += 1
            do { _ = try store.recordSwitch(to: turn % 2 == 0 ? "a1" : "a2", source: .cli) } catch { failures += 1 }
        }
        precondition(failures == 0, "state save failed")
        return Figure(id: "state_save_\(history)", timed: samples)
    }

    /// Cells changed and runs handed to ncurses by each action (a deterministic count).
    func changedCells(size: Size) -> [Figure] {
        Scenarios.actions(size: size).map { action in
            var after = action.before
            _ = after.update(.ui(.key(action.key)))
            let before = action.before.renderFrame().screen
            let screen = after.renderFrame().screen
            let cells = screen.changedCellCount(from: before)
            let runs = screen.changedRuns(from: before).count
            return Figure(
                id: "cells_\(action.id)_\(size.width)x\(size.height)", unit: "cells", samples: [Double(cells)],
                note: "\(runs) runs of \(size.width * size.height) cells")
        }
    }

    private func write(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
        _ = Array(text.utf8).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
}
