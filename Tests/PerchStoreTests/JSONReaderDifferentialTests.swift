import Foundation
import PerchTestSupport
import Testing

@testable import PerchStore

/// A JSON value as Foundation's `JSONDecoder` decodes it and as read from a ``JSONDocument``.
indirect enum DecodedValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DecodedValue])
    case object([String: DecodedValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DecodedValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DecodedValue].self))
        }
    }

    /// Whether a number in it is ±infinity (beyond `Double`'s range as written).
    var holdsInfinity: Bool {
        switch self {
        case .number(let value): value.isInfinite
        case .array(let values): values.contains(where: \.holdsInfinity)
        case .object(let members): members.values.contains(where: \.holdsInfinity)
        default: false
        }
    }

    init(_ document: JSONDocument, _ value: JSONDocument.Index) {
        switch document.kind(value) {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number: self = .number(document.double(value)!)
        case .string: self = .string(document.string(value)!)
        case .array: self = .array(document.elements(value).map { DecodedValue(document, $0) })
        case .object:
            var members: [String: DecodedValue] = [:]
            for (key, member) in document.members(value) { members[document.string(key)!] = DecodedValue(document, member) }
            self = .object(members)
        }
    }
}

/// Numbers at the edges of `Double` and of the grammar.
private let edgeNumbers = [
    "0", "-0", "-0.0e0", "1", "-1", "1e308", "-1.7976931348623157e308", "1.7976931348623157E+308", "2.2250738585072014e-308",
    "2.2250738585072011e-308", "5e-324", "4.9406564584124654e-324", "9007199254740993", "18446744073709551616",
    "-9223372036854775809", "123456789012345678901234567890", "1E+2", "1e-2", "0.1", "0.30000000000000004", "1.5E-10", "100e-2",
    "0.000000000000000000000000000001",
]

/// Pieces of strings: plain text, every escape, raw UTF-8 of 2, 3 and 4 bytes, surrogate pairs.
private let stringPieces = [
    "a", "Work", " ", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0000"#, #"\u001f"#, #"\u00e9"#, #"\u4E2D"#,
    #"\uD83D\uDE00"#, #"\uDBFF\uDFFF"#, #"\uD800\uDC00"#, "é", "中", "😀", "\u{7F}", "\u{FEFF}", "e\u{301}",
]

private func randomString(_ g: inout SplitMix64) -> String {
    "\"" + (0..<Int.random(in: 0...4, using: &g)).map { _ in stringPieces.randomElement(using: &g)! }.joined() + "\""
}

