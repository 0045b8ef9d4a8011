import Glibc
import PerchCore
import PerchStore
import PerchTerminal

/// `perch doctor`: what this terminal and setup give Perch, one line each with how it was found,
/// then (on a terminal) a measured key-repeat test. Where long-press does not work for someone,
/// this is where they look.
///
/// The terminal is asked with xterm's DECRQM (`CSI ? mode $ p`, answered `CSI ? mode ; value $ y`,
/// ctlseqs "Request DEC private mode") for SGR mouse (1006) and bracketed paste (2004), the kitty
/// keyboard protocol query (`CSI ? u`) and a primary device attributes request (`CSI c`), which
/// every terminal answers and so ends the wait (at most ``queryTimeoutMilliseconds``).
struct Doctor {
    let options: CommandLineOptions
    let console: Console
    let paths: PerchPaths
    var environment: (String) -> String? = PerchPaths.environment

    /// Longest wait for the terminal's answers, in milliseconds.
    static let queryTimeoutMilliseconds: Int64 = 300
    /// How long the key-repeat test listens after the first press, in milliseconds.
    static let keyTestMilliseconds: Int64 = 2_500

    /// The terminal's answers to the doctor's queries.
    struct Answers: Hashable {
        /// DECRQM values by mode: 0 not recognised, 1 set, 2 reset, 3 permanently set, 4 permanently reset.
        var modes: [Int: Int] = [:]
        var keyboard: KeyboardProtocolProbe.Answer = .silent
    }

    /// Parses the answers in `bytes`; nil until the device attributes reply has arrived.
    static func parseAnswers(_ bytes: [UInt8]) -> Answers? {
        var probe = KeyboardProtocolProbe()
        guard let keyboard = probe.feed(bytes) else { return nil }
        var answers = Answers(keyboard: keyboard)
        let text = String(decoding: bytes, as: UTF8.self)
        for part in text.split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst()
        where part.hasPrefix("[?") && part.hasSuffix("$y") {
            let fields = part.dropFirst(2).dropLast(2).split(separator: ";")
            if fields.count == 2, let mode = Int(fields[0]), let value = Int(fields[1]) { answers.modes[mode] = value }
        }
        return answers
    }

    /// How a DECRQM answer reads.
    static func describeMode(_ value: Int?, mode: Int) -> String {
        switch value {
        case 1, 2: "yes (answered DECRQM ?\(mode) with \(value!): known, \(value == 1 ? "on" : "off") now)"
        case 3: "yes (answered DECRQM ?\(mode) with 3: always on)"
        case 4: "no (answered DECRQM ?\(mode) with 4: never on)"
        case 0: "no (answered DECRQM ?\(mode) with 0: not recognised)"
        default: "unknown (no answer to DECRQM ?\(mode); Perch turns it on anyway)"
        }
    }

    func run() -> Int32 {
        let onTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var lines: [(String, String)] = []
        let term = environment("TERM") ?? ""
        var terminfoKnown = false
        if term.isEmpty || term == "dumb" {
            lines.append(("TERM", "\(term.isEmpty ? "not set" : "dumb") (from the environment): the interface cannot start"))
        } else {
            do {
                let colors = try NcursesBackend.terminfoColors(term)
                terminfoKnown = true
                lines.append(("TERM", "\(term) (from the environment); terminfo has an entry (setupterm)"))
                let noColor = environment("NO_COLOR").map { !$0.isEmpty } ?? false
                var colours = colors.map { "\($0) (terminfo colors)" } ?? "none (terminfo has no colors)"
                if let truecolor = environment("COLORTERM"), !truecolor.isEmpty { colours += "; COLORTERM=\(truecolor)" }
                if noColor { colours += "; NO_COLOR is set: Perch draws without colour" }
                lines.append(("colours", colours))
            } catch {
                lines.append(("TERM", "\(term) (from the environment); terminfo has no entry: try TERM=xterm-256color"))
            }
        }
        var answers: Answers?
        if onTerminal {
            answers = query()
        }
        let notAsked = "unknown (standard input and output are not a terminal: not asked)"
        lines.append(("SGR mouse", answers.map { Self.describeMode($0.modes[1006], mode: 1006) } ?? notAsked))
        lines.append(("bracketed paste", answers.map { Self.describeMode($0.modes[2004], mode: 2004) } ?? notAsked))
        lines.append(("kitty keyboard", answers.map { $0.keyboard.summary } ?? notAsked))
        let keyHold = KeyboardProtocolProbe.mode(requested: options.keyHold, answer: answers?.keyboard)
        lines.append(("key hold", "\(keyHold.summary) (--key-hold \(options.keyHold.rawValue))"))
        let longPress = longPressInEffect()
        lines.append(("long-press", "\(longPress.milliseconds) ms (\(longPress.source))"))
        var osc52 =
            terminfoKnown && NcursesBackend.terminfoHasString(term, "Ms") ? "terminfo says yes (Ms)" : "terminfo does not say (no Ms)"
        osc52 += "; Copy id sends it anyway, and the terminal may refuse it"
        if environment("TMUX") != nil { osc52 += "; in tmux, set-clipboard must be on" }
        lines.append(("OSC 52 clipboard", osc52))
        lines.append(("UTF-8 locale", localeLine()))
        lines.append(("config", fileLine(paths.config)))
        lines.append(("state", fileLine(paths.state)))
        console.print("perch doctor: what this terminal and setup give Perch")
        for (name, value) in lines { printLine(name, value) }
        if onTerminal {
            keyRepeatTest(mode: keyHold, keyboard: answers?.keyboard, longPressMilliseconds: longPress.milliseconds)
        } else {
            console.print("Key-repeat test: skipped (it needs a terminal).")
        }
        return ExitStatus.ok
    }

