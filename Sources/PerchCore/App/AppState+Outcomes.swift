import PerchKit

extension AppState {
    /// Takes in the outcome of a job: the model that asked for it (``Effect/asker``) gets it
    /// alone and says what the root must do besides, as a Bubble Tea component gets back its
    /// command's message. An outcome for a layer dismissed meanwhile is dropped, except that the
    /// accounts a config write left (``WritesConfig``) are adopted all the same.
    mutating func handleOutcome(_ outcome: AnyOutcome, for asker: ModelID) -> [Effect] {
        let context = self.context
        let intents: [Intent]
        switch asker {
        case .root: return handleRootOutcome(outcome)
        case .pane(let tab): intents = self[pane: tab].take(outcome, context)
        case .layer(let id):
            if let index = presented.firstIndex(where: { $0.id == id }) {
                intents = presented[index].take(outcome, context)
            } else {
                let written = (outcome.base as? any WritesConfig)?.writtenAccounts
                intents = written.map { [.replaceAccounts($0.accounts, configPath: $0.configPath)] } ?? []
            }
        }
        return apply(intents, from: asker)
    }

    /// The outcomes of what the root asks for itself (the switch, its hook, the tool identities,
    /// the config read after the first frame) and its other events (the state file and history
    /// changed by another process, the wall clock). A pane's or a layer's outcome is addressed to
    /// it: the root never asked for one, and takes none.
    private mutating func handleRootOutcome(_ outcome: AnyOutcome) -> [Effect] {
        if let record = outcome.as(SwitchProgress.self) { return takeSwitchProgress(record) }
        if let applied = outcome.as(IdentitiesApplied.self) { return takeIdentitiesApplied(applied) }
        if let checked = outcome.as(IdentitiesChecked.self) {
            guard saved.currentAccount == checked.accountID else { return [] }
            if identities?.accountID != checked.accountID { identities = IdentityStatus(accountID: checked.accountID) }
            identities?.checks = checked.checks
        } else if let verified = outcome.as(IdentitiesVerified.self) {
            guard saved.currentAccount == verified.accountID else { return [] }
            if identities?.accountID != verified.accountID { identities = IdentityStatus(accountID: verified.accountID) }
            identities?.answers = verified.answers
            identities?.verifying = false
        } else if let hook = outcome.as(HookEnded.self) {
            if let failure = hook.failure { banner = "onSwitch hook for \(context.displayName(of: hook.accountID)) \(failure)" }
        } else if let changed = outcome.as(StateChanged.self) {
            return takeStateChanged(changed)
        } else if let read = outcome.as(ConfigRead.self) {
            switch read {
            case .loaded(let newAccounts): return takeLoadedAccounts(newAccounts)
            case .unusable(let lines):
                unusableConfig = lines
                return [.quit]
            case .changedUnusable(let lines):
                // Bug: `perch set` and `perch add` made elsewhere were not seen until a restart;
                // a config that no longer loads keeps the accounts as they were, and says so.
                banner =
                    "The config changed and does not load now (\(lines.first ?? "")); the accounts stay as they were: perch config edit"
                return []
            }
        } else if let time = outcome.as(WallTime.self) {
            wallTime = time
        } else if let changed = outcome.as(HistoryChanged.self) {
            // Switches this window made keep their mark.
            let mine = Set(history.events.filter(\.here).map { "\($0.account)@\($0.time)" })
            history = SwitchHistory(
                events: changed.history.events.map { event in
                    var event = event
                    event.here = mine.contains("\(event.account)@\(event.time)")
                    return event
                })
        }
        return []
    }

    /// A step of the switch the root asked the store for (``RecordSwitch``).
    private mutating func takeSwitchProgress(_ record: SwitchProgress) -> [Effect] {
        switch record {
        case .saved(let outcome):
            guard let pending = pendingSwitch, pending.accountID == outcome.accountID else {
                adopt(outcome.state)
                return []
            }
            pendingSwitch = nil
            adopt(outcome.state)
            if outcome.changed, let wallTime {
                history.append(SwitchEvent(account: outcome.accountID, time: wallTime.seconds(at: clock), source: .tui, here: true))
            }
            if let warning = outcome.warning { banner = warning }
            var effects: [Effect] = []
            // The tools were applied and verified before the switch was recorded (the switch
            // session): their report follows as identitiesApplied, which runs the hook.
            if outcome.changed || identities?.accountID != outcome.accountID {
                identities = IdentityStatus(accountID: outcome.accountID, report: identities?.report, applying: true)
            }
            if let queued = pending.queued { effects += requestSwitch(to: queued) }
            return effects
        case .waiting(let id, let reason):
            if pendingSwitch?.accountID == id { pendingSwitch?.waitingReason = reason }
            return []
        case .failed(let id, let reason):
            let queued = pendingSwitch?.accountID == id ? pendingSwitch?.queued : nil
            if pendingSwitch?.accountID == id { pendingSwitch = nil }
            banner = "Could not switch to \(context.displayName(of: id)): \(reason)"
            return queued.map { requestSwitch(to: $0) } ?? []
        case .identities(let applied):
            return takeIdentitiesApplied(applied)
        }
    }

