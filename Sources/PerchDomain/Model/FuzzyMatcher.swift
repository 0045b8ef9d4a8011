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
    package final class Scratch {
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
        /// ``FuzzyMatcher/score(_:_:_:_:_:)``'s rows, one per pattern character: each as it
        /// stood at the last column where its character matched.
        let states: UnsafeMutablePointer<RowState>
        /// Per byte value (256): the pattern characters that start with it, bit `i` for
        /// character `i` (the first 64 characters; a longer pattern takes the full table).
        let rowsByLead: UnsafeMutablePointer<UInt64>
        /// ``FuzzyMatcher/score(_:_:_:_:_:)``'s column from which each row may start (`count + 1`
        /// of them: the last is written and never read).
        let opens: UnsafeMutablePointer<Int>
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
        package let bestPossible: Int32
        /// ``bonusTable``, copied here so that no text's alignment touches the global array.
        let table: UnsafeMutablePointer<Int32>

        package init(_ pattern: FuzzyPattern) {
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
            states = .allocate(capacity: max(1, count))
            states.initialize(repeating: RowState(score: 0, run: 0, runBonus: 0, unit: 0, inGap: false), count: max(1, count))
            opens = .allocate(capacity: count + 1)
            opens.initialize(repeating: 0, count: count + 1)
            rowsByLead = .allocate(capacity: 256)
            rowsByLead.initialize(repeating: 0, count: 256)
            for i in 0..<min(count, 64) { rowsByLead[Int(pattern.bytes[pattern.unitStarts[i]])] |= 1 << UInt64(i) }
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
            for buffer in [h, consecutive, runBonus, bonus] { buffer.deallocate() }
            states.deallocate()
            rowsByLead.deallocate()
            opens.deallocate()
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
    /// ``align(_:_:_:_:_:positions:)`` without positions, for searching many texts.
    ///
    /// It sweeps the text once, left to right, and visits a row of the alignment only at the
    /// columns where that row's character matches (the bytes ``Scratch/rowsByLead`` marks); in
    /// between, a row's cell only decays by the gap penalty, which ``RowState/at(_:)`` works out
    /// in one step when the row is next read. So a text costs one pass over its bytes up to the
    /// last place its last character matches, plus work per match, instead of phase one's pass
    /// and one more per pattern character. Row `i` starts where phase one would put it: at the
    /// first match of its character after row `i - 1`'s start and character. Rows are updated
    /// from the last to the first at a column, so that a row reads the row above as it stood one
    /// column before. Patterns of more than 64 characters (a bit each in the lead table) take the
    /// full table.
    package static func score(
        _ bytes: UnsafeBufferPointer<UInt8>, _ classes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ scratch: Scratch
    ) -> Int32? {
        let m = scratch.count
        guard m > 1 && m <= 64 else { return align(bytes, classes, start, end, scratch) }
        guard end - start >= scratch.patternBytes else { return nil }
        let p = scratch.pattern
        let units = scratch.units
        let table = scratch.table
        let rowsByLead = scratch.rowsByLead
        let states = scratch.states
        let opens = scratch.opens
        let typedUpper = scratch.upper
        let upperClass = TextMatching.CharacterClass.upper.rawValue
        // The last place the last character matches: nothing right of it can raise the score.
        let lastStart = units[m - 1]
        let lastEnd = units[m]
        var last = end - (lastEnd - lastStart)
        while last >= start && !matches(p, lastStart, lastEnd, bytes, last, end) { last -= 1 }
        guard last >= start else { return nil }
        // No row has started; row 0 may start anywhere, the others once the row above has.
        opens[0] = start
        for i in 0..<m {
            states[i].unit = 0
            opens[i + 1] = Int.max
        }
        var best: Int32 = -1
        // Column of the text in characters (continuation bytes of a character outside ASCII
        // take none): gaps are counted in these, as the full table counts its columns.
        var unit: Int32 = 0
        var x = start
        while x <= last {
            // On to the next byte a pattern character starts with (there is one at `last`).
            while rowsByLead[Int(bytes[x])] == 0 {
                unit &+= bytes[x] & 0xC0 == 0x80 ? 0 : 1
                x &+= 1
            }
            let column = x
            var rows = rowsByLead[Int(bytes[column])]
            unit &+= 1
            x &+= 1
            // The rows whose character starts with this byte, the last row first.
            while rows != 0 {
                let i = 63 &- rows.leadingZeroBitCount
                rows &= ~(1 << UInt64(i))
                let a = units[i]
                let b = units[i &+ 1]
                guard column >= opens[i], b &- a == 1 || matches(p, a, b, bytes, column, end) else { continue }
                let previousClass = column == start ? TextMatching.CharacterClass.white.rawValue : classes[column &- 1]
                let own = table[Int(previousClass) &* 7 &+ Int(classes[column])]
                let caseBonus = typedUpper[a] && classes[column] == upperClass ? bonusCase : 0
                // The row's own cell one column back, gone on by a gap (none at its first column).
                let s2: Int32
                if states[i].unit != 0 {
                    let left = states[i].at(unit &- 1)
                    s2 = left.score &+ (left.inGap ? scoreGapExtension : scoreGapStart)
                } else {
                    s2 = Int32.min / 2
                    // The row starts here: the next may start after this character.
                    opens[i &+ 1] = column &+ (b &- a)
                }
                var bonus = own
                var s1: Int32
                var run: Int32
                var runBonus: Int32
                if i == 0 {
                    s1 = scoreMatch &+ bonus &* bonusFirstCharMultiplier &+ caseBonus
                    run = 1
                    runBonus = bonus
                } else {
                    // The previous character's row one column back: not yet updated at this one.
                    let diagonal = states[i &- 1].at(unit &- 1)
                    s1 = diagonal.score &+ scoreMatch &+ caseBonus
                    run = diagonal.run &+ 1
                    runBonus = bonus
                    if run > 1 {
                        let firstBonus = diagonal.runBonus
                        if bonus >= bonusBoundary && bonus > firstBonus {
                            // A word start inside a run begins a new one.
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
                let score = max(0, max(s1, s2))
                states[i] = RowState(
                    score: score, run: fromMatch ? run : 0, runBonus: fromMatch ? runBonus : 0, unit: unit, inGap: !fromMatch)
                // The last row's best is at a column where it matched: elsewhere its cells only fall.
                if i == m &- 1 && score > best { best = score }
            }
        }
        return best >= 0 ? best : nil
    }

    /// One row of the alignment as ``score(_:_:_:_:_:)`` last updated it: its cell at column
    /// ``unit`` (in characters of the text), and how it goes on to the right.
    struct RowState {
        /// The cell's score.
        var score: Int32
        /// Length of the run of consecutive matches ending at the cell (0: not from a match).
        var run: Int32
        /// Bonus of that run's first character.
        var runBonus: Int32
        /// The column, in characters of the text from its start (1 for the first); 0 before the
        /// row has started in this text.
        var unit: Int32
        /// Whether the cell ends a gap (its best did not come from matching there).
        var inGap: Bool

        /// The row's cell at `unit` (at or right of ``unit``) when its character matched nowhere
        /// in between: each column of the gap costs ``scoreGapStart`` (the first after a match)
        /// or ``scoreGapExtension``, the score never below 0, the run broken.
        @inline(__always)
        func at(_ unit: Int32) -> RowState {
            let gap = unit &- self.unit
            guard gap > 0 else { return self }
            let cost = inGap ? scoreGapExtension &* gap : scoreGapStart &+ scoreGapExtension &* (gap &- 1)
            return RowState(score: max(0, score &+ cost), run: 0, runBonus: 0, unit: unit, inGap: true)
        }
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
