/// What a key does once it is bound in an ``InputContext``; ``AppState/update(_:)`` performs it.
public enum KeyAction: Hashable, Sendable {
    case quit
    /// Stop the process (Ctrl-Z).
    case suspend
    case selectTab(Tab)
    case nextTab, previousTab
    case openAccountSheet
    case showHelp
    /// Dismiss the top presented layer.
    case dismiss
    case moveUp, moveDown, pageUp, pageDown, moveToFirst, moveToLast
    /// Enter on the focused row: run a Settings action, switch to an account.
    case activate
    /// Start typing a filter in the account sheet.
    case startFilter
    /// Raise or lower the sheet by one detent.
    case largerDetent, smallerDetent
    /// Text field editing: delete the character before the end.
    case deleteBackward
    /// Clear the sheet's filter and stop typing it.
    case clearFilter
    /// Open the context menu of the Catalog item under the cursor.
    case openContextMenu
    /// Move an alert's focus to the previous or next button, or a form's to another field.
    case focusPrevious, focusNext
    /// Open the `Add account…` form.
    case addAccount
    /// Run the Catalog's source command again.
    case refresh
    /// Settings: the previous or next value of the setting under the cursor.
    case decrease, increase
    /// Apply the current account's tool identities again (Overview).
    case reapplyIdentities
}

/// Who receives keys now: the selected pane, or the kind of the top presented layer.
public enum InputContext: Hashable, Sendable {
    case pane(Tab)
    case accountSheet
    /// The account sheet while its filter is being typed: printable keys go to the filter.
    case accountSheetFilter
    case help
    /// A Catalog item's context menu: ↑↓ move between the preview and the actions.
    case contextMenu
    /// A confirmation alert: ←→ move between its buttons.
    case alert
    /// A full-screen cover.
    case cover
    /// The `Add account…` form: printable keys and pastes go into the focused field.
    case accountForm
}

/// One row of the key-binding table: the keys, what they do, and the words the help overlay
/// shows for them. A binding without keys is a pointer gesture, listed for help only (gestures
/// are recognised by ``GestureRecognizer`` and hit-testing).
public struct KeyBinding: Hashable, Sendable {
    /// Keys that trigger ``action``; empty for a pointer gesture.
    public var keys: [KeyEvent]
    /// The keys or gesture as the help overlay names them, e.g. `↑ k`.
    public var label: String
    /// What the keys do; nil for a pointer gesture.
    public var action: KeyAction?
    /// One line for the help overlay.
    public var summary: String

    public init(_ keys: [KeyEvent], _ label: String, _ action: KeyAction, _ summary: String) {
        self.keys = keys
        self.label = label
        self.action = action
        self.summary = summary
    }

    /// A pointer gesture, listed in help.
    public init(gesture label: String, _ summary: String) {
        self.keys = []
        self.label = label
        self.action = nil
        self.summary = summary
    }
}

/// A key whose hold (the keyboard's long-press: held for the long-press duration) does
/// something on some panes, with no layer up. Elsewhere its presses are plain presses.
public struct KeyHoldBinding: Hashable, Sendable {
    /// The key held.
    public var key: KeyEvent
    /// The hold as help names it, e.g. `hold 1`.
    public var label: String
    /// The panes where holding it acts.
    public var panes: Set<Tab>
    /// What the hold does.
    public var action: KeyAction
    /// One line for help.
    public var summary: String
}

/// The one table of keys and gestures: ``AppState/update(_:)`` looks keys up in it and the help
/// overlay (`?`) lists it, so the two cannot disagree.
public enum KeyBindings {
    private static func keys(_ keys: Key...) -> [KeyEvent] { keys.map { KeyEvent($0) } }

    private static let listMoves: [KeyBinding] = [
        KeyBinding(keys(.up, .character("k")), "↑ k", .moveUp, "move up"),
        KeyBinding(keys(.down, .character("j")), "↓ j", .moveDown, "move down"),
        KeyBinding(keys(.pageUp), "PgUp", .pageUp, "page up"),
        KeyBinding(keys(.pageDown), "PgDn", .pageDown, "page down"),
        KeyBinding(keys(.home, .character("g")), "Home g", .moveToFirst, "first row"),
        KeyBinding(keys(.end, .character("G")), "End G", .moveToLast, "last row"),
    ]

    private static let tabs: [KeyBinding] =
        Tab.allCases.map { tab in
            KeyBinding([.char(tab.shortcut)], String(tab.shortcut), .selectTab(tab), "\(tab.title) tab")
        } + [
            KeyBinding(keys(.tab), "Tab", .nextTab, "next tab"),
            KeyBinding([KeyEvent(.tab, modifiers: .shift)], "Shift-Tab", .previousTab, "previous tab"),
            KeyBinding(gesture: "click a tab", "select it"),
        ]

