import PerchDomain
import PerchInterface
import PerchKit

/// The states the bench draws and acts on.
enum Scenarios {
    /// `count` accounts with names and handles of ordinary length; ids `a1` … `a<count>`.
    static func accounts(_ count: Int) -> [Account] {
        (1...max(1, count)).map { Account(id: "a\($0)", name: "Account \($0)", handle: "@user\($0)") }
    }

    /// One screen the bench draws: its name, its state, and the state drawn just before it
    /// when a person reaches it: another tab for a tab (Overview for each other tab, the Catalog
    /// for Overview), the screen a layer is opened over for a layer.
    struct Screen {
        var name: String
        var state: TabApp
        var before: TabApp
    }

    /// Every screen, by name: each tab, then each layer the app presents: the account sheet up
    /// over Overview, a Catalog item's context menu (`m`), its full-screen cover (Open), the
    /// confirmation alert over the menu (Delete…), the help overlay over the Catalog (`?`) and
    /// the account form (Settings, Add account…). Each comes with the state drawn before it.
    static func screens(size: Size, accounts: [Account] = Account.samples) -> [Screen] {
        let saved = SavedState(currentAccount: accounts[accounts.count / 2].id, switchCount: 3, switchesPerAccount: [accounts[0].id: 3])
        // Stats draws from a full history: 10,000 switches among the accounts over 40 days.
        let end: Int64 = 1_796_000_000
        let history = SwitchHistory(
            events: (0..<10_000).map { index in
                SwitchEvent(account: accounts[index * 7 % accounts.count].id, time: end - 40 * 86_400 + Int64(index) * 345, source: .tui)
            })
        var base = TabApp.perch(accounts: accounts, saved: saved, size: size, history: history)
        _ = base.update(.deliver(PerchModel.Message.wallTime(WallTime(seconds: end)), to: .app))
        // Drawn as on a terminal that answered OSC 11 with a dark background, as most do: with no
        // answer yet no colour is drawn, and full blocks are then characters, not filled cells.
        _ = base.update(.ui(.terminalReply(.backgroundColor(.black))))
        var tabs: [TabApp] = []
        for tab in Tab.allCases {
            var state = base
            _ = state.update(.ui(.key(.char(tab.shortcut))))
            tabs.append(state)
        }
        var result: [Screen] = Tab.allCases.enumerated().map { index, tab in
            Screen(name: tab.title.lowercased(), state: tabs[index], before: index == 0 ? tabs[1] : tabs[0])
        }
        let catalog = tabs[Tab.allCases.firstIndex(of: .catalog)!]
        let settings = tabs[Tab.allCases.firstIndex(of: .settings)!]
        var sheet = base
        _ = sheet.update(.ui(.key(.char("a"))))
        result.append(Screen(name: "sheet", state: sheet, before: base))
        var menu = catalog
        _ = menu.update(.ui(.key(.char("m"))))
        precondition(menu.layers.count == 1, "m did not open the context menu")
        result.append(Screen(name: "context_menu", state: menu, before: catalog))
        var cover = menu
        _ = cover.update(.ui(.key(KeyEvent(.enter))))
        precondition(cover.layers.count == 1 && cover.layers.map(\.id) != menu.layers.map(\.id), "Enter on Open did not show the cover")
        result.append(Screen(name: "cover", state: cover, before: menu))
        var onDelete = menu
        while onDelete.layers.count == 1, (onDelete.layers[0].base as? ContextMenu)?.focusedAction != .delete {
            _ = onDelete.update(.ui(.key(.char("j"))))
        }
        var alert = onDelete
        _ = alert.update(.ui(.key(KeyEvent(.enter))))
        precondition(
            alert.layers.count == 2 && alert.layers[1].base is AlertLayer, "Enter on Delete… did not show the alert")
        result.append(Screen(name: "alert", state: alert, before: onDelete))
        var help = catalog
        _ = help.update(.ui(.key(.char("?"))))
        precondition(help.layers.count == 1 && help.layers[0].base is HelpLayer, "? did not show the help overlay")
        result.append(Screen(name: "help", state: help, before: catalog))
        var onAdd = settings
        while onAdd.layers.isEmpty,
            SettingsAction.allCases[onAdd.pane(SettingsPane.self, at: Tab.settings.rawValue)!.list.cursor] != .addAccount
        {
            _ = onAdd.update(.ui(.key(.char("j"))))
        }
        var form = onAdd
        _ = form.update(.ui(.key(KeyEvent(.enter))))
        precondition(form.layers.count == 1 && form.layers[0].base is AccountForm, "Add account… did not show the form")
        result.append(Screen(name: "form", state: form, before: onAdd))
        return result
    }

    /// An action: a state and the key that acts on it.
    struct Action {
        var id: String
        var before: TabApp
        var key: KeyEvent
    }

    /// The actions whose changed cells (and, in bench.py, bytes) are counted.
    static func actions(size: Size) -> [Action] {
        var base = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: size)
        _ = base.update(.ui(.terminalReply(.backgroundColor(.black))))  // a dark background, as in screens(size:accounts:)
        var catalog = base
        _ = catalog.update(.ui(.key(.char(Tab.catalog.shortcut))))
        var sheet = base
        _ = sheet.update(.ui(.key(.char("a"))))
        return [
            Action(id: "tab_switch", before: base, key: .char("2")),
            Action(id: "cursor_move", before: catalog, key: .char("j")),
            Action(id: "sheet_open", before: base, key: .char("a")),
            Action(id: "sheet_cursor_move", before: sheet, key: KeyEvent(.down)),
        ]
    }

    /// The Catalog of an account whose `catalog.command` printed `lines` lines, shown.
    static func catalogFromSource(lines: Int, size: Size) -> TabApp {
        let account = Account(id: "src", name: "Source", catalog: CatalogCommands(command: "seq \(lines)"))
        var state = TabApp.perch(accounts: [account], saved: SavedState(currentAccount: "src"), size: size)
        _ = state.update(.ui(.key(.char(Tab.catalog.shortcut))))
        let items = (1...lines).map {
            CatalogItem(id: "item-\($0)", title: "repository-\($0)", detail: "line \($0) of the source", kind: "")
        }
        _ = state.update(
            .deliver(CatalogPane.Message.loaded(.loaded(accountID: "src", items: items, skipped: 0)), to: .pane(Tab.catalog.rawValue)))
        return state
    }
}
