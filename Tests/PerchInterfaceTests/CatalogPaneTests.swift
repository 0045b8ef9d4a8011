import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The Catalog from a source command, and each account's pane state.
@Suite("Catalog sources and per-account pane state")
struct CatalogPaneTests {
    static let accounts = [
        Account(id: "gh", name: "GitHub", catalog: CatalogCommands(command: "gh repo list", preview: "gh repo view")),
        Account(id: "kube", name: "Kube", catalog: CatalogCommands(command: "kubectl get pods -o name")),
        Account(id: "plain", name: "Plain", handle: "@plain"),
    ]

    /// `items`, as gh's catalog command printed them, delivered to `state`'s Catalog (which asked
    /// for its source at the first event).
    static func load(_ items: [CatalogItem], into state: inout TabApp) {
        _ = state.update(.outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: items, skipped: 0)), for: .pane(.catalog)))
    }

    static func items(_ prefix: String, _ count: Int) -> [CatalogItem] {
        (1...count).map { CatalogItem(id: "\(prefix)-\($0)", title: "\(prefix) \($0)", detail: "", kind: "") }
    }

    func state(current: String = "gh", saved: SavedState? = nil) -> TabApp {
        var savedState = saved ?? SavedState()
        savedState.currentAccount = current
        return TabApp.perch(accounts: Self.accounts, saved: savedState, size: Size(width: 80, height: 24))
    }

    @Test("the source runs at the first event, once; the spinner shows how long it has run and moves only while shown")
    func loading() {
        var state = state()
        let effects = state.update(.key(.char("2")), at: 1_000)
        #expect(effects == [.asked(by: .pane(.catalog), .perform(LoadCatalog(accountID: "gh", command: "gh repo list")))])
        #expect(state.update(.key(.char("j")), at: 1_100).isEmpty, "not run again while it runs")
        _ = state.update(.animationFrame, at: 3_500)
        #expect(state.render().lines[0].contains("loading 2 s"))
        #expect(state.nextAnimationDeadline == 3_600)
        _ = state.update(.key(.char("1")), at: 3_600)
        #expect(state.nextAnimationDeadline == nil, "no spinner frames while the Catalog is not shown")
        Self.load(Self.items("repo", 5), into: &state)
        #expect(state.catalogItems.count == 5)
        #expect(!state.catalogPane.isLoading)
    }

    @Test("r runs the source again; a failure keeps the last good list and says why")
    func refreshAndFailure() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 5), into: &state)
        #expect(
            state.update(.key(.char("r"))) == [.asked(by: .pane(.catalog), .perform(LoadCatalog(accountID: "gh", command: "gh repo list")))]
        )
        _ = state.update(
            .outcome(AnyOutcome(CatalogLoaded.failed(accountID: "gh", reason: "exited with status 1\nHTTP 401")), for: .pane(.catalog)))
        #expect(state.catalogItems.count == 5, "the last good list stays")
        #expect(state.render().lines[0].contains("load failed · r retry"))
        #expect(state.bannerText?.contains("HTTP 401") == true)
    }

    @Test("the last good list is kept per account: switching back shows it at once, without running the source")
    func keptPerAccount() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 30), into: &state)
        let toKube = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "kube", state: SavedState(currentAccount: "kube"), previous: "gh", changed: true)))))
        #expect(toKube.contains(.asked(by: .pane(.catalog), .perform(LoadCatalog(accountID: "kube", command: "kubectl get pods -o name")))))
        _ = state.update(
            .outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "kube", items: Self.items("pod", 3), skipped: 0)), for: .pane(.catalog)))
        let back = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "gh", state: SavedState(currentAccount: "gh"), previous: "kube", changed: true))))
        )
        #expect(!back.contains { $0.job(LoadCatalog.self) != nil })
        #expect(state.catalogItems.count == 30)
    }

    @Test("an account without a command lists its config fields")
    func configFields() {
        var state = state(current: "plain")
        #expect(state.update(.key(.char("2"))).isEmpty)
        #expect(state.catalogItems.map(\.title) == ["id", "name", "handle"])
        #expect(state.catalogItems.map(\.detail) == ["plain", "Plain", "@plain"])
    }

    @Test("without a command, the account's tool identities come first; an identity's card shows what the tool reported when checked")
    func identities() {
        let identities = ToolIdentities([.fixture(.kube, "prod, namespace web")])
        let account = Account(id: "ops", name: "Ops", identities: identities)
        var state = TabApp.perch(accounts: [account], saved: SavedState(currentAccount: "ops"), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("2")))
        #expect(state.catalogItems.first?.title == "kube")
        #expect(state.catalogItems.first?.detail == "prod, namespace web")
        #expect(state.catalogItems.dropFirst().map(\.title) == ["id", "name"])
        _ = state.update(
            .outcome(
                AnyOutcome(
                    IdentitiesChecked(accountID: "ops", [IdentityCheck(tool: .kube, expected: "prod", actual: "staging", matches: false)])))
        )
        _ = state.update(.key(.char("m")))
        #expect(state.render().text.contains("now: staging  (drift)"))
    }

    @Test("the context menu runs the preview command; its output shows in the card")
    func preview() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 5), into: &state)
        let item = state.catalogItems[0]
        #expect(
            state.update(.key(.char("m"))) == [
                .asked(by: .pane(.catalog), .perform(PreviewCatalogItem(accountID: "gh", command: "gh repo view", item: item)))
            ])
        #expect(state.render().text.contains("loading preview…"))
        _ = state.update(
            .outcome(AnyOutcome(CatalogPreviewed(accountID: "gh", itemID: item.id, .text("Stars: 12\nForks: 3\n"))), for: .pane(.catalog)))
        let text = state.render().text
        #expect(text.contains("Stars: 12") && text.contains("Forks: 3"))
    }

    @Test("a long preview scrolls in the cover")
    func coverScrolls() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 5), into: &state)
        _ = state.update(.key(.char("m")))
        let id = state.catalogItems[0].id
        _ = state.update(
            .outcome(
                AnyOutcome(CatalogPreviewed(accountID: "gh", itemID: id, .text((1...100).map { "line \($0)" }.joined(separator: "\n")))),
                for: .pane(.catalog)))
        _ = state.update(.key(KeyEvent(.enter)))  // Open: no catalog.open, so the cover
        #expect(state.render().lines.contains { $0.trimmingSpaces() == "line 1" })
        _ = state.update(.key(KeyEvent(.end)))
        let lines = state.render().lines
        #expect(lines.contains { $0.trimmingSpaces() == "line 100" })
        #expect(!lines.contains { $0.trimmingSpaces() == "line 1" })
        #expect(lines[23].contains("84–103 of 103"), "title, id, a blank line and 100 lines")
    }

    @Test("per-account pane state: cursor, scroll and pins come back on switching back, and after a restart")
    func paneStateRoundTrip() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 100), into: &state)
        for _ in 0..<40 { _ = state.update(.key(.char("j"))) }
        _ = state.update(.key(.char("m")))
        _ = state.update(.key(.char("j")))
        let pinEffects = state.update(.key(KeyEvent(.enter)))  // Pin
        #expect(pinEffects.contains { $0.job(SavePanes.self) != nil }, "pins are saved when they change")
        for _ in 0..<5 { _ = state.update(.key(.char("j"))) }
        let ghCursor = state.catalog
        #expect(state.isPinned("repo-41"))
        // To another account and back.
        let away = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "kube", state: SavedState(currentAccount: "kube"), previous: "gh", changed: true)))))
        _ = away
        #expect(state.catalog == ListCursor())
        _ = state.update(
            .outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "kube", items: Self.items("pod", 3), skipped: 0)), for: .pane(.catalog)))
        _ = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "gh", state: SavedState(currentAccount: "gh"), previous: "kube", changed: true))))
        )
        #expect(state.catalog == ghCursor)
        // Quitting saves the panes; a new run from that state restores them before the list arrives.
        let quit = state.update(.key(.char("q")))
        guard let panes = quit.first?.job(SavePanes.self)?.panes else {
            Issue.record("quit saves the panes first: \(quit)")
            return
        }
        #expect(quit.last == .quit)
        var saved = SavedState(currentAccount: "gh")
        saved.panes = panes
        var next = TabApp.perch(accounts: Self.accounts, saved: saved, size: Size(width: 80, height: 24))
        _ = next.update(.key(.char("2")))
        #expect(next.catalog == ghCursor, "kept while the source runs")
        Self.load(Self.items("repo", 100), into: &next)
        #expect(next.catalog == ghCursor)
        #expect(next.isPinned("repo-41"))
        #expect(next.catalogItems.first?.id == "repo-41")
    }

    // Bug (issue 20): pane state was kept for removed accounts.
    @Test("pane state of an account no longer in the config is not kept")
    func paneStateOfRemovedAccount() {
        var saved = SavedState(currentAccount: "gh")
        saved.panes = ["gh": AccountPanes(statsScroll: 2), "gone": AccountPanes(statsScroll: 5)]
        let state = TabApp.perch(accounts: Self.accounts, saved: saved, size: Size(width: 80, height: 24))
        #expect(state.paneMemory["gh"]?.statsScroll == 2)
        #expect(state.paneMemory["gone"] == nil)
    }

    @Test("Stats keeps its scroll per account")
    func statsScrollPerAccount() {
        var state = state()
        state.history = SwitchHistory(
            events: (0..<50).map { SwitchEvent(account: $0 % 2 == 0 ? "gh" : "kube", time: Int64($0) * 600, source: .tui) })
        _ = state.update(.outcome(AnyOutcome(WallTime(seconds: 50 * 600))))
        _ = state.update(.key(.char("3")))
        for _ in 0..<7 { _ = state.update(.key(.char("j"))) }
        #expect(state.stats.scroll == 7)
        _ = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "kube", state: SavedState(currentAccount: "kube"), previous: "gh", changed: true)))))
        #expect(state.stats.scroll == 0)
        _ = state.update(
            .outcome(
                AnyOutcome(
                    SwitchProgress.saved(
                        SwitchOutcome(accountID: "gh", state: SavedState(currentAccount: "gh"), previous: "kube", changed: true))))
        )
        #expect(state.stats.scroll == 7)
        #expect(state.paneMemory["gh"]?.statsScroll == 7)
    }

    // Bug: with every item of a command's Catalog deleted, the pane said the command had printed nothing.
    @Test("with every item deleted the pane says so, not that the command printed nothing")
    func everyItemDeleted() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 2), into: &state)
        for _ in 0..<2 {
            for key in [KeyEvent.char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter), .char("l"), KeyEvent(.enter)] {
                _ = state.update(.key(key))
            }
        }
        #expect(state.catalogItems.isEmpty)
        let text = state.render().lines.joined(separator: "\n")
        #expect(text.contains("Every item is deleted for this session"), "\(text)")
        #expect(!text.contains("printed nothing"))
    }

    // Bug: a Catalog reload that took the menu's item away left its Delete alert up over nothing,
    // and a confirmation went to the menu that was gone, so the item the person deleted stayed.
    @Test("a reload without the menu's item closes the menu and the alert it presented")
    func reloadClosesTheMenusAlert() {
        var state = state()
        _ = state.update(.key(.char("2")))
        Self.load(Self.items("repo", 3), into: &state)
        _ = state.update(.key(.char("j")))
        for key in [KeyEvent.char("m"), .char("j"), .char("j"), .char("j"), KeyEvent(.enter)] { _ = state.update(.key(key)) }
        #expect(state.presented.last?.alert?.title == "Delete “repo 2”?")
        let reloaded =
            [CatalogItem(id: "repo-9", title: "repo 9", detail: "", kind: "")] + Self.items("repo", 3).filter { $0.id != "repo-2" }
        Self.load(reloaded, into: &state)
        #expect(state.presented.isEmpty, "the menu went with its item, and its alert with it")
        #expect(state.catalogItems.map(\.id) == ["repo-9", "repo-1", "repo-3"])
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

}
