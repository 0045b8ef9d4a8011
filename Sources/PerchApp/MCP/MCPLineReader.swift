/// MCP's stdio transport cut into messages: one per line (newline-delimited, no embedded
/// newline), each at most `limit` bytes. A longer line is never held whole: its bytes are
/// dropped as they come, and it is reported once, at its end, as ``Item/tooLong``. Pure: fed
/// chunks of any size, so tests cover a message split at every byte.
struct MCPLineReader {
    /// What the input held.
    enum Item: Equatable, Sendable {
        /// One line, without its newline (or its carriage return before it).
        case line([UInt8])
        /// A line longer than the limit, skipped.
        case tooLong
    }

    /// The longest line kept, in bytes.
    let limit: Int
    private var pending: [UInt8] = []
    private var skipping = false

    init(limit: Int = MCPServer.maximumMessageBytes) { self.limit = limit }

    /// The lines that `chunk` completes, in order.
    mutating func feed(_ chunk: ArraySlice<UInt8>) -> [Item] {
        var items: [Item] = []
        var rest = chunk
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let part = rest[rest.startIndex..<(newline ?? rest.endIndex)]
            if !skipping {
                if pending.count + part.count > limit + 1 {  // + 1: a carriage return before the newline
                    skipping = true
                    pending = []
                } else {
                    pending.append(contentsOf: part)
                }
            }
            guard let newline else { break }
            items.append(finishLine())
            rest = rest[(newline + 1)...]
        }
        return items
    }

    /// The last line, when the input ended without a newline after it.
    mutating func finish() -> [Item] {
        skipping || !pending.isEmpty ? [finishLine()] : []
    }

    private mutating func finishLine() -> Item {
        defer {
            pending = []
            skipping = false
        }
        if skipping { return .tooLong }
        if pending.last == 0x0D { pending.removeLast() }
        return pending.count > limit ? .tooLong : .line(pending)
    }
}
