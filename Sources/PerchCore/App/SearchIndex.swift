/// The accounts' names and handles as match keys (``TextMatching/key(_:)``: ASCII letters
/// lower-cased, other text decomposed, case-folded and without nonspacing marks), in one byte buffer, so that a
/// filter keystroke over 100,000 accounts scans bytes instead of 200,000 strings. Built when a
/// sheet's filter opens; derived from the accounts, so it takes no part in equality.
public struct SearchIndex: Hashable, Sendable {
    private final class Storage: Sendable {
        /// Every account's name then handle, as match keys.
        let bytes: [UInt8]
        /// Where account `i`'s name starts (`starts[2i]`) and its handle starts (`starts[2i+1]`);
        /// the last element is the end of the buffer.
        let starts: [Int]

        init(_ accounts: [Account]) {
            var bytes: [UInt8] = []
            var starts: [Int] = []
            starts.reserveCapacity(accounts.count * 2 + 1)
            for account in accounts {
                for text in [account.name, account.handle ?? ""] {
                    starts.append(bytes.count)
                    TextMatching.appendKey(of: text, to: &bytes)
                }
            }
            starts.append(bytes.count)
            self.bytes = bytes
            self.starts = starts
        }
    }

    private let storage: Storage

    public init(_ accounts: [Account]) { storage = Storage(accounts) }

    public static func == (lhs: SearchIndex, rhs: SearchIndex) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    /// Rows of the accounts among `candidates` (indices, ascending) whose name or handle contains
    /// `needle` (a match key): those where either starts with it (a handle also after
    /// its `@`) first, each part in ascending order. Same verdicts as ``AccountsIndex/match(_:_:)``.
    func matches(_ needle: [UInt8], among candidates: some Sequence<Int>) -> [SheetRow] {
        var prefixMatches: [SheetRow] = []
        var otherMatches: [SheetRow] = []
        storage.bytes.withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { needle in
                for index in candidates {
                    let name = Self.match(needle, bytes, storage.starts[2 * index], storage.starts[2 * index + 1])
                    let handle = Self.match(needle, bytes, storage.starts[2 * index + 1], storage.starts[2 * index + 2])
                    if name == .prefix || handle == .prefix {
                        prefixMatches.append(.account(index))
                    } else if name != nil || handle != nil {
                        otherMatches.append(.account(index))
                    }
                }
            }
        }
        return prefixMatches + otherMatches
    }

    /// Whether `needle` occurs in `bytes[start..<end]`, and where.
    private static func match(_ needle: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
        -> AccountsIndex.FilterMatch?
    {
        let count = needle.count
        guard end - start >= count, count > 0, end > start else { return nil }
        let first = needle[0]
        var position = start
        while position <= end - count {
            if bytes[position] == first {
                var i = 1
                while i < count, bytes[position + i] == needle[i] { i += 1 }
                if i == count {
                    return position == start || (position == start + 1 && bytes[start] == 0x40) ? .prefix : .contained
                }
            }
            position += 1
        }
        return nil
    }
}
