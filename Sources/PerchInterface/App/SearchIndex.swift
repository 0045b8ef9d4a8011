import PerchDomain

/// The accounts' names and handles as match keys (``TextMatching/key(_:)``: ASCII letters
/// lower-cased, other text decomposed, case-folded and without nonspacing marks), with each
/// byte's character class beside it, in two byte buffers, so that a filter keystroke over
/// 100,000 accounts scans bytes instead of 200,000 strings. Built when a sheet's filter opens;
/// derived from the accounts, so it takes no part in equality.
public struct SearchIndex: Hashable, Sendable {
    /// The index's buffers, in memory it owns (allocated once, when the filter opens), so that
    /// a search reads them with no closure per buffer and no bounds or uniqueness checks.
    private final class Storage: @unchecked Sendable {
        /// Every account's name then handle, as match keys.
        let bytes: UnsafeBufferPointer<UInt8>
        /// The ``TextMatching/CharacterClass`` of the character each byte of ``bytes`` came from.
        let classes: UnsafeBufferPointer<UInt8>
        /// Where account `i`'s name starts (`starts[2i]`) and its handle starts (`starts[2i+1]`);
        /// the last element is the end of the buffer.
        let starts: UnsafeBufferPointer<Int>
        /// Per text (`2i` name, `2i+1` handle): ``SearchIndex/mask(_:)`` of its key bytes.
        let masks: UnsafeBufferPointer<UInt64>
        /// Number of accounts.
        let count: Int

        init(_ accounts: [Account]) {
            var bytes: [UInt8] = []
            var classes: [UInt8] = []
            var starts: [Int] = []
            starts.reserveCapacity(accounts.count * 2 + 1)
            for account in accounts {
                starts.append(bytes.count)
                TextMatching.appendKey(of: account.name, to: &bytes, classes: &classes)
                starts.append(bytes.count)
                if let handle = account.handle { TextMatching.appendKey(of: handle, to: &bytes, classes: &classes) }
            }
            starts.append(bytes.count)
            count = accounts.count
            let masks = (0..<accounts.count * 2).map { SearchIndex.mask(bytes[starts[$0]..<starts[$0 + 1]]) }
            self.bytes = Self.owned(bytes)
            self.classes = Self.owned(classes)
            self.starts = Self.owned(starts)
            self.masks = Self.owned(masks)
        }

        /// A copy of `array` in memory this storage frees.
        private static func owned<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            return UnsafeBufferPointer(rebasing: buffer[..<array.count])
        }

