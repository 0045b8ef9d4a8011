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

    /// The line the Settings pane and `perch doctor` show.
    public var summary: String {
        switch self {
        case .releaseEvents: "press and release (kitty keyboard protocol)"
        case .autoRepeat: "from auto-repeat (no release events)"
        case .off: "off"
        }
    }
}
