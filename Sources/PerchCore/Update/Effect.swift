/// Work that ``AppState/update(_:)`` asks the event loop to do; update itself does no I/O.
public enum Effect: Hashable, Sendable {
    /// Record a switch to the account with this id in the state file, before the next frame,
    /// and adopt the file's state (nothing is recorded when it is already current there).
    case recordSwitch(accountID: String)
    /// Put this text on the terminal's clipboard with OSC 52 (``OSC52``), where the terminal
    /// allows programs to set it.
    case copyToClipboard(String)
    /// Restore the terminal and exit with status 0.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw everything when continued.
    case suspend
}
