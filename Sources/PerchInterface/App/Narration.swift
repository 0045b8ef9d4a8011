import PerchDomain
import PerchKit

/// What the accessible mode says about the state (`perch --accessible`): a summary of what a
/// person would see, taken before and after each event, and the lines that tell the difference,
/// one line a change, read from top to bottom by a screen reader (Orca, speakup) or a braille
/// display: the tab chosen, the sheet opened with its rows numbered, the row under the cursor,
/// the filter and its matches, the account picked, a banner (an error, a note), any other layer
/// opened or closed with its text. Pure: the same two summaries always give the same lines.
///
/// Panes and layers other than the account sheet are read from the frame they draw (the text
/// of the rows that changed, or of the highlighted row), so a new pane or layer is said with no
/// code here.
public struct Narration: Hashable, Sendable {
    /// The tab selected.
    var tab: Tab
    /// The id of the top layer that takes input, or nil over the panes.
    var layerID: Int?
    /// That layer's title (its key table's).
    var layerTitle: String?
    /// The account sheet, when it is that layer.
    var sheet: SheetSummary?
    /// The current account's id.
    var account: String?
    /// The account a switch was asked for and not yet confirmed.
    var pending: String?
    /// The switch count.
    var switches: Int
    /// The banner shown.
    var banner: String?
    /// The frame as drawn, without colours: the text of panes and other layers comes from it.
    var screen: Screen
    /// The notice drawn instead of the app on a screen below its minimum size, or nil.
    var tooSmall: String? = nil

    /// The account sheet as said: its filter, its rows numbered (headings are not numbered), and
    /// the number of the row under the cursor.
    struct SheetSummary: Hashable, Sendable {
        var filter: String?
        var editingFilter: Bool
        /// Each row that can be picked, numbered from 1 in this order.
        var rows: [String]
        /// The number (from 1) of the row under the cursor, or nil on none.
        var cursor: Int?
    }
}

extension PerchModel {
    /// The accessible mode says each change in a line (`perch --accessible`).
    public var narrates: Bool { info.accessible }

    /// The summary of what `app` shows, for ``narration(from:to:)``.
    func summary(of app: TabApp) -> Narration {
        let top = app.activeTop
        let sheet = top.flatMap { app.layers[$0].base as? AccountSheet }.flatMap { $0.isClosing ? nil : $0 }
        return Narration(
            tab: Tab(rawValue: app.selected) ?? .overview, layerID: top.map { app.layers[$0].id },
            layerTitle: top.map { app.layers[$0].title },
            sheet: sheet.map(sheetSummary), account: saved.currentAccount, pending: pendingSwitch?.accountID,
            switches: saved.switchCount, banner: app.banner?.text, screen: Self.read(app.renderFrame(), over: app, top: top),
            tooSmall: app.isTooSmall ? app.tooSmallNotice : nil)
    }

    /// The frame as said: over a layer that leaves the panes showing (a menu, an alert), only the
    /// cells it drew and marked, so its text is not read together with the rows around it.
    // Bug: the Catalog's menu was said as "Pin report · 500 words", and its alert mixed in with
    // the Catalog rows beside it.
    static func read(_ frame: Frame, over app: TabApp, top: Int?) -> Screen {
        guard let top, !app.layers[top].base.coversScreen, !(app.layers[top].base is AccountSheet) else { return frame.screen }
        var screen = frame.screen
        for row in 0..<screen.size.height {
            for column in 0..<screen.size.width where frame.hits.target(at: Position(column: column, row: row)) == .outside {
                screen.fill(Rect(x: column, y: row, width: 1, height: 1))
            }
        }
        return screen
    }

    /// The lines that tell what changed from `before` to `after` (``Narration``), oldest first;
    /// none when nothing a person would notice changed.
    public func narration(from before: TabApp, to after: TabApp) -> [String] {
        guard let old = before.model(PerchModel.self) else { return [] }
        return lines(from: old.summary(of: before), to: summary(of: after), after)
    }

