import Glibc
import PerchDomain
import PerchStore

/// The guard against a commit or push as the wrong account: git hooks (githooks(5),
/// `pre-commit` and `pre-push`) in Perch's own folder (``IdentityFiles/gitHooks``), made git's
/// `core.hooksPath` by Perch's own file ``IdentityFiles/gitGuard``, which Perch's rules file
/// includes while it exists. Nothing of the user's is edited, so `perch guard --undo` (removing
/// Perch's files) leaves every git config byte for byte as it was.
///
/// git 2.39 has one place for the hooks of every repository, `core.hooksPath`; the hooks run
/// the guard's check (`perch guard check-commit|check-push`), then the repository's own hook
/// (`$GIT_COMMON_DIR/hooks/NAME`) and the hooks of a `core.hooksPath` set before the guard's
/// (kept as `perch.previousHooksPath`). A repository's own local `core.hooksPath` (husky's)
/// beats the global one: the guard does not run there. `git commit --no-verify` skips it.
public enum GitGuard {
    /// The hooks that check: every ref update that brings new commits (`reference-transaction`,
    /// git 2.28 or later, in its `prepared` state: it sees the commits of commit, merge, pull,
    /// revert, cherry-pick, rebase, am, amend and update-ref alike, before any ref moves), and
    /// before a push.
    public static let checkingHooks = ["reference-transaction", "pre-push"]

    /// The variable that skips the guard for one command (`PERCH_GUARD=off git commit …`): git's
    /// `--no-verify` skips pre-commit and pre-push only, never `reference-transaction`.
    public static let skipVariable = "PERCH_GUARD"

    /// How a refusal says to go past the guard once, for `command` (`git commit`).
    public static func skip(_ command: String) -> String { "\(skipVariable)=off \(command) skips the guard once" }

    /// The first line of every hook Perch writes: how `perch guard status` tells its own hooks
    /// from another program's.
    static let marker = "# Written by Perch (perch guard install"

    /// Every hook git runs (githooks(5), git 2.39): with `core.hooksPath` set, git looks for all
    /// of them in the guard's folder only, so each one is there and runs the repository's own
    /// (a commit-msg of Gerrit's, git-lfs's post-checkout) and the previous hooks path's.
    public static let hookNames = [
        "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg", "commit-msg",
        "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "post-receive", "post-update",
        "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman",
        "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit", "post-index-change",
    ]

    /// The hooks git gives input on stdin (githooks(5)): the chain reads it once and gives it to each.
    static let stdinHooks: Set<String> = ["pre-push", "pre-receive", "post-receive", "post-rewrite", "reference-transaction"]

    /// The shell lines that find Perch for a check: the path recorded at install, then `PATH`;
    /// when neither has it, the hook refuses with one line that says why and how past
    /// (fail closed: a guard that cannot run lets nothing through unchecked).
    static func findProgram(_ program: String, what: String, command: String) -> String {
        let refusal =
            "perch guard: Perch is no longer at \(program) and not on PATH, so this \(what) cannot be checked: run perch guard install again with the Perch you use now, or \(skip(command))"
        return """
            perch_program=\(ShellExports.posixQuoted(program))
              if [ ! -x "$perch_program" ]; then
                perch_program=$(command -v perch) || { printf '%s\\n' \(ShellExports.posixQuoted(refusal)) >&2; exit 1; }
              fi
            """
    }

