/// What ``AppState/update(_:)`` reacts to: PerchKit's input, gestures, frames and resizes
/// (``UIEvent``), and the outcomes of effects, which come back from whatever performed them (the
/// event loop's worker).
public enum AppEvent: Hashable, Sendable, LoopEvent {
    /// Input, a gesture, an animation frame or a resize, from PerchKit's loop and recogniser.
    case ui(UIEvent)
    /// The outcome of an effect, from whatever performed it, for the model that asked for the
    /// effect (``Effect/asker``): the root hands it to that model alone.
    case outcome(Outcome, for: ModelID = .root)

    public init(_ event: UIEvent) { self = .ui(event) }
}

/// How an effect went, reported by whatever performed it (the event loop's worker) and handed to
/// ``AppState/update(_:at:)`` as ``AppEvent/outcome(_:for:)``: the one list of outcomes.
public enum Outcome: Hashable, Sendable {
    /// The store recorded (or declined, when already current) a switch asked for with
    /// ``Effect/recordSwitch(accountID:)``.
    case switchSaved(SwitchOutcome)
    /// The store is waiting to record a switch, for the `reason` given (another process holds
    /// the state lock); the outcome follows.
    case switchWaiting(accountID: String, reason: String)
    /// The switch could not be saved, for the `reason` given; nothing changed.
    case switchFailed(accountID: String, reason: String)
    /// An `onSwitch` hook started by ``Effect/runHook(accountID:previous:)`` ended: `failure` is
    /// nil when it succeeded, else a phrase such as `exited with status 1: no such remote`.
    case hookEnded(accountID: String, failure: String?)
    /// ``Effect/applyIdentities(accountID:previous:afterSwitch:)`` ended: one result per tool.
    case identitiesApplied(IdentityReport, previous: String?, afterSwitch: Bool)
    /// ``Effect/checkIdentities(accountID:)`` read what each tool reports now.
    case identitiesChecked(accountID: String, [IdentityCheck])
    /// ``Effect/verifyIdentities(accountID:online:)`` asked each tool what it will use.
    case identitiesVerified(accountID: String, [ToolAnswer])
    /// Another process changed the state file: this is what it holds now (`warning` when it
    /// could not be read as it is, e.g. it names an account this config lacks).
    case stateChanged(SavedState, warning: String?)
    /// ``Effect/deleteFromConfig(accountID:path:)`` wrote the config: `accounts` are the file's
    /// accounts now, `backupPath` the previous file; or it did not, and `accounts` is nil with the
    /// whole reason in `problem`.
    case deletedFromConfig(
        accountID: String, path: [String], accounts: [Account]?, configPath: String, backupPath: String?, problem: String?)
    /// ``Effect/addAccount(_:)`` wrote the config: `accounts` are the file's accounts (the new
    /// one last), `configPath` the file now in use, `backupPath` the previous file kept.
    case accountAdded(Account, accounts: [Account], configPath: String, backupPath: String?)
    /// ``Effect/addAccount(_:)`` failed, with the whole reason.
    case accountNotAdded(String)
    /// An account's Catalog source printed these items (`skipped` lines could not be read).
    case catalogLoaded(accountID: String, items: [CatalogItem], skipped: Int)
    /// An account's Catalog source failed: how, with the end of its stderr.
    case catalogFailed(accountID: String, reason: String)
    /// An item's preview command ended.
    case catalogPreviewed(accountID: String, itemID: String, CatalogPreview)
    /// An item's open command ended: `failure` is nil when it exited with status 0.
    case catalogItemOpened(accountID: String, failure: String?)
    /// The settings file could not be written, for this reason (the values still apply).
    case settingsNotSaved(String)
    /// ``Effect/editConfig`` ended: the config's accounts when it loaded (they replace those in
    /// use), else the problem (the accounts in use are kept).
    case configEdited(accounts: [Account]?, configPath: String, problem: String?)
    /// ``Effect/loadConfig`` read the config: its accounts, in config order (they replace the
    /// current account the first frame was drawn from).
    case configLoaded(accounts: [Account])
    /// ``Effect/loadConfig`` found the config unusable: its problems, one line each, as a start
    /// with it prints them (``AppState/unusableConfig``).
    case configUnusable(lines: [String])
    /// The history log as it is now, read after another process changed the state file.
    case historyChanged(SwitchHistory)
    /// The wall clock, read by the loop at start and when the Stats pane's minute comes round.
    case wallClock(WallTime)
}

extension Outcome {
    /// The config's accounts and the file now in use, when this outcome wrote the config (an
    /// account added or removed, the config edited): the root adopts them even when the layer
    /// that asked was dismissed before the outcome came back.
    var writtenAccounts: (accounts: [Account], configPath: String)? {
        switch self {
        case .accountAdded(_, let accounts, let path, _): (accounts, path)
        case .deletedFromConfig(_, _, let accounts?, let path, _, _): (accounts, path)
        case .configEdited(let accounts?, let path, _): (accounts, path)
        default: nil
        }
    }
}
