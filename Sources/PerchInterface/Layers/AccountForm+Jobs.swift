import PerchDomain
import PerchKit

// The job the `Add account…` form asks for, and its outcome (``AccountForm/take(_:_:)``).

/// Appends this account to the config file (a new file holding the sample accounts and it when
/// there is none), atomically and keeping the previous file as `<config>.bak`, off the UI thread.
public struct AddAccount: Job {
    public var account: Account
    public init(_ account: Account) { self.account = account }
    public typealias Outcome = AccountAddition
}

/// How ``AddAccount`` went.
public enum AccountAddition: Hashable, Sendable, WritesConfig {
    /// Written: `accounts` are the file's accounts (the new one last), `configPath` the file now
    /// in use, `backupPath` the previous file kept.
    case added(Account, accounts: [Account], configPath: String, backupPath: String?)
    /// Not written, with the whole reason.
    case notAdded(String)

    public var writtenAccounts: (accounts: [Account], configPath: String)? {
        if case .added(_, let accounts, let path, _) = self { (accounts, path) } else { nil }
    }
}
