/// What confirming an alert does.
public enum AlertAction: Hashable, Sendable {
    /// Deletes the Catalog item with this id.
    case deleteItem(id: String)
    /// Removes a field of an account, or the account, from the config file
    /// (``DeleteFromConfig``).
    case deleteFromConfig(accountID: String, path: [String])
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

extension Alert: PresentedLayer {
    public var inputContext: InputContext { .alert }

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        switch message {
        case .action(.focusPrevious): cursor = max(0, cursor - 1)
        case .action(.focusNext): cursor = min(buttons.count - 1, cursor + 1)
        case .action(.activate): return activate(button: cursor)
        case .tap(let target):
            if case .button(let button)? = target.part(Part.self) { return activate(button: button) }
        default: break
        }
        return []
    }

    /// Presses a button: Cancel dismisses the alert alone; the confirmation dismisses it and
    /// replies its ``action`` to the layer that presented it (a context menu, which hands it on
    /// to the Catalog and goes too).
    func activate(button: Int) -> [Intent] {
        button == 1 ? [.dismiss, .reply(AnyOutcome(action))] : [.dismiss]
    }

    /// Draws the alert over the dimmed screen.
    public func render(into frame: inout Frame, _ context: ModelContext) {
        frame.screen.dimAll()
        let layout = AlertLayout(buttons: buttons, screen: context.size)
        let box = layout.frame
        frame.hits.mark(box, .layerChrome)
        guard box.width >= 4, box.height >= 3 else { return }
        frame.screen.clearCutWords(beside: [box])
        frame.screen.box(box, style: .bold)
        let inner = box.width - 4
        frame.screen.put(DisplayWidth.truncated(title, to: inner), column: box.x + 2, row: box.y + 1, style: .bold)
        if box.height >= AlertLayout.height {
            frame.screen.put(DisplayWidth.truncated(message, to: inner), column: box.x + 2, row: box.y + 2)
        }
        for (index, rect) in layout.buttons.enumerated() {
            frame.hits.mark(rect, .alertButton(index))
            var style = index == 1 ? Style(foreground: .red, bold: true) : Style.plain
            if index == cursor { style.reverse = true }
            frame.screen.put(
                AlertLayout.buttonText(buttons[index]), column: rect.x, row: rect.y, style: style, width: box.maxX - 1 - rect.x)
        }
    }
}

extension InputContext {
    /// A confirmation alert: ←→ move between its buttons.
    public static let alert = InputContext(
        title: "Alert",
        bindings: [
            KeyBinding(KeyBindings.keys(.escape), "Esc", .dismiss, "cancel"),
            KeyBinding(
                [KeyEvent(.left), .char("h"), KeyEvent(.tab, modifiers: .shift)], "← h Shift-Tab", .focusPrevious, "previous button"),
            KeyBinding([KeyEvent(.right), .char("l"), KeyEvent(.tab)], "→ l Tab", .focusNext, "next button"),
            KeyBinding(KeyBindings.keys(.enter), "Enter", .activate, "press the focused button"),
            KeyBinding(gesture: "click a button", "press it"),
            KeyBinding(gesture: "click outside", "cancel"),
        ])
}

extension Alert {
    /// The alert's parts under the pointer.
    public enum Part: LayerPart {
        /// A button, by index in ``Alert/buttons``.
        case button(Int)
    }
}

extension HitTarget {
    /// A button of an alert, by index in ``Alert/buttons``.
    public static func alertButton(_ index: Int) -> HitTarget { .layer(Alert.Part.button(index)) }
}
