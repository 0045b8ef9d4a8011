import Testing

@testable import PerchCore

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test(
        "column widths of characters",
        arguments: [
            ("a", 1), (" ", 1), ("é", 1), ("e\u{301}", 1), ("…", 1), ("●", 1), ("━", 1), ("─", 1),
            ("中", 2), ("文", 2), ("한", 2), ("あ", 2), ("Ａ", 2), ("ｶ", 1),
            // Clusters take the sum of their scalars' widths, as ncursesw (wcwidth) and tmux count them.
            ("😀", 2), ("👍🏽", 4), ("❤️", 1), ("👨‍👩‍👧", 6), ("🇯🇵", 2), ("1️⃣", 1),
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
        #expect(DisplayWidth.sanitized(c) == "\u{FFFD}")
    }

    @Test("printable characters are kept", arguments: ["a", " ", "~", "\u{A0}", "é", "中", "😀", "e\u{301}"] as [Character])
    func sanitizedPrintable(_ c: Character) {
        #expect(DisplayWidth.sanitized(c) == c)
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
}
