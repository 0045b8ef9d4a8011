/// Keys in the kitty keyboard protocol's `CSI … u` form and xterm's `modifyOtherKeys` form.
///
/// The kitty keyboard protocol ("Comprehensive keyboard handling in terminals",
/// https://sw.kovidgoyal.net/kitty/keyboard-protocol/) sends a key as
/// `CSI key-code[:shifted-key[:base-layout-key]] ; modifiers[:event-type] ; text u`:
/// - the key code is a Unicode code point (Escape 27, Enter 13, Tab 9, Backspace 127), or for a
///   key without one a code in the Private Use Area ("Functional key definitions": Menu 57363,
///   the keypad 57399–57426, F13–F35 57376–57398, modifier and lock keys 57358–57362 and
///   57441–57454);
/// - modifiers are 1 + a bit set (shift 1, alt 2, ctrl 4, super 8, hyper 16, meta 32,
///   caps lock 64, num lock 128);
/// - the event type is 1 press (the default), 2 repeat, 3 release ("Event types");
/// - text, with "report associated text", is the code points the key types, `:`-separated.
///
/// The other functional keys keep their legacy final bytes with the same two fields:
/// `CSI 1 ; modifiers:event-type A` (the arrows, Home `H`, End `F`, F1 `P`, F2 `Q`, F4 `S`) and
/// `CSI number ; modifiers:event-type ~` (Insert 2, Delete 3, Page Up 5, Page Down 6, F3 13,
/// F5–F12 15–24).
///
/// xterm's `modifyOtherKeys` (ctlseqs, "formatOtherKeys") sends `CSI 27 ; modifiers ; code ~`, or
/// `CSI code ; modifiers u` with formatOtherKeys=1. Both are decoded at all times, whether or not
/// the program turned a protocol on, so a terminal left in one of these modes by another program still
/// works (Esc closes, Enter picks, Ctrl-C quits).
extension InputDecoder {
    /// Whether a key sequence is a press, an auto-repeat or a release (kitty "Event types").
    enum KeyEventType: Int {
        case press = 1
        case `repeat` = 2
        case release = 3
    }

    /// Decodes `CSI parameters final` when it is a kitty-protocol or `modifyOtherKeys` key, or a
    /// legacy key with a kitty event type; nil when it is none of these (the caller goes on).
    static func interpretExtendedKey(parameters: [UInt8], final: UInt8) -> InputEvent? {
        let raw = [0x1B, UInt8(ascii: "[")] + parameters + [final]
        let isU = final == UInt8(ascii: "u")
        let hasSubfields = parameters.contains(UInt8(ascii: ":"))
        guard isU || hasSubfields || (final == UInt8(ascii: "~") && parameters.starts(with: Array("27;".utf8))) else {
            return nil
        }
        guard parameters.first.map({ $0 >= 0x30 && $0 <= 0x3B }) ?? isU else {
            return isU ? .unknown(raw) : nil  // `CSI ? flags u` (a reply) or a private sequence
        }
        guard let fields = subfields(parameters) else { return .unknown(raw) }
        let modifierField = fields.count > 1 ? fields[1] : []
        guard modifierField.count <= 2, fields.count <= 3 else { return .unknown(raw) }
        let modifierValue = modifierField.first ?? 1
        let eventType = KeyEventType(rawValue: modifierField.count > 1 ? modifierField[1] : 1)
        guard let eventType else { return .unknown(raw) }
        if isU {
            let keyField = fields.first ?? []
            let text = fields.count > 2 ? fields[2] : []
            guard let code = keyField.first,
                let key = kittyKey(code: code, shifted: keyField.count > 1 ? keyField[1] : nil, text: text, modifierValue: modifierValue)
            else { return .unknown(raw) }
            return event(key, eventType)
        }
        if final == UInt8(ascii: "~"), fields.first == [27], !hasSubfields {
            // modifyOtherKeys: CSI 27 ; modifiers ; code ~ (always a press).
            guard fields.count == 3, let code = fields[2].first,
                let key = kittyKey(code: code, shifted: nil, text: [], modifierValue: modifierValue)
            else { return .unknown(raw) }
            return event(key, .press)
        }
        guard hasSubfields else { return .unknown(raw) }
        // A legacy functional key with an event type: decode it without the subfields.
        let number = fields.first?.first ?? 1
        let legacy = Array("\(number);\(modifierValue)".utf8)
        guard case .key(let key) = interpretCSI(parameters: legacy, final: final) else { return .unknown(raw) }
        return event(key, eventType)
    }

