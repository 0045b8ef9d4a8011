import PerchKit
import Synchronization

@testable import PerchDomain
@testable import PerchInterface

// What the tests of Perch's interface read and drive of it, written once: Perch's interface is
// PerchKit's root (``TabApp``) over Perch's panes and model, and these name what a test looks at
// in Perch's words (the current account, the sheet, the tab) and turn what the root asks into
// Perch's ``Effect``s, so that a test compares a list.

extension TabApp {
    /// Perch's model; the tests only build Perch's interface.
    public var perchModel: PerchModel { perch! }

    /// The accounts, in config order.
    public var accounts: [Account] { perchModel.accounts }
    /// The accounts and what is derived from them.
    public var accountsIndex: AccountsIndex { perchModel.accountsIndex }
    /// The confirmed state.
    public var saved: SavedState {
        get { perchModel.saved }
        set { modifyModel(PerchModel.self) { $0.saved = newValue } }
    }
    /// The current account, or nil.
    public var currentAccount: Account? { perchModel.currentAccount }
    /// Index of the current account.
    public var currentIndex: Int? { perchModel.currentIndex }
    /// The switch under way.
    public var pendingSwitch: PendingSwitch? {
        get { perchModel.pendingSwitch }
        set { modifyModel(PerchModel.self) { $0.pendingSwitch = newValue } }
    }
    /// The switches.
    public var history: SwitchHistory {
        get { perchModel.history }
        set { modifyModel(PerchModel.self) { $0.history = newValue } }
    }
    /// What the run is.
    public var info: RunInfo {
        get { perchModel.info }
        set { modifyModel(PerchModel.self) { $0.info = newValue } }
    }
    /// The kept settings.
    public var settingsState: SettingsState {
        get { perchModel.settingsState }
        set { modifyModel(PerchModel.self) { $0.settingsState = newValue } }
    }
    /// The current account's tool identities.
    public var identities: IdentityStatus? {
        get { perchModel.identities }
        set { modifyModel(PerchModel.self) { $0.identities = newValue } }
    }
    /// The model's wallTime.
    public var wallTime: WallTime? {
        get { perchModel.wallTime }
        set { modifyModel(PerchModel.self) { $0.wallTime = newValue } }
    }
    /// The config's problems when it was found unusable after the first frame.
    public var unusableConfig: [String]? { perchModel.unusableConfig }
    /// Edge-to-edge or inset sheets (set: as the Settings switch sets it).
    public var sheetStyle: SheetStyle {
        get { perchModel.sheetStyle }
        set { modifyModel(PerchModel.self) { $0.settingsState.values.sheetStyle = SheetStyleSetting(rawValue: newValue.rawValue)! } }
    }

    /// Geometry of the top account sheet as drawn now (mid-animation or dragged), or of a sheet
    /// at rest at the fit detent over every account when none is up.
    public var sheetLayout: SheetLayout {
        guard let sheet = layer(AccountSheet.self) else {
            return SheetLayout(rowCount: (accountsIndex.groupedRows?.count ?? accounts.count) + 1, screen: size)
        }
        return sheet.layout(modelContext)
    }

    /// Replaces the accounts, as a config read again does; the panes follow.
    public mutating func replaceAccounts(_ accounts: [Account]) {
        modifyModel(PerchModel.self) { $0.replaceAccounts(accounts) }
        _ = update(TabApp.Event.deliver(PerchModel.Message.prepareSearch, to: .app))
    }
    /// The banner's text, or nil.
    public var bannerText: String? {
        get { banner?.text }
        set { if let newValue { showBanner(newValue) } }
    }
    /// Whether the banner stays until Esc.
    public var bannerStays: Bool { banner?.stays ?? false }
    /// What a Perch component reads now.
    public var modelContext: ModelContext { context.perch! }

    /// The tab shown (set: selected, as a person would with its digit).
    public var selectedTab: Tab {
        get { Tab(rawValue: selected)! }
        set { select(tab: newValue.rawValue) }
    }

