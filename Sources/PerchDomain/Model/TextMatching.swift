@_spi(_Unicode) import Swift

/// How the sheet's filter compares text as people read it: pure functions, no state.
///
/// Both the text and the filter are turned into a match key, and the filter matches where its
/// key's characters occur in the text's key in order (``FuzzyMatcher``; as UTF-8 bytes, so that a
/// search over many accounts is a byte scan):
/// - canonical decomposition (NFD), so precomposed and decomposed forms are the same text;
/// - Unicode full case folding (`STRASSE` finds `Straße`, `ﬁ` is `fi`), then NFD again, as in
///   Unicode's canonical caseless matching (The Unicode Standard, §3.13, D145);
/// - nonspacing marks (general category Mn) left out, so `cafe` finds `Café` however it is
///   encoded, the same as `café` does.
///
/// ASCII text keeps its fast path: its key is its bytes with `A`–`Z` lowered, with no allocation
/// per character. The decomposition and folding come from the standard library's Unicode data
/// (`String._nfd`, `Unicode.Scalar.Properties._caseFolded`).
public enum TextMatching {
    /// Most Unicode scalars one grapheme cluster keeps when accounts are loaded; the rest of a
    /// longer cluster (a letter under 600,000 combining marks) is dropped, so that neither a frame,
    /// nor a filter keystroke, nor `perch list` costs more for one cluster than for a few.
    public static let maximumScalarsPerCluster = 32

    /// The match key of `text`, as UTF-8 bytes (see ``TextMatching``).
    public static func key(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendKey(of: text, to: &bytes)
        return bytes
    }

    /// Appends the match key of `text` to `bytes`.
    public static func appendKey(of text: String, to bytes: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            bytes.append(contentsOf: text.utf8.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
            return
        }
        var folded = ""
        for scalar in text._nfd {
            if scalar.isASCII {
                folded.unicodeScalars.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 0x20)! : scalar)
            } else if scalar.properties.changesWhenCaseFolded {
                folded += scalar.properties._caseFolded
            } else {
                folded.unicodeScalars.append(scalar)
            }
        }
        for scalar in folded._nfd where scalar.properties.generalCategory != .nonspacingMark {
            bytes.append(contentsOf: String(scalar).utf8)
        }
    }

    /// Kind of character, for the filter's bonuses: fzf's character classes, in its order (a
    /// class above ``nonWord`` starts a word after white space, a delimiter or other non-word
    /// text).
    public enum CharacterClass: UInt8, Sendable {
        case white, nonWord, delimiter, lower, upper, letter, number
    }

    /// The class of `scalar`: white space; a delimiter (`/`, `,`, `:`, `;`, `|`, as fzf's);
    /// an upper- or lower-case letter, another letter, a number; anything else is non-word.
    public static func characterClass(of scalar: Unicode.Scalar) -> CharacterClass {
        if scalar.isASCII { return CharacterClass(rawValue: asciiClasses[Int(scalar.value)])! }
        let properties = scalar.properties
        if properties.isWhitespace { return .white }
        if properties.isUppercase { return .upper }
        if properties.isLowercase { return .lower }
        if properties.isAlphabetic { return .letter }
        if properties.numericType != nil { return .number }
        return .nonWord
    }

    /// ``CharacterClass`` raw values of the 128 ASCII characters.
    static let asciiClasses: [UInt8] = (0..<128).map { value in
        let byte = UInt8(value)
        let kind: CharacterClass =
            switch byte {
            case 0x20, 0x09...0x0D: .white
            case UInt8(ascii: "/"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "|"): .delimiter
            case UInt8(ascii: "a")...UInt8(ascii: "z"): .lower
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): .upper
            case UInt8(ascii: "0")...UInt8(ascii: "9"): .number
            default: .nonWord
            }
        return kind.rawValue
    }

    /// Appends the match key of `text` to `bytes` and, for each byte appended, the
    /// ``CharacterClass`` raw value of the character it came from to `classes` (its case as
    /// written, before folding).
    ///
    /// The key is the same as ``appendKey(of:to:)``'s: folding works scalar by scalar, and the
    /// canonical reordering of NFD never crosses a grapheme cluster's end.
    public static func appendKey(of text: String, to bytes: inout [UInt8], classes: inout [UInt8]) {
        var none: [Int]? = nil
        appendKey(of: text, to: &bytes, classes: &classes, characters: &none)
    }

    /// ``appendKey(of:to:classes:)``, and the index of the character (grapheme cluster of `text`)
    /// each byte came from appended to `characters` when it is not nil, for drawing the matched
    /// letters.
    public static func appendKey(of text: String, to bytes: inout [UInt8], classes: inout [UInt8], characters: inout [Int]?) {
        // ASCII: a byte is a character, but for CR LF, which is one grapheme cluster.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            for byte in text.utf8 {
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                classes.append(asciiClasses[Int(byte)])
            }
            characters?.append(contentsOf: 0..<text.utf8.count)
            return
        }
        var index = 0
        for character in text {
            let before = bytes.count
            let first = character.unicodeScalars.first!
            if character.utf8.count == 1 {
                bytes.append(first.value >= 0x41 && first.value <= 0x5A ? UInt8(first.value + 0x20) : UInt8(first.value))
            } else {
                appendKey(of: String(character), to: &bytes)
            }
            let count = bytes.count - before
            classes.append(contentsOf: repeatElement(characterClass(of: first).rawValue, count: count))
            characters?.append(contentsOf: repeatElement(index, count: count))
            index += 1
        }
    }

    /// `text` with each grapheme cluster cut to ``maximumScalarsPerCluster`` scalars, and whether
    /// anything was cut. ASCII text is returned as it is after one byte scan.
    public static func cappingClusters(_ text: String) -> (text: String, capped: Bool) {
        // A cluster needs at least two scalars, so text with fewer non-ASCII bytes than the cap
        // cannot hold one too long.
        if text.utf8.count <= maximumScalarsPerCluster || text.utf8.allSatisfy({ $0 < 0x80 }) { return (text, false) }
        var result = ""
        var capped = false
        for character in text {
            let scalars = character.unicodeScalars
            if scalars.count > maximumScalarsPerCluster {
                result.unicodeScalars.append(contentsOf: scalars.prefix(maximumScalarsPerCluster))
                capped = true
            } else {
                result.append(character)
            }
        }
        return capped ? (result, true) : (text, false)
    }
}
