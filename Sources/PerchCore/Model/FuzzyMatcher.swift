/// A filter as typed, ready for ``FuzzyMatcher``: its match key (``TextMatching``) and, for each
/// byte of it, whether the character it came from was typed in upper case.
public struct FuzzyPattern: Hashable, Sendable {
    /// The match key of the filter, as UTF-8 bytes.
    public let bytes: [UInt8]
    /// Per byte of ``bytes``: the character was typed in upper case.
    let upper: [Bool]
    /// Where each character of the key starts in ``bytes`` (a character is a Unicode scalar of
    /// the key: one byte in ASCII), then the end of ``bytes``.
    let unitStarts: [Int]

    /// The pattern for `filter` (any text; an empty one matches everything with score 0).
    public init(_ filter: String) {
        var bytes: [UInt8] = []
        var classes: [UInt8] = []
        TextMatching.appendKey(of: filter, to: &bytes, classes: &classes)
        self.bytes = bytes
        upper = classes.map { $0 == TextMatching.CharacterClass.upper.rawValue }
        var starts = bytes.indices.filter { bytes[$0] & 0xC0 != 0x80 }
        starts.append(bytes.count)
        unitStarts = starts
    }

    /// Number of characters (Unicode scalars of the key) in the pattern.
    public var count: Int { unitStarts.count - 1 }
    public var isEmpty: Bool { bytes.isEmpty }
}

/// A fuzzy match as fzf's: the pattern's characters must occur in the text in order, and the
/// best way they do is scored (fzf's algorithm V2, a Smith–Waterman-style alignment, with its
/// constants).
///
/// Both sides are match keys (``TextMatching``: NFD, full case folding, no nonspacing marks),
/// so `cafe` finds `Café` and `STRASSE` finds `Straße`; the score still sees the text's
/// characters as they were written:
/// - each matched character scores ``scoreMatch``, plus a bonus where it starts a word (after
///   white space ``bonusBoundaryWhite``, after a delimiter ``bonusBoundaryDelimiter``, after
///   other punctuation ``bonusBoundary``), at a camel-case hump or the first digit of a number
///   (``bonusCamel123``); the first character's bonus counts ``bonusFirstCharMultiplier`` times;
/// - characters matched one after another keep the bonus of their run's first one (at least
///   ``bonusConsecutive``);
/// - a gap costs ``scoreGapStart`` for its first character and ``scoreGapExtension`` for each
///   more;
/// - a character typed in upper case that meets an upper-case one scores ``bonusCase`` more,
///   so `W` ranks `Work` over `network` (a lower-case letter still matches either case).
///
/// Gaps are counted in bytes of the key (a letter outside ASCII counts two or more), which only
/// shades the score of text outside ASCII. All functions are pure.
public enum FuzzyMatcher {
    public static let scoreMatch: Int32 = 16
    public static let scoreGapStart: Int32 = -3
    public static let scoreGapExtension: Int32 = -1
    public static let bonusBoundary: Int32 = scoreMatch / 2
    public static let bonusNonWord: Int32 = scoreMatch / 2
    public static let bonusCamel123: Int32 = bonusBoundary + scoreGapExtension
    public static let bonusConsecutive: Int32 = -(scoreGapStart + scoreGapExtension)
    public static let bonusFirstCharMultiplier: Int32 = 2
    public static let bonusBoundaryWhite: Int32 = bonusBoundary + 2
    public static let bonusBoundaryDelimiter: Int32 = bonusBoundary + 1
    public static let bonusCase: Int32 = 2

    /// A match of a pattern in one text: its score and where the pattern's characters landed.
    public struct Match: Hashable, Sendable {
        public var score: Int
        /// Indices of the matched characters (grapheme clusters of the text), ascending.
        public var characters: [Int]
    }

    /// The best match of `pattern` in `text`, with the characters it matched, or nil when the
    /// pattern's characters do not all occur in order. An empty pattern matches with score 0
    /// and no characters.
    public static func match(_ pattern: FuzzyPattern, in text: String) -> Match? {
        guard !pattern.isEmpty else { return Match(score: 0, characters: []) }
        var bytes: [UInt8] = []
        var classes: [UInt8] = []
        var characters: [Int]? = []
        TextMatching.appendKey(of: text, to: &bytes, classes: &classes, characters: &characters)
        let scratch = Scratch(pattern)
        var positions: [Int] = []
        let score = bytes.withUnsafeBufferPointer { bytes in
            classes.withUnsafeBufferPointer { classes in
                align(bytes, classes, 0, bytes.count, scratch, positions: &positions)
            }
        }
        guard let score else { return nil }
        var matched: [Int] = []
        for position in positions.reversed() where matched.last != characters![position] { matched.append(characters![position]) }
        return Match(score: Int(score), characters: matched)
    }

