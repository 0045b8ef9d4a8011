/// The files Perch writes for tool identities: all its own, each written atomically
/// (`perch status --files` lists them). The user's own global git config and `~/.ssh/config` only
/// ever get one include, added by `perch setup git|ssh` and removed by `--undo`.
///
/// The generated files belong to their config: with the default config and state they are
/// under `$XDG_CONFIG_HOME/perch`; a run with another `--config` or `--state` keeps its own
/// beside its state file (`STATE-STEM.git.gitconfig`, …), so a throwaway config never changes
/// the real identity.
public struct IdentityFiles: Hashable, Sendable {
    /// The git config file holding the current account's `[user]`, included from the global config.
    public var gitInclude: String
    /// The ssh_config file holding the current account's `Host … IdentityFile …`, included from
    /// `~/.ssh/config`.
    public var sshInclude: String
    /// The results of the last switch's identities (JSON), beside the state file.
    public var results: String
    /// The journal of a switch under way (JSON), beside the state file: the accounts and each
    /// tool's before-state, written before any tool changes and removed once the switch is
    /// recorded (see ``SwitchJournal``).
    public var journal: String
    /// What each tool had before Perch first changed it (JSON), beside the state file.
    public var baseline: String
    /// The last switch's before-states (JSON), for `perch undo`, beside the state file.
    public var undo: String
    /// The git config file of the config's `"directories"`: one `includeIf "gitdir:FOLDER/"` rule
    /// per bound folder, shallowest first, each including ``gitAccounts``' file of its account.
    /// Perch's git include file includes it after the current account's `[user]`.
    public var gitDirectories: String
    /// The folder of the per-account git files the directory rules include (`ID.gitconfig`).
    public var gitAccounts: String
    /// The git config file of `perch guard install` (`core.hooksPath` = ``gitHooks``, and the
    /// hooks path that was set before), included from ``gitDirectories`` while it exists.
    public var gitGuard: String
    /// The folder of the guard's `pre-commit` and `pre-push` hooks.
    public var gitHooks: String
    /// The folder of the files `perch exec` and `perch use` give one process (a kubeconfig
    /// naming the account's context, `ID.kubeconfig`), beside the state file, mode 0700.
    public var scopes: String
    /// The folder of tools' kept answers (``AnswerCache``), beside the state file, mode 0700.
    public var answers: String
    /// The folder of the shells' markers (one empty file per shell, named by its process id),
    /// whose modification time `shell-init`'s prompt hook compares with the state's and the
    /// config's, beside the state file.
    public var shells: String
    /// The user's ssh config, which `perch setup ssh` adds the `Include` line to.
    public var userSSHConfig: String
    /// The user's global git config files in the order git reads them (git-config(1), "FILES"):
    /// `$GIT_CONFIG_GLOBAL` alone when set; else `$XDG_CONFIG_HOME/git/config` (default
    /// `~/.config/git/config`), then `~/.gitconfig`, whose values win. `perch setup git` adds the
    /// include to the one holding the user's rules (``GitConfigFile/target(_:include:environment:)``).
    public var userGitConfigs: [String]

    public init(_ environment: IdentityEnvironment) {
        let beside = Self.stem(besideState: environment.statePath)
        if environment.ownFilesBesideState {
            gitInclude = beside + ".git.gitconfig"
            gitDirectories = beside + ".git-directories.gitconfig"
            gitAccounts = beside + ".git-accounts"
            gitGuard = beside + ".git-guard.gitconfig"
            gitHooks = beside + ".git-hooks"
            sshInclude = beside + ".ssh.config"
        } else {
            let base = environment.configHome + "/perch"
            gitInclude = base + "/git/identity.gitconfig"
            gitDirectories = base + "/git/directories.gitconfig"
            gitAccounts = base + "/git/accounts"
            gitGuard = base + "/git/guard.gitconfig"
            gitHooks = base + "/git/hooks"
            sshInclude = base + "/ssh/config"
        }
        scopes = beside + ".scopes"
        answers = beside + ".answers"
        shells = beside + ".shells"
        userSSHConfig = environment.home + "/.ssh/config"
        userGitConfigs =
            environment["GIT_CONFIG_GLOBAL"].map { [environment.expandingTilde($0)] }
            ?? [environment.configHome + "/git/config", environment.home + "/.gitconfig"]
        results = beside + ".identities.json"
        journal = Self.journal(besideState: environment.statePath)
        baseline = beside + ".baseline.json"
        undo = beside + ".undo.json"
    }

    /// The path of the state file without `.json`, which the files beside it start with.
    static func stem(besideState state: String) -> String {
        let folderEnd = state.lastIndex(of: "/").map { state.index(after: $0) } ?? state.startIndex
        var stem = String(state[folderEnd...])
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        return String(state[..<folderEnd]) + stem
    }

    /// The journal beside the state file `state` (``journal``), known without the environment:
    /// every command looks for it first.
    public static func journal(besideState state: String) -> String { stem(besideState: state) + ".journal.json" }

    /// Every file Perch writes for identities, in the order listed.
    public var all: [String] { [gitInclude, gitDirectories, sshInclude, results, journal, baseline, undo] }
}
