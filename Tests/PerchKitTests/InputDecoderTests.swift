import Testing

@testable import PerchKit

// MARK: - Helpers

private let esc: UInt8 = 0x1B

/// The bytes of `text` (ASCII and UTF-8 literals), with `^[` written as esc for readability.
private func bytes(_ text: String) -> [UInt8] {
    let raw = Array(text.utf8)
    var result: [UInt8] = []
    var i = 0
    while i < raw.count {
        if raw[i] == UInt8(ascii: "^"), i + 1 < raw.count, raw[i + 1] == UInt8(ascii: "[") {
            result.append(0x1B)
            i += 2
        } else {
            result.append(raw[i])
            i += 1
        }
    }
    return result
}

/// Feeds `input` whole, then flushes: everything the decoder delivers.
private func decodeWhole(_ input: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    return decoder.feed(input) + decoder.flush()
}

/// Feeds `input` as the given consecutive pieces, then flushes.
private func decode(pieces: [ArraySlice<UInt8>]) -> [InputEvent] {
    var decoder = InputDecoder()
    var events: [InputEvent] = []
    for piece in pieces { events += decoder.feed(piece) }
    return events + decoder.flush()
}

private func key(_ k: Key, _ modifiers: Modifiers = []) -> InputEvent { .key(KeyEvent(k, modifiers: modifiers)) }
private func char(_ c: Character, _ modifiers: Modifiers = []) -> InputEvent { .key(KeyEvent(.character(c), modifiers: modifiers)) }
private func mouse(_ kind: MouseEvent.Kind, _ button: MouseEvent.Button, column: Int, row: Int, _ modifiers: Modifiers = []) -> InputEvent {
    .mouse(MouseEvent(kind: kind, button: button, position: Position(column: column, row: row), modifiers: modifiers))
}

/// One input byte string and the events it must decode to (after a flush).
struct DecoderCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [InputEvent]

    init(_ name: String, _ input: [UInt8], _ expected: [InputEvent]) {
        self.name = name
        self.input = input
        self.expected = expected
    }

    init(_ name: String, _ text: String, _ expected: [InputEvent]) {
        self.init(name, bytes(text), expected)
    }

    var testDescription: String { name }
}

// MARK: - The table of sequences

private let printableCases: [DecoderCase] = [
    DecoderCase("letter a", "a", [char("a")]),
    DecoderCase("q", "q", [char("q")]),
    DecoderCase("digit 1", "1", [char("1")]),
    DecoderCase("space", " ", [char(" ")]),
    DecoderCase("tilde", "~", [char("~")]),
    DecoderCase("several letters in one read", "abc", [char("a"), char("b"), char("c")]),
    DecoderCase("upper case", "G", [char("G")]),
]

private let utf8Cases: [DecoderCase] = [
    DecoderCase("two-byte é", [0xC3, 0xA9], [char("é")]),
    DecoderCase("three-byte 中", [0xE4, 0xB8, 0xAD], [char("中")]),
    DecoderCase("three-byte €", [0xE2, 0x82, 0xAC], [char("€")]),
    DecoderCase("four-byte 😀", [0xF0, 0x9F, 0x98, 0x80], [char("😀")]),
    DecoderCase("mixed ASCII and multi-byte", Array("aé中😀z".utf8), [char("a"), char("é"), char("中"), char("😀"), char("z")]),
    DecoderCase("invalid lead byte 0xFF", [0xFF], [char("\u{FFFD}")]),
    DecoderCase("invalid lead byte 0xC0", [0xC0, 0x41], [char("\u{FFFD}"), char("A")]),
    DecoderCase("lone continuation byte", [0x80, 0x61], [char("\u{FFFD}"), char("a")]),
    DecoderCase("lead byte followed by ASCII", [0xC3, 0x41], [char("\u{FFFD}"), char("A")]),
    DecoderCase("three-byte lead cut by ASCII", [0xE4, 0xB8, 0x41], [char("\u{FFFD}"), char("A")]),
    DecoderCase("truncated at end of input, flushed", [0xE4, 0xB8], [char("\u{FFFD}")]),
]

