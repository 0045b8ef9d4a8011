/// A line-based reading of the few YAML keys `perch audit` needs from kubeconfig files and
/// gh's `hosts.yml`: block mappings and block sequences of plain or quoted scalars, one
/// `key: value` per line, as kubectl and gh write them (YAML 1.2, "Block Collection Styles").
/// It is not a YAML parser: flow collections (`{…}`, `[…]`), anchors, multi-line plain scalars
/// and keys spanning lines are not read; such a line is reported by number (``Entry`` is not
/// made for it) and the reading goes on with the next line. Block scalars (`key: |`) are
/// skipped whole. A line's text is never kept in a problem: it may hold a secret.
struct YAMLKeyLines {
    /// One `key: value` line.
    struct Entry: Equatable {
        /// 1-based line number.
        var line: Int
        /// The keys from the top of the document to this one; a block sequence's item is `-`.
        var path: [String]
        /// The scalar after the colon, its quotes and trailing comment removed; "" when none
        /// (the key opens a nested mapping or sequence).
        var value: String
        /// The outermost sequence item the line belongs to (a number unique in the file), or
        /// nil outside any sequence: the entries of one kubeconfig `users` item share it.
        var item: Int?
        /// The key: the last of ``path``.
        var key: String { path.last ?? "" }
    }

    /// A line that could not be read, by number, and why (never its text).
    struct Problem: Equatable {
        var line: Int
        var reason: String
    }

    var entries: [Entry] = []
    var problems: [Problem] = []

    init(_ text: String) {
        var stack: [(indent: Int, key: String, item: Int?)] = []
        var nextItem = 0
        var blockScalarIndent: Int?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = rawLine
            if line.last == "\r" { line = line.dropLast() }
            if number == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let indentCount = line.prefix { $0 == " " }.count
            var body = line.dropFirst(indentCount)
            if let block = blockScalarIndent {
                if body.isEmpty || indentCount > block { continue }
                blockScalarIndent = nil
            }
            if body.allSatisfy({ $0 == " " || $0 == "\t" }) || body.hasPrefix("#") { continue }
            if indentCount == 0, body.hasPrefix("---") || body.hasPrefix("...") || body.hasPrefix("%") { continue }
            if body.hasPrefix("\t") {
                problems.append(Problem(line: number, reason: "indented with a tab, which YAML does not allow"))
                continue
            }
            var indent = indentCount
            // A sequence may sit at its key's own indent (`users:` then `- name: …`, as kubectl
            // writes it): a dash keeps a key of the same indent open.
            let dash = body == "-" || body.hasPrefix("- ")
            while let last = stack.last, last.indent > indent || (last.indent == indent && !(dash && last.key != "-")) {
                stack.removeLast()
            }
            // `- ` items, perhaps nested on one line (`- - a`): each opens a sequence item.
            while body == "-" || body.hasPrefix("- ") {
                let item: Int
                if let outer = stack.first(where: { $0.key == "-" })?.item {
                    item = outer
                } else {
                    item = nextItem
                    nextItem += 1
                }
                stack.append((indent, "-", item))
                let rest = body.dropFirst()
                let spaces = rest.prefix { $0 == " " }.count
                indent += 1 + spaces
                body = rest.dropFirst(spaces)
            }
            if body.isEmpty { continue }
            if let first = body.first, first == "{" || first == "[" || first == "&" || first == "*" || first == "!" {
                problems.append(Problem(line: number, reason: "a flow collection, anchor or tag, which Perch does not read"))
                continue
            }
            guard let (key, value) = Self.keyAndValue(body) else {
                // A plain scalar as a sequence item (`- a`) is fine; elsewhere the line is not read.
                if stack.last?.key != "-" {
                    problems.append(Problem(line: number, reason: "not a `key: value` line"))
                }
                continue
            }
            let item = stack.first { $0.key == "-" }?.item
            let path = stack.map(\.key) + [key]
            entries.append(Entry(line: number, path: path, value: value, item: item))
            if value.hasPrefix("|") || value.hasPrefix(">") {
                blockScalarIndent = indent
            } else if value.isEmpty {
                stack.append((indent, key, item))
            }
        }
    }

    /// `key: value` split at the first colon followed by a space or the end, outside quotes.
    private static func keyAndValue(_ body: Substring) -> (String, String)? {
        var key: String
        var rest: Substring
        if let quote = body.first, quote == "\"" || quote == "'" {
            guard let close = body.dropFirst().firstIndex(of: quote) else { return nil }
            key = String(body[body.index(after: body.startIndex)..<close])
            rest = body[body.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            rest = rest.dropFirst()
            guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        } else {
            var found: String.Index?
            var position = body.startIndex
            while position < body.endIndex {
                if body[position] == ":" {
                    let next = body.index(after: position)
                    if next == body.endIndex || body[next] == " " || body[next] == "\t" {
                        found = position
                        break
                    }
                }
                if body[position] == "#", position > body.startIndex, body[body.index(before: position)] == " " { return nil }
                position = body.index(after: position)
            }
            guard let colon = found else { return nil }
            key = String(body[..<colon]).trimmingWhitespace
            rest = body[body.index(after: colon)...]
        }
        guard !key.isEmpty else { return nil }
        let value = ToolReaders.unquoted(rest)
        return (key, value.hasPrefix("#") ? "" : value)
    }
}
