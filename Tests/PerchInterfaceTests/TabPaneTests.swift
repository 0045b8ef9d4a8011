import Foundation
import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// The panes as the root keeps them: registered in one place (``Tab/panes``), each saying
/// through ``TabPane`` what the root needs of it, and driven here alone through those hooks.
@Suite
struct TabPaneTests {
    @Test("The tabs are the registered panes in order, each with its own title, keys and tab hold")
    func tabsAreTheRegisteredPanes() {
        #expect(Tab.allCases.map(\.title) == ["Overview", "Catalog", "Stats", "Settings"])
        #expect(Tab.allCases == [.overview, .catalog, .stats, .settings])
        #expect(Tab(CatalogPane.self) == .catalog && Tab(rawValue: 2) == .stats && Tab(rawValue: 4) == nil)
        #expect(Tab.allCases.filter(\.holdsTab) == [.overview], "only Overview's tab is held for the sheet")
        #expect(Tab.panes.map { $0.title } == Tab.allCases.map(\.title), "each tab's title is its pane's key table's")
        #expect(PerchKeys.pane(.stats).map(\.label) == StatsPane.keyTable.help.map(\.label), "a pane's table is its tab's keys")
        #expect(Tab.allCases.map(\.shortcut) == ["1", "2", "3", "4"])
        // The tab bar marks as holdable what the panes say, and the hit target says the same.
        let state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        let frame = state.renderFrame()
        let tabRow = 23
        let targets = (0..<80).map { frame.hits.target(at: Position(column: $0, row: tabRow)) }
        #expect(targets.contains(.tab(.overview)) && targets.contains(.tab(.settings)))
        #expect(HitTarget.tab(.overview).part(TabBar.Part.self)?.acceptsLongPress == true)
        #expect(HitTarget.tab(.catalog).part(TabBar.Part.self)?.acceptsLongPress == false)
    }

    @Test(
        "Catalog alone: follows the account, runs its source once when due, spins while it runs, runs it again after the config is read again"
    )
    func catalogFollowsAndLoads() {
        var context = ModelUpdateTests.commandContext()
        // As PerchKit's root holds it: it follows the model in modelChanged.
        var pane = Alone(CatalogPane(kept: ["gh": AccountPanes(catalog: CatalogMemory(cursor: 1, scroll: 0, pinned: ["ada/site"]))]))
        #expect(pane.pane.owner == "")
        _ = pane.follow(context)
        #expect(pane.pane.owner == "gh")
        context.clock = 500
        let load = Asked.effect(.perform(LoadCatalog(accountID: "gh", command: "gh repo list")))
        #expect(pane.due(context) == [load], "never ran: due now")
        #expect(pane.due(context) == [], "running: not asked twice")
        #expect(pane.pane.nextDeadline(clock: 530) == 630, "the spinner's next frame")
        _ = pane.take(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: ModelUpdateTests.repos, skipped: 0)), context)
        #expect(pane.pane.nextDeadline(clock: 530) == nil, "nothing moves once it ran")
        #expect(pane.pane.items.first?.id == "ada/site", "the kept pin")
        #expect(pane.pane.list.cursor == 1, "the kept cursor")
        #expect(pane.due(context) == [], "ran once: not due again")
        _ = pane.follow(context)
        #expect(pane.due(context) == [], "the same account followed again: not due")
        context.configReads += 1
        _ = pane.follow(context)
        #expect(pane.due(context) == [load], "the config was read again: its command may have changed")
        var memory: [String: AccountPanes] = [:]
        pane.pane.remember(into: &memory)
        #expect(memory["gh"]?.catalog == CatalogMemory(cursor: 1, scroll: 0, pinned: ["ada/site"]))
        #expect(memory["gh"]?.statsScroll == nil, "the Catalog adds only its own part")
    }

    @Test("Stats alone: follows the current account's kept scroll and remembers each account's")
    func statsFollowsScroll() {
        var pane = StatsPane(kept: ["work": AccountPanes(statsScroll: 3), "personal": AccountPanes(statsScroll: 0)])
        #expect(pane.modelChanged(ModelUpdateTests.context(current: "work").kit).isEmpty)
        #expect(pane.list.scroll == 3)
        #expect(pane.modelChanged(ModelUpdateTests.context(current: "personal").kit).isEmpty)
        #expect(pane.list.scroll == 0)
        var memory: [String: AccountPanes] = ["work": AccountPanes(catalog: CatalogMemory(cursor: 2))]
        pane.remember(into: &memory)
        #expect(memory["work"] == AccountPanes(catalog: CatalogMemory(cursor: 2), statsScroll: 3), "added beside the Catalog's part")
        #expect(memory["personal"] == nil, "a zero scroll is not kept")
        #expect(pane.nextDeadline(clock: 0) == nil)
    }

    @Test("Overview and Settings keep nothing, follow nothing and ask for nothing")
    func quietPanes() {
        let context = ModelUpdateTests.context()
        var memory: [String: AccountPanes] = [:]
        var overview = OverviewPane(kept: ["work": AccountPanes(statsScroll: 3)])
        var settings = SettingsPane(kept: ["work": AccountPanes(statsScroll: 3)])
        #expect(overview.modelChanged(context.kit).isEmpty)
        #expect(settings.modelChanged(context.kit).isEmpty)
        #expect(overview.due(context.kit).isEmpty && settings.due(context.kit).isEmpty)
        overview.remember(into: &memory)
        settings.remember(into: &memory)
        #expect(memory.isEmpty && overview == OverviewPane() && settings == SettingsPane())
    }

    @Test("Perch's model names no pane: it reads the panes only through protocols (what they keep, the Catalog's listing)")
    func modelNamesNoPane() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/PerchInterface/App")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("PerchModel") && $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty, "the model's files were found: \(files)")
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for name in ["OverviewPane", "CatalogPane", "StatsPane", "SettingsPane"] {
                #expect(!text.contains(name), "\(file) names \(name)")
            }
        }
    }
}
