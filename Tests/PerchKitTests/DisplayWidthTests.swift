import Testing

@testable import PerchKit

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test(
        "column widths of characters",
        arguments: [
            ("a", 1), (" ", 1), ("é", 1), ("e\u{301}", 1), ("…", 1), ("●", 1), ("━", 1), ("─", 1),
            ("中", 2), ("文", 2), ("한", 2), ("あ", 2), ("Ａ", 2), ("ｶ", 1),
            // A cluster takes the sum of the widths of its drawn form, as ncursesw (wcwidth) counts it.
            ("😀", 2), ("👍🏽", 2), ("❤️", 1), ("👨‍👩‍👧", 6), ("🇯🇵", 2), ("1️⃣", 1), ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2),
            ("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}", 1), ("\r\n", 1), ("\u{1B}", 1),
            ("\u{200B}", 0), ("\u{301}", 0), ("\u{FEFF}", 0), ("\u{200D}", 0), ("\u{FE0F}", 0),
        ] as [(Character, Int)])
    func characterWidths(_ character: Character, _ width: Int) {
        #expect(DisplayWidth.columns(of: character) == width, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(
        "column widths of strings",
        arguments: [
            ("", 0), ("hello", 5), ("中文", 4), ("a中b", 4), ("Ada 😀", 6), ("e\u{301}e\u{301}", 2),
        ] as [(String, Int)])
    func stringWidths(_ text: String, _ width: Int) {
        #expect(DisplayWidth.columns(of: text) == width)
    }

    @Test(
        "controls are sanitized to U+FFFD",
        arguments: [
            "\u{00}", "\u{07}", "\u{08}", "\u{09}", "\u{0A}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\r\n",
        ] as [Character])
    func sanitizedControls(_ c: Character) {
        #expect(DisplayWidth.drawable(c) == "\u{FFFD}")
    }

    @Test("printable characters are kept", arguments: ["a", " ", "~", "\u{A0}", "é", "中", "😀", "e\u{301}"] as [Character])
    func sanitizedPrintable(_ c: Character) {
        #expect(DisplayWidth.drawable(c) == String(c))
    }

    // Bug: emoji sequences were drawn whole, so a terminal that joins them (one two-column glyph)
    // and ncursesw (the sum of the parts) disagreed and the rest of the row was misaligned.
    @Test(
        "emoji sequences are drawn in a form every terminal gives the same width",
        arguments: [
            ("👨‍👩‍👧", "👨👩👧"),  // ZWJ sequence: its emoji side by side
            ("👍🏽", "👍"),  // skin-tone modifier left out
            ("❤️", "❤"),  // variation selector 16 left out: text presentation
            ("1️⃣", "1\u{20E3}"),  // keycap: digit and the combining keycap
            ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🏴"),  // tag sequence: the base flag
            ("🇯🇵", "🇯🇵"),  // a flag (regional-indicator pair) is kept: 2 columns everywhere
            ("a🏽", "a"),  // a modifier after a letter
            ("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}", "e\u{301}\u{302}\u{303}\u{304}"),  // at most 4 marks
            ("क\u{200D}", "क\u{200D}"),  // ZWJ in a script other than emoji is kept
            ("\u{202E}", "\u{FFFD}"),  // a bidirectional override
        ] as [(Character, String)])
    func drawableForms(_ character: Character, _ drawn: String) {
        #expect(DisplayWidth.drawable(character) == drawn)
        let drawnWidth = drawn.reduce(0) { $0 + DisplayWidth.columns(of: $1) }
        #expect(DisplayWidth.columns(of: character) == drawnWidth, "the width is that of the drawn form")
    }

    /// Text of every kind, for the properties below.
    static let hostileTexts = [
        "Side Project", "中文テキスト", "👨‍👩‍👧 family 👍🏽 ok", "🇯🇵🇫🇷🇩🇪", "e\u{301}e\u{301}e\u{301}", "❤️1️⃣❤️", "a\u{200B}b\u{FEFF}c",
        "x\u{1B}]0;title\u{07}\u{1B}[2J", "\u{9B}31m red", "ｶﾀｶﾅ and ＡＢＣ", "\u{301}leading mark", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 tag",
    ]

    @Test("truncation never splits a grapheme cluster and never exceeds the width", arguments: 0...24)
    func truncationKeepsClusters(width: Int) {
        for text in Self.hostileTexts {
            let result = DisplayWidth.truncated(text, to: width)
            #expect(DisplayWidth.columns(of: result) <= width, "\(text.debugDescription) at \(width)")
            let kept = result.hasSuffix("…") && result != text ? Array(result.dropLast()) : Array(result)
            #expect(Array(text).starts(with: kept), "\(result.debugDescription) is whole clusters of \(text.debugDescription)")
        }
    }

    @Test(
        "truncation",
        arguments: [
            ("Hello, world", 5, "Hell…"),
            ("Hello", 5, "Hello"),
            ("Hello", 6, "Hello"),
            ("Hello", 1, "…"),
            ("Hello", 0, ""),
            ("Hello", -3, ""),
            ("", 3, ""),
            ("中文字", 4, "中…"),
            ("中文字", 5, "中文…"),
            ("中文字", 6, "中文字"),
            ("a中", 2, "a…"),
        ])
    func truncation(_ c: (String, Int, String)) {
        let result = DisplayWidth.truncated(c.0, to: c.1)
        #expect(result == c.2)
        #expect(DisplayWidth.columns(of: result) <= max(0, c.1))
    }

    @Test("truncated text never exceeds the width and keeps a prefix", arguments: [0, 1, 2, 3, 5, 8, 13, 40])
    func truncationProperty(width: Int) {
        for text in ["Side Project", "中文テキスト", "mixed 中 text 😀 here", "e\u{301}e\u{301}e\u{301}e\u{301}"] {
            let result = DisplayWidth.truncated(text, to: width)
            #expect(DisplayWidth.columns(of: result) <= width)
            if result.hasSuffix("…") {
                #expect(text.hasPrefix(String(result.dropLast())))
            } else {
                #expect(result == text || result.isEmpty)
            }
        }
    }

    @Test(
        "a middle cut keeps the start and the end, with one … between, within the width",
        arguments: [
            ("Platform Engineering — Europe North", 20, "Platform …rope North"),
            ("Platform Engineering — Europe North", 35, "Platform Engineering — Europe North"),
            ("abcdef", 1, "…"),
            ("abcdef", 0, ""),
            ("中文テキスト中文", 7, "中…文"),
        ])
    func middleCut(_ c: (String, Int, String)) {
        let result = DisplayWidth.truncatedMiddle(c.0, to: c.1)
        #expect(result == c.2)
        #expect(DisplayWidth.columns(of: result) <= max(0, c.1))
    }

    /// Every scalar ``DisplayWidth/isOneColumnCluster(_:)`` admits, from U+0000 to U+2FFFF.
    static let oneColumnClusterScalars: [Unicode.Scalar] = (0..<0x30000).compactMap { Unicode.Scalar(UInt32($0)) }.filter(
        DisplayWidth.isOneColumnCluster)

    @Test("a scalar drawn one to a cell is a cluster of its own beside any other, one column wide, drawn as it is")
    func oneColumnClusters() {
        let scalars = Self.oneColumnClusterScalars
        #expect(scalars.count > 1000)
        for scalar in scalars {
            let character = Character(scalar)
            #expect(DisplayWidth.columns(of: character) == 1, "U+\(String(scalar.value, radix: 16))")
            #expect(DisplayWidth.drawable(character) == String(character), "U+\(String(scalar.value, radix: 16))")
            // No break rule joins it to what comes before or after it, nor to itself.
            for other in ["a", "\u{E9}", "\u{2500}", String(scalar)] {
                #expect(
                    (other + String(scalar) + other).count == 3, "U+\(String(scalar.value, radix: 16)) joined \(other.debugDescription)")
            }
        }
    }
}
