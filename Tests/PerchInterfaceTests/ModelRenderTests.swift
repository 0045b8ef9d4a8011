import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Each pane and each presented layer drawn alone into a small screen, from a context built
/// here rather than from a whole running state, and checked against lines of text, as ratatui's
/// widget tests compare a buffer with lines (issue 21, "models rendered alone").
struct ModelRenderTests {
    /// A small screen: 44 columns × 12 rows.
    static let size = Size(width: 44, height: 12)

    /// A context of the sample accounts with `current` chosen, on ``size``, with no animation.
    static func context(current: String? = "personal", size: Size = size) -> ModelContext {
        let accounts = AccountsIndex(Account.samples)
        let index = current.flatMap { id in Account.samples.firstIndex { $0.id == id } }
        var catalog = CatalogPane()
        catalog.load(for: index.map { Account.samples[$0] }, visible: Layout(size: size).listRows)
        return ModelContext(
            accounts: accounts, saved: SavedState(currentAccount: current), currentIndex: index, pendingSwitch: nil, size: size,
            clock: 0, info: RunInfo(), reduceMotion: true, sheetStyle: .edgeToEdge, catalog: catalog)
    }

    /// The lines `model` draws alone into a screen of the context's size, trailing spaces cut.
    static func lines<C: Component>(_ model: C, _ context: ModelContext) -> [String] { lines(Alone(model), context) }

