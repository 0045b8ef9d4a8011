/// What lies under a cell of the screen, as far as pointer gestures care.
public enum HitTarget: Hashable, Sendable {
    /// Nothing that reacts to the pointer.
    case none
    /// A tab in the tab bar.
    case tab(Tab)
    /// A row of the Catalog list, by item index.
    case catalogRow(Int)
    /// A row of the Settings pane, by row index.
    case settingsRow(Int)
    /// An account row of the account sheet, by account index.
    case sheetRow(Int)
    /// The sheet's grabber, title or footer.
    case sheetChrome
    /// The screen above a presented sheet (a tap there dismisses it).
    case outsideSheet

    /// Whether holding the pointer here can become a long-press; elsewhere a press only taps.
    public var acceptsLongPress: Bool { self == .tab(.overview) }
}