private let controlCases: [DecoderCase] = [
    DecoderCase("Enter as CR", [0x0D], [key(.enter)]),
    DecoderCase("Enter as LF", [0x0A], [key(.enter)]),
    DecoderCase("Tab", [0x09], [key(.tab)]),
    DecoderCase("Backspace as DEL 0x7f", [0x7F], [key(.backspace)]),
    DecoderCase("Backspace as BS 0x08", [0x08], [key(.backspace)]),
    DecoderCase("Ctrl-C", [0x03], [key(.control("c"))]),
    DecoderCase("Ctrl-A", [0x01], [key(.control("a"))]),
    DecoderCase("Ctrl-Z", [0x1A], [key(.control("z"))]),
    DecoderCase("Ctrl-Space (NUL)", [0x00], [key(.control(" "))]),
    DecoderCase("Ctrl-backslash 0x1c", [0x1C], [key(.control("\\"))]),
    DecoderCase("Alt-x (esc x)", "^[x", [char("x", .alt)]),
    DecoderCase("Alt-Backspace (esc DEL)", [esc, 0x7F], [key(.backspace, .alt)]),
    DecoderCase("Alt-é (esc + two bytes)", [esc, 0xC3, 0xA9], [char("é", .alt)]),
    DecoderCase("lone esc, flushed", [esc], [key(.escape)]),
    DecoderCase("esc esc, flushed", [esc, esc], [key(.escape), key(.escape)]),
]

private let csiKeyCases: [DecoderCase] = [
    DecoderCase("CSI up", "^[[A", [key(.up)]),
    DecoderCase("CSI down", "^[[B", [key(.down)]),
    DecoderCase("CSI right", "^[[C", [key(.right)]),
    DecoderCase("CSI left", "^[[D", [key(.left)]),
    DecoderCase("Shift-Up CSI 1;2A", "^[[1;2A", [key(.up, .shift)]),
    DecoderCase("Alt-Down CSI 1;3B", "^[[1;3B", [key(.down, .alt)]),
    DecoderCase("Ctrl-Right CSI 1;5C", "^[[1;5C", [key(.right, .control)]),
    DecoderCase("Ctrl-Shift-Left CSI 1;6D", "^[[1;6D", [key(.left, [.control, .shift])]),
    DecoderCase("Ctrl-Alt-Shift-Up CSI 1;8A", "^[[1;8A", [key(.up, [.control, .alt, .shift])]),
    DecoderCase("SS3 up", "^[OA", [key(.up)]),
    DecoderCase("SS3 down", "^[OB", [key(.down)]),
    DecoderCase("SS3 right", "^[OC", [key(.right)]),
    DecoderCase("SS3 left", "^[OD", [key(.left)]),
    DecoderCase("SS3 Home", "^[OH", [key(.home)]),
    DecoderCase("SS3 End", "^[OF", [key(.end)]),
    DecoderCase("SS3 F1", "^[OP", [key(.function(1))]),
    DecoderCase("SS3 F4", "^[OS", [key(.function(4))]),
    DecoderCase("CSI Home H", "^[[H", [key(.home)]),
    DecoderCase("CSI End F", "^[[F", [key(.end)]),
    DecoderCase("Home CSI 1~", "^[[1~", [key(.home)]),
    DecoderCase("Home CSI 7~ (rxvt)", "^[[7~", [key(.home)]),
    DecoderCase("Insert CSI 2~", "^[[2~", [key(.insert)]),
    DecoderCase("Delete CSI 3~", "^[[3~", [key(.delete)]),
    DecoderCase("End CSI 4~", "^[[4~", [key(.end)]),
    DecoderCase("End CSI 8~ (rxvt)", "^[[8~", [key(.end)]),
    DecoderCase("PgUp CSI 5~", "^[[5~", [key(.pageUp)]),
    DecoderCase("PgDn CSI 6~", "^[[6~", [key(.pageDown)]),
    DecoderCase("Ctrl-PgUp CSI 5;5~", "^[[5;5~", [key(.pageUp, .control)]),
    DecoderCase("Shift-PgDn CSI 6;2~", "^[[6;2~", [key(.pageDown, .shift)]),
    DecoderCase("F5 CSI 15~", "^[[15~", [key(.function(5))]),
    DecoderCase("F6 CSI 17~", "^[[17~", [key(.function(6))]),
    DecoderCase("F10 CSI 21~", "^[[21~", [key(.function(10))]),
    DecoderCase("F11 CSI 23~", "^[[23~", [key(.function(11))]),
    DecoderCase("F12 CSI 24~", "^[[24~", [key(.function(12))]),
    DecoderCase("Shift-Tab CSI Z", "^[[Z", [key(.tab, .shift)]),
    DecoderCase("focus in", "^[[I", [.focus(true)]),
    DecoderCase("focus out", "^[[O", [.focus(false)]),
    DecoderCase("unknown CSI kept as unknown", "^[[99~", [.unknown(bytes("^[[99~"))]),
    DecoderCase("private CSI (device attributes) is a reply, not keys", "^[[?1;2c", [.reply(.primaryDeviceAttributes([1, 2]))]),
]