    /// The text of hook `name`: for reference-transaction and pre-push a check with `program`
    /// first, then the repository's own hook and the previous hooks path's, each given the same
    /// arguments and standard input (and the hook another program wrote into the guard's folder,
    /// kept in `kept` by ``install(program:in:refresh:)``) (read once for the hooks git gives input; else passed
    /// through, since it may be the terminal).
    ///
    /// reference-transaction starts Perch only in its `prepared` state, in a worktree (not for
    /// the repository a clone makes or a push is received in), and only when a branch or `HEAD` is given a new value: a fetch (remote-tracking
    /// refs), a tag or a deletion costs one shell and no Perch.
    static func hookText(_ name: String, program: String, previous: String? = nil, kept: String? = nil) -> String {
        let reads = stdinHooks.contains(name)
        // The check, as a condition and a command given the hook's input on stdin.
        let condition: String?
        let command: String
        switch name {
        case "reference-transaction":
            // A clone or a push received (git names another repository in GIT_DIR) makes no
            // commit; Perch itself passes over updates that give no branch or HEAD a new value.
            condition =
                #"[ "$1" = prepared ] && [ "${\#(skipVariable)-}" != off ] && case ${GIT_DIR-} in ""|.git|"$PWD/.git"|*/.git/worktrees/*) true ;; *) false ;; esac"#
            command = "guard check-refs"
        case "pre-push":
            condition = #"[ "${\#(skipVariable)-}" != off ]"#
            command = #"guard check-push "$@""#
        default:
            condition = nil
            command = ""
        }
        let what =
            condition == nil
            ? "runs this repository's own \(name) hook and the one of the hooks path set before the guard (git looks\n# for every hook in the guard's folder while it is in place)."
            : name == "pre-push"
                ? "refuses a push as the wrong account (its credentials, and each new commit's\n# author and committer), then runs this repository's own pre-push hook and the one of the hooks path set\n# before the guard. \(skip("git push"))."
                : "refuses a new commit on a branch or HEAD made as the wrong account (commit, merge,\n# pull, revert, cherry-pick, rebase, am, amend, update-ref), then runs this repository's own hook and the one\n# of the hooks path set before the guard. \(skip("git commit"))."
        var text = """
            #!/bin/sh
            \(marker); perch guard --undo removes it): \(what)
            # The hooks to run after the check: the repository's own (.git/hooks, or a worktree's common
            # folder's), the hooks path's set before the guard, and one another program wrote here.
            if [ -d .git ]; then perch_common=.git
            elif [ -n "${GIT_DIR-}" ] && [ -f "$GIT_DIR/commondir" ]; then
              read -r perch_common < "$GIT_DIR/commondir"
              case $perch_common in /*) ;; *) perch_common=$GIT_DIR/$perch_common ;; esac
            elif [ -n "${GIT_DIR-}" ]; then perch_common=$GIT_DIR
            else perch_common=$(git rev-parse --git-common-dir 2>/dev/null) || perch_common=.git
            fi
            perch_hooks=
            for perch_hook in "$perch_common/hooks/\(name)" \(ShellExports.posixQuoted((previous ?? "") + "/" + name)) \(ShellExports.posixQuoted((kept ?? "") + "/" + name)); do
              case $perch_hook in /\(name)) continue ;; esac
              [ -f "$perch_hook" ] && [ -x "$perch_hook" ] && perch_hooks=1
            done

            """
        if let condition {
            let what = name == "pre-push" ? "push" : "commit"
            let gitCommand = name == "pre-push" ? "git push" : "git commit"
            // Nothing to run after: the check is the hook, given git's input as it comes (no
            // copy, no second process). Else the input is read once and given to each.
            // reference-transaction: most updates (a fetch's remote-tracking refs, a tag, a
            // deletion) give no branch or HEAD a new value, and a new branch where HEAD is (git
            // branch, checkout -b, switch -c) brings no commit HEAD does not have: both told
            // here, from git's input and the loose files of HEAD and its branch, without
            // starting Perch (whose answer would be the same: no new commit). The files are only
            // compared with git's input, never run.
            let filter =
                name == "reference-transaction"
                ? """
                  perch_input= perch_check= perch_head= perch_nl='
                '
                  if [ -d .git ]; then perch_git=.git; else perch_git=${GIT_DIR-}; fi
                  if [ -n "$perch_git" ] && [ -f "$perch_git/HEAD" ] && read -r perch_head < "$perch_git/HEAD"; then
                    case $perch_head in
                      *..*) perch_head= ;;
                      "ref: refs/heads/"*)
                        perch_head=${perch_head#ref: }
                        if [ -f "$perch_common/$perch_head" ]; then read -r perch_head < "$perch_common/$perch_head" || perch_head=; else perch_head=; fi ;;
                    esac
                    case $perch_head in *[!0-9a-f]*) perch_head= ;; esac
                    case ${#perch_head} in 40|64) ;; *) perch_head= ;; esac
                  fi
                  while read -r perch_old perch_new perch_ref; do
                    perch_input="$perch_input$perch_old $perch_new $perch_ref$perch_nl"
                    case $perch_ref in HEAD|refs/heads/*) case $perch_new in *[!0]*) [ "$perch_new" = "$perch_head" ] || perch_check=1 ;; esac ;; esac
                  done
                  [ -n "$perch_check" ] || exit 0
                  \(findProgram(program, what: what, command: gitCommand))
                  printf '%s' "$perch_input" | "$perch_program" \(command)
                  exit $?
                """
                : """
                  \(findProgram(program, what: what, command: gitCommand))
                  exec "$perch_program" \(command)
                """
            text += """
                if [ -z "$perch_hooks" ]; then
                  \(condition) || exit 0
                \(filter)
                fi
                perch_input=$(cat; echo x)
                perch_input=${perch_input%x}
                if \(condition); then
                  \(findProgram(program, what: what, command: gitCommand))
                  printf '%s' "$perch_input" | "$perch_program" \(command) || exit $?
                fi

                """
        } else {
            if name == "commit-msg" {
                // An agent's commits name the person behind it (perch exec --agent, the
                // account's "agent": {"coAuthoredBy": …}), before the repository's own hook.
                text += """
                    if [ -n "${PERCH_CO_AUTHORED_BY-}" ] && [ -n "${PERCH_AGENT-}" ]; then
                      git interpret-trailers --in-place --if-exists addIfDifferent --trailer "Co-authored-by: $PERCH_CO_AUTHORED_BY" "$1" || exit 1
                    fi

                    """
            }
            text += "[ -n \"$perch_hooks\" ] || exit 0\n"
            if reads { text += "perch_input=$(cat; echo x)\nperch_input=${perch_input%x}\n" }
        }
        let run = reads ? "printf '%s' \"$perch_input\" | \"$perch_hook\" \"$@\"" : "\"$perch_hook\" \"$@\""
        text += """
            for perch_hook in "$perch_common/hooks/\(name)" \(ShellExports.posixQuoted((previous ?? "") + "/" + name)) \(ShellExports.posixQuoted((kept ?? "") + "/" + name)); do
              case $perch_hook in /\(name)) continue ;; esac
              if [ -f "$perch_hook" ] && [ -x "$perch_hook" ]; then
                \(run) || exit $?
              fi
            done
            exit 0

            """
        return text
    }

