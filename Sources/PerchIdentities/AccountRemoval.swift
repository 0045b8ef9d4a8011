import PerchDomain
import PerchStore

/// Removing an account: give back, then forget. `perch remove` and the interface's removal of
/// an account (the Catalog's Delete of its row) both run ``remove(_:givingBack:)``: the
/// account's tools, when it is current, are given back to the person's own first
/// (``SwitchSession/giveBack(_:shouldWaitForLock:progress:)``, all or nothing), and only if the
/// config will take the removal; then the account is removed from the config and forgotten by
/// the state (``ConfigWriter/removeAccount(_:from:state:)``). A failure before the config is
/// written changes nothing; a Perch killed between the two leaves the account current, to be
/// rolled back onto.
public struct AccountRemoval: Sendable {
    /// The config the account is removed from.
    public var configPath: String
    /// The state that forgets the account (current account, count, pane state), or nil for none.
    public var store: StateStore?
    /// The session that gives the tools back, or nil when no tool is ever changed (no identities).
    public var session: SwitchSession?

    public init(configPath: String, store: StateStore?, session: SwitchSession?) {
        self.configPath = configPath
        self.store = store
        self.session = session
    }

    /// What a removal did.
    public struct Removed: Sendable {
        /// The config as written, and what the state forgot.
        public var removal: ConfigWriter.Removal
        /// The give-back of the tools (its report says each tool), or nil when there was none.
        public var givenBack: SwitchSession.Result?
    }

    /// Why nothing was removed.
    public enum Failure: Error, Sendable {
        /// The config would not take the removal, or could not be written; nothing was changed.
        case config(ConfigWriteError)
        /// The state lock or file could not be had to give the tools back; nothing was changed.
        case state(StateError)
        /// A tool could not be given back: every tool was put back (the result's report says
        /// each) and the account was not removed.
        case toolFailed(SwitchSession.Result)
    }

    /// Whether removing `account` gives its tools back first: it is the current account (as the
    /// state file has it now) and names a tool that a switch changes for everyone (not one
    /// set per shell, as env is).
    public func givesBack(_ account: Account) -> Bool {
        guard session != nil, let store, (try? store.peek())?.state.currentAccount == account.id else { return false }
        return ToolAdapters.registry.contains { !$0.isPerShell && account.identities[$0.tool] != nil }
    }

    /// Removes the account `id` from the config, after giving back the tools of `account` (the
    /// account as the caller knows it, nil when it does not) when ``givesBack(_:)`` says so.
    /// - Returns: what the config and the state became, and the give-back's result.
    /// - Throws: ``Failure``; the account is then still in the config, and still current if it was.
    public func remove(_ id: String, givingBack account: Account?) throws(Failure) -> Removed {
        var givenBack: SwitchSession.Result?
        if let account, account.id == id, let session, givesBack(account) {
            do { try ConfigWriter.check(.remove(id: id), at: configPath, samples: []) } catch { throw .config(error) }
            let result: SwitchSession.Result
            do { result = try session.giveBack(account) } catch { throw .state(error) }
            guard result.outcome != nil else { throw .toolFailed(result) }
            givenBack = result
        }
        do {
            return Removed(removal: try ConfigWriter.removeAccount(id, from: configPath, state: store), givenBack: givenBack)
        } catch {
            throw .config(error)
        }
    }
}
