import PerchKit

/// The bytes a terminal sends for keys and the mouse, as ``AppDriver`` feeds them to an app:
/// xterm's encoding (ctlseqs, "PC-Style Function Keys", "SGR (1006)" mouse) and the kitty
/// keyboard protocol's `CSI … u` form with event types ("Comprehensive keyboard handling in
/// terminals").
public enum TerminalInput {
    /// Whether a kitty key event is a press, an auto-repeat or a release.
    public enum KeyEventType: Int, Sendable {
        /// The key went down (event type 1, the default).
        case press = 1
        /// The keyboard's auto-repeat while it is held (2).
        case `repeat` = 2
        /// The key went up (3).
        case release = 3
    }

    /// `key` as xterm sends it with no keyboard protocol turned on. `Esc` is `CSI 27 u`, which
    /// the decoder reads at once (a lone `ESC` byte is resolved only after a timeout).
    public static func legacy(_ key: KeyEvent) -> [UInt8] {
        let mods = Int(key.modifiers.rawValue)
        let alt: [UInt8] = key.modifiers.contains(.alt) ? [0x1B] : []
        switch key.key {
        case .character(let character):
            if key.modifiers.contains(.control) { return kitty(key, .press) }
            return alt + Array(String(character).utf8)
        case .control(let letter):
            let code = letter == " " ? 0 : Int(letter.asciiValue ?? 0x60) & 0x1F
            return alt + [UInt8(code)]
        case .enter: return mods == 0 ? [0x0D] : kitty(key, .press)
        case .tab: return key.modifiers == .shift ? Array("\u{1B}[Z".utf8) : (mods == 0 ? [0x09] : kitty(key, .press))
        case .backspace: return alt + [0x7F]
        case .escape: return Array("\u{1B}[27u".utf8)
        case .up, .down, .right, .left, .home, .end:
            let final = letterFinal(key.key)
            return Array((mods == 0 ? "\u{1B}[\(final)" : "\u{1B}[1;\(mods + 1)\(final)").utf8)
        case .function(let n) where (1...4).contains(n):
            let final = ["P", "Q", "R", "S"][n - 1]
            return Array((mods == 0 ? "\u{1B}O\(final)" : "\u{1B}[1;\(mods + 1)\(final)").utf8)
        case .function(let n) where n >= 13:
            // xterm sends F13 and up as F1–F12 with modifiers; kitty's codes say which they are.
            return kitty(key, .press)
        case .function, .pageUp, .pageDown, .insert, .delete, .menu:
            let number = tildeNumber(key.key)
            return Array((mods == 0 ? "\u{1B}[\(number)~" : "\u{1B}[\(number);\(mods + 1)~").utf8)
        }
    }

    /// `key` in the kitty keyboard protocol's form with its event type: `CSI code ; mods:type u`
    /// for keys with a code point (a character, Ctrl plus a letter, Enter 13, Tab 9, Backspace
    /// 127, Esc 27, Menu 57363), the legacy final byte with `1 ; mods:type` for the arrows, Home,
    /// End and F1–F4, and `number ; mods:type ~` for the others.
    public static func kitty(_ key: KeyEvent, _ type: KeyEventType) -> [UInt8] {
        var modifiers = key.modifiers
        let code: Int?
        switch key.key {
        case .character(let character): code = Int(character.unicodeScalars.first?.value ?? 0)
        case .control(let letter):
            modifiers.insert(.control)
            code = Int(letter.unicodeScalars.first?.value ?? 0)
        case .enter: code = 13
        case .tab: code = 9
        case .backspace: code = 127
        case .escape: code = 27
        case .menu: code = 57363
        case .function(let n) where (13...35).contains(n): code = 57376 + n - 13
        default: code = nil
        }
        let field = "\(Int(modifiers.rawValue) + 1):\(type.rawValue)"
        if let code { return Array("\u{1B}[\(code);\(field)u".utf8) }
        switch key.key {
        case .up, .down, .right, .left, .home, .end: return Array("\u{1B}[1;\(field)\(letterFinal(key.key))".utf8)
        case .function(let n) where [1, 2, 4].contains(n): return Array("\u{1B}[1;\(field)\(["P", "Q", "", "S"][n - 1])".utf8)
        default: return Array("\u{1B}[\(tildeNumber(key.key));\(field)~".utf8)
        }
    }

    /// An SGR mouse report: `button` (0 left, 32 + button a drag, 64/65 the wheel) at 0-based
    /// (`column`, `row`), `M` for a press or `m` for a release.
    public static func mouse(_ button: Int, _ column: Int, _ row: Int, release: Bool) -> [UInt8] {
        Array("\u{1B}[<\(button);\(column + 1);\(row + 1)\(release ? "m" : "M")".utf8)
    }

    /// The final byte of a key xterm sends as `CSI final`.
    private static func letterFinal(_ key: Key) -> String {
        switch key {
        case .up: "A"
        case .down: "B"
        case .right: "C"
        case .left: "D"
        case .home: "H"
        default: "F"
        }
    }

    /// The number of a key xterm sends as `CSI number ~` (F3 is 13, as kitty sends it).
    private static func tildeNumber(_ key: Key) -> Int {
        switch key {
        case .insert: 2
        case .delete: 3
        case .pageUp: 5
        case .pageDown: 6
        case .menu: 29
        case .function(let n):
            switch n {
            case 3: 13
            case 5: 15
            case 6...10: n + 11
            case 11, 12: n + 12
            default: n
            }
        default: 1
        }
    }
}