    private func lines(from before: Narration, to now: Narration, _ app: TabApp) -> [String] {
        // Bug: the notice on a screen too small was said in the pieces it is drawn in ("terminal
        // too · small (15×5, · needs 20×6)"); growing again, what shows is said whole.
        if let notice = now.tooSmall { return notice == before.tooSmall ? [] : [notice.prefix(1).uppercased() + notice.dropFirst() + "."] }
        if before.tooSmall != nil {
            guard let title = now.layerTitle else { return [paneLine(now)] }
            return [title + ": " + Self.text(of: Array(0..<now.screen.size.height), in: now.screen, atMost: Self.paneParts)]
        }
        var lines: [String] = []
        if let banner = now.banner, banner != before.banner { lines.append("Message: " + banner) }
        if let pending = now.pending, pending != before.pending {
            // Bug: picking the current account closed the sheet and said nothing.
            lines.append(
                pending == now.account ? "Already signed in as \(describe(id: pending))." : "Switching to \(describe(id: pending))…")
        }
        if now.account != before.account || now.switches != before.switches, let account = now.account {
            lines.append("Signed in as \(describe(id: account)). Switches so far: \(now.switches).")
        }
        // A pick closes the sheet and selects Overview: the switch says it all.
        let switching = now.pending != before.pending || now.account != before.account
        if now.layerID != before.layerID {
            if let sheet = now.sheet {
                lines.append(Self.opening(sheet))
            } else if let top = app.activeTop, let help = app.layers[top].base as? HelpLayer {
                // Help's rows, whole: the frame shows only those that fit.
                let rows = help.sections.flatMap(\.rows).map { "\($0.label): \($0.help)" }
                lines.append("Keys for \(help.title): " + rows.joined(separator: "; ") + ". Esc closes.")
            } else if let title = now.layerTitle {
                lines.append(title + ": " + Self.text(of: changedRows(before.screen, now.screen), in: now.screen))
            } else if !switching, let title = before.layerTitle {
                lines.append("Closed \(title). " + paneLine(now))
            }
        } else if let sheet = now.sheet, let old = before.sheet {
            if sheet.filter != old.filter, let filter = sheet.filter, !filter.isEmpty || !sheet.editingFilter || old.editingFilter {
                lines.append(Self.filtered(filter, sheet))
            } else if sheet.editingFilter != old.editingFilter {
                lines.append(
                    sheet.editingFilter
                        ? "Filter: type to narrow the list; Enter picks the row under the cursor; Esc clears it."
                        : "Filter cleared. " + Self.numbered(sheet.rows))
            } else if sheet.cursor != old.cursor {
                lines.append(Self.cursorLine(sheet))
            }
        } else if now.layerTitle != nil {
            let rows = changedRows(before.screen, now.screen)
            if !rows.isEmpty { lines.append(Self.text(of: Self.highlighted(rows, in: now.screen) ?? rows, in: now.screen)) }
        }
        if now.layerID == nil, before.layerID == nil, !switching {
            if now.tab != before.tab {
                lines.append(paneLine(now))
            } else if lines.isEmpty {
                let pane = Layout(size: now.screen.size).pane
                let rows = changedRows(before.screen, now.screen).filter { $0 < pane.maxY }
                if !rows.isEmpty { lines.append(Self.text(of: Self.highlighted(rows, in: now.screen) ?? rows, in: now.screen)) }
            }
        }
        return lines
    }

    /// What starts the accessible mode's transcript: where it is and how to get help.
    public func narrationGreeting(_ app: TabApp) -> String {
        "Perch, accessible mode. " + paneLine(summary(of: app)) + " Press ? for the keys, a to switch account, q to quit."
    }

    /// "Overview tab, 1 of 4: " and the pane's text, its rows joined.
    private func paneLine(_ summary: Narration) -> String {
        let pane = Layout(size: summary.screen.size).pane
        let rows = Array(pane.y..<pane.maxY)
        return "\(summary.tab.title) tab, \(summary.tab.rawValue + 1) of \(Tab.allCases.count): "
            + Self.text(of: rows, in: summary.screen, atMost: Self.paneParts)
    }

    /// Most rows of a pane said when its tab is chosen; the rest are there for ↑ ↓ to reach.
    static let paneParts = 20

