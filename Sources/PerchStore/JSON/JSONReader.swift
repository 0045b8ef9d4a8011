/// Reads JSON text in one pass into a ``JSONDocument``: every value with its byte range, so that
/// messages can give a line and column and a writer can edit the text in place.
///
/// The grammar is RFC 8259's, strict by default: UTF-8 text (RFC 3629: no overlong forms, no
/// surrogates), no comments, no trailing commas, no leading zeros, `\u` escapes with surrogates in
/// pairs, at most 512 nested arrays and objects. Duplicate keys inside one object are an error
/// naming both places (RFC 8259 §4 leaves them to the reader; a silent winner hides mistakes).
/// ``Options/jsonWithComments`` adds the one extension of JSON with Comments (JSONC): `//` and
/// `/* */` comments wherever white space may be, and one trailing comma before `]` or `}`.
/// A UTF-8 byte order mark at the start is skipped; byte offsets still count it.
public enum JSONReader {
    /// What the reader accepts beyond RFC 8259.
    public struct Options: Hashable, Sendable {
        /// `//` and `/* */` comments, and a trailing comma before `]` or `}` (JSON with Comments).
        public var allowsCommentsAndTrailingCommas: Bool

        /// RFC 8259 and nothing else.
        public static let strict = Options(allowsCommentsAndTrailingCommas: false)
        /// RFC 8259 plus comments and trailing commas, as hand-edited configs use them.
        public static let jsonWithComments = Options(allowsCommentsAndTrailingCommas: true)
    }

    /// The deepest nesting of arrays and objects accepted (the top-level value is depth 0).
    public static let maximumDepth = 512

    /// The largest text accepted, in bytes (offsets are kept in 32 bits).
    public static let maximumLength = Int(UInt32.max) - 1