    /// The long-press duration in effect, in milliseconds, as the interface would take it, and
    /// where it comes from: `--long-press-ms`, else the settings file beside the config, else the
    /// default.
    func longPressInEffect() -> (milliseconds: Int64, source: String) {
        var flags = Settings()
        flags.longPressMilliseconds = options.longPressMilliseconds
        let settingsPath = SettingsFile.path(besideConfig: paths.config)
        // Bug: doctor printed the default 500 ms while 700 ms was saved in Settings.
        let state = SettingsState(file: SettingsFile.read(settingsPath).settings, flags: flags, flagged: options.flaggedSettings)
        let source =
            switch state.source(.longPress) {
            case .flag: "--long-press-ms"
            case .saved: "saved in " + settingsPath
            case .standard: "the default"
            }
        return (state.values.longPressMilliseconds, source)
    }

    /// Prints one `name value` line, fitted to the terminal's width.
    private func printLine(_ name: String, _ value: String) {
        for line in Self.fitted(name, PerchApp.visibleControls(value), width: Self.outputWidth()) { console.print(line) }
    }

    /// Column where the values start: two spaces, then the name padded to 18 columns.
    static let valueColumn = 20

    /// A `name value` line as lines of at most `width` columns (none when `width` is nil: a
    /// pipe gets whole lines): the value wrapped at spaces under its first column, or, when that
    /// leaves fewer than 20 columns, from four columns in on the lines below the name. A word
    /// longer than a line (a long path) is broken across lines, never cut.
    static func fitted(_ name: String, _ value: String, width: Int?) -> [String] {
        let first = "  " + name.padded(toColumns: valueColumn - 2)
        guard let width, DisplayWidth.columns(of: first + value) > width else { return [first + value] }
        let indent = width - valueColumn >= 20 ? valueColumn : 4
        let lineWidth = max(1, width - indent)
        var words: [String] = []
        for word in value.split(separator: " ").map(String.init) {
            var piece = ""
            for character in word {
                if DisplayWidth.columns(of: piece) + DisplayWidth.columns(of: character) > lineWidth {
                    words.append(piece)
                    piece = ""
                }
                piece.append(character)
            }
            words.append(piece)
        }
        let wrapped = DisplayWidth.wrapped(words.joined(separator: " "), to: lineWidth, rows: Int.max)
        let pad = String(repeating: " ", count: indent)
        if indent == valueColumn {
            return wrapped.enumerated().map { ($0.offset == 0 ? first : pad) + $0.element }
        }
        return [DisplayWidth.truncated("  " + name, to: width)] + wrapped.map { pad + $0 }
    }

    /// Columns of the terminal standard output is (TIOCGWINSZ), or nil when it is not one.
    static func outputWidth() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Sends the queries and collects the answers, in raw mode.
    private func query() -> Answers {
        let bytes = TerminalQuery.privateModeRequest(1006) + TerminalQuery.privateModeRequest(2004) + TerminalQuery.keyboardProtocol.bytes
        let received = withRawInput { readAnswers(after: bytes, timeout: Self.queryTimeoutMilliseconds) }
        return Self.parseAnswers(received) ?? Answers()
    }

