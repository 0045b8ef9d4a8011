@_spi(_Unicode) import Swift

/// How the sheet's filter compares text as people read it: pure functions, no state.
///
/// Both the text and the filter are turned into a match key, and the filter matches where its
/// key occurs in the text's key (as UTF-8 bytes, so that a search over many accounts is a byte
/// scan):
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

    /// How a filter matched a text; a prefix ranks first.
    public enum Match: Comparable, Sendable {
        case prefix, contained
    }

    /// Whether `needle` (a key) occurs in `text` (a key), and where: at the start, or right after
    /// a leading `@`, is a prefix.
    public static func match(_ needle: [UInt8], in text: [UInt8]) -> Match? {
        guard !needle.isEmpty else { return .prefix }
        guard text.count >= needle.count else { return nil }
        for start in 0...(text.count - needle.count) where text[start] == needle[0] {
            var i = 1
            while i < needle.count, text[start + i] == needle[i] { i += 1 }
            if i == needle.count { return start == 0 || (start == 1 && text[0] == 0x40) ? .prefix : .contained }
        }
        return nil
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
