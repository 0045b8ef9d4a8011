/// What Perch's root needs of a pane of the tab bar, in Perch's terms: its tab's title, its keys,
/// whether holding its tab means something, what it keeps for the next run, and how it follows
/// the current account. Every pane is a PerchKit ``Pane`` of Perch's own (``KitTabPane``) hosted
/// by ``KitPane``, the one type that conforms; this protocol lets the root keep a ``KitPane`` of
/// any pane in one list (``Tab/panes``) and reach it without naming it, as PerchKit's `TabApp`
/// reaches its `Pane`s.
///
/// A new pane is its own file (a ``KitTabPane``, with its tab: `extension Tab { static let x =
/// Tab(XPane.self) }`), plus one entry in ``Tab/panes``: `KitPane<XPane>.self`.
public protocol TabPane: ScreenModel, Hashable, Sendable {
    /// Its tab's label.
    static var title: String { get }
    /// Its own keys, in the order help lists them (the tabs' and the global keys follow them).
    static var keys: [KeyBinding] { get }
    /// Its own key holds, in the order help lists them after its keys.
    static var holds: [KeyHoldBinding] { get }
    /// Whether holding its tab with the mouse opens the account sheet.
    static var holdsTab: Bool { get }

    /// The pane at start, seeded with what each account kept of it in the last run
    /// (``SavedState/panes``, accounts no longer in the config left out).
    init(kept: [String: AccountPanes])
    /// Adds what to keep of each account's view of it for the next run.
    func remember(into memory: inout [String: AccountPanes])
    /// The current account changed (a switch, another process, the config read after the first
    /// frame), or with `accountsReplaced` the config was read again: the pane shows the current
    /// account's view. Returns what it asks (the root carries it out once the event is handled).
    mutating func follow(_ context: ModelContext, accountsReplaced: Bool) -> [Intent]
    /// Asked after every event, shown or not: work that is due without input (a source that has
    /// never run), as intents.
    mutating func due(_ context: ModelContext) -> [Intent]
    /// While it is shown and uncovered: when the loop must draw it again without input (a
    /// spinner's next frame), in milliseconds on the loop's clock, `clock` being now; nil when
    /// nothing moves, so that idle stays at zero wake-ups.
    func nextAnimationDeadline(clock: Int64) -> Int64?
}

/// The panes, one of each type in ``Tab/panes``, in tab order; two lists are equal when they
/// hold equal panes.
struct PaneList: Hashable, Sendable {
    private(set) var all: [any TabPane]

    /// Each registered pane, seeded with what was kept of it.
    init(kept: [String: AccountPanes]) { all = Tab.panes.map { $0.init(kept: kept) } }

    /// The pane of `tab`.
    subscript(tab: Tab) -> any TabPane {
        get { all[tab.rawValue] }
        set { all[tab.rawValue] = newValue }
    }

    /// The pane of type `P`.
    subscript<P: TabPane>(type: P.Type) -> P {
        get { all[Tab(P.self).rawValue] as! P }
        set { all[Tab(P.self).rawValue] = newValue }
    }

    /// The PerchKit pane of type `P`, registered as `KitPane<P>`.
    subscript<P: KitTabPane>(type: P.Type) -> P {
        get { self[KitPane<P>.self].pane }
        set { self[KitPane<P>.self].pane = newValue }
    }

    /// The first pane that is a `T` (a protocol the layers see a pane through), or nil.
    func first<T>(_ type: T.Type) -> T? {
        for pane in all { if let match = ((pane as? HostsPane)?.hostedPane ?? pane) as? T { return match } }
        return nil
    }

    private static func boxed<P: TabPane>(_ pane: P) -> AnyHashable { AnyHashable(pane) }

    static func == (lhs: PaneList, rhs: PaneList) -> Bool {
        guard lhs.all.count == rhs.all.count else { return false }
        for index in lhs.all.indices where Self.boxed(lhs.all[index]) != Self.boxed(rhs.all[index]) { return false }
        return true
    }

    func hash(into hasher: inout Hasher) {
        for pane in all { hasher.combine(Self.boxed(pane)) }
    }
}
