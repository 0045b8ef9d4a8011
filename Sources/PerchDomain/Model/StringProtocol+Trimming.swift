extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    public var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}

extension StringProtocol {
    /// The text with each `%XX` (two hex digits) replaced by that byte, as RFC 3986 §2.1
    /// percent-encodes a URL's parts; a `%` not followed by two hex digits stays. Bytes that do
    /// not make UTF-8 become U+FFFD.
    public var percentDecoded: String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "%"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