    /// Runs `body` with standard input in raw mode, restored after.
    private func withRawInput<T>(_ body: () -> T) -> T {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var raw = saved
        cfmakeraw(&raw)
        raw.c_oflag = saved.c_oflag  // keep newline translation for what is printed meanwhile
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        return body()
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Writes `query` and reads until the device attributes answer or `timeout` ms.
    private func readAnswers(after query: [UInt8], timeout: Int64) -> [UInt8] {
        write(query)
        var received: [UInt8] = []
        let deadline = MonotonicClock.now() + timeout
        var buffer = [UInt8](repeating: 0, count: 1024)
        while MonotonicClock.now() < deadline, Self.parseAnswers(received) == nil {
            var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, Int32(max(1, deadline - MonotonicClock.now()))) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    /// Asks for the 1 key to be held, records what arrives, and reports the measurement.
    private func keyRepeatTest(mode: KeyHoldMode, keyboard: KeyboardProtocolProbe.Answer?, longPressMilliseconds: Int64) {
        console.print("Key-repeat test: hold the 1 key for 2 seconds now (any other key skips; 10 s at most).")
        let useReleases = mode == .releaseEvents
        let events: [(InputEvent, Int64)] = withRawInput {
            if useReleases { write(Array("\u{1B}[>\(KeyboardProtocolProbe.flags)u".utf8)) }
            defer {
                if useReleases { write(Array("\u{1B}[<u".utf8)) }
                tcflush(STDIN_FILENO, TCIFLUSH)  // repeats still on their way are not typed at the shell
            }
            return recordHold()
        }
        let one = KeyEvent.char("1")
        guard let first = events.first, first.0 == .key(one) else {
            console.print("  skipped (no 1 key)")
            return
        }
        let end = (events.last?.1 ?? first.1) + longPressMilliseconds
        let measured = KeyRepeatMeasurement(key: one, events: events, mode: mode, longPressMilliseconds: longPressMilliseconds, end: end)
        let delay = measured.delayMilliseconds.map { "\($0) ms (press to first auto-repeat)" } ?? "no auto-repeat came"
        printLine("repeat delay", delay)
        let rate = measured.repeatsPerSecond.map { String(Int(($0 * 10).rounded()) / 10) + "." + String(Int(($0 * 10).rounded()) % 10) }
        printLine("repeat rate", rate.map { "\($0) per second (\(measured.repeatCount) repeats)" } ?? "unknown")
        if useReleases {
            printLine("released after", measured.heldMilliseconds.map { "\($0) ms" } ?? "no release event came")
        }
        let verdict: String
        if let fired = measured.firedAfterMilliseconds {
            verdict = "recognised, \(fired) ms after the press (long-press \(longPressMilliseconds) ms, \(mode.summary))"
        } else if mode == .off {
            verdict = "never (--key-hold off)"
        } else {
            verdict =
                "not recognised with a long-press of \(longPressMilliseconds) ms (\(mode.summary)); "
                + (mode == .autoRepeat
                    ? "the hold is seen at the first auto-repeat at or after it: a longer hold, or a shorter repeat delay, helps"
                    : "hold it longer")
        }
        printLine("hold", verdict)
    }

    /// Reads keys until the first press of something, then for ``keyTestMilliseconds``, or until
    /// 1 s passes without input; returns the decoded events with their times (ms).
    private func recordHold() -> [(InputEvent, Int64)] {
        var decoder = InputDecoder()
        var events: [(InputEvent, Int64)] = []
        let start = MonotonicClock.now()
        var buffer = [UInt8](repeating: 0, count: 1024)
        var lastInput = start
        while true {
            let now = MonotonicClock.now()
            let firstPress = events.first?.1
            if firstPress == nil, now - start > 10_000 { break }
            // Quiet for longer than any repeat delay (X's default is 660 ms): the key was let go.
            if let firstPress, now - firstPress > Self.keyTestMilliseconds || now - lastInput > 1_000 { break }
            var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 50) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            let time = MonotonicClock.now()
            lastInput = time
            for event in decoder.feed(buffer[0..<n]) {
                if case .unknown = event { continue }
                events.append((event, time))
            }
            if let first = events.first, first.0 != .key(.char("1")) { break }
        }
        return events
    }

    /// Whether the locale's character set is UTF-8, and where it came from.
    private func localeLine() -> String {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        let source = ["LC_ALL", "LC_CTYPE", "LANG"].first { !(environment($0) ?? "").isEmpty }
        let named = source.map { "\($0)=\(environment($0) ?? "")" } ?? "no LC_ALL, LC_CTYPE or LANG"
        return codeset == "UTF-8"
            ? "yes (\(named); codeset UTF-8)"
            : "no (\(named); codeset \(codeset)): Perch uses C.UTF-8 to draw, set LANG=C.UTF-8 for other programs"
    }

    /// A path with whether it exists, its permissions and whether it can be written.
    private func fileLine(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0 {
            let mode = Int(info.st_mode & 0o777)
            let letters = (0..<9).map { bit in mode & (1 << (8 - bit)) != 0 ? Array("rwxrwxrwx")[bit] : "-" }
            let writable = access(path, W_OK) == 0 ? "writable" : "not writable"
            let open = mode & 0o022 != 0 ? "; others may write it" : ""
            return "\(path) (exists, \(String(letters)), \(writable)\(open))"
        }
        var folder = path
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            if access(folder, F_OK) == 0 {
                let writable = access(folder, W_OK) == 0 ? "writable" : "not writable"
                return "\(path) (absent; \(folder) exists and is \(writable))"
            }
        }
        return "\(path) (absent)"
    }
}