    /// The score of `pattern` in `text`, or nil (``match(_:in:)`` without the positions).
    public static func score(_ pattern: FuzzyPattern, in text: String) -> Int? {
        match(pattern, in: text)?.score
    }

    /// Buffers the alignment reuses from one text to the next (a search over 100,000 accounts
    /// allocates them once), and the pattern's bytes laid out for it. Raw memory, so that the
    /// inner loops neither check uniqueness nor bounds.
    final class Scratch {
        /// Per cell (pattern character × text byte): the score of the best alignment of the
        /// pattern's first `i + 1` characters with the `i`-th matched at or before the column.
        private(set) var h: UnsafeMutablePointer<Int32>
        /// Length of the run of consecutive matches ending at the cell.
        private(set) var consecutive: UnsafeMutablePointer<Int32>
        /// Bonus of that run's first character.
        private(set) var runBonus: UnsafeMutablePointer<Int32>
        /// Whether the cell's best came from matching its character there.
        private(set) var fromMatch: UnsafeMutablePointer<Bool>
        private(set) var cells = 0
        /// Per column: the bonus of the text's byte there.
        private(set) var bonus: UnsafeMutablePointer<Int32>
        private(set) var columns = 0
        /// ``FuzzyMatcher/score(_:_:_:_:_:)``'s two rows (the previous pattern character's and
        /// this one's), each `rowCapacity` columns of score, run length and run bonus interleaved.
        private(set) var rows: UnsafeMutablePointer<Int32>
        private(set) var rowCapacity = 0
        /// Per pattern character: where it first matches.
        let first: UnsafeMutablePointer<Int>
        /// The pattern: its key bytes, whether each was typed upper case, its characters' starts.
        let pattern: UnsafeMutablePointer<UInt8>
        let upper: UnsafeMutablePointer<Bool>
        let units: UnsafeMutablePointer<Int>
        let patternBytes: Int
        let count: Int
        /// No text can score more than this: every character a word start after white space,
        /// and in the typed case.
        let bestPossible: Int32
        /// ``bonusTable``, copied here so that no text's alignment touches the global array.
        let table: UnsafeMutablePointer<Int32>

        init(_ pattern: FuzzyPattern) {
            patternBytes = pattern.bytes.count
            count = pattern.count
            self.pattern = .allocate(capacity: max(1, patternBytes))
            upper = .allocate(capacity: max(1, patternBytes))
            units = .allocate(capacity: count + 1)
            first = .allocate(capacity: max(1, count))
            for (i, byte) in pattern.bytes.enumerated() {
                self.pattern[i] = byte
                upper[i] = pattern.upper[i]
            }
            for (i, start) in pattern.unitStarts.enumerated() { units[i] = start }
            table = .allocate(capacity: FuzzyMatcher.bonusTable.count)
            for (i, bonus) in FuzzyMatcher.bonusTable.enumerated() { table[i] = bonus }
            let typedUpper = pattern.unitStarts.dropLast().filter { pattern.upper[$0] }.count
            bestPossible =
                scoreMatch * Int32(count) + bonusBoundaryWhite * bonusFirstCharMultiplier + bonusBoundaryWhite * Int32(max(0, count - 1))
                + bonusCase * Int32(typedUpper)
            h = .allocate(capacity: 1)
            consecutive = .allocate(capacity: 1)
            runBonus = .allocate(capacity: 1)
            fromMatch = .allocate(capacity: 1)
            bonus = .allocate(capacity: 1)
            rows = .allocate(capacity: 6)
            rowCapacity = 1
        }

        /// Makes room in ``rows`` for two rows of `columns` columns.
        @inline(__always)
        func reserveRows(_ wanted: Int) {
            guard wanted > rowCapacity else { return }
            rows.deallocate()
            rowCapacity = max(wanted, rowCapacity * 2)
            rows = .allocate(capacity: rowCapacity * 6)
        }

