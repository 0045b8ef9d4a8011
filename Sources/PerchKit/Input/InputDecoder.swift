/// Turns the bytes a terminal sends into ``InputEvent`` values.
///
/// Feed it bytes in chunks of any size; a sequence split across chunks is held until it
/// completes. A lone `ESC` cannot be told from the start of a sequence, so it is held too:
/// when ``pendingTimeoutMilliseconds`` is not nil the caller waits at most that long for more
/// input and then calls ``flush()``, which delivers it as the Escape key. Once `ESC [`, `ESC O`
/// or more has arrived it is a sequence, not a key: its final byte is waited for much longer
/// (``sequenceTimeoutMilliseconds``, for reports split over a remote login or under load), and a sequence
/// whose final byte never comes is dropped whole, so no byte of it ever becomes a key. A bracketed paste
/// whose end marker never comes is ended the same way, after ``pasteTimeoutMilliseconds``,
/// so a stray paste-start cannot swallow every later key.
///
/// Follows xterm's "Control Sequences" (ctlseqs): CSI and SS3 cursor and editing keys with
/// modifier parameters, SGR (1006) mouse reports, legacy X10 mouse reports (`ESC [ M` and three
/// bytes, from terminals without SGR), focus events (1004) and bracketed paste (2004).
/// The decoder never reads the terminal itself.
///
/// Any byte stream is safe: state is bounded (at most ``maximumSequenceLength`` bytes held
/// outside a paste, at most ``maximumPasteBytes`` inside one), a malformed sequence becomes
/// ``InputEvent/unknown(_:)`` and the bytes after it are decoded as their own events.
public struct InputDecoder: Sendable {
    /// How long a caller waits after a lone `ESC` before ``flush()`` makes it the Escape key, in milliseconds.
    public static let escapeTimeoutMilliseconds: Int64 = 25

    /// How long a caller waits for the final byte of a sequence begun with `ESC [` or `ESC O`
    /// before ``flush()`` drops it, in milliseconds.
    public static let sequenceTimeoutMilliseconds: Int64 = 500

    /// Longest control sequence accepted, in bytes; a longer one is dropped as ``InputEvent/unknown(_:)``.
    public static let maximumSequenceLength = 64

    /// Most bytes of one paste kept, in bytes (1 MiB); the rest of a longer paste is dropped, so
    /// that a paste with no end marker cannot grow without bound.
    public static let maximumPasteBytes = 1 << 20

    private static let esc: UInt8 = 0x1B
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private var pending: [UInt8] = []
    private var paste: [UInt8]?
    /// Set after an over-long sequence was cut off: its remaining parameter bytes are dropped
    /// up to and including its final byte, so they never turn into key presses.
    private var discardingSequence = false

    /// Bytes taken out of the input so far: delivered in events, moved into a paste, or dropped.
    /// With the bytes still held, this always adds up to every byte fed.
    private(set) var consumedByteCount = 0
    /// Bytes dropped without becoming part of an event: the tail of an over-long sequence and
    /// paste bytes past ``maximumPasteBytes``.
    private(set) var discardedByteCount = 0

    /// A decoder with nothing pending.
    public init() {}

    /// Whether a cursor position report (`CSI row ; column R`, DSR 6's answer) is expected: while
    /// true, one with two parameters is decoded as ``TerminalReply/cursorPosition(row:column:)``
    /// and this is set back to false; otherwise it is the key it also encodes (`CSI 1 ; 2 R` is
    /// Shift-F3). The caller sets it when it sends DSR 6.
    public var expectsCursorReport = false

    /// Bytes held for an incomplete sequence or an unfinished paste.
    public var bufferedByteCount: Int { pending.count + (paste?.count ?? 0) }

    /// Bytes fed but not yet taken out of the input (an incomplete sequence).
    var unreadByteCount: Int { pending.count }

    /// Bytes of the paste being received, or nil outside a paste.
    var pasteByteCount: Int? { paste?.count }

    /// Whether bytes are held waiting for the rest of a sequence (outside a paste), so that
    /// the caller should call ``flush()`` after ``escapeTimeoutMilliseconds`` without input.
    public var hasPendingBytes: Bool { !pending.isEmpty && paste == nil }

