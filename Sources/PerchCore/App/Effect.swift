/// Which model asked for an effect: the effect's outcome is handed back to that model
/// (``AppEvent/outcome(_:for:)``), as Bubble Tea routes a message to the component whose id it
/// carries, instead of the root taking every outcome in.
public enum ModelID: Hashable, Sendable {
    /// The root: the switch, the tool identities, the state file, the clock.
    case root
    /// One of the panes, each kept for the whole run.
    case pane(Tab)
    /// The presented layer with this ``Presentation/id`` (given when it was presented; a layer
    /// dismissed before its outcome came back no longer takes it).
    case layer(Int)
}

/// Work that ``AppState/update(_:)`` asks the event loop to do; update itself does no I/O.
/// Whatever performs an effect reports how it went as an ``AppEvent`` (an outcome) back into
/// update, addressed to the model that asked (``asker``); nothing else changes the state.
public enum Effect: Hashable, Sendable {
    /// Record a switch to the account with this id in the state file, off the UI thread (nothing
    /// is recorded when it is already current there). Reported with
    /// ``Outcome/switchSaved(_:)``, ``Outcome/switchWaiting(accountID:reason:)`` or
    /// ``Outcome/switchFailed(accountID:reason:)``.
    case recordSwitch(accountID: String)
    /// Run the `onSwitch` hook of the account with this id, off the UI thread, after a saved
    /// switch from `previous`; reported with ``Outcome/hookEnded(accountID:failure:)``.
    case runHook(accountID: String, previous: String?)
    /// Apply the tool identities of the account with this id (git, ssh, kube, gcloud, gh, aws,
    /// env, in that order, each program with its own timeout), off the UI thread; reported with
    /// ``Outcome/identitiesApplied(_:previous:afterSwitch:)``. With `afterSwitch`, a switch from
    /// `previous` was just saved and its `onSwitch` hook follows once they are applied.
    case applyIdentities(accountID: String, previous: String?, afterSwitch: Bool)
    /// Read what each tool of the account with this id reports now, off the UI thread; reported
    /// with ``Outcome/identitiesChecked(accountID:_:)``.
    case checkIdentities(accountID: String)
    /// Ask each tool of the account with this id what it will use (and each server too when
    /// `online`), off the UI thread, as `perch verify` does; reported with
    /// ``Outcome/identitiesVerified(accountID:_:)``.
    case verifyIdentities(accountID: String, online: Bool)
    /// Put this text on the terminal's clipboard with OSC 52 (``OSC52``), where the terminal
    /// allows programs to set it.
    case copyToClipboard(String)
    /// Append this account to the config file (a new file holding the sample accounts and it when
    /// there is none), atomically and keeping the previous file as `<config>.bak`, off the UI
    /// thread; reported with ``Outcome/accountAdded(_:accounts:configPath:backupPath:)`` or
    /// ``Outcome/accountNotAdded(_:)``.
    case addAccount(Account)
    /// Remove from the config file, through the config writer (comments and order kept, the
    /// previous file as `<config>.bak`), the field at `path` of the account with this id
    /// (`["handle"]`, `["git"]`, `["catalog", "preview"]`; what `perch unset ID PATH` does), or
    /// with an empty path the account itself (what `perch remove ID --yes` does: the state
    /// forgets it, its history stays), off the UI thread; reported with
    /// ``AppEvent/deletedFromConfig(accountID:path:accounts:configPath:backupPath:problem:)``.
    case deleteFromConfig(accountID: String, path: [String])
    /// Run an account's `catalog.command` off the UI thread, with a timeout, with
    /// `PERCH_ACCOUNT_ID` and `PERCH_ACCOUNT_NAME` set; reported with
    /// ``Outcome/catalogLoaded(accountID:items:skipped:)`` or ``Outcome/catalogFailed(accountID:reason:)``.
    case loadCatalog(accountID: String, command: String)
    /// Run an account's `catalog.preview` for one item off the UI thread, with a timeout, the item
    /// in `PERCH_ITEM_ID` and `PERCH_ITEM_TITLE` (never in the shell text); reported with
    /// ``Outcome/catalogPreviewed(accountID:itemID:_:)``.
    case previewCatalogItem(accountID: String, command: String, item: CatalogItem)
    /// Run an account's `catalog.open` for one item on the terminal: the interface is suspended
    /// and the terminal restored while it runs, then resumed and redrawn; reported with
    /// ``Outcome/catalogItemOpened(accountID:failure:)``.
    case openCatalogItem(accountID: String, command: String, item: CatalogItem)
    /// Keep what each account's panes look like (Catalog cursor, scroll and pins, Stats' scroll)
    /// in the state file, under its lock, off the UI thread; nothing else in the file changes.
    case savePanes([String: AccountPanes])
    /// Write the settings file (atomically, beside the config), off the UI thread; a failure is
    /// reported with ``Outcome/settingsNotSaved(_:)``.
    case saveSettings(SavedSettings)
    /// Turn the kitty keyboard protocol on with these flags (`CSI > flags u`), popped on every way out.
    case pushKeyboardFlags(Int)
    /// Turn the terminal's mouse reporting on or off (xterm modes 1000, 1002, 1006).
    case setMouse(Bool)
    /// Ask the terminal `query` (when it is worth asking: ``TerminalQueries/shouldAsk(_:)``); the
    /// answer comes back as ``AppEvent/terminalReply(_:)``.
    case ask(TerminalQuery)
    /// Take this many rows below the cursor's line for the frame (the inline picker's block),
    /// clearing rows taken before; with `clearingLine`, the cursor's line (empty) is cleared too.
    /// A full-screen backend has every row already and does nothing.
    case takeRows(Int, clearingLine: Bool)
    /// Run `$VISUAL`, else `$EDITOR`, else `vi` on the config file with the interface suspended,
    /// then validate the file and load it again; reported with
    /// ``Outcome/configEdited(accounts:configPath:problem:)``.
    case editConfig
    /// Read and check the whole config off the UI thread (the first frame came from the
    /// current-account cache); reported with ``Outcome/configLoaded(accounts:)`` or
    /// ``Outcome/configUnusable(lines:)``.
    case loadConfig
    /// Restore the terminal and exit with status 0.
    case quit
    /// Restore the terminal and stop the process (Ctrl-Z); redraw everything when continued.
    case suspend
    /// `effect`, asked for by `model`: its outcome goes back to that model. The root wraps what
    /// a pane or a layer asks for (``Intent/effect(_:)``); what it asks for itself is not wrapped.
    indirect case asked(by: ModelID, Effect)
}

extension Effect {
    /// Whether this effect asks the store for a switch.
    var isSwitch: Bool { if case .recordSwitch = work { true } else { false } }

    /// The model whose outcome this is: the one named by ``asked(by:_:)``, else the root.
    public var asker: ModelID { if case .asked(let model, _) = self { model } else { .root } }

    /// The work itself, without who asked for it.
    public var work: Effect { if case .asked(_, let effect) = self { effect.work } else { self } }

    /// This effect asked for by `model` (an effect already addressed keeps its asker; the root's
    /// own stay unwrapped).
    public func asked(by model: ModelID) -> Effect {
        if case .asked = self { return self }
        return model == .root ? self : .asked(by: model, self)
    }
}
