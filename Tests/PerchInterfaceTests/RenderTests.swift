import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

// MARK: - Helpers

/// `text` padded with spaces to `width` columns (all characters used here are one column wide).
private func pad(_ text: String, _ width: Int = 80) -> String {
    precondition(text.count <= width, "expected line longer than the screen: \(text)")
    return text + String(repeating: " ", count: width - text.count)
}

/// Expected screen from the given rows (row number → text); every other row is blank.
private func expectedScreen(width: Int = 80, height: Int = 24, _ rows: [Int: String]) -> [String] {
    (0..<height).map { pad(rows[$0] ?? "", width) }
}

/// Compares row by row so a failure names the row.
private func expectLines(_ actual: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, "row count", sourceLocation: sourceLocation)
    for (row, (a, e)) in zip(actual, expected).enumerated() {
        #expect(a == e, "row \(row)", sourceLocation: sourceLocation)
    }
}

private let rule = String(repeating: "─", count: 80)
private let tabLabels80 =
    "      Overview      " + "      Catalog       " + "       Stats        " + "      Settings      "
private let hint = "   Hold the Overview tab (or the 1 key), or press a, to switch account."
private let grabberRow80 = String(repeating: "─", count: 36) + " ━━━━━━ " + String(repeating: "─", count: 36)

/// The Overview pane's rows with the sample accounts and no account chosen yet.
private let overviewNoAccountRows: [Int: String] = [
    0: " Overview",
    2: "   No account chosen yet.",
    3: "   4 accounts available.",
    5: "   Switches so far: 0",
    7: hint,
]

@Suite("TabApp.render")
struct RenderTests {
    @Test("Overview with no account chosen, 80×24")
    func overviewNoAccount() {
        let state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        expectLines(
            state.render().lines,
            expectedScreen(overviewNoAccountRows.merging([22: rule, 23: tabLabels80]) { $1 }))
    }

    @Test("Overview with one account, signed in, 80×24")
    func overviewOneAccount() {
        let account = Account(id: "work", name: "Work", handle: "@ada.lovelace")
        let saved = SavedState(currentAccount: "work", switchCount: 1, switchesPerAccount: ["work": 1])
        let state = TabApp.perch(accounts: [account], saved: saved, size: Size(width: 80, height: 24))
        expectLines(
            state.render().lines,
            expectedScreen([
                0: " Overview",
                2: "   Signed in as",
                3: "   ● Work",
                4: "     @ada.lovelace",
                6: "   Switches so far: 1",
                8: hint,
                22: rule,
                23: tabLabels80,
            ]))
    }

    @Test("Overview with one account and none chosen says \"1 account\"")
    func overviewSingular() {
        let state = TabApp.perch(accounts: [Account(id: "x", name: "X")], size: Size(width: 80, height: 24))
        #expect(state.render().lines[3] == pad("   1 account available."))
    }

    @Test("an account without a handle shows (no handle)")
    func noHandle() {
        let state = TabApp.perch(
            accounts: [Account(id: "x", name: "X")], saved: SavedState(currentAccount: "x"), size: Size(width: 80, height: 24))
        #expect(state.render().lines[4] == pad("     (no handle)"))
    }