    /// The presented layers, bottom first.
    public var presented: [AnyLayer] { layers }
    /// The presented layers as values, bottom first, to compare with a list of layers.
    public var presentedValues: [AnyHashable] {
        layers.map { layer -> AnyHashable in
            let value = layer.base as! any Hashable
            return hashable(value)
        }
    }

    /// The account sheet when it is the top layer and takes input.
    public var sheet: AccountSheet? {
        guard let top = activeTop, let sheet = layers[top].base as? AccountSheet, !sheet.isClosing else { return nil }
        return sheet
    }

    /// The `Add account…` form when it is the top layer.
    public var accountForm: AccountForm? { activeTop.flatMap { layers[$0].base as? AccountForm } }

    /// The Catalog's items (the current account's, its edits applied).
    public var catalogItems: [CatalogItem] { self[pane: CatalogPane.self].items }
    /// The Catalog's cursor and scroll.
    public var catalog: ListCursor { self[pane: CatalogPane.self].list }
    /// Whether the Catalog item with this id is pinned.
    public func isPinned(_ id: String) -> Bool { self[pane: CatalogPane.self].isPinned(id) }
    /// The Settings pane's cursor.
    public var settings: ListCursor { self[pane: SettingsPane.self].list }
    /// The Stats pane's scroll.
    public var stats: ListCursor { self[pane: StatsPane.self].list }
    /// Geometry of `menu` as drawn now, or nil when its item is gone.
    public func contextMenuLayout(_ menu: ContextMenu) -> MenuLayer.Layout? { menu.layout(modelContext) }
    /// What to keep of each account's panes for the next run, as the model reads it on quit.
    public var paneMemory: [String: AccountPanes] { PerchModel.paneMemory(context) }
    /// Adopts a saved state from the store, as the model does.
    public mutating func adopt(_ saved: SavedState) {
        modifyModel(PerchModel.self) { $0.adopt(saved) }
        // A message that changes nothing else, so the panes follow as after any message.
        _ = update(TabApp.Event.deliver(PerchModel.Message.prepareSearch, to: .app))
    }
    /// The title of what takes keys now: the top layer's key table, else the selected pane's.
    public var keysTitle: String { activeTop.map { layers[$0].title } ?? panes[selected].title }
    /// What the terminal is asked once the first frame is up.
    public var startupQueries: [TerminalQuery] { perchModel.startupQueries }
    /// The most rows a banner takes.
    public static let maximumBannerRows = Banner.maximumRows
    /// Opens the account sheet as `a` does.
    public mutating func openSheet() { _ = update(UIEvent.key(.char("a"))) }

    /// The pane of type `P` (read, or changed in place).
    public subscript<P: PerchPane>(pane type: P.Type) -> P {
        get { pane(P.self, at: Tab(P.self).rawValue)! }
        set { modifyPane(P.self) { $0 = newValue } }
    }

    /// The screen as the terminal shows it, the theme's colours applied.
    public func render() -> Screen { renderFrame().drawnScreen }

    /// What lies under `position` as drawn now.
    public func hitTest(_ position: Position) -> HitTarget { renderFrame().hits.target(at: position) }

    /// Applies `event` and returns what the root asks, as Perch's effects; the jobs' mappings to
    /// their askers' messages are kept for ``update(_:at:)-(AppEvent,_)``.
    @discardableResult
    public mutating func update(_ event: UIEvent, at time: Int64? = nil) -> [PerchInterface.Effect] {
        Self.effects(update(TabApp.Event.ui(event), at: time))
    }

    /// Applies an outcome (for the model that asked, as Perch's effects named it) or input.
    @discardableResult
    public mutating func update(_ event: AppEvent, at time: Int64? = nil) -> [PerchInterface.Effect] {
        switch event {
        case .ui(let ui): return update(ui, at: time)
        case .outcome(let outcome, let asker):
            let id = Self.component(asker)
            guard let message = Self.message(for: outcome.base, to: id) else { return [] }
            return Self.effects(update(TabApp.Event.deliver(message, to: id), at: time))
        }
    }

    /// What the model does once the first frame is up, as Perch's effects.
    public mutating func started() -> [PerchInterface.Effect] { Self.effects(update(TabApp.Event.started)) }

