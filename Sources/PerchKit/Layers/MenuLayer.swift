/// A context menu with a preview (UIContextMenuInteraction's shape), over the dimmed screen: a
/// preview card (a bold title and a few lines of text) above a menu of actions, placed by the
/// row it is for (``anchorRow``) and kept on the screen. `↑`/`↓` (or the wheel) move the focus
/// between the actions; `Enter`, or a tap on an action, picks it: the menu replies with the
/// action's index (``Reply``) and goes. `Esc`, or a tap outside, closes it without a reply.
///
/// The preview may come later than the menu (slow work): the presenter hands the layer a
/// ``Message/preview(_:)`` with the new lines, which replace the card's.
///
/// With ``previewIsFocusable`` the card takes the focus above the first action (its border bold)
/// and picking it replies ``previewPicked``: a card that opens what it previews. Actions past the
/// menu's edge are marked `↑ more` / `↓ more` on its border; a click on a mark scrolls to them.
/// An app whose menu needs keys or actions of its own wraps one in a layer of its own and hands
/// it the verbs they share (``handle(_:in:)``) and its drawing (``render(into:in:_:)``).
public struct MenuLayer: Layer {
    /// One action of the menu.
    public struct Action: Hashable, Sendable {
        /// The row's text.
        public var label: String
        /// Whether it destroys something: drawn in red.
        public var isDestructive: Bool

        /// An action labelled `label`; a destructive one is drawn in red.
        public init(_ label: String, isDestructive: Bool = false) {
            self.label = label
            self.isDestructive = isDestructive
        }
    }

    /// The card's bold first line.
    public var title: String
    /// The card's lines below the title, each in its style; a card cut short shows the first ones.
    public var preview: [StyledLine]
    /// The actions, top to bottom.
    public var actions: [Action]
    /// The screen row the menu is for: the card's title row lines up with it when there is room.
    public var anchorRow: Int
    /// Index in ``actions`` of the focused action, or ``previewPicked`` while the card has the
    /// focus (only when ``previewIsFocusable``).
    public var focus = 0
    /// Whether the card takes the focus above the first action and can be picked. False by default.
    public var previewIsFocusable = false

    /// What the menu replies when its focusable card is picked, in place of an action's index.
    public static let previewPicked = -1

    /// A menu for screen row `anchorRow`, with a card titled `title` over `preview`'s lines and
    /// `actions`; the focus on the first action.
    public init(title: String, preview: [String] = [], actions: [Action], anchorRow: Int) {
        self.init(title: title, styledPreview: preview.map { StyledLine($0) }, actions: actions, anchorRow: anchorRow)
    }

    /// A menu for screen row `anchorRow`, with a card titled `title` over `preview`'s lines, each
    /// in its style, and `actions`; the focus on action `focus` (``previewPicked``: the card,
    /// when `previewIsFocusable`).
    public init(
        title: String, styledPreview preview: [StyledLine], actions: [Action], anchorRow: Int, focus: Int = 0,
        previewIsFocusable: Bool = false
    ) {
        self.title = title
        self.preview = preview
        self.actions = actions
        self.anchorRow = anchorRow
        self.previewIsFocusable = previewIsFocusable
        self.focus = focus
    }

    /// What the presenter may send the menu while it is up.
    public enum Message: Sendable {
        /// The card's lines below the title, replacing those shown (a preview worked out late).
        case preview([String])
    }

    /// The index in ``actions`` of the action picked.
    public typealias Reply = Int

    /// What the menu's keys mean.
    public enum Verb: Hashable, Sendable { case up, down, pick, close }

    /// What the menu marks in the hit map.
    public enum Part: HitPart {
        /// An action row, by index in ``MenuLayer/actions``.
        case action(Int)
        /// The preview card, when it is focusable: a click picks it.
        case preview
    }

    /// What an input did to the menu (``handle(_:in:)``).
    public enum Outcome: Hashable, Sendable {
        /// Nothing, or only the focus moved.
        case none
        /// This action (its index), or the card (``previewPicked``), was picked.
        case picked(Int)
        /// It was closed without a pick.
        case closed
    }

    /// Its key bindings: what help lists under its title, and the verbs its keys mean.
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The key table of every menu, made once (the root reads it for each key pressed).
    public static let keyTable = KeyTable<Verb>(
        "Menu",
        [
            .init([KeyEvent(.up), .char("k")], "↑ k", "previous action", .up),
            .init([KeyEvent(.down), .char("j")], "↓ j", "next action", .down),
            .init([KeyEvent(.enter)], "Enter", "pick the action", .pick),
            .init([KeyEvent(.escape)], "Esc", "close", .close),
            .init([], "click an action", "pick it", nil),
            .init([], "click outside", "close", nil),
        ])

