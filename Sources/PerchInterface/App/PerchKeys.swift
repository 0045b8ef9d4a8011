import PerchDomain
import PerchKit

/// Every key of Perch's interface as help lists it, read from the key tables the interface itself
/// routes keys by (each pane's and layer's own, Perch's model's, PerchKit's root's), for
/// `perch --help` and the man page: nothing is listed twice, so the two cannot disagree.
public enum PerchKeys {
    /// One row of help: the keys as help names them (`↑ k`) and what they do.
    public typealias Row = (label: String, help: String)

    /// The root of a run with no account, for its own tables.
    private static let root = TabApp.perch(accounts: [], size: Size(width: 80, height: 24))

    /// The keys every tab has: Perch's own (`a`), then the root's (the tabs, help, quit).
    public static var everywhere: [Row] { PerchModel(accounts: []).keys.help + root.keys.help }

    /// The keys of `tab`'s pane alone, in the order its help lists them.
    public static func pane(_ tab: Tab) -> [Row] { Tab.panes[tab.rawValue].helpRows }

    /// The account sheet's keys, and those it has while its filter is typed.
    public static let sheet: [Row] = AccountSheet.keyTable.help
    /// The account sheet's keys while its filter is typed.
    public static let sheetFilter: [Row] = AccountSheet.filterKeyTable.help
    /// The root's keys over any layer (help, closing it, quitting, suspending).
    public static var overLayers: [Row] { root.keysOverLayers.help }

    /// Every other layer's keys, under its title: help, the Catalog's menu, its alert, its cover,
    /// the `Add account…` form.
    public static let layers: [(title: String, rows: [Row])] = [
        (HelpLayer.keyTable.title, HelpLayer.keyTable.help), (ContextMenu.keyTable.title, ContextMenu.keyTable.help),
        (AlertLayer.keyTable.title, AlertLayer.keyTable.help), (Cover.keyTable.title, Cover.keyTable.help),
        (AccountForm.keyTable.title, AccountForm.keyTable.help),
    ]
}

extension PerchPane {
    /// Its key table's rows as help lists them.
    public static var helpRows: [PerchKeys.Row] { keyTable.help }
    /// The keys its key table binds, in order (a key in two rows twice).
    public static var helpRowKeys: [KeyEvent] { keyTable.rows.flatMap(\.keys) }
}
