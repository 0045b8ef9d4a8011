/// git's glob matcher, wildmatch (git's `wildmatch.c`, git 2.39), which decides its config's
/// conditional includes (git-config(1), "Conditional includes": `gitdir:`, `onbranch:`,
/// `hasconfig:remote.*.url:`) and Perch's remote patterns through them. Byte for byte, as a C
/// string: the pattern and the text end at their first NUL. `*` matches within a path component
/// and `**` (a whole component) across them with ``Flags/pathname``, `?` one byte, `[...]`
/// a class (`!` or `^` negates, ranges, `[:alpha:]` and the other POSIX names), `\` quotes the
/// next byte. ASCII letters only are folded by ``Flags/caseFold``. Pure.
public enum Wildmatch {
    /// How the pattern is read.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `*` and `?` and classes never match `/`; `**` as a whole component matches across.
        public static let pathname = Flags(rawValue: 1)
        /// ASCII letters match either case.
        public static let caseFold = Flags(rawValue: 2)
    }

    /// Whether `text` matches `pattern`.
    public static func matches(_ pattern: String, _ text: String, flags: Flags) -> Bool {
        matches(Array(pattern.utf8), Array(text.utf8), flags: flags)
    }

    /// Whether `text` matches `pattern`, both bytes (each ends at its first NUL, if any).
    public static func matches(_ pattern: [UInt8], _ text: [UInt8], flags: Flags) -> Bool {
        matches(pattern[...], text[...], flags: flags)
    }

    /// Whether `text` matches `pattern`, both bytes (each ends at its first NUL, if any).
    public static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>, flags: Flags) -> Bool {
        var matcher = Matcher(pattern: pattern, text: text, flags: flags)
        return matcher.match(pattern.startIndex, text.startIndex) == .match
    }

    /// A match's outcome; the two aborts cut the search short, as in git.
    private enum Outcome: Equatable {
        case match, noMatch, abortAll, abortToDoubleStar
    }

    private struct Matcher {
        let pattern: ArraySlice<UInt8>
        let text: ArraySlice<UInt8>
        let flags: Flags

        /// The pattern's byte at `index`, NUL past its end (it is read as C reads a string).
        func pat(_ index: Int) -> UInt8 { index < pattern.endIndex ? pattern[index] : 0 }
        /// The text's byte at `index`, NUL past its end.
        func txt(_ index: Int) -> UInt8 { index < text.endIndex ? text[index] : 0 }
        /// Where the next `/` is at or after `index`, before the text's end or a NUL.
        func slash(from index: Int) -> Int? {
            var index = index
            while index < text.endIndex && text[index] != 0 {
                if text[index] == Self.slash { return index }
                index += 1
            }
            return nil
        }

        var pathname: Bool { flags.contains(.pathname) }
        var fold: Bool { flags.contains(.caseFold) }

        func folded(_ byte: UInt8) -> UInt8 { fold && isUpper(byte) ? byte | 0x20 : byte }

        /// Matches the pattern from `start` against the text from `textStart`.
        mutating func match(_ start: Int, _ textStart: Int) -> Outcome {
            var p = start
            var t = textStart
            while pat(p) != 0 {
                let rawText = txt(t)
                if rawText == 0 && pat(p) != Self.star { return .abortAll }
                let textByte = folded(rawText)
                let patternByte = folded(pat(p))
                switch patternByte {
                case Self.question:
                    if pathname && textByte == Self.slash { return .noMatch }
                case Self.star:
                    var q = p + 1
                    let matchSlash: Bool
                    if pat(q) == Self.star {
                        let before = p - 1  // the byte before the star, if any
                        while pat(q) == Self.star { q += 1 }
                        if !pathname {
                            matchSlash = true
                        } else if (before < pattern.startIndex || pat(before) == Self.slash)
                            && (pat(q) == 0 || pat(q) == Self.slash
                                || (pat(q) == Self.backslash && pat(q + 1) == Self.slash))
                        {
                            // `**/` may match no folder at all: `a/**/b` matches `a/b`.
                            if pat(q) == Self.slash && match(q + 1, t) == .match { return .match }
                            matchSlash = true
                        } else {
                            matchSlash = false
                        }
                    } else {
                        matchSlash = !pathname
                    }
                    if pat(q) == 0 {
                        // A trailing `**` matches everything, a trailing `*` only without a `/`.
                        if !matchSlash && slash(from: t) != nil { return .noMatch }
                        return .match
                    }
                    if !matchSlash && pat(q) == Self.slash {
                        // One `*` then `/`: the rest of this component, then the pattern's `/`.
                        guard let next = slash(from: t) else { return .noMatch }
                        t = next
                        p = q
                        break
                    }
                    return starSearch(q, t, matchSlash: matchSlash)
                case Self.open:
                    switch matchClass(&p, textByte) {
                    case .some(true): break
                    case .some(false): return .noMatch
                    case .none: return .abortAll
                    }
                case Self.backslash:
                    // The quoted byte is compared unfolded, as git does.
                    p += 1
                    if textByte != pat(p) { return .noMatch }
                default:
                    if textByte != patternByte { return .noMatch }
                }
                p += 1
                t += 1
            }
            return txt(t) == 0 ? .match : .noMatch
        }

        /// A `*` (or `**` when `matchSlash`) followed by the pattern from `q`, against the text from `start`.
        mutating func starSearch(_ q: Int, _ start: Int, matchSlash: Bool) -> Outcome {
            var t = start
            while txt(t) != 0 {
                // Skip ahead to the next place the literal after the star could match.
                if !Self.isGlobSpecial(pat(q)) {
                    let wanted = folded(pat(q))
                    while txt(t) != 0 && (matchSlash || txt(t) != Self.slash) {
                        if folded(txt(t)) == wanted { break }
                        t += 1
                    }
                    if txt(t) == 0 || folded(txt(t)) != wanted { return .noMatch }
                }
                let outcome = match(q, t)
                if outcome != .noMatch {
                    if !matchSlash || outcome != .abortToDoubleStar { return outcome }
                } else if !matchSlash && txt(t) == Self.slash {
                    return .abortToDoubleStar
                }
                t += 1
            }
            return .abortAll
        }

        /// Reads the class starting at `pat(p)` (its `[`), leaving `p` at its `]`: whether
        /// `textByte` is in it, or nil when the class is malformed (the whole match fails).
        func matchClass(_ p: inout Int, _ textByte: UInt8) -> Bool? {
            p += 1
            var byte = pat(p)
            let negated = byte == Self.bang || byte == Self.caret
            if negated {
                p += 1
                byte = pat(p)
            }
            var previous: UInt8 = 0
            var matched = false
            repeat {
                if byte == 0 { return nil }
                if byte == Self.backslash {
                    p += 1
                    byte = pat(p)
                    if byte == 0 { return nil }
                    if textByte == byte { matched = true }
                } else if byte == Self.dash && previous != 0 && pat(p + 1) != 0 && pat(p + 1) != Self.close {
                    p += 1
                    byte = pat(p)
                    if byte == Self.backslash {
                        p += 1
                        byte = pat(p)
                        if byte == 0 { return nil }
                    }
                    if textByte <= byte && textByte >= previous {
                        matched = true
                    } else if fold && isLower(textByte) {
                        let upper = textByte & ~0x20
                        if upper <= byte && upper >= previous { matched = true }
                    }
                    byte = 0  // a range's end starts no range
                } else if byte == Self.open && pat(p + 1) == Self.colon {
                    let nameStart = p + 2
                    var end = nameStart
                    while pat(end) != 0 && pat(end) != Self.close { end += 1 }
                    if pat(end) == 0 { return nil }
                    if end - nameStart - 1 < 0 || pat(end - 1) != Self.colon {
                        // No `:]`: a plain `[` in the class.
                        if textByte == Self.open { matched = true }
                    } else {
                        guard let inClass = Self.named(Array(pattern[nameStart..<(end - 1)]), textByte, fold: fold) else { return nil }
                        if inClass { matched = true }
                        p = end
                        byte = 0
                    }
                } else if textByte == byte {
                    matched = true
                }
                previous = byte
                p += 1
                byte = pat(p)
            } while byte != Self.close
            if matched == negated || (pathname && textByte == Self.slash) { return false }
            return true
        }

        /// Whether `byte` is in the POSIX class `name` (`alpha`, …), nil for an unknown name.
        static func named(_ name: [UInt8], _ byte: UInt8, fold: Bool) -> Bool? {
            let isDigit = byte >= 0x30 && byte <= 0x39
            let isAlpha = isUpper(byte) || isLower(byte)
            let isPrint = byte >= 0x20 && byte < 0x7F
            switch String(decoding: name, as: UTF8.self) {
            case "alnum": return isAlpha || isDigit
            case "alpha": return isAlpha
            case "blank": return byte == 0x20 || byte == 0x09
            case "cntrl": return byte < 0x20 || byte == 0x7F
            case "digit": return isDigit
            case "graph": return isPrint && byte != 0x20
            case "lower": return isLower(byte)
            case "print": return isPrint
            case "punct": return isPrint && byte != 0x20 && !isAlpha && !isDigit
            case "space": return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D  // git's isspace
            case "upper": return isUpper(byte) || (fold && isLower(byte))
            case "xdigit": return isDigit || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            default: return nil
            }
        }

        static func isGlobSpecial(_ byte: UInt8) -> Bool {
            byte == star || byte == question || byte == open || byte == backslash
        }

        static let star = UInt8(ascii: "*")
        static let question = UInt8(ascii: "?")
        static let open = UInt8(ascii: "[")
        static let close = UInt8(ascii: "]")
        static let backslash = UInt8(ascii: "\\")
        static let slash = UInt8(ascii: "/")
        static let bang = UInt8(ascii: "!")
        static let caret = UInt8(ascii: "^")
        static let dash = UInt8(ascii: "-")
        static let colon = UInt8(ascii: ":")
    }
}

private func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
private func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
