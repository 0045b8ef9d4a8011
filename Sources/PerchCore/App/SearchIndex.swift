/// The accounts' names and handles as match keys (``TextMatching/key(_:)``: ASCII letters
/// lower-cased, other text decomposed, case-folded and without nonspacing marks), with each
/// byte's character class beside it, in two byte buffers, so that a filter keystroke over
/// 100,000 accounts scans bytes instead of 200,000 strings. Built when a sheet's filter opens;
/// derived from the accounts, so it takes no part in equality.
public struct SearchIndex: Hashable, Sendable {
    private final class Storage: Sendable {
        /// Every account's name then handle, as match keys.
        let bytes: [UInt8]
        /// The ``TextMatching/CharacterClass`` of the character each byte of ``bytes`` came from.
        let classes: [UInt8]
        /// Where account `i`'s name starts (`starts[2i]`) and its handle starts (`starts[2i+1]`);
        /// the last element is the end of the buffer.
        let starts: [Int]

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
            self.bytes = bytes
            self.classes = classes
            self.starts = starts
        }
    }

    private let storage: Storage

    public init(_ accounts: [Account]) { storage = Storage(accounts) }

    public static func == (lhs: SearchIndex, rhs: SearchIndex) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    /// Rows of the accounts among `candidates` (indices, ascending) whose name or handle the
    /// pattern matches (``FuzzyMatcher``), best score first (an account scores its better text,
    /// the name on a tie); equal scores put the shorter text first, then keep config order, as
    /// fzf's default `--tiebreak=length`. Same rows as ``AccountsIndex/matches(of:in:)``.
    func matches(_ pattern: FuzzyPattern, among candidates: some Sequence<Int>) -> [SheetRow] {
        var scores: [Int32] = []
        var lengths: [UInt8] = []
        var indices: [Int32] = []
        let scratch = FuzzyMatcher.Scratch(pattern)
        storage.bytes.withUnsafeBufferPointer { bytes in
            storage.classes.withUnsafeBufferPointer { classes in
                storage.starts.withUnsafeBufferPointer { starts in
                    for index in candidates {
                        let nameStart = starts[2 * index]
                        let handleStart = starts[2 * index + 1]
                        let handleEnd = starts[2 * index + 2]
                        let name = FuzzyMatcher.align(bytes, classes, nameStart, handleStart, scratch)
                        // A handle can only tie a name that scored the most possible, and the name wins ties.
                        let handle =
                            name == scratch.bestPossible ? nil : FuzzyMatcher.align(bytes, classes, handleStart, handleEnd, scratch)
                        if name == nil && handle == nil { continue }
                        let byHandle = (handle ?? -1) > (name ?? -1)
                        scores.append(byHandle ? handle! : name!)
                        lengths.append(UInt8(min(255, byHandle ? handleEnd - handleStart : handleStart - nameStart)))
                        indices.append(Int32(index))
                    }
                }
            }
        }
        return Self.rankedRows(scores: scores, lengths: lengths, indices: indices)
    }

    /// `indices` as rows by descending score, then ascending length (key bytes, at most 255),
    /// equals keeping their order: two counting sorts, by length then by score (linear, where
    /// sorting 100,000 rows by comparison would cost milliseconds); a comparison sort when the
    /// scores' range is wide.
    static func rankedRows(scores: [Int32], lengths: [UInt8], indices: [Int32]) -> [SheetRow] {
        guard let low = scores.min(), let high = scores.max() else { return [] }
        let range = Int(high) - Int(low) + 1
        guard range <= 1 << 16 else {
            return scores.indices.sorted {
                scores[$0] != scores[$1] ? scores[$0] > scores[$1] : lengths[$0] != lengths[$1] ? lengths[$0] < lengths[$1] : $0 < $1
            }.map { .account(Int(indices[$0])) }
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
        var rows = [SheetRow](repeating: .addAccount, count: scores.count)
        for position in byLength {
            let bucket = Int(high - scores[position])
            rows[next[bucket]] = .account(Int(indices[position]))
            next[bucket] += 1
        }
        return rows
    }
}