        /// Makes room for `cells` cells and `columns` columns.
        func reserve(cells wanted: Int, columns wantedColumns: Int) {
            if wanted > cells {
                let size = max(wanted, cells * 2)
                for buffer in [h, consecutive, runBonus] { buffer.deallocate() }
                fromMatch.deallocate()
                h = .allocate(capacity: size)
                consecutive = .allocate(capacity: size)
                runBonus = .allocate(capacity: size)
                fromMatch = .allocate(capacity: size)
                cells = size
            }
            if wantedColumns > columns {
                bonus.deallocate()
                columns = max(wantedColumns, columns * 2)
                bonus = .allocate(capacity: columns)
            }
        }

        deinit {
            for buffer in [h, consecutive, runBonus, bonus, rows] { buffer.deallocate() }
            fromMatch.deallocate()
            pattern.deallocate()
            table.deallocate()
            upper.deallocate()
            units.deallocate()
            first.deallocate()
        }
    }

    /// Bonus for a character of class `current` after one of class `previous` (fzf's
    /// `bonusFor`), indexed `previous * 7 + current` by ``TextMatching/CharacterClass`` raw values.
    static let bonusTable: [Int32] = (0..<49).map { index in
        typealias C = TextMatching.CharacterClass
        let previous = C(rawValue: UInt8(index / 7))!
        let current = C(rawValue: UInt8(index % 7))!
        if current.rawValue > C.nonWord.rawValue {
            switch previous {
            case .white: return bonusBoundaryWhite
            case .delimiter: return bonusBoundaryDelimiter
            case .nonWord: return bonusBoundary
            default: break
            }
        }
        if previous == .lower && current == .upper || previous != .number && current == .number { return bonusCamel123 }
        switch current {
        case .nonWord, .delimiter: return bonusNonWord
        case .white: return bonusBoundaryWhite
        default: return 0
        }
    }

    /// Whether pattern bytes `a..<b` match the key at `position` (the key ends at `limit`).
    @inline(__always)
    private static func matches(
        _ pattern: UnsafeMutablePointer<UInt8>, _ a: Int, _ b: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ position: Int, _ limit: Int
    ) -> Bool {
        guard bytes[position] == pattern[a] else { return false }
        if b - a == 1 { return true }
        guard position + b - a <= limit else { return false }
        var i = 1
        while i < b - a {
            if bytes[position + i] != pattern[a + i] { return false }
            i += 1
        }
        return true
    }

    /// Phase 1 of the alignment (fzf's F): the first place each of the scratch's pattern
    /// characters matches in `bytes[start..<end]`, in order, written to `scratch.first`; returns
    /// the last place the last character matches, which bounds the alignment on the right, or
    /// nil when the characters do not all occur in order.
    @inline(__always)
    private static func phaseOne(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ scratch: Scratch) -> Int? {
        let m = scratch.count
        let p = scratch.pattern
        let units = scratch.units
        let first = scratch.first
        var position = start
        for i in 0..<m {
            let a = units[i]
            let b = units[i + 1]
            let lead = p[a]
            while position < end && (bytes[position] != lead || !matches(p, a, b, bytes, position, end)) { position += 1 }
            if position == end { return nil }
            first[i] = position
            position += b - a
        }
        let lastStart = units[m - 1]
        let lastEnd = units[m]
        var last = end - (lastEnd - lastStart)
        while last > first[m - 1] && !matches(p, lastStart, lastEnd, bytes, last, end) { last -= 1 }
        return last
    }

