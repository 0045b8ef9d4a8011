import Glibc
import PerchDomain
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import Testing

@testable import PerchApp

/// Issue 20: `perch doctor` lines fitted to the terminal's width.
@Suite("perch doctor's lines")
struct DoctorTests {
    static let value = "/home/ada.lovelace/.config/perch/accounts.json: a regular file, mode rw-r----- (owner only), yours"

    // Bug: doctor's lines were not fitted to the width and ran past the terminal's edge.
    @Test("every line fits the width; the value wraps under its first column", arguments: [100, 80, 60, 44])
    func fitsWidth(width: Int) {
        let lines = Doctor.fitted("config", Self.value, width: width)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= width }, "\(lines)")
        #expect(lines[0].hasPrefix("  config            /home/"))
        for line in lines.dropFirst() {
            #expect(line.hasPrefix(String(repeating: " ", count: Doctor.valueColumn)) && line.dropFirst(Doctor.valueColumn).first != " ")
        }
        #expect(lines.joined().filter { $0 != " " } == ("config" + Self.value).filter { $0 != " " }, "nothing cut: \(lines)")
    }

    @Test("on a narrow terminal the value goes below the name, four columns in")
    func narrow() {
        let lines = Doctor.fitted("config", Self.value, width: 36)
        #expect(lines[0] == "  config")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") && DisplayWidth.columns(of: $0) <= 36 }, "\(lines)")
    }

    @Test("a line that fits, and any line for a pipe (no width), is one line as before")
    func unchanged() {
        #expect(Doctor.fitted("long-press", "500 ms (the default)", width: 80) == ["  long-press        500 ms (the default)"])
        #expect(Doctor.fitted("config", Self.value, width: nil) == ["  config            " + Self.value])
    }
}

/// `perch doctor` on the interface's terminal stack: the shared decoder, one wait on a poller.
@Suite("perch doctor's questions and key test, on a virtual clock")
struct DoctorTerminalTests {
    /// A pipe standing for the terminal's input, and what writes into it.
    final class Terminal {
        var fds: [Int32] = [-1, -1]
        init() { _ = pipe(&fds) }
        deinit { for fd in fds { close(fd) } }
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } }
    }

    @Test("the answers are read as they come, split and with a key between, and the wait ends at the device attributes")
    func answersInPieces() {
        let terminal = Terminal()
        let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: terminal.fds[0])
        let poller = VirtualPoller(start: 1_000)
        poller.at(1_010) { terminal.send("\u{1B}[?1006;1$y\u{1B}[?20") }
        poller.at(1_020) { terminal.send("04;2$yx\u{1B}[?3u") }
        poller.at(1_030) { terminal.send("\u{1B}[?62;22c") }
        let answers = Doctor.askTerminal(backend, poller: poller, timeout: 300)
        #expect(backend.controls == [Doctor.queries])
        #expect(Doctor.queries.suffix(TerminalQuery.keyboardProtocol.bytes.count).elementsEqual(TerminalQuery.keyboardProtocol.bytes))
        #expect(answers == Doctor.Answers(modes: [1006: 1, 2004: 2], keyboard: .kitty(flags: 3)))
        #expect(poller.time == 1_030, "ended by the device attributes, not by the timeout")
    }

    @Test("a silent terminal is given up on at the timeout, after one wait")
    func silentTerminal() {
        let terminal = Terminal()
        let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: terminal.fds[0])
        let poller = VirtualPoller(start: 1_000)
        let answers = Doctor.askTerminal(backend, poller: poller, timeout: 300)
        #expect(answers == Doctor.Answers())
        #expect(answers.keyboard.summary.contains("within 300 ms"), "the wait it really had")
        #expect(poller.time == 1_300)
        #expect(poller.timeouts == [300], "one wait to the deadline: no polling")
    }

    @Test("a held 1 (a press, then repeats every 33 ms from 400 ms) is recorded until 1 s without input, one wait per read")
    func heldKey() {
        let terminal = Terminal()
        let poller = VirtualPoller(start: 1_000)
        poller.at(2_000) { terminal.send("1") }
        let repeats = Array(stride(from: Int64(2_400), through: 3_000, by: 33))
        for time in repeats { poller.at(time) { terminal.send("1") } }
        let events = Doctor.recordHold(from: terminal.fds[0], poller: poller)
        #expect(events.count == 1 + repeats.count)
        #expect(events.allSatisfy { $0.0 == .key(.char("1")) })
        #expect(events.map(\.1) == [2_000] + repeats)
        #expect(poller.time == repeats.last! + 1_000, "ended 1 s after the last repeat")
        #expect(poller.timeouts.count == events.count + 1, "one wait per read, and the last to the end")
    }

    @Test("another key first skips the key test at once; a lone Esc is that key once the decoder's wait has passed")
    func otherKeySkips() {
        let terminal = Terminal()
        let poller = VirtualPoller(start: 1_000)
        poller.at(1_100) { terminal.send("\u{1B}") }
        poller.at(1_500) { terminal.send("1") }
        let events = Doctor.recordHold(from: terminal.fds[0], poller: poller)
        #expect(events.map(\.0) == [.key(KeyEvent(.escape))], "\(events)")
        #expect(poller.time == 1_100 + InputDecoder.escapeTimeoutMilliseconds, "given out when the decoder's wait ended")
    }
}

