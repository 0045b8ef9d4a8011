import PerchDomain
import PerchStore

#if canImport(Glibc)
    import Glibc
#endif

/// `perch bind ACCOUNT [PATH]` and `perch unbind`: what binds the repository at a path to an
/// account, asked of git (`git rev-parse --show-toplevel`, `git config` for the remotes), never
/// read from the repository's files by Perch. The repository's remotes are data: they become a
/// pattern only when it is one the config and git's rules take as a plain value
/// (``RepositoryScan/exactPattern(_:)``).
public enum RepositoryBinding {
    /// What PATH binds.
    public enum Target: Hashable, Sendable {
        /// A remote pattern (`github.com/acme/site`), made from the remote `remote`'s URL.
        case remote(pattern: String, remote: String)
        /// A folder, as the config writes it (`~/src/site`, or absolute outside HOME).
        case folder(String)

        /// The config's key for it: `remotes` or `directories`.
        public var key: String {
            switch self {
            case .remote: "remotes"
            case .folder: "directories"
            }
        }

        /// The pattern or folder as written into the config.
        public var value: String {
            switch self {
            case .remote(let pattern, _): pattern
            case .folder(let folder): folder
            }
        }
    }

    /// Why PATH cannot be bound, in one sentence.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The repository's top folder holding `path` (resolved), or nil when `path` is in none;
    /// `git rev-parse --show-toplevel` decides, as git does.
    public static func topLevel(_ path: String, in environment: IdentityEnvironment) -> String? {
        let run = ProgramRunner.run("git", ["rev-parse", "--show-toplevel"], in: environment, folder: path)
        guard case .exited(0, let stdout, _) = run else { return nil }
        let top = stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout
        return top.isEmpty ? nil : top
    }

    /// The remotes of the repository at `top`, `origin` first: (name, URL), as git gives them.
    public static func remotes(_ top: String, in environment: IdentityEnvironment) -> [(name: String, url: String)] {
        let run = ProgramRunner.run("git", ["config", "--null", "--get-regexp", "^remote\\..*\\.url$"], in: environment, folder: top)
        var urls: [(name: String, url: String)] = []
        for entry in (run.output ?? "").split(separator: "\0") {
            guard let newline = entry.firstIndex(of: "\n") else { continue }
            let name = entry[..<newline].dropFirst("remote.".count).dropLast(".url".count)
            urls.append((String(name), String(entry[entry.index(after: newline)...])))
        }
        return urls.sorted { ($0.name == "origin" ? 0 : 1, $0.name) < ($1.name == "origin" ? 0 : 1, $1.name) }
    }

    /// What binds the place at `path` (an existing folder): with `folder`, the repository's top
    /// folder (or `path` itself outside any repository); otherwise the narrowest pattern of its
    /// first remote that makes one (`origin` first), with an ssh host alias (`github.com-work`)
    /// replaced by the host ssh resolves it to (`aliases`, ``SSHAliases``), as the config's
    /// patterns name hosts.
    /// - Throws: ``Problem`` for a place outside a repository (without `folder`), a repository
    ///   without remotes, or remotes none of which makes a pattern.
    public static func target(
        _ path: String, folder: Bool, aliases: [String: String], in environment: IdentityEnvironment
    ) throws(Problem) -> Target {
        let top = topLevel(path, in: environment)
        if folder { return .folder(written(top ?? path, in: environment)) }
        guard let top else {
            throw Problem("\(written(path, in: environment)) is not in a git repository; --folder binds the folder itself")
        }
        let urls = remotes(top, in: environment)
        guard !urls.isEmpty else {
            throw Problem("the repository at \(written(top, in: environment)) has no remote; --folder binds its folder instead")
        }
        for (name, url) in urls {
            let resolved = RemotePattern.resolvingAlias(url, aliases) ?? url
            if let pattern = RepositoryScan.exactPattern(resolved) { return .remote(pattern: pattern, remote: name) }
        }
        throw Problem(
            "no remote of the repository at \(written(top, in: environment)) makes a remote pattern (a local path, or characters a pattern cannot hold); --folder binds its folder instead"
        )
    }

    /// The email git itself makes the author with in `folder` (`git var GIT_AUTHOR_IDENT`,
    /// which every rule and variable decides), or nil when git cannot say.
    public static func authorEmail(_ folder: String, in environment: IdentityEnvironment) -> String? {
        let run = ProgramRunner.run("git", ["var", "GIT_AUTHOR_IDENT"], in: environment, folder: folder)
        guard case .exited(0, let stdout, _) = run, let open = stdout.firstIndex(of: "<"),
            let close = stdout[open...].firstIndex(of: ">")
        else { return nil }
        return String(stdout[stdout.index(after: open)..<close])
    }

    /// `path` as the config writes a folder: `~/…` under HOME, else absolute.
    public static func written(_ path: String, in environment: IdentityEnvironment) -> String {
        RepositoryScan.displayed(path, in: environment)
    }

    /// The edit that adds `target` to `account`'s list, or nil when it is there already.
    public static func binding(_ target: Target, to account: Account) -> ConfigEdit? {
        let list = target.key == "remotes" ? account.identities.remotes : account.identities.directories
        guard !list.contains(target.value) else { return nil }
        return .set(id: account.id, path: [target.key], json: json(list + [target.value]))
    }

    /// The edit that removes `target` from `account`'s list (the key itself when nothing is
    /// left), or nil when the account does not list it.
    public static func unbinding(_ target: Target, from account: Account) -> ConfigEdit? {
        let list = target.key == "remotes" ? account.identities.remotes : account.identities.directories
        guard list.contains(target.value) else { return nil }
        let left = list.filter { $0 != target.value }
        return left.isEmpty ? .unset(id: account.id, path: [target.key]) : .set(id: account.id, path: [target.key], json: json(left))
    }

    /// The account other than `id` that already lists `target`, if any.
    public static func holder(of target: Target, in accounts: [Account], besides id: String) -> Account? {
        accounts.first { account in
            account.id != id
                && (target.key == "remotes" ? account.identities.remotes : account.identities.directories).contains(target.value)
        }
    }

    static func json(_ list: [String]) -> String { "[" + list.map(ConfigWriter.jsonString).joined(separator: ", ") + "]" }
}
