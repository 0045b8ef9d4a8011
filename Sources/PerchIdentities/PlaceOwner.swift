import Glibc
import PerchDomain
import PerchStore

/// Which account owns a place (a folder, in a process's scope): the one rule `perch verify`,
/// the guard, `perch status` and `perch current` decide by, in the order git's own files give
/// (docs/scopes.md): a scope of the process (`perch exec`, `perch use`), then a bound folder
/// (`"directories"`), then a repository's remote (`"remotes"`), then the global account.
public struct PlaceOwner: Hashable, Sendable {
    /// Why the account owns the place.
    public enum Reason: Hashable, Sendable {
        /// Named on the command line.
        case named
        /// `perch exec`'s process.
        case exec
        /// A shell pinned by `perch use`.
        case pinned
        /// A bound folder, as written in the config.
        case directory(String)
        /// A remote of the repository, matched by this pattern as written.
        case remote(String)
        /// The global account (`perch switch`).
        case global
    }

    /// The account's id.
    public var account: String
    public var reason: Reason

    public init(account: String, reason: Reason) {
        self.account = account
        self.reason = reason
    }

    /// How it was chosen, in words (`chosen by remote github.com/acme/*`).
    public var description: String {
        switch reason {
        case .named: "named on the command line"
        case .exec: "given by perch exec"
        case .pinned: "pinned by perch use"
        case .directory(let folder): "chosen by folder \(folder)"
        case .remote(let pattern): "chosen by remote \(pattern)"
        case .global: "the global account"
        }
    }

    /// The account that owns `folder` for a process with `environment`, given the config's
    /// `accounts` and the `global` account; nil when none does.
    public static func find(
        in accounts: [Account], global: String?, environment: [String: String], folder: String, home: String,
        aliases: [String: String] = [:]
    ) -> PlaceOwner? {
        if let kind = IdentityScope.kind(environment), kind != .directory, let id = environment[ShellExports.accountVariable],
            accounts.contains(where: { $0.id == id })
        {
            return PlaceOwner(account: id, reason: kind == .exec ? .exec : .pinned)
        }
        if let rule = boundRule(folder, in: DirectoryRules.rules(accounts, home: home)) {
            return PlaceOwner(account: rule.account, reason: .directory(rule.written))
        }
        if accounts.contains(where: { !$0.identities.remotes.isEmpty }),
            let owner = RemotePattern.owner(of: remoteURLs(of: folder, home: home), in: accounts, aliases: aliases)
        {
            return PlaceOwner(account: owner.account, reason: .remote(owner.pattern))
        }
        return global.map { PlaceOwner(account: $0, reason: .global) }
    }

    /// The bound folder holding `folder` as git decides it (git-config(1), "Conditional includes",
    /// `gitdir:`): inside a repository, by the repository's git folder, symlinks resolved (a
    /// worktree's or submodule's git folder lives in its main repository's `.git`), else by the
    /// folder itself; each rule's folder as written and resolved (Perch's rules file names both).
    public static func boundRule(_ folder: String, in rules: [DirectoryRules.Rule]) -> DirectoryRules.Rule? {
        guard !rules.isEmpty else { return nil }
        let resolvedRules = rules.map { rule in
            var resolved = rule
            resolved.folder = realPath(rule.folder) ?? rule.folder
            return resolved
        }
        if let gitDir = gitDirectory(above: folder) {
            let place = realPath(gitDir) ?? gitDir
            return DirectoryRules.match(place, in: resolvedRules) ?? DirectoryRules.match(place, in: rules)
        }
        return DirectoryRules.match(folder, in: rules) ?? DirectoryRules.match(realPath(folder) ?? folder, in: resolvedRules)
    }

