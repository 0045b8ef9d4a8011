import PerchCore

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
    /// The variables that record what `perch env` set last: the account, and the names exported.
    public static let accountVariable = "PERCH_ACCOUNT"
    public static let namesVariable = "PERCH_ENV_NAMES"

    /// The commands that give a shell `account`'s variables (nil: none current): `unset` for the
    /// names the previous `perch env` exported (read from `PERCH_ENV_NAMES` in `environment`)
    /// that this account does not set, then an export per variable, quoted for `shell`.
    ///
    /// The variables that beat a tool's selection (each adapter's ``ToolAdapter/overrides``,
    /// such as `AWS_DEFAULT_PROFILE` or `GH_TOKEN`) are unset when they are set in `environment`
    /// and the account names that tool, so the account's identity is the one used.
    public static func script(for account: Account?, shell: ShellKind, environment: [String: String]) -> String {
        let exports = account?.identities.exports ?? []
        let previous = (environment[namesVariable] ?? "").split(separator: " ").map(String.init)
        let names = Set(exports.map(\.name))
        var lines: [String] = []
        for name in previous where !names.contains(name) && EnvironmentEntry.isValidName(name) {
            lines.append(unset(name, shell))
        }
        for name in competing(account, environment: environment) where !names.contains(name) && !previous.contains(name) {
            lines.append(unset(name, shell))
        }
        for entry in exports { lines.append(export(entry.name, entry.value, shell)) }
        if let account {
            lines.append(export(accountVariable, account.id, shell))
            lines.append(export(namesVariable, exports.map(\.name).joined(separator: " "), shell))
        } else {
            lines.append(unset(accountVariable, shell))
            lines.append(unset(namesVariable, shell))
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

    static func export(_ name: String, _ value: String, _ shell: ShellKind) -> String {
        switch shell {
        case .bash, .zsh: "export \(name)=\(posixQuoted(value))"
        case .fish: "set -gx \(name) \(fishQuoted(value))"
        }
    }

    static func unset(_ name: String, _ shell: ShellKind) -> String {
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

    /// The function `perch shell-init SHELL` prints, to be `eval`ed (or `source`d, in fish) from
    /// the shell's rc file. It wraps `perch`: after each run it applies `perch env` to this shell,
    /// so `perch switch`, `perch -` and a pick in the interface started from it update its
    /// variables; other shells keep theirs until they run `perch env` or switch themselves.
    /// - Parameter program: how to call the real program (`command perch`, or a path).
    public static func initScript(_ shell: ShellKind, program: String = "perch") -> String {
        switch shell {
        case .bash, .zsh:
            return """
                # Perch: keep this shell's account variables in step with its switches.
                perch() {
                  local perch_status
                  command \(program) "$@"
                  perch_status=$?
                  eval "$(command \(program) env --shell \(shell.rawValue) 2>/dev/null)"
                  return $perch_status
                }
                eval "$(command \(program) env --shell \(shell.rawValue) 2>/dev/null)"

                """
        case .fish:
            return """
                # Perch: keep this shell's account variables in step with its switches.
                function perch --wraps \(program) --description 'Perch account switcher'
                    command \(program) $argv
                    set -l perch_status $status
                    command \(program) env --shell fish 2>/dev/null | source
                    return $perch_status
                end
                command \(program) env --shell fish 2>/dev/null | source

                """
        }
    }
}