        deinit {
            bytes.deallocate()
            classes.deallocate()
            starts.deallocate()
            masks.deallocate()
        }
    }

    private let storage: Storage

    public init(_ accounts: [Account]) { storage = Storage(accounts) }

    public static func == (lhs: SearchIndex, rhs: SearchIndex) -> Bool { true }

    /// The bytes present in `bytes`, one bit per byte value modulo 64: a text whose mask lacks a
    /// bit of the pattern's cannot hold the pattern's characters, and is passed over unscanned
    /// (a bit shared by two values only lets a text through to the alignment, which decides).
    static func mask(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for byte in bytes { mask |= 1 << UInt64(byte & 63) }
        return mask
    }
    public func hash(into hasher: inout Hasher) {}

    /// The accounts a filter matched: as the sheet lists them, and in config order.
    public struct Matches: Hashable, Sendable {
        /// Their rows, best first (see ``SearchIndex/matches(_:among:)``).
        public var rows: [SheetRow]
        /// Their indices in the accounts, ascending (config order). A filter that only grew
        /// can match no other account, so its search takes these as its candidates.
        public var indices: [Int32]
    }

    /// Rows of the accounts among `candidates` (indices, ascending) whose name or handle the
    /// pattern matches (``FuzzyMatcher``), best score first (an account scores its better text,
    /// the name on a tie); equal scores put the shorter text first, then keep config order, as
    /// fzf's default `--tiebreak=length`. Same rows as ``AccountsIndex/matches(of:in:)``.
    func matches(_ pattern: FuzzyPattern, among candidates: some Collection<Int>) -> [SheetRow] {
        search(pattern, among: candidates.lazy.map { Int32(truncatingIfNeeded: $0) }).rows
    }

    /// The accounts among `candidates` (indices, ascending) that the pattern matches: their rows
    /// ranked as ``matches(_:among:)`` ranks them, and their indices in config order. Indices
    /// that are not an account's (left from a list of accounts since replaced) are passed over.
    func search(_ pattern: FuzzyPattern, among candidates: some Collection<Int32>) -> Matches {
        let scratch = FuzzyMatcher.Scratch(pattern)
        let wanted = Self.mask(pattern.bytes)
        let (bytes, classes, starts, masks, count) = (storage.bytes, storage.classes, storage.starts, storage.masks, storage.count)
        // Written through raw buffers: appending 100,000 times checks uniqueness 300,000 times.
        let capacity = max(1, candidates.count)
        let scores = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        let lengths = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        let indices = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        defer {
            scores.deallocate()
            lengths.deallocate()
            indices.deallocate()
        }
        var found = 0
        for candidate in candidates {
            let index = Int(candidate)
            guard index >= 0 && index < count else { continue }
            let nameStart = starts[2 * index]
            let handleStart = starts[2 * index + 1]
            let handleEnd = starts[2 * index + 2]
            let name = masks[2 * index] & wanted == wanted ? FuzzyMatcher.score(bytes, classes, nameStart, handleStart, scratch) : nil
            // A handle can only tie a name that scored the most possible, and the name wins ties.
            let handle =
                name == scratch.bestPossible || masks[2 * index + 1] & wanted != wanted
                ? nil : FuzzyMatcher.score(bytes, classes, handleStart, handleEnd, scratch)
            if name == nil && handle == nil { continue }
            let byHandle = (handle ?? -1) > (name ?? -1)
            scores[found] = byHandle ? handle! : name!
            lengths[found] = UInt8(min(255, byHandle ? handleEnd - handleStart : handleStart - nameStart))
            indices[found] = candidate
            found += 1
        }
        let matched = Array(indices[..<found])
        let rows = Self.rankedRows(scores: Array(scores[..<found]), lengths: Array(lengths[..<found]), indices: matched)
        return Matches(rows: rows, indices: matched)
    }

    /// `indices` as rows by descending score, then ascending length (key bytes, at most 255),
    /// equals keeping their order: one counting sort on both when the scores' range is narrow
    /// (at most 256 values, or as many buckets as rows), else two, by length then by score
    /// (linear, where sorting 100,000 rows by comparison would cost milliseconds); a comparison
    /// sort when the range is wide.
    static func rankedRows(scores: [Int32], lengths: [UInt8], indices: [Int32]) -> [SheetRow] {
        guard let low = scores.min(), let high = scores.max() else { return [] }
        let range = Int(high) - Int(low) + 1
        guard range <= 1 << 16 else {
            return scores.indices.sorted {
                scores[$0] != scores[$1] ? scores[$0] > scores[$1] : lengths[$0] != lengths[$1] ? lengths[$0] < lengths[$1] : $0 < $1
            }.map { .account(Int(indices[$0])) }
        }
        if range * 256 <= max(1 << 16, scores.count) {
            // One counting sort on (score descending, length ascending): bucket (high - score) × 256 + length.
            var next = [Int](repeating: 0, count: range * 256 + 1)
            for position in scores.indices { next[(Int(high - scores[position]) << 8 | Int(lengths[position])) + 1] += 1 }
            for bucket in 1..<next.count { next[bucket] += next[bucket - 1] }
            return [SheetRow](unsafeUninitializedCapacity: scores.count) { rows, count in
                for position in scores.indices {
                    let bucket = Int(high - scores[position]) << 8 | Int(lengths[position])
                    (rows.baseAddress! + next[bucket]).initialize(to: .account(Int(indices[position])))
                    next[bucket] += 1
                }
                count = scores.count
            }
        }
        // By length: positions in ascending length, equal lengths in order.
        var next = [Int](repeating: 0, count: 257)
        for length in lengths { next[Int(length) + 1] += 1 }
        for bucket in 1..<next.count { next[bucket] += next[bucket - 1] }
        var byLength = [Int](repeating: 0, count: scores.count)
        for (position, length) in lengths.enumerated() {
            byLength[next[Int(length)]] = position
            next[Int(length)] += 1
        }
        // Then by score, descending: bucket b holds score high - b.
        next = [Int](repeating: 0, count: range + 1)
        for score in scores { next[Int(high - score) + 1] += 1 }
        for bucket in 1..<next.count { next[bucket] += next[bucket - 1] }
        // Each row initialised once, in place (no placeholder row assigned over).
        return [SheetRow](unsafeUninitializedCapacity: scores.count) { rows, count in
            for position in byLength {
                let bucket = Int(high - scores[position])
                (rows.baseAddress! + next[bucket]).initialize(to: .account(Int(indices[position])))
                next[bucket] += 1
            }
            count = scores.count
        }
    }
}
