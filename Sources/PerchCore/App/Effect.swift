/// Work that ``AppState/update(_:)`` asks the event loop to do; update itself does no I/O.
/// Whatever performs an effect reports how it went as an ``AppEvent`` (an outcome) back into
/// update; nothing else changes the state.
public enum Effect: Hashable, Sendable {
    /// Record a switch to the account with this id in the state file, off the UI thread (nothing
    /// is recorded when it is already current there). Reported with
    /// ``AppEvent/switchSaved(_:)``, ``AppEvent/switchWaiting(accountID:reason:)`` or
    /// ``AppEvent/switchFailed(accountID:reason:)``.
    case recordSwitch(accountID: String)
    /// Run the `onSwitch` hook of the account with this id, off the UI thread, after a saved
    /// switch from `previous`; reported with ``AppEvent/hookEnded(accountID:failure:)``.
    case runHook(accountID: String, previous: String?)
    /// Apply the tool identities of the account with this id (git, ssh, kube, gcloud, gh, aws,
    /// env, in that order, each program with its own timeout), off the UI thread; reported with
    /// ``AppEvent/identitiesApplied(_:previous:afterSwitch:)``. With `afterSwitch`, a switch from
    /// `previous` was just saved and its `onSwitch` hook follows once they are applied.
    case applyIdentities(accountID: String, previous: String?, afterSwitch: Bool)
    /// Read what each tool of the account with this id reports now, off the UI thread; reported
    /// with ``AppEvent/identitiesChecked(accountID:_:)``.
    case checkIdentities(accountID: String)
    /// Put this text on the terminal's clipboard with OSC 52 (``OSC52``), where the terminal
    /// allows programs to set it.
    case copyToClipboard(String)
    /// Append this account to the config file (a new file holding the sample accounts and it when
    /// there is none), atomically and keeping the previous file as `<config>.bak`, off the UI
    /// thread; reported with ``AppEvent/accountAdded(_:accounts:configPath:backupPath:)`` or
    /// ``AppEvent/accountNotAdded(_:)``.
    case addAccount(Account)
    /// Restore the terminal and exit with status 0.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw everything when continued.
    case suspend
}
