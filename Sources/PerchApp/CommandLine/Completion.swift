import PerchDomain
import PerchIdentities
import PerchInterface

/// Completion scripts for bash, zsh and fish, generated from the commands' declarations
/// (``Commands/all``) that the parser and `--help` read, so they offer exactly what is accepted.
///
/// Account ids and names are not in the script: it asks `perch list --format tsv` for them at
/// completion time (passing on a `--config` already typed), so they follow the config in use.
enum Completion {
    /// The script for `shell`.
    static func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// The commands completed first: their first words, `-` included (`perch -`).
    static var commandWords: [String] {
        var words: [String] = []
        for command in Commands.all where !command.name.isEmpty {
            let first = String(command.name.split(separator: " ").first ?? "")
            if !words.contains(first) { words.append(first) }
        }
        return words + ["help", "-"]
    }

    /// Subcommands of the group `group` (``CommandGroup``): `path`, `check`, `edit` of `config`.
    static func groupWords(_ group: CommandGroup) -> [String] { group.memberNames }

    /// Whether `command` belongs to a group (its name is two words: `config path`, `registry add`).
    static func isGroupMember(_ command: any PerchCommand.Type) -> Bool {
        CommandGroup.all.contains { command.name.hasPrefix($0.name + " ") }
    }

    /// A shell test that `$command` (`$word` in fish) names a group: `[[ $command == config || … ]]`.
    private static var groupTest: String { CommandGroup.all.map { "$command == \($0.name)" }.joined(separator: " || ") }

    /// Every spelling of the options `command` takes.
    static func optionWords(_ command: any PerchCommand.Type) -> [String] {
        command.optionInfos.flatMap(\.names)
    }

    /// The fixed values of an option's value (``OptionInfo/completion``), or nil when it takes
    /// free text or a file.
    static func values(of option: OptionInfo) -> [String]? { words(for: option.completion) }

    /// The words a shell offers for `kind`, or nil when it offers none or files.
    static func words(for kind: CompletionKind) -> [String]? {
        switch kind {
        case .values(let values): values
        case .fieldPath: fieldPaths
        case .accountField: ToolLists.currentFields
        case .describedTool: ToolLists.describedNames
        case .none, .file, .account: nil
        }
    }

    /// Every operand with something to complete, from the command records: its command, its
    /// place among the operands, and its kind.
    static var operandCompletions: [(command: any PerchCommand.Type, index: Int, kind: CompletionKind)] {
        Commands.all.flatMap { command in
            command.configuration.operands.enumerated().compactMap { index, operand in
                operand.completion == .none ? nil : (command, index, operand.completion)
            }
        }
    }

    /// The operand cases of bash's script: one per command, one branch per operand.
    private static var bashOperandCases: String {
        operandCases { kind in
            switch kind {
            case .account: "_perch_accounts"
            case .values, .fieldPath, .accountField, .describedTool:
                "COMPREPLY=($(compgen -W \"\((words(for: kind) ?? []).joined(separator: " "))\" -- \"$cur\"))"
            case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .none: ":"
            }
        }
    }

    /// The operand cases of zsh's script.
    private static var zshOperandCases: String {
        operandCases { kind in
            switch kind {
            case .account: "_perch_accounts"
            case .values, .fieldPath, .accountField, .describedTool: "compadd -- \((words(for: kind) ?? []).joined(separator: " "))"
            case .file: "_files"
            case .none: ":"
            }
        }
    }

    /// `"CMD") case $operands in N) ACTION ;; … esac ;;`, one line per command with operands,
    /// the same `case` syntax in bash and zsh; `action` is the shell's completion of one kind.
    private static func operandCases(_ action: (CompletionKind) -> String) -> String {
        commandsWithOperands.map { command, kinds in
            let branches = kinds.map { index, kind in "\(index)) \(action(kind)) ;;" }
            return "    \"\(command.name)\") case $operands in \(branches.joined(separator: " ")) esac ;;"
        }.joined(separator: "\n")
    }

