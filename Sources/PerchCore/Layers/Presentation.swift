/// A layer presented above the panes. ``AppState/presented`` holds them bottom first, so the
/// last element is on top: keys go to it, and a click outside it dismisses it.
public enum Presentation: Hashable, Sendable {
    /// The account sheet.
    case accountSheet(AccountSheet)
    /// The help overlay (`?`), listing the bindings of the context below it.
    case help(HelpOverlay)
    /// A Catalog item's context menu: preview card and actions, over a dimmed screen.
    case contextMenu(ContextMenu)
    /// A confirmation alert, over a dimmed screen.
    case alert(Alert)
    /// A full-screen cover, over everything including the tab bar.
    case cover(Cover)
    /// The `Add account…` form, full-screen like a cover.
    case accountForm(AccountForm)

    /// Whether this layer takes input; a sheet sliding away after its dismissal does not.
    public var isActive: Bool {
        if case .accountSheet(let sheet) = self { return !sheet.isClosing }
        return true
    }

    /// Who receives keys while this layer is on top.
    public var inputContext: InputContext {
        switch self {
        case .accountSheet(let sheet): sheet.isEditingFilter ? .accountSheetFilter : .accountSheet
        case .help: .help
        case .contextMenu: .contextMenu
        case .alert: .alert
        case .cover: .cover
        case .accountForm: .accountForm
        }
    }
}


extension Presentation {
    /// Hands `message` to the layer's own model; returns what it asks of the root.
    mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        switch self {
        case .accountSheet(var model): defer { self = .accountSheet(model) }; return model.update(message, context)
        case .help(var model): defer { self = .help(model) }; return model.update(message, context)
        case .contextMenu(var model): defer { self = .contextMenu(model) }; return model.update(message, context)
        case .alert(var model): defer { self = .alert(model) }; return model.update(message, context)
        case .cover(var model): defer { self = .cover(model) }; return model.update(message, context)
        case .accountForm(var model): defer { self = .accountForm(model) }; return model.update(message, context)
        }
    }

    /// Draws the layer with its own model.
    func render(into frame: inout Frame, _ context: ModelContext) {
        switch self {
        case .accountSheet(let model): model.render(into: &frame, context)
        case .help(let model): model.render(into: &frame, context)
        case .contextMenu(let model): model.render(into: &frame, context)
        case .alert(let model): model.render(into: &frame, context)
        case .cover(let model): model.render(into: &frame, context)
        case .accountForm(let model): model.render(into: &frame, context)
        }
    }
}
