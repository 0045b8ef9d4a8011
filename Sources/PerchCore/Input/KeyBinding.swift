import PerchKit

/// What a key does once it is bound in an ``InputContext``; ``AppState/update(_:)`` performs
/// the root's (declared here) and hands the rest to the pane or layer that takes input. A pane's
/// or a layer's keys are its PerchKit key table's rows, each bound to a verb named after the table
/// and the row (`Catalog.8`, ``KitHost``), which its host turns back into the component's own
/// `Verb`. Nothing lists them all; two verbs are the same when their names are.
public struct KeyAction: Hashable, Sendable, CustomStringConvertible {
    /// The verb's name, unique among all verbs (a model's own start with its name).
    public let name: String

    /// The verb named `name`.
    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

extension KeyAction {
    // The root's own.
    public static let quit = KeyAction("quit")
    /// Stop the process (Ctrl-Z).
    public static let suspend = KeyAction("suspend")
    /// Select the tab of `tab`.
    public static func selectTab(_ tab: Tab) -> KeyAction { KeyAction("selectTab.\(tab.rawValue)") }
    /// The tab this verb selects, when it is ``selectTab(_:)``.
    public var selectedTab: Tab? {
        name.hasPrefix("selectTab.") ? Int(name.dropFirst("selectTab.".count)).flatMap(Tab.init(rawValue:)) : nil
    }
    public static let nextTab = KeyAction("nextTab")
    public static let previousTab = KeyAction("previousTab")
    public static let openAccountSheet = KeyAction("openAccountSheet")
    public static let showHelp = KeyAction("showHelp")
}

/// Who receives keys now: the selected pane, or the top presented layer, with the keys bound
/// there. A layer declares its own contexts beside it (``AccountSheet``'s `accountSheet`, …),
/// and ``layers`` lists them all. Contexts are told apart by their title.
public struct InputContext: Hashable, Sendable {
    /// The context's name, as the help overlay's title shows it.
    public let title: String
    /// The pane, for a pane's context; nil for a layer's.
    public let tab: Tab?
    /// The bindings of this context, after those that work everywhere (``KeyBindings/table(for:)``).
    let bindings: [KeyBinding]
    /// Whether a printable key its bindings leave unbound is typed text (``ModelMessage/text(_:)``:
    /// a filter, a form's field) rather than nothing.
    public let takesTyping: Bool

    /// A layer's context: its `title` and its `bindings`, in the order help lists them; with
    /// `takesTyping`, printable keys it does not bind are typed text.
    public init(title: String, takesTyping: Bool = false, bindings: [KeyBinding]) {
        self.init(title: title, tab: nil, takesTyping: takesTyping, bindings: bindings)
    }

    private init(title: String, tab: Tab?, takesTyping: Bool = false, bindings: [KeyBinding]) {
        self.title = title
        self.tab = tab
        self.takesTyping = takesTyping
        self.bindings = bindings
    }

    /// The keys of the pane of `tab`, with no layer up.
    public static func pane(_ tab: Tab) -> InputContext {
        InputContext(title: tab.title, tab: tab, bindings: KeyBindings.paneBindings(tab))
    }

    /// Every layer's context, for help and the tests that check every table: a new layer adds
    /// its contexts here, the one line it needs outside its own file.
    public static let layers: [InputContext] = [.accountSheet, .accountSheetFilter, .help, .contextMenu, .alert, .cover, .accountForm]

    public static func == (lhs: InputContext, rhs: InputContext) -> Bool { lhs.title == rhs.title }
    public func hash(into hasher: inout Hasher) { hasher.combine(title) }
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
/// something on a pane, with no layer up. Elsewhere its presses are plain presses.
public struct KeyHoldBinding: Hashable, Sendable {
    /// The key held.
    public var key: KeyEvent
    /// The hold as help names it, e.g. `hold 1`.
    public var label: String
    /// What the hold does.
    public var action: KeyAction
    /// One line for help.
    public var summary: String
}

/// The one table of keys and gestures: ``AppState/update(_:)`` looks keys up in it and the help
/// overlay (`?`) lists it, so the two cannot disagree.
public enum KeyBindings {
    static func keys(_ keys: Key...) -> [KeyEvent] { keys.map { KeyEvent($0) } }

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

