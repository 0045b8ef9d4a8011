import PerchDomain
import PerchKit

// The jobs the Catalog pane asks for (directly, or through the root and its items' alert), and
// their outcomes, which come back to the pane (``CatalogPane/take(_:_:)``).

/// Runs an account's `catalog.command` off the UI thread, with a timeout, with
/// `PERCH_ACCOUNT_ID` and `PERCH_ACCOUNT_NAME` set.
public struct LoadCatalog: Job {
    public var accountID: String
    /// The shell text of `catalog.command`.
    public var command: String
    public init(accountID: String, command: String) {
        self.accountID = accountID
        self.command = command
    }
    public typealias Outcome = CatalogLoaded
}

/// How a ``LoadCatalog`` went.
public enum CatalogLoaded: Hashable, Sendable {
    /// The source printed these items (`skipped` lines could not be read).
    case loaded(accountID: String, items: [CatalogItem], skipped: Int)
    /// The source failed: how, with the end of its stderr.
    case failed(accountID: String, reason: String)
}

/// Runs an account's `catalog.preview` for one item off the UI thread, with a timeout, the item
/// in `PERCH_ITEM_ID` and `PERCH_ITEM_TITLE` (never in the shell text).
public struct PreviewCatalogItem: Job {
    public var accountID: String
    /// The shell text of `catalog.preview`.
    public var command: String
    public var item: CatalogItem
    public init(accountID: String, command: String, item: CatalogItem) {
        self.accountID = accountID
        self.command = command
        self.item = item
    }
    public typealias Outcome = CatalogPreviewed
}

/// An item's preview command ended (``PreviewCatalogItem``).
public struct CatalogPreviewed: Hashable, Sendable {
    public var accountID: String
    public var itemID: String
    public var preview: CatalogPreview
    public init(accountID: String, itemID: String, _ preview: CatalogPreview) {
        self.accountID = accountID
        self.itemID = itemID
        self.preview = preview
    }
}

/// Runs an account's `catalog.open` for one item on the terminal: the interface is suspended and
/// the terminal restored while it runs, then resumed and redrawn.
public struct OpenCatalogItem: Job {
    public var accountID: String
    /// The shell text of `catalog.open`.
    public var command: String
    public var item: CatalogItem
    public init(accountID: String, command: String, item: CatalogItem) {
        self.accountID = accountID
        self.command = command
        self.item = item
    }
    public typealias Outcome = CatalogItemOpened
}

/// An item's open command ended: `failure` is nil when it exited with status 0.
public struct CatalogItemOpened: Hashable, Sendable {
    public var accountID: String
    public var failure: String?
    public init(accountID: String, failure: String?) {
        self.accountID = accountID
        self.failure = failure
    }
}

/// Removes from the config file, through the config writer (comments and order kept, the
/// previous file as `<config>.bak`), the field at `path` of the account with this id
/// (`["handle"]`, `["git"]`, `["catalog", "preview"]`; what `perch unset ID PATH` does), or with
/// an empty path the account itself (what `perch remove ID --yes` does: its tools are given back
/// first when it is current, the state forgets it, its history stays), off the UI thread.
public struct DeleteFromConfig: Job {
    public var accountID: String
    public var path: [String]
    public init(accountID: String, path: [String]) {
        self.accountID = accountID
        self.path = path
    }
    public typealias Outcome = ConfigDeletion
}

/// How a ``DeleteFromConfig`` went: `accounts` are the file's accounts now and `backupPath` the
/// previous file; or it was not written, `accounts` is nil and `problem` says why. A `problem`
/// beside `accounts` is something that went wrong after the write (the state still names it).
public struct ConfigDeletion: Hashable, Sendable, WritesConfig {
    public var accountID: String
    public var path: [String]
    public var accounts: [Account]?
    public var configPath: String
    public var backupPath: String?
    public var problem: String?
    public init(accountID: String, path: [String], accounts: [Account]?, configPath: String, backupPath: String?, problem: String?) {
        self.accountID = accountID
        self.path = path
        self.accounts = accounts
        self.configPath = configPath
        self.backupPath = backupPath
        self.problem = problem
    }

    public var writtenAccounts: (accounts: [Account], configPath: String)? { accounts.map { ($0, configPath) } }
}
