import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The pseudo-terminal functions of glibc (posix_openpt(3), grantpt(3), unlockpt(3), ptsname_r(3)),
/// which the Glibc module leaves out without _XOPEN_SOURCE.
private enum PTY {
    @_silgen_name("posix_openpt") static func openMaster(_ flags: Int32) -> Int32
    @_silgen_name("grantpt") static func grant(_ descriptor: Int32) -> Int32
    @_silgen_name("unlockpt") static func unlock(_ descriptor: Int32) -> Int32
    @_silgen_name("ptsname_r") static func name(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
}

/// The release binary on a raw pseudo-terminal whose other end is this script, playing a
/// terminal: it answers (or not) the kitty keyboard protocol query `CSI ? u`, the primary
/// device attributes request `CSI c` and the cursor position report `CSI 6 n`, records every byte Perch writes, and sends input bytes at
/// chosen times. Perch gets the pseudo-terminal as its controlling terminal (`setsid -c`), so
/// suspend and resume work as under a shell.
final class ScriptedTerminal {
    /// Which terminal the script plays.
    enum Kind: String, CaseIterable, Sendable {
        /// Answers the protocol query (`CSI ? 0 u`) and the attributes request.
        case kitty
        /// Answers only the attributes request, as a terminal without the protocol does.
        case primaryAttributesOnly
        /// Answers nothing.
        case silent
        /// Answers both, but only after 300 ms (a terminal busy starting).
        case slowKitty
    }

    let kind: Kind
    let master: Int32
    let pid: pid_t
    let home: URL
    /// Every byte Perch wrote, in order.
    private(set) var output: [UInt8] = []
    /// How far `output` was searched for queries.
    private var answered = 0
    /// When Perch was started, in seconds (monotonic).
    let started: Double
    private(set) var exitStatus: Int32?
    /// Answers to send later (``Kind/slowKitty``): when, in seconds (monotonic), and what.
    private var delayed: [(Double, String)] = []

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// - Parameter then: shell text run on the same terminal after Perch ends (as the shell that
    ///   started it would go on); the script then exits with Perch's status.
    init(kind: Kind, arguments: [String] = [], width: Int = 80, height: Int = 24, then: String? = nil) throws {
        self.kind = kind
        home = try TmuxSession.makeScratchHome()
        master = PTY.openMaster(O_RDWR | O_NOCTTY)
        try #require(master >= 0 && PTY.grant(master) == 0 && PTY.unlock(master) == 0, "a pseudo-terminal")
        var nameBuffer = [CChar](repeating: 0, count: 128)
        try #require(PTY.name(master, &nameBuffer, nameBuffer.count) == 0)
        let slave = String(decoding: nameBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let environment = [
            "HOME": home.path, "TERM": "xterm-256color", "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin",
        ]
        let script =
            then.map { "stty cols \(width) rows \(height); \"$@\"; status=$?; \($0); exit $status" }
            ?? "stty cols \(width) rows \(height); exec \"$@\""
        started = Self.now()
        pid = try Spawn.start(
            ["setsid", "-c", "sh", "-c", script, "sh", TmuxSession.binary] + arguments, environment: environment, stdin: slave,
            stdout: slave, stderr: home.appendingPathComponent("stderr").path)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = try? Spawn.wait(pid)
        }
        close(master)
        try? FileManager.default.removeItem(at: home)
    }

    /// Writes `text` to Perch as the terminal's input.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what Perch wrote for up to `seconds`, answering queries as ``kind`` does.
    func pump(for seconds: Double) {
        let end = Self.now() + seconds
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            while let first = delayed.first, first.0 <= Self.now() {
                send(first.1)
                delayed.removeFirst()
            }
            let left = min(end, delayed.first?.0 ?? end) - Self.now()
            var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(max(0, left * 1000).rounded(.up)))
            if ready > 0, fd.revents & Int16(POLLIN) != 0 {
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n > 0 {
                    output += buffer[0..<n]
                    answerQueries()
                    continue
                }
            }
            if ready > 0 {
                reapIfEnded()
                usleep(2000)  // hung up with nothing to read: do not spin
            }
            if end - Self.now() <= 0 || exitStatus != nil { return }
        }
    }

    private func answerQueries() {
        let text = output[answered...]
        let query = Array("\u{1B}[?u".utf8)
        let attributes = Array("\u{1B}[c".utf8)
        let cursorQuery = Array("\u{1B}[6n".utf8)
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].starts(with: query) {
                if kind == .kitty { send("\u{1B}[?0u") }
                if kind == .slowKitty { delayed.append((Self.now() + 0.3, "\u{1B}[?0u")) }
                index += query.count
            } else if text[index...].starts(with: cursorQuery) {
                // DSR 6, as the inline picker asks: row 1, column 1.
                if kind == .slowKitty { delayed.append((Self.now() + 0.3, "\u{1B}[1;1R")) }
                if kind == .kitty || kind == .primaryAttributesOnly { send("\u{1B}[1;1R") }
                index += cursorQuery.count
            } else if text[index...].starts(with: attributes) {
                if kind == .slowKitty { delayed.append((Self.now() + 0.3, "\u{1B}[?62;22c")) }
                if kind == .kitty || kind == .primaryAttributesOnly { send("\u{1B}[?62;22c") }
                index += attributes.count
            } else {
                index += 1
            }
        }
        // A query cut at the end of a read is looked at again with the next bytes.
        answered = max(answered, output.count - 2)
    }

    /// Reads until `condition` holds for everything written so far, or `timeout` seconds pass;
    /// returns the seconds it took, or nil.
    @discardableResult
    func wait(timeout: Double = 5, until condition: (String) -> Bool) -> Double? {
        let start = Self.now()
        while Self.now() - start < timeout {
            if condition(text) { return Self.now() - start }
            pump(for: 0.002)
            if exitStatus != nil, !condition(text) { return nil }
        }
        return condition(text) ? Self.now() - start : nil
    }

    /// Everything Perch wrote, as text.
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Whether Perch wrote `sequence` after its first `offset` bytes (a search of those bytes only).
    func contains(_ sequence: String, after offset: Int) -> Bool {
        let needle = Array(sequence.utf8)
        guard output.count - offset >= needle.count else { return false }
        var index = max(0, offset)
        while index + needle.count <= output.count {
            if output[index] == needle[0], output[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// How often `sequence` occurs in what Perch wrote.
    func count(_ sequence: String) -> Int { text.components(separatedBy: sequence).count - 1 }

    private func reapIfEnded() {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        }
    }

    /// Reads until Perch has ended, at most `timeout` seconds; returns its exit status.
    func waitForExit(timeout: Double = 5) -> Int32? {
        let end = Self.now() + timeout
        while exitStatus == nil, Self.now() < end {
            pump(for: 0.01)
            reapIfEnded()
        }
        return exitStatus
    }
}
