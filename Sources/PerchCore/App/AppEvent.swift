/// What ``AppState/update(_:)`` reacts to: plain input, the gestures recognised from it, and the
/// outcomes of effects, which come back from whatever performed them (the event loop's worker).
public enum AppEvent: Hashable, Sendable {
    /// A key press (a key held down delivers this once, for its first press).
    case key(KeyEvent)
    /// A key held down past the long-press duration (its auto-repeats kept arriving).
    case keyHold(KeyEvent)
    /// Press and release of the primary button on the same target.
    case tap(HitTarget)
    /// The primary button held on a target for the long-press duration, fired while still down.
    case longPress(HitTarget)
    /// Mouse wheel over a target: negative is up, in notches.
    case scroll(HitTarget, notches: Int)
    /// The pointer moved to `position` with the primary button down, in a drag that started on
    /// a target that ``HitTarget/acceptsDrag`` (the sheet's grabber).
    case drag(HitTarget, Position)
    /// The button was released at `position`, ending a drag of the target.
    case dragEnded(HitTarget, Position)
    /// Time passed while something animates: the loop sends this at
    /// ``AppState/nextAnimationDeadline`` so the next frame is drawn.
    case animationFrame
    /// Bracketed-paste text.
    case paste(String)
    /// The terminal now has this size (columns × rows).
    case resize(Size)
    /// The terminal gained (`true`) or lost focus.
    case focus(Bool)
    /// The terminal answered a query (``TerminalQuery``), at whatever time: the kitty keyboard
    /// protocol's flags turn release events on under `--key-hold auto`.
    case terminalReply(TerminalReply)

    /// The outcome of an effect, from whatever performed it, for the model that asked for the
    /// effect (``Effect/asker``): the root hands it to that model alone.
    case outcome(Outcome, for: ModelID = .root)
}

extension AppEvent {
    /// The same event from PerchKit's terminal side (the recogniser and the loop).
    public init(_ event: UIEvent) {
        switch event {
        case .key(let key): self = .key(key)
        case .keyHold(let key): self = .keyHold(key)
        case .tap(let target): self = .tap(target)
        case .longPress(let target): self = .longPress(target)
        case .scroll(let target, let notches): self = .scroll(target, notches: notches)
        case .drag(let target, let position): self = .drag(target, position)
        case .dragEnded(let target, let position): self = .dragEnded(target, position)
        case .animationFrame: self = .animationFrame
        case .paste(let text): self = .paste(text)
        case .resize(let size): self = .resize(size)
        case .focus(let focused): self = .focus(focused)
        case .terminalReply(let reply): self = .terminalReply(reply)
        }
    }
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
