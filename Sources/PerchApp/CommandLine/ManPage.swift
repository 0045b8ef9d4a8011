import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// The manual page `perch.1`, in man(7) format, generated from the commands' declarations
/// (``Commands/all``) and the program's help, so it says what the parser accepts.
enum ManPage {
    /// The page's date, `YYYY-MM-DD` in UTC: from `SOURCE_DATE_EPOCH` (seconds, the
    /// reproducible-builds convention) when it is set, else the time the running binary was
    /// built (its modification time), so a page written by `make install` carries its build's date.
    static func buildDate(lookup: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String {
        var seconds: Int64?
        if let text = lookup("SOURCE_DATE_EPOCH"), let value = Int64(text), value >= 0 { seconds = value }
        if seconds == nil { seconds = FileSystem.executablePath().flatMap(FileStatus.of)?.modifiedSeconds }
        let civil = WallTime.civil(fromDays: (seconds ?? 0) / 86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(civil.year)-\(two(civil.month))-\(two(civil.day))"
    }

    /// The whole page.
    static var text: String {
        var page = [
            #".\" perch(1), written by `perch man-page` from the commands' declarations; do not edit."#,
            ".TH PERCH 1 \"\(buildDate())\" \"perch \(escaped(PerchApp.version))\" \"User Commands\"",
            ".SH NAME",
            "perch \\- a terminal account switcher",
            ".SH SYNOPSIS",
        ]
        for command in Commands.all {
            page.append(".SY perch")
            if !command.name.isEmpty { page.append(bold(command.name)) }
            let operands = command.operandText.trimmingSpaces
            if !operands.isEmpty { page.append(escaped(operands)) }
            for option in command.optionInfos where option != SharedOption.help {
                page.append(".OP " + escaped(option.name) + (option.valueName.map { " " + escaped($0) } ?? ""))
            }
            page.append(".YS")
        }
        page += [
            ".SH DESCRIPTION",
            "Perch shows which account you are signed in as and switches between accounts.",
            "With no command it starts the interface; a long press on the first tab, holding",
            bold("1") + ", or " + bold("a") + " opens the account sheet.",
            "The commands print for shells and scripts.",
            ".SH COMMANDS",
        ]
        for command in Commands.all where !command.name.isEmpty {
            page.append(".TP")
            page.append(
                bold("perch " + command.name) + (command.operandText.isEmpty ? "" : " " + escaped(command.operandText.trimmingSpaces)))
            page.append(escaped(capitalized(command.configuration.summary)) + ".")
            let details = command.details
            if !details.isEmpty {
                page.append(".IP")
                page += paragraph(details)
            }
        }
        page.append(".SH OPTIONS")
        for option in Commands.allOptions {
            let users = Commands.all.filter { $0.optionInfos.contains { $0.names == option.names } }
            let names = option.names.map(bold).joined(separator: ", ")
            page.append(".TP")
            page.append(names + (option.valueName.map { " " + italic($0) } ?? ""))
            let usedBy =
                option.common || option == SharedOption.help
                ? "" : " (" + users.map { $0.name.isEmpty ? "the interface" : "perch " + $0.name }.joined(separator: ", ") + ")"
            page.append(escaped(capitalized(option.summary)) + escaped(usedBy) + ".")
        }
        let help = Help.program
        if let keys = section(of: help, from: "Keys", to: "Environment:") {
            page += [".SH KEYS", "In the interface (" + bold("?") + " lists those of the screen you are on):", ".PP", ".nf"]
            page += keys.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            // Bug: the man page listed only the panes' and the account sheet's keys.
            page.append("")
            page += Help.layerKeyHelp.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            page.append(".fi")
        }
        page += [
            ".SH ENVIRONMENT",
            ".TP", bold("XDG_CONFIG_HOME") + ", " + bold("XDG_STATE_HOME"),
            "Where the config and the state are looked for (see FILES).",
            ".TP", bold("NO_COLOR"),
            "When set and not empty, the interface draws without colour.",
            ".TP", bold("VISUAL") + ", " + bold("EDITOR"),
            "The editor of " + bold("perch config edit") + " (else " + bold("vi") + ").",
            ".TP", bold("PERCH_TOOL_TIMEOUT_MS"),
            "How long one tool's program may run during a switch, in milliseconds (100 to 600000; default 10000).",
        ]
        page += [
            ".PP", "Variables that beat a tool's selection: " + bold("perch env") + " unsets them for an account that names the tool,",
        ]
        page += ["and " + bold("perch status") + " reports them when set:", ".PP", ".nf"]
        page += ToolAdapters.registry.flatMap { adapter in
            adapter.overrides.map { escaped("\(adapter.tool.rawValue): \($0.name)" + ($0.unsetByShell ? "" : " (reported only)")) }
        }
        page += [
            ".fi",
            ".SH SWITCHING",
            "A switch is all or nothing. Under the state lock Perch plans what each tool should have, writes a journal",
            "of each tool's state beside the state file (" + italic("state.journal.json") + "), applies and verifies every tool",
            "that must change (at once, each program with its own timeout), and only when all succeeded records the",
            "account and the history, then runs the hook. When a tool fails, every tool already changed is put back and",
            "the account is kept (exit status 3); " + bold("--keep-going") + " keeps a partial switch on purpose.",
            "A switch killed halfway is rolled back by the next " + bold("perch") + " command, which says so in a line",
            "with the word \\(lqinterrupted\\(rq, once the programs the killed Perch had started have ended (they hold",
            "a lock on the journal; a command waits for them at most 2 s, a switch as long as one program may run, and",
            "until then changes nothing).",
            ".PP",
            "The first time Perch changes a tool it records what the tool had (" + italic("state.baseline.json") + "): a switch",
            "to an account naming nothing for that tool gives it back (\\(lqgcloud: back to your own\\(rq), and " + bold("perch reset"),
            "gives every one back. " + bold("perch undo") + " returns to the account and tool states from before the last",
            "switch (" + italic("state.undo.json") + "); a second undo redoes.",
            ".PP",
            bold("perch setup git") + " puts Perch's include after your own " + bold("[user]") + " and before your " + bold("includeIf"),
            "rules, so your directory rules still win in their folders; " + bold("perch status") + " says, for the current",
            "folder, which file git's identity comes from. A run with another " + bold("--config") + " or " + bold("--state"),
            "keeps its own git and ssh files beside its state file, so it never changes the real identity.",
            ".SH SCOPES",
            bold("perch exec ID -- COMMAND") + " runs COMMAND with the account's whole identity in its environment and",
            "changes nothing global. Tool by tool, it carries " + scopeCarriers + "; and it sets " + bold("PERCH_ACCOUNT"),
            "and " + bold("PERCH_SCOPE") + "=exec. Then Perch becomes COMMAND (execve).",
            ".PP",
            "Through " + bold("perch shell-init") + ", " + bold("perch use ID") + " gives one shell the same scope until "
                + bold("perch use --global") + ";",
            "a shell that follows the global account picks up a switch made elsewhere at its next prompt (the hook",
            "compares file times and starts no process when nothing changed), and in a folder of an account's",
            bold("directories") + " it is that account's. git follows those folders with no hook, through the",
            bold("includeIf") + " rules Perch writes from the config. " + bold("PERCH_SCOPE") + " is pinned, directory or exec when",
            "the shell has its own account, unset when it follows. See " + italic("docs/scopes.md") + ".",
            ".SH FILES",
            ".TP", italic("$XDG_CONFIG_HOME/perch/accounts.json"),
            "The accounts (default " + italic("~/.config/perch/accounts.json") + "); written by Perch only when asked,",
            "keeping the previous one as " + italic("accounts.json.bak") + ".",
            ".TP", italic("$XDG_STATE_HOME/perch/state.json"),
            "The current account and the switch counts (default " + italic("~/.local/state/perch/state.json") + "),",
            "with the switch history beside it in " + italic("state.history.jsonl") + ".",
        ]
        if let status = section(of: help, from: "Exit status:", to: nil) {
            page += [".SH EXIT STATUS"] + paragraph(String(status.dropFirst("Exit status:".count)).trimmingSpaces)
        }
        page += [
            ".SH EXAMPLES",
            ".nf",
            escaped(#"PS1='[$(perch current \-\-field name 2>/dev/null)] \$ '"#).replacingAll("\\e\\-", with: "\\-"),
            escaped(#"kubectl --context "$(perch pick)" get pods"#),
            "perch \\-",
            "source <(perch completion bash)",
            ".fi",
            ".SH SEE ALSO",
            bold("ssh_config") + "(5), " + bold("git-config") + "(1)",
            ".PP",
            "The reference, page by page (the interface, the files, tool identities, hooks, performance): "
                + italic("/usr/share/doc/perch/docs/") + " when installed from the Debian package, " + italic("docs/") + " in the source.",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// Text made safe for roff: backslashes escaped, a leading `.` or `'` neutralised, `-` as `\-`.
    static func escaped(_ text: String) -> String {
        var result = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    private static func bold(_ text: String) -> String { "\\fB" + escaped(text) + "\\fR" }

    /// How a scope carries each tool of the registry, in its order (``ToolAdapter/scopeCarrier``):
    /// `tool: phrase`, joined with semicolons; a word in capitals (a variable's name) bold.
    static var scopeCarriers: String {
        ToolLists.adapters.compactMap { adapter in adapter.scopeCarrier.map { (adapter.tool.rawValue, $0) } }.map { tool, phrase in
            italic(tool) + ": "
                + phrase.split(separator: " ").map { word in
                    let name = word.prefix { $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
                    guard name.count >= 3, name.first.map({ ("A"..."Z").contains($0) }) == true else { return escaped(String(word)) }
                    return bold(String(name)) + escaped(String(word.dropFirst(name.count)))
                }.joined(separator: " ")
        }.joined(separator: "; ")
    }

    private static func italic(_ text: String) -> String { "\\fI" + escaped(text) + "\\fR" }

    private static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// Help text as roff: lines starting with two spaces (examples) kept as they are, the rest filled.
    private static func paragraph(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  ") {
                lines += [".nf", escaped(String(line)), ".fi"]
            } else {
                lines.append(escaped(String(line)))
            }
        }
        return lines
    }

    /// The lines of `text` from the one starting with `start` up to the one starting with `end`.
    private static func section(of text: String, from start: String, to end: String?) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.hasPrefix(start) }) else { return nil }
        let last = end.flatMap { end in lines[first...].firstIndex { $0.hasPrefix(end) } } ?? lines.endIndex
        let body = start == "Keys" ? lines[(first + 1)..<last] : lines[first..<last]
        return body.joined(separator: "\n").trimmingNewlines
    }
}

extension String {
    /// This text without leading and trailing newlines.
    var trimmingNewlines: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != "\n" }) else { return "" }
        return String(scalars[start...scalars.lastIndex(where: { $0 != "\n" })!])
    }

    /// This text without leading and trailing spaces and newlines.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\n" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\n" })!
        return String(scalars[start...end])
    }
}
