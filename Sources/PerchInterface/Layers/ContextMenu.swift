import PerchDomain
import PerchKit

/// An action of a Catalog item's context menu, in the order the menu lists them.
public enum ContextMenuAction: CaseIterable, Hashable, Sendable {
    /// Opens the item in a full-screen cover.
    case open
    /// Pins the item to the top of the Catalog, or unpins it.
    case pin
    /// Copies the item's id to the terminal's clipboard (OSC 52).
    case copyID
    /// Deletes the item, after a confirmation alert.
    case delete

    /// The menu's label; Pin reads Unpin on a pinned item.
    public func title(pinned: Bool) -> String {
        switch self {
        case .open: "Open"
        case .pin: pinned ? "Unpin" : "Pin"
        case .copyID: "Copy id"
        case .delete: "Delete…"
        }
    }
}

/// A context menu over a Catalog item (UIContextMenuInteraction's shape): a preview card that
/// shows the item more richly than its row, and a menu of actions beside or below it. It is a
/// PerchKit ``Layer`` of Perch's own: it reads the Catalog through its context (``ModelContext``,
/// `context.perch`), replies what was picked to the Catalog
/// that presented it (``ContextMenuChoice``), and presents PerchKit's ``AlertLayer`` before a
/// Delete, taking its answer as its own message (``Message``).
public struct ContextMenu: Hashable, Sendable {
    /// The item the menu is for.
    public var itemID: String
    /// Focus: 0 is the preview card (Enter opens the item), 1… are the actions in
    /// ``ContextMenuAction/allCases`` order.
    public var cursor = 1

    public init(itemID: String) { self.itemID = itemID }

    /// The focused action, or nil while the preview has the focus.
    public var focusedAction: ContextMenuAction? { cursor > 0 ? ContextMenuAction.allCases[cursor - 1] : nil }
}

extension ContextMenu: Layer {
    /// What the menu's keys mean.
    public enum Verb: Hashable, Sendable { case close, up, down, activate }

    /// How the Delete alert it presented was answered.
    public enum Message: Hashable, Sendable {
        /// Its destructive button was pressed: the action to carry out.
        case confirmed(AlertAction)
        /// Cancel was pressed.
        case cancelled
    }

    /// What it replies to the Catalog.
    public typealias Reply = ContextMenuChoice

    /// Its keys, in the order help lists them (Perch adds `?`, help over it).
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The menu's key table, the same for every menu.
    public static let keyTable = KeyTable<Verb>(
        "Context menu",
        [
            .init([KeyEvent(.escape)], "Esc", "close the menu", .close),
            .init([], "click outside", "close the menu", nil),
            .init([KeyEvent(.up), .char("k")], "↑ k", "previous action, then the preview", .up),
            .init([KeyEvent(.down), .char("j")], "↓ j", "next action", .down),
            .init([], "wheel", "previous or next action", nil),
            .init([KeyEvent(.enter)], "Enter", "run the action, or open the item", .activate),
            .init([], "click the preview", "open the item full-screen", nil),
            .init([], "click an action", "run it", nil),
        ])

    /// Geometry of the menu as drawn now (PerchKit's menu's, anchored at its item's row, on the
    /// whole screen); nil when the item is gone.
    public func layout(_ context: ModelContext) -> MenuLayer.Layout? {
        base(context)?.layout(in: Rect(x: 0, y: 0, width: context.size.width, height: context.size.height))
    }

    /// Lines of the preview card below its title, whatever the item: a shorter card is a shrunk
    /// one.
    static let previewLineCount = 4

    /// Geometry of a menu for the item on screen row `anchorRow`, on a screen of `screen`
    /// (columns × rows): PerchKit's menu geometry (``MenuLayer/Layout``) for a card of a title
    /// and ``previewLineCount`` lines and the four actions (the card 46 × 7 at most; the menu
    /// below it, beside it on a wide short screen, else below a shrunk card).
    public static func layout(anchorRow: Int, screen: Size) -> MenuLayer.Layout {
        MenuLayer.Layout(
            anchorRow: anchorRow, previewLines: previewLineCount, actionLabels: ContextMenuAction.allCases.map { $0.title(pinned: false) },
            area: Rect(x: 0, y: 0, width: screen.width, height: screen.height))
    }