    /// Takes a verb or a tap on one of its parts; returns its reply and dismissal, or nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Message>] {
        switch handle(input, in: context.size) {
        case .none: return []
        case .picked(let index): return [Self.reply(index), .dismiss]
        case .closed: return [.dismiss]
        }
    }

    /// What `input` does to the menu on a screen of `size` (columns × rows): moves the focus,
    /// picks, or closes. ``update(_:_:)`` turns it into reactions; a layer of an app's own that
    /// holds a menu calls it with its own keys' meaning.
    public mutating func handle(_ input: ComponentInput<Verb>, in size: Size) -> Outcome {
        switch input {
        case .verb(.up): moveFocus(by: -1)
        case .verb(.down): moveFocus(by: 1)
        case .scroll(_, let notches): moveFocus(by: notches < 0 ? -1 : 1)
        case .verb(.pick):
            if actions.indices.contains(focus) || (previewIsFocusable && focus == Self.previewPicked) { return .picked(focus) }
        case .verb(.close): return .closed
        case .tap(.layerScroll(let delta)):
            // A `more` mark: the focus goes to the first action past that edge, which scrolls it into view.
            let layout = layout(in: Rect(x: 0, y: 0, width: size.width, height: size.height))
            let scroll = layout.actionScroll(focused: max(0, focus))
            focus = delta > 0 ? min(actions.count - 1, scroll + layout.visibleActions) : max(0, scroll - 1)
        case .tap(let target):
            switch target.part(Part.self) {
            case .action(let index)? where actions.indices.contains(index):
                focus = index
                return .picked(index)
            case .preview? where previewIsFocusable:
                focus = Self.previewPicked
                return .picked(Self.previewPicked)
            default: break
            }
        default: break
        }
        return .none
    }

    /// Takes a late preview (``Message/preview(_:)``): its lines replace the card's.
    public mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] {
        switch message {
        case .preview(let lines): preview = lines.map { StyledLine($0) }
        }
        return []
    }

    /// Moves the focus by `delta`, stopping at the last action and at the first (or the card,
    /// when it is focusable).
    private mutating func moveFocus(by delta: Int) {
        focus = max(previewIsFocusable ? Self.previewPicked : 0, min(actions.count - 1, focus + delta))
    }

    /// Where the menu draws itself in `area`.
    public func layout(in area: Rect) -> Layout {
        Layout(
            anchorRow: anchorRow, previewLines: preview.count, actionLabels: actions.map(\.label), area: area)
    }

    /// Draws it into `area` (the whole screen, columns × rows) and marks its parts in the hit map.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.dimAll()
        let layout = layout(in: area)
        let card = layout.card
        let menu = layout.menu
        frame.hits.mark(card, previewIsFocusable ? .hit(Part.preview) : .layerChrome)
        frame.hits.mark(menu, .layerChrome)
        // Bug: the tails of the words the card and the menu cut stood beside their borders.
        frame.screen.clearCutWords(beside: [card, menu])
        frame.screen.box(card, style: previewIsFocusable && focus == Self.previewPicked ? .bold : .dim)
        let inner = max(0, card.width - 4)
        let lines = [StyledLine(title, style: .bold)] + preview
        for (offset, line) in lines.prefix(max(0, card.height - 2)).enumerated() {
            frame.screen.put(line.text, column: card.x + 2, row: card.y + 1 + offset, style: line.style, width: inner)
        }
        frame.screen.box(menu)
        let scroll = layout.actionScroll(focused: max(0, focus))
        for offset in 0..<layout.visibleActions {
            let index = scroll + offset
            guard actions.indices.contains(index) else { break }
            var style = actions[index].isDestructive ? Style(foreground: .red) : Style.plain
            if index == focus {
                style.reverse = true
                style.bold = true
            }
            let row = Rect(x: menu.x + 1, y: menu.y + 1 + offset, width: menu.width - 2, height: 1)
            frame.hits.mark(row, .hit(Part.action(index)))
            frame.screen.fill(row, style: style)
            frame.screen.put(" " + actions[index].label, column: row.x, row: row.y, style: style, width: row.width)
        }
        // Actions past the menu's edge are marked on its border; a click on a mark scrolls to them.
        let markColumn = max(menu.x + 1, menu.maxX - 9)
        if scroll > 0, menu.height >= 2 {
            frame.hits.mark(Rect(x: menu.x + 1, y: menu.y, width: menu.width - 2, height: 1), .layerScroll(-1))
            frame.screen.put(" ↑ more ", column: markColumn, row: menu.y, style: .bold, width: menu.maxX - 1 - markColumn)
        }
        if scroll + layout.visibleActions < actions.count, menu.height >= 2 {
            frame.hits.mark(Rect(x: menu.x + 1, y: menu.maxY - 1, width: menu.width - 2, height: 1), .layerScroll(1))
            frame.screen.put(" ↓ more ", column: markColumn, row: menu.maxY - 1, style: .bold, width: menu.maxX - 1 - markColumn)
        }
    }
}

