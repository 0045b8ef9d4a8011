/// The files Perch writes for tool identities: all its own, each written atomically
/// (`perch status --files` lists them). The user's own `~/.gitconfig` and `~/.ssh/config` only
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
    /// The user's ssh config, which `perch setup ssh` adds the `Include` line to.
    public var userSSHConfig: String
    /// The user's global git config (`$GIT_CONFIG_GLOBAL`, else `~/.gitconfig`), which `perch
    /// setup git` adds the include to.
    public var userGitConfig: String

    public init(_ environment: IdentityEnvironment) {
        let state = environment.statePath
        let folderEnd = state.lastIndex(of: "/").map { state.index(after: $0) } ?? state.startIndex
        var stem = String(state[folderEnd...])
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        let beside = String(state[..<folderEnd]) + stem
        if environment.ownFilesBesideState {
            gitInclude = beside + ".git.gitconfig"
            sshInclude = beside + ".ssh.config"
        } else {
            let base = environment.configHome + "/perch"
            gitInclude = base + "/git/identity.gitconfig"
            sshInclude = base + "/ssh/config"
        }
        userSSHConfig = environment.home + "/.ssh/config"
        userGitConfig = environment["GIT_CONFIG_GLOBAL"].map(environment.expandingTilde) ?? environment.home + "/.gitconfig"
        results = beside + ".identities.json"
        journal = beside + ".journal.json"
        baseline = beside + ".baseline.json"
        undo = beside + ".undo.json"
    }

    /// Every file Perch writes for identities, in the order listed.
    public var all: [String] { [gitInclude, sshInclude, results, journal, baseline, undo] }
}
