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