    /// Tool identities applied: a step of a switch under way, or the whole report (after a
    /// switch, or `r`), which runs the hook and reads the tools again.
    private mutating func takeIdentitiesApplied(_ applied: IdentitiesApplied) -> [Effect] {
        let (report, previous, afterSwitch) = (applied.report, applied.previous, applied.afterSwitch)
        let account = accounts.first { $0.id == report.accountID }
        // A step of a switch under way (a tool pending, applied or failed): shown as it comes back.
        if report.results.contains(where: { $0.status == .pending }) || (pendingSwitch?.accountID == report.accountID && !afterSwitch) {
            if identities?.accountID != report.accountID { identities = IdentityStatus(accountID: report.accountID) }
            identities?.report = report
            identities?.applying = true
            return []
        }
        if identities?.accountID == report.accountID || saved.currentAccount == report.accountID {
            identities = IdentityStatus(accountID: report.accountID, report: report, checks: identities?.checks, applying: false)
        }
        if !report.failures.isEmpty {
            let failed = report.failures.map { "\($0.tool.rawValue) \($0.detail)" }.joined(separator: "; ")
            banner = "\(context.displayName(of: report.accountID)): \(failed)"
        }
        var effects: [Effect] = []
        if afterSwitch, account?.onSwitch != nil { effects.append(.perform(RunHook(accountID: report.accountID, previous: previous))) }
        if account?.identities.isEmpty == false { effects.append(.perform(CheckIdentities(accountID: report.accountID))) }
        return effects
    }

    /// Another process changed the state file: its state is adopted, and the tools read again
    /// when the account changed.
    private mutating func takeStateChanged(_ changed: StateChanged) -> [Effect] {
        let (newSaved, warning) = (changed.saved, changed.warning)
        let before = saved
        adopt(newSaved)
        // The other process applied the identities: read what the tools say now.
        let check = saved.currentAccount != before.currentAccount ? refreshIdentities(apply: false) : []
        if let warning {
            banner = warning
        } else if let id = newSaved.currentAccount, id != before.currentAccount {
            // Bug: "switched in another Perch" for a switch made with `perch switch`.
            banner =
                currentAccount.map { "Now on \($0.name): switched outside this window." }
                ?? "Now on \"\(id)\", switched outside this window; it is not in this one's config (restart Perch to load it)."
        } else if newSaved.currentAccount == nil, before.currentAccount != nil {
            banner = "No account is current now: changed outside this window."
        }
        return check
    }

    /// The whole config arrived after a first frame drawn from the cache: the sheet, the filter
    /// and the Catalog get every account. A current account the config no longer has is dropped,
    /// as a start with that config drops it (never offered, never shown as current); the tools
    /// are read again and the Catalog loads again only when the current account changed.
    mutating func takeLoadedAccounts(_ newAccounts: [Account]) -> [Effect] {
        let before = currentAccount
        accountsIndex = AccountsIndex(newAccounts)
        currentIndex = accountsIndex.index(of: saved.currentAccount)
        if currentIndex == nil, let id = saved.currentAccount {
            saved.currentAccount = nil
            banner = "State names account \"\(id)\", which is not in the config; read as no current account."
        }
        // Pane state of accounts no longer in the config is not kept on.
        let index = accountsIndex
        savedPanes = savedPanes.filter { index.index(of: $0.key) != nil }
        var effects: [Effect] = []
        if currentAccount != before {
            followAccount(accountsReplaced: true)
            identities = nil
            effects += identityCheck
        }
        // A sheet opened meanwhile shows the accounts now, its filter applied, on the current one.
        if let top = presented.lastIndex(where: { $0.is(AccountSheet.self) }) {
            let context = self.context
            let current = currentIndex
            presented[top].modify(AccountSheet.self) { sheet in
                sheet.filterMatches = nil
                sheet.refilter(context)
                if sheet.filter?.isEmpty ?? true, let current {
                    sheet.moveCursor(to: sheet.rows?.firstIndex(of: .account(current)) ?? current, direction: 1, context)
                }
            }
        }
        relayout()
        settlePresentations()
        return effects
    }

    /// The state was set aside: no account is current, nothing is pending, the history, what
    /// the tools were last seen to use and what the panes kept of each account are gone (the pane
    /// that asked, `asker`, keeps its cursor), and every pane follows.
    mutating func startAfresh(keeping asker: ModelID) {
        saved = SavedState()
        pendingSwitch = nil
        history = SwitchHistory()
        identities = nil
        savedPanes = [:]
        let kept: (tab: Tab, pane: any TabPane)? = if case .pane(let tab) = asker { (tab, self[pane: tab]) } else { nil }
        panes = PaneList(kept: [:])
        if let kept { self[pane: kept.tab] = kept.pane }
        followAccount(accountsReplaced: false)
    }

    /// The config was written: `newAccounts` replace those in use, `configPath` is the file now
    /// in use (no longer the sample accounts), and a current account no longer in it is dropped.
    mutating func adoptAccounts(_ newAccounts: [Account], configPath: String) {
        replaceAccounts(newAccounts)
        info.configDescription = configPath
        info.usesSampleAccounts = false
        if currentIndex == nil, saved.currentAccount != nil { saved.currentAccount = nil }
    }

    /// Shows the account with this id in the account sheet, with its cursor on it, opening the
    /// sheet when none is up; the sheet then fits itself to its rows, as after any change.
    mutating func revealAccount(_ id: String) {
        guard let accountIndex = accounts.firstIndex(where: { $0.id == id }) else { return }
        if sheet == nil { openSheet() }
        guard let top = activeTop else { return }
        let context = self.context
        presented[top].modify(AccountSheet.self) { $0.reveal(accountAt: accountIndex, context) }
        relayout()
        settlePresentations()
    }
}
