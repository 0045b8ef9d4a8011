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

    /// Whether cell `index` is the same in both buffers: two integers for the glyph, then the
    /// style (cells are plain data, so this is all integer comparison).
    @inline(__always)
    private static func same(_ a: UnsafeBufferPointer<Cell>, _ b: UnsafeBufferPointer<Cell>, _ index: Int) -> Bool {
        let x = a[index]
        let y = b[index]
        return x.glyph == y.glyph && x.isContinuation == y.isContinuation && x.style == y.style
    }

    /// The runs that turn `old` into this screen: only changed cells, each run on one row and in
    /// one style, and a changed continuation cell drawn by the wide character it belongs to.
    /// With `old` nil or of another size every cell is changed (one run per row and style).
    public func changedRuns(from old: Screen?) -> [ScreenRun] {
        let hasOld = old.map { $0.size == size } ?? false
        let oldCells = hasOld ? old!.cells : []
        var runs: [ScreenRun] = []
        // One run's UTF-8, reused from run to run.
        var text: [UInt8] = []
        text.reserveCapacity(size.width * 4)
        let width = size.width
        cells.withUnsafeBufferPointer { new in
            oldCells.withUnsafeBufferPointer { previous in
                func changed(_ index: Int) -> Bool { !hasOld || !Self.same(new, previous, index) }
                for row in 0..<size.height {
                    let rowStart = row * width
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
                        text.removeAll(keepingCapacity: true)
                        column = start
                        while column < width {
                            let next = new.baseAddress! + rowStart + column
                            if next.pointee.isContinuation {
                                column += 1
                                continue
                            }
                            if column > start, next.pointee.style != style || !changed(rowStart + column) { break }
                            next.pointee.glyph.append(to: &text)
                            column += 1
                        }
                        runs.append(
                            ScreenRun(
                                row: row, column: start, text: String(decoding: text, as: UTF8.self), columns: column - start,
                                style: style))
                    }
                }
            }
        }
        return runs
    }
}