    /// The commands with an operand to complete, each with its (index, kind) pairs.
    private static var commandsWithOperands: [(any PerchCommand.Type, [(Int, CompletionKind)])] {
        var result: [(any PerchCommand.Type, [(Int, CompletionKind)])] = []
        for (command, index, kind) in operandCompletions {
            if let last = result.indices.last, result[last].0.name == command.name {
                result[last].1.append((index, kind))
            } else {
                result.append((command, [(index, kind)]))
            }
        }
        return result
    }

    /// The field paths `perch set ID PATH` and `perch unset ID PATH` complete (``ToolLists/setPaths``).
    static var fieldPaths: [String] { ToolLists.setPaths }

    /// What completion says of a group: `the config file (path, check, edit)`.
    private static func groupSummary(_ group: CommandGroup) -> String {
        group.summary + " (" + group.memberNames.joined(separator: ", ") + ")"
    }

    /// Options taking a value.
    static var valued: [OptionInfo] { Commands.allOptions.filter { $0.valueName != nil } }

    // MARK: - bash

    static var bash: String {
        let optionCases = Commands.all.map { command in
            "        \(bashWord(command)) options=\"\(optionWords(command).joined(separator: " "))\" ;;"
        }.joined(separator: "\n")
        let valueCases = valued.map { option in
            let names = option.names.joined(separator: "|")
            if option.completion == .file {
                return "        \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"
            }
            if let values = values(of: option) {
                return "        \(names)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return ;;"
            }
            return "        \(names)) return ;;"
        }.joined(separator: "\n")
        let valuedNames = valued.flatMap(\.names).joined(separator: "|")
        return """
            # bash completion for perch (written by `perch completion bash`; load it with
            # `source <(perch completion bash)` or install it as .../bash-completion/completions/perch)
            _perch() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                local command="" operands=0 word i
                local -a config=()
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                    \(valuedNames))
                        [[ $word == --config ]] && config=(--config "${COMP_WORDS[i+1]}")
                        ((i++)) ;;
                    --config=*) config=(--config "${word#--config=}") ;;
                    -?*) ;;
                    *)
                        if [[ -z $command || $command == help ]]; then command=$word
                        elif [[ \(groupTest) ]]; then command="$command $word"
                        else ((operands++)); fi ;;
                    esac
                done
                case $prev in
            \(valueCases)
                esac
                local options=""
                case $command in
            \(optionCases)
                esac
                if [[ $cur == -?* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                    return
                fi
                case $command in
                ""|help) COMPREPLY=($(compgen -W "\(commandWords.joined(separator: " "))" -- "$cur")) ;;
            \(CommandGroup.all.map { "    \($0.name)) COMPREPLY=($(compgen -W \"\(groupWords($0).joined(separator: " "))\" -- \"$cur\")) ;;" }.joined(separator: "\n"))
            \(bashOperandCases)
                esac
            }
            # Account ids and names of the config in use, for the word being completed.
            _perch_accounts() {
                local program=${COMP_WORDS[0]/#\\~/$HOME} plain=${cur//\\\\/} id name rest quote=""
                # A word begun with a quote is completed inside that quote; otherwise with backslashes.
                [[ $cur == [\\"\\']* ]] && quote=${cur:0:1}
                plain=${plain#[\\"\\']}
                COMPREPLY=()
                while IFS=$'\\t' read -r id name rest; do
                    [[ $id == -* ]] && continue  # an id that reads as an option is never offered
                    [[ $id == "$plain"* ]] && COMPREPLY+=("$quote$id$quote")
                    if [[ $name != "$id" && $name == "$plain"* ]]; then COMPREPLY+=("$(_perch_quote "$name" "$quote")"); fi
                done < <(command "$program" "${config[@]}" list --format tsv 2>/dev/null)
            }
            # A name as the word being completed holds it: inside the quote the word began with
            # (in double quotes \\ $ ` and " escaped, a ! outside them, as history expansion reads it
            # inside; in single quotes a ' closed and reopened),
            # else with backslashes (printf %q), so that a name is never run as code on Enter.
            _perch_quote() {
                local text=$1 q="'" b='\\' d='"' s='$' t='`'
                case $2 in
                "'") text=${text//$q/$q$b$q$q}; printf '%s' "$q$text$q" ;;
                '"') text=${text//"$b"/$b$b}; text=${text//"$s"/$b$s}; text=${text//"$t"/$b$t}; text=${text//"$d"/$b$d}; text=${text//!/$d$b!$d}; printf '%s' "$d$text$d" ;;
                *) printf '%q' "$text" ;;
                esac
            }
            complete -F _perch perch

            """
    }

