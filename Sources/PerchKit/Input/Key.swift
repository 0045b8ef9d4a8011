/// A key on the keyboard, as decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
    /// A printable character (one grapheme cluster).
    case character(Character)
    /// Enter, Tab, Backspace (byte 0x7F or 0x08) and a lone Escape.
    case enter, tab, backspace, escape
    /// The arrow keys.
    case up, down, left, right
    /// The editing keypad.
    case home, end, pageUp, pageDown, insert, delete
    /// F1–F12.
    case function(Int)
    /// The Menu (application) key: `CSI 29 ~` in xterm ctlseqs ("Do" on a VT220 keyboard).
    case menu
    /// A control character typed as Ctrl plus a letter, e.g. `control("c")` for byte 0x03.
    case control(Character)
}

/// Modifier keys held with a key or mouse event (xterm ctlseqs "PC-Style Function Keys": parameter − 1 is a bit set).
public struct Modifiers: OptionSet, Hashable, Sendable {
    /// The bits: shift 1, alt 2, control 4 (the decoder drops meta and higher bits).
    public let rawValue: UInt8
    /// The set whose bits are `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Shift (bit 1).
    public static let shift = Modifiers(rawValue: 1)
    /// Alt, also reported for a key sent after `ESC` (bit 2).
    public static let alt = Modifiers(rawValue: 2)
    /// Control (bit 4).
    public static let control = Modifiers(rawValue: 4)
}

/// A key with its modifiers.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public var key: Key
    /// The modifiers held with it.
    public var modifiers: Modifiers

    /// `key` with `modifiers` (none by default).
    public init(_ key: Key, modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A plain character key, e.g. `.char("q")`.
    public static func char(_ c: Character) -> KeyEvent { KeyEvent(.character(c)) }

    /// The key with Emacs-style prefixes for its modifiers, e.g. `C-M-character("x")`.
    public var description: String {
        var prefix = ""
        if modifiers.contains(.control) { prefix += "C-" }
        if modifiers.contains(.alt) { prefix += "M-" }
        if modifiers.contains(.shift) { prefix += "S-" }
        return prefix + "\(key)"
    }
}