    /// The lines `model` draws alone, as its host draws it.
    static func lines<C: Component>(_ model: Alone<C>, _ context: ModelContext) -> [String] {
        var frame = Frame(size: context.size)
        model.render(into: &frame, context)
        return frame.screen.lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Checks `model` drawn alone in `context` against `expected` (trailing spaces cut; rows
    /// past the end of `expected` blank).
    static func expect(
        _ model: some Component, _ expected: [String], in context: ModelContext = context(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let drawn = lines(model, context)
        let wanted = expected + Array(repeating: "", count: max(0, drawn.count - expected.count))
        #expect(drawn == wanted, Comment(rawValue: "\n" + drawn.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    static var firstItem: CatalogItem { context().catalogPane.items[0] }

    // 60 columns: at 44 a tool's reason now wraps under its text (it was cut at the edge),
    // and the count then falls below a 12-row screen.
    @Test("Overview alone: the account signed in, its tools and the count")
    func overview() {
        Self.expect(
            OverviewPane(),
            [
                " Overview", "", "   Signed in as", "   ● Personal", "     @ada", "", "   Tools (r applies them again)",
                "     – env  SAMPLE_ROLE=self  per shell (perch env)", "", "   Switches so far: 0",
            ], in: Self.context(size: Size(width: 60, height: 12)))
    }

    @Test("Overview alone at 44 columns: a tool's reason wraps under its text instead of being cut")
    func overviewReasonWraps() {
        let drawn = Self.lines(OverviewPane(), Self.context())
        #expect(Array(drawn[7...8]) == ["     – env  SAMPLE_ROLE=self per shell", "            (perch env)"], "\(drawn)")
    }

    // Issue 33: at 60 columns the hint was cut mid-word (`… or press a, to swi…`).
    @Test("Overview alone at 60 columns: the hint is wrapped at word boundaries, not cut mid-word")
    func overviewHintWraps() throws {
        let context = Self.context(size: Size(width: 60, height: 24))
        let drawn = Self.lines(OverviewPane(), context)
        let start = try #require(drawn.firstIndex { $0.hasPrefix("   Hold the Overview tab") })
        #expect(drawn[start] == "   Hold the Overview tab (or the 1 key), or press a, to")
        #expect(drawn[start + 1] == "   switch account.")
        #expect(!drawn.joined().contains("…"), "\(drawn.joined(separator: "\n"))")
    }

    @Test("Catalog alone: the title with the position, the cursor row, and rows cut to the width")
    func catalog() {
        let context = Self.context()
        Self.expect(
            context.catalogPane,
            [
                " Catalog · Personal                    1/60", " ▸  1  Swift Compass            report · 38…",
                "    2  Lunar Orchard            note · 159 …", "    3  Quiet Signal             photo · 693…",
                "    4  Lunar Atlas              link · 161 …", "    5  Northern Compass         note · 687 …",
                "    6  Hollow Journal           note · 665 …", "    7  Bright Canvas            report · 65…",
                "    8  Northern Compass         note · 872 …", "    9  Amber Atlas              report · 50…",
            ], in: context)
    }

    @Test("Stats alone, before any switch: what it will count")
    func stats() {
        Self.expect(
            StatsPane(),
            [
                " Stats · time per accou… UTC +00:00 · 00:00", "", "   No switches recorded yet.",
                "   Time per account counts from the first s…",
            ])
    }

    @Test("Settings alone: the facts, then the action rows with the cursor on the first")
    func settings() {
        Self.expect(
            SettingsPane(),
            [
                " Settings", "   Key hold              from auto-repeat (…", "   Config file           …ed sample accounts",
                "   State file",
                "   Settings file", "", " ▸ Switch account…  (Enter)", "   Add account…  (Enter)", "   Reduce motion         off",
                "   Sheet style           edge to edge",
            ])
    }

    // Bug: at heights 6 to 8 the facts filled the pane and the action rows the keys moved
    // through were never shown.
    @Test(
        "Settings alone on a short pane: the action rows come under the header, the cursor's in view; taller, the facts come back",
        arguments: [6, 7, 8, 9])
    func settingsOnShortPane(height: Int) {
        let context = Self.context(size: Size(width: 30, height: height))
        var pane = SettingsPane()
        #expect(Self.lines(pane, context)[1].hasPrefix(" ▸ Switch account"), "\(Self.lines(pane, context))")
        for _ in 0..<3 { _ = pane.update(.verb(.move(.down)), context.kit) }
        let drawn = Self.lines(pane, context)
        #expect(drawn.contains { $0.hasPrefix(" ▸ Sheet style") }, "the cursor's row is shown: \(drawn)")
        #expect(!drawn.contains { $0.contains("Config file") })
        let tall = Self.context(size: Size(width: 30, height: 12))
        let tallDrawn = Self.lines(SettingsPane(), tall)
        #expect(tallDrawn[2].hasPrefix("   Config file"), "\(tallDrawn)")
    }

    @Test("The account sheet alone, at its fit height over the bottom of the screen")
    func sheet() {
        let context = Self.context()
        var sheet = AccountSheet()
        _ = sheet.advance(context.kit)
        sheet.moveCursor(to: 1, direction: 1, context)
        let drawn = Self.lines(sheet, context)
        #expect(drawn.contains { $0.contains("━━━━━━") }, "\(drawn)")
        #expect(drawn.contains { $0.hasPrefix(" Switch account") && $0.hasSuffix("4 accounts") }, "\(drawn)")
        #expect(drawn.contains { $0.contains("● Personal") || $0.contains("Personal") }, "\(drawn)")
        #expect(drawn.last { !$0.isEmpty }?.contains("Add account") == true || drawn.contains { $0.contains("+ Add account") }, "\(drawn)")
    }

    /// The help overlay `?` shows over Overview at the small size: the pane's keys, Perch's own,
    /// then the root's.
    static var overviewHelp: HelpLayer {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: size)
        _ = state.update(.key(.char("?")))
        return state.presented.last!.help!
    }

    @Test("The help overlay alone: the context in its title, the first keys, the count in its footer")
    func help() {
        Self.expect(
            Self.overviewHelp,
            [
                // Issue 48: texts too long for the box were cut with …; they go on below.
                // The pane's own keys first, then Perch's, then the root's (25 lines in all).
                "", " ╭─ Keys · Overview ──────────────────────╮", " │ r                   apply the          │",
                " │                     account's tools    │", " │                     again              │",
                " │ v                   ask each tool who  │", " │                     it will be         │",
                " │                                        │", " │ Accounts                               │",
                " │ a                   switch account     │", " ╰─ 1–8 of 25 · Esc close ────────────────╯",
            ])
    }

    @Test("A context menu alone: the preview card above its actions")
    func contextMenu() {
        Self.expect(
            ContextMenu(itemID: Self.firstItem.id),
            [
                " ╭────────────────────────────────────────╮", " │ Swift Compass                          │",
                " │ A report of 389 words, by Personal.    │", " │ personal-1 · 1 of 60                   │",
                " │ activity ▆▅▇██▇▂▆▅▂▁▃▃▃█▅▃▆▄▂▂▇█▅      │", " ╰────────────────────────────────────────╯",
                " ╭──────────────╮", " │ Open         │", " │ Pin          │", " │ Copy id      │", " │ Delete…      │",
                " ╰──────────────╯",
            ])
    }

    @Test("An alert alone (PerchKit's): centred and fitted to its text, Cancel before the action")
    func alert() {
        let alert = AlertAction.deleteItem(id: Self.firstItem.id).alert(title: "Delete?", message: "It goes.", confirmTitle: "Delete")
        Self.expect(
            alert,
            [
                "", "", "", "         ╭────────────────────────╮", "         │ Delete?                │",
                "         │ It goes.               │", "         │                        │",
                "         │  [ Cancel ] [ Delete ] │", "         ╰────────────────────────╯",
            ])
    }

    @Test("A cover alone: its close control, the item's text, its footer")
    func cover() {
        let drawn = Self.lines(Cover.item(Self.firstItem, scroll: 0), Self.context())
        #expect(
            Array(drawn.prefix(6)) == [
                " ✕  Swift Compass", String(repeating: "─", count: 44), "", "  Swift Compass", "  A report of 389 words, by Personal.",
                "  personal-1",
            ], "\(drawn)")
        // 9 lines of text over 8 rows: the footer says which show (before: the last, "activity",
        // was cut off with no way to reach it), and one row down shows it.
        #expect(drawn.last == " Esc or ✕ close · ↑↓ scroll (1–8 of 9) · a …")
        let scrolled = Self.lines(Cover.item(Self.firstItem, scroll: 1), Self.context())
        #expect(scrolled[scrolled.count - 2] == "  activity", "\(scrolled)")
        let tall = Self.lines(Cover.item(Self.firstItem, scroll: 0), Self.context(size: Size(width: 44, height: 14)))
        #expect(tall.last == " Esc or ✕ close · a switch account · ? help")
    }

    @Test("The Add account form alone: its fields with their rules, the focus on Id")
    func accountForm() {
        Self.expect(
            AccountForm(),
            [
                " ✕  Add account", String(repeating: "─", count: 44), " ▸ Id      [▏                             ]",
                "            a–z 0–9 . _ -, unique", "   Name    [                              ]", "            required",
                "   Handle  [                              ]", "            optional, e.g. @someone",
                "   Group   [                              ]", "            optional", "  [ Add ]  [ Cancel ]",
                " Enter add · Tab next field · Esc or ✕ canc…",
            ])
    }
}

extension ModelContext {
    /// The Catalog pane the layers' listing is, for tests that drive the pane itself.
    var catalogPane: CatalogPane {
        get { catalog as! CatalogPane }
        set { catalog = newValue }
    }
}