    private static let global: [KeyBinding] = [
        KeyBinding(keys(.character("a")), "a", .openAccountSheet, "switch account"),
        KeyBinding(gesture: "hold Overview tab", "switch account (mouse)"),
        KeyBinding(keys(.character("?")), "?", .showHelp, "this help"),
        KeyBinding(keys(.character("q")), "q", .quit, "quit"),
    ]

    /// Every key hold, the one place that says which keys are holdable and where: the gesture
    /// recogniser watches ``holdableKeys``, `update` performs ``holdAction(for:in:)`` and help
    /// lists the rows.
    public static let holds: [KeyHoldBinding] = [
        KeyHoldBinding(key: .char("1"), label: "hold 1", panes: Set(Tab.allCases), action: .openAccountSheet, summary: "switch account"),
        KeyHoldBinding(
            key: KeyEvent(.enter), label: "hold Enter", panes: [.catalog], action: .openContextMenu,
            summary: "context menu (with key releases)"),
    ]

    /// The keys whose hold is a gesture somewhere.
    public static var holdableKeys: Set<KeyEvent> { Set(holds.map(\.key)) }

    /// What holding `key` does in `context`, or nil when holding it means nothing there (only
    /// on panes: a layer up takes its presses as presses).
    public static func holdAction(for key: KeyEvent, in context: InputContext) -> KeyAction? {
        guard case .pane(let tab) = context else { return nil }
        return holds.first { $0.key == key && $0.panes.contains(tab) }?.action
    }

    /// Help rows for the key holds on `tab`.
    private static func holdRows(_ tab: Tab) -> [KeyBinding] {
        holds.filter { $0.panes.contains(tab) }.map { KeyBinding(gesture: $0.label, $0.summary) }
    }

