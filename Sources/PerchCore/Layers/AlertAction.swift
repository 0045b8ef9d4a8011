/// What confirming an alert does.
public enum AlertAction: Hashable, Sendable {
    /// Deletes the Catalog item with this id.
    case deleteItem(id: String)
    /// Removes a field of an account, or the account, from the config file
    /// (``DeleteFromConfig``).
    case deleteFromConfig(accountID: String, path: [String])

    /// A confirmation alert for this action: PerchKit's ``AlertLayer`` (UIAlertController's
    /// `.alert` style) titled `title`, saying `message`, with Cancel, which has the focus first so
    /// that a stray Enter never destroys anything, and a destructive `confirmTitle` button.
    /// Confirming replies this action to the layer that presented the alert; Cancel, `Esc` and a
    /// click outside reply nothing.
    public func confirmation(title: String, message: String, confirmTitle: String) -> Presentation {
        let alert = AlertLayer(
            title: title, message: message,
            buttons: [AlertLayer.Button("Cancel", role: .cancel), AlertLayer.Button(confirmTitle, role: .destructive)])
        return Presentation(KitLayer(alert, replies: [1: AnyOutcome(self)]))
    }
}

extension InputContext {
    /// A confirmation alert's keys (PerchKit's ``AlertLayer``'s): ←→ move between its buttons.
    public static let alert = KitLayer<AlertLayer>.inputContext(AlertLayer(title: "", message: "", buttons: []).keys)
}

extension HitTarget {
    /// A button of an alert, by index, left to right (``AlertLayer/Part/button(_:)``).
    public static func alertButton(_ index: Int) -> HitTarget { .hit(AlertLayer.Part.button(index)) }
}
