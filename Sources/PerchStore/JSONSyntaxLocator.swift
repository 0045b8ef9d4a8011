/// Finds where a JSON text first breaks the grammar of RFC 8259, for error messages with a line
/// and column. Foundation's decoders say only that the data "was not valid JSON"; this is the
/// one hand-written piece of JSON handling, and it only locates the error: decoding stays with
/// `JSONDecoder`.
public enum JSONSyntaxLocator {
    /// A syntax error: 1-based `line` and `column` (in characters) and what was expected.
    public struct Problem: Hashable, Sendable, Error {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The first syntax error in `bytes`, or nil when they are one valid JSON value.
    public static func firstProblem(in bytes: [UInt8]) -> Problem? {
        if let offset = firstInvalidUTF8(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            return Problem(line: line, column: column, message: "invalid UTF-8 (the file must be UTF-8 text)")
        }
        var scanner = Scanner(bytes: bytes)
        do {
            scanner.skipWhitespace()
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.index < bytes.count { throw scanner.fail("unexpected text after the end of the JSON value") }
            return nil
        } catch let failure as Failure {
            let (line, column) = position(of: failure.offset, in: bytes)
            return Problem(line: line, column: column, message: failure.message)
        } catch {
            return nil
        }
    }

    /// Byte offset of the first ill-formed UTF-8 sequence, found with the standard library's decoder.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        // The standard library's validation is fast; the offset is only looked for when it fails.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// 1-based line and column (counted in Unicode scalars) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    struct Failure: Error {
        var offset: Int
        var message: String
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        static let maximumDepth = 512

        init(bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ message: String) -> Failure { Failure(offset: index, message: message) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            guard current == byte else { throw fail(current == nil ? "unexpected end of file, expected \(what)" : "expected \(what)") }
            index += 1
        }

        mutating func value(depth: Int) throws {
            guard depth < Self.maximumDepth else { throw fail("nested too deeply") }
            guard let b = current else { throw fail("unexpected end of file, expected a value") }
            switch b {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw fail("expected a value (object, array, string, number, true, false or null)")
            }
        }

        mutating func object(depth: Int) throws {
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else {
                    throw fail(current == nil ? "unexpected end of file, expected a key" : "expected a key in double quotes")
                }
                try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after the key")
                skipWhitespace()
                try value(depth: depth + 1)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        }

        mutating func array(depth: Int) throws {
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try value(depth: depth + 1)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return
            }
        }

        mutating func string() throws {
            index += 1
            while let b = current {
                switch b {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let e = current else { break }
                    if e == UInt8(ascii: "u") {
                        let start = index - 1
                        let unit = try hexUnit()
                        if (0xD800...0xDBFF).contains(unit) {
                            // A high surrogate must be followed by an escaped low surrogate.
                            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                                index = start
                                throw fail("unpaired surrogate in \\u escape")
                            }
                            index += 1
                            guard (0xDC00...0xDFFF).contains(try hexUnit()) else {
                                index = start
                                throw fail("unpaired surrogate in \\u escape")
                            }
                        } else if (0xDC00...0xDFFF).contains(unit) {
                            index = start
                            throw fail("unpaired surrogate in \\u escape")
                        }
                        continue
                    } else if !"\"\\/bfnrt".utf8.contains(e) {
                        throw fail("invalid escape in string")
                    }
                    index += 1
                case 0x00..<0x20:
                    throw fail("control character in string (write it as an escape)")
                default:
                    index += 1
                }
            }
            throw fail("unexpected end of file inside a string")
        }

        /// Reads `uXXXX` (index on the `u`); leaves index after the last digit; returns the code unit.
        mutating func hexUnit() throws -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                index += 1
                guard let h = current, let digit = UInt32(String(UnicodeScalar(h)), radix: 16) else {
                    throw fail("expected four hex digits after \\u")
                }
                unit = unit * 16 + digit
            }
            index += 1
            return unit
        }

        mutating func literal(_ word: String) throws {
            for expected in word.utf8 {
                guard current == expected else { throw fail("expected \(word)") }
                index += 1
            }
        }

        mutating func digits() -> Int {
            let start = index
            while let b = current, b >= 0x30, b <= 0x39 { index += 1 }
            return index - start
        }

        mutating func number() throws {
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                throw fail("expected a digit")
            }
            if current == UInt8(ascii: ".") {
                index += 1
                if digits() == 0 { throw fail("expected a digit after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                if digits() == 0 { throw fail("expected a digit in the exponent") }
            }
        }
    }
}
