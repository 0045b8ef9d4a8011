import Testing

@testable import PerchKit

/// Help that is never cut, and wrapping that keeps line breaks.
@Suite("Help and wrapping")
struct HelpAndWrapTests {
    static let long = "open the selected account's folder in a new window of the terminal, where the shell starts as that account"

    static func help() -> HelpLayer {
        HelpLayer(title: "Catalog", sections: [.init("Catalog", [.init("Enter", "open"), .init("o", long)])])
    }

    static func drawn(_ help: HelpLayer, width: Int, height: Int = 24) -> [String] {
        var frame = Frame(size: Size(width: width, height: height))
        help.render(into: &frame, in: Rect(x: 0, y: 0, width: width, height: height), Context(size: Size(width: width, height: height)))
        return frame.screen.lines
    }

    /// Issue 48: help was cut at 60 columns, so a long key's text ended in `…`.
    @Test("A help text wider than 60 columns widens the box where the terminal has room, and wraps where it has not; nothing is cut")
    func longHelpIsWhole() {
        let wide = Self.drawn(Self.help(), width: 140).joined(separator: "\n")
        #expect(wide.contains(Self.long), "one line at 140 columns:\n\(wide)")
        #expect(!wide.contains("…"))
        let narrow = Self.drawn(Self.help(), width: 50)
        #expect(!narrow.joined().contains("…"), "\(narrow.joined(separator: "\n"))")
        // Each word of the help, in order, on the rows under the help column.
        let words = narrow.flatMap { line in
            line.split(separator: "│").dropFirst().first.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        let helpWords = Self.long.split(separator: " ").map(String.init)
        #expect(words.suffix(helpWords.count) == helpWords[...], "wrapped whole:\n\(narrow.joined(separator: "\n"))")
        // Help that fits keeps its 60 columns.
        let plain = HelpLayer(title: "T", sections: [.init("T", [.init("q", "quit")])])
        #expect(HelpLayer.layout(lineCount: 1, widest: 10, in: Rect(x: 0, y: 0, width: 120, height: 24)).box.width == 60)
        #expect(Self.drawn(plain, width: 120).contains { $0.contains("q  quit") })
    }

    @Test("Scrolling counts the wrapped lines: the last line of a long help can be scrolled to")
    func scrollCountsWrapped() {
        var help = Self.help()
        let context = Context(size: Size(width: 40, height: 8))
        _ = help.update(.verb(.move(.last)), context)
        let screen = Self.drawn(help, width: 40, height: 8).joined(separator: "\n")
        #expect(screen.contains("account"), "the end of the long text is shown:\n\(screen)")
    }

    /// Issue 48: wrapping ignored line breaks (the text after one was drawn on the same row).
    @Test("wrapped(_:to:rows:) starts a new line at each line break and keeps an empty one between two")
    func wrapKeepsBreaks() {
        #expect(DisplayWidth.wrapped("one two\nthree\n\nfour", to: 20, rows: 10) == ["one two", "three", "", "four"])
        #expect(DisplayWidth.wrapped("alpha beta gamma\r\ndelta", to: 10, rows: 10) == ["alpha beta", "gamma", "delta"])
        #expect(DisplayWidth.wrapped("ends in a break\n", to: 40, rows: 10) == ["ends in a break"])
        #expect(DisplayWidth.wrapped("a\nb\nc", to: 10, rows: 2) == ["a", "b…"])
        #expect(DisplayWidth.wrapped("", to: 10, rows: 2) == [])
        #expect(DisplayWidth.wrapped("no break here", to: 10, rows: 3) == ["no break", "here"])
    }

    /// Help scrolled to its end on a small terminal, then widened, kept its scroll: rows blank,
    /// those above hidden, the footer miscounting.
    @Test("Help scrolled on a small terminal shows from its first line once the terminal is big enough for all")
    func scrollFitsTheArea() {
        var help = Self.help()
        _ = help.update(.verb(.move(.last)), Context(size: Size(width: 40, height: 8)))
        #expect(help.scroll > 0)
        let lines = Self.drawn(help, width: 140, height: 24)
        #expect(lines.contains { $0.contains("Enter") && $0.contains("open") }, "the first row is shown:\n\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("╰─") && $0.contains(" of ") }, "all rows fit: the footer counts none")
    }
}