    /// The holds of the tabs whose hold opens the account sheet (``TabPane/holdsTab``): holding
    /// such a tab's digit does, as a long-press on the tab does, on every pane.
    private static let tabHolds: [KeyHoldBinding] = Tab.allCases.filter(\.holdsTab).map { tab in
        KeyHoldBinding(key: .char(tab.shortcut), label: "hold \(tab.shortcut)", action: .openAccountSheet, summary: "switch account")
    }

    /// The key holds on the pane of `tab`, in the order help lists them: the tabs' (`hold 1`),
    /// then the pane's own, from its key table (``KeyTable/holds``: the Catalog's `hold Enter`).
    /// The gesture recogniser watches ``holdableKeys``, `update` performs
    /// ``holdAction(for:in:)`` and help lists them, so the three cannot disagree.
    public static func holds(on tab: Tab) -> [KeyHoldBinding] { holdsByTab[tab.rawValue] }

    /// ``holds(on:)`` of each tab, made once: a key's hold is looked up as it is pressed.
    private static let holdsByTab: [[KeyHoldBinding]] = Tab.allCases.map { tabHolds + $0.holds }

    /// The digits whose hold opens the account sheet (`1`): a press of one selects its tab at
    /// once, in both key-hold modes, and the hold follows (``GestureRecognizer/Configuration/tapFirstKeys``).
    public static let tabHoldKeys: Set<KeyEvent> = Set(tabHolds.map(\.key))

    /// The keys whose hold is a gesture on some pane.
    public static let holdableKeys: Set<KeyEvent> = Set(Tab.allCases.flatMap { holds(on: $0).map(\.key) })

    /// What holding `key` does in `context`, or nil when holding it means nothing there (only
    /// on panes: a layer up takes its presses as presses).
    public static func holdAction(for key: KeyEvent, in context: InputContext) -> KeyAction? {
        guard let tab = context.tab else { return nil }
        return holds(on: tab).first { $0.key == key }?.action
    }

    /// Help rows for the key holds on `tab`.
    private static func holdRows(_ tab: Tab) -> [KeyBinding] {
        holds(on: tab).map { KeyBinding(gesture: $0.label, $0.summary) }
    }

    /// The bindings in effect in `context`, in the order help lists them. Ctrl-C (quit) and
    /// Ctrl-Z (suspend) work everywhere and come first; help works on `?` wherever the context
    /// neither binds it nor takes typed text, and on `F1` where it takes typed text, and comes
    /// last when the context does not bind that key itself.
    public static func table(for context: InputContext) -> [KeyBinding] {
        // Bug: `?` over the Delete alert did nothing, though help works everywhere but a text field.
        let help =
            context.takesTyping
            ? KeyBinding(keys(.function(1)), "F1", .showHelp, "this help") : KeyBinding([.char("?")], "?", .showHelp, "this help")
        let bound = context.bindings.contains { $0.keys.contains(help.keys[0]) }
        return everywhere + context.bindings + (bound ? [] : [help])
    }

    /// The keys that work in every context, first in each table: Ctrl-C quits, Ctrl-Z suspends.
    public static let everywhere = [
        KeyBinding([KeyEvent(.control("c"))], "Ctrl-C", .quit, "quit"),
        KeyBinding([KeyEvent(.control("z"))], "Ctrl-Z", .suspend, "suspend (fg resumes)"),
    ]

    /// The keys of the pane of `tab`: its own (declared beside it, ``Tab/keys``), its holds,
    /// the tabs' and the global ones.
    static func paneBindings(_ tab: Tab) -> [KeyBinding] {
        tab.keys + holdRows(tab) + tabs + global
    }

    /// The binding of `key` in `context`, if any.
    public static func binding(for key: KeyEvent, in context: InputContext) -> KeyBinding? {
        table(for: context).first { $0.keys.contains(key) }
    }
}
