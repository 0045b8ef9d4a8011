import PerchKit

/// A pane of Perch's own written as a PerchKit ``Pane``, with what Perch's root keeps of every
/// pane besides (``TabPane``): its key table, the same for the whole run, whose title is its
/// tab's; and what it keeps of each account's view for the next run. Hosted in the root by
/// ``KitPane``, registered in ``Tab/panes`` as `KitPane<MyPane>.self`.
public protocol KitTabPane: Pane, Hashable {
    /// Its keys, in the order help lists them; the table's title is its tab's label.
    static var keyTable: KeyTable<Verb> { get }
    /// Whether holding its tab (a long-press with the mouse, or holding `1`) opens the account
    /// sheet, which Perch's root opens. False by default.
    static var holdsTab: Bool { get }
    /// The pane at start, seeded with what each account kept of it in the last run
    /// (``SavedState/panes``, accounts no longer in the config left out).
    init(kept: [String: AccountPanes])
    /// Adds what to keep of each account's view of it for the next run. Nothing by default.
    func remember(into memory: inout [String: AccountPanes])
    /// The config was read again, so the accounts' commands may have changed: asked before
    /// ``Pane/modelChanged(_:)`` (the Catalog's sources run again when next shown). Nothing by
    /// default.
    mutating func configReloaded()
}

extension KitTabPane {
    /// Its one key table (``keyTable``).
    public var keys: KeyTable<Verb> { Self.keyTable }
    /// Its tab's label: its key table's title.
    public var title: String { Self.keyTable.title }
    /// Keeps nothing.
    public func remember(into memory: inout [String: AccountPanes]) {}
    /// Nothing to do.
    public mutating func configReloaded() {}
    /// False: holding its tab means nothing.
    public static var holdsTab: Bool { false }
    /// Whether holding its tab means something: the type's ``holdsTab``.
    public var holdsTab: Bool { Self.holdsTab }
}

/// A PerchKit ``Pane`` of Perch's own (``KitTabPane``) as Perch's root keeps its panes
/// (``TabPane``), as ``KitLayer`` hosts a layer: the pane's key table becomes its tab's keys
/// (each row a verb named after the table and the row, ``KitHost``), Perch's messages become its
/// input and the root's context its ``Context`` (what every Perch model reads as the app's model,
/// `context.model(ModelContext.self)`), and what it asks becomes Perch's intents, its jobs'
/// outcomes coming back to its own `receive`. The current account changing is PerchKit's
/// ``Pane/modelChanged(_:)``; its drawing area is the screen above the tab bar (``Layout/pane``).
public struct KitPane<P: KitTabPane>: TabPane {
    /// The PerchKit pane.
    public internal(set) var pane: P
    /// Its verbs by name, and what comes back to it.
    private var host = KitHost<P>(P.keyTable)

    /// `pane`, hosted in Perch's root.
    public init(_ pane: P) { self.pane = pane }

    /// The pane at start, seeded with what each account kept of it in the last run.
    public init(kept: [String: AccountPanes]) { self.init(P(kept: kept)) }

    /// Its tab's label: its key table's title.
    public static var title: String { P.keyTable.title }
    /// Whether holding its tab opens the account sheet.
    public static var holdsTab: Bool { P.holdsTab }
    /// Its key table as Perch binds it.
    public static var keys: [KeyBinding] { KitHost<P>.bindings(P.keyTable) }

    /// Its key table's holds as Perch binds them (``KitHost/holdBindings(_:)``).
    public static var holds: [KeyHoldBinding] { KitHost<P>.holdBindings(P.keyTable) }

    /// Adds what the pane keeps of each account's view for the next run.
    public func remember(into memory: inout [String: AccountPanes]) { pane.remember(into: &memory) }

    /// The current account changed, or the config was read again: the pane compares with what
    /// it showed (``Pane/modelChanged(_:)``); what it asks then comes back as intents, which the
    /// root carries out once the event is handled, as PerchKit's root does.
    public mutating func follow(_ context: ModelContext, accountsReplaced: Bool) -> [Intent] {
        if accountsReplaced { pane.configReloaded() }
        return pane.modelChanged(context.kit).flatMap { host.intents($0) }
    }

    /// What the pane asks for without input (``Pane/due(_:)``), as intents.
    public mutating func due(_ context: ModelContext) -> [Intent] { pane.due(context.kit).flatMap { host.intents($0) } }

    /// When the pane must be drawn again without input, in milliseconds on the loop's clock
    /// (``Pane/nextDeadline(clock:)``), or nil.
    public func nextAnimationDeadline(clock: Int64) -> Int64? { pane.nextDeadline(clock: clock) }

    /// Hands `message` to the PerchKit pane as its input; returns what it asks, as intents.
    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        guard let input = host.input(for: message) else { return [] }
        return pane.update(input, context.kit).flatMap { host.intents($0) }
    }

    /// Takes an outcome of a job it asked for, or a reply of a layer it presented, as the
    /// message it named when it asked; anything else changes nothing.
    public mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Intent] {
        guard let message = host.message(for: outcome) else { return [] }
        return deliver(message, context)
    }

    /// Hands the PerchKit pane one of its own messages; returns what it asks, as intents.
    mutating func deliver(_ message: P.Message, _ context: ModelContext) -> [Intent] {
        pane.receive(message, context.kit).flatMap { host.intents($0) }
    }

    /// Draws the PerchKit pane in the screen above the tab bar.
    public func render(into frame: inout Frame, _ context: ModelContext) {
        pane.render(into: &frame, in: context.layout.pane, context.kit)
    }
}

/// A PerchKit pane hosted in Perch's root, as what the layers read of a pane is looked for
/// (``ModelContext/catalog``: the Catalog, as a ``CatalogListing``).
protocol HostsPane {
    /// The PerchKit pane.
    var hostedPane: any Sendable { get }
}

extension KitPane: HostsPane {
    var hostedPane: any Sendable { pane }
}
