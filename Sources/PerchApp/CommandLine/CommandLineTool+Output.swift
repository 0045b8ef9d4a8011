import Glibc
import PerchDomain
import PerchInterface
import PerchStore

extension CommandLineTool {
    /// `perch list --format ids|tsv|json`: one stable shape each, the same on a terminal or not.
    func list(_ accounts: [Account], current: String?, format: OutputFormat) -> Int32 {
        switch format {
        case .json:
            return printJSON(accounts.map { AccountJSON($0, current: $0.id == current) })
        case .ids:
            console.write(accounts.map { shown($0.id) + "\n" }.joined())
        case .tsv:
            var text = ""
            for account in accounts {
                let fields = [
                    account.id, account.name, account.handle ?? "", account.group ?? "", account.color?.name ?? "",
                    account.id == current ? "true" : "false",
                ]
                text += fields.map(tsvField).joined(separator: "\t") + "\n"
            }
            console.write(text)
        }
        return ExitStatus.ok
    }

    /// `text` made safe for one TSV field: tabs and line breaks become spaces, controls visible.
    private func tsvField(_ text: String) -> String {
        shown(String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }))
    }

    /// The account that was current before the current one, from the last history entry, or nil
    /// after saying why there is none.
    func previousAccount(_ config: LoadedConfig, state: SavedState) -> Account? {
        let last: SwitchRecord?
        do {
            last = try StateStore(path: paths.state).history.read(limit: 1).last
        } catch {
            console.error("cannot read the history: \(error)")
            return nil
        }
        // Bug (issue 20): right after the first switch, `perch -` said only "no previous account".
        if let last, let current = state.currentAccount, last.account == current, last.previous == nil {
            console.error(
                "no earlier account yet: \(shown(current)) is the first account switched to; after `perch switch ID`, `perch -` goes back")
            return nil
        }
        // Bug: after `perch remove` of the current account, `perch -` said "no previous account"
        // though the history had one: the account before the removed one.
        if let last, state.currentAccount == nil, !config.accounts.contains(where: { $0.id == last.account }),
            let previousID = last.previous
        {
            guard let account = config.accounts.first(where: { $0.id == previousID }) else {
                console.error(
                    "the account before '\(shown(last.account))' (removed since), '\(shown(previousID))', is no longer in the config either"
                )
                return nil
            }
            return account
        }
        guard let last, let current = state.currentAccount, last.account == current, let previousID = last.previous else {
            console.error("no previous account to switch back to; switch with `perch switch ID` first")
            return nil
        }
        guard let account = config.accounts.first(where: { $0.id == previousID }) else {
            console.error("the previous account '\(previousID)' is no longer in the config")
            return nil
        }
        return account
    }
}
