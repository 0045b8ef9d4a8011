import PerchDomain
import PerchKit

// The jobs Perch's model asks for itself (the switch, its hook, the tools, the panes' memory, the
// config read after the first frame), their outcomes, and the loop's other news. The model takes
// them as its messages (``PerchModel/Message``).

/// Records a switch to the account with this id in the state file, off the UI thread, through
/// the switch session (each tool applied and verified, all or nothing); nothing is recorded when
/// it is already current there. Each step comes back as it happens (``SwitchProgress``).
public struct RecordSwitch: Job {
    public var accountID: String
    public init(accountID: String) { self.accountID = accountID }
    public typealias Outcome = SwitchProgress
}

/// How a ``RecordSwitch`` goes, step by step.
public enum SwitchProgress: Hashable, Sendable {
    /// The store recorded the switch (or declined it: already current).
    case saved(SwitchOutcome)
    /// The store waits for the state lock, which another process holds, for `reason`; the rest follows.
    case waiting(accountID: String, reason: String)
    /// The switch could not be saved, for `reason`; every tool was put back.
    case failed(accountID: String, reason: String)
    /// A tool's step (pending, applied, failed), or the whole report once the switch was saved.
    case identities(IdentitiesApplied)
}

/// Runs the `onSwitch` hook of the account with this id, off the UI thread, after a saved switch
/// from `previous`.
public struct RunHook: Job {
    public var accountID: String
    public var previous: String?
    public init(accountID: String, previous: String?) {
        self.accountID = accountID
        self.previous = previous
    }
    public typealias Outcome = HookEnded
}

/// A ``RunHook`` ended: `failure` is nil when it succeeded, else a phrase such as
/// `exited with status 1: no such remote`.
public struct HookEnded: Hashable, Sendable {
    public var accountID: String
    public var failure: String?
    public init(accountID: String, failure: String?) {
        self.accountID = accountID
        self.failure = failure
    }
}

/// Applies the tool identities of the account with this id again (git, ssh, kube, gcloud, gh,
/// aws, env, in that order, each program with its own timeout), off the UI thread. With
/// `afterSwitch`, a switch from `previous` was just saved and its `onSwitch` hook follows.
public struct ApplyIdentities: Job {
    public var accountID: String
    public var previous: String?
    public var afterSwitch: Bool
    public init(accountID: String, previous: String?, afterSwitch: Bool) {
        self.accountID = accountID
        self.previous = previous
        self.afterSwitch = afterSwitch
    }
    public typealias Outcome = IdentitiesApplied
}

/// Tool identities were applied: one result per tool.
public struct IdentitiesApplied: Hashable, Sendable {
    public var report: IdentityReport
    public var previous: String?
    public var afterSwitch: Bool
    public init(_ report: IdentityReport, previous: String?, afterSwitch: Bool) {
        self.report = report
        self.previous = previous
        self.afterSwitch = afterSwitch
    }
}

/// Reads what each tool of the account with this id reports now, off the UI thread.
public struct CheckIdentities: Job {
    public var accountID: String
    public init(accountID: String) { self.accountID = accountID }
    public typealias Outcome = IdentitiesChecked
}

/// What each tool of an account reported (``CheckIdentities``).
public struct IdentitiesChecked: Hashable, Sendable {
    public var accountID: String
    public var checks: [IdentityCheck]
    public init(accountID: String, _ checks: [IdentityCheck]) {
        self.accountID = accountID
        self.checks = checks
    }
}

/// Asks each tool of the account with this id what it will use (and each server too when
/// `online`), off the UI thread, as `perch verify` does.
public struct VerifyIdentities: Job {
    public var accountID: String
    public var online: Bool
    public init(accountID: String, online: Bool) {
        self.accountID = accountID
        self.online = online
    }
    public typealias Outcome = IdentitiesVerified
}

/// What each tool answered (``VerifyIdentities``).
public struct IdentitiesVerified: Hashable, Sendable {
    public var accountID: String
    public var answers: [ToolAnswer]
    public init(accountID: String, _ answers: [ToolAnswer]) {
        self.accountID = accountID
        self.answers = answers
    }
}

/// Keeps what each account's panes look like (Catalog cursor, scroll and pins, Stats' scroll)
/// in the state file, under its lock, off the UI thread; nothing else in the file changes, and
/// nothing comes back (a failure to keep it is not worth a banner).
public struct SavePanes: Job {
    public var panes: [String: AccountPanes]
    public init(_ panes: [String: AccountPanes]) { self.panes = panes }
}

/// Reads and checks the whole config off the UI thread (the first frame came from the
/// current-account cache).
public struct LoadConfig: Job {
    public init() {}
    public typealias Outcome = ConfigRead
}

/// How ``LoadConfig`` went.
public enum ConfigRead: Hashable, Sendable {
    /// The config's accounts, in config order (they replace the current account the first frame
    /// was drawn from).
    case loaded(accounts: [Account])
    /// The config is unusable: its problems, one line each, as a start with it prints them
    /// (``PerchModel/unusableConfig``).
    case unusable(lines: [String])
    /// The config changed while the interface runs and no longer loads: its problems; the
    /// accounts stay as they were.
    case changedUnusable(lines: [String])
}

/// Another process changed the state file: what it holds now (`warning` when it could not be
/// read as it is, e.g. it names an account this config lacks). Sent by the state watch.
public struct StateChanged: Hashable, Sendable {
    public var saved: SavedState
    public var warning: String?
    public init(_ saved: SavedState, warning: String?) {
        self.saved = saved
        self.warning = warning
    }
}

/// The history log as it is now, read after another process changed the state file.
public struct HistoryChanged: Hashable, Sendable {
    public var history: SwitchHistory
    public init(_ history: SwitchHistory) { self.history = history }
}
