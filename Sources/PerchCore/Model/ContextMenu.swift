/// An action of a Catalog item's context menu, in the order the menu lists them.
public enum ContextMenuAction: CaseIterable, Hashable, Sendable {
    /// Opens the item in a full-screen cover.
    case open
    /// Pins the item to the top of the Catalog, or unpins it.
    case pin
    /// Copies the item's id to the terminal's clipboard (OSC 52).
    case copyID
    /// Deletes the item, after a confirmation alert.
    case delete

    /// The menu's label; Pin reads Unpin on a pinned item.
    public func title(pinned: Bool) -> String {
        switch self {
        case .open: "Open"
        case .pin: pinned ? "Unpin" : "Pin"
        case .copyID: "Copy id"
        case .delete: "Delete…"
        }
    }
}

/// A context menu over a Catalog item (UIContextMenuInteraction's shape): a preview card that
/// shows the item more richly than its row, and a menu of actions beside or below it.
public struct ContextMenu: Hashable, Sendable {
    /// The item the menu is for.
    public var itemID: String
    /// Focus: 0 is the preview card (Enter opens the item), 1… are the actions in
    /// ``ContextMenuAction/allCases`` order.
    public var cursor = 1

    public init(itemID: String) { self.itemID = itemID }

    /// Number of focusable rows: the preview and each action.
    public static let focusCount = ContextMenuAction.allCases.count + 1

    /// The focused action, or nil while the preview has the focus.
    public var focusedAction: ContextMenuAction? { cursor > 0 ? ContextMenuAction.allCases[cursor - 1] : nil }
}
