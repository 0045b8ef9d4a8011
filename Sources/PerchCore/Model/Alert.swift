/// What confirming an alert does.
public enum AlertAction: Hashable, Sendable {
    /// Deletes the Catalog item with this id (and dismisses the context menu below the alert).
    case deleteItem(id: String)
}

/// A confirmation alert (UIAlertController's `.alert` style): a title, a message and two
/// buttons, Cancel and a destructive confirmation. Cancel has the focus at first, so a stray
/// Enter never destroys anything.
public struct Alert: Hashable, Sendable {
    public var title: String
    public var message: String
    /// Label of the confirming button, e.g. "Delete".
    public var confirmTitle: String
    public var action: AlertAction
    /// Focused button: 0 Cancel, 1 the confirmation.
    public var cursor = 0

    public init(title: String, message: String, confirmTitle: String, action: AlertAction) {
        self.title = title
        self.message = message
        self.confirmTitle = confirmTitle
        self.action = action
    }

    /// Button labels, left to right.
    public var buttons: [String] { ["Cancel", confirmTitle] }
}