    /// The best score of the scratch's pattern in `bytes[start..<end]`, or nil: the same as
    /// ``align(_:_:_:_:_:positions:)`` without positions, for searching many texts. It keeps
    /// two rows of the alignment instead of the whole table, and works out a column's bonus only
    /// where a pattern character matches there.
    static func score(
        _ bytes: UnsafeBufferPointer<UInt8>, _ classes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ scratch: Scratch
    ) -> Int32? {
        let m = scratch.count
        guard m > 1 else { return align(bytes, classes, start, end, scratch) }
        guard end - start >= scratch.patternBytes else { return nil }
        let p = scratch.pattern
        let units = scratch.units
        let first = scratch.first
        let table = scratch.table
        guard let last = phaseOne(bytes, start, end, scratch) else { return nil }
        let f0 = first[0]
        let width = last - f0 + 1
        scratch.reserveRows(width)
        // Cell c of a row is at c * 3: score, run length, run bonus.
        var previous = scratch.rows
        var current = scratch.rows + 3 * width
        // The last row is not stored: only its best cell counts.
        var best: Int32 = -1
        for i in 0..<m {
            let isLast = i == m - 1
            // The next row reads this one only from the column before its first match on.
            let stored = isLast ? width : first[i + 1] - f0 - 1
            let a = units[i]
            let b = units[i + 1]
            let lead = p[a]
            let typedUpper = scratch.upper[a]
            let from = first[i] - f0
            var inGap = false
            var left: Int32 = 0
            var leftRun: Int32 = 0
            var leftRunBonus: Int32 = 0
            for column in from..<width {
                let x = f0 + column
                let byte = bytes[x]
                let cell = current + 3 * column
                if byte & 0xC0 == 0x80 {
                    // Inside a character outside ASCII: carry the cell on the left.
                    if column >= stored && !isLast {
                        cell[0] = left
                        cell[1] = leftRun
                        cell[2] = leftRunBonus
                    }
                    continue
                }
                guard byte == lead && (b - a == 1 || matches(p, a, b, bytes, x, end)) else {
                    // No match here (never at `from`, where phase one found one): the gap goes on,
                    // and the score only falls, so the last row's best cannot be here.
                    left = max(0, left &+ (inGap ? scoreGapExtension : scoreGapStart))
                    leftRun = 0
                    leftRunBonus = 0
                    inGap = true
                    if column >= stored && !isLast {
                        cell[0] = left
                        cell[1] = 0
                        cell[2] = 0
                    }
                    continue
                }
                let s2: Int32 = column > from ? left &+ (inGap ? scoreGapExtension : scoreGapStart) : Int32.min / 2
                let own = table[Int(x == start ? TextMatching.CharacterClass.white.rawValue : classes[x - 1]) &* 7 &+ Int(classes[x])]
                var bonus = own
                let caseBonus = typedUpper && classes[x] == TextMatching.CharacterClass.upper.rawValue ? bonusCase : 0
                var s1: Int32
                var run: Int32
                var runBonus: Int32
                if i == 0 {
                    s1 = scoreMatch &+ bonus &* bonusFirstCharMultiplier &+ caseBonus
                    run = 1
                    runBonus = bonus
                } else {
                    let diagonal = previous + 3 * (column - 1)
                    s1 = diagonal[0] &+ scoreMatch &+ caseBonus
                    run = diagonal[1] &+ 1
                    runBonus = bonus
                    if run > 1 {
                        let firstBonus = diagonal[2]
                        if bonus >= bonusBoundary && bonus > firstBonus {
                            run = 1
                        } else {
                            bonus = max(bonus, max(bonusConsecutive, firstBonus))
                            runBonus = firstBonus
                        }
                    }
                    if s1 &+ bonus < s2 {
                        s1 = s1 &+ own
                        run = 0
                    } else {
                        s1 = s1 &+ bonus
                    }
                }
                let fromMatch = s1 >= s2 && run > 0
                left = max(0, max(s1, s2))
                leftRun = fromMatch ? run : 0
                leftRunBonus = fromMatch ? runBonus : 0
                inGap = !fromMatch
                if isLast {
                    if left > best { best = left }
                } else if column >= stored {
                    cell[0] = left
                    cell[1] = leftRun
                    cell[2] = leftRunBonus
                }
            }
            swap(&previous, &current)
        }
        return best
    }

