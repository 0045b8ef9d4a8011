/// Finds where a value named by a JSON path (`accounts[2].id`, as the config's problems start)
/// is in a JSON text, for messages with a line and column.
public enum JSONPathLocator {
    /// One step of a path: a member name or an array index.
    enum Step: Hashable {
        case key([UInt8])
        case index(Int)
    }

    /// The 1-based line and column (in characters) of the value `path` names in `bytes`, or of
    /// the deepest value on the way there that exists (a missing member is reported at its
    /// object); nil when `path` is not a path or `bytes` is not JSON.
    /// - Parameter path: member names separated by `.` with `[N]` indices (`accounts[2].id`).
    public static func position(of path: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard let steps = steps(path) else { return nil }
        var scanner = Walker(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.index < bytes.count else { return nil }
        var found = scanner.index
        for step in steps {
            guard scanner.enter(step) else { break }
            found = scanner.index
        }
        return JSONSyntaxLocator.position(of: found, in: bytes)
    }

    /// `text`'s line and column when it starts with a JSON path and `: ` (a config problem), else nil.
    public static func position(ofProblem text: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard let colon = text.firstRange(of: ": ") else { return nil }
        return position(of: String(text[..<colon.lowerBound]), in: bytes)
    }

    static func steps(_ path: String) -> [Step]? {
        var steps: [Step] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = part[...]
            let name = rest.prefix { $0 != "[" }
            guard !name.isEmpty else { return nil }
            steps.append(.key(Array(name.utf8)))
            rest = rest.dropFirst(name.count)
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let number = Int(rest[rest.index(after: rest.startIndex)..<close]) else {
                    return nil
                }
                steps.append(.index(number))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { return nil }
        }
        return steps
    }

    /// A cursor over JSON text that is known to be well formed.
    struct Walker {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        /// Moves from the start of an object or array to the start of the value `step` names;
        /// false (and the cursor anywhere) when there is none.
        mutating func enter(_ step: Step) -> Bool {
            guard index < bytes.count else { return false }
            switch (step, bytes[index]) {
            case (.key(let name), 0x7B):
                index += 1
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == 0x22 else { return false }
                    let start = index + 1
                    skipString()
                    let key = Array(bytes[start..<(index - 1)])
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == 0x3A else { return false }
                    index += 1
                    skipWhitespace()
                    if key == name { return true }
                    skipValue()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == 0x2C else { return false }
                    index += 1
                }
            case (.index(let wanted), 0x5B):
                index += 1
                var position = 0
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] != 0x5D else { return false }
                    if position == wanted { return true }
                    skipValue()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == 0x2C else { return false }
                    index += 1
                    position += 1
                }
            default:
                return false
            }
        }

        /// Skips a string, the cursor on its opening quote; ends after the closing one.
        mutating func skipString() {
            index += 1
            while index < bytes.count {
                if bytes[index] == 0x5C {
                    index += 2
                } else if bytes[index] == 0x22 {
                    index += 1
                    return
                } else {
                    index += 1
                }
            }
        }

        /// Skips one value, the cursor on its first byte.
        mutating func skipValue() {
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x22: skipString()
                case 0x7B, 0x5B:
                    depth += 1
                    index += 1
                case 0x7D, 0x5D:
                    if depth == 0 { return }
                    depth -= 1
                    index += 1
                    if depth == 0 { return }
                case 0x2C where depth == 0: return
                default: index += 1
                }
                if depth == 0, index < bytes.count, bytes[index - 1] == 0x22 { return }
            }
        }
    }
}