private let mouseCases: [DecoderCase] = [
    DecoderCase("SGR press left", "^[[<0;5;24M", [mouse(.press, .left, column: 4, row: 23)]),
    DecoderCase("SGR release left", "^[[<0;5;24m", [mouse(.release, .left, column: 4, row: 23)]),
    DecoderCase("SGR press middle", "^[[<1;1;1M", [mouse(.press, .middle, column: 0, row: 0)]),
    DecoderCase("SGR press right", "^[[<2;80;1M", [mouse(.press, .right, column: 79, row: 0)]),
    DecoderCase("SGR drag left", "^[[<32;6;24M", [mouse(.drag, .left, column: 5, row: 23)]),
    DecoderCase("SGR motion without button", "^[[<35;10;3M", [mouse(.move, .none, column: 9, row: 2)]),
    DecoderCase("SGR wheel up", "^[[<64;5;24M", [mouse(.scrollUp, .none, column: 4, row: 23)]),
    DecoderCase("SGR wheel down", "^[[<65;5;24M", [mouse(.scrollDown, .none, column: 4, row: 23)]),
    DecoderCase("SGR shift-press left", "^[[<4;2;3M", [mouse(.press, .left, column: 1, row: 2, .shift)]),
    // Issue 11 §5: \e[<128;40;24M … m selected the Catalog tab as a left click.
    DecoderCase("SGR button 8 press is no left press", "^[[<128;40;24M", [mouse(.press, .other, column: 39, row: 23)]),
    DecoderCase("SGR button 11 release", "^[[<131;40;24m", [mouse(.release, .other, column: 39, row: 23)]),
    DecoderCase("SGR alt-press left", "^[[<8;2;3M", [mouse(.press, .left, column: 1, row: 2, .alt)]),
    DecoderCase("SGR ctrl-press left", "^[[<16;2;3M", [mouse(.press, .left, column: 1, row: 2, .control)]),
    DecoderCase("SGR large coordinates", "^[[<0;300;120M", [mouse(.press, .left, column: 299, row: 119)]),
    DecoderCase("SGR with a zero coordinate is unknown", "^[[<0;0;5M", [.unknown(bytes("^[[<0;0;5M"))]),
    DecoderCase("SGR with two numbers is unknown", "^[[<0;5M", [.unknown(bytes("^[[<0;5M"))]),
    DecoderCase("SGR with four numbers is unknown", "^[[<0;5;6;7M", [.unknown(bytes("^[[<0;5;6;7M"))]),
    DecoderCase("SGR with a 10-digit coordinate is unknown", "^[[<0;1234567890;5Mx", [.unknown(bytes("^[[<0;1234567890;5M")), char("x")]),
    DecoderCase("SGR with a non-digit parameter is unknown", "^[[<0;5:1;6M", [.unknown(bytes("^[[<0;5:1;6M"))]),
    DecoderCase("X10 press left at 5,24", [esc, 0x5B, 0x4D, 32, 37, 56], [mouse(.press, .left, column: 4, row: 23)]),
    DecoderCase("X10 release (button 3) at 5,24", [esc, 0x5B, 0x4D, 35, 37, 56], [mouse(.release, .none, column: 4, row: 23)]),
    DecoderCase("X10 drag left", [esc, 0x5B, 0x4D, 64, 40, 35], [mouse(.drag, .left, column: 7, row: 2)]),
    DecoderCase("X10 wheel down", [esc, 0x5B, 0x4D, 97, 33, 33], [mouse(.scrollDown, .none, column: 0, row: 0)]),
    DecoderCase(
        "X10 at column 223, the last a byte can carry", [esc, 0x5B, 0x4D, 32, 255, 33], [mouse(.press, .left, column: 222, row: 0)]),
    DecoderCase(
        "X10 past column 223 (xterm sends 0) is unknown, and the next key is a key", [esc, 0x5B, 0x4D, 32, 0, 33, 0x71],
        [.unknown([esc, 0x5B, 0x4D, 32, 0, 33]), char("q")]),
    DecoderCase(
        "X10 with raw bytes that look like ESC and [ takes them as coordinates", [esc, 0x5B, 0x4D, 32, esc, 0x5B, 0x6A],
        [.unknown([esc, 0x5B, 0x4D, 32, esc, 0x5B]), char("j")]),
    DecoderCase("X10 cut short, flushed, is unknown", [esc, 0x5B, 0x4D, 32, 37], [.unknown([esc, 0x5B, 0x4D, 32, 37])]),
]