    /// The best score of the scratch's pattern in `bytes[start..<end]` (a text's key, `classes`
    /// beside it), or nil. When `positions` is given it receives the byte offsets (from `start`)
    /// where the pattern's characters matched, last first.
    static func align(
        _ bytes: UnsafeBufferPointer<UInt8>, _ classes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ scratch: Scratch,
        positions: UnsafeMutablePointer<[Int]>? = nil
    ) -> Int32? {
        let m = scratch.count
        guard m > 0 else { return 0 }
        guard end - start >= scratch.patternBytes else { return nil }
        let p = scratch.pattern
        let units = scratch.units
        let first = scratch.first
        let white = TextMatching.CharacterClass.white.rawValue
        let upperClass = TextMatching.CharacterClass.upper.rawValue
        let table = scratch.table
        do {
            // One character: its best place alone, with no table.
            if m == 1 {
                let lead = p[0]
                let length = units[1]
                let typedUpper = scratch.upper[0]
                var best: Int32 = -1
                var bestPosition = -1
                var x = start
                let last = end - length
                while x <= last {
                    if bytes[x] == lead && (length == 1 || matches(p, 0, length, bytes, x, end)) {
                        let previous = x == start ? white : classes[x - 1]
                        var score = scoreMatch + table[Int(previous) &* 7 &+ Int(classes[x])] &* bonusFirstCharMultiplier
                        if typedUpper && classes[x] == upperClass { score += bonusCase }
                        if score > best {
                            best = score
                            bestPosition = x
                            // Nothing later can score more (the leftmost of equals is kept).
                            if score == scratch.bestPossible { break }
                        }
                    }
                    x += 1
                }
                guard bestPosition >= 0 else { return nil }
                positions?.pointee = [bestPosition - start]
                return best
            }
            guard let last = phaseOne(bytes, start, end, scratch) else { return nil }
            let f0 = first[0]
            let width = last - f0 + 1
            scratch.reserve(cells: m * width, columns: width)
            let bonusOf = scratch.bonus
            var previousClass = f0 == start ? white : classes[f0 - 1]
            for column in 0..<width {
                let current = classes[f0 + column]
                bonusOf[column] = table[Int(previousClass) &* 7 &+ Int(current)]
                previousClass = current
            }
            // Phase 2: the alignment, row i for pattern character i, columns f0...last.
            let h = scratch.h
            let consecutive = scratch.consecutive
            let runBonusOf = scratch.runBonus
            let fromMatchOf = scratch.fromMatch
            for i in 0..<m {
                let a = units[i]
                let b = units[i + 1]
                let lead = p[a]
                let typedUpper = scratch.upper[a]
                let row = i * width
                let from = first[i] - f0
                var inGap = false
                for column in from..<width {
                    let cell = row + column
                    let x = f0 + column
                    let byte = bytes[x]
                    if byte & 0xC0 == 0x80 {
                        // Inside a character outside ASCII: carry the cell on the left.
                        h[cell] = h[cell - 1]
                        consecutive[cell] = consecutive[cell - 1]
                        runBonusOf[cell] = runBonusOf[cell - 1]
                        fromMatchOf[cell] = false
                        continue
                    }
                    let s2: Int32 = column > from ? h[cell - 1] + (inGap ? scoreGapExtension : scoreGapStart) : Int32.min / 2
                    var s1: Int32 = Int32.min / 2
                    var run: Int32 = 0
                    var runBonus: Int32 = 0
                    if byte == lead && (b - a == 1 || matches(p, a, b, bytes, x, end)) {
                        var bonus = bonusOf[column]
                        let caseBonus = typedUpper && classes[x] == upperClass ? bonusCase : 0
                        if i == 0 {
                            s1 = scoreMatch + bonus * bonusFirstCharMultiplier + caseBonus
                            run = 1
                            runBonus = bonus
                        } else {
                            let diagonal = cell - width - 1
                            s1 = h[diagonal] + scoreMatch + caseBonus
                            run = consecutive[diagonal] + 1
                            runBonus = bonus
                            if run > 1 {
                                let firstBonus = runBonusOf[diagonal]
                                if bonus >= bonusBoundary && bonus > firstBonus {
                                    // A word start inside a run begins a new one.
                                    run = 1
                                } else {
                                    bonus = max(bonus, max(bonusConsecutive, firstBonus))
                                    runBonus = firstBonus
                                }
                            }
                            if s1 + bonus < s2 {
                                s1 += bonusOf[column]
                                run = 0
                            } else {
                                s1 += bonus
                            }
                        }
                    }
                    let fromMatch = s1 >= s2 && run > 0
                    h[cell] = max(0, max(s1, s2))
                    consecutive[cell] = fromMatch ? run : 0
                    runBonusOf[cell] = fromMatch ? runBonus : 0
                    fromMatchOf[cell] = fromMatch
                    inGap = !fromMatch
                }
            }
            // The best cell of the last row (the leftmost of equals).
            let row = (m - 1) * width
            var best: Int32 = -1
            var bestColumn = 0
            for column in (first[m - 1] - f0)..<width where h[row + column] > best {
                best = h[row + column]
                bestColumn = column
            }
            if let positions {
                // Phase 3: back from the best cell along the matches it came from.
                var found: [Int] = []
                var i = m - 1
                var column = bestColumn
                while column >= 0 {
                    if fromMatchOf[i * width + column] {
                        found.append(f0 + column - start)
                        if i == 0 { break }
                        i -= 1
                    }
                    column -= 1
                }
                positions.pointee = found
            }
            return best
        }
    }
}
