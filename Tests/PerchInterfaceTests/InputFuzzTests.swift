import PerchTestSupport
import Testing

@testable import PerchDomain
@testable import PerchInterface
@testable import PerchKit

/// Generates the fuzz input: random bytes, well-formed sequences of every kind Perch decodes, and
/// those sequences mutated (bytes flipped, inserted, dropped or repeated, cut short, numbers made
/// huge, fields added), from a fixed seed so every run is the same.
struct FuzzInputGenerator {
    var random: SplitMix64

    static let corpus: [[UInt8]] =
        [
            "a", "q", "1", "j", "\r", "\u{03}", "\u{1A}", "\u{00}", "\u{7F}", "é", "中", "😀", "👨‍👩‍👧",
            "\u{1B}", "\u{1B}\u{1B}", "\u{1B}x", "\u{1B}[A", "\u{1B}[1;5B", "\u{1B}OA", "\u{1B}[5~", "\u{1B}[24~", "\u{1B}[Z",
            "\u{1B}[I", "\u{1B}[O", "\u{1B}[<0;9;24M", "\u{1B}[<0;9;24m", "\u{1B}[<32;9;5M", "\u{1B}[<64;3;3M", "\u{1B}[<65;3;3M",
            "\u{1B}[<2;300;120M", "\u{1B}[200~", "\u{1B}[201~", "\u{1B}[200~q\r\n2\u{1B}[201~", "\u{1B}[?1;2c",
        ].map { Array($0.utf8) } + [
            [0x1B, 0x5B, 0x4D, 32, 41, 56], [0x1B, 0x5B, 0x4D, 35, 41, 56], [0x1B, 0x5B, 0x4D, 32, 255, 33], [0x1B, 0x5B, 0x4D, 32, 0, 0],
            [0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0xFF], [0x80], [0xED, 0xA0, 0x80],
        ]

    /// One input: 1 to about 70 bytes.
    mutating func next() -> [UInt8] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            return (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 2:
            // Bytes a sequence is made of, in any order.
            let alphabet = Array("\u{1B}[;<0123456789MmO~ABu".utf8)
            return (0..<Int.random(in: 1...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        case 3, 4, 5:
            return Self.corpus.randomElement(using: &random)!
        default:
            return mutated(Self.corpus.randomElement(using: &random)!)
        }
    }

    private mutating func mutated(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        let position = Int.random(in: 0...bytes.count, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0 where !bytes.isEmpty: bytes[min(position, bytes.count - 1)] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
        case 2 where !bytes.isEmpty: bytes.remove(at: min(position, bytes.count - 1))
        case 3: bytes = Array(bytes.prefix(position))
        case 4: bytes.insert(contentsOf: Array(String(repeating: "9", count: Int.random(in: 5...40, using: &random)).utf8), at: position)
        case 5: bytes.insert(contentsOf: Array(String(repeating: ";7", count: Int.random(in: 1...40, using: &random)).utf8), at: position)
        default: bytes += bytes
        }
        return bytes.isEmpty ? [0x1B] : bytes
    }
}

@Suite("Input fuzzing")
struct InputFuzzTests {
    static let inputCount = 100_000

    /// Runs the whole stream through an ``InputPipelineCheck``: each chunk arrives `gaps[i]` ms
    /// after the one before, and the input goes quiet after the chunks whose index is in `quiet`.
    func run(_ chunks: [[UInt8]], gaps: [Int64], quiet: Set<Int>, resizes: [Int: Size]) throws -> InputPipelineCheck {
        var check = InputPipelineCheck(recordsEvents: true, renderEvery: 997)
        var time: Int64 = 1_000
        for (index, chunk) in chunks.enumerated() {
            time += gaps[index]
            if let size = resizes[index] { check.resize(to: size) }
            try check.feed(chunk, at: time, thenQuiet: quiet.contains(index))
        }
        try check.finish(at: time + 1_000)
        return check
    }

    @Test("100,000 random and mutated inputs: no crash, every byte accounted for, bounded state, same events however split")
    func fuzz() throws {
        var generator = FuzzInputGenerator(random: SplitMix64(seed: 0x5EED_0005))
        var random = SplitMix64(seed: 42)
        let inputs = (0..<Self.inputCount).map { _ in generator.next() }
        // Runs of inputs that arrive together in one read, with a pause after some of them.
        var chunks: [[UInt8]] = []
        var gaps: [Int64] = []
        var quiet = Set<Int>()
        var resizes: [Int: Size] = [:]
        var index = 0
        while index < inputs.count {
            let count = Int.random(in: 1...8, using: &random)
            chunks.append(inputs[index..<min(index + count, inputs.count)].flatMap { $0 })
            gaps.append([0, 1, 5, 30, 120, 600].randomElement(using: &random)!)
            if Int.random(in: 0..<20, using: &random) == 0 { quiet.insert(chunks.count - 1) }
            if Int.random(in: 0..<400, using: &random) == 0 {
                resizes[chunks.count - 1] = Size(
                    width: Int.random(in: 1...300, using: &random), height: Int.random(in: 1...100, using: &random))
            }
            index += count
        }
        let first = try run(chunks, gaps: gaps, quiet: quiet, resizes: resizes)
        #expect(first.decoder.discardedByteCount < first.decoder.consumedByteCount / 10, "the stream was mostly decoded, not dropped")
        // The stream reached every kind of event.
        var kinds = Set<String>()
        for event in first.events {
            switch event {
            case .key(let key): kinds.insert(key.modifiers.contains(.alt) ? "alt key" : "key")
            case .keyRepeat: kinds.insert("key repeat")
            case .keyRelease: kinds.insert("key release")
            case .mouse(let mouse): kinds.insert("mouse \(mouse.kind)")
            case .paste: kinds.insert("paste")
            case .focus: kinds.insert("focus")
            case .reply: kinds.insert("reply")
            case .unknown: kinds.insert("unknown")
            }
        }
        #expect(
            kinds.isSuperset(of: [
                "key", "alt key", "mouse press", "mouse release", "mouse drag", "mouse scrollUp", "paste", "focus", "unknown",
            ]),
            "\(kinds.sorted())")

        // The same bytes split differently (every chunk cut in two at a random point, the same
        // quiet points and times) must decode to the same events.
        var split: [[UInt8]] = []
        var splitGaps: [Int64] = []
        var splitQuiet = Set<Int>()
        var splitResizes: [Int: Size] = [:]
        for (i, chunk) in chunks.enumerated() {
            let cut = Int.random(in: 0...chunk.count, using: &random)
            if let size = resizes[i] { splitResizes[split.count] = size }
            split.append(Array(chunk[..<cut]))
            splitGaps.append(gaps[i])
            split.append(Array(chunk[cut...]))
            splitGaps.append(0)
            if quiet.contains(i) { splitQuiet.insert(split.count - 1) }
        }
        let second = try run(split, gaps: splitGaps, quiet: splitQuiet, resizes: splitResizes)
        #expect(first.events == second.events)
    }
}