    /// How long a paste may go without input before ``flush()`` ends it, in milliseconds.
    public static let pasteTimeoutMilliseconds: Int64 = 1000

    /// Milliseconds without input after which the caller should call ``flush()``: the escape
    /// timeout while a sequence is incomplete, the paste timeout inside a paste, else nil.
    public var pendingTimeoutMilliseconds: Int64? {
        if paste != nil { return Self.pasteTimeoutMilliseconds }
        if pending.isEmpty { return nil }
        return isSequenceInProgress ? Self.sequenceTimeoutMilliseconds : Self.escapeTimeoutMilliseconds
    }

    /// Whether the bytes held begin a control sequence (`ESC [`, `ESC O` or an OSC answer's
    /// `ESC ]`, and more).
    var isSequenceInProgress: Bool {
        pending.count >= 2 && pending[0] == Self.esc
            && (pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") || pending[1] == UInt8(ascii: "]"))
    }

    /// The longest operating system command kept, `ESC ]` to its end included: an answer to
    /// OSC 11 takes 28 bytes; a longer one is dropped.
    static let maximumOSCBytes = 64

    /// Decodes `bytes` appended to anything held from earlier calls; returns the complete events, in order.
    public mutating func feed<S: Sequence>(_ bytes: S) -> [InputEvent] where S.Element == UInt8 {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Delivers whatever is held as if no more bytes will follow: a lone `ESC` becomes the
    /// Escape key, an unfinished sequence (even just `ESC [` or `ESC O`) becomes
    /// ``InputEvent/unknown(_:)``, which nothing acts on, a partial
    /// UTF-8 character becomes U+FFFD, an unfinished paste is delivered as it is.
    public mutating func flush() -> [InputEvent] {
        // The input went quiet: a sequence being dropped is over, and later bytes are keys again.
        discardingSequence = false
        if let text = paste {
            // The end marker never came: what arrived is the paste.
            paste = nil
            let kept = min(pending.count, Self.maximumPasteBytes - text.count)
            let bytes = text + pending[0..<kept]
            consumedByteCount += pending.count
            discardedByteCount += pending.count - kept
            pending.removeAll()
            return [.paste(String(decoding: bytes, as: UTF8.self))]
        }
        return decode(final: true)
    }

    private enum Step {
        case event(InputEvent?, consumed: Int)
        case beginPaste(consumed: Int)
        case startDiscarding(InputEvent, consumed: Int)
        case needMore
    }

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            if discardingSequence {
                let byte = pending[index]
                if byte >= 0x20 && byte <= 0x3F {
                    index += 1
                    consumedByteCount += 1
                    discardedByteCount += 1
                    continue
                }
                discardingSequence = false
                if byte >= 0x40 && byte <= 0x7E {
                    index += 1
                    consumedByteCount += 1
                    discardedByteCount += 1
                    continue
                }
            }
            if paste != nil {
                guard let next = consumePaste(from: index, into: &events) else { return events }
                consumedByteCount += next - index
                index = next
                continue
            }
            switch step(at: index, final: final) {
            case .event(let event, let consumed):
                if case .reply(.cursorPosition) = event { expectsCursorReport = false }
                if let event { events.append(event) }
                index += consumed
                consumedByteCount += consumed
            case .beginPaste(let consumed):
                paste = []
                index += consumed
                consumedByteCount += consumed
            case .startDiscarding(let event, let consumed):
                events.append(event)
                discardingSequence = true
                index += consumed
                consumedByteCount += consumed
            case .needMore:
                pending.removeFirst(index)
                return events
            }
        }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Moves pasted bytes into the paste buffer up to the end marker and emits the paste.
    /// Returns the index after the marker, or nil when the marker has not arrived yet
    /// (a partial marker at the end stays in `pending`).
    private mutating func consumePaste(from index: Int, into events: inout [InputEvent]) -> Int? {
        let end = Self.pasteEnd
        var i = index
        while i < pending.count {
            if pending[i] == Self.esc {
                let available = min(end.count, pending.count - i)
                if pending[i..<(i + available)].elementsEqual(end[0..<available]) {
                    appendToPaste(pending[index..<i])
                    if available < end.count {
                        consumedByteCount += i - index
                        pending.removeFirst(i)
                        return nil
                    }
                    events.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
                    paste = nil
                    return i + end.count
                }
            }
            i += 1
        }
        appendToPaste(pending[index..<i])
        consumedByteCount += i - index
        pending.removeAll(keepingCapacity: true)
        return nil
    }