extension MenuLayer {
    /// Geometry of a menu: the preview card (at most ``maximumCardWidth`` columns, as tall as its
    /// title and lines plus its border) with the menu of actions (as wide as its widest label plus
    /// a border and a column of space each side, at least ``minimumMenuWidth``), three columns in
    /// from the area's left edge (centred when the area is narrow). The card's title row lines up
    /// with the anchor row when there is room; near the area's top or bottom the pair moves
    /// inwards. The menu goes below the card when both fit in the area's height; beside it when
    /// they do not and the area is wide enough for a card of ``minimumBesideWidth`` columns and
    /// the menu; otherwise below a card that shrinks (down to ``minimumCardHeight`` rows). Past
    /// that the menu's actions scroll, so nothing is drawn off the area.
    public struct Layout: Hashable, Sendable {
        /// Widest card, in columns.
        public static let maximumCardWidth = 46
        /// Shortest card: its border and the title, in rows.
        public static let minimumCardHeight = 3
        /// Narrowest menu, border included, in columns.
        public static let minimumMenuWidth = 16
        /// Narrowest card put beside the menu, in columns.
        public static let minimumBesideWidth = 30

        /// The preview card, border included.
        public let card: Rect
        /// The menu of actions, border included.
        public let menu: Rect
        /// Whether the menu is beside the card (else below it).
        public let isBeside: Bool

        /// - Parameters:
        ///   - anchorRow: screen row the menu is for.
        ///   - previewLines: number of the card's lines below its title.
        ///   - actionLabels: the actions' labels, top to bottom.
        ///   - area: where the menu may draw (the screen).
        public init(anchorRow: Int, previewLines: Int, actionLabels: [String], area: Rect) {
            let widest = actionLabels.map { DisplayWidth.columns(of: $0) }.max() ?? 0
            let menuWidth = max(0, min(max(Self.minimumMenuWidth, widest + 4), area.width))
            var cardWidth = min(area.width, max(menuWidth, min(Self.maximumCardWidth, area.width - 2)))
            let menuHeight = actionLabels.count + 2
            let fullCard = previewLines + 3
            var cardHeight = fullCard
            var menuRows = menuHeight
            let besideWidth = min(Self.maximumCardWidth, area.width - 3 - menuWidth)
            if fullCard + menuHeight <= area.height {
                isBeside = false
            } else if besideWidth >= Self.minimumBesideWidth {
                isBeside = true
                cardWidth = besideWidth
                cardHeight = min(fullCard, area.height)
                menuRows = min(menuHeight, area.height)
            } else {
                isBeside = false
                cardHeight = max(min(Self.minimumCardHeight, area.height), area.height - menuHeight)
                menuRows = max(0, min(menuHeight, area.height - cardHeight))
            }
            let totalWidth = isBeside ? cardWidth + 1 + menuWidth : max(cardWidth, menuWidth)
            let totalHeight = isBeside ? max(cardHeight, menuRows) : cardHeight + menuRows
            let x = area.width - totalWidth >= 8 ? area.x + 3 : area.x + max(0, (area.width - totalWidth) / 2)
            let top = max(area.y, min(anchorRow - 1, area.maxY - totalHeight))
            card = Rect(x: x, y: top, width: cardWidth, height: cardHeight)
            menu =
                isBeside
                ? Rect(x: x + cardWidth + 1, y: top, width: menuWidth, height: menuRows)
                : Rect(x: x, y: top + cardHeight, width: menuWidth, height: menuRows)
        }

        /// Action rows shown at once.
        public var visibleActions: Int { max(0, menu.height - 2) }

        /// Index of the first action shown when action `focused` must be visible.
        public func actionScroll(focused: Int) -> Int { max(0, focused - visibleActions + 1) }
    }
}
