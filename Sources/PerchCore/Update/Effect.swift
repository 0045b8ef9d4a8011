/// Work that ``AppState/update(_:)`` asks the event loop to do; update itself does no I/O.
public enum Effect: Hashable, Sendable {
    /// Record a switch to the account with this id in the state file, before the next frame,
    /// and adopt the file's state (nothing is recorded when it is already current there).
    case recordSwitch(accountID: String)
    /// Put this text on the terminal's clipboard with OSC 52 (``OSC52``), where the terminal
    /// allows programs to set it.
    case copyToClipboard(String)
    /// Append this account to the config file (a new file holding the sample accounts and it when
    /// there is none), atomically and keeping the previous file as `<config>.bak`; then report
    /// with ``AppState/accountAdded(_:accounts:configPath:)`` or ``AppState/accountNotAdded(_:)``.
    case addAccount(Account)
    /// Restore the terminal and exit with status 0.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw everything when continued.
    case suspend
}