private let pasteCases: [DecoderCase] = [
    DecoderCase("bracketed paste of plain text", "^[[200~hello^[[201~", [.paste("hello")]),
    DecoderCase("q and newlines inside a paste stay text", "^[[200~q\r\nline two\nq^[[201~", [.paste("q\r\nline two\nq")]),
    DecoderCase("escape sequences inside a paste stay text", "^[[200~a^[[Ab^[x^[[201~", [.paste("a\u{1B}[Ab\u{1B}x")]),
    DecoderCase("UTF-8 inside a paste", "^[[200~héllo 中^[[201~", [.paste("héllo 中")]),
    DecoderCase("empty paste", "^[[200~^[[201~", [.paste("")]),
    DecoderCase("keys around a paste", "a^[[200~b^[[201~c", [char("a"), .paste("b"), char("c")]),
    DecoderCase(
        "NUL and controls inside a paste stay text", [esc] + bytes("[200~a") + [0, 3, 0x1A] + bytes("b^[[201~"),
        [.paste("a\0\u{03}\u{1A}b")]),
]

private let malformedCases: [DecoderCase] = [
    DecoderCase("CSI broken by a newline, newline still delivered", "^[[12\na", [.unknown(bytes("^[[12")), key(.enter), char("a")]),
    DecoderCase(
        "CSI broken by a control byte", [esc, 0x5B, 0x31, 0x03, 0x78], [.unknown([esc, 0x5B, 0x31]), key(.control("c")), char("x")]),
    DecoderCase("CSI broken by a UTF-8 character", "^[[1é", [.unknown(bytes("^[[1")), char("é")]),
    DecoderCase("CSI broken by esc, next sequence intact", "^[[1;^[[B", [.unknown(bytes("^[[1;")), key(.down)]),
    DecoderCase("unfinished CSI at end, flushed", "^[[1;", [.unknown(bytes("^[[1;"))]),
    // Issue 11 §3: once ESC [ or ESC O has arrived it is a sequence, never a key.
    DecoderCase("esc [ at end, flushed, is dropped", "^[[", [.unknown(bytes("^[["))]),
    DecoderCase("esc O at end, flushed, is dropped", "^[O", [.unknown(bytes("^[O"))]),
    DecoderCase("unknown SS3", "^[Oz", [.unknown(bytes("^[Oz"))]),
    // Bug: ESC O followed by a control byte swallowed that byte in an unknown SS3.
    DecoderCase("ESC O then Enter: the broken SS3 dropped, Enter kept", "^[O\r", [.unknown(bytes("^[O")), key(.enter)]),
    DecoderCase("ESC O then a sequence: the broken SS3 dropped, the sequence kept", "^[O^[[B", [.unknown(bytes("^[O")), key(.down)]),
    DecoderCase("CSI key with a 10-digit parameter is unknown", "^[[1;1234567890Aj", [.unknown(bytes("^[[1;1234567890A")), char("j")]),
    DecoderCase(
        "CSI key with 30 parameters is unknown", "^[[" + String(repeating: "1;", count: 29) + "1Aj",
        [
            .unknown(bytes("^[[" + String(repeating: "1;", count: 29) + "1A")), char("j"),
        ]),
    DecoderCase("invalid UTF-8 then a key", [0xFF, 0xC3, 0x71], [char("\u{FFFD}"), char("\u{FFFD}"), char("q")]),
    DecoderCase("NUL bytes between keys", [0, 0x6A, 0, 0], [key(.control(" ")), char("j"), key(.control(" ")), key(.control(" "))]),
]

private let allCases = printableCases + utf8Cases + controlCases + csiKeyCases + mouseCases + pasteCases + malformedCases

// MARK: - Tests

