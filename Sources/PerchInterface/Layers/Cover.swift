import PerchDomain
import PerchKit

/// What a full-screen cover shows (UIModalPresentationStyle `.fullScreen`): it hides
/// everything below it, tab bar included, until it is closed with its `✕` or `Esc`.
public enum Cover: Hashable, Sendable {
    /// A Catalog item, opened from its context menu, with the first line of its text shown
    /// (a long preview scrolls).
    case item(CatalogItem, scroll: Int)
}

extension Cover: Layer {
    /// What the cover's keys mean.
    public enum Verb: Hashable, Sendable {
        case close, switchAccount
        /// Scroll the text (``ListMove``).
        case move(ListMove)
    }

    /// Its keys, in the order help lists them (Perch adds `?`, help over it).
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The cover's key table, the same for every cover.
    public static let keyTable = KeyTable<Verb>(
        "Cover",
        [
            .init([KeyEvent(.escape)], "Esc", "close", .close),
            .init([], "click ✕", "close", nil),
        ] + ListMove.rows(Verb.move, scrolling: true) + [
            .init([.char("a")], "a", "switch account (a sheet over the cover)", .switchAccount)
        ])

    /// Over everything, the tab bar included.
    public var coversScreen: Bool { true }

    /// Scrolls the item's text, closes on `Esc` or `✕`, and asks Perch's root for the account
    /// sheet on `a` (``PerchModel/Message/openSheet``, sent to Perch's model).
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        guard case .item(let item, var scroll) = self, let perch = context.perch else { return [] }
        let lineCount = Self.textLines(item, perch).count
        let visible = max(1, Self.textRows(context.size))
        let last = max(0, lineCount - visible)
        switch input {
        case .verb(.close): return [.dismiss]
        case .tap(.coverClose): return [.dismiss]
        case .verb(.switchAccount): return [.perch(.openSheet)]
        case .verb(.move(let move)): scroll += move.delta(count: lineCount, visible: visible)
        case .scroll(_, let notches): scroll += notches * ListMove.rowsPerScrollNotch
        default: break
        }
        self = .item(item, scroll: max(0, min(scroll, last)))
        return []
    }

    /// Rows of the cover's text between the title rule and the footer.
    static func textRows(_ size: Size) -> Int { max(0, size.height - 4) }

    /// The text of a command item or a config field: its title, subtitle and id, then the
    /// preview's lines (what the tool reports now), or the field's whole value.
    static func textLines(_ item: CatalogItem, _ context: ModelContext) -> [(String, Style)] {
        let pinned = context.catalog.isPinned(item.id)
        var lines: [(String, Style)] = [((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold)]
        if !item.detail.isEmpty { lines.append((item.detail, .plain)) }
        lines.append(("\(item.id)\(pinned ? " · pinned" : "")", .dim))
        lines.append(("", .plain))
        if let tool = item.identityTool {
            lines += CatalogItem.identityLines(tool, context).map { ($0, Style.plain) }
        } else if let preview = context.catalog.previews[item.id] {
            lines += preview.lines.map { ($0, Style.plain) }
        } else if context.currentAccount?.catalog?.command != nil {
            lines.append(("No preview: add catalog.preview to the account's config to show one here.", .dim))
        }
        return lines
    }

    /// Draws the cover over everything, tab bar included, into `area` (the whole screen).
    public func render(into frame: inout Frame, in area: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        let size = context.size
        let layout = CoverLayout(screen: size)
        frame.hits.mark(layout.frame, .coverBody)
        frame.hits.mark(layout.close, .coverClose)
        frame.screen.fill(layout.frame)
        guard case .item(let item, let scroll) = self else { return }
        var x = frame.screen.put("✕", column: CoverLayout.closeColumn, row: 0, style: .bold)
        x = frame.screen.put("  " + item.title, column: x, row: 0, style: .bold, width: size.width - x)
        frame.screen.fill(Rect(x: 0, y: 1, width: size.width, height: 1), with: "─", style: .dim)
        let width = size.width - 4
        guard item.isSample else {
            let lines = Self.textLines(item, context)
            let rows = Self.textRows(size)
            for (offset, (text, style)) in lines.dropFirst(scroll).prefix(rows).enumerated() {
                frame.screen.put(DisplayWidth.truncated(text, to: max(0, width)), column: 2, row: 3 + offset, style: style)
            }
            let position = lines.count > rows ? " · ↑↓ scroll (\(scroll + 1)–\(min(lines.count, scroll + rows)) of \(lines.count))" : ""
            frame.screen.put(
                " Esc or ✕ close" + position + " · a switch account · ? help", column: 0, row: size.height - 1, style: .dim,
                width: size.width)
            return
        }
        var row = 3
        func line(_ text: String, _ style: Style = .plain) {
            if row < size.height - 1 {
                frame.screen.put(DisplayWidth.truncated(text, to: max(0, width)), column: 2, row: row, style: style)
            }
            row += 1
        }
        let pinned = context.catalog.isPinned(item.id)
        line((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold)
        line("A \(item.kind) of \(item.words) words, by \(context.currentAccount?.name ?? "no account").")
        line("\(item.id)\(pinned ? " · pinned" : "")", .dim)
        row += 1
        // Activity as a column chart four rows tall: each column is one character of the picture.
        let picture = Array(item.activity(max(0, min(48, width))))
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for band in (0..<4).reversed() where row < size.height - 1 {
            let text = String(
                picture.map { c -> Character in
                    let level = (levels.firstIndex(of: c) ?? 0) + 1  // 1…8 eighths of one band
                    let filled = level * 4 - band * 8  // eighths of this band covered, of 32 in all
                    return filled >= 8 ? "█" : filled <= 0 ? " " : levels[filled - 1]
                })
            frame.screen.put(text, column: 2, row: row, style: Style(foreground: .cyan))
            row += 1
        }
        line("activity", .dim)
        frame.screen.put(" Esc or ✕ close · a switch account · ? help", column: 0, row: size.height - 1, style: .dim, width: size.width)
    }
}

/// A full-screen layer's parts under the pointer (a cover's, and the form's, which is full-screen too).
public enum CoverPart: LayerPart {
    /// The close control (`✕`).
    case close
    /// Anywhere else on it.
    case body
}

extension HitTarget {
    /// A full-screen cover's close control (`✕`).
    public static let coverClose = HitTarget.layer(CoverPart.close)
    /// Anywhere else on a full-screen cover.
    public static let coverBody = HitTarget.layer(CoverPart.body)
}

extension CatalogItem {
    /// What the tool of an identity row reported when last checked, as lines for a preview.
    static func identityLines(_ tool: IdentityTool, _ context: ModelContext) -> [String] {
        guard let check = context.identities?.checks?.first(where: { $0.tool == tool }) else {
            let perShell = context.currentAccount?.identities[tool]?.isPerShell == true
            return [perShell ? "set per shell by perch env; not checked here" : "not checked yet"]
        }
        var lines = ["now: " + (check.actual ?? "unknown") + (check.matches == true ? "  ✓" : check.matches == false ? "  (drift)" : "")]
        if let note = check.note { lines.append(note) }
        return lines
    }
}
