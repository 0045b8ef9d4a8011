extension Account {
    /// The ids and names nearest to `text` by edit distance, for "did you mean …?" after a typo.
    ///
    /// Distance is the optimal string alignment distance (insertions, deletions, substitutions
    /// and swaps of two neighbours, each 1) between Unicode scalars, ignoring case. Only
    /// words within 1 edit (texts of up to 3 scalars), 2 (up to 6) or 3 (longer) are suggested,
    /// and only those at the smallest distance found, in config order, at most `limit`.
    /// An id and a name of one account that are both nearest give one suggestion, the id.
    /// - Returns: the suggested ids or names as written in the config; empty when none is near.
    public static func suggestions(for text: String, in accounts: [Account], limit: Int = 3) -> [String] {
        let typed = Array(text.lowercased().unicodeScalars)
        let allowed = typed.count <= 3 ? 1 : typed.count <= 6 ? 2 : 3
        var best = allowed + 1
        var found: [String] = []
        for account in accounts {
            var nearest: (distance: Int, word: String)?
            for word in [account.id, account.name] {
                let candidate = Array(word.lowercased().unicodeScalars)
                guard abs(candidate.count - typed.count) <= allowed else { continue }
                let distance = editDistance(typed, candidate)
                if distance < (nearest?.distance ?? Int.max) { nearest = (distance, word) }
            }
            guard let nearest, nearest.distance <= allowed, nearest.distance <= best else { continue }
            if nearest.distance < best {
                best = nearest.distance
                found = []
            }
            if !found.contains(nearest.word) { found.append(nearest.word) }
        }
        return Array(found.prefix(limit))
    }

    /// Optimal string alignment distance between `a` and `b` (Damerau–Levenshtein without
    /// edits to a swapped pair).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousRow[j - 2] + 1)
                }
                current[j] = value
            }
            (previousRow, row, current) = (row, current, previousRow)
        }
        return row[b.count]
    }
}
