/// The OSC 52 control sequence that sets the terminal's clipboard (xterm ctlseqs, "Operating
/// System Commands", `OSC 52 ; Pc ; Pd ST`): `ESC ] 52 ; c ; <base64 of the text> ESC \`.
///
/// Only the base64 of the text reaches the terminal, so text holding control characters can
/// never end the sequence early or start another one. Terminals ignore the sequence unless
/// they allow programs to set the clipboard (xterm's `allowWindowOps`/`disallowedWindowOps`,
/// tmux's `set-clipboard`).
public enum OSC52 {
    /// The sequence that puts `text` (as UTF-8) on the clipboard selection `c`.
    public static func sequence(for text: String) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + base64(Array(text.utf8)) + [0x1B, 0x5C]
    }

    /// Standard base64 (RFC 4648 §4) with `=` padding, as ASCII bytes.
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return out
    }
}