    /// Adds pasted bytes to the paste, up to ``maximumPasteBytes``; the rest is dropped.
    private mutating func appendToPaste(_ bytes: ArraySlice<UInt8>) {
        let kept = min(bytes.count, max(0, Self.maximumPasteBytes - (paste?.count ?? 0)))
        paste?.append(contentsOf: bytes.prefix(kept))
        discardedByteCount += bytes.count - kept
    }

    private func step(at index: Int, final: Bool) -> Step {
        let byte = pending[index]
        if byte == Self.esc {
            return escape(at: index, final: final)
        }
        if byte < 0x20 || byte == 0x7F {
            return .event(.key(Self.controlKey(byte)), consumed: 1)
        }
        return utf8Character(at: index, final: final).map { character, length in
            .event(.key(KeyEvent(.character(character))), consumed: length)
        } ?? .needMore
    }

    /// The key for a C0 control byte or DEL.
    static func controlKey(_ byte: UInt8) -> KeyEvent {
        switch byte {
        case 0x0D, 0x0A: return KeyEvent(.enter)
        case 0x09: return KeyEvent(.tab)
        case 0x7F, 0x08: return KeyEvent(.backspace)
        case 0x1B: return KeyEvent(.escape)
        case 0x00: return KeyEvent(.control(" "))
        case 0x01...0x1A: return KeyEvent(.control(Character(Unicode.Scalar(byte + 0x60))))
        default: return KeyEvent(.control(Character(Unicode.Scalar(byte + 0x40))))
        }
    }

