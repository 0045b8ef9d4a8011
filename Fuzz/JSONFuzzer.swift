// libFuzzer target for the JSON reader (`make fuzz-json`): built together with the reader's
// sources (Sources/PerchStore/JSON) into one module with `swiftc -sanitize=fuzzer,address`.

/// libFuzzer's entry point (LLVMFuzzerTestOneInput): reads `data` as strict JSON and as JSON with
/// Comments, and traps on the first property that does not hold:
/// - what strict mode reads, JSON with Comments reads alike, value for value;
/// - every value's byte range lies inside the text, inside its parent's, in document order;
/// - an error's offset is inside the text, its line and column at least 1;
/// - the values written back out as plain JSON read again to the same values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var strict: JSONDocument?
    for options in [JSONReader.Options.strict, .jsonWithComments] {
        do {
            let document = try JSONReader.read(bytes, options: options)
            check(document, document.root, within: 0..<bytes.count)
            let text = canonical(document, document.root)
            let again = try JSONReader.read(Array(text.utf8))
            precondition(canonical(again, again.root) == text, "the values do not read back")
            if let strict { precondition(canonical(strict, strict.root) == text, "JSON with Comments reads strict JSON differently") }
            strict = options == .strict ? document : nil
        } catch {
            precondition(options == .jsonWithComments || strict == nil)
            precondition(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the text")
            precondition(error.line >= 1 && error.column >= 1 && !error.message.isEmpty)
            precondition(options == .strict || strict == nil, "JSON with Comments refuses strict JSON: \(error)")
        }
    }
    return 0
}

/// Checks that `value`'s range and its children's lie within `bounds`, in order.
private func check(_ document: JSONDocument, _ value: JSONDocument.Index, within bounds: Range<Int>) {
    let range = document.range(value)
    precondition(range.lowerBound >= bounds.lowerBound && range.upperBound <= bounds.upperBound, "range outside its parent")
    var previousEnd = range.lowerBound
    switch document.kind(value) {
    case .array:
        precondition(document.elements(value).count == document.count(value))
        for element in document.elements(value) {
            precondition(document.range(element).lowerBound >= previousEnd, "elements out of order")
            check(document, element, within: range)
            previousEnd = document.range(element).upperBound
        }
    case .object:
        for (key, member) in document.members(value) {
            precondition(document.kind(key) == .string && document.range(key).lowerBound >= previousEnd, "members out of order")
            precondition(document.value(of: value, forKey: document.string(key)!) == member, "a key does not find its value")
            check(document, member, within: range)
            previousEnd = document.range(member).upperBound
        }
    case .string: precondition(document.string(value) != nil)
    case .number: precondition(document.double(value) != nil)
    default: break
    }
}

/// The value as plain JSON: no white space, strings escaped, numbers as written.
private func canonical(_ document: JSONDocument, _ value: JSONDocument.Index) -> String {
    switch document.kind(value) {
    case .null: return "null"
    case .true: return "true"
    case .false: return "false"
    case .number: return String(document.numberText(value)!)
    case .string: return ConfigWriterFuzzSupport.quoted(document.string(value)!)
    case .array: return "[" + document.elements(value).map { canonical(document, $0) }.joined(separator: ",") + "]"
    case .object:
        return "{"
            + document.members(value).map { canonical(document, $0.key) + ":" + canonical(document, $0.value) }.joined(separator: ",")
            + "}"
    }
}

/// JSON string escaping (RFC 8259 §7) for the round trip.
enum ConfigWriterFuzzSupport {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
