/// A user's file as lines of bytes, for the few lines Perch adds, changes and removes in it while
/// every other byte stays as it was: no final newline added or dropped, CRLF line ends, tabs,
/// invalid UTF-8 and a UTF-8 byte-order mark kept (the mark moves with the first line, so it
/// always opens the file).
struct FileLines: Equatable {
    /// Each line's bytes without its `\n` (a CRLF line keeps its `\r`, and the first its mark);
    /// the last element is what follows the last `\n`: empty when the file ends with a newline.
    var lines: [[UInt8]]

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(_ bytes: [UInt8]) {
        lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }

    init(_ text: String) { self.init(Array(text.utf8)) }

    /// The file's bytes: the lines joined with `\n`.
    var bytes: [UInt8] { Array(lines.joined(separator: [0x0A])) }

    var count: Int { lines.count }

    /// Whether the file uses CRLF line ends (its first ended line does): lines Perch adds get them too.
    var usesCRLF: Bool { lines.dropLast().first.map { $0.last == 0x0D } ?? false }

    /// Line `index` as text, without its `\r` and (for the first) the byte-order mark.
    func text(_ index: Int) -> Substring {
        var line = lines[index][...]
        if index == 0, line.starts(with: Self.byteOrderMark) { line = line.dropFirst(3) }
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)[...]
    }

    /// Every line as text (``text(_:)``).
    var texts: [Substring] { lines.indices.map(text) }

    /// The index where a line added at the end goes: before the empty last element of a file
    /// ending with a newline, so that it keeps exactly one final newline.
    var endIndex: Int { lines.last?.isEmpty == true ? lines.count - 1 : lines.count }

    /// Inserts `texts` as whole lines before line `index` (at most ``endIndex``), with the
    /// file's line ends; a byte-order mark on the first line moves to the first inserted one.
    mutating func insert(_ texts: [String], at index: Int) {
        let index = min(index, endIndex)
        let end: [UInt8] = usesCRLF ? [0x0D] : []
        var new = texts.map { Array($0.utf8) + end }
        if index == 0, let first = lines.first, first.starts(with: Self.byteOrderMark), !new.isEmpty {
            lines[0].removeFirst(3)
            new[0] = Self.byteOrderMark + new[0]
        }
        lines.insert(contentsOf: new, at: index)
    }

    /// Removes the lines at `indices`; a byte-order mark on a removed first line moves to the
    /// line that is first after it.
    mutating func remove(_ indices: some Sequence<Int>) {
        let removed = Set(indices)
        guard !removed.isEmpty else { return }
        let mark = removed.contains(0) && lines.first?.starts(with: Self.byteOrderMark) == true
        lines = lines.indices.filter { !removed.contains($0) }.map { lines[$0] }
        if mark {
            if lines.isEmpty { lines = [[]] }
            lines[0] = Self.byteOrderMark + lines[0]
        }
    }

    /// Replaces line `index`'s text, keeping its `\r` and byte-order mark.
    mutating func replace(_ index: Int, with text: String) {
        let old = lines[index]
        let mark = index == 0 && old.starts(with: Self.byteOrderMark) ? Self.byteOrderMark : []
        lines[index] = mark + Array(text.utf8) + (old.last == 0x0D ? [0x0D] : [])
    }
}