    /// Reads `bytes` as one JSON value.
    /// - Throws: ``JSONSyntaxError`` at the first place the text breaks the grammar (or repeats a key).
    public static func read(_ bytes: [UInt8], options: Options = .strict) throws(JSONSyntaxError) -> JSONDocument {
        guard bytes.count <= maximumLength else {
            throw JSONSyntaxError(offset: 0, in: bytes, message: "the text is too large to read")
        }
        let result: Result<[JSONDocument.Node], Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(buffer, comments: options.allowsCommentsAndTrailingCommas)
            do throws(Failure) {
                try parser.document()
                return .success(parser.nodes)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let nodes): return JSONDocument(bytes: bytes, nodes: nodes)
        case .failure(let failure): throw JSONSyntaxError(offset: failure.offset, in: bytes, message: failure.message)
        }
    }

    /// Byte offset of the first thing after `offset` that is neither white space nor (with
    /// `comments`) a comment; `bytes.count` at the end. Used by writers that edit around values.
    public static func skippingTrivia(in bytes: [UInt8], from offset: Int, comments: Bool) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(buffer, comments: comments)
            parser.index = offset
            do throws(Failure) { try parser.skipTrivia() } catch { return bytes.count }
            return parser.index
        }
    }

    /// By byte value: whether the byte stands for itself inside a string, as printable ASCII
    /// other than `"` and `\\` does (0x7F too); a table, so that the loop over a string's bytes
    /// takes one test a byte. Made once, never written again nor freed (so shared safely).
    nonisolated(unsafe) static let plainStringBytes: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C }
        return UnsafePointer(table)
    }()

    struct Failure: Error {
        var offset: Int
        var message: String
    }

    /// The recursive-descent parser over the text's bytes.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let comments: Bool
        var index = 0
        var nodes: [JSONDocument.Node] = []
        /// ``JSONReader/plainStringBytes``, looked up once per parser rather than once per string.
        let plain = JSONReader.plainStringBytes

        init(_ bytes: UnsafeBufferPointer<UInt8>, comments: Bool) {
            self.bytes = bytes
            self.comments = comments
            nodes.reserveCapacity(bytes.count / 8 + 4)
        }

        func fail(_ message: String, at offset: Int? = nil) -> Failure {
            Failure(offset: offset ?? index, message: message)
        }

        mutating func document() throws(Failure) {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            try skipTrivia()
            try value(depth: 0)
            try skipTrivia()
            if index < bytes.count { throw unexpected("unexpected text after the end of the JSON value") }
        }

        /// A failure at `index`, unless the byte there starts ill-formed UTF-8 (that is said first).
        func unexpected(_ message: String) -> Failure {
            if index < bytes.count, bytes[index] >= 0x80, utf8Length(at: index) == 0 {
                return fail("invalid UTF-8 (the file must be UTF-8 text)")
            }
            return fail(message)
        }

        @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        /// Steps over white space and (with `comments`) comments. White space alone, the common
        /// case, is skipped here; a comment is left to ``skipComments()``.
        @inline(__always) mutating func skipTrivia() throws(Failure) {
            var i = index
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
            index = i
            if comments, i < bytes.count, bytes[i] == UInt8(ascii: "/") { try skipComments() }
        }

        /// Steps over comments and the white space between them.
        mutating func skipComments() throws(Failure) {
            while index < bytes.count {
                let byte = bytes[index]
                if Self.isSpace(byte) {
                    index += 1
                } else if comments, byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    index += 2
                    while index < bytes.count, bytes[index] != 0x0A { try skipCommentByte() }
                } else if comments, byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    let start = index
                    index += 2
                    while true {
                        guard index < bytes.count else { throw fail("unexpected end of file inside a comment", at: start) }
                        if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                            index += 2
                            break
                        }
                        try skipCommentByte()
                    }
                } else {
                    return
                }
            }
        }

        /// Steps over one character of a comment, which must be UTF-8 as the rest of the text.
        @inline(__always) mutating func skipCommentByte() throws(Failure) {
            if bytes[index] < 0x80 {
                index += 1
                return
            }
            let length = utf8Length(at: index)
            guard length > 0 else { throw fail("invalid UTF-8 (the file must be UTF-8 text)") }
            index += length
        }

        /// The length of the well-formed UTF-8 sequence at `offset` (RFC 3629 §4), or 0.
        func utf8Length(at offset: Int) -> Int {
            let b0 = bytes[offset]
            if b0 < 0x80 { return 1 }
            func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
                offset + k < bytes.count && bytes[offset + k] >= low && bytes[offset + k] <= high
            }
            switch b0 {
            case 0xC2...0xDF: return continuation(1) ? 2 : 0
            case 0xE0: return continuation(1, 0xA0) && continuation(2) ? 3 : 0
            case 0xED: return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
            case 0xE1...0xEF: return continuation(1) && continuation(2) ? 3 : 0
            case 0xF0: return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF4: return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
            default: return 0
            }
        }

        mutating func append(_ kind: JSONKind, start: Int, end: Int, escaped: Bool = false) {
            let next = UInt32(nodes.count + 1)
            nodes.append(
                JSONDocument.Node(kind: kind, escaped: escaped, start: UInt32(start), end: UInt32(end), next: next, count: 0))
        }

        @inline(__always) mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
            guard index < bytes.count, bytes[index] == byte else { throw missing(what) }
            index += 1
        }

        /// The failure where ``expect(_:_:)`` did not find `what`.
        @inline(never) func missing(_ what: String) -> Failure {
            guard index < bytes.count else { return fail("unexpected end of file, expected \(what)") }
            return unexpected("expected \(what)")
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < JSONReader.maximumDepth else { throw fail("nested too deeply") }
            guard index < bytes.count else { throw fail("unexpected end of file, expected a value") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""):
                let escaped = try string()
                append(.string, start: start, end: index, escaped: escaped)
            case UInt8(ascii: "t"):
                try literal("true")
                append(.true, start: start, end: index)
            case UInt8(ascii: "f"):
                try literal("false")
                append(.false, start: start, end: index)
            case UInt8(ascii: "n"):
                try literal("null")
                append(.null, start: start, end: index)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
                append(.number, start: start, end: index)
            default:
                throw unexpected("expected a value (object, array, string, number, true, false or null)")
            }
        }

        /// Ends the array or object whose node is `node`: its end, its count, where its subtree ends.
        mutating func close(_ node: Int, count: Int) {
            index += 1
            nodes[node].end = UInt32(index)
            nodes[node].count = UInt32(count)
            nodes[node].next = UInt32(nodes.count)
        }

        mutating func object(depth: Int) throws(Failure) {
            let node = nodes.count
            append(.object, start: index, end: index)
            index += 1
            var count = 0
            try skipTrivia()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return close(node, count: 0) }
            while true {
                try skipTrivia()
                guard index < bytes.count else { throw fail("unexpected end of file, expected a key") }
                if comments, count > 0, bytes[index] == UInt8(ascii: "}") { return close(node, count: count) }
                guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected("expected a key in double quotes") }
                let keyStart = index
                let escaped = try string()
                let key = nodes.count
                append(.string, start: keyStart, end: index, escaped: escaped)
                try checkDuplicate(key, inObject: node, count: count)
                try skipTrivia()
                try expect(UInt8(ascii: ":"), "':' after the key")
                try skipTrivia()
                if depth + 1 < JSONReader.maximumDepth, index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    // A string, most members' value, read here as ``value(depth:)`` would.
                    let start = index
                    let escaped = try string()
                    append(.string, start: start, end: index, escaped: escaped)
                } else {
                    try value(depth: depth + 1)
                }
                count += 1
                try skipTrivia()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                index -= 1
                return close(node, count: count)
            }
        }

        /// Throws when key node `key` repeats one of the first `count` keys of object node `object`.
        func checkDuplicate(_ key: Int, inObject object: Int, count: Int) throws(Failure) {
            let new = nodes[key]
            var oldKey = object + 1
            for _ in 0..<count {
                let old = nodes[oldKey]
                if sameKey(old, new) {
                    let name = JSONDocument.decodeString(bytes, new)
                    let (line, column) = JSONSyntaxError.position(of: Int(old.start), in: bytes)
                    throw fail(
                        "duplicate key \(JSONDocument.quoted(name)) (first at line \(line), column \(column))", at: Int(new.start))
                }
                oldKey = Int(nodes[oldKey + 1].next)
            }
        }

        @inline(__always) func sameKey(_ a: JSONDocument.Node, _ b: JSONDocument.Node) -> Bool {
            if !a.escaped, !b.escaped {
                let length = a.end - a.start
                guard length == b.end - b.start else { return false }
                return memcmp(bytes.baseAddress! + Int(a.start), bytes.baseAddress! + Int(b.start), Int(length)) == 0
            }
            return JSONDocument.decodeString(bytes, a).utf8.elementsEqual(JSONDocument.decodeString(bytes, b).utf8)
        }

        mutating func array(depth: Int) throws(Failure) {
            let node = nodes.count
            append(.array, start: index, end: index)
            index += 1
            var count = 0
            try skipTrivia()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return close(node, count: 0) }
            while true {
                try skipTrivia()
                if comments, count > 0, index < bytes.count, bytes[index] == UInt8(ascii: "]") { return close(node, count: count) }
                try value(depth: depth + 1)
                count += 1
                try skipTrivia()
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                index -= 1
                return close(node, count: count)
            }
        }

        /// Reads the string whose opening quote is at `index`; returns whether it holds an escape.
        mutating func string() throws(Failure) -> Bool {
            // Printable ASCII other than a quote or a backslash, the common case, in a tight loop.
            var i = index + 1
            while i < bytes.count, plain[Int(bytes[i])] { i += 1 }
            index = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                index += 1
                return false
            }
            return try stringRest()
        }

        /// Reads the rest of a string from `index`, which is inside it; returns whether it holds an escape.
        mutating func stringRest() throws(Failure) -> Bool {
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return escaped
                case UInt8(ascii: "\\"):
                    escaped = true
                    try escape()
                case 0x00..<0x20:
                    throw fail("control character in string (write it as an escape)")
                default:
                    let length = utf8Length(at: index)
                    guard length > 0 else { throw fail("invalid UTF-8 (the file must be UTF-8 text)") }
                    index += length
                }
            }
            throw fail("unexpected end of file inside a string")
        }

        /// Reads the escape whose backslash is at `index`.
        mutating func escape() throws(Failure) {
            let start = index
            index += 1
            guard index < bytes.count else { throw fail("unexpected end of file inside a string") }
            let e = bytes[index]
            if e == UInt8(ascii: "u") {
                let unit = try hexUnit()
                if unit >= 0xD800, unit <= 0xDBFF {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in \\u escape", at: start)
                    }
                    index += 1
                    let low = try hexUnit()
                    guard low >= 0xDC00, low <= 0xDFFF else { throw fail("unpaired surrogate in \\u escape", at: start) }
                } else if unit >= 0xDC00, unit <= 0xDFFF {
                    throw fail("unpaired surrogate in \\u escape", at: start)
                }
                return
            }
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            default:
                throw fail("invalid escape in string")
            }
        }

        /// Reads `uXXXX` (index on the `u`); leaves index after the last digit; returns the code unit.
        mutating func hexUnit() throws(Failure) -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                index += 1
                guard index < bytes.count, let digit = JSONDocument.hexValue(bytes[index]) else {
                    throw fail("expected four hex digits after \\u")
                }
                unit = unit * 16 + digit
            }
            index += 1
            return unit
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for expected in text {
                guard index < bytes.count, bytes[index] == expected else { throw fail("expected \(word)") }
                index += 1
            }
        }

        mutating func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }

        mutating func number() throws(Failure) {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                throw fail("expected a digit")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                if digits() == 0 { throw fail("expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                if digits() == 0 { throw fail("expected a digit in the exponent") }
            }
        }
    }
}

/// Where JSON text breaks the grammar: 1-based `line` and `column` (in Unicode scalars), the byte
/// `offset`, and what was expected.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String

    init(offset: Int, in bytes: [UInt8], message: String) {
        self.offset = offset
        (line, column) = bytes.withUnsafeBufferPointer { Self.position(of: offset, in: $0) }
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }

    /// 1-based line and column (counted in Unicode scalars) of byte `offset`; a byte order mark
    /// at the start is not a column.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, JSONDocument.column(of: offset, lineStart: lineStart, in: bytes))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
