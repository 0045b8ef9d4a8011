import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch remove ID`: an account taken out of the config.
struct RemoveCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "remove", summary: "remove an account from the config (asks first; --yes does not)", operands: [.account])
    static let details: String =
        "Asks first on a terminal; --yes removes without asking (needed without a\n"
        + "terminal). The history keeps the account's entries (perch history lists them);\n"
        + "its switch count and pane state go. When it is current, each tool it names first\n"
        + "gets back what it has without Perch (git your own identity, the others what they\n"
        + "had before Perch first changed them), all or nothing as in a switch, and then no\n"
        + "account is current. A tool that fails puts every tool back and removes nothing\n"
        + "(exit status 3); an interrupted switch still finishing removes nothing (exit 1).\n" + writerNote
    var files = FileOptions()
    var id = ""
    /// `--yes`: remove without asking.
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) { id = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.removeAccount(self) }
}

extension CommandLineTool {
    // MARK: perch remove

    func removeAccount(_ options: RemoveCommand) -> Int32 {
        let id = options.id
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let account = config.accounts.first(where: { $0.id == id }) else { return noAccount(id, config) }
        let store = StateStore(path: paths.state)
        let entries = ((try? store.history.read(limit: Int.max)) ?? []).filter { $0.account == id || $0.previous == id }.count
        let historyText =
            entries == 0
            ? "It has no history entries."
            : "Its \(entries) history entr\(entries == 1 ? "y stays" : "ies stay") (perch history lists \(entries == 1 ? "it" : "them") under \(shown(id)))."
        let perShell = Set(ToolAdapters.registry.filter(\.isPerShell).map(\.tool))
        let remover = AccountRemoval(configPath: paths.config, store: store, session: switcher(config).session(store: store, source: .cli))
        let givesBack = remover.givesBack(account)
        if !options.yes {
            guard isatty(STDIN_FILENO) == 1 else {
                console.error("perch remove asks first; run it again with --yes to remove \(shown(id)) without asking")
                return ExitStatus.usage
            }
            console.write(
                "Remove \(describe(account)) from \(paths.config)? \(historyText) Its switch count and pane state go"
                    + (givesBack ? ", and as it is current, its tools go back to your own" : "") + ".\nRemove it? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                console.print("Nothing changed.")
                return ExitStatus.unmet
            }
        }
        // The current account's tools are given back first, and only if the config will take
        // the removal (``AccountRemoval``, as the interface removes one).
        let removed: AccountRemoval.Removed
        do {
            removed = try remover.remove(id, givingBack: account)
        } catch {
            switch error {
            case .config(let error): return report(error)
            case .state(let error):
                console.error("cannot give back the tools of \(shown(id)): \(error); nothing was changed")
                return ExitStatus.unmet
            case .toolFailed(let result):
                if let message = result.recovered { console.error(shown(message)) }
                console.error(
                    "cannot give back the tools of \(shown(id)): \(result.failure ?? "a tool failed"); every tool was put back and nothing was removed"
                )
                for line in result.report.results where !line.summary.isEmpty && !perShell.contains(line.tool) {
                    console.note("  " + shown(line.summary))
                }
                return ExitStatus.toolFailed
            }
        }
        if let message = removed.givenBack?.recovered { console.error(shown(message)) }
        let given = removed.givenBack?.report.results.filter { !$0.summary.isEmpty && !perShell.contains($0.tool) } ?? []
        let removal = removed.removal
        console.print("Removed \(describe(account)) from \(shownPath(removal.outcome.path))" + backupNote(removal.outcome) + ".")
        switch removal.forgotten {
        case .success(let change)?:
            console.print(historyText + (change.wasCurrent ? " It was the current account: no account is current now." : ""))
        case .failure(let error)?:
            console.error("the account is removed from the config, but the state still names it: \(error)")
            return ExitStatus.unmet
        case nil: break
        }
        if !given.isEmpty {
            console.print(
                given.allSatisfy(\.succeeded) ? "Its tools are back to your own:" : "Its tools, back to your own where they could be:")
        }
        for line in given { console.print("  " + shown(line.summary)) }
        return ExitStatus.ok
    }
}
