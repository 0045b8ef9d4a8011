import PerchInterfaceTesting
import PerchTestSupport
import Testing

@testable import PerchDomain
@testable import PerchInterface
@testable import PerchKit

/// Issue 11 §3: sequences that arrive in pieces, over ssh or under load. The decoder is driven as
/// the event loop drives it: bytes at a time, and ``InputDecoder/flush()`` once the input has
/// been quiet for ``InputDecoder/pendingTimeoutMilliseconds``.
@Suite("Sequences that arrive in pieces")
struct SplitSequenceTests {
    /// Decodes `parts`, part `i` arriving `gaps[i]` ms after the one before, flushing whenever a
    /// gap reaches the decoder's timeout and at the end; returns the events and the flushed ones.
    static func decode(_ parts: [[UInt8]], gaps: [Int64]) -> (events: [InputEvent], flushed: [[InputEvent]]) {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        var flushed: [[InputEvent]] = []
        for (index, part) in parts.enumerated() {
            if index > 0, let timeout = decoder.pendingTimeoutMilliseconds, gaps[index] >= timeout {
                let out = decoder.flush()
                flushed.append(out)
                events += out
            }
            events += decoder.feed(part)
        }
        let out = decoder.flush()
        flushed.append(out)
        return (events + out, flushed)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// One of every kind of sequence Perch reads.
    static let sequences: [(String, String)] = [
        ("CSI key", "\u{1B}[1;5A"), ("CSI ~ key", "\u{1B}[5~"), ("SS3 key", "\u{1B}OP"), ("SGR mouse", "\u{1B}[<0;5;24M"),
        ("X10 mouse", "\u{1B}[M !!"), ("paste start and end", "\u{1B}[200~hi\u{1B}[201~"), ("focus", "\u{1B}[I"),
        ("device attributes reply", "\u{1B}[?62;22c"), ("kitty protocol reply", "\u{1B}[?31u"), ("kitty key release", "\u{1B}[49;1:3u"),
        ("modifyOtherKeys", "\u{1B}[27;5;99~"),
    ]

    @Test("At 80×24 on Stats, \\e[<0;5 then 30 ms later ;24M is one mouse press: the 4 does not select Settings")
    func issueExample() {
        let (events, _) = Self.decode([Self.bytes("\u{1B}[<0;5"), Self.bytes(";24M")], gaps: [0, 30])
        #expect(events == [.mouse(MouseEvent(kind: .press, button: .left, position: Position(column: 4, row: 23)))])
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("3")))
        var recognizer = GestureRecognizer(configuration: .perch)
        for event in events {
            for appEvent in recognizer.handle(event, at: 30, hitTest: state.hitTest) { _ = state.update(AppEvent(appEvent)) }
        }
        #expect(state.selectedTab == .stats)
    }

    @Test("A lone ESC is still the Escape key after 25 ms; ESC [ and ESC O wait 500 ms")
    func timeouts() {
        var decoder = InputDecoder()
        _ = decoder.feed([0x1B])
        #expect(decoder.pendingTimeoutMilliseconds == InputDecoder.escapeTimeoutMilliseconds)
        #expect(decoder.flush() == [.key(KeyEvent(.escape))])
        for prefix in ["\u{1B}[", "\u{1B}O", "\u{1B}[<0;5", "\u{1B}[M"] {
            _ = decoder.feed(Self.bytes(prefix))
            #expect(decoder.pendingTimeoutMilliseconds == InputDecoder.sequenceTimeoutMilliseconds, "\(prefix.debugDescription)")
            #expect(InputDecoder.sequenceTimeoutMilliseconds >= 500)
            _ = decoder.flush()
        }
    }

    @Test("Every kind of sequence split anywhere with a gap under 500 ms decodes as if whole", arguments: sequences)
    func splitUnderTimeout(name: String, text: String) {
        let whole = Self.decode([Self.bytes(text)], gaps: [0]).events
        let all = Self.bytes(text)
        for cut in 2..<all.count {
            for gap: Int64 in [26, 100, 499] {
                let split = Self.decode([Array(all[..<cut]), Array(all[cut...])], gaps: [0, gap])
                #expect(split.events == whole, "\(name) cut at \(cut), \(gap) ms")
            }
        }
    }

    @Test("A fragment whose final byte never comes is dropped whole: no byte of it becomes a key", arguments: sequences)
    func fragmentDropped(name: String, text: String) {
        let all = Self.bytes(text)
        for cut in 2..<all.count {
            let (events, _) = Self.decode([Array(all[..<cut])], gaps: [0])
            let keys = events.filter { if case .unknown = $0 { false } else { true } }
            // A paste whose end marker never came is still the paste.
            #expect(keys.allSatisfy { if case .paste = $0 { true } else { false } }, "\(name) cut at \(cut): \(events)")
        }
    }

    @Test("Fuzz: inputs split at random points with random gaps across the timeout")
    func fuzzSplits() {
        var random = SplitMix64(seed: 0x5EED_0011)
        var generator = FuzzInputGenerator(random: SplitMix64(seed: 0xF00D_0011))
        var acrossTimeout = 0
        for _ in 0..<20_000 {
            let input = generator.next() + generator.next()
            let whole = Self.decode([input], gaps: [0]).events
            let cut = Int.random(in: 0...input.count, using: &random)
            let gap = Int64.random(in: 0...1500, using: &random)
            var probe = InputDecoder()
            _ = probe.feed(input[..<cut])
            let timeout = probe.pendingTimeoutMilliseconds
            let inSequence = probe.isSequenceInProgress && timeout == InputDecoder.sequenceTimeoutMilliseconds
            let split = Self.decode([Array(input[..<cut]), Array(input[cut...])], gaps: [0, gap])
            if timeout == nil || gap < timeout! {
                #expect(split.events == whole, "\(input) cut at \(cut), \(gap) ms")
            } else if inSequence {
                acrossTimeout += 1
                let dropped = split.flushed[0]
                #expect(dropped.allSatisfy { if case .unknown = $0 { true } else { false } }, "\(input) cut at \(cut): \(dropped)")
            }
        }
        #expect(acrossTimeout > 100, "enough splits inside a sequence went past the timeout: \(acrossTimeout)")
    }
}