    @Test("the sheet with the 4 sample accounts, 80×24")
    func sheetFourAccounts() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.openSheet()
        let lines = state.render().lines
        let top = 24 - (4 + 1 + 3)
        #expect(top == 16)
        expectLines(
            lines,
            expectedScreen(
                overviewNoAccountRows.merging([
                    16: grabberRow80,
                    17: pad(" Switch account", 69) + "4 accounts",
                    18: pad("   Work", 17) + "@ada.lovelace",
                    19: pad("   Personal", 17) + "@ada",
                    20: pad("   Open Source", 17) + "@ada-oss",
                    21: pad("   Side Project", 17) + "@analytical-engine",
                    22: "   + Add account…",
                    23: " ↑↓ move · Enter switch · / filter · ? help · Esc close",
                ]) { $1 }))
        // Every account name is visible, and the grabber is on the sheet's top row only.
        for account in Account.samples {
            #expect(lines.contains { $0.contains(account.name) }, "\(account.name) not visible")
        }
        #expect(lines[top].contains("━"))
        #expect(lines.indices.filter { lines[$0].contains("━") } == [top])
        // The tab bar is covered by the sheet.
        #expect(!lines.contains(tabLabels80))
    }

    @Test("in the sheet the cursor row's gutter is highlighted and the current account is marked")
    func sheetCursorAndCurrent() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 80, height: 24))
        state.openSheet()
        _ = state.update(.key(KeyEvent(.down)))  // cursor from Open Source (2) to Side Project (3)
        let screen = state.render()
        #expect(screen.lines[20].hasPrefix(" ● Open Source"))
        #expect(screen.lines[21].hasPrefix("   Side Project"))
        for column in 0..<80 {
            #expect(screen[column, 21].style.reverse == (column < 3), "cursor row column \(column)")
            #expect(!screen[column, 20].style.reverse, "non-cursor row column \(column) highlighted")
        }
        #expect(screen[0, 21].style.bold, "the gutter is bold as well as reverse")
    }

    @Test("the sheet with 40 accounts on a 12-row screen is capped and scrolls")
    func sheetManyAccountsSmallScreen() {
        let accounts = (1...40).map { Account(id: "a\($0)", name: "Account \($0)") }
        var state = TabApp.perch(accounts: accounts, size: Size(width: 80, height: 12))
        state.openSheet()
        let lines = state.render().lines
        expectLines(
            lines,
            expectedScreen(
                height: 12,
                [
                    0: " Overview",
                    2: grabberRow80,
                    3: pad(" Switch account", 68) + "40 accounts",
                    4: "   Account 1",
                    5: "   Account 2",
                    6: "   Account 3",
                    7: "   Account 4",
                    8: "   Account 5",
                    9: "   Account 6",
                    10: "   Account 7",
                    11: " ↑↓ move · Enter switch · / filter · ? help · Esc close · 1–7 of 40",
                ]))
        // Two rows above the sheet stay visible.
        #expect(lines[0].hasPrefix(" Overview"))
        #expect(!lines[1].contains("━") && !lines[0].contains("━"))
        #expect(lines[11].contains("of 40"), "the accounts, not `Add account…`")
    }

    @Test("the sheet footer follows the scroll")
    func sheetFooterAfterScrolling() {
        let accounts = (1...40).map { Account(id: "a\($0)", name: "Account \($0)") }
        var state = TabApp.perch(accounts: accounts, size: Size(width: 80, height: 12))
        state.openSheet()
        _ = state.update(.key(KeyEvent(.end)))
        let lines = state.render().lines
        #expect(lines[11] == pad(" ↑↓ move · Enter switch · / filter · ? help · Esc close · 35–40 of 40"), "accounts 35 to 40 shown")
        #expect(lines[4] == pad("   Account 35"))
        #expect(lines[9] == pad("   Account 40"))
        #expect(lines[10] == pad("   + Add account…"))
    }

    @Test("the Catalog pane lists the current account's items")
    func catalogPane() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("2")))
        let lines = state.render().lines
        #expect(lines[0].hasPrefix(" Catalog · Work"))
        #expect(lines[0].hasSuffix("1/60 "))
        let items = CatalogItem.samples(for: Account.samples[0])
        #expect(lines[1].hasPrefix(" ▸  1  " + items[0].title))
        #expect(lines[2].hasPrefix("    2  " + items[1].title))
        #expect(lines[21].hasPrefix("   21  " + items[20].title))
        #expect(lines[23] == tabLabels80)
    }

    @Test("the Stats pane: time per account as bars with hours and minutes, the current interval counting up")
    func statsPane() {
        let base = WallTime.parseISO8601("2026-12-01T08:00:00Z")!
        let history = SwitchHistory(events: [
            SwitchEvent(account: "work", time: base, source: .tui),
            SwitchEvent(account: "oss", time: base + 2 * 3600, source: .cli),
        ])
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 80, height: 24), history: history)
        _ = state.update(.outcome(AnyOutcome(WallTime(seconds: base + 3 * 3600, monotonic: 0))), at: 0)
        _ = state.update(.key(.char("3")), at: 0)
        var lines = state.render().lines
        let today = lines.firstIndex { $0.hasPrefix(" Today") } ?? 0
        #expect(lines[today + 1].contains("Work") && lines[today + 1].hasSuffix("2h 00m "), "\(lines[today + 1])")
        #expect(lines[today + 2].contains("● Open Source") && lines[today + 2].hasSuffix("1h 00m "), "\(lines[today + 2])")
        let longest = lines[today + 1].filter { $0 == "█" }.count
        let half = lines[today + 2].filter { $0 == "█" }.count
        #expect(longest > 0 && abs(longest - 2 * half) <= 1, "bars scale to the most time")
        // Twenty minutes later (no new wall clock reading: the loop's clock runs on), the
        // current interval has grown.
        _ = state.update(.animationFrame, at: 20 * 60 * 1000)
        lines = state.render().lines
        #expect(lines[today + 2].hasSuffix("1h 20m "), "\(lines[today + 2])")
        #expect(state.nextWallClockDeadline == Int64(21 * 60 * 1000), "the next minute, while Stats is shown")
        _ = state.update(.key(.char("1")))
        #expect(state.nextWallClockDeadline == nil, "no wake-ups for Stats elsewhere")
    }

    @Test("a band of the Stats chart is one colour from its first day to its last, gaps included (one colour change per band)")
    func statsChartBandsAreOneColour() throws {
        let base = WallTime.parseISO8601("2026-12-01T08:00:00Z")!
        // A switch every other day: every band has columns with gaps between them.
        var events: [SwitchEvent] = []
        for day in stride(from: 28, through: 0, by: -2) {
            let time: Int64 = base - Int64(day) * 86_400
            events.append(SwitchEvent(account: day % 4 == 0 ? "work" : "oss", time: time, source: .cli))
        }
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 200, height: 60),
            history: SwitchHistory(events: events))
        state.info.background = .dark  // colours are drawn once the background is known
        _ = state.update(.outcome(AnyOutcome(WallTime(seconds: base + 3600, monotonic: 0))), at: 0)
        _ = state.update(.key(.char("3")), at: 0)
        let screen = state.render()
        let lines = screen.lines
        let axis = try #require(lines.firstIndex { $0.contains("└") })
        let corner = try #require(Array(lines[axis]).firstIndex(of: "└"))
        let bands = (0..<axis).filter { lines[$0].contains("│") && lines[$0].contains { "▁▂▃▄▅▆▇█".contains($0) } }
        #expect(bands.count >= 2, "\(lines.joined(separator: "\n"))")
        let first = corner + 1
        let end = min(screen.size.width, first + 30 * 3)
        for row in bands {
            var styles: Set<Style> = []
            for column in first..<end { styles.insert(screen[column, row].style) }
            #expect(styles == [Style(foreground: .cyan)], "row \(row): \(lines[row])")
        }
    }

    @Test("the Settings pane shows the run's files, its actions and each kept setting with its value and source")
    func settingsPane() {
        let info = RunInfo(configDescription: "/c/accounts.json", statePath: "/s/state.json", settingsPath: "/c/settings.json")
        var file = SavedSettings()
        file.sheetStyle = "inset"
        var flags = Settings()
        flags.longPressMilliseconds = 750
        let settings = SettingsState(file: file, flags: flags, flagged: [.longPress])
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), info: info, settings: settings)
        _ = state.update(.key(.char("4")))
        expectLines(
            state.render().lines,
            expectedScreen([
                0: " Settings",
                1: pad("   Key hold", 25) + "from auto-repeat (no release events)",
                2: pad("   Config file", 25) + "/c/accounts.json",
                3: pad("   State file", 25) + "/s/state.json",
                4: pad("   Settings file", 25) + "/c/settings.json",
                6: " ▸ Switch account…  (Enter)",
                7: "   Add account…  (Enter)",
                8: pad("   Reduce motion", 25) + pad("off", 19) + "  default",
                9: pad("   Sheet style", 25) + pad("inset", 19) + "  saved",
                10: pad("   Long-press duration", 25) + pad("750 ms  ←/→", 19) + "  flag",
                11: pad("   Mouse", 25) + pad("on", 19) + "  default",
                12: pad("   Colour theme", 25) + pad("default", 19) + "  default",
                13: pad("   Check with servers", 25) + pad("off", 19) + "  default",
                14: pad("   Accessible mode", 25) + pad("off", 19) + "  default",
                15: "   Edit config…  (Enter)",
                22: rule,
                23: tabLabels80,
            ]))
    }

    @Test("a banner is drawn on the last pane row, above the tab bar")
    func banner() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.bannerText = "Could not save the state"
        let screen = state.render()
        #expect(screen.lines[21] == pad(" Could not save the state"))
        #expect(screen[79, 21].style.reverse)
        #expect(screen.lines[22] == rule)
    }

    @Test("the selected tab label is highlighted and the others are not")
    func selectedTabStyle() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("3")))
        let screen = state.render()
        #expect(screen.lines[23] == tabLabels80)
        for column in 0..<80 {
            #expect(screen[column, 23].style.reverse == (40..<60).contains(column), "column \(column)")
        }
    }

    @Test(
        "every tab renders full-size lines at any size, with and without the sheet",
        arguments: [
            Size(width: 0, height: 0), Size(width: 1, height: 1), Size(width: 4, height: 2), Size(width: 10, height: 1),
            Size(width: 10, height: 3), Size(width: 20, height: 6), Size(width: 33, height: 7), Size(width: 200, height: 60),
        ]
    )
    func anySize(_ size: Size) {
        for tab in Tab.allCases {
            for sheetUp in [false, true] {
                var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: size)
                state.selectedTab = tab
                state.bannerText = "banner"
                if sheetUp { state.openSheet() }
                let screen = state.render()
                #expect(screen.lines.count == size.height)
                for line in screen.lines {
                    #expect(DisplayWidth.columns(of: line) == size.width, "\(tab) sheet: \(sheetUp) line: \(line)")
                }
            }
        }
    }

    @Test("render is pure: the same state gives the same screen")
    func pure() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "side"), size: Size(width: 80, height: 24))
        state.openSheet()
        #expect(state.render() == state.render())
    }

    // Bug: the sheet sized its name column from the first 200 accounts, so longer names further down were cut.
    @Test("a long name far down a long list is shown whole in the sheet")
    func longNameFarDownTheList() throws {
        var accounts = (0..<300).map { Account(id: "a\($0)", name: "A\($0)") }
        accounts[299] = Account(id: "last", name: "The longest account name", handle: "@last")
        var state = TabApp.perch(accounts: accounts, size: Size(width: 80, height: 24))
        state.openSheet()
        _ = state.update(.key(KeyEvent(.end)))
        let row = try #require(state.render().lines.first { $0.contains("@last") })
        #expect(row.contains("The longest account name  @last"), "\(row)")
    }

    // Bug: with the sheet scrolled to the end on a screen too short for any row, the footer read "1000–999 of 1000".
    @Test("a sheet with no room for rows shows no row range")
    func noRowRangeWithoutRows() {
        let accounts = (1...1000).map { Account(id: "a\($0)", name: "Account \($0)") }
        var state = TabApp.perch(accounts: accounts, size: Size(width: 80, height: 24))
        state.openSheet()
        _ = state.update(.key(KeyEvent(.end)))
        _ = state.update(.resize(Size(width: 80, height: 5)))
        let text = state.render().text
        #expect(!text.contains("of 1000"), "\(text)")
        #expect(!text.contains("1000–999"))
    }

    // Bug: a long title pushed the Catalog's position counter off its header.
    @Test("a pane header keeps its trailing note and cuts the title with …")
    func headerKeepsTrailing() {
        let long = Account(id: "long", name: String(repeating: "Long name ", count: 10))
        var state = TabApp.perch(accounts: [long], saved: SavedState(currentAccount: "long"), size: Size(width: 60, height: 24))
        state.selectedTab = .catalog
        let header = state.render().lines[0]
        // Without a catalog command the Catalog lists the config fields: id and name.
        #expect(header.hasSuffix("1/2 "), "\(header)")
        #expect(header.contains("…"))
    }

    // Bug: long paths in Settings lost their file name to the right edge.
    @Test("Settings shows the end of a long path, with … in front")
    func settingsPathKeepsEnd() {
        let info = RunInfo(statePath: "/very/long/" + String(repeating: "folder/", count: 20) + "state.json")
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 60, height: 24), info: info)
        state.selectedTab = .settings
        let row = state.render().lines.first { $0.contains("State file") } ?? ""
        #expect(row.contains("…") && row.hasSuffix("/state.json"), "\(row)")
    }

    // Bug: switch counts near Int.max made the Stats bar arithmetic trap; intervals of
    // thousands of years must not either.
    @Test("Stats draws huge intervals without trapping")
    func statsHugeIntervals() {
        let history = SwitchHistory(events: [
            SwitchEvent(account: "work", time: -62_000_000_000, source: .tui), SwitchEvent(account: "oss", time: 0, source: .cli),
        ])
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 80, height: 24), history: history)
        _ = state.update(.outcome(AnyOutcome(WallTime(seconds: 253_402_300_000))))
        state.selectedTab = .stats
        let lines = state.render().lines
        #expect(lines.contains { $0.contains("Open Source") && $0.contains("█") && $0.contains("h ") })
    }

    // Bug: a banner longer than the screen was cut off, hiding the file name it was about.
    @Test("a long banner wraps onto up to three rows above the tab bar; clicks there hit nothing")
    func bannerWraps() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        state.selectedTab = .catalog
        state.bannerText =
            "State file could not be parsed; kept it as state.json.corrupt-2026-11-30T080130Z and started afresh. "
            + String(repeating: "More words here. ", count: 3)
        let lines = state.bannerLines
        #expect(lines.count == 3)
        let text = state.render().lines
        #expect(text[19].contains("State file could not be parsed"))
        #expect(text[21].contains("More words"))
        #expect((text[19] + text[20]).contains("state.json.corrupt-2026-11-30T080130Z"))
        #expect(state.hitTest(Position(column: 5, row: 19)) == .none)
        #expect(state.hitTest(Position(column: 5, row: 18)) == .catalogRow(17))
        state.bannerText = String(repeating: "word ", count: 200)
        #expect(state.bannerLines.count == TabApp.maximumBannerRows)
        #expect(state.bannerLines.last?.hasSuffix("…") == true)
    }
}