/// `perch doctor` names the multiplexer it runs in and what it does to Perch, with the fix.
@Suite("perch doctor and multiplexers")
struct DoctorMultiplexerTests {
    @Test("TMUX and STY name tmux and screen; neither, none")
    func detected() {
        #expect(Multiplexer.detected { ["TMUX": "/tmp/tmux-0/default,1,0"][$0] } == [.tmux])
        #expect(Multiplexer.detected { ["STY": "123.pts-0.host"][$0] } == [.screen])
        #expect(Multiplexer.detected { ["TMUX": "x", "STY": "y"][$0] } == [.tmux, .screen])
        #expect(Multiplexer.detected { ["TMUX": ""][$0] } == [])
        #expect(Multiplexer.lines([], escapeTime: .success(0)).map(\.1) == ["none (neither TMUX nor STY is set)"])
    }

    // Bug: under tmux, Esc arrived 500 ms late (escape-time) and doctor said nothing of it.
    @Test("tmux's escape-time over 50 ms is named with its fix; 10 ms is fine; unreadable says so")
    func tmuxEscapeTime() {
        let slow = Multiplexer.lines([.tmux], escapeTime: .success(500))
        #expect(slow.map(\.0) == ["multiplexer", "tmux escape-time"])
        #expect(slow[1].1.hasPrefix("500 ms (tmux show -sv escape-time): Esc reaches Perch 500 ms late"))
        #expect(slow[1].1.hasSuffix("fix: set -sg escape-time 10 (in ~/.tmux.conf)"))
        #expect(Multiplexer.lines([.tmux], escapeTime: .success(10))[1].1 == "10 ms (tmux show -sv escape-time): fine")
        let unknown = Multiplexer.lines([.tmux], escapeTime: .failure(.init(reason: "tmux not found")))[1].1
        #expect(unknown.hasPrefix("unknown (tmux show -sv escape-time: tmux not found)") && unknown.contains("set -sg escape-time 10"))
    }

    // Bug: under GNU screen with the mouse on, Esc did nothing, and the last frame stayed under
    // the prompt; doctor said nothing of either.
    @Test("screen: Esc held with the mouse on (--no-mouse) and the alternate screen ignored (altscreen on)")
    func screen() {
        var asked = false
        let lines = Multiplexer.lines(
            [.screen],
            escapeTime: {
                asked = true
                return .success(0)
            }())
        #expect(!asked, "tmux is not asked under screen alone")
        #expect(lines.map(\.0) == ["multiplexer", "screen and Esc", "screen altscreen"])
        #expect(lines[1].1.hasSuffix("fix: perch --no-mouse (or Mouse off in Settings)"))
        #expect(lines[2].1.hasSuffix("fix: altscreen on (in ~/.screenrc)"))
    }

    // Bug: under GNU screen, which claims an alternate screen and ignores it, Perch's last frame
    // stayed under the shell's prompt after q and after SIGTERM.
    @Test("the alternate screen counts as honoured only where terminfo has one and screen is not in between")
    func alternateScreen() {
        #expect(NcursesBackend.alternateScreenHonoured(hasRmcup: true) { _ in nil })
        #expect(!NcursesBackend.alternateScreenHonoured(hasRmcup: true) { ["STY": "1.pts-0.host"][$0] })
        #expect(!NcursesBackend.alternateScreenHonoured(hasRmcup: false) { _ in nil })
        #expect(NcursesBackend.alternateScreenHonoured(hasRmcup: true) { ["STY": ""][$0] })
    }
}