    private static func event(_ key: KeyEvent, _ type: KeyEventType) -> InputEvent {
        switch type {
        case .press: .key(key)
        case .repeat: .keyRepeat(key)
        case .release: .keyRelease(key)
        }
    }

    /// The `;`-separated fields of a sequence, each a list of `:`-separated numbers (an empty
    /// number is left out of its field, so `97;;97` has an empty second field); nil when a number
    /// is not decimal or is longer than ``maximumParameterDigits``.
    static func subfields(_ parameters: [UInt8]) -> [[Int]]? {
        var fields: [[Int]] = [[]]
        var digits = 0
        var value = 0
        var inNumber = false
        func endNumber() {
            if inNumber { fields[fields.count - 1].append(value) }
            value = 0
            digits = 0
            inNumber = false
        }
        for byte in parameters {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= maximumParameterDigits else { return nil }
                value = value * 10 + Int(byte - 0x30)
                inNumber = true
            case UInt8(ascii: ":"):
                endNumber()
            case UInt8(ascii: ";"):
                endNumber()
                fields.append([])
            default:
                return nil
            }
        }
        endNumber()
        return fields
    }

    /// The key for a kitty key code, or nil for a key the decoder does not report (a modifier or lock key
    /// on its own, a media key) or a code that is not a Unicode scalar.
    /// - Parameters:
    ///   - shifted: the shifted key ("report alternate keys"), used when Shift is held.
    ///   - text: the code points the key types ("report associated text"); preferred when present.
    ///   - modifierValue: 1 + the modifier bits.
    static func kittyKey(code: Int, shifted: Int?, text: [Int], modifierValue: Int) -> KeyEvent? {
        let bits = max(0, modifierValue - 1)
        var modifiers: Modifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        func key(_ k: Key) -> KeyEvent { KeyEvent(k, modifiers: modifiers) }
        switch code {
        case 27: return key(.escape)
        case 13, 57414: return key(.enter)
        case 9: return key(.tab)
        case 127, 8: return key(.backspace)
        case 57363: return key(.menu)
        case 57376...57398: return key(.function(code - 57376 + 13))
        case 57399...57408: return characterKey(Character(String(code - 57399)), modifiers: modifiers, text: text)
        case 57409...57413, 57415, 57416:
            let symbols: [Int: Character] = [57409: ".", 57410: "/", 57411: "*", 57412: "-", 57413: "+", 57415: "=", 57416: ","]
            return characterKey(symbols[code]!, modifiers: modifiers, text: text)
        case 57417: return key(.left)
        case 57418: return key(.right)
        case 57419: return key(.up)
        case 57420: return key(.down)
        case 57421: return key(.pageUp)
        case 57422: return key(.pageDown)
        case 57423: return key(.home)
        case 57424: return key(.end)
        case 57425: return key(.insert)
        case 57426: return key(.delete)
        case 0xE000...0xF8FF: return nil  // other functional keys: modifiers, locks, media
        default:
            var base = code
            if modifiers.contains(.shift), let shifted { base = shifted }
            guard let scalar = Unicode.Scalar(UInt32(clamping: base)), scalar.value >= 0x20 else { return nil }
            var character = Character(scalar)
            if modifiers.contains(.shift), shifted == nil, character.isASCII, character.isLetter {
                character = Character(character.uppercased())
            }
            return characterKey(character, modifiers: modifiers, text: text)
        }
    }

    /// A key that types `character` (or `text` when the terminal sent it), in the form the
    /// legacy encoding gives: Shift folded into the character, Ctrl plus a letter as
    /// ``Key/control(_:)``.
    private static func characterKey(_ character: Character, modifiers: Modifiers, text: [Int]) -> KeyEvent {
        var modifiers = modifiers
        if modifiers.contains(.control), !modifiers.contains(.alt), character.isASCII,
            character.isLetter || character == " " || character == "@"
        {
            modifiers.remove(.control)
            modifiers.remove(.shift)
            let letter: Character = character == "@" ? " " : Character(character.lowercased())
            return KeyEvent(.control(letter), modifiers: modifiers)
        }
        var typed = character
        let scalars = text.compactMap { Unicode.Scalar(UInt32(clamping: $0)) }.filter { $0.value >= 0x20 && $0.value != 0x7F }
        if !scalars.isEmpty {
            var string = ""
            string.unicodeScalars.append(contentsOf: scalars)
            if let first = string.first { typed = first }
        }
        // Shift is part of the character typed (`A`, `!`), as in the legacy encoding.
        if !modifiers.contains(.control) { modifiers.remove(.shift) }
        return KeyEvent(.character(typed), modifiers: modifiers)
    }
}
