#if canImport(Glibc)
    import Glibc
#endif

/// The kind of a JSON value (RFC 8259 §3).
public enum JSONKind: UInt8, Hashable, Sendable {
    case object, array, string, number, `true`, `false`, null
}

/// JSON text as read by ``JSONReader``: the text's bytes and every value in document order, each
/// with its byte range. Values are addressed by ``Index`` (the top-level value is ``root``);
/// strings and numbers are decoded only when asked for.
///
/// An object's children are its members in order, each a key (a string) followed by its value;
/// an array's children are its elements.
public struct JSONDocument: Sendable {
    /// The position of a value in the document.
    public typealias Index = Int

    /// The text read, byte order mark included.
    public let bytes: [UInt8]
    let nodes: [Node]

    /// One value: 20 bytes, so that a config of 100,000 accounts costs about 14 MB while read.
    struct Node: Sendable {
        var kind: JSONKind
        /// For strings: whether the text holds a backslash escape.
        var escaped: Bool
        /// Byte offset of the value's first byte (a quote, a bracket, a digit...).
        var start: UInt32
        /// Byte offset one past the value's last byte.
        var end: UInt32
        /// The index of the first node after this value and everything inside it.
        var next: UInt32
        /// Members of an object, elements of an array.
        var count: UInt32
    }

    /// The top-level value.
    public var root: Index { 0 }

    public func kind(_ value: Index) -> JSONKind { nodes[value].kind }

    /// The value's bytes: from its first byte (a quote, bracket, digit...) to one past its last.
    public func range(_ value: Index) -> Range<Int> { Int(nodes[value].start)..<Int(nodes[value].end) }

    /// Members of an object, elements of an array, 0 for anything else.
    public func count(_ value: Index) -> Int { Int(nodes[value].count) }

    /// The elements of an array, in order (empty for anything else).
    public func elements(_ array: Index) -> [Index] {
        guard nodes[array].kind == .array else { return [] }
        var result: [Index] = []
        result.reserveCapacity(Int(nodes[array].count))
        var child = array + 1
        for _ in 0..<nodes[array].count {
            result.append(child)
            child = Int(nodes[child].next)
        }
        return result
    }

    /// The members of an object, in order: each key's index and its value's (empty for anything else).
    public func members(_ object: Index) -> [(key: Index, value: Index)] {
        guard nodes[object].kind == .object else { return [] }
        var result: [(key: Index, value: Index)] = []
        result.reserveCapacity(Int(nodes[object].count))
        var key = object + 1
        for _ in 0..<nodes[object].count {
            result.append((key, key + 1))
            key = Int(nodes[key + 1].next)
        }
        return result
    }

    /// The value of member `name` of an object (keys are unique: the reader refuses repeats).
    public func value(of object: Index, forKey name: String) -> Index? {
        guard nodes[object].kind == .object else { return nil }
        var key = object + 1
        for _ in 0..<nodes[object].count {
            if keyEquals(key, name) { return key + 1 }
            key = Int(nodes[key + 1].next)
        }
        return nil
    }

    /// Whether string `key` reads `name`; compares bytes when the key holds no escape.
    public func keyEquals(_ key: Index, _ name: String) -> Bool {
        let node = nodes[key]
        guard node.kind == .string else { return false }
        if node.escaped { return string(key) == name }
        var name = name
        return name.withUTF8 { utf8 in
            guard utf8.count == Int(node.end - node.start) - 2 else { return false }
            var i = Int(node.start) + 1
            for byte in utf8 {
                if bytes[i] != byte { return false }
                i += 1
            }
            return true
        }
    }

