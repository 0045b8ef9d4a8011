import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Issue 20: small faults from a newcomer's trial, one test each.
@Suite("Faults from a newcomer's trial")
struct NewcomerFaultTests {
    // Bug: the embedded sample accounts looked like the person's own on Overview.
    @Test("Overview says the accounts are samples while there is no config, and not once there is one")
    func samplesLabelled() {
        var info = RunInfo()
        info.usesSampleAccounts = true
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), info: info)
        #expect(state.render().lines.contains { $0.contains("Sample accounts (no config yet): perch init writes one to edit.") })
        state.finishEditConfig(ConfigEdited(accounts: Account.samples, configPath: "/home/ada/.config/perch/accounts.json", problem: nil))
        #expect(!state.render().lines.contains { $0.contains("Sample accounts") }, "a config is in use now")
        let own = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        #expect(!own.render().lines.contains { $0.contains("Sample accounts") })
    }

    // Bug: Stats showed `total 1m` over rows of `0m` with full bars.
    @Test("under a minute, Stats shows seconds, so rows under a total of 1m do not read 0m")
    func statsSeconds() throws {
        let base = WallTime.parseISO8601("2026-12-01T08:00:00Z")!
        let history = SwitchHistory(events: [
            SwitchEvent(account: "work", time: base, source: .tui), SwitchEvent(account: "oss", time: base + 40, source: .cli),
        ])
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "oss"), size: Size(width: 80, height: 24), history: history)
        _ = state.update(.outcome(AnyOutcome(WallTime(seconds: base + 70, monotonic: 0))), at: 0)
        _ = state.update(.key(.char("3")), at: 0)
        let lines = state.render().lines
        let today = try #require(lines.firstIndex { $0.hasPrefix(" Today") }, "\(lines.joined(separator: "\n"))")
        #expect(lines[today].contains("total 1m"), "\(lines[today])")
        #expect(lines[today + 1].contains("Work") && lines[today + 1].contains("40s"), "\(lines[today + 1])")
        #expect(lines[today + 2].contains("Open Source") && lines[today + 2].contains("30s"), "\(lines[today + 2])")
        #expect(!lines[today + 1].contains(" 0m") && !lines[today + 2].contains(" 0m"))
    }

    @Test(
        "durations: seconds under a minute, then minutes, then hours and minutes",
        arguments: [(0, "0m"), (1, "1s"), (59, "59s"), (60, "1m"), (119, "1m"), (3_599, "59m"), (3_600, "1h 00m"), (7_500, "2h 05m")]
            as [(Int64, String)])
    func durations(seconds: Int64, text: String) {
        #expect(durationText(seconds) == text)
    }

    // Bug: the Edit config… error banner was cut before the reason and vanished on the next key.
    @Test("the Edit config… error banner shows its whole reason and stays until Esc dismisses it")
    func configBannerStays() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        let reason =
            "config /home/ada.lovelace/.config/perch/accounts.json: line 3, column 10: accounts[1].id: duplicate id \"work\" (first at accounts[0]); line 5, column 20: accounts[2].name: must not be empty"
        state.finishEditConfig(ConfigEdited(accounts: nil, configPath: "/home/ada.lovelace/.config/perch/accounts.json", problem: reason))
        func bannerText(_ state: TabApp) -> String { state.bannerLines.joined(separator: " ") }
        #expect(bannerText(state).contains("must not be empty"), "the whole reason: \(state.bannerLines)")
        #expect(!bannerText(state).contains("…"))
        let screen = state.render().text
        #expect(screen.contains("duplicate id") && screen.contains("(Esc dismisses this.)"), "\(screen)")
        for key in [KeyEvent.char("j"), .char("2"), .char("1")] { _ = state.update(.key(key)) }
        #expect(bannerText(state).contains("must not be empty"), "other keys leave it")
        _ = state.update(.key(KeyEvent(.escape)))
        #expect(state.bannerText == nil, "Esc dismisses it")
        state.finishEditConfig(ConfigEdited(accounts: Account.samples, configPath: "/x", problem: nil))
        _ = state.update(.key(.char("j")))
        #expect(state.bannerText == nil, "a reload's banner still goes at the next key")
    }

    // Bug: leftover letters stood beside the context menu's border (`│s`, `╮d`).
    @Test(
        "no letter or digit stands right beside a border of the context menu, its card or its alert",
        arguments: [(80, 24, 0), (80, 24, 20), (80, 24, 59), (40, 12, 59), (200, 60, 30), (60, 16, 7)])
    func noLeftoverLetters(width: Int, height: Int, item: Int) {
        var state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: Size(width: width, height: height))
        _ = state.update(.key(.char("2")))
        for _ in 0..<item { _ = state.update(.key(.char("j"))) }
        _ = state.update(.key(.char("m")))
        check(state.render(), "menu")
        for _ in 0..<4 { _ = state.update(.key(.char("j"))) }
        _ = state.update(.key(KeyEvent(.enter)))
        guard state.presented.last?.alert != nil else {
            Issue.record("Delete… opened no alert")
            return
        }
        check(state.render(), "alert")
    }

    private func check(_ screen: Screen, _ what: String) {
        let borders: Set<Character> = ["│", "╭", "╮", "╰", "╯"]
        for (row, line) in screen.lines.enumerated() {
            let characters = Array(line)
            for (column, character) in characters.enumerated() where borders.contains(character) {
                for neighbour in [column - 1, column + 1] where characters.indices.contains(neighbour) {
                    let next = characters[neighbour]
                    #expect(!(next.isLetter || next.isNumber), "\(what): \(next) beside a border at row \(row): \(line)")
                }
            }
        }
    }

    // Bug: two help columns ran together (`click above the sheet close it`).
    @Test("help keeps two blank columns between a key and what it does, in every context", arguments: [80, 200])
    func helpColumnsApart(width: Int) {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: width, height: 60))
        _ = state.update(.key(.char("a")))
        _ = state.update(.key(.char("?")))
        let lines = state.render().lines
        let line = lines.first { $0.contains("click above the sheet") } ?? ""
        let after = line.components(separatedBy: "click above the sheet").last ?? ""
        #expect(after.hasPrefix("  ") && after.drop { $0 == " " }.hasPrefix("close it"), "\(lines.joined(separator: "\n"))")
        for screen in KeyBindingTests.screens.map(\.title) {
            var help = KeyBindingTests.state(on: screen)
            _ = help.update(.resize(Size(width: width, height: 60)))
            let typing = help.presented.last.map { $0.base is AccountForm || ($0.base as? AccountSheet)?.isEditingFilter == true } ?? false
            _ = help.update(.key(typing ? KeyEvent(.function(1)) : .char("?")))
            let lines = help.render().lines
            for row in help.presented.last?.help?.rows ?? [] {
                guard let line = lines.first(where: { $0.contains("│ " + row.label + " ") && $0.contains(row.help.prefix(8)) }) else {
                    continue
                }
                #expect(line.contains("│ " + row.label + "  "), "\(screen): \(line)")
            }
        }
    }
}
