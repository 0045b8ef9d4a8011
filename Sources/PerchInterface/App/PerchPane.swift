import PerchDomain
import PerchKit

/// A pane of Perch's tab bar: a PerchKit ``Pane`` with what Perch keeps of every pane besides —
/// its key table, the same for the whole run, whose title is its tab's; and what it keeps of
/// each account's view for the next run. A new pane is its own file and one entry in
/// ``Tab/panes``.
public protocol PerchPane: Pane, Hashable {
    /// Its keys, in the order help lists them; the table's title is its tab's label.
    static var keyTable: KeyTable<Verb> { get }
    /// Whether holding its tab (a long-press with the mouse, or holding its digit) opens the
    /// account sheet. False by default.
    static var holdsTab: Bool { get }
    /// The pane at start, seeded with what each account kept of it in the last run
    /// (``SavedState/panes``, accounts no longer in the config left out).
    init(kept: [String: AccountPanes])
    /// Adds what to keep of each account's view of it for the next run. Nothing by default.
    func remember(into memory: inout [String: AccountPanes])
}

extension PerchPane {
    /// Its one key table (``keyTable``).
    public var keys: KeyTable<Verb> { Self.keyTable }
    /// Its tab's label: its key table's title.
    public var title: String { Self.keyTable.title }
    /// Its tab's label, read from the type.
    public static var title: String { keyTable.title }
    /// Keeps nothing.
    public func remember(into memory: inout [String: AccountPanes]) {}
    /// False: holding its tab means nothing.
    public static var holdsTab: Bool { false }
    /// Whether holding its tab means something: the type's ``holdsTab``.
    public var holdsTab: Bool { Self.holdsTab }
    /// Its tab was held: the account sheet opens (Perch's model opens it).
    public mutating func tabHeld(_ context: Context) -> [Reaction<Message>] {
        Self.holdsTab ? [.perch(.openSheet)] : []
    }
}