    /// The root's effects as Perch's.
    public static func effects(_ effects: [TabApp.Effect]) -> [PerchInterface.Effect] {
        effects.compactMap { (effect: TabApp.Effect) -> PerchInterface.Effect? in
            switch effect {
            case .perform(let work, let id):
                guard case .job(let job, let message) = work.kind else { return nil }
                JobMappings.shared.keep(job, message, for: id)
                return PerchInterface.Effect.job(job).asked(by: modelID(id))
            case .quit: return .quit
            case .suspend: return .suspend
            case .say(let line): return .say(line)
            case .terminal(.copyToClipboard(let text)): return .copyToClipboard(text)
            case .terminal(.setMouse(let on)): return .setMouse(on)
            case .terminal(.ask(let query)): return .ask(query)
            case .terminal(.pushKeyboardFlags(let flags)): return .pushKeyboardFlags(flags)
            }
        }
    }

    static func modelID(_ id: ComponentID) -> ModelID {
        switch id {
        case .app: .root
        case .pane(let index): .pane(Tab(rawValue: index)!)
        case .layer(let id): .layer(id)
        }
    }

    static func component(_ id: ModelID) -> ComponentID {
        switch id {
        case .root: .app
        case .pane(let tab): .pane(tab.rawValue)
        case .layer(let id): .layer(id)
        }
    }

    /// `outcome` as the message its asker named: the model's own for its jobs and the loop's
    /// news; a pane's or a layer's as the mapping it gave when it asked.
    static func message(for outcome: any Sendable, to id: ComponentID) -> (any Sendable)? {
        if case .app = id, let message = PerchModel.Message(outcome: outcome) { return message }
        return JobMappings.shared.message(for: outcome, to: id)
    }
}

extension PerchModel.Message {
    /// The model's message for an outcome of its own jobs or the loop's news, by its type.
    public init?(outcome: any Sendable) {
        switch outcome {
        case let value as PerchModel.Message: self = value
        case let value as SwitchProgress: self = .switchProgress(value)
        case let value as IdentitiesApplied: self = .identitiesApplied(value)
        case let value as IdentitiesChecked: self = .identitiesChecked(value)
        case let value as IdentitiesVerified: self = .identitiesVerified(value)
        case let value as HookEnded: self = .hookEnded(value)
        case let value as ConfigRead: self = .configRead(value)
        case let value as StateChanged: self = .stateChanged(value)
        case let value as HistoryChanged: self = .historyChanged(value)
        case let value as WallTime: self = .wallTime(value)
        default: return nil
        }
    }
}

extension AnyLayer {
    /// The layer when it is an `L`.
    public func `as`<L: Layer>(_ type: L.Type) -> L? { base as? L }
    /// Whether the layer is an `L`.
    public func `is`<L: Layer>(_ type: L.Type) -> Bool { base is L }
}

extension Array where Element == AnyLayer {
    /// Index and layer of the topmost `L`.
    public func topmost<L: Layer>(_ type: L.Type) -> (index: Int, layer: L)? {
        for index in indices.reversed() { if let layer = self[index].base as? L { return (index, layer) } }
        return nil
    }
}

/// How each job's outcomes become its asker's message, as the root was told when it was asked:
/// kept by component and job type, so a test hands a job's outcome back as the runner would.
final class JobMappings: Sendable {
    static let shared = JobMappings()
    typealias Mapping = @Sendable (any Sendable) -> (any Sendable)?
    private let mappings = Mutex<[String: [Mapping]]>([:])

    func keep(_ job: AnyJob, _ mapping: @escaping Mapping, for id: ComponentID) {
        mappings.withLock { $0["\(id)", default: []].append(mapping) }
    }

    func message(for outcome: any Sendable, to id: ComponentID) -> (any Sendable)? {
        mappings.withLock { all in
            for mapping in (all["\(id)"] ?? []).reversed() { if let message = mapping(outcome) { return message } }
            return nil
        }
    }
}

/// `value` as `AnyHashable` (its type opened).
private func hashable<T: Hashable>(_ value: T) -> AnyHashable { AnyHashable(value) }