    /// The text of the guard's git config file: `core.hooksPath`, and the one set before.
    static func configText(hooks: String, previous: String?, strict: Bool = false) -> String {
        var text =
            "# Written by Perch (perch guard install); perch guard --undo removes it.\n[core]\n\thooksPath = \(GitAdapter.quoted(hooks))\n"
        if previous != nil || strict { text += "[perch]\n" }
        if let previous { text += "\tpreviousHooksPath = \(GitAdapter.quoted(previous))\n" }
        if strict { text += "\t\(strictLine)\n" }
        return text
    }

    /// The line of the guard's file (Perch's own) that makes it strict.
    static let strictLine = "guardStrict = true"

    /// Whether the guard was installed with `--strict`: it then refuses, in a bound folder or a
    /// repository bound by remote, a commit your own `includeIf` rule makes as someone else too.
    public static func isStrict(_ context: ToolContext) -> Bool {
        guard let bytes = try? FileSystem.read(context.files.gitGuard) else { return false }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains { $0.trimmingWhitespace == strictLine }
    }

    /// Whether the guard is in place: its file exists and git's global `core.hooksPath` is its
    /// folder (asked of git, includes followed).
    public static func isInstalled(_ context: ToolContext) -> Bool {
        guard access(context.files.gitGuard, F_OK) == 0 else { return false }
        let run = context.run("git", ["config", "--global", "--includes", "--get", "core.hooksPath"], in: "/")
        return run.output.map { context.environment.expandingTilde($0.trimmingWhitespace) } == context.files.gitHooks
    }

    /// What `perch guard install` did, or why it could not.
    public enum Outcome: Hashable, Sendable {
        case changed(String)
        case unchanged(String)
        case failed(String)
    }

