import PerchDomain
import PerchInterface
import PerchKit

/// Whether the terminal speaks the kitty keyboard protocol, from its answers to the query
/// (``TerminalQuery/keyboardProtocol``: `CSI ? u`, then a primary device attributes request
/// `CSI c`, which every terminal answers, `CSI ? … c`). A terminal that speaks the protocol
/// answers the query first (`CSI ? flags u`); one that answers only the second does not speak
/// it; `perch doctor` gives up on one that answers neither after ``Doctor/queryTimeoutMilliseconds``.
/// Reference: kitty "Comprehensive keyboard handling in
/// terminals", "Detection of support for this protocol"; xterm ctlseqs "Send Device Attributes
/// (Primary DA)".
struct KeyboardProtocolProbe {
    /// What the terminal answered.
    enum Answer: Hashable, Sendable {
        /// It answered the query: it speaks the protocol, with these flags in effect now.
        case kitty(flags: Int)
        /// It answered only the device attributes request.
        case primaryAttributesOnly
        /// It answered nothing in time.
        case silent

        /// How it was found, for `perch doctor`.
        var summary: String {
            switch self {
            case .kitty(let flags): "yes (answered CSI ? u with flags \(flags))"
            case .primaryAttributesOnly: "no (answered only CSI c)"
            case .silent: "unknown (no answer to CSI ? u or CSI c within \(Doctor.queryTimeoutMilliseconds) ms)"
            }
        }
    }

    /// The flags Perch pushes: disambiguate escape codes (1), report event types (2), report
    /// alternate keys (4), report all keys as escape codes (8) and report associated text (16).
    /// All keys as escape codes makes Enter, Tab and Backspace report releases too; alternate
    /// keys and associated text keep shifted and non-ASCII characters typed as they are.
    static let flags = KeyHoldPreference.keyboardFlags

    /// The key-hold mode for `requested` (`--key-hold`) and the terminal's answer: `auto` uses
    /// release events where the terminal speaks the protocol, else auto-repeat.
    static func mode(requested: KeyHoldPreference, answer: Answer?) -> KeyHoldMode {
        switch requested {
        case .auto: if case .kitty = answer { .releaseEvents } else { .autoRepeat }
        case .kitty: .releaseEvents
        case .repeat: .autoRepeat
        case .off: .off
        }
    }
}