    /// The `case` pattern of `command` in the bash script.
    private static func bashWord(_ command: any PerchCommand.Type) -> String {
        command.name.isEmpty ? "\"\"|help)" : "\"\(command.name)\")"
    }

    // MARK: - zsh

    static var zsh: String {
        let optionCases = Commands.all.map { command in
            "        \(bashWord(command)) options=(\(optionWords(command).joined(separator: " "))) ;;"
        }.joined(separator: "\n")
        let valueCases = valued.map { option in
            let names = option.names.joined(separator: "|")
            if option.completion == .file { return "        \(names)) _files; return ;;" }
            if let values = values(of: option) { return "        \(names)) compadd -- \(values.joined(separator: " ")); return ;;" }
            return "        \(names)) return ;;"
        }.joined(separator: "\n")
        let valuedNames = valued.flatMap(\.names).joined(separator: "|")
        let commandLines =
            Commands.all.filter { !$0.name.isEmpty && !isGroupMember($0) }.map {
                "        '\($0.name):\(zshQuoted($0.configuration.summary))'"
            } + CommandGroup.all.map { "        '\($0.name):\(zshQuoted(groupSummary($0)))'" } + [
                "        'help:show the help of a command'", "        '-:switch to the previous account'",
            ]
        let groupCases = CommandGroup.all.map { group in
            let lines = group.members.map {
                "        '\($0.name.dropFirst(group.name.count + 1)):\(zshQuoted($0.configuration.summary))'"
            }
            return "    \(group.name))\n        local -a subcommands=(\n" + lines.joined(separator: "\n")
                + "\n        )\n        _describe -t commands 'perch \(group.name) command' subcommands ;;"
        }.joined(separator: "\n")
        return """
            #compdef perch
            # zsh completion for perch (written by `perch completion zsh`; load it with
            # `source <(perch completion zsh)` after compinit, or install it as _perch in $fpath)
            _perch() {
                local cur=${words[CURRENT]} prev=${words[CURRENT-1]} command="" word i operands=0
                local -a config options
                for ((i = 2; i < CURRENT; i++)); do
                    word=${words[i]}
                    case $word in
                    \(valuedNames))
                        [[ $word == --config ]] && config=(--config "${words[i+1]}")
                        ((i++)) ;;
                    --config=*) config=(--config "${word#--config=}") ;;
                    -?*) ;;
                    *)
                        if [[ -z $command || $command == help ]]; then command=$word
                        elif [[ \(groupTest) ]]; then command="$command $word"
                        else ((operands++)); fi ;;
                    esac
                done
                case $prev in
            \(valueCases)
                esac
                case $command in
            \(optionCases)
                esac
                if [[ $cur == -?* ]]; then
                    compadd -- $options
                    return
                fi
                case $command in
                ""|help)
                    local -a commands=(
            \(commandLines.joined(separator: "\n"))
                    )
                    _describe -t commands 'perch command' commands ;;
            \(groupCases)
            \(zshOperandCases)
                esac
            }
            # Account ids and names of the config in use.
            _perch_accounts() {
                local -a accounts
                local id name rest
                while IFS=$'\\t' read -r id name rest; do
                    [[ $id == -* ]] && continue
                    accounts+=("$id")
                    [[ $name != "$id" ]] && accounts+=("$name")
                done < <(command ${~words[1]} "${config[@]}" list --format tsv 2>/dev/null)
                compadd -- "${accounts[@]}"
            }
            if [[ $zsh_eval_context[-1] == loadautoload ]]; then
                _perch "$@"
            else
                compdef _perch perch
            fi

            """
    }