    /// The bindings in effect in `context`, in the order help lists them. Ctrl-C (quit) and
    /// Ctrl-Z (suspend) work everywhere and come first.
    public static func table(for context: InputContext) -> [KeyBinding] {
        let always = [
            KeyBinding([KeyEvent(.control("c"))], "Ctrl-C", .quit, "quit"),
            KeyBinding([KeyEvent(.control("z"))], "Ctrl-Z", .suspend, "suspend (fg resumes)"),
        ]
        switch context {
        case .pane(let tab):
            var paneKeys: [KeyBinding] = []
            switch tab {
            case .overview:
                paneKeys = [KeyBinding(keys(.character("r")), "r", .reapplyIdentities, "apply the account's tools again")]
            case .catalog:
                paneKeys =
                    listMoves + [
                        KeyBinding(keys(.enter), "Enter", .activate, "open the item full-screen"),
                        KeyBinding(gesture: "click a row, wheel", "move the cursor, scroll"),
                        KeyBinding(gesture: "click the cursor's row", "open it (or double-click)"),
                        KeyBinding(
                            [.char("m"), KeyEvent(.menu), KeyEvent(.function(10), modifiers: .shift)], "m Menu Shift-F10",
                            .openContextMenu, "context menu of the item"),
                        KeyBinding(gesture: "press and hold a row", "its context menu"),
                        KeyBinding(keys(.character("r")), "r", .refresh, "run the catalog command again"),
                    ]
            case .stats: paneKeys = listMoves.map { KeyBinding($0.keys, $0.label, $0.action!, $0.summary.replacingMove()) }
            case .settings:
                paneKeys =
                    listMoves + [
                        KeyBinding(keys(.enter), "Enter", .activate, "run the action, next value"),
                        KeyBinding(keys(.left, .character("h")), "← h", .decrease, "previous value (100 ms less)"),
                        KeyBinding(keys(.right, .character("l")), "→ l", .increase, "next value (100 ms more)"),
                        KeyBinding(gesture: "click an action", "run it"),
                    ]
            }
            return always + paneKeys + holdRows(tab) + tabs + global
        case .accountSheet:
            return always + [
                KeyBinding(keys(.escape), "Esc", .dismiss, "close the sheet"),
                KeyBinding(gesture: "click above the sheet", "close it"),
                KeyBinding(keys(.enter), "Enter", .activate, "switch to the account"),
                KeyBinding(gesture: "click an account", "switch to it"),
            ] + listMoves + [
                KeyBinding(keys(.character("/")), "/", .startFilter, "filter by name or handle"),
                KeyBinding(keys(.character("+")), "+", .addAccount, "add an account (or the last row)"),
                KeyBinding([KeyEvent(.up, modifiers: .shift), .char("K")], "Shift-↑ K", .largerDetent, "larger detent"),
                KeyBinding([KeyEvent(.down, modifiers: .shift), .char("J")], "Shift-↓ J", .smallerDetent, "smaller detent"),
                KeyBinding(gesture: "drag the grabber", "resize; drag down to close"),
                KeyBinding(keys(.character("?")), "?", .showHelp, "this help"),
            ]
        case .accountSheetFilter:
            return always + [
                KeyBinding(keys(.escape), "Esc", .clearFilter, "clear the filter"),
                KeyBinding(keys(.enter), "Enter", .activate, "switch to the account"),
                KeyBinding(keys(.up), "↑", .moveUp, "move up"),
                KeyBinding(keys(.down), "↓", .moveDown, "move down"),
                KeyBinding(keys(.backspace), "Backspace", .deleteBackward, "delete a character"),
                KeyBinding(gesture: "type or paste", "narrow the list"),
            ]
        case .contextMenu:
            return always + [
                KeyBinding(keys(.escape), "Esc", .dismiss, "close the menu"),
                KeyBinding(gesture: "click outside", "close the menu"),
                KeyBinding(keys(.up, .character("k")), "↑ k", .moveUp, "previous action (the preview is first)"),
                KeyBinding(keys(.down, .character("j")), "↓ j", .moveDown, "next action"),
                KeyBinding(keys(.enter), "Enter", .activate, "run the action, or open the previewed item"),
                KeyBinding(gesture: "click the preview", "open the item full-screen"),
                KeyBinding(gesture: "click an action", "run it"),
                KeyBinding(keys(.character("?")), "?", .showHelp, "this help"),
            ]
        case .alert:
            return always + [
                KeyBinding(keys(.escape), "Esc", .dismiss, "cancel"),
                KeyBinding(
                    [KeyEvent(.left), .char("h"), KeyEvent(.tab, modifiers: .shift)], "← h Shift-Tab", .focusPrevious, "previous button"),
                KeyBinding([KeyEvent(.right), .char("l"), KeyEvent(.tab)], "→ l Tab", .focusNext, "next button"),
                KeyBinding(keys(.enter), "Enter", .activate, "press the focused button"),
                KeyBinding(gesture: "click a button", "press it"),
                KeyBinding(gesture: "click outside", "cancel"),
            ]
        case .cover:
            return always + [
                KeyBinding(keys(.escape), "Esc", .dismiss, "close"),
                KeyBinding(gesture: "click ✕", "close"),
            ] + listMoves.map { KeyBinding($0.keys, $0.label, $0.action!, $0.summary.replacingMove()) } + [
                KeyBinding(keys(.character("a")), "a", .openAccountSheet, "switch account (a sheet over the cover)"),
                KeyBinding(keys(.character("?")), "?", .showHelp, "this help"),
            ]
        case .accountForm:
            return always + [
                KeyBinding(keys(.escape), "Esc", .dismiss, "cancel (nothing is written)"),
                KeyBinding(gesture: "click ✕ or Cancel", "cancel"),
                KeyBinding(keys(.enter), "Enter", .activate, "add the account to the config"),
                KeyBinding(gesture: "click Add", "add the account"),
                KeyBinding(
                    [KeyEvent(.tab), KeyEvent(.down)], "Tab ↓", .focusNext, "next field"),
                KeyBinding(
                    [KeyEvent(.tab, modifiers: .shift), KeyEvent(.up)], "Shift-Tab ↑", .focusPrevious, "previous field"),
                KeyBinding(keys(.backspace), "Backspace", .deleteBackward, "delete a character"),
                KeyBinding(keys(.function(1)), "F1", .showHelp, "this help"),
                KeyBinding(gesture: "type or paste", "fill the focused field"),
                KeyBinding(gesture: "click a field", "focus it"),
            ]
        case .help:
            return always + [
                KeyBinding(keys(.escape, .character("?")), "Esc ?", .dismiss, "close help"),
                KeyBinding(gesture: "click outside", "close help"),
                KeyBinding(keys(.up, .character("k")), "↑ k", .moveUp, "scroll up"),
                KeyBinding(keys(.down, .character("j")), "↓ j", .moveDown, "scroll down"),
            ]
        }
    }

    /// The binding of `key` in `context`, if any.
    public static func binding(for key: KeyEvent, in context: InputContext) -> KeyBinding? {
        table(for: context).first { $0.keys.contains(key) }
    }
}

extension String {
    /// "move up" → "scroll up", for panes whose list has no cursor.
    fileprivate func replacingMove() -> String {
        hasPrefix("move ") ? "scroll " + dropFirst(5) : self
    }
}
