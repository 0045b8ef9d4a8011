import PerchDomain

/// The shells `perch env` and `perch shell-init` write for.
public enum ShellKind: String, CaseIterable, Hashable, Sendable {
    case bash, zsh, fish

    /// The shell named by a `$SHELL` path (`/usr/bin/fish` → fish), bash when unknown.
    public static func from(shellPath: String?) -> ShellKind {
        let name = shellPath.map { String($0.split(separator: "/").last ?? "") } ?? ""
        return ShellKind(rawValue: name) ?? .bash
    }
}

/// Shell text that sets an account's variables in one shell (`perch env`) and the function that
/// keeps a shell's variables in step with its own switches (`perch shell-init`).
public enum ShellExports {
    /// The variables that record what `perch env` (or the following hook) set last: the account,
    /// the names exported, and the value each was set to (``setVariable``).
    public static let accountVariable = "PERCH_ACCOUNT"
    public static let namesVariable = "PERCH_ENV_NAMES"
    /// What Perch last set each of `PERCH_ENV_NAMES` to, as a JSON object (`{"AWS_PROFILE":
    /// "home"}`); a name left out was last left unset by Perch. A variable whose value is no
    /// longer this one was changed since by someone else (direnv, the user) and is theirs: the
    /// following hook leaves it until it has this value again (``IdentityScope/following(_:over:)``).
    public static let setVariable = "PERCH_ENV_SET"

    /// What Perch last set in a shell, by name (``setVariable``); in a shell from before that
    /// record, each name of `PERCH_ENV_NAMES` with the value it has, as Perch's.
    public static func lastSet(_ environment: [String: String]) -> [String: String] {
        if let record = environment[setVariable].flatMap(IdentityScope.decode) { return record.compactMapValues { $0 } }
        var values: [String: String] = [:]
        for name in (environment[namesVariable] ?? "").split(separator: " ").map(String.init) { values[name] = environment[name] }
        return values
    }

    /// The variables a shell has from Perch now: those of ``lastSet(_:)`` that still have the value Perch set.
    public static func own(_ environment: [String: String]) -> [String: String] {
        lastSet(environment).filter { environment[$0.key] == $0.value }
    }

    /// `PERCH_ENV_NAMES` for `record` (``setVariable``): the names of `exports` first, in order,
    /// then the others, sorted; space-separated.
    static func names(_ record: [String: String], exports: [EnvironmentEntry]) -> String {
        let first = exports.map(\.name).filter { record[$0] != nil }
        return (first + record.keys.filter { !first.contains($0) }.sorted()).joined(separator: " ")
    }

