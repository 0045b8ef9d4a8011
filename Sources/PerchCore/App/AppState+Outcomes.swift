extension AppState {
    /// Takes in the outcome of an effect (see ``Outcome``); returns the effects that follow
    /// (a saved switch runs its hook; a queued pick is asked for next).
    mutating func handleOutcome(_ event: Outcome) -> [Effect] {
        let context = self.context
        switch event {
        case .switchSaved(let outcome):
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
        case .switchWaiting(let id, let reason):
            if pendingSwitch?.accountID == id { pendingSwitch?.waitingReason = reason }
            return []
        case .switchFailed(let id, let reason):
            let queued = pendingSwitch?.accountID == id ? pendingSwitch?.queued : nil
            if pendingSwitch?.accountID == id { pendingSwitch = nil }
            banner = "Could not switch to \(context.displayName(of: id)): \(reason)"
            return queued.map { requestSwitch(to: $0) } ?? []
        case .identitiesApplied(let report, let previous, let afterSwitch):
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
            if afterSwitch, account?.onSwitch != nil { effects.append(.runHook(accountID: report.accountID, previous: previous)) }
            if account?.identities.isEmpty == false { effects.append(.checkIdentities(accountID: report.accountID)) }
            return effects
        case .identitiesChecked(let id, let checks):
            guard saved.currentAccount == id else { return [] }
            if identities?.accountID != id { identities = IdentityStatus(accountID: id) }
            identities?.checks = checks
            return []
        case .hookEnded(let id, let failure):
            if let failure { banner = "onSwitch hook for \(context.displayName(of: id)) \(failure)" }
            return []
        case .stateChanged(let newSaved, let warning):
            let before = saved
            adopt(newSaved)
            // The other process applied the identities: read what the tools say now.
            let check = saved.currentAccount != before.currentAccount ? refreshIdentities(apply: false) : []
            if let warning {
                banner = warning
            } else if let id = newSaved.currentAccount, id != before.currentAccount {
                banner =
                    currentAccount.map { "Now on \($0.name): switched in another Perch." }
                    ?? "Now on \"\(id)\", switched in another Perch; it is not in this one's config (restart Perch to load it)."
            } else if newSaved.currentAccount == nil, before.currentAccount != nil {
                banner = "No account is current now: changed in another Perch."
            }
            return check
        case .accountAdded(let account, let newAccounts, let path, let backup):
            accountAdded(account, accounts: newAccounts, configPath: path)
            banner = "Added \(account.name) to \(path)" + (backup.map { " (previous file kept as \($0))." } ?? ".")
            return []
        case .deletedFromConfig(let id, let path, let newAccounts, let configPath, let backup, let problem):
            let what = path.isEmpty ? context.displayName(of: id) : "\(path.joined(separator: ".")) of \(context.displayName(of: id))"
            guard let newAccounts else {
                banner = "Could not remove \(what) from the config: \(problem ?? "it could not be written")"
                bannerStays = true
                return []
            }
            replaceAccounts(newAccounts)
            info.configDescription = configPath
            if currentIndex == nil, saved.currentAccount != nil { saved.currentAccount = nil }
            banner = "Removed \(what) from \(configPath)" + (backup.map { " (previous file kept as \($0))." } ?? ".")
            return []
        case .accountNotAdded(let message):
            accountNotAdded(message)
            return []
        case .catalogLoaded, .catalogFailed, .catalogPreviewed, .catalogItemOpened:
            // The Catalog pane asked for these (its source, a preview, an open): they go back to it.
            return apply(catalogPane.take(event, context))
        case .settingsNotSaved(let reason):
            banner = "Settings apply, but could not be saved: \(reason)"
            return []
        case .configEdited(let newAccounts, let path, let problem):
            if let newAccounts {
                replaceAccounts(newAccounts)
                info.configDescription = path
                info.usesSampleAccounts = false
                if currentIndex == nil, saved.currentAccount != nil {
                    banner = "Config reloaded: \(newAccounts.count) accounts; the current account is no longer in it."
                    saved.currentAccount = nil
                } else {
                    banner = "Config reloaded: \(newAccounts.count) account\(newAccounts.count == 1 ? "" : "s")."
                }
            } else {
                banner = "The config was not reloaded (the previous accounts stay): \(problem ?? "it is not valid")"
                bannerStays = true
            }
            return []
        case .wallClock(let time):
            wallTime = time
            return []
        case .historyChanged(let newHistory):
            // Switches this window made keep their mark.
            let mine = Set(history.events.filter(\.here).map { "\($0.account)@\($0.time)" })
            history = SwitchHistory(
                events: newHistory.events.map { event in
                    var event = event
                    event.here = mine.contains("\(event.account)@\(event.time)")
                    return event
                })
            return []
        }
    }

    /// The account was written to the config: `accounts` (the file's accounts, the new one
    /// last) replace those in memory, the form closes, and the account sheet shows the new
    /// account with its cursor on it (opened when the form came from Settings).
    /// - Parameter configPath: the file now in use, shown in Settings.
    mutating func accountAdded(_ account: Account, accounts newAccounts: [Account], configPath: String) {
        guard let (formIndex, form) = presented.topmost(AccountForm.self) else { return }
        replaceAccounts(newAccounts)
        info.configDescription = configPath
        info.usesSampleAccounts = false
        presented.remove(at: formIndex)
        guard let accountIndex = accounts.firstIndex(where: { $0.id == account.id }) else { return }
        if form.opensSheet || sheet == nil { openSheet() }
        guard let top = activeTop else { return }
        let context = self.context
        presented[top].modify(AccountSheet.self) { $0.reveal(accountAt: accountIndex, context) }
        relayout()
        // The sheet has one more row: it fits itself to it, as after any change of content.
        settlePresentations()
    }

    /// The config could not be written: the form stays up with `message` shown.
    mutating func accountNotAdded(_ message: String) {
        guard let index = presented.topmost(AccountForm.self)?.index else { return }
        presented[index].modify(AccountForm.self) { $0.notAdded(message) }
    }
}
