import PerchDomain
import PerchIdentities
import PerchStore

/// `perch undo`: back to the account and tool states from before the last switch.
struct UndoCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "undo", summary: "bring back the account and every tool's state from before the last switch")
    static let details: String =
        "Switches back to the account before the last switch and gives each tool the state\n"
        + "it had then (recorded when the switch was made). It is a switch itself, so a second\n"
        + "perch undo redoes. Exit status 1 when there is nothing to undo, 3 when a tool fails\n"
        + "(every tool is then left as it was). It first says which switch it undoes; only\n"
        + "switches are undone (an account removed since stays removed)."
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.undo() }
}

extension CommandLineTool {
    /// `perch undo`: back to the account and tool states from before the last switch.
    func undo() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let switcher = switcher(config)
        let session = switcher.session(store: StateStore(path: paths.state), source: .cli)
        guard let record = session.undoRecord else {
            console.error("nothing to undo: no switch has been recorded with this state file yet")
            return ExitStatus.unmet
        }
        guard let from = record.from else {
            console.error("nothing to undo: the last switch (to \(shown(record.to))) was the first; there was no account before it")
            return ExitStatus.unmet
        }
        guard let account = config.accounts.first(where: { $0.id == from }) else {
            console.error("cannot undo: the account before the last switch, '\(shown(from))', is no longer in the config")
            return ExitStatus.unmet
        }
        // Said before it is done (bug: after `perch remove`, undo undid the switch before the
        // removal without a word, as if it undid the removal).
        let removed = config.accounts.contains { $0.id == record.to } ? "" : "; \(shown(record.to)) was removed since, and stays removed"
        console.print("Undoing the last switch, \(shown(from)) → \(shown(record.to)) at \(record.time)\(removed).")
        let states = Dictionary(record.tools.map { ($0.tool, $0.before) }, uniquingKeysWith: { first, _ in first })
        return runSession(to: account, target: .states(states), config: config, verb: "Undone: back to")
    }
}
