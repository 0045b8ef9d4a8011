import PerchDomain
import PerchKit

/// What confirming an alert does.
public enum AlertAction: Hashable, Sendable {
    /// Deletes the Catalog item with this id.
    case deleteItem(id: String)
    /// Removes a field of an account, or the account, from the config file
    /// (``DeleteFromConfig``).
    case deleteFromConfig(accountID: String, path: [String])

    /// A confirmation alert for this action: PerchKit's ``AlertLayer`` (UIAlertController's
    /// `.alert` style) titled `title`, saying `message`, with Cancel, which has the focus first so
    /// that a stray Enter never destroys anything, and a destructive `confirmTitle` button (index
    /// ``confirmButton``). The alert replies the index of the button pressed; `Esc` presses
    /// Cancel, and a click outside replies nothing.
    public func alert(title: String, message: String, confirmTitle: String) -> AlertLayer {
        AlertLayer(
            title: title, message: message,
            buttons: [AlertLayer.Button("Cancel", role: .cancel), AlertLayer.Button(confirmTitle, role: .destructive)])
    }

    /// The index of the confirming button in an alert of ``alert(title:message:confirmTitle:)``.
    public static let confirmButton = 1
}

extension HitTarget {
    /// A button of an alert, by index, left to right (``AlertLayer/Part/button(_:)``).
    public static func alertButton(_ index: Int) -> HitTarget { .hit(AlertLayer.Part.button(index)) }
}