    /// Decodes one UTF-8 character at `index`: the character and its length in bytes, or nil
    /// when more bytes are needed. Ill-formed bytes decode to U+FFFD, one per maximal ill-formed
    /// subpart, as Swift's own UTF-8 decoder does.
    private func utf8Character(at index: Int, final: Bool) -> (Character, Int)? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return ("\u{FFFD}", 1)
        }
        let available = pending.count - index
        for offset in 1..<max(1, min(length, available)) {
            // The second byte's range depends on the lead (Unicode Table 3-7, well-formed
            // UTF-8): this rejects overlong forms, surrogates and values past U+10FFFF.
            var valid: ClosedRange<UInt8> = 0x80...0xBF
            if offset == 1 {
                switch lead {
                case 0xE0: valid = 0xA0...0xBF
                case 0xED: valid = 0x80...0x9F
                case 0xF0: valid = 0x90...0xBF
                case 0xF4: valid = 0x80...0x8F
                default: break
                }
            }
            if !valid.contains(pending[index + offset]) { return ("\u{FFFD}", offset) }
        }
        if available < length {
            return final ? ("\u{FFFD}", available) : nil
        }
        let bytes = pending[index..<(index + length)]
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return (Character(scalar), length)
        }
        return ("\u{FFFD}", length)
    }

    private func escape(at index: Int, final: Bool) -> Step {
        guard index + 1 < pending.count else {
            return final ? .event(.key(KeyEvent(.escape)), consumed: 1) : .needMore
        }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return csi(at: index, final: final)
        case UInt8(ascii: "]"):
            return osc(at: index, final: final)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else {
                return final ? .event(.unknown([Self.esc, next]), consumed: 2) : .needMore
            }
            let third = pending[index + 2]
            guard third >= 0x40 && third <= 0x7E else {
                // Not an SS3 final byte: the sequence is dropped, and the byte decoded on its own.
                return .event(.unknown([Self.esc, next]), consumed: 2)
            }
            return .event(Self.ss3(third), consumed: 3)
        case Self.esc:
            return .event(.key(KeyEvent(.escape)), consumed: 1)
        default:
            // ESC followed by a key: that key with Alt (xterm "metaSendsEscape").
            if next < 0x20 || next == 0x7F {
                var key = Self.controlKey(next)
                key.modifiers.insert(.alt)
                return .event(.key(key), consumed: 2)
            }
            guard let (character, length) = utf8Character(at: index + 1, final: final) else { return .needMore }
            return .event(.key(KeyEvent(.character(character), modifiers: .alt)), consumed: 1 + length)
        }
    }

    /// An operating system command, `ESC ]` to BEL or `ESC \` (ST), which a terminal sends only
    /// as an answer: OSC 11's is ``TerminalReply/backgroundColor(_:)``, anything else is
    /// ``InputEvent/unknown(_:)``. One cut by another `ESC`, or longer than ``maximumOSCBytes``,
    /// is dropped up to there; `Alt-]` is therefore no key.
    private func osc(at index: Int, final: Bool) -> Step {
        var end = index + 2
        while end < pending.count, end - index < Self.maximumOSCBytes {
            let byte = pending[end]
            if byte == 0x07 { return .event(Self.oscAnswer(pending[(index + 2)..<end]), consumed: end + 1 - index) }
            if byte == Self.esc {
                guard end + 1 < pending.count else { break }
                guard pending[end + 1] == UInt8(ascii: "\\") else {
                    return .event(.unknown(Array(pending[index..<end])), consumed: end - index)
                }
                return .event(Self.oscAnswer(pending[(index + 2)..<end]), consumed: end + 2 - index)
            }
            end += 1
        }
        if end - index >= Self.maximumOSCBytes { return .event(.unknown(Array(pending[index..<end])), consumed: end - index) }
        return final ? .event(.unknown(Array(pending[index...])), consumed: pending.count - index) : .needMore
    }

    /// The event for an OSC's `body` (between `ESC ]` and its end): `11;rgb:R/G/B`, each channel
    /// 1–4 hexadecimal digits scaled to 0–255, is the background colour.
    static func oscAnswer(_ body: ArraySlice<UInt8>) -> InputEvent {
        let text = String(decoding: body, as: UTF8.self)
        let whole = InputEvent.unknown([esc, UInt8(ascii: "]")] + Array(body))
        guard text.hasPrefix("11;rgb:") else { return whole }
        let channels = text.dropFirst(7).split(separator: "/", omittingEmptySubsequences: false)
        guard channels.count == 3 else { return whole }
        var values: [UInt8] = []
        for channel in channels {
            guard (1...4).contains(channel.count), let value = Int(channel, radix: 16) else { return whole }
            let top = (1 << (4 * channel.count)) - 1
            values.append(UInt8((value * 255 + top / 2) / top))
        }
        return .reply(.backgroundColor(RGBColor(red: values[0], green: values[1], blue: values[2])))
    }

    /// Keys sent as `ESC O x` (SS3), as in application cursor mode.
    private static func ss3(_ final: UInt8) -> InputEvent {
        switch final {
        case UInt8(ascii: "A"): return .key(KeyEvent(.up))
        case UInt8(ascii: "B"): return .key(KeyEvent(.down))
        case UInt8(ascii: "C"): return .key(KeyEvent(.right))
        case UInt8(ascii: "D"): return .key(KeyEvent(.left))
        case UInt8(ascii: "H"): return .key(KeyEvent(.home))
        case UInt8(ascii: "F"): return .key(KeyEvent(.end))
        case UInt8(ascii: "M"): return .key(KeyEvent(.enter))
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .key(KeyEvent(.function(Int(final) - 0x4F)))
        default: return .unknown([esc, UInt8(ascii: "O"), final])
        }
    }

    /// Parses `ESC [ params intermediates final` starting at `index`.
    private func csi(at index: Int, final: Bool) -> Step {
        if index + 2 < pending.count, pending[index + 2] == UInt8(ascii: "M") {
            return x10Mouse(at: index, final: final)
        }
        var i = index + 2
        while i < pending.count {
            let byte = pending[i]
            if byte >= 0x40 && byte <= 0x7E {
                let body = Array(pending[(index + 2)..<i])
                if byte == UInt8(ascii: "~"), body.elementsEqual("200".utf8) {
                    return .beginPaste(consumed: i - index + 1)
                }
                if expectsCursorReport, byte == UInt8(ascii: "R"), let report = Self.cursorReport(body) {
                    return .event(.reply(report), consumed: i - index + 1)
                }
                return .event(Self.interpretCSI(parameters: body, final: byte), consumed: i - index + 1)
            }
            if byte < 0x20 || byte > 0x7E {
                // Malformed: drop what came so far; the byte that broke it is decoded on its own.
                return .event(.unknown(Array(pending[index..<i])), consumed: i - index)
            }
            if i - index >= Self.maximumSequenceLength {
                // Over-long: drop it whole, including the parameter bytes still to come.
                return .startDiscarding(.unknown(Array(pending[index..<i])), consumed: i - index)
            }
            i += 1
        }
        if final {
            return .event(.unknown(Array(pending[index..<i])), consumed: i - index)
        }
        return .needMore
    }

    /// Legacy X10 mouse report: `ESC [ M` and three raw bytes, each 32 + a value: the button
    /// code, then the 1-based column and row (xterm ctlseqs "X10 compatibility mode" and "Normal
    /// tracking mode"). Sent by terminals without SGR (1006). A coordinate past 223 does not fit
    /// in a byte: xterm sends 0 for it and others wrap; either way the six bytes are taken
    /// together and such a report, which names no cell, becomes ``InputEvent/unknown(_:)``.
    private func x10Mouse(at index: Int, final: Bool) -> Step {
        let length = 6
        guard index + length <= pending.count else {
            return final ? .event(.unknown(Array(pending[index...])), consumed: pending.count - index) : .needMore
        }
        let report = Array(pending[index..<(index + length)])
        let code = Int(report[3]) - 32
        let column = Int(report[4]) - 32
        let row = Int(report[5]) - 32
        guard code >= 0, column >= 1, row >= 1 else { return .event(.unknown(report), consumed: length) }
        // Button bits 3 without motion or wheel is a release, of a button the report does not name.
        let isRelease = code & 3 == 3 && code & (32 | 64) == 0
        return .event(Self.sgrMouse([code, column, row], pressed: !isRelease) ?? .unknown(report), consumed: length)
    }

    /// Longest decimal parameter accepted, in digits; a longer one makes the sequence unknown.
    static let maximumParameterDigits = 9

    /// The `;`-separated decimal parameters of a sequence (an empty one is 0), or nil when one is
    /// not a number of at most ``maximumParameterDigits`` digits.
    private static func numbers(_ text: Substring) -> [Int]? {
        var result: [Int] = []
        for field in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard field.count <= maximumParameterDigits, field.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            result.append(Int(field) ?? 0)
        }
        return result
    }

    private static func modifiers(fromParameter value: Int) -> Modifiers {
        guard value > 1 else { return [] }
        return Modifiers(rawValue: UInt8(truncatingIfNeeded: value - 1) & 0x07)
    }

    /// `row ; column` of a cursor position report, 1-based on the wire, as a 0-based reply.
    static func cursorReport(_ parameters: [UInt8]) -> TerminalReply? {
        guard let params = numbers(Substring(String(decoding: parameters, as: UTF8.self))), params.count == 2, params[0] >= 1,
            params[1] >= 1
        else { return nil }
        return .cursorPosition(row: params[0] - 1, column: params[1] - 1)
    }

    /// Replies to queries, which begin `CSI ?`: the kitty keyboard protocol's flags
    /// (`CSI ? flags u`), the primary device attributes (`CSI ? Ps ; … c`) and DECRQM's report
    /// of a DEC private mode (`CSI ? mode ; value $ y`).
    static func interpretReply(parameters: [UInt8], final: UInt8) -> InputEvent? {
        guard parameters.first == UInt8(ascii: "?") else { return nil }
        if final == UInt8(ascii: "y"), parameters.last == UInt8(ascii: "$") {
            guard let params = numbers(Substring(String(decoding: parameters.dropFirst().dropLast(), as: UTF8.self))), params.count == 2
            else { return nil }
            return .reply(.privateMode(params[0], value: params[1]))
        }
        guard let params = numbers(Substring(String(decoding: parameters.dropFirst(), as: UTF8.self))) else { return nil }
        switch final {
        case UInt8(ascii: "u") where params.count == 1: return .reply(.keyboardFlags(params[0]))
        case UInt8(ascii: "c"): return .reply(.primaryDeviceAttributes(params))
        default: return nil
        }
    }

    static func interpretCSI(parameters: [UInt8], final: UInt8) -> InputEvent {
        if let reply = interpretReply(parameters: parameters, final: final) { return reply }
        if let event = interpretExtendedKey(parameters: parameters, final: final) { return event }
        let raw = [esc, UInt8(ascii: "[")] + parameters + [final]
        let text = String(decoding: parameters, as: UTF8.self)
        if text.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return numbers(text.dropFirst()).flatMap { sgrMouse($0, pressed: final == UInt8(ascii: "M")) } ?? .unknown(raw)
        }
        // Keys carry at most two parameters (a key number and the modifiers); more is not a key.
        guard let params = numbers(Substring(text)), params.count <= 2 else { return .unknown(raw) }
        let mods = modifiers(fromParameter: params.count > 1 ? params[1] : 0)
        func key(_ k: Key) -> InputEvent { .key(KeyEvent(k, modifiers: mods)) }
        switch final {
        case UInt8(ascii: "A"): return key(.up)
        case UInt8(ascii: "B"): return key(.down)
        case UInt8(ascii: "C"): return key(.right)
        case UInt8(ascii: "D"): return key(.left)
        case UInt8(ascii: "H"): return key(.home)
        case UInt8(ascii: "F"): return key(.end)
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return key(.function(Int(final) - 0x4F))
        case UInt8(ascii: "Z"): return .key(KeyEvent(.tab, modifiers: mods.union(.shift)))
        case UInt8(ascii: "I") where params.count <= 1: return .focus(true)
        case UInt8(ascii: "O") where params.count <= 1: return .focus(false)
        case UInt8(ascii: "~"):
            switch params.first ?? 0 {
            case 1, 7: return key(.home)
            case 2: return key(.insert)
            case 3: return key(.delete)
            case 4, 8: return key(.end)
            case 5: return key(.pageUp)
            case 6: return key(.pageDown)
            case 11...15: return key(.function(params[0] - 10))
            case 17...21: return key(.function(params[0] - 11))
            case 23, 24: return key(.function(params[0] - 12))
            case 29: return key(.menu)
            default: return .unknown(raw)
            }
        default:
            return .unknown(raw)
        }
    }

    /// SGR mouse: `b;x;y` with `M` for press or motion and `m` for release (xterm ctlseqs "SGR (1006)").
    static func sgrMouse(_ params: [Int], pressed: Bool) -> InputEvent? {
        guard params.count == 3, params[1] >= 1, params[2] >= 1 else { return nil }
        let code = params[0]
        let position = Position(column: params[1] - 1, row: params[2] - 1)
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let buttonBits = code & 3
        if code & 128 != 0 {
            // Codes 128–131: buttons 8–11 (back, forward; xterm ctlseqs "Extended buttons"),
            // whose low bits must not pass for the left button.
            let kind: MouseEvent.Kind = code & 32 != 0 ? .drag : pressed ? .press : .release
            return .mouse(MouseEvent(kind: kind, button: .other, position: position, modifiers: modifiers))
        }
        if code & 64 != 0 {
            let kinds: [MouseEvent.Kind] = [.scrollUp, .scrollDown, .scrollLeft, .scrollRight]
            return .mouse(MouseEvent(kind: kinds[buttonBits], button: .none, position: position, modifiers: modifiers))
        }
        let button: MouseEvent.Button = [.left, .middle, .right, .none][buttonBits]
        let kind: MouseEvent.Kind
        if code & 32 != 0 {
            kind = button == .none ? .move : .drag
        } else {
            kind = pressed ? .press : .release
        }
        return .mouse(MouseEvent(kind: kind, button: button, position: position, modifiers: modifiers))
    }
}