    /// Writes the hooks and the guard's file (with the `core.hooksPath` set before, for the
    /// hooks to chain to), then checks that git uses them; gives everything back when it does
    /// not (Perch's git include is not in the global config: `perch setup git` first).
    /// `refresh` writes Perch's rules file again so that it includes the guard's file.
    public static func install(program: String, strict: Bool = false, in context: ToolContext, refresh: () throws(FileError) -> Void)
        -> Outcome
    {
        let files = context.files
        let kept = keepForeignHooks(files.gitHooks)
        if isInstalled(context) {
            // The hooks are written again: the program's path may have moved.
            let guardText = (try? FileSystem.read(files.gitGuard)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let previous = guardText.split(separator: "\n").first { $0.trimmingWhitespace.hasPrefix("previousHooksPath = ") }.map {
                ToolReaders.unquoted($0.trimmingWhitespace.dropFirst("previousHooksPath = ".count))
            }
            let wasStrict = isStrict(context)
            if wasStrict != strict {
                do {
                    try FileSystem.writeAtomically(
                        Array(configText(hooks: files.gitHooks, previous: previous, strict: strict).utf8), to: files.gitGuard, mode: 0o644)
                } catch {
                    return .failed("cannot write the guard's file: \(error)")
                }
            }
            for name in hookNames {
                try? FileSystem.writeAtomically(
                    Array(hookText(name, program: program, previous: previous, kept: kept.folder).utf8), to: files.gitHooks + "/" + name,
                    mode: 0o755)
            }
            if !kept.names.isEmpty {
                return .changed(
                    "the guard's hooks are back in \(GitConfigFile.shown(files.gitHooks, context.environment)); the hooks another program wrote there (\(kept.names.joined(separator: ", "))) are kept in \(GitConfigFile.shown(kept.folder, context.environment)) and run after the check"
                )
            }
            if wasStrict != strict {
                return .changed(
                    strict
                        ? "the guard is strict now: it also refuses commits your own includeIf rules make as someone else where an account owns the place"
                        : "the guard is no longer strict: where your own includeIf rule decides git's identity, it lets it be")
            }
            return .unchanged(
                "the guard is in place already (core.hooksPath = \(GitConfigFile.shown(files.gitHooks, context.environment)))")
        }
        let before = context.run("git", ["config", "--global", "--includes", "--get", "core.hooksPath"], in: "/").output?.trimmingWhitespace
        let previous = before.flatMap {
            $0.isEmpty || context.environment.expandingTilde($0) == files.gitHooks ? nil : context.environment.expandingTilde($0)
        }
        do {
            for name in hookNames {
                try FileSystem.writeAtomically(
                    Array(hookText(name, program: program, previous: previous, kept: kept.folder).utf8), to: files.gitHooks + "/" + name,
                    mode: 0o755)
            }
            try FileSystem.writeAtomically(
                Array(configText(hooks: files.gitHooks, previous: previous, strict: strict).utf8), to: files.gitGuard, mode: 0o644)
            try refresh()
        } catch {
            _ = remove(in: context)
            return .failed("cannot write the guard's files: \(error)")
        }
        guard isInstalled(context) else {
            _ = remove(in: context)
            try? refresh()
            let hint =
                GitConfigFile.includeState(context) == .included
                ? "your global config sets core.hooksPath after Perch's include, which beats the guard's; move that line above Perch's [include] (the guard then runs those hooks after its check), or remove it"
                : "Perch's git include is not in your global config: run perch setup git first"
            return .failed("git does not use the guard's hooks: \(hint)")
        }
        let chained = previous.map { "; it then runs the hooks of \(GitConfigFile.shown($0, context.environment)) too" } ?? ""
        return .changed(
            "the guard is in place: git's core.hooksPath is \(GitConfigFile.shown(files.gitHooks, context.environment)) (reference-transaction, pre-push), which runs each repository's own hooks after its check\(chained)"
        )
    }

    /// Moves each hook in the guard's folder that is not Perch's (another hook manager wrote it
    /// there, finding the folder as git's `core.hooksPath`) to `FOLDER/kept`, for Perch's hook of
    /// that name to run after its check; the kept folder and the names moved now.
    static func keepForeignHooks(_ hooks: String) -> (folder: String, names: [String]) {
        let folder = hooks + "/kept"
        var names: [String] = []
        for name in hookNames {
            let path = hooks + "/" + name
            guard let data = try? FileSystem.read(path, limit: 1 << 20) else { continue }
            guard !String(decoding: data, as: UTF8.self).contains(marker) else { continue }
            mkdir(folder, 0o755)
            if rename(path, folder + "/" + name) == 0 { names.append(name) }
        }
        // The guard's own hooks another program renamed aside (lefthook: NAME.old) are Perch's:
        // written again in place, so the copies go.
        for name in hookNames {
            let aside = hooks + "/" + name + ".old"
            if let data = try? FileSystem.read(aside, limit: 1 << 20), String(decoding: data, as: UTF8.self).contains(marker) {
                unlink(aside)
            }
        }
        return (folder, names)
    }

    /// Removes the guard's files (its hooks folder's two hooks and its config file); whether
    /// anything was there.
    public static func remove(in context: ToolContext) -> Bool {
        var removed = false
        for path in hookNames.map({ context.files.gitHooks + "/" + $0 }) + [context.files.gitGuard] where unlink(path) == 0 {
            removed = true
        }
        rmdir(context.files.gitHooks)
        return removed
    }

    // MARK: Checks

    /// Why a commit here would be made as another account than the one owning the place, or
    /// nil when it is the right one (or the account names no git author).
    public static func checkCommit(owner: PlaceOwner, account: Account, in context: ProofContext) -> String? {
        guard let git = account.identities[.git]?.value(as: GitAdapter.Setting.self), git.name != nil || git.email != nil else {
            return nil
        }
        let answer = GitAdapter.askAuthor(git, in: context, inHook: true)
        // Your own includeIf rule wins here (unknown): refused too when the guard is strict.
        guard answer.verdict == .disagrees || (answer.verdict == .unknown && answer.answer != nil && isStrict(context.tool)) else {
            return nil
        }
        return refusal(
            "commit", as: answer.answer ?? "no author", owner: owner, account: account, expected: answer.expected, reason: answer.reason,
            fix: answer.fix, skip: "git commit --no-verify skips the guard")
    }

    /// Why a push to `url` would go with another account's credentials than the account
    /// owning the remote's: the key `ssh -G` resolves for an ssh URL, the user `git credential
    /// fill` names for an https one. Nil when they agree or nothing says what to expect.
    public static func checkPush(url: String, owner: PlaceOwner, account: Account, in context: ProofContext) -> String? {
        guard let host = RemotePattern.hostAndPath(url)?.prefix(while: { $0 != "/" }) else { return nil }
        let isHTTPS = url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://")
        let answer: ToolAnswer
        if isHTTPS {
            guard let gh = account.identities[.gh]?.value(as: GitHubAdapter.Setting.self), gh.hostname.lowercased() == host else {
                return nil
            }
            answer = GitHubAdapter.askCredential(url: url, expected: gh.user, in: context)
        } else {
            guard let ssh = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self) else { return nil }
            // The host as the URL names it: an alias in ~/.ssh/config resolves as ssh resolves it.
            let named = urlHost(url) ?? String(host)
            answer = SSHAdapter.askHost(named, ssh, in: context)
        }
        guard answer.verdict == .disagrees else { return nil }
        return refusal(
            "push to \(url)", as: answer.answer ?? "unknown credentials", owner: owner, account: account, expected: answer.expected,
            reason: answer.reason, fix: answer.fix, skip: skip("git push"))
    }

    /// The host of `url` as written (case kept, an ssh alias as it is), without user or port.
    static func urlHost(_ url: String) -> String? { RemotePattern.hostRange(of: url).map { String(url[$0]) } }

    static func refusal(
        _ what: String, as actual: String, owner: PlaceOwner, account: Account, expected: String, reason: String?, fix: String?,
        skip: String?
    ) -> String {
        var text =
            "perch guard: this \(what) would go as \(actual), but here it belongs to \(account.id) (\(owner.description)), which is \(expected).\n"
        if let reason { text += "  why: \(reason)\n" }
        if let fix { text += "  fix: \(fix)\n" }
        if let skip { text += "  (\(skip))\n" }
        return text
    }
}
