/// A key on the keyboard, as decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
    /// A printable character (one grapheme cluster).
    case character(Character)
    case enter, tab, backspace, escape
    case up, down, left, right
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
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let alt = Modifiers(rawValue: 2)
    public static let control = Modifiers(rawValue: 4)
}

/// A key with its modifiers.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
    public var key: Key
    public var modifiers: Modifiers

    public init(_ key: Key, modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A plain character key, e.g. `.char("q")`.
    public static func char(_ c: Character) -> KeyEvent { KeyEvent(.character(c)) }

    public var description: String {
        var prefix = ""
        if modifiers.contains(.control) { prefix += "C-" }
        if modifiers.contains(.alt) { prefix += "M-" }
        if modifiers.contains(.shift) { prefix += "S-" }
        return prefix + "\(key)"
    }
}
