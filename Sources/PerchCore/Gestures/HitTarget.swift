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
    /// The account sheet's `Add account…` row, last in its list.
    case sheetAddAccount
    /// A text field of the `Add account…` form.
    case formField(AccountField)
    /// A button of the `Add account…` form.
    case formButton(AccountFormButton)
    /// The sheet's title, group headings or footer.
    case sheetChrome
    /// The sheet's top edge with the grabber (drag indicator): dragging it resizes the sheet.
    case sheetGrabber
    /// Inside the help overlay.
    case helpBody
    /// A context menu's preview card: activating it opens the item.
    case contextPreview
    /// An action row of a context menu, by index in ``ContextMenuAction/allCases``.
    case contextAction(Int)
    /// A context menu's border or an alert's text: inside the layer, reacting to nothing.
    case layerChrome
    /// A button of an alert, by index in ``Alert/buttons``.
    case alertButton(Int)
    /// A full-screen cover's close control (`✕`).
    case coverClose
    /// Anywhere else on a full-screen cover.
    case coverBody
    /// Outside the top presented layer (a tap there dismisses it).
    case outside
    /// A layer's `↑` or `↓` mark at an edge past which its content goes on (a form on a short
    /// screen, a menu's actions): a tap moves that way by this many rows.
    case layerScroll(Int)

    /// Whether holding the pointer here can become a long-press; elsewhere a press only taps.
    /// The Overview tab (the account sheet) and a Catalog row (its context menu).
    public var acceptsLongPress: Bool {
        if case .catalogRow = self { return true }
        return self == .tab(.overview)
    }

    /// Whether pressing here and moving drags it (``AppEvent/drag(_:_:)``) instead of cancelling.
    public var acceptsDrag: Bool { self == .sheetGrabber }
}