@Suite("InputDecoder")
struct InputDecoderTests {
    @Test("complete sequences need no flush")
    func completeWithoutFlush() {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("^[[1;2A")) == [key(.up, .shift)])
        #expect(decoder.hasPendingBytes == false)
        #expect(decoder.feed(bytes("^[[<0;5;24M")) == [mouse(.press, .left, column: 4, row: 23)])
        #expect(decoder.feed([0x03]) == [key(.control("c"))])
        #expect(decoder.flush() == [])
    }

    @Test("a lone esc is held until flush(), then it is Escape")
    func loneEscape() {
        var decoder = InputDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.hasPendingBytes)
        #expect(decoder.flush() == [key(.escape)])
        #expect(decoder.hasPendingBytes == false)
        #expect(decoder.flush() == [])
    }

    @Test("esc followed later by [B is Down, not Escape")
    func escapeThenArrowIsDown() {
        var decoder = InputDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.hasPendingBytes)
        #expect(decoder.feed(bytes("[B")) == [key(.down)])
        #expect(decoder.hasPendingBytes == false)
        #expect(decoder.flush() == [])
    }

    @Test("a partial UTF-8 character is held, not delivered early")
    func partialUTF8Held() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0xE4]) == [])
        #expect(decoder.feed([0xB8]) == [])
        #expect(decoder.hasPendingBytes)
        #expect(decoder.feed([0xAD]) == [char("中")])
        #expect(decoder.hasPendingBytes == false)
    }

    @Test("a paste is delivered when its end marker arrives, split anywhere")
    func pasteWaitsForEndMarker() {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("^[[200~q\n")) == [])
        #expect(decoder.pendingTimeoutMilliseconds == InputDecoder.pasteTimeoutMilliseconds)
        #expect(decoder.feed(bytes("more")) == [])
        #expect(decoder.feed(bytes("^[[20")) == [])
        #expect(decoder.feed(bytes("1~x")) == [.paste("q\nmore"), char("x")])
        #expect(decoder.pendingTimeoutMilliseconds == nil)
    }

    // Bug: a stray paste-start with no end marker swallowed every later key, Ctrl-C included.
    @Test("a paste whose end marker never comes is ended by flush(), and later keys are keys again")
    func pasteWithoutEndMarker() {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes("^[[200~q\nmo")) == [])
        #expect(decoder.flush() == [.paste("q\nmo")])
        #expect(decoder.pendingTimeoutMilliseconds == nil)
        #expect(decoder.feed([0x03]) == [.key(KeyEvent(.control("c")))])
    }

    // Bug: an over-long CSI was cut at 64 bytes and its remaining digits arrived as key presses (`1` switched tabs).
    @Test("an over-long CSI is dropped as unknown and its tail does not become keys")
    func overLongSequence() {
        let digits = String(repeating: "1", count: 80)
        let events = decodeWhole(bytes("^[[" + digits + "Ax"))
        #expect(events.last == char("x"))
        #expect(events.contains { if case .unknown = $0 { true } else { false } })
        // The parameter bytes of the dropped sequence must not reach the app as `1` key presses
        // (which would switch tabs).
        #expect(!events.contains(char("1")), "tail of the over-long sequence was delivered as keys: \(events.count) events")
    }

    // Bug: after an over-long sequence was cut off and the input went quiet, the next digits typed were dropped as its tail.
    @Test("after an over-long sequence and a quiet spell, digits are keys again")
    func overLongThenQuiet() {
        var decoder = InputDecoder()
        let events = decoder.feed(bytes("^[[" + String(repeating: "1", count: 80)))
        #expect(events.count == 1)
        #expect(decoder.flush() == [])
        #expect(decoder.feed(bytes("1")) == [char("1")])
    }

    @Test("a 1 MB paste with q, digits and newlines arrives whole, as one paste, and keys after it are keys")
    func megabytePaste() {
        let line = "q1234 ja\r\n"
        let text = String(repeating: line, count: 1_000_000 / line.utf8.count)
        let input = bytes("^[[200~") + Array(text.utf8) + bytes("^[[201~j")
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for start in stride(from: 0, to: input.count, by: 4096) {
            events += decoder.feed(input[start..<min(start + 4096, input.count)])
            #expect(decoder.bufferedByteCount <= InputDecoder.maximumPasteBytes)
        }
        #expect(events == [.paste(text), char("j")])
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("a paste longer than 1 MiB, with or without its end marker, keeps its first 1 MiB; the decoder's state stays bounded")
    func oversizedPaste() {
        let text = Array(String(repeating: "x", count: 3 * InputDecoder.maximumPasteBytes).utf8)
        for withEnd in [true, false] {
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            events += decoder.feed(bytes("^[[200~"))
            for start in stride(from: 0, to: text.count, by: 65536) {
                events += decoder.feed(text[start..<min(start + 65536, text.count)])
                #expect(decoder.bufferedByteCount <= InputDecoder.maximumPasteBytes)
            }
            events += withEnd ? decoder.feed(bytes("^[[201~")) : decoder.flush()
            events += decoder.feed(bytes("q"))
            #expect(events == [.paste(String(repeating: "x", count: InputDecoder.maximumPasteBytes)), char("q")])
            #expect(decoder.discardedByteCount == 2 * InputDecoder.maximumPasteBytes)
        }
    }

    @Test("a lone Esc is decided within 50 ms: the caller is told to wait at most that long")
    func escapeTimeout() {
        var decoder = InputDecoder()
        _ = decoder.feed([esc])
        let timeout = decoder.pendingTimeoutMilliseconds
        #expect(timeout.map { $0 > 0 && $0 <= 50 } == true, "\(String(describing: timeout)) ms")
    }

    // Bug: overlong, surrogate and out-of-range UTF-8 became one U+FFFD instead of one per maximal subpart.
    @Test(
        "invalid UTF-8 gives U+FFFD per maximal subpart, like Swift's own decoder",
        arguments: [
            [0xE0, 0x80, 0x80] as [UInt8],  // overlong encoding of U+0000
            [0xED, 0xA0, 0x80],  // UTF-16 surrogate U+D800
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF0, 0x80, 0x80, 0x80],  // overlong four-byte
            [0xC3, 0xC3, 0xA9],
            [0xFE, 0xFF],
        ]
    )
    func invalidUTF8MatchesStandardLibrary(_ input: [UInt8]) {
        let expected = String(decoding: input, as: UTF8.self).map { char($0) }
        #expect(decodeWhole(input) == expected)
    }

    // MARK: Split invariance (as Textual's tests do): any chunking gives the same events.

    /// One table for every kind of sequence: printable keys, UTF-8 and invalid bytes, control and
    /// Alt keys, CSI and SS3 keys, SGR mouse reports, bracketed paste, malformed sequences.
    @Test("each sequence decodes to its events, fed whole or split at any position", arguments: allCases)
    func splitAtEveryPosition(_ c: DecoderCase) {
        let whole = decodeWhole(c.input)
        #expect(whole == c.expected)
        let n = c.input.count
        // Chunks of every size 1…n.
        for size in 1...max(1, n) {
            let pieces = stride(from: 0, to: n, by: size).map { c.input[$0..<min($0 + size, n)] }
            #expect(decode(pieces: pieces) == whole, "chunk size \(size)")
        }
        // Two pieces, split at every position, and three pieces, split at every pair of positions.
        for i in 0...n {
            #expect(decode(pieces: [c.input[0..<i], c.input[i..<n]]) == whole, "split at \(i)")
            for j in i...n {
                let pieces = [c.input[0..<i], c.input[i..<j], c.input[j..<n]]
                #expect(decode(pieces: pieces) == whole, "split at \(i) and \(j)")
            }
        }
    }

    @Test("a long mixed stream fed in chunks of every size gives the same events")
    func mixedStreamInChunks() {
        let stream = bytes("ab^[[1;2A^[OB中^[[<0;5;24M^[[<0;5;24m^[[200~q\r\n^[[B^[[201~^[[5~^[[Z\r^[[I") + [0x03, 0xC3, 0xA9, 0x7F]
        let expected: [InputEvent] = [
            char("a"), char("b"), key(.up, .shift), key(.down), char("中"),
            mouse(.press, .left, column: 4, row: 23), mouse(.release, .left, column: 4, row: 23),
            .paste("q\r\n\u{1B}[B"), key(.pageUp), key(.tab, .shift), key(.enter), .focus(true),
            key(.control("c")), char("é"), key(.backspace),
        ]
        #expect(decodeWhole(stream) == expected)
        for size in 1...stream.count {
            let pieces = stride(from: 0, to: stream.count, by: size).map { stream[$0..<min($0 + size, stream.count)] }
            #expect(decode(pieces: pieces) == expected, "chunk size \(size)")
        }
    }

    @Test("events come back in order and nothing is held after a complete stream")
    func nothingHeldAfterCompleteInput() {
        var decoder = InputDecoder()
        let events = decoder.feed(bytes("x^[[A^[[<64;1;1My"))
        #expect(events == [char("x"), key(.up), mouse(.scrollUp, .none, column: 0, row: 0), char("y")])
        #expect(decoder.hasPendingBytes == false)
    }
}