/// A random valid JSON text (keys from a small set, so some objects repeat one).
private func randomJSON(_ g: inout SplitMix64, depth: Int) -> String {
    let space = ["", " ", "\n", "\t", "\r\n  "].randomElement(using: &g)!
    switch Int.random(in: 0..<(depth > 5 ? 5 : 7), using: &g) {
    case 0: return ["true", "false", "null"].randomElement(using: &g)!
    case 1, 2: return edgeNumbers.randomElement(using: &g)!
    case 3, 4: return randomString(&g)
    case 5:
        return "[" + space
            + (0..<Int.random(in: 0...4, using: &g)).map { _ in randomJSON(&g, depth: depth + 1) }.joined(separator: "," + space)
            + "]"
    default:
        let keys = (0..<Int.random(in: 0...4, using: &g)).map { _ in
            [#""id""#, #""name""#, #""a""#, #""\u0061""#, #""é""#, randomString(&g)].randomElement(using: &g)!
        }
        return "{" + space + keys.map { $0 + space + ":" + randomJSON(&g, depth: depth + 1) }.joined(separator: ",") + "}"
    }
}

/// `text` with one byte deleted, inserted or replaced by a byte that matters to the grammar.
private func mutated(_ text: String, _ g: inout SplitMix64) -> [UInt8] {
    var bytes = Array(text.utf8)
    let interesting: [UInt8] = Array(#"{}[],:"\/0123456789-+.eEtrufalsn u"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
    let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &g)
    switch Int.random(in: 0..<3, using: &g) {
    case 0 where !bytes.isEmpty: bytes.remove(at: at)
    case 1: bytes.insert(interesting.randomElement(using: &g)!, at: at)
    default: if !bytes.isEmpty { bytes[at] = interesting.randomElement(using: &g)! }
    }
    return bytes
}

/// How the two readers may differ, by design: Foundation on Linux takes a trailing comma (RFC
/// 8259 does not; JSON with Comments does), and keeps one of repeated keys (Perch refuses them);
/// Foundation refuses to decode a number beyond `Double`'s range, which Perch reads as infinity
/// or to zero (RFC 8259 §6 lets a reader set the range), and refuses some zeros with an
/// exponent (`0e1`, `-0.0e30`). Foundation reads text that starts with a NUL byte as UTF-16 or
/// UTF-32; RFC 8259 §8.1 asks for UTF-8. Keys that differ only in Unicode normalisation are
/// kept out of the corpus: RFC 8259 compares code units, Swift's `String` canonical equivalence.
private func expectAgreement(_ bytes: [UInt8], file: String = #fileID, line: Int = #line) {
    let foundation = try? JSONDecoder().decode(DecodedValue.self, from: Data(bytes))
    let text = String(decoding: bytes, as: UTF8.self).debugDescription + " \(bytes)"
    do {
        let document = try JSONReader.read(bytes)
        let value = DecodedValue(document, document.root)
        if foundation == nil, outsideFoundation(document) { return }
        #expect(foundation != nil, "Foundation refuses what Perch reads: \(text)")
        if let foundation { #expect(value == foundation, "different values: \(text)") }
    } catch {
        guard let foundation else { return }
        if error.message.hasPrefix("duplicate key") || bytes.prefix(4).contains(0) { return }
        // Refused by RFC 8259 but taken by Foundation: only a trailing comma, which JSON with Comments reads alike.
        do {
            let document = try JSONReader.read(bytes, options: .jsonWithComments)
            #expect(DecodedValue(document, document.root) == foundation, "different values: \(text)")
        } catch {
            Issue.record("Perch refuses what Foundation reads: \(text): \(error)")
        }
    }
}

/// Whether `document` holds a number that Foundation's decoder refuses: beyond `Double`'s range,
/// so small it reads as zero, or a zero with an exponent.
private func outsideFoundation(_ document: JSONDocument) -> Bool {
    func check(_ value: JSONDocument.Index) -> Bool {
        switch document.kind(value) {
        case .number:
            let text = document.numberText(value)!
            let number = document.double(value)!
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            if number.isInfinite { return true }
            return number == 0 && (mantissa.contains { ("1"..."9").contains($0) } || mantissa.count < text.count)
        case .array: return document.elements(value).contains(where: check)
        case .object: return document.members(value).contains { check($0.value) }
        default: return false
        }
    }
    return check(document.root)
}

@Suite("JSONReader against JSONDecoder")
struct JSONReaderDifferentialTests {
    @Test("the same verdict and the same values on a seeded corpus of valid JSON and of one-byte mutations")
    func corpus() {
        var g = SplitMix64(seed: 0x5EED)
        var accepted = 0
        for _ in 0..<3_000 {
            let text = randomJSON(&g, depth: 0)
            expectAgreement(Array(text.utf8))
            if (try? JSONReader.read(Array(text.utf8))) != nil { accepted += 1 }
            for _ in 0..<3 { expectAgreement(mutated(text, &g)) }
        }
        // The corpus is mostly valid JSON (objects with a repeated key are not).
        #expect(accepted > 2_000)
    }

    @Test("every edge number reads as Foundation reads it", arguments: edgeNumbers)
    func numbers(_ text: String) throws {
        let document = try JSONReader.read(Array(text.utf8))
        let foundation = try JSONDecoder().decode(Double.self, from: Data(text.utf8))
        #expect(document.double(document.root) == foundation)
        #expect(document.double(document.root)?.sign == foundation.sign)
    }

    @Test("nesting: 512 levels are read by both, 513 are refused by Perch")
    func deepNesting() throws {
        for depth in [1, 100, 512] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            expectAgreement(Array(text.utf8))
            #expect((try? JSONReader.read(Array(text.utf8))) != nil)
        }
        let text = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
        #expect((try? JSONReader.read(Array(text.utf8))) == nil)
    }

    @Test("keys are compared by code units (RFC 8259 §8.3): é and e + U+0301 are two keys")
    func normalisation() throws {
        let document = try JSONReader.read(Array(#"{"é": 1, "e\u0301": 2}"#.utf8))
        #expect(document.count(document.root) == 2)
        #expect((try? JSONReader.read(Array(#"{"é": 1, "\u00e9": 2}"#.utf8))) == nil)
    }

    @Test("a number beyond Double's range is valid JSON that reads as infinity; Foundation refuses to decode it")
    func outOfRange() throws {
        let document = try JSONReader.read(Array("[1e400, -1e400]".utf8))
        #expect(document.elements(document.root).map { document.double($0) } == [.infinity, -.infinity])
    }
}
