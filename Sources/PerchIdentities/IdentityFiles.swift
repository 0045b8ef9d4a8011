/// The files Perch writes for tool identities: all its own, each written atomically
/// (`perch status --files` lists them). The user's own `~/.gitconfig` and `~/.ssh/config` only
/// ever get one include line, added by `perch setup git|ssh` and removed by `--undo`.
public struct IdentityFiles: Hashable, Sendable {
    /// The git config file holding the current account's `[user]`, included from the global config.
    public var gitInclude: String
    /// The ssh_config file holding the current account's `Host … IdentityFile …`, included from
    /// `~/.ssh/config`.
    public var sshInclude: String
    /// The results of the last switch's identities (JSON), beside the state file.
    public var results: String
    /// The user's ssh config, which `perch setup ssh` adds the `Include` line to.
    public var userSSHConfig: String

    public init(_ environment: IdentityEnvironment) {
        let base = environment.configHome + "/perch"
        gitInclude = base + "/git/identity.gitconfig"
        sshInclude = base + "/ssh/config"
        userSSHConfig = environment.home + "/.ssh/config"
        let state = environment.statePath
        let folderEnd = state.lastIndex(of: "/").map { state.index(after: $0) } ?? state.startIndex
        var stem = String(state[folderEnd...])
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        results = String(state[..<folderEnd]) + stem + ".identities.json"
    }

    /// Every file Perch writes for identities, in the order listed.
    public var all: [String] { [gitInclude, sshInclude, results] }
}
