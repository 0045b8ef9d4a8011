import Testing

@testable import PerchKit

@Suite("Banner")
struct BannerTests {
    // Bug: a word longer than a line (the path of a kept edit copy) was cut with …, so the
    // banner that stays to be read could not show the file to fix.
    @Test("a word longer than the line starts a line and goes on over the next ones, whole")
    func longWordWhole() {
        let path = "/tmp/trial/scratch-home/.config/perch/.accounts.json.edit-ZAUFzi.json"
        let banner = Banner("Your edit is kept in \(path); line 2, column 1: expected a value", stays: true)
        let lines = banner.lines(width: 40, paneHeight: 20)
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= 38 }, "\(lines)")
        #expect(lines.joined().contains(path), "the path can be read, over its lines: \(lines)")
        #expect(lines.first == "Your edit is kept in", "the words before it stay on their line: \(lines)")
        #expect(!lines.joined().contains("…"))
        #expect(lines[1] == "/tmp/trial/scratch-home/.config/perch/", "a path breaks after a /: \(lines)")
        #expect(lines[2].hasPrefix(".accounts.json.edit-ZAUFzi.json;"), "\(lines)")
    }

    @Test("wide characters of a long word are never split: each line keeps within the width")
    func wideCharacters() {
        let lines = DisplayWidth.wrapped(String(repeating: "東京", count: 10), to: 7, rows: 10)
        #expect(lines == ["東京東", "京東京", "東京東", "京東京", "東京東", "京東京", "東京"], "\(lines)")
        #expect(
            DisplayWidth.wrapped("ab " + String(repeating: "x", count: 12), to: 5, rows: 2) == ["ab", "xxxx…"], "rows left over end in …")
    }
}
