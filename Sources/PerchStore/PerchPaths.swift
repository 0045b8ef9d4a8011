#if canImport(Glibc)
    import Glibc
#endif

/// Where Perch looks for its files, after the XDG Base Directory Specification:
/// config in `$XDG_CONFIG_HOME/perch/accounts.json` (default `~/.config`), state in
/// `$XDG_STATE_HOME/perch/state.json` (default `~/.local/state`). A variable that is unset,
/// empty or not an absolute path is ignored, as the specification asks.
public struct PerchPaths: Hashable, Sendable {
    /// The config file to read.
    public var config: String
    /// Whether ``config`` was given explicitly (then it must exist).
    public var configIsExplicit: Bool
    /// The state file.
    public var state: String
    /// Whether ``state`` was given explicitly (`--state`); then it is used whatever the config.
    public var stateIsExplicit: Bool

    /// Resolves the paths from explicit options and the environment (`lookup` returns a variable's value).
    public init(config: String? = nil, state: String? = nil, lookup: (String) -> String? = PerchPaths.environment) {
        var home = lookup("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? PerchPaths.passwordHome() ?? "/"
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }  // HOME=/ or /home/ada/
        if home == "/" { home = "" }
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = lookup(variable), value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        self.config = config ?? base("XDG_CONFIG_HOME", ".config") + "/perch/accounts.json"
        self.configIsExplicit = config != nil
        self.state = state ?? base("XDG_STATE_HOME", ".local/state") + "/perch/state.json"
        self.stateIsExplicit = state != nil
    }

    /// Where `perch init` moves the state of the embedded sample accounts: `state.samples.json`
    /// beside ``state`` (its `.json` suffix replaced by `.samples.json`), so that switches among
    /// the samples, their counts and their history (`state.samples.history.jsonl`) never carry
    /// over into the config it writes, whose starter accounts have the samples' ids.
    public var samplesState: String {
        (state.hasSuffix(".json") ? String(state.dropLast(5)) : state) + ".samples.json"
    }

    /// The process environment.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `path` as `~/…` when it is below `home` (`~` for `home` itself), as Perch's output names
    /// files; the whole path otherwise, and for a `home` that is empty or `/`.
    public static func tilde(_ path: String, home: String) -> String {
        guard !home.isEmpty, home != "/" else { return path }
        if path == home { return "~" }
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    /// This user's home folder in the password database (getpwuid(3)): where ssh expands `~`,
    /// whatever `HOME` says.
    public static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }
}

extension PerchPaths {
    /// Moves the state the embedded samples were switched in (the state file, its history, the
    /// `perch current` cache, what `perch undo` would undo and the tools' last report) to
    /// ``samplesState`` and the names beside it, when the first config is written (`perch init`,
    /// an edit with no config yet): the starter config has the samples' ids, and its state,
    /// history and undo start empty rather than with the samples' switches. What the user's own
    /// tools held before Perch (the baseline) stays. rename(2) each, under the state lock; a file
    /// that is not there is skipped.
    /// - Returns: what could not be moved, one line each (`PATH: reason`); empty when all was.
    public func setAsideSamplesState() -> [String] {
        let store = StateStore(path: state)
        let stem = { (path: String) in path.hasSuffix(".json") ? String(path.dropLast(5)) : path }
        // Bug: the samples' undo stayed, so `perch undo` brought a sample switch back into the new config.
        let beside = [".undo.json", ".identities.json"].map { (stem(state) + $0, stem(samplesState) + $0) }
        let moves =
            [
                (state, samplesState), (store.history.path, HistoryLog(statePath: samplesState).path),
                (CurrentAccountCache(statePath: state).path, CurrentAccountCache(statePath: samplesState).path),
            ] + beside
        let lock = open(store.lockPath, O_RDWR | O_CLOEXEC)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        var problems: [String] = []
        for (from, to) in moves where access(from, F_OK) == 0 {
            if rename(from, to) != 0 { problems.append("\(from): \(String(cString: strerror(errno)))") }
        }
        return problems
    }
}
