import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import PerchStore

/// `perch doctor`: what this terminal and setup give Perch, one line each with how it was found,
/// then (on a terminal) a measured key-repeat test. Where long-press does not work for someone,
/// this is where they look.
///
/// The terminal is asked with xterm's DECRQM (``TerminalQuery/privateModeRequest(_:)``) for SGR
/// mouse (1006) and bracketed paste (2004), then ``TerminalQuery/keyboardProtocol`` (the kitty
/// keyboard protocol query and a primary device attributes request, which every terminal
/// answers and so ends the wait, at most ``queryTimeoutMilliseconds``). The terminal stack is
/// the inline picker's: ``LineModeBackend``'s raw mode, the shared ``InputDecoder`` for the
/// answers and the keys, and one wait on a ``Poller`` (``readEvents(from:poller:deadline:take:)``).
struct Doctor {
    let options: DoctorCommand
    let console: Console
    let paths: PerchPaths
    var environment: (String) -> String? = PerchPaths.environment
    /// Lines on the tools the accounts name (``DoctorCommand/toolLines(_:)``), after the files'.
    var toolLines: [(String, String)] = []

    /// Longest wait for the terminal's answers, in milliseconds.
    static let queryTimeoutMilliseconds: Int64 = 300
    /// How long the key-repeat test listens after the first press, in milliseconds.
    static let keyTestMilliseconds: Int64 = 2_500

    /// The queries, in the order the terminal answers them: the device attributes last.
    static let queries =
        TerminalQuery.privateModeRequest(1006) + TerminalQuery.privateModeRequest(2004) + TerminalQuery.keyboardProtocol.bytes

    /// The terminal's answers to the doctor's queries.
    struct Answers: Hashable {
        /// DECRQM values by mode: 0 not recognised, 1 set, 2 reset, 3 permanently set, 4 permanently reset.
        var modes: [Int: Int] = [:]
        var keyboard: KeyboardProtocolProbe.Answer = .silent

        /// Takes in `reply` (as the shared decoder gives it); returns true for the device
        /// attributes, which come last and end the wait.
        mutating func take(_ reply: TerminalReply) -> Bool {
            switch reply {
            case .privateMode(let mode, let value): modes[mode] = value
            case .keyboardFlags(let flags): keyboard = .kitty(flags: flags)
            case .primaryDeviceAttributes:
                if keyboard == .silent { keyboard = .primaryAttributesOnly }
                return true
            case .cursorPosition, .backgroundColor: break
            }
            return false
        }
    }

    /// The answers in `bytes`, decoded by the shared decoder; nil until the device attributes
    /// reply has arrived.
    static func parseAnswers(_ bytes: [UInt8]) -> Answers? {
        var decoder = InputDecoder()
        var answers = Answers()
        for case .reply(let reply) in decoder.feed(bytes) where answers.take(reply) { return answers }
        return nil
    }

    /// Sends ``queries`` on `backend` and reads the answers from its input until the device
    /// attributes, or until `timeout` milliseconds have passed; what came by then is kept, and
    /// keys typed meanwhile are dropped.
    static func askTerminal(_ backend: some TerminalBackend, poller: Poller, timeout: Int64) -> Answers {
        var answers = Answers()
        backend.write(control: queries)
        let deadline = poller.now() + timeout
        readEvents(from: backend.inputDescriptor, poller: poller, deadline: { deadline }) { event, _ in
            guard case .reply(let reply) = event else { return false }
            return answers.take(reply)
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
        let multiplexers = Multiplexer.detected(environment)
        lines += Multiplexer.lines(multiplexers, escapeTime: Multiplexer.tmuxEscapeTime())
        lines.append(("UTF-8 locale", localeLine()))
        lines.append(("config", fileLine(paths.config)))
        lines.append(("state", fileLine(paths.state)))
        lines += toolLines
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
            case .saved: "saved in " + shownPath(settingsPath)
            case .standard: "the default"
            case .unsaved: "changed in Settings, not saved"
            }
        return (state.values.longPressMilliseconds, source)
    }

    /// Prints one `name value` line, fitted to the terminal's width.
    private func printLine(_ name: String, _ value: String) {
        for line in Self.fitted(name, PerchApp.visibleControls(value), width: Console.outputColumns()) { console.print(line) }
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
        // A path longer than a line goes on over the next ones, broken after a `/` where it can
        // (bug: it was cut at the line's last column, `accounts.js` / `on`).
        let wrapped = DisplayWidth.wrapped(value, to: lineWidth, rows: Int.max)
        let pad = String(repeating: " ", count: indent)
        if indent == valueColumn {
            return wrapped.enumerated().map { ($0.offset == 0 ? first : pad) + $0.element }
        }
        return [DisplayWidth.truncated("  " + name, to: width)] + wrapped.map { pad + $0 }
    }

    /// Sends the queries and collects the answers, on the line-mode backend's raw input.
    private func query() -> Answers {
        Self.onTerminal { backend in Self.askTerminal(backend, poller: SystemPoller(), timeout: Self.queryTimeoutMilliseconds) }
            ?? Answers()
    }

