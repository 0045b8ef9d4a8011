import PerchDomain
import PerchInterface
import PerchKit

/// `perch --help`, `perch COMMAND --help` and the usage lines of messages, written from the
/// commands' declarations (``PerchCommand``), so they say what the parser accepts.
enum Help {
    /// Options that work but are not for users, left out of help and usage lines (the man page
    /// and docs/performance.md name them): `--exit-after-first-frame` measures start-up.
    // Bug: `--exit-after-first-frame` was listed for users.
    static let unlisted: Set<String> = ["--exit-after-first-frame"]

    /// `type`'s options as help lists them (without ``unlisted``).
    static func listed(_ type: any PerchCommand.Type) -> [OptionInfo] { type.optionInfos.filter { !unlisted.contains($0.name) } }

    /// The usage line of `type`.
    static func usage(of type: any PerchCommand.Type) -> String {
        let infos = listed(type).filter { $0 != SharedOption.help }
        // A required option is shown first and without brackets (bug: `perch add [--name NAME]`).
        let options = (infos.filter(\.required) + infos.filter { !$0.required }).map { option in
            let text = option.name + (option.valueName.map { " " + $0 } ?? "")
            return option.required ? text : "[" + text + "]"
        }
        let operands = type.configuration.operands.filter { !$0.hidden }.map { operand in
            " " + (operand.optional && !operand.shownRequired ? "[\(operand.name)]" : operand.name)
        }
        // A trailing command comes last: what follows `--` is the command's own.
        let trailing = type.configuration.trailingCommand ? CommandConfiguration.trailingText : ""
        let words = (type.name.isEmpty ? "" : " " + type.name) + operands.joined()
        return "usage: perch\(words) " + (options + ["[--help]"]).joined(separator: " ") + trailing
    }

    /// The usage line of a group: its members' words, and the options of its first member.
    static func usage(of group: CommandGroup) -> String {
        let first = group.members.first!
        let options = first.optionInfos.filter { $0 != SharedOption.help }.map {
            "[" + $0.name + ($0.valueName.map { " " + $0 } ?? "") + "]"
        }
        return "usage: perch \(group.name) " + group.memberNames.joined(separator: "|") + " "
            + (options + ["[--help]"]).joined(separator: " ")
    }

    /// The full help text of `type`: the program's overview for the interface.
    static func text(of type: any PerchCommand.Type) -> String {
        let optionLines = listed(type).map(\.helpLine).joined(separator: "\n")
        guard type.name.isEmpty else {
            let configuration = type.configuration
            let sections = [
                "perch \(configuration.name): \(configuration.summary).", usage(of: type), type.details, "Options:\n" + optionLines,
            ]
            return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
        // Bug: a usage wider than the column (exec's) pushed its summary out of line; it goes on the next line.
        let commands = Commands.all.dropFirst().map { command in
            let words = "  " + command.name + command.operandText
            return DisplayWidth.columns(of: words) < 26
                ? words.padded(toColumns: 26) + command.configuration.summary
                : words + "\n" + "".padded(toColumns: 26) + command.configuration.summary
        }
        return """
            perch: a terminal account switcher.

            \(usage(of: type))
                   perch COMMAND [OPTIONS]     (perch COMMAND --help for its options)

            Commands:
            \(commands.joined(separator: "\n"))

            Options:
            \(optionLines)

            \(keyHelp)

            Environment: NO_COLOR (non-empty) draws without colour; VISUAL, EDITOR for config edit.
            Exit status: 0 fine; 1 a request that cannot be met (unknown account, no current
            account, config exists) or a tool that drifted (perch status); 2 bad usage, bad
            config or no usable terminal; 3 a tool failed (the switch is not saved: every tool
            it changed is put back; --keep-going saves it without that tool), the onSwitch
            hook of a saved switch failed, perch verify found a tool that disagrees, perch
            audit found a finding, or the guard refused a commit or push; 128 + N ended by
            signal N, terminal restored.
            """
    }

    /// The help of a group asked for without a member (`perch help config`).
    static func text(of group: CommandGroup) -> String {
        let lines = group.members.map { "  " + $0.name.padded(toColumns: 24) + $0.configuration.summary }
        return "perch \(group.name): \(group.summary).\n\n\(usage(of: group))\n\n" + lines.joined(separator: "\n")
    }

    /// The program's help.
    static var program: String { text(of: InterfaceCommand.self) }

    /// The Keys section of `perch --help`, made from the interface's own key tables
    /// (``PerchKeys``: those it routes keys by and `?` lists), so the two cannot disagree: the
    /// keys every pane has, then each pane's own under its tab's name, then those the account
    /// sheet adds.
    // Bug: the panes' keys were one list, so "Enter  open the item full-screen" or "← h  previous
    // value" named no pane they work on.
    static var keyHelp: String {
        func row(_ row: PerchKeys.Row) -> String { "  " + row.label.padded(toColumns: 23) + row.help }
        var sections = [
            "Keys (? lists those of the screen you are on), on every tab:\n" + PerchKeys.everywhere.map(row).joined(separator: "\n")
        ]
        for tab in Tab.allCases {
            let own = PerchKeys.pane(tab)
            if !own.isEmpty { sections.append("On \(tab.title):\n" + own.map(row).joined(separator: "\n")) }
        }
        // Bug: the sheet's keys and the filter's were one list, with Esc and the arrows twice.
        // The sheet's, then what differs once a filter is typed.
        sections.append("In the account sheet:\n" + PerchKeys.sheet.map(row).joined(separator: "\n"))
        let filtering = PerchKeys.sheetFilter.filter { binding in
            !PerchKeys.sheet.contains { $0.label == binding.label && $0.help == binding.help }
        }
        if !filtering.isEmpty { sections.append("While a filter is typed in the sheet:\n" + filtering.map(row).joined(separator: "\n")) }
        // Bug: the Catalog's menu, its cover, the Delete alert and the Add account form had keys
        // listed only by `?` and the man page.
        for layer in PerchKeys.layers where layer.title != HelpLayer.keyTable.title {
            sections.append("\(layer.title):\n" + layer.rows.map(row).joined(separator: "\n"))
        }
        sections.append("Over the sheet and every other layer:\n" + PerchKeys.overLayers.map(row).joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }

    /// The keys of every other layer (``PerchKeys/layers``), each under its title, for the man
    /// page: the keys each adds to those that work over every layer.
    static var layerKeyHelp: String {
        PerchKeys.layers.map { layer in
            "\(layer.title):\n" + layer.rows.map { "  " + $0.label.padded(toColumns: 23) + $0.help }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}

extension String {
    /// This text followed by spaces up to `columns` display columns (``DisplayWidth``), or by one
    /// space when it is that wide already (never cut). Not Foundation's `padding(toLength:…)`,
    /// which counts characters and cuts.
    func padded(toColumns columns: Int) -> String {
        let width = DisplayWidth.columns(of: self)
        return width >= columns ? self + " " : self + String(repeating: " ", count: columns - width)
    }

    /// This text filled into lines of at most `columns` display columns, broken at spaces; a
    /// newline in it is kept.
    func wrapped(toColumns columns: Int) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if !line.isEmpty, DisplayWidth.columns(of: candidate) > columns {
                    lines.append(line)
                    line = String(word)
                } else {
                    line = candidate
                }
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
