import Foundation
import Testing

/// Runs the real `perch` binary inside its own tmux server (its own socket), at a fixed size and
/// `TERM`, with a scratch HOME and XDG folders; sends real key and SGR mouse bytes and reads the
/// screen with `capture-pane`.
final class TmuxSession {
    let socket: String
    let home: URL
    let pidFile: URL
    /// Whether the scratch HOME was made here (and is removed with the session).
    let ownsHome: Bool
    let width: Int
    let height: Int

    /// The binary under test: `$PERCH_BIN`, else the release build, else the debug build.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["PERCH_BIN"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["release", "debug"] {
            let path = root.appendingPathComponent(".build/\(configuration)/perch").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return "perch-binary-not-built"
    }

    /// Starts `perch arguments` in a `width`×`height` pane. The pane runs a shell that prints
    /// `BEFORE`, runs Perch, prints `EXIT=<status>` and stays open, so the screen after Perch
    /// has ended can be read too.
    ///
    /// `launcher` is a command that execs Perch (given as its last arguments), for tests that
    /// need Perch started in a particular way; `program` runs instead of Perch (an example app).
    /// With `interactiveShell`, the pane runs an interactive bash with job control instead, and
    /// Perch is typed at its prompt, as a person would (Ctrl-Z and `fg` then work as usual).
    init(
        width: Int = 80, height: Int = 24, term: String = "xterm-256color", arguments: [String] = [], environment: [String: String] = [:],
        home: URL? = nil, interactiveShell: Bool = false, launcher: [String] = [], program: String? = nil
    ) throws {
        self.width = width
        self.height = height
        socket = "perch-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
        self.home = try home ?? TmuxSession.makeScratchHome()
        ownsHome = home == nil
        pidFile = self.home.appendingPathComponent("perch.pid")
        try? FileManager.default.removeItem(at: pidFile)
        var env = [
            "HOME": self.home.path, "TERM": term, "XDG_CONFIG_HOME": self.home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": self.home.appendingPathComponent("state").path, "LC_ALL": "C.UTF-8",
        ]
        env.merge(environment) { $1 }
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let perch = (launcher + [program ?? Self.binary] + arguments).map(Self.quote).joined(separator: " ")
        // `swift test` runs tests with NO_COLOR=1; Perch in the pane sees it only when a test asks,
        // so the pane is drawn in colour as a person's terminal is.
        let unset = environment["NO_COLOR"] == nil ? "-u NO_COLOR " : ""
        let inner = "echo $$ > \(Self.quote(pidFile.path)); exec env \(unset)\(assignments) \(perch)"
        let command = "echo BEFORE; sh -c \(Self.quote(inner)); echo EXIT=$?"
        if interactiveShell {
            // The scratch HOME and a history file in it: an interactive bash writes its history on
            // exit, and the tmux server has the runner's own HOME.
            let shell =
                "exec env HOME=\(Self.quote(self.home.path)) HISTFILE=\(Self.quote(self.home.appendingPathComponent(".bash_history").path)) PS1='$ ' TERM=\(Self.quote(term)) bash --norc --noprofile -i"
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", shell])
            try tmux(["send-keys", "-l", command])
            try tmux(["send-keys", "Enter"])
        } else {
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh -c \(Self.quote(command + "; sleep 3600"))"])
        }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        unlink(Self.socketPath(socket))
        if ownsHome { try? FileManager.default.removeItem(at: home) }
    }

    /// The file of tmux socket `name` (`tmux -L name`): `tmux-UID/name` in ``socketFolder``.
    /// tmux leaves it behind after `kill-server`; its owner removes it.
    static func socketPath(_ name: String) -> String {
        "\(socketFolder)/tmux-\(getuid())/\(name)"
    }

    /// tmux's socket folder (`TMUX_TMPDIR`) for this test process: a scratch folder of its own,
    /// removed when the process exits. Bug: tmux made the runner's `/tmp/tmux-UID` when it was
    /// missing, and the home guard of `make test` found it added.
    static let socketFolder: String = {
        var template = Array("/tmp/perch-tmux-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        atexit { try? FileManager.default.removeItem(atPath: TmuxSession.socketFolder) }
        return path ?? FileManager.default.temporaryDirectory.path
    }()

    /// The environment every tmux command of the tests runs with: the test process's, without
    /// `TMUX` (a test run from inside tmux must not reach that server), with ``socketFolder``.
    static var tmuxEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        environment["TMUX_TMPDIR"] = socketFolder
        return environment
    }

    /// Why the binary under test cannot be trusted, or nil: it is missing, or older than a file
    /// of the sources it is built from (`Sources/`, `Package.swift`), so a test could pass on
    /// old code. Every end-to-end suite is then skipped with this reason (``Trait/currentBinary``).
    static let staleBinary: String? = {
        let binary = TmuxSession.binary
        var info = stat()
        guard stat(binary, &info) == 0 else { return "no perch binary at \(binary): run `make build` (`make test` builds it first)" }
        let built = info.st_mtim
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var sources = ["Package.swift"]
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources").path)
        while let relative = enumerator?.nextObject() as? String { sources.append("Sources/" + relative) }
        for source in sources {
            var file = stat()
            guard stat(root.appendingPathComponent(source).path, &file) == 0, file.st_mode & S_IFMT == S_IFREG else { continue }
            if (file.st_mtim.tv_sec, file.st_mtim.tv_nsec) > (built.tv_sec, built.tv_nsec) {
                return
                    "the perch binary \(binary) is older than \(source): stale, so these tests would run old code; run `make build` or `make test`, which builds it first"
            }
        }
        return nil
    }()

    static func makeScratchHome() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("perch-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a tmux command on this session's server; returns its standard output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        var environment = Self.tmuxEnvironment
        environment["LC_ALL"] = "C.UTF-8"
        let result = try Spawn.run(["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: environment)
        return result.stdout
    }

    /// The pane's text, one string per row.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).components(separatedBy: "\n")
    }

    /// The pane's text with escape sequences for attributes (`capture-pane -e`).
    func screenWithAttributes() throws -> String {
        try tmux(["capture-pane", "-p", "-e"])
    }

    /// Sends tmux key names (e.g. `Down`, `Enter`, `Escape`, `j`).
    func send(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    /// Sends bytes literally (used for SGR mouse reports).
    func sendLiteral(_ text: String) throws {
        try tmux(["send-keys", "-l", text])
    }

    /// SGR mouse report for the left button at 0-based `column`, `row` (xterm ctlseqs "SGR (1006)").
    func mousePress(column: Int, row: Int) throws { try sendLiteral("\u{1B}[<0;\(column + 1);\(row + 1)M") }
    func mouseRelease(column: Int, row: Int) throws { try sendLiteral("\u{1B}[<0;\(column + 1);\(row + 1)m") }
    func mouseDrag(column: Int, row: Int) throws { try sendLiteral("\u{1B}[<32;\(column + 1);\(row + 1)M") }
    func wheelDown(column: Int, row: Int) throws { try sendLiteral("\u{1B}[<65;\(column + 1);\(row + 1)M") }

    /// Waits until `condition` holds for the screen (checked every 20 ms) or `timeout` seconds pass.
    @discardableResult
    func waitUntil(timeout: Double = 5, _ condition: ([String]) -> Bool) throws -> Bool {
        try Self.waitUntil(timeout: timeout, screen: screen, condition)
    }

    /// Waits until `condition` holds for what `screen` reads (every 20 ms) or `timeout` seconds pass.
    static func waitUntil(timeout: Double, screen: () throws -> [String], _ condition: ([String]) -> Bool) throws -> Bool {
        try eventually(timeout: timeout) { condition(try screen()) }
    }

    /// Waits until `condition` holds, asking every 20 ms, for at most `timeout` seconds (asked
    /// once more at the deadline): the one deadline wait of the end-to-end tests, which every
    /// other wait for a process, a file or a screen goes through. Returns whether it held.
    static func eventually(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < end
        return try condition()
    }

    /// Waits for `text` to appear anywhere on the screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 5) throws -> Bool {
        try waitUntil(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Starts a session (the parameters are the initializer's) and waits for Perch's first frame.
    static func started(
        width: Int = 80, height: Int = 24, term: String = "xterm-256color", environment: [String: String] = [:], home: URL? = nil,
        interactiveShell: Bool = false, launcher: [String] = []
    ) throws -> TmuxSession {
        let session = try TmuxSession(
            width: width, height: height, term: term, environment: environment, home: home, interactiveShell: interactiveShell,
            launcher: launcher)
        try session.waitForStart()
        return session
    }

    /// Sends `keys` (tmux key names) and expects `text` on the screen within `timeout` seconds.
    func expectAfter(_ keys: String..., shows text: String, timeout: Double = 5, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux(["send-keys"] + keys)
        let shown = try waitFor(text, timeout: timeout)
        #expect(shown, "\(text) did not appear after \(keys)", sourceLocation: sourceLocation)
    }

    /// Waits for Perch's first frame (the tab bar).
    func waitForStart() throws {
        let started = try waitUntil(timeout: 10) { lines in lines.contains { $0.contains("Overview") && $0.contains("Settings") } }
        let text = try screen().joined(separator: "\n")
        try #require(started, "perch did not draw its tab bar; binary: \(Self.binary); screen:\n\(text)")
    }

    /// `#{alternate_on} #{mouse_any_flag}`: "1 1" while Perch runs, "0 0" once the terminal is restored.
    func terminalModes() throws -> String {
        try tmux(["display", "-p", "#{alternate_on} #{mouse_any_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether every mode Perch turns on is off again and the cursor is shown: the main screen,
    /// no mouse reporting (any mode, SGR encoding), cursor keys in normal mode.
    func terminalRestored() throws -> Bool {
        let modes = try tmux(["display", "-p", "#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag} #{keypad_cursor_flag} #{cursor_flag}"])
        return modes.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0 0 0 1"
    }

    /// Whether process `pid` has ended (gone, or a zombie waiting for its parent).
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        return status.contains("State:\tZ")
    }

    /// The process id of Perch (written by the pane's shell before it execs Perch).
    func perchPID() throws -> pid_t {
        var pid: pid_t?
        _ = Self.eventually(timeout: 5) {
            pid = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return pid != nil
        }
        guard let pid else { throw CocoaError(.fileNoSuchFile) }
        return pid
    }

    /// `stty -a` of the pane's terminal, read from outside it: the terminal modes in force now.
    func stty() throws -> String {
        let tty = try tmux(["display", "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return try Spawn.run(["stty", "-a", "-F", tty]).stdout
    }

    /// Resizes the pane's window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Context switches of `pid` so far (voluntary + involuntary, from /proc/PID/status): each
    /// wake-up of a process blocked in poll(2) adds at least one.
    static func contextSwitches(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        return status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
            .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
            .reduce(0, +)
    }

    /// Whether the process is stopped (state `T` in `/proc/PID/stat`, proc(5)).
    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }

    /// Path of the state file in the scratch XDG folders.
    var statePath: URL { home.appendingPathComponent("state/perch/state.json") }

    /// Writes `json` as the config in the scratch XDG config folder of `home` (before starting).
    static func writeConfig(_ json: String, home: URL) throws {
        let folder = home.appendingPathComponent("config/perch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try json.write(to: folder.appendingPathComponent("accounts.json"), atomically: true, encoding: .utf8)
    }

    /// Sleeps `seconds` of real time (gestures need it).
    /// Whether process `pid`'s main thread (Perch's event loop) is blocked in poll(2) with no
    /// timeout: no deadline is left (a long-press, an animation frame, a paste or a reply
    /// waited for), so it wakes only for input or a signal, and makes no wake-ups while idle.
    /// Read from `/proc/PID/syscall` (proc(5): the system call's number, then its arguments):
    /// x86-64's `poll` (7) with a timeout of -1, or `ppoll` (271 on x86-64, 73 on AArch64) with
    /// no timespec.
    static func waitsWithoutDeadline(_ pid: pid_t) -> Bool { pollTimeout(pid) == -1 }

    /// The timeout, in milliseconds, of the poll(2) process `pid`'s main thread is blocked in:
    /// -1 for none, nil when it is not blocked in poll (running, or in another call). Read from
    /// `/proc/PID/syscall` as ``waitsWithoutDeadline(_:)`` says; a `ppoll` with a timespec counts
    /// as a deadline of unknown length (1).
    static func pollTimeout(_ pid: pid_t) -> Int64? {
        guard let line = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return nil }
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count > 3, let number = Int(fields[0]) else { return nil }  // "running": not in a call
        switch number {
        case 7:
            guard let value = UInt64(fields[3].dropFirst(2), radix: 16) else { return nil }
            return Int64(Int32(truncatingIfNeeded: value))
        case 271, 73: return fields[3] == "0x0" ? -1 : 1
        default: return nil
        }
    }

    /// Waits until Perch has no deadline left (``waitsWithoutDeadline(_:)``), at most `timeout`
    /// seconds: from then on nothing happens without input, so a test that checks that nothing
    /// happened (no long-press fired, no wake-up) needs no fixed wait.
    /// - Returns: whether it came to wait without a deadline before `timeout`.
    func waitUntilIdle(timeout: Double = 5) throws -> Bool {
        let pid = try perchPID()
        return Self.eventually(timeout: timeout) { Self.waitsWithoutDeadline(pid) }
    }

    /// Waits until Perch waits with a deadline (``pollTimeout(_:)`` above 0), at most `timeout`
    /// seconds: the input just sent has been read and started something timed (a long-press, a
    /// paste's wait for its end), so that a following ``waitUntilIdle(timeout:)`` means it ended.
    /// - Returns: whether a deadline came before `timeout`.
    func waitUntilDeadline(timeout: Double = 5) throws -> Bool {
        let pid = try perchPID()
        return Self.eventually(timeout: timeout) { (Self.pollTimeout(pid) ?? 0) > 0 }
    }

    /// Types `key` as a key held down would in a terminal without key releases: one press, then
    /// after `delay` seconds an auto-repeat every `interval` seconds, `count` of them, or fewer
    /// once `until` holds for the screen. This is the input's own timing, not a wait for output.
    /// - Returns: whether `until` held once the repeats ended.
    @discardableResult
    func holdKey(
        _ key: String, delay: Double = 0.3, interval: Double = 0.03, count: Int = 20, until: ([String]) -> Bool = { _ in false }
    ) throws -> Bool {
        try sendLiteral(key)
        Thread.sleep(forTimeInterval: delay)
        for _ in 0..<count {
            try sendLiteral(key)
            if until(try screen()) { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return until(try screen())
    }

    /// Waits until the screen has stopped changing (the same for 100 ms of reads, which is
    /// longer than six animation frames of 16 ms), at most `timeout` seconds: for tests that read
    /// the screen after a sheet rises or falls, or after an event whose effect is a redraw.
    /// - Returns: whether the screen came to rest before the deadline.
    @discardableResult
    func waitUntilSteady(timeout: Double = 5) throws -> Bool {
        var last: [String]?
        var since = Date()
        return try waitUntil(timeout: timeout) { lines in
            if lines != last {
                last = lines
                since = Date()
            }
            return Date().timeIntervalSince(since) >= 0.1
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips an end-to-end suite, saying why, when the binary under test is missing or older than
    /// the sources (``TmuxSession/staleBinary``).
    static var currentBinary: Self { .enabled(if: TmuxSession.staleBinary == nil, "\(TmuxSession.staleBinary ?? "")") }
}