    /// PerchKit's menu as this one shows now: the item's preview card (focusable: picking it
    /// opens the item) over its actions, Pin reading Unpin on a pinned item, the focus where
    /// ``cursor`` is. Moving, picking, scrolling and drawing are its.
    func base(_ context: ModelContext) -> MenuLayer? {
        guard let index = context.catalog.index(of: itemID), let item = context.catalog.item(itemID) else { return nil }
        let anchorRow = context.catalog.screenRow(of: index, context)
        let inner = Self.layout(anchorRow: anchorRow, screen: context.size).card.width - 4
        let lines = Self.previewLines(item, width: inner, context).map { StyledLine($0.0, style: $0.1) }
        let pinned = context.catalog.isPinned(item.id)
        return MenuLayer(
            title: lines.first?.text ?? item.title, styledPreview: Array(lines.dropFirst()),
            actions: ContextMenuAction.allCases.map { MenuLayer.Action($0.title(pinned: pinned), isDestructive: $0 == .delete) },
            anchorRow: anchorRow, focus: cursor - 1, previewIsFocusable: true)
    }

    /// Moves the focus, closes, or runs the focused action or the one tapped (PerchKit's menu
    /// decides which); the card opens the item.
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch, var base = base(context) else { return [] }
        let shared: ComponentInput<MenuLayer.Verb>
        switch input {
        case .verb(.close): shared = .verb(.close)
        case .verb(.up): shared = .verb(.up)
        case .verb(.down): shared = .verb(.down)
        case .verb(.activate): shared = .verb(.pick)
        case .tap(let target): shared = .tap(target)
        case .scroll(let target, let notches): shared = .scroll(target, notches: notches)
        default: return []
        }
        let outcome = base.handle(shared, in: context.size)
        cursor = base.focus + 1
        switch outcome {
        case .none: return []
        case .closed: return [.dismiss]
        case .picked(MenuLayer.previewPicked): return [.dismiss, Self.reply(ContextMenuChoice.open(id: itemID))]
        case .picked(let index): return perform(ContextMenuAction.allCases[index], context)
        }
    }

    /// Gone once its item is (deleted, or the Catalog loaded again without it).
    public mutating func advance(_ kit: Context) -> Bool { kit.perch?.catalog.index(of: itemID) != nil }

    /// Its alert confirmed: the menu goes, and hands the confirmation on to the Catalog that
    /// presented it (``ContextMenuChoice/confirmed(_:)``); Cancel leaves the menu up.
    public mutating func receive(_ message: Message, _ kit: Context) -> [Reaction<Message>] {
        guard case .confirmed(let action) = message else { return [] }
        return [.dismiss, Self.reply(ContextMenuChoice.confirmed(action))]
    }

    /// What an action does to the item: every action but Delete dismisses the menu (replying
    /// to the Catalog, ``ContextMenuChoice``); Delete presents a confirmation alert over it,
    /// whose confirmation the menu hands on to the Catalog (``receive(_:_:)``).
    func perform(_ action: ContextMenuAction, _ context: ModelContext) -> [Reaction<Message>] {
        guard let item = context.catalog.item(itemID) else { return [] }
        switch action {
        case .open:
            return [.dismiss, Self.reply(ContextMenuChoice.open(id: itemID))]
        case .pin:
            return [.dismiss, Self.reply(ContextMenuChoice.togglePin(id: itemID))]
        case .copyID:
            return [.dismiss, .banner("Copied \(itemID) (OSC 52, where the terminal allows it)."), .terminal(.copyToClipboard(itemID))]
        case .delete:
            let confirmed: AlertAction
            let alert: AlertLayer
            if let account = context.currentAccount, let path = Self.configPath(of: item, in: account, context) {
                let shown = path.joined(separator: ".")
                confirmed = .deleteFromConfig(accountID: account.id, path: path)
                alert =
                    path.isEmpty
                    ? confirmed.alert(
                        title: "Remove the account “\(account.name)”?",
                        message: "It leaves the config file, as `perch remove \(account.id)` does; its history stays.",
                        confirmTitle: "Remove")
                    : confirmed.alert(
                        title: "Remove \(shown) from “\(account.name)”?",
                        message: "It leaves the config file, as `perch unset \(account.id) \(shown)` does.", confirmTitle: "Remove")
            } else {
                let catalog = context.currentAccount.map { "\($0.name)’s Catalog" } ?? "the Catalog"
                confirmed = .deleteItem(id: itemID)
                alert = confirmed.alert(
                    title: "Delete “\(item.title)”?", message: "It leaves \(catalog) for this session.", confirmTitle: "Delete")
            }
            return [.present(alert, onReply: { $0 == AlertAction.confirmButton ? .confirmed(confirmed) : .cancelled })]
        }
    }

    /// Where `item` is in the config, when it is a row of the Catalog made from the config file
    /// of the user's own (``CatalogItem/configFields(of:)``): a tool identity's tool (`["git"]`),
    /// a field's keys (`["handle"]`, `["catalog", "preview"]`), or `[]` for the id and name
    /// rows, which an account cannot be without (Delete then removes the account). Nil for the
    /// sample accounts, sample items and a command's items: Delete hides those for the session.
    static func configPath(of item: CatalogItem, in account: Account, _ context: ModelContext) -> [String]? {
        guard !context.info.usesSampleAccounts, !item.isSample, account.catalog?.command == nil, account.catalog?.samples != true else {
            return nil
        }
        if let tool = item.identityTool { return [tool.rawValue] }
        guard item.id.hasPrefix("config.") else { return nil }
        let keys = item.id.dropFirst("config.".count).split(separator: ".").map(String.init)
        return keys == ["id"] || keys == ["name"] ? [] : keys
    }

    /// The preview lines of `item`, most important first; a shrunk card shows the first ones.
    static func previewLines(_ item: CatalogItem, width: Int, _ context: ModelContext) -> [(String, Style)] {
        let owner = context.currentAccount?.name ?? "no account"
        let position = (context.catalog.index(of: item.id) ?? 0) + 1
        let pinned = context.catalog.isPinned(item.id)
        guard item.isSample else {
            // A command's item or a config field: its subtitle, then what the preview command printed.
            let place = "\(item.id) · \(position) of \(context.catalog.items.count)\(pinned ? " · pinned" : "")"
            var lines: [(String, Style)] = [((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold)]
            lines.append(item.detail.isEmpty ? (place, .dim) : (item.detail, .plain))
            if let tool = item.identityTool {
                lines += CatalogItem.identityLines(tool, context).prefix(2).map { ($0, Style(foreground: .cyan)) }
            } else if let preview = context.catalog.previews[item.id] {
                lines += preview.lines.filter { !$0.isEmpty }.prefix(2).map { ($0, Style(foreground: .cyan)) }
            }
            if !item.detail.isEmpty, lines.count < 4 { lines.append((place, .dim)) }
            while lines.count < 4 { lines.append(("", .plain)) }
            let hint =
                context.currentAccount?.catalog?.open != nil ? "Enter or click here to run catalog.open" : "Enter or click here to open"
            return lines + [(hint, .dim)]
        }
        return [
            ((pinned ? CatalogPane.pinMark + " " : "") + item.title, .bold),
            ("A \(item.kind) of \(item.words) words, by \(owner).", .plain),
            ("\(item.id) · \(position) of \(context.catalog.items.count)\(pinned ? " · pinned" : "")", .dim),
            ("activity " + item.activity(max(0, min(24, width - 9))), Style(foreground: .cyan)),
            ("Enter or click here to open", .dim),
        ]
    }

    /// Draws the menu over the dimmed screen (`area` is the whole screen): PerchKit's menu,
    /// configured (``base(_:)``).
    public func render(into frame: inout Frame, in area: Rect, _ kit: Context) {
        guard let context = kit.perch, let base = base(context) else {
            frame.screen.dimAll()
            return
        }
        base.render(into: &frame, in: area, kit)
    }
}

extension HitTarget {
    /// A context menu's preview card: PerchKit's menu's focusable card.
    public static let contextPreview = HitTarget.hit(MenuLayer.Part.preview)
    /// An action row of a context menu, by index in ``ContextMenuAction/allCases``.
    public static func contextAction(_ index: Int) -> HitTarget { .hit(MenuLayer.Part.action(index)) }
}