    /// The account sheet as said.
    func sheetSummary(_ sheet: AccountSheet) -> Narration.SheetSummary {
        let offered = accountsIndex.offeredCount
        var rows: [String] = []
        var cursor: Int?
        for index in 0..<sheet.rowCount(accounts: offered) {
            let text: String
            switch sheet.row(index, accounts: offered) {
            case .heading: continue
            case .account(let account): text = describe(index: account)
            case .addAccount: text = accountsIndex.isLoading ? AccountSheet.loadingText : "Add account…"
            }
            rows.append(text)
            if index == sheet.cursor.cursor { cursor = rows.count }
        }
        return Narration.SheetSummary(filter: sheet.filter, editingFilter: sheet.isEditingFilter, rows: rows, cursor: cursor)
    }

    /// The row index in `sheet` of the row numbered `number` (from 1), headings not counted.
    func sheetRow(numbered number: Int, in sheet: AccountSheet) -> Int? {
        let offered = accountsIndex.offeredCount
        var count = 0
        for index in 0..<sheet.rowCount(accounts: offered) {
            if case .heading = sheet.row(index, accounts: offered) { continue }
            count += 1
            if count == number { return index }
        }
        return nil
    }

    /// An account by its index: "Work, @ada.lovelace", with ", current" for the current one.
    private func describe(index: Int) -> String {
        let account = accounts[index]
        var text = account.name
        if let handle = account.handle, !handle.isEmpty { text += ", " + handle }
        if index == currentIndex { text += ", current" }
        return text
    }

    /// An account by its id: "Work (@ada.lovelace)", or the id when the config lacks it.
    private func describe(id: String) -> String {
        guard let account = accounts.first(where: { $0.id == id }) else { return id }
        guard let handle = account.handle, !handle.isEmpty else { return account.name }
        return "\(account.name) (\(handle))"
    }

    static func opening(_ sheet: Narration.SheetSummary) -> String {
        let accounts = sheet.rows.count
        return "Switch account, \(accounts) row\(accounts == 1 ? "" : "s"): " + numbered(sheet.rows)
            + ". Type a number and Enter to pick; / filters; Esc closes."
    }

    static func filtered(_ filter: String, _ sheet: Narration.SheetSummary) -> String {
        let count = sheet.rows.count
        let matches = count == 0 ? "no rows" : "\(count) row\(count == 1 ? "" : "s")"
        return "Filter \"\(filter)\": \(matches)" + (count == 0 ? "." : ": " + numbered(sheet.rows) + ".")
    }

    static func cursorLine(_ sheet: Narration.SheetSummary) -> String {
        guard let cursor = sheet.cursor else { return "No row." }
        return "\(cursor) of \(sheet.rows.count): \(sheet.rows[cursor - 1])."
    }

    /// "1 Work, @ada.lovelace; 2 Personal, @ada, current".
    static func numbered(_ rows: [String]) -> String {
        rows.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: "; ")
    }

    /// The rows of `new` whose text or look differ from `old`'s (all of them at another size).
    private func changedRows(_ old: Screen, _ new: Screen) -> [Int] {
        guard old.size == new.size else { return Array(0..<new.size.height) }
        return (0..<new.size.height).filter { row in
            (0..<new.size.width).contains { old[$0, row] != new[$0, row] }
        }
    }

    /// Among `rows`, those drawn in reverse video (a list's cursor), or nil when none is.
    static func highlighted(_ rows: [Int], in screen: Screen) -> [Int]? {
        let marked = rows.filter { row in (0..<screen.size.width).contains { screen[$0, row].style.reverse } }
        return marked.isEmpty ? nil : marked
    }

    /// Box-drawing characters a frame draws around or between text.
    private static let drawing: Set<Character> = [
        "─", "━", "│", "┃", "╭", "╮", "╰", "╯", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "═", "║", "▔", "▁",
    ]

    /// The text of `rows` of `screen`, each trimmed, blank ones left out, joined with " · ".
    static func text(of rows: [Int], in screen: Screen, atMost limit: Int = .max) -> String {
        let lines = screen.lines
        var parts: [String] = []
        for row in rows where lines.indices.contains(row) {
            // Frames and rules are drawing, not text.
            let plain = lines[row].map { Self.drawing.contains($0) ? " " : $0 }
            let words = plain.split(separator: " ", omittingEmptySubsequences: true).map { String($0) }.joined(separator: " ")
            if !words.isEmpty { parts.append(words) }
        }
        guard parts.count > limit else { return parts.joined(separator: " · ") }
        return parts.prefix(limit).joined(separator: " · ") + " · and \(parts.count - limit) more lines"
    }
}
