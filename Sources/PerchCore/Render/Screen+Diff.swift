/// A stretch of changed cells on one row that share a style: what a backend sends in one call.
public struct ScreenRun: Hashable, Sendable {
    /// 0-based row.
    public var row: Int
    /// 0-based column of the run's first cell (always a character's first column).
    public var column: Int
    /// The characters to draw, continuation cells left out.
    public var text: String
    /// Cells covered, in columns (a two-column character counts two).
    public var columns: Int
    public var style: Style
}

extension Screen {
    /// Number of cells that differ from `old`; every cell when `old` is nil or of another size.
    public func changedCellCount(from old: Screen?) -> Int {
        guard let old, old.size == size else { return cells.count }
        return cells.withUnsafeBufferPointer { new in
            old.cells.withUnsafeBufferPointer { previous in
                var count = 0
                for index in new.indices where !Self.same(new, previous, index) { count += 1 }
                return count
            }
        }
    }

    /// Whether cell `index` is the same in both buffers: a cell is plain data without padding
    /// (24 bytes), so its three words say everything.
    @inline(__always)
    private static func same(_ a: UnsafeBufferPointer<Cell>, _ b: UnsafeBufferPointer<Cell>, _ index: Int) -> Bool {
        sameBytes(a.baseAddress! + index, b.baseAddress! + index, count: 1)
    }

    /// Whether `count` cells at `a` and `b` hold the same bytes, compared a word at a time.
    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, count: Int) -> Bool {
        let words = count * MemoryLayout<Cell>.stride / 8
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        var difference: UInt64 = 0
        for word in 0..<words {
            difference |= x.load(fromByteOffset: word * 8, as: UInt64.self) ^ y.load(fromByteOffset: word * 8, as: UInt64.self)
        }
        return difference == 0
    }

    /// The runs that turn `old` into this screen: only changed cells, each run on one row and in
    /// one style, and a changed continuation cell drawn by the wide character it belongs to.
    /// With `old` nil or of another size every cell is changed (one run per row and style).
    public func changedRuns(from old: Screen?) -> [ScreenRun] {
        let hasOld = old.map { $0.size == size } ?? false
        let oldCells = hasOld ? old!.cells : []
        var runs: [ScreenRun] = []
        let width = size.width
        // One run's UTF-8, reused from run to run: a row of the longest glyphs fits.
        let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, width * Glyph.capacity))
        defer { text.deallocate() }
        cells.withUnsafeBufferPointer { new in
            oldCells.withUnsafeBufferPointer { previous in
                @inline(__always) func changed(_ index: Int) -> Bool { !hasOld || !Self.same(new, previous, index) }
                for row in 0..<size.height {
                    let rowStart = row * width
                    // A row whose bytes are all the same is skipped at once (most rows of most frames).
                    if hasOld, Self.sameBytes(new.baseAddress! + rowStart, previous.baseAddress! + rowStart, count: width) { continue }
                    var column = 0
                    while column < width {
                        guard changed(rowStart + column) else {
                            column += 1
                            continue
                        }
                        // Start at the first column of the character this cell belongs to.
                        var start = column
                        while start > 0, new[rowStart + start].isContinuation { start -= 1 }
                        let style = new[rowStart + start].style
                        var length = 0
                        column = start
                        while column < width {
                            let next = new[rowStart + column]
                            if next.isContinuation {
                                column += 1
                                continue
                            }
                            if column > start, next.style != style || !changed(rowStart + column) { break }
                            let glyph = next.glyph
                            let count = glyph.count
                            if count == 1 {
                                text[length] = UInt8(truncatingIfNeeded: glyph.low)
                            } else {
                                for index in 0..<count { text[length + index] = glyph[index] }
                            }
                            length += count
                            column += 1
                        }
                        let utf8 = UnsafeBufferPointer(rebasing: text[0..<length])
                        runs.append(
                            ScreenRun(
                                row: row, column: start, text: String(decoding: utf8, as: UTF8.self), columns: column - start, style: style)
                        )
                    }
                }
            }
        }
        return runs
    }
}
