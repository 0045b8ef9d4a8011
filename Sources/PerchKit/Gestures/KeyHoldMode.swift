/// How a key hold is recognised, chosen at start from what the terminal can report.
public enum KeyHoldMode: String, CaseIterable, Hashable, Sendable {
    /// The terminal reports press, repeat and release (kitty keyboard protocol): a hold fires
    /// when the key has been down for the long-press duration, at that deadline.
    case releaseEvents = "kitty"
    /// Only presses arrive: a hold is inferred from the terminal's auto-repeat, so it fires on
    /// the first auto-repeat at or after the long-press duration.
    case autoRepeat = "repeat"
    /// Holding a key is never a gesture.
    case off

    /// One line describing the mode, for a preferences screen or a diagnosis.
    public var summary: String {
        switch self {
        case .releaseEvents: "press and release (kitty keyboard protocol)"
        case .autoRepeat: "from auto-repeat (no release events)"
        case .off: "off"
        }
    }
}

/// How a key hold is to be recognised, as the person chose it (an app's `--key-hold` option,
/// say); ``initialMode`` is the ``KeyHoldMode`` to start with.
public enum KeyHoldPreference: String, CaseIterable, Hashable, Sendable {
    /// Release events where the terminal answers the kitty keyboard protocol query, else auto-repeat.
    case auto
    /// Release events, the protocol turned on without asking.
    case kitty
    /// Auto-repeat, the protocol left off.
    case `repeat`
    /// No key holds.
    case off

    /// The mode in effect before the terminal has answered anything: under `auto`, auto-repeat
    /// until the kitty keyboard protocol's query is answered (the app then changes it).
    public var initialMode: KeyHoldMode {
        switch self {
        case .auto, .repeat: .autoRepeat
        case .kitty: .releaseEvents
        case .off: .off
        }
    }

    /// The kitty keyboard protocol flags to push for ``KeyHoldMode/releaseEvents`` (`CSI > 31 u`): disambiguate escape codes
    /// (1), report event types (2), report alternate keys (4), report all keys as escape codes
    /// (8) and report associated text (16). All keys as escape codes makes Enter, Tab and
    /// Backspace report releases too; alternate keys and associated text keep shifted and
    /// non-ASCII characters typed as they are. Reference: kitty "Comprehensive keyboard handling
    /// in terminals", "Progressive enhancement".
    public static let keyboardFlags = 31
}
