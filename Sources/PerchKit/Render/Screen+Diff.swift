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
    /// The style every cell of the run has.
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

    /// Whether `count` cells at `a` and `b` hold the same bytes, compared a word at a time, eight
    /// words (64 bytes) between checks: a changed row is given up at its first changed block.
    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, count: Int) -> Bool {
        let words = count * MemoryLayout<Cell>.stride / 8
        let x = UnsafeRawPointer(a).assumingMemoryBound(to: UInt64.self)
        let y = UnsafeRawPointer(b).assumingMemoryBound(to: UInt64.self)
        var word = 0
        while word &+ 8 <= words {
            var difference: UInt64 = 0
            for offset in 0..<8 { difference |= x[word &+ offset] ^ y[word &+ offset] }
            if difference != 0 { return false }
            word &+= 8
        }
        var difference: UInt64 = 0
        while word < words {
            difference |= x[word] ^ y[word]
            word &+= 1
        }
        return difference == 0
    }

    /// The runs that turn `old` into this screen: only changed cells, each run on one row and in
    /// one style, and a changed continuation cell drawn by the wide character it belongs to.
    /// With `old` nil or of another size every cell is changed (one run per row and style).
    /// ``changes(from:)`` gives the same runs without a string for each.
    public func changedRuns(from old: Screen?) -> [ScreenRun] {
        let changes = changes(from: old)
        return changes.spans.map { span in
            ScreenRun(row: span.row, column: span.column, text: changes.text(of: span), columns: span.columns, style: span.style)
        }
    }

    /// The runs of ``changedRuns(from:)``, their UTF-8 kept one after another in one buffer: what a
    /// backend draws from, made without a string, an allocation or a bounds check per run.
    ///
    /// Cells are read as the three words they are (``Cell`` is 24 bytes without padding): a cell
    /// is changed when its words differ, a continuation when its flag's byte is set, and in a
    /// run's style when its style's bytes are the run's.
    public func changes(from old: Screen?) -> ScreenChanges {
        let hasOld = old.map { $0.size == size } ?? false
        let oldCells = hasOld ? old!.cells : []
        var changes = ScreenChanges()
        let width = size.width
        let layout = CellLayout.current
        let styleMask = layout.styleMask
        let continuationMask = layout.continuationMask
        // A glyph's second word when it is one byte long (its count in the top byte).
        let oneByte: UInt64 = 1 << 56
        // One run's UTF-8, reused from run to run: a row of the longest glyphs fits.
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * Glyph.capacity))
        defer { text.deallocate() }
        // Without an old screen, each row is compared with a row no cell can equal (a glyph
        // never counts 255 bytes), so every cell is changed and the loop below has one shape.
        let unequalRow = UnsafeMutablePointer<UInt64>.allocate(capacity: hasOld ? 1 : max(1, width * 3))
        defer { unequalRow.deallocate() }
        if !hasOld { unequalRow.initialize(repeating: .max, count: max(1, width * 3)) }
        changes.utf8.reserveCapacity(cells.count)
        cells.withUnsafeBufferPointer { new in
            oldCells.withUnsafeBufferPointer { previous in
                guard let newBase = new.baseAddress else { return }
                // Each cell as its three words.
                let newWords = UnsafeRawPointer(newBase).assumingMemoryBound(to: UInt64.self)
                // Bug: an empty array may still give a base address, so without an old screen the
                // rows were compared with memory past its end: garbage, and from about 122,000
                // cells (1000×122) a crash (SIGSEGV) at the first frame or after a resize.
                let oldBase = hasOld ? previous.baseAddress : nil
                let oldWords = oldBase.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt64.self) }
                for row in 0..<size.height {
                    let rowStart = row &* width
                    // A row whose bytes are all the same is skipped at once (most rows of most frames).
                    if let oldBase, Self.sameBytes(newBase + rowStart, oldBase + rowStart, count: width) {
                        continue
                    }
                    let newRow = newWords + rowStart &* 3
                    let oldRow = oldWords.map { $0 + rowStart &* 3 } ?? UnsafePointer(unequalRow)
                    @inline(__always) func same(_ word: Int) -> Bool {
                        (newRow[word] ^ oldRow[word]) | (newRow[word &+ 1] ^ oldRow[word &+ 1]) | (newRow[word &+ 2] ^ oldRow[word &+ 2])
                            == 0
                    }
                    var column = 0
                    while column < width {
                        if same(column &* 3) {
                            column &+= 1
                            continue
                        }
                        // Start at the first column of the character this cell belongs to.
                        var start = column
                        while start > 0, newRow[start &* 3 &+ 2] & continuationMask != 0 { start &-= 1 }
                        let style = newRow[start &* 3 &+ 2] & styleMask
                        var length = 0
                        // The largest byte - 0x20 of a one-byte glyph, wrapping below 0x20: under
                        // 0x5F when every one was printable ASCII.
                        var asciiOffset: UInt64 = 0
                        var multiByte = false
                        @inline(__always) func append(_ low: UInt64, _ high: UInt64) {
                            if high == oneByte {
                                text[length] = UInt8(truncatingIfNeeded: low)
                                asciiOffset = max(asciiOffset, low &- 0x20)
                                length &+= 1
                            } else {
                                let glyph = Glyph(low: low, high: high)
                                let count = glyph.count
                                for byte in 0..<count { text[length &+ byte] = glyph[byte] }
                                multiByte = true
                                length &+= count
                            }
                        }
                        // The first cell is the run's whatever it holds; a continuation draws nothing.
                        var word = start &* 3
                        if newRow[word &+ 2] & continuationMask == 0 { append(newRow[word], newRow[word &+ 1]) }
                        column = start &+ 1
                        word &+= 3
                        while column < width {
                            let flags = newRow[word &+ 2]
                            let high = newRow[word &+ 1]
                            if flags == style, high == oneByte {
                                // Most cells: one byte, in the run's style and no continuation
                                // (the third word is then the style alone: the flag byte is
                                // 0). Changed unless the old cell's words are these.
                                let low = newRow[word]
                                if low == oldRow[word], oldRow[word &+ 1] == oneByte, oldRow[word &+ 2] == style { break }
                                text[length] = UInt8(truncatingIfNeeded: low)
                                asciiOffset = max(asciiOffset, low &- 0x20)
                                length &+= 1
                            } else if flags & continuationMask == 0 {
                                if (flags ^ style) & styleMask != 0 || same(word) { break }
                                append(newRow[word], high)
                            }
                            column &+= 1
                            word &+= 3
                        }
                        let bytes = changes.utf8.count..<(changes.utf8.count + length)
                        changes.utf8.append(contentsOf: UnsafeBufferPointer(start: text, count: length))
                        changes.spans.append(
                            ScreenChanges.Span(
                                row: row, column: start, columns: column - start, style: new[rowStart + start].style, bytes: bytes,
                                isPrintableASCII: !multiByte && asciiOffset < 0x5F))
                    }
                }
            }
        }
        return changes
    }
}

