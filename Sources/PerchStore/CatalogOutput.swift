import FoundationEssentials
import PerchDomain

/// Reads what an account's `catalog.command` printed into Catalog items.
///
/// Two shapes, told apart by the first non-blank line:
/// - plain lines: each non-blank line is one item, its id and title the line itself;
/// - JSON Lines (the first non-blank line starts with `{`): one object per line with `id`,
///   `title` and `subtitle` (each optional, but one of `id` and `title` is needed; a missing id is
///   the title, a missing title the id). Lines that are not such an object are skipped and counted.
///
/// A trailing `\r` is dropped from each line; tabs become spaces. Controls are left for the
/// screen to replace (``Screen/put(_:column:row:style:width:)`` draws them as `�`), so no escape
/// sequence ever reaches the terminal. Bytes that are not UTF-8 read as U+FFFD.
public enum CatalogOutput {
    /// The items read, and how many lines were skipped as not readable.
    public struct Parsed: Hashable, Sendable {
        public var items: [CatalogItem]
        public var skipped: Int
    }

    /// Most items kept from one run; the rest are dropped (and counted as skipped).
    public static let itemLimit = 1_000_000

    private struct Line: Decodable {
        var id: String?
        var title: String?
        var subtitle: String?
    }

    /// Parses `bytes` as plain lines or JSON Lines (see the type's summary).
    public static func parse(_ bytes: [UInt8]) -> Parsed {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append(bytes[start..<index])
            start = index + 1
        }
        if start < bytes.endIndex { lines.append(bytes[start...]) }
        lines = lines.map { $0.last == 0x0D ? $0.dropLast() : $0 }.filter { line in line.contains { $0 != 0x20 && $0 != 0x09 } }
        var skipped = max(0, lines.count - itemLimit)
        lines = Array(lines.prefix(itemLimit))
        guard let first = lines.first, first.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else {
            return Parsed(
                items: lines.map { line in
                    let text = clean(String(decoding: line, as: UTF8.self))
                    return CatalogItem(id: text, title: text, detail: "", kind: "")
                }, skipped: skipped)
        }
        var items: [CatalogItem] = []
        items.reserveCapacity(lines.count)
        let decoder = JSONDecoder()
        for line in lines {
            guard let decoded = try? decoder.decode(Line.self, from: Data(line)),
                let id = nonEmpty(decoded.id) ?? nonEmpty(decoded.title)
            else {
                skipped += 1
                continue
            }
            items.append(
                CatalogItem(id: clean(id), title: clean(nonEmpty(decoded.title) ?? id), detail: clean(decoded.subtitle ?? ""), kind: ""))
        }
        return Parsed(items: items, skipped: skipped)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }

    /// `text` with tabs as spaces and line breaks (inside a JSON string) as spaces.
    private static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
