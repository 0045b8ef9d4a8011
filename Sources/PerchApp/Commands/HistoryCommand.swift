import PerchDomain
import PerchInterface
import PerchStore

/// `perch history`: the recorded switches, newest first.
struct HistoryCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(name: "history", summary: "print the recorded switches, newest first")
    static let details: String =
        "Prints `time  where  previous → account`, newest first (at most 10000 are kept);\n"
        + "where is `interface` (the account sheet) or `command line` (perch switch).\n"
        + "--json prints [{\"account\", \"previous\", \"time\", \"source\"}, …], source \"tui\" or \"cli\"."

    var files = FileOptions()
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--limit N`; nil for every entry kept.
    @Option(
        OptionDefinition<Int>(
            info: OptionInfo(names: ["--limit"], valueName: "N", help: "print at most N entries"),
            parse: { value throws(UsageError) in
                guard let number = Int(value), number >= 0 else {
                    throw UsageError(description: "option --limit needs a whole number of entries (0 or more), not '\(value)'")
                }
                return number
            })) var limit: Int? = nil

    func run(_ tool: CommandLineTool) -> Int32 { tool.history(self) }
}

extension CommandLineTool {
    // Bug: the text printed the machine words `tui` and `cli`, where Stats and the banner say
    // "another window" and "command line" (``SwitchSource/title``).
    func history(_ options: HistoryCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard loadState(config) != nil else { return ExitStatus.unmet }
        let entries: [SwitchRecord]
        do {
            entries = try StateStore(path: paths.state).history.read(limit: options.limit ?? SavedState.historyLimit).reversed()
        } catch {
            console.error("cannot read the history: \(error)")
            return ExitStatus.unmet
        }
        if options.json { return printJSON(entries) }
        if entries.isEmpty, options.limit != 0 {
            console.print("No switches recorded yet.")
            return ExitStatus.ok
        }
        for entry in entries {
            let from = entry.previous.map(shown) ?? "(none)"
            console.print("\(shown(entry.time))  \(entry.source.title.padded(toColumns: 13)) \(from) → \(shown(entry.account))")
        }
        return ExitStatus.ok
    }
}
