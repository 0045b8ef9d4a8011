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

    /// PerchKit's cover as this one shows now: the item's title and text (``textLines(_:_:)``,
    /// read from the model, so a preview that arrives while it is up shows), scrolled to where
    /// it is, with `a` and `?` named in its footer. Closing, scrolling and drawing are its.
    func base(_ context: ModelContext) -> CoverLayer? {
        guard case .item(let item, let scroll) = self else { return nil }
        let lines = Self.textLines(item, context).map { CoverLayer.Line($0.0, style: $0.1) }
        return CoverLayer(title: item.title, styledLines: lines, scroll: scroll, footerHints: ["a switch account", "? help"])
    }

    /// Scrolls the item's text and closes on `Esc` or `✕`, as PerchKit's cover does, and asks
    /// Perch's model for the account sheet on `a` (``PerchModel/Message/openSheet``).
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        guard case .item(let item, _) = self, let perch = context.perch, var base = base(perch) else { return [] }
        let shared: ComponentInput<CoverLayer.Verb>
        switch input {
        case .verb(.switchAccount): return [.perch(.openSheet)]
        case .verb(.close): shared = .verb(.close)
        case .verb(.move(let move)): shared = .verb(.move(move))
        case .tap(let target): shared = .tap(target)
        case .scroll(let target, let notches): shared = .scroll(target, notches: notches)
        default: return []
        }
        let reactions = base.update(shared, context)
        self = .item(item, scroll: base.scroll)
        return reactions
    }

    /// The text of an item: its title, subtitle and id, then the preview's lines (what the tool
    /// reports now), or the field's whole value; a sample item's words and activity chart.
    static func textLines(_ item: CatalogItem, _ context: ModelContext) -> [(String, Style)] {
        let pinned = context.catalog.isPinned(item.id)
        var lines: [(String, Style)] = [((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold)]
        if item.isSample {
            lines.append(("A \(item.kind) of \(item.words) words, by \(context.currentAccount?.name ?? "no account").", .plain))
            lines.append(("\(item.id)\(pinned ? " · pinned" : "")", .dim))
            lines.append(("", .plain))
            return lines + activityChart(item, width: max(0, context.size.width - 4)) + [("activity", .dim)]
        }
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

    /// A sample item's activity as a column chart four rows tall, at most 48 columns wide: each
    /// column is one character of the item's picture (``CatalogItem/activity(_:)``).
    static func activityChart(_ item: CatalogItem, width: Int) -> [(String, Style)] {
        let picture = Array(item.activity(min(48, width)))
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return (0..<4).reversed().map { band in
            let text = String(
                picture.map { c -> Character in
                    let level = (levels.firstIndex(of: c) ?? 0) + 1  // 1…8 eighths of one band
                    let filled = level * 4 - band * 8  // eighths of this band covered, of 32 in all
                    return filled >= 8 ? "█" : filled <= 0 ? " " : levels[filled - 1]
                })
            return (text, Style(foreground: .cyan))
        }
    }

    /// Draws the cover over everything, tab bar included, into `area` (the whole screen):
    /// PerchKit's cover, configured.
    public func render(into frame: inout Frame, in area: Rect, _ kit: Context) {
        guard let context = kit.perch, let base = base(context) else { return }
        base.render(into: &frame, in: area, kit)
    }
}

extension HitTarget {
    /// A full-screen layer's close control (`✕`): PerchKit's cover's, which the form marks too.
    public static let coverClose = HitTarget.hit(CoverLayer.Part.close)
    /// Anywhere else on a full-screen layer.
    public static let coverBody = HitTarget.layerChrome
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
