import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch rename OLD NEW`: an account's id changed, with everything Perch keeps of it.
struct RenameCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "rename", summary: "give an account a new id; its state, history and panes follow",
        operands: [Operand(name: "OLD", completion: .account), Operand(name: "NEW")])
    static let details: String =
        "NEW follows the rules of an id. The current and previous account, the switch\n"
        + "history, the switch counts, the pane state and Perch's identity files follow the\n"
        + "new id, so perch current, perch - and perch history go on as before.\n" + writerNote
    var files = FileOptions()
    var old = ""
    var new = ""

    mutating func bind(operands: [String]) { (old, new) = (operands[0], operands[1]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.renameAccount(self) }
}

extension CommandLineTool {
    // MARK: perch rename

    func renameAccount(_ options: RenameCommand) -> Int32 {
        let (old, new) = (options.old, options.new)
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let index = config.accounts.firstIndex(where: { $0.id == old }) else { return noAccount(old, config) }
        if let problem = AccountValidation.idProblem(new) {
            console.error("accounts[\(index)].id: \(problem.message)")
            return ExitStatus.usage
        }
        let outcome: ConfigWriter.Outcome
        do {
            outcome = try ConfigWriter.apply(.rename(from: old, to: new), to: paths.config)
        } catch {
            return report(error)
        }
        console.print("Renamed \(shown(old)) to \(shown(new)) in \(shownPath(outcome.path))" + backupNote(outcome) + ".")
        do {
            let change = try StateStore(path: paths.state).renameAccount(from: old, to: new)
            var carried = ["its pane state and switch counts"]
            if change.wasCurrent { carried.insert("the current account", at: 0) }
            if change.historyEntries > 0 {
                carried.append("\(change.historyEntries) history entr\(change.historyEntries == 1 ? "y" : "ies")")
            }
            console.print("Carried over to \(shown(new)): " + carried.joined(separator: ", ") + ".")
        } catch {
            console.error("the config is renamed, but not the state (perch current, perch - and history): \(error)")
            return ExitStatus.unmet
        }
        renameInIdentityFiles(from: old, to: new)
        return ExitStatus.ok
    }

    /// Perch's own identity files name the account they were written for: the header of the git
    /// and ssh files (`for the account "work"`), and the `account`, `from` and `to` of the last
    /// switch's results and of the undo record. Only those places change, so a tool's value that
    /// happens to equal the id (a kube context "work") is left alone.
    func renameInIdentityFiles(from old: String, to new: String) {
        let files = PerchApp.identitySwitcher(paths, config: nil).files
        // Ids are a–z, 0–9, '.', '_' and '-': only the dot means something in a pattern.
        let pattern = old.replacing(".", with: "\\.")
        guard let keys = try? Regex(#"("(?:account|from|to|previous)"\s*:\s*)"\#(pattern)""#),
            let header = try? Regex(#"(the account \\?")\#(pattern)(\\?")"#)
        else { return }
        for path in files.all {
            guard let contents = try? FileSystem.readContents(path) else { continue }
            let text = String(decoding: contents.bytes, as: UTF8.self)
            let renamed = text.replacing(keys) { match in "\(match.output[1].substring ?? "")\"\(new)\"" }
                .replacing(header) { match in "\(match.output[1].substring ?? "")\(new)\(match.output[2].substring ?? "")" }
            if renamed != text { try? FileSystem.writeAtomically(Array(renamed.utf8), to: path, mode: mode_t(contents.mode)) }
        }
    }
}