    /// Runs `body` on standard input and output through ``LineModeBackend`` (raw input, output
    /// as the shell has it, the cursor hidden), given back as it was after (keyboard flags
    /// pushed meanwhile popped); nil when raw mode cannot be set.
    private static func onTerminal<T>(_ body: (LineModeBackend) -> T) -> T? {
        let backend = LineModeBackend(input: STDIN_FILENO, output: STDOUT_FILENO, colors: false)
        guard backend.enter() else { return nil }
        defer { backend.shutdown() }
        return body(backend)
    }

    /// Reads `input` through the shared decoder (``InputDecoder``), giving `take` each event with
    /// the time it was read (milliseconds on `poller`'s clock), until `take` returns true, the
    /// input ends, or the time `deadline()` gives (asked again after each read) has come. A lone
    /// `Esc` or an unfinished sequence is given out once the decoder's wait for the rest has
    /// passed. One wait, poll(2) through `poller` with a timeout at the next deadline: no polling.
    static func readEvents(from input: Int32, poller: Poller, deadline: () -> Int64, take: (InputEvent, Int64) -> Bool) {
        var decoder = InputDecoder()
        var buffer = [UInt8](repeating: 0, count: 1024)
        var lastRead = poller.now()
        while true {
            let now = poller.now()
            if let wait = decoder.pendingTimeoutMilliseconds, now - lastRead >= wait {
                for event in decoder.flush() where take(event, now) { return }
            }
            let end = deadline()
            guard now < end else { return }
            var timeout = end - now
            if let wait = decoder.pendingTimeoutMilliseconds { timeout = min(timeout, max(0, lastRead + wait - now)) }
            var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
            let ready = poller.poll(&fds, timeout: Int32(clamping: timeout))
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { return }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            lastRead = poller.now()
            for event in decoder.feed(buffer[0..<n]) where take(event, lastRead) { return }
        }
    }

    /// Asks for the 1 key to be held, records what arrives, and reports the measurement.
    private func keyRepeatTest(mode: KeyHoldMode, keyboard: KeyboardProtocolProbe.Answer?, longPressMilliseconds: Int64) {
        console.print("Key-repeat test: hold the 1 key for 2 seconds now (any other key skips; 10 s at most).")
        let useReleases = mode == .releaseEvents
        let events: [(InputEvent, Int64)] =
            Self.onTerminal { backend in
                if useReleases { backend.pushKeyboardFlags(KeyboardProtocolProbe.flags) }
                return Self.recordHold(from: backend.inputDescriptor, poller: SystemPoller())
            } ?? []
        tcflush(STDIN_FILENO, TCIFLUSH)  // repeats still on their way are not typed at the shell
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

    /// Reads keys from `input` until the first press of something, then for
    /// ``keyTestMilliseconds``, or until 1 s passes without input, or another key than 1 comes;
    /// returns the decoded events with their times (milliseconds on `poller`'s clock).
    static func recordHold(from input: Int32, poller: Poller) -> [(InputEvent, Int64)] {
        var events: [(InputEvent, Int64)] = []
        let start = poller.now()
        var lastInput = start
        readEvents(
            from: input, poller: poller,
            deadline: {
                guard let firstPress = events.first?.1 else { return start + 10_000 }
                // Quiet for longer than any repeat delay (X's default is 660 ms): the key was let go.
                return min(firstPress + Self.keyTestMilliseconds, lastInput + 1_000)
            },
            take: { event, time in
                lastInput = time
                if case .unknown = event { return false }
                events.append((event, time))
                return events[0].0 != .key(.char("1"))
            })
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

    /// `path` as `~/…` when it is below HOME, as the rest of Perch's output names files.
    // Bug (everyday issue): doctor named the config, the state and the settings by their whole
    // paths, where setup, status and audit say `~/…`.
    private func shownPath(_ path: String) -> String {
        PerchPaths.tilde(path, home: IdentityEnvironment(variables: ["HOME": environment("HOME") ?? ""]).home)
    }

    /// A path (``shownPath(_:)``) with whether it exists, its permissions and whether it can be written.
    private func fileLine(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0 {
            let mode = Int(info.st_mode & 0o777)
            let letters = (0..<9).map { bit in mode & (1 << (8 - bit)) != 0 ? Array("rwxrwxrwx")[bit] : "-" }
            let writable = access(path, W_OK) == 0 ? "writable" : "not writable"
            let open = mode & 0o022 != 0 ? "; others may write it" : ""
            return "\(shownPath(path)) (exists, \(String(letters)), \(writable)\(open))"
        }
        var folder = path
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            if access(folder, F_OK) == 0 {
                let writable = access(folder, W_OK) == 0 ? "writable" : "not writable"
                return "\(shownPath(path)) (absent; \(shownPath(folder)) exists and is \(writable))"
            }
        }
        return "\(shownPath(path)) (absent)"
    }
}
