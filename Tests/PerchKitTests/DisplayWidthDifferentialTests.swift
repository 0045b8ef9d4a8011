import Glibc
import Testing

@testable import PerchKit

/// glibc's wcwidth(3), which the Glibc module leaves out without _XOPEN_SOURCE.
@_silgen_name("wcwidth") private func systemWidth(_ character: Int32) -> Int32

/// ``DisplayWidth`` against glibc's wcwidth(3), which ncursesw counts with at run time: for every
/// code point the C.UTF-8 locale knows, the two must agree, or the screen Perch computes and the
/// one ncurses draws drift apart.
@Suite("DisplayWidth against wcwidth", .serialized)
struct DisplayWidthDifferentialTests {
    // Bug (found by this test): U+1171E AHOM CONSONANT SIGN MEDIAL RA was 1 column here and 0 in ncursesw.
    @Test("every code point the locale gives a width has the same width in DisplayWidth")
    func everyCodePoint() throws {
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil, "the C.UTF-8 locale is missing")
        var compared = 0
        var differences: [String] = []
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !DisplayWidth.isUnsafe(scalar) else { continue }
            let expected = systemWidth(Int32(bitPattern: value))
            guard expected >= 0 else { continue }  // not printable in this locale: drawn as it comes, or not at all
            compared += 1
            let actual = DisplayWidth.columns(of: scalar)
            if actual != Int(expected) { differences.append("U+\(String(value, radix: 16, uppercase: true)): \(actual) vs \(expected)") }
        }
        #expect(compared > 250_000, "the locale knows \(compared) code points")
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(40).joined(separator: ", "))")
    }
}
