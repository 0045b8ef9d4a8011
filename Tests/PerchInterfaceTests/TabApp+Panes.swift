import PerchInterfaceTesting
import PerchKit

@testable import PerchDomain
@testable import PerchInterface

/// Each pane of the root by its type, for tests that look at or seed a pane's own state .
extension TabApp {
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

extension TabApp {
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

/// PerchKit's layers as the root presents them, for tests that look at them.
extension AnyLayer {
    /// The layer, when it is PerchKit's alert.
    var alert: AlertLayer? { base as? AlertLayer }
    /// The layer, when it is PerchKit's help overlay.
    var help: HelpLayer? { base as? HelpLayer }
}

extension HelpLayer {
    /// Every row listed, in order.
    var rows: [Row] { sections.flatMap(\.rows) }
}

extension KeyTable {
    /// The rows help lists for this table.
    var helpRows: [HelpLayer.Row] { help.map { HelpLayer.Row($0.label, $0.help) } }
    /// The help overlay over this table alone.
    var helpLayer: HelpLayer { HelpLayer(title: title, sections: [HelpLayer.Section("", helpRows)]) }
}
