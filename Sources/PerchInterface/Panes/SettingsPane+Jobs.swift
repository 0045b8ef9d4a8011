import PerchDomain
import PerchKit

// The jobs asked for from the Settings pane, and their outcomes (``SettingsPane/take(_:_:)``).

/// Writes `keys`' values from `settings` into the settings file (atomically, beside the config),
/// off the UI thread, keeping what the file holds for the other keys (another window's
/// changes); only a failure comes back.
public struct SaveSettings: Job {
    public var settings: SavedSettings
    /// The keys changed in this window since the file last took its values.
    public var keys: Set<SettingKey>
    public init(_ settings: SavedSettings, keys: Set<SettingKey>) {
        self.settings = settings
        self.keys = keys
    }
    public typealias Outcome = SettingsNotSaved
}

/// The settings file could not be written, for this reason (the values still apply).
public struct SettingsNotSaved: Hashable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// `Edit config…`: runs `$VISUAL`, else `$EDITOR`, else `vi` on a copy of the config with the
/// interface suspended, then validates the copy and loads it as the config.
public struct EditConfig: Job {
    public init() {}
    public typealias Outcome = ConfigEdited
}

/// How ``EditConfig`` ended: the config's accounts when it loaded (they replace those in use),
/// else the problem (the accounts in use are kept).
public struct ConfigEdited: Hashable, Sendable, WritesConfig {
    public var accounts: [Account]?
    public var configPath: String
    public var problem: String?
    /// The edit wrote the first config, over the sample accounts, and their state was set aside
    /// as `perch init` sets it aside: the config starts with no current account and no history.
    public var samplesSetAside: Bool
    public init(accounts: [Account]?, configPath: String, problem: String?, samplesSetAside: Bool = false) {
        self.accounts = accounts
        self.configPath = configPath
        self.problem = problem
        self.samplesSetAside = samplesSetAside
    }

    public var writtenAccounts: (accounts: [Account], configPath: String)? { accounts.map { ($0, configPath) } }
}