/// The changed cells of a frame as runs (``Screen/changes(from:)``): each run's place, width and
/// style, and its UTF-8 in one buffer shared by all.
public struct ScreenChanges: Hashable, Sendable {
    /// One run: a stretch of changed cells on one row in one style.
    public struct Span: Hashable, Sendable {
        /// 0-based row.
        public var row: Int
        /// 0-based column of the run's first cell (always a character's first column).
        public var column: Int
        /// Cells covered, in columns (a two-column character counts two).
        public var columns: Int
        /// The style every cell of the run has.
        public var style: Style
        /// Where the run's UTF-8 is in ``ScreenChanges/utf8``, in bytes (continuation cells
        /// left out).
        public var bytes: Range<Int>
        /// Whether every byte of the run is printable ASCII (0x20–0x7E), one cell each.
        public var isPrintableASCII: Bool
    }

    /// The runs, top to bottom and left to right.
    public internal(set) var spans: [Span] = []
    /// The UTF-8 of every run, one after another.
    public internal(set) var utf8: [UInt8] = []

    /// The characters `span` draws.
    public func text(of span: Span) -> String { String(decoding: utf8[span.bytes], as: UTF8.self) }
}

/// Where a ``Cell``'s style and continuation flag lie in its third word (bytes 16–23), read once
/// from the type's layout so that ``Screen/changes(from:)`` compares them as masked words.
struct CellLayout {
    /// Bits of the third word that hold the style.
    var styleMask: UInt64
    /// Bits of the third word that hold the continuation flag.
    var continuationMask: UInt64

    static let current: CellLayout = {
        let style = MemoryLayout<Cell>.offset(of: \Cell.style)!
        let continuation = MemoryLayout<Cell>.offset(of: \Cell.isContinuation)!
        let styleSize = MemoryLayout<Style>.size
        precondition(
            MemoryLayout<Cell>.stride == 24 && style >= 16 && style + styleSize <= 24 && continuation >= 16 && continuation < 24,
            "a Cell's style and continuation flag are expected in its third word")
        func mask(from offset: Int, bytes: Int) -> UInt64 {
            (0..<bytes).reduce(0) { $0 | (0xFF << UInt64((offset - 16 + $1) * 8)) }
        }
        return CellLayout(styleMask: mask(from: style, bytes: styleSize), continuationMask: mask(from: continuation, bytes: 1))
    }()
}