    /// The commands that give a shell `account`'s variables (nil: none current): `unset` for the
    /// variables the previous `perch env` or following hook set that still have its value
    /// (``own(_:)``) and that this account does not set, then an export per variable, quoted for
    /// `shell`; then the record of what was set (`PERCH_ENV_NAMES`, ``setVariable``), which keeps
    /// the value Perch last set of a variable someone else changed since.
    ///
    /// The variables that beat a tool's selection (each adapter's ``ToolAdapter/overrides``,
    /// such as `AWS_DEFAULT_PROFILE` or `GH_TOKEN`) are unset when they are set in `environment`
    /// and the account names that tool, so the account's identity is the one used.
    public static func script(for account: Account?, shell: ShellKind, environment: [String: String]) -> String {
        let exports = account?.identities.exports ?? []
        let names = Set(exports.map(\.name))
        var record: [String: String] = [:]
        var removed: Set<String> = []
        var lines: [String] = []
        let last = lastSet(environment)
        // A shell from before the record: every name listed, as then.
        let listed = environment[setVariable] == nil ? (environment[namesVariable] ?? "").split(separator: " ").map(String.init) : []
        for name in Set(last.keys).union(listed).sorted() where !names.contains(name) {
            if let value = last[name], environment[name] != value {
                record[name] = value
            } else if EnvironmentEntry.isValidName(name) {
                lines.append(unset(name, shell))
                removed.insert(name)
            }
        }
        for name in competing(account, environment: environment) where !names.contains(name) && !removed.contains(name) {
            lines.append(unset(name, shell))
        }
        for entry in exports {
            lines.append(export(entry.name, entry.value, shell))
            record[entry.name] = entry.value
        }
        if let account {
            lines.append(export(accountVariable, account.id, shell))
        } else {
            lines.append(unset(accountVariable, shell))
        }
        if account != nil || !record.isEmpty {
            lines.append(export(namesVariable, self.names(record, exports: exports), shell))
            lines.append(export(setVariable, IdentityScope.encode(record.mapValues { $0 }), shell))
        } else {
            lines.append(unset(namesVariable, shell))
            lines.append(unset(setVariable, shell))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The variables set in `environment` that beat a selection of `account`'s, and that a
    /// shell's script unsets, in registry order.
    public static func competing(_ account: Account?, environment: [String: String]) -> [String] {
        guard let account else { return [] }
        return ToolAdapters.registry.filter { account.identities[$0.tool] != nil }.flatMap(\.overrides).filter {
            $0.unsetByShell && !(environment[$0.name] ?? "").isEmpty
        }.map(\.name)
    }

    /// The line that sets the environment variable `name` to `value` in `shell` (`export N='v'`,
    /// fish's `set -gx N 'v'`), the value quoted for that shell.
    public static func export(_ name: String, _ value: String, _ shell: ShellKind) -> String {
        switch shell {
        case .bash, .zsh: "export \(name)=\(posixQuoted(value))"
        case .fish: "set -gx \(name) \(fishQuoted(value))"
        }
    }

    /// The line that removes the environment variable `name` in `shell` (`unset N`, fish's `set -e N`).
    public static func unset(_ name: String, _ shell: ShellKind) -> String {
        switch shell {
        case .bash, .zsh: "unset \(name)"
        case .fish: "set -e \(name)"
        }
    }

    /// `value` in single quotes for bash and zsh, each `'` written as `'\''` (POSIX 2.2.2).
    public static func posixQuoted(_ value: String) -> String {
        "'" + value.replacing("'", with: #"'\''"#) + "'"
    }

    /// `value` in single quotes for fish, where `\` and `'` are escaped with `\` inside them.
    public static func fishQuoted(_ value: String) -> String {
        "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The text `perch shell-init SHELL` prints, to be `eval`ed (or `source`d, in fish) from the
    /// shell's startup file:
    /// - a `perch` function that evaluates `perch use`'s output (so `perch use ID` pins this
    ///   shell) and, after any other command, brings the shell up to date (`perch shell-hook`);
    /// - a prompt hook (bash `PROMPT_COMMAND`, zsh `precmd`, fish `fish_prompt`) that, before
    ///   each prompt, compares the state's and the config's modification times with this
    ///   shell's marker (`[[ A -nt B ]]`, a stat(2) each, no process) and matches the working
    ///   folder against the bound folders (a loop in the shell), and checks the variables
    ///   Perch left to someone else (`__perch_held`, a test in the shell): only when one of
    ///   them changed does it run `perch shell-hook`, which follows a switch made elsewhere, a pin, or a
    ///   bound folder. The first hook of a shell always runs it (a shell exec'd in place keeps
    ///   its process id, hence an up-to-date marker). It runs first, or right after direnv's
    ///   hook when the shell has one, so that it reads what direnv left.
    /// - Parameters:
    ///   - program: how to call the real program (`perch`, or a path).
    ///   - state, config: the files whose changes the hook watches.
    ///   - markers: the folder of the shells' markers (``IdentityFiles/shells``).
    public static func initScript(
        _ shell: ShellKind, program: String = "perch", state: String = "", config: String = "", markers: String = ""
    ) -> String {
        switch shell {
        case .bash, .zsh:
            let install =
                shell == .bash
                ? """
                if [[ ";${PROMPT_COMMAND[*]-};" != *";__perch_hook;"* ]]; then
                  PROMPT_COMMAND="__perch_hook${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
                fi
                """
                : """
                autoload -Uz add-zsh-hook
                add-zsh-hook precmd __perch_hook
                # First, before a theme's precmd that draws the prompt from this shell's variables.
                precmd_functions=(__perch_hook ${precmd_functions:#__perch_hook})
                """
            return """
                # Perch: this shell's account (perch use, bound folders) and the global one's switches.
                __perch_state=\(posixQuoted(state))
                __perch_config=\(posixQuoted(config))
                __perch_marker=\(posixQuoted(markers))/$$
                \(shell == .zsh ? "typeset -gA __perch_dirset" : "declare -gA __perch_dirset=()")
                # No place is '-': the first hook of every shell asks perch shell-hook, even when the
                # marker of this process id is up to date (a shell exec'd in place keeps its pid).
                __perch_dir=-
                __perch_remotes=
                __perch_repo=
                # The variables Perch left to someone else (direnv), as perch shell-hook redefines it.
                __perch_held() { return 0; }
                perch() {
                  local perch_status perch_text
                  if [[ ${1-} == use ]]; then
                    shift
                    perch_text=$(command \(program) use --shell \(shell.rawValue) "$@")
                    perch_status=$?
                    eval "$perch_text"
                    return $perch_status
                  fi
                  command \(program) "$@"
                  perch_status=$?
                  eval "$(command \(program) shell-hook \(shell.rawValue) $$)"
                  return $perch_status
                }
                __perch_hook() {
                  local perch_status=$? perch_match= perch_folder perch_repo= perch_rest perch_first=__perch_hook
                  # Stay first, before a theme's hook added later that draws the prompt from this
                  # shell's variables (so the first prompt after a switch is never stale); only
                  # direnv's hook comes before, so that Perch reads what direnv left (docs/scopes.md).
                  if [[ -n ${ZSH_VERSION-} ]]; then
                    if (( ${precmd_functions[(I)_direnv_hook]} )); then
                      [[ ${precmd_functions[1]-} == _direnv_hook && ${precmd_functions[2]-} == __perch_hook ]] ||
                        precmd_functions=(_direnv_hook __perch_hook ${${precmd_functions:#__perch_hook}:#_direnv_hook})
                    else
                      [[ ${precmd_functions[1]-} == __perch_hook ]] || precmd_functions=(__perch_hook ${precmd_functions:#__perch_hook})
                    fi
                  elif [[ -n ${bash_preexec_imported-}${__bp_imported-} ]]; then
                    # bash-preexec owns PROMPT_COMMAND (its own first and last, the rest joined by line
                    # breaks) and runs precmd_functions: the hook lives there, once and first, and
                    # not in PROMPT_COMMAND, where a copy a prompt piled up (3.7 s a prompt after 27).
                    perch_rest=$'(^|[;\n])[ \t]*__perch_hook[ \t]*(;|\n|$)'
                    while [[ ${PROMPT_COMMAND-} =~ $perch_rest ]]; do
                      PROMPT_COMMAND=${PROMPT_COMMAND/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}"}
                    done
                    if [[ ${precmd_functions[0]-} != __perch_hook ]]; then
                      perch_rest=()
                      for perch_folder in "${precmd_functions[@]}"; do [[ $perch_folder == __perch_hook ]] || perch_rest+=("$perch_folder"); done
                      precmd_functions=(__perch_hook "${perch_rest[@]}")
                    fi
                    perch_rest=
                  else
                    [[ ";${PROMPT_COMMAND-};" == *";_direnv_hook;"* ]] && perch_first="_direnv_hook;__perch_hook"
                    if [[ "${PROMPT_COMMAND-}" != "$perch_first" && "${PROMPT_COMMAND-}" != "$perch_first;"* ]]; then
                      # Line breaks separate commands too (another tool may join them so).
                      perch_rest=";${PROMPT_COMMAND-};"
                      perch_rest=${perch_rest//$'\n'/;}
                      perch_rest=${perch_rest//;__perch_hook;/;}
                      perch_rest=${perch_rest//;__perch_hook;/;}
                      perch_rest=${perch_rest//;_direnv_hook;/;}
                      perch_rest=${perch_rest#;}
                      PROMPT_COMMAND="$perch_first${perch_rest:+;${perch_rest%;}}"
                    fi
                  fi
                  if [[ ${PERCH_SCOPE-} != pinned && ${PERCH_SCOPE-} != exec ]]; then
                    # The deepest bound folder holding $PWD: its folders up from $PWD, each looked up in
                    # the set (as many lookups as $PWD is deep, whatever the number of bound folders).
                    perch_folder=$PWD
                    while [[ -n $perch_folder ]]; do
                      if [[ -n ${__perch_dirset[$perch_folder]+x} ]]; then perch_match=$perch_folder; break; fi
                      perch_folder=${perch_folder%/*}
                    done
                    if [[ -n $__perch_remotes ]]; then
                      perch_repo=$PWD
                      while [[ -n $perch_repo && ! -e $perch_repo/.git ]]; do perch_repo=${perch_repo%/*}; done
                    fi
                  fi
                  if [[ $perch_match != "$__perch_dir" || $perch_repo != "$__perch_repo" || ! -e $__perch_marker || $__perch_state -nt $__perch_marker || $__perch_config -nt $__perch_marker ]] || ! __perch_held; then
                    __perch_dir=$perch_match
                    __perch_repo=$perch_repo
                    eval "$(command \(program) shell-hook \(shell.rawValue) $$)"
                  fi
                  return $perch_status
                }
                \(install)
                __perch_hook

                """
        case .fish:
            return """
                # Perch: this shell's account (perch use, bound folders) and the global one's switches.
                set -g __perch_state \(fishQuoted(state))
                set -g __perch_config \(fishQuoted(config))
                set -g __perch_marker \(fishQuoted(markers))/$fish_pid
                # No place is '-': the first hook of every shell asks perch shell-hook, even when the
                # marker of this process id is up to date (a shell exec'd in place keeps its pid).
                set -g __perch_dir -
                set -g __perch_remotes ''
                set -g __perch_repo ''
                # The variables Perch left to someone else (direnv), as perch shell-hook redefines it.
                function __perch_held; return 0; end
                function perch --wraps \(program) --description 'Perch account switcher'
                    set -l perch_status 0
                    if test "$argv[1]" = use
                        set -l perch_text (command \(program) use --shell fish $argv[2..-1])
                        set perch_status $status
                        string join \\n -- $perch_text | source
                        return $perch_status
                    end
                    command \(program) $argv
                    set perch_status $status
                    command \(program) shell-hook fish $fish_pid | source
                    return $perch_status
                end
                function __perch_prompt --on-event fish_prompt
                    __perch_hook
                end
                function __perch_hook
                    # After direnv's prompt handler, so that Perch reads what direnv left
                    # (docs/scopes.md): a handler defined again runs after those defined before it.
                    if not set -q __perch_after_direnv; and functions -q __direnv_export_eval
                        set -g __perch_after_direnv 1
                        function __perch_prompt --on-event fish_prompt
                            __perch_hook
                        end
                    end
                    set -l perch_match ''
                    set -l perch_repo ''
                    if not contains -- "$PERCH_SCOPE" pinned exec
                        # The deepest bound folder holding $PWD, as in bash: each folder up from $PWD is
                        # looked up as a variable of the set (string escape names it).
                        set -l perch_folder $PWD
                        while test -n "$perch_folder"
                            if set -q __perch_d_(string escape --style=var -- $perch_folder)
                                set perch_match $perch_folder
                                break
                            end
                            set perch_folder (string replace -r '/[^/]*$' '' -- $perch_folder)
                        end
                        if test -n "$__perch_remotes"
                            set perch_repo $PWD
                            while test -n "$perch_repo"; and not test -e "$perch_repo/.git"
                                set perch_repo (string replace -r '/[^/]*$' '' -- $perch_repo)
                            end
                        end
                    end
                    if test "$perch_match" != "$__perch_dir"; or test "$perch_repo" != "$__perch_repo"; or not test -e $__perch_marker; or test $__perch_state -nt $__perch_marker; or test $__perch_config -nt $__perch_marker; or not __perch_held
                        set -g __perch_dir $perch_match
                        set -g __perch_repo $perch_repo
                        command \(program) shell-hook fish $fish_pid | source
                    end
                end
                __perch_hook

                """
        }
    }
}
