extension AppState {
    /// Presents the `Add account…` form over everything. From Settings the sheet opens on the
    /// new account once it is added; from the sheet, the sheet below shows it.
    mutating func openAccountForm() {
        guard !layout.isTooSmall else { return }
        presented.append(.accountForm(AccountForm(opensSheet: sheet == nil)))
    }

    /// The top layer's form, when it is the `Add account…` form.
    public var accountForm: AccountForm? {
        guard let index = activeTop, case .accountForm(let form) = presented[index] else { return nil }
        return form
    }

    /// Changes the top form that takes input.
    mutating func updateAccountForm(_ change: (inout AccountForm) -> Void) {
        guard let index = activeTop, case .accountForm(var form) = presented[index] else { return }
        change(&form)
        presented[index] = .accountForm(form)
    }

    /// Checks the form's fields (``AccountValidation``, ids unique among ``accounts``): with a
    /// problem, they are shown beside their fields and nothing is asked; otherwise the event loop
    /// is asked to append the account to the config (``Effect/addAccount(_:)``), and the form
    /// stays up until the outcome, ``AppEvent/accountAdded(_:accounts:configPath:backupPath:)`` or
    /// ``AppEvent/accountNotAdded(_:)``.
    mutating func submitAccountForm() -> [Effect] {
        guard let form = accountForm else { return [] }
        switch form.validated(existingIDs: Set(accounts.map(\.id))) {
        case .failure(let list):
            updateAccountForm { form in
                form.problems = list.problems
                form.writeError = nil
                // The first field with a problem takes the focus.
                form.focus = AccountForm.fields.first { list.problems[$0] != nil } ?? form.focus
            }
            return []
        case .success(let account):
            updateAccountForm { form in
                form.problems = [:]
                form.writeError = nil
            }
            return [.addAccount(account)]
        }
    }

    /// The account was written to the config: `accounts` (the file's accounts, the new one
    /// last) replace those in memory, the form closes, and the account sheet shows the new
    /// account with its cursor on it (opened when the form came from Settings).
    /// - Parameter configPath: the file now in use, shown in Settings.
    mutating func accountAdded(_ account: Account, accounts newAccounts: [Account], configPath: String) {
        guard let index = presented.lastIndex(where: { if case .accountForm = $0 { true } else { false } }) else { return }
        replaceAccounts(newAccounts)
        info.configDescription = configPath
        guard case .accountForm(let form) = presented.remove(at: index) else { return }
        guard let accountIndex = accounts.firstIndex(where: { $0.id == account.id }) else { return }
        if form.opensSheet || sheet == nil { openSheet() }
        updateSheet { sheet, _, _ in
            sheet.filter = nil
            sheet.isEditingFilter = false
        }
        let grouped = groupedRows
        updateSheet { sheet, _, _ in sheet.rows = grouped }
        let row = grouped?.firstIndex(of: .account(accountIndex)) ?? accountIndex
        moveSheetCursor(to: row, direction: 1)
        clampLists()
        // The sheet has one more row: it fits itself to it, as after any change of content.
        settlePresentations()
    }

    /// The config could not be written: the form stays up with `message` shown.
    mutating func accountNotAdded(_ message: String) {
        guard let index = presented.lastIndex(where: { if case .accountForm = $0 { true } else { false } }),
            case .accountForm(var form) = presented[index]
        else { return }
        form.writeError = message
        presented[index] = .accountForm(form)
    }

    /// Carries out a click on the form: a field takes the focus, a button adds or cancels.
    mutating func tapAccountForm(_ target: HitTarget) -> [Effect] {
        switch target {
        case .formField(let field): updateAccountForm { $0.focus = field }
        case .formButton(.add): return submitAccountForm()
        case .formButton(.cancel), .coverClose: dismissTop()
        default: break
        }
        return []
    }
}
