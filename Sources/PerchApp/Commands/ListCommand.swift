import Glibc
import PerchDomain
import PerchInterface
import PerchKit
import PerchStore

/// `perch list`: the accounts, the current one marked.
struct ListCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(name: "list", summary: "list the accounts, the current one marked with *")
    static let details: String =
        "Prints one account per line: id, name and handle, with a * before the current one\n"
        + "on a terminal and after it otherwise (so the first column is always the id).\n"
        + "--format ids prints the ids, one per line. --format tsv prints id, name, handle,\n"
        + "group, color and current (true or false), tab-separated, empty where there is none.\n"
        + "--json (--format json) prints [{\"id\", \"name\", \"handle\", \"group\", \"color\",\n"
        + "\"onSwitch\", \"current\", \"identities\"}, …], null where there is nothing; identities\n"
        + "holds the tools the account names, as in the config ({\"kube\": {\"context\": \"prod\"}})."

    var files = FileOptions()
    /// `--json`: the same as `--format json`.
    @Option(SharedOption.json) var json = false
    /// `--format F`; nil for the default text.
    @Option(
        .choice(
            "--format", valueName: "ids|tsv|json", help: "print ids only, tab-separated fields, or JSON")) var format: OutputFormat? = nil

    /// The format to print: `--format`, or JSON for `--json`; nil for text.
    var listFormat: OutputFormat? { format ?? (json ? .json : nil) }

    func validate() throws(UsageError) {
        if json, let format, format != .json {
            throw UsageError(description: "use either --json or --format \(format.rawValue), not both")
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.list(self) }
}

extension CommandLineTool {
    func list(_ options: ListCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        let current = state.currentAccount
        if let format = options.listFormat {
            return list(config.accounts, current: current, format: format)
        }
        // Piped (`perch list | fzf | awk '{print $1}'`), the first column must be the id.
        let markerFirst = isatty(STDOUT_FILENO) == 1
        let ids = config.accounts.map { shown($0.id) }
        let idWidths = ids.map(columns)
        let idWidth = idWidths.max() ?? 0
        var handles = config.accounts.map { $0.handle.map(shown) ?? "" }
        var names = config.accounts.map { shown($0.name) }
        // Bug: on a terminal, one very long name padded every row past the screen, each wrapping
        // over several lines. There, names and handles are cut with … to fit the width.
        if markerFirst, let width = Console.outputColumns() {
            let room = max(0, width - 2 - idWidth - 2)
            let handleRoom = min(handles.map(columns).max() ?? 0, max(0, room / 3))
            let nameRoom = max(8, room - (handleRoom > 0 ? handleRoom + 2 : 0))
            names = names.map { DisplayWidth.truncated($0, to: nameRoom) }
            handles = handles.map { DisplayWidth.truncated($0, to: handleRoom) }
        }
        let nameWidths = names.map(columns)
        let nameWidth = nameWidths.max() ?? 0
        var text = ""
        let handleWidth = markerFirst ? 0 : handles.map(columns).max() ?? 0
        for (index, account) in config.accounts.enumerated() {
            let isCurrent = account.id == current
            if markerFirst { text += isCurrent ? "* " : "  " }
            text += ids[index] + String(repeating: " ", count: idWidth - idWidths[index] + 2)
            if account.handle != nil || (isCurrent && !markerFirst) {
                text += names[index] + String(repeating: " ", count: nameWidth - nameWidths[index] + 2) + handles[index]
            } else {
                text += names[index]
            }
            if isCurrent, !markerFirst {
                text += String(repeating: " ", count: handleWidth - columns(handles[index]) + 2) + "*"
            }
            text += "\n"
        }
        console.write(text)
        if config.isSamples, console.outputFailure == nil, !console.outputClosed { console.error(Self.samplesNote) }
        return ExitStatus.ok
    }

    /// Said on standard error after the list in words (so that the list stays the same for a
    /// pipe; `--format` and `--json` say nothing) when the accounts are the embedded samples.
    static let samplesNote = "these are the embedded sample accounts: there is no config yet (`perch init` writes one to edit)"
}
