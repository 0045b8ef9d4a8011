import PerchKit

@testable import PerchCore

/// Each pane of the root by its type, for tests that look at or seed a pane's own state (the
/// root itself reaches panes only through ``TabPane``).
extension AppState {
    var overviewPane: OverviewPane {
        get { self[pane: OverviewPane.self] }
        set { self[pane: OverviewPane.self] = newValue }
    }
    var catalogPane: CatalogPane {
        get { self[pane: CatalogPane.self] }
        set { self[pane: CatalogPane.self] = newValue }
    }
    var statsPane: StatsPane {
        get { self[pane: StatsPane.self] }
        set { self[pane: StatsPane.self] = newValue }
    }
    var settingsPane: SettingsPane {
        get { self[pane: SettingsPane.self] }
        set { self[pane: SettingsPane.self] = newValue }
    }
}

extension AppState {
    /// `Edit config…` run from Settings as a person runs it (its tab, its last row, `Enter`), the
    /// tab shown before selected again, and the editor's end, `edited`, delivered: Settings takes
    /// the outcomes of the jobs it asked for, and only those.
    mutating func finishEditConfig(_ edited: ConfigEdited) {
        let shown = selectedTab
        for key in [KeyEvent.char("4"), .char("G"), KeyEvent(.enter)] { _ = update(.key(key)) }
        selectedTab = shown
        _ = update(.outcome(AnyOutcome(edited), for: .pane(.settings)))
    }
}

extension ModelMessage {
    /// The Catalog's key meaning `verb`, as Perch's root binds it and hands it to the pane.
    static func catalog(_ verb: CatalogPane.Verb) -> ModelMessage {
        let row = CatalogPane.keyTable.rows.firstIndex { $0.verb == verb && !$0.keys.isEmpty }!
        return .action(Tab.catalog.keys[row].action!)
    }
}

/// PerchKit's layers as Perch's root presents them (``KitLayer``), for tests that look at them.
extension Presentation {
    /// The layer, when it is PerchKit's alert.
    var alert: AlertLayer? { self.as(KitLayer<AlertLayer>.self)?.layer }
    /// The layer, when it is PerchKit's help overlay.
    var help: HelpLayer? { self.as(KitLayer<HelpLayer>.self)?.layer }
}

extension HelpLayer {
    /// Every row listed, in order.
    var rows: [Row] { sections.flatMap(\.rows) }
}

extension InputContext {
    /// What `key` does here, as the root looks it up.
    func action(for key: KeyEvent) -> KeyAction? { KeyBindings.binding(for: key, in: self)?.action }
    /// The rows help lists for this context.
    var helpRows: [HelpLayer.Row] { KeyBindings.table(for: self).map { HelpLayer.Row($0.label, $0.summary) } }
}

extension InputContext {
    /// The help overlay over this context, as the layer the root presents.
    var helpLayer: KitLayer<HelpLayer> { help.as(KitLayer<HelpLayer>.self)! }
}

extension AlertAction {
    /// The alert confirming this action, as the layer the root presents.
    func alertLayer(title: String, message: String, confirmTitle: String) -> KitLayer<AlertLayer> {
        KitLayer(alert(title: title, message: message, confirmTitle: confirmTitle))
    }
}