    private static func zshQuoted(_ text: String) -> String {
        text.replacingAll("'", with: "'\\''").replacingAll(":", with: "\\:")
    }

    // MARK: - fish

    static var fish: String {
        var lines = [
            "# fish completion for perch (written by `perch completion fish`; load it with",
            "# `perch completion fish | source`, or install it as .../fish/vendor_completions.d/perch.fish)",
            "function __perch_command",
            "    set -l words (commandline -opc)",
            "    set -l command",
            "    set -l skip 0",
            "    for word in $words[2..-1]",
            "        if test $skip = 1; set skip 0; continue; end",
            "        switch $word",
            "            case \(valued.flatMap(\.names).joined(separator: " "))",
            "                set skip 1",
            "            case '-?*'",
            "            case '*'",
            "                if test -z \"$command\"; or test \"$command\" = help",
            "                    set command $word",
            "                else if contains -- \"$command\" \(CommandGroup.all.map(\.name).joined(separator: " "))",
            "                    set command \"$command $word\"",
            "                else",
            "                    set command \"$command +\"",
            "                end",
            "        end",
            "    end",
            "    echo $command",
            "end",
            "function __perch_accounts",
            "    set -l words (commandline -opc)",
            "    set -l config",
            "    set -l index (contains -i -- --config $words)",
            "    and set config --config $words[(math $index + 1)]",
            "    command $words[1] $config list --format tsv 2>/dev/null | while read -l -d \\t id name rest",
            "        string match -q -- '-*' $id; and continue",
            "        printf '%s\\t%s\\n' $id $name",
            "        test \"$name\" != \"$id\"; and printf '%s\\t%s\\n' $name $id",
            "    end",
            "end",
            "complete -c perch -f",
        ]
        let top = "'contains -- (__perch_command) \"\" help'"
        for command in Commands.all where !command.name.isEmpty && !isGroupMember(command) {
            lines.append("complete -c perch -n \(top) -a \(command.name) -d \(fishQuoted(command.configuration.summary))")
        }
        for group in CommandGroup.all {
            lines.append("complete -c perch -n \(top) -a \(group.name) -d \(fishQuoted(groupSummary(group)))")
        }
        lines.append("complete -c perch -n \(top) -a - -d 'switch to the previous account'")
        for group in CommandGroup.all {
            for command in group.members {
                let word = command.name.dropFirst(group.name.count + 1)
                lines.append(
                    "complete -c perch -n 'test (__perch_command) = \(group.name)' -a \(word) -d \(fishQuoted(command.configuration.summary))"
                )
            }
        }
        for (command, index, kind) in operandCompletions {
            let typed = ([command.name] + Array(repeating: "+", count: index)).joined(separator: " ")
            let condition = "'test (__perch_command) = \"\(typed)\"'"
            switch kind {
            case .account: lines.append("complete -c perch -n \(condition) -a '(__perch_accounts)'")
            case .values, .fieldPath, .accountField, .describedTool:
                lines.append("complete -c perch -n \(condition) -a '\((words(for: kind) ?? []).joined(separator: " "))'")
            case .file: lines.append("complete -c perch -n \(condition) -F")
            case .none: break
            }
        }
        for command in Commands.all {
            let condition = command.name.isEmpty ? top : "'test (__perch_command) = \"\(command.name)\"'"
            for option in command.optionInfos {
                var line = "complete -c perch -n \(condition)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst(1))"
                }
                if option.completion == .file {
                    line += " -r -F"
                } else if let values = values(of: option) {
                    line += " -x -a '\(values.joined(separator: " "))'"
                } else if option.valueName != nil {
                    line += " -x"
                }
                lines.append(line + " -d \(fishQuoted(option.summary))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}

extension String {
    /// This text with every `target` replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        replacing(target, with: replacement)
    }
}