    /// Whether strings `a` and `b` hold the same text, compared code unit by code unit (RFC 8259
    /// §8.3); bytes are compared when neither holds an escape.
    public func stringsEqual(_ a: Index, _ b: Index) -> Bool {
        let x = nodes[a]
        let y = nodes[b]
        if !x.escaped, !y.escaped {
            let length = Int(x.end - x.start)
            guard length == Int(y.end - y.start) else { return false }
            return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + Int(x.start), $0.baseAddress! + Int(y.start), length) == 0 }
        }
        return string(a).map { Array($0.utf8) } == string(b).map { Array($0.utf8) }
    }

    /// A hash of string `value`'s text (FNV-1a over its UTF-8), equal for strings that are
    /// ``stringsEqual(_:_:)``; for tables that look strings up without making a `String`.
    public func stringHash(_ value: Index) -> UInt64 {
        let node = nodes[value]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if node.escaped {
            for byte in (string(value) ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        return bytes.withUnsafeBufferPointer { buffer in
            for i in Int(node.start + 1)..<Int(node.end - 1) { hash = (hash ^ UInt64(buffer[i])) &* 0x100_0000_01b3 }
            return hash
        }
    }

    /// The first child of an array or object (its first element, or its first member's key),
    /// and each child's next sibling: for walking without making an array of indices.
    public func firstChild(_ value: Index) -> Index? { nodes[value].count > 0 ? value + 1 : nil }

    /// The index after `value` and everything inside it: its next sibling, when it has one.
    public func after(_ value: Index) -> Index { Int(nodes[value].next) }

    /// A string's text, escapes decoded; nil for a value that is not a string.
    public func string(_ value: Index) -> String? {
        guard nodes[value].kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer { Self.decodeString($0, nodes[value]) }
    }

    /// A number's text as written (`-1.5e3`); nil for a value that is not a number.
    public func numberText(_ value: Index) -> Substring? {
        guard nodes[value].kind == .number else { return nil }
        return Substring(decoding: bytes[range(value)], as: UTF8.self)
    }

    /// A number as the nearest `Double` (±infinity beyond its range); nil for a value that is
    /// not a number.
    public func double(_ value: Index) -> Double? {
        numberText(value).flatMap { Double($0) }
    }

    /// A number written as a whole number without fraction or exponent (`-12`) that fits an
    /// `Int`; nil otherwise.
    public func integer(_ value: Index) -> Int? {
        guard let text = numberText(value), !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return nil }
        return Int(text)
    }

    /// The value of a number written with a fraction or an exponent (`1.0`, `1e0`) when it is a
    /// whole number within ±2^53, or nil.
    public func wholeNumber(_ value: Index) -> Int? {
        guard let text = numberText(value), let number = Double(text), number.rounded() == number, abs(number) <= 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }

    /// 1-based line and column (in Unicode scalars) of byte `offset`.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { JSONSyntaxError.position(of: offset, in: $0) }
    }

    /// Lines and columns of many offsets: the line starts are found once.
    public struct Positions: Sendable {
        let document: JSONDocument
        var lineStarts: [Int] = [0]

        public init(_ document: JSONDocument) {
            self.document = document
            for (i, byte) in document.bytes.enumerated() where byte == 0x0A { lineStarts.append(i + 1) }
        }

        /// 1-based line and column (in Unicode scalars) of byte `offset`.
        public func position(of offset: Int) -> (line: Int, column: Int) {
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            let column = document.bytes.withUnsafeBufferPointer {
                JSONDocument.column(of: offset, lineStart: lineStarts[low], in: $0)
            }
            return (low + 1, column)
        }
    }

    /// 1-based column of `offset` on the line starting at `lineStart`: Unicode scalars before it,
    /// plus one; a byte order mark at the very start of the text is not counted.
    static func column(of offset: Int, lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        var i = lineStart
        if i == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF, offset >= 3 { i = 3 }
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The text of a string node the reader accepted (so escapes and UTF-8 are known good).
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ node: Node) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[Int(node.start + 1)..<Int(node.end - 1)])
        guard node.escaped else { return String(decoding: inner, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(inner.count)
        var i = 0
        func unit(at offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for k in 0..<4 { value = value * 16 + (hexValue(inner[offset + k]) ?? 0) }
            return value
        }
        while i < inner.count {
            let byte = inner[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let e = inner[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = unit(at: i)
                i += 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    let low = unit(at: i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")!)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` in double quotes, for messages (quotes, backslashes and controls escaped).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
