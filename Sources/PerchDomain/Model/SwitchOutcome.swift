/// What recording a switch did, as the store reports it back (``SwitchProgress/saved(_:)``).
public struct SwitchOutcome: Hashable, Sendable {
    /// The account the switch was asked for.
    public var accountID: String
    /// The state now in the file (or in memory, without a store).
    public var state: SavedState
    /// The account that was current before, or nil.
    public var previous: String?
    /// Whether a switch was recorded (false when the account was already current).
    public var changed: Bool
    /// Something to tell although the switch is saved (its history entry could not be written).
    public var warning: String?

    public init(accountID: String, state: SavedState, previous: String?, changed: Bool, warning: String? = nil) {
        self.accountID = accountID
        self.state = state
        self.previous = previous
        self.changed = changed
        self.warning = warning
    }

    /// Records a switch in memory, for runs without a state file (tests, tools): the outcome a
    /// store would report for `saved` (nothing changes when `accountID` is already current).
    public static func inMemory(_ accountID: String, from saved: SavedState) -> SwitchOutcome {
        guard saved.currentAccount != accountID else {
            return SwitchOutcome(accountID: accountID, state: saved, previous: saved.currentAccount, changed: false)
        }
        return SwitchOutcome(
            accountID: accountID, state: saved.recordingSwitch(to: accountID), previous: saved.currentAccount, changed: true)
    }
}

/// A switch handed to the store and not yet confirmed: the screen says "Switching to …" until its
/// outcome arrives, and never shows it as done before.
public struct PendingSwitch: Hashable, Sendable {
    /// The account being switched to.
    public var accountID: String
    /// Why the store is still waiting (another process holds the state lock), or nil.
    public var waitingReason: String?
    /// An account picked while this switch was pending: it is asked for next, once this one's
    /// outcome has arrived (the latest pick wins; nil for none).
    public var queued: String?

    public init(accountID: String, waitingReason: String? = nil, queued: String? = nil) {
        self.accountID = accountID
        self.waitingReason = waitingReason
        self.queued = queued
    }
}
