import PerchKit

extension InputContext {
    /// The help overlay (`?`) over this context: PerchKit's ``HelpLayer``, titled with this
    /// context's title and listing its bindings as ``KeyBindings/table(for:)`` has them (Ctrl-C and
    /// Ctrl-Z first, then its own, then the tabs' and the global keys on a pane), so help can never
    /// list a key that does nothing here.
    public var help: Presentation {
        let rows = KeyBindings.table(for: self).map { HelpLayer.Row($0.label, $0.summary) }
        return Presentation(KitLayer(HelpLayer(title: title, sections: [HelpLayer.Section("", rows)])))
    }

    /// The help overlay's own keys (PerchKit's ``HelpLayer``'s).
    public static let help = KitLayer<HelpLayer>.inputContext(HelpLayer(title: "", sections: []).keys)
}