    /// `path` with every symlink resolved (realpath(3)), or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The remotes of the repository `folder` is in, read from its config without starting git
    /// (the shell hook asks at every prompt) by ``GitConfigReader``, as git reads it: includes
    /// followed (`~/` from `home`), `includeIf` conditions evaluated against this repository as
    /// git started in `folder` (its `$PWD`) sees it.
    /// The repository is the nearest `.git` above `folder`: a folder, or a file saying `gitdir:
    /// PATH` (a worktree or submodule, whose `commondir` names the shared folder holding
    /// `config`). Every file is read without blocking, regular files of at most 1 MiB only
    /// (``RepositoryFiles``).
    /// - Returns: the remotes (none outside a repository); a ``GitConfigReader/Refusal`` when
    ///   git refuses the config, so works in no such repository, or when the repository is
    ///   owned by another user (git-config(1), `safe.directory`: git refuses to work there, and
    ///   its includes are not followed).
    // Bug (trust issue): another user's repository in a shared folder, with a remote of the
    // work account's, made your shell the work account when you entered it.
    public static func remotes(of folder: String, home: String) -> Result<GitRemotes, GitConfigReader.Refusal> {
        guard let gitDir = gitDirectory(above: folder) else { return .success(GitRemotes()) }
        guard ownedByUser(gitDir) else { return .failure(GitConfigReader.Refusal("the repository is owned by another user")) }
        var configFolder = gitDir
        if let common = readSmall(gitDir + "/commondir")?.trimmingWhitespace, !common.isEmpty {
            configFolder = common.hasPrefix("/") ? common : gitDir + "/" + common
        }
        // git names a `.git` folder found in the folder it starts in by the path it was started
        // at ($PWD), any other by its resolved path (setup.c): `gitdir:` conditions see that.
        var info = stat()
        let atStart = gitDir == (folder == "/" ? "" : folder) + "/.git" && stat(gitDir, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        let place = GitConfigReader.Place(home: home, gitDirectory: atStart ? gitDir : realPath(gitDir) ?? gitDir)
        return GitConfigReader.read(configFolder + "/config", at: place, files: RepositoryFiles()).flatMap { entries in
            Result { () throws(GitConfigReader.Refusal) in try GitRemotes(config: entries) }
        }
    }

    /// The URLs (not push URLs) of the remotes of the repository `folder` is in, as written:
    /// what git's `hasconfig:remote.*.url:` rules see in its config (``GitRemotes/urls``).
    /// Empty outside a repository and where ``remotes(of:home:)`` refuses the config.
    public static func remoteURLs(of folder: String, home: String) -> [String] {
        (try? remotes(of: folder, home: home).get())?.urls ?? []
    }

    /// The git folder of the repository holding `folder` (its `.git`, or where a `.git` file
    /// points), nil outside any.
    static func gitDirectory(above folder: String) -> String? {
        var current = folder
        while true {
            let candidate = (current == "/" ? "" : current) + "/.git"
            var info = stat()
            if stat(candidate, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFDIR { return candidate }
                if let text = readSmall(candidate), text.hasPrefix("gitdir:") {
                    let path = String(text.dropFirst(7)).trimmingWhitespace
                    return path.hasPrefix("/") ? path : (current == "/" ? "" : current) + "/" + path
                }
            }
            guard current != "/", let slash = current.lastIndex(of: "/") else { return nil }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// A small file's text (its first 64 KiB), or nil when it is not a regular file of at most
    /// 1 MiB (``FileSystem/read(_:limit:)`` opens without blocking: a FIFO is never waited on).
    static func readSmall(_ path: String) -> String? {
        (try? FileSystem.read(path, limit: 1 << 20)).map { String(decoding: $0.prefix(65_536), as: UTF8.self) }
    }

    /// Whether the repository whose git folder is `gitDir` belongs to this user (or this user
    /// is root, whom git trusts with the repositories of `SUDO_UID`, and who owns the rest): its
    /// git folder's owner, stat(2).
    static func ownedByUser(_ gitDir: String) -> Bool {
        var info = stat()
        guard stat(gitDir, &info) == 0 else { return false }
        let user = geteuid()
        if info.st_uid == user { return true }
        if user == 0, let sudo = getenv("SUDO_UID").flatMap({ UInt32(String(cString: $0)) }) { return info.st_uid == sudo }
        return false
    }
}
