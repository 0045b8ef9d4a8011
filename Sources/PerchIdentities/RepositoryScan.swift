import PerchDomain
import PerchStore

#if canImport(Glibc)
    import Glibc
#endif

/// `perch import --scan DIR`: the git clones under folders the user names, and the
/// `"directories"` and `"remotes"` they suggest for the accounts proposed or already in the
/// config. What a repository holds is data: its remotes and the email git uses there are asked
/// of git (`git config`), never read from `.git/config` by Perch, and nothing the repository
/// names is run.
public enum RepositoryScan {
    /// One clone found.
    public struct Repository: Hashable, Sendable {
        /// The work tree (the folder holding `.git`), absolute.
        public var path: String
        /// Its remotes' URLs, as git gives them (data), `origin` first.
        public var remotes: [String]
        /// The `user.email` git uses there from the user's own files or the repository's, never
        /// from Perch's (which follow the global account); nil when none.
        public var email: String?

        public init(path: String, remotes: [String], email: String? = nil) {
            self.path = path
            self.remotes = remotes
            self.email = email
        }
    }

    /// How deep below a folder clones are looked for, in folders.
    public static let maximumDepth = 8
    /// How many folders one scan looks into at most.
    public static let maximumFolders = 20_000

    /// The clones under `folders` (absolute), each asked of git; hidden folders and symbolic
    /// links are not followed, and a clone's own folders are not searched for more. Notes say
    /// what was not looked at (a limit reached, a repository git would not read).
    public static func scan(_ folders: [String], in environment: IdentityEnvironment) -> (repositories: [Repository], notes: [String]) {
        var notes: [String] = []
        var found: [String] = []
        var visited = 0
        var stack = folders.map { (path: $0, depth: 0) }.reversed().map { $0 }
        while let (folder, depth) = stack.popLast() {
            visited += 1
            if visited > maximumFolders {
                notes.append("scan: stopped after \(maximumFolders) folders")
                break
            }
            if isGitEntry(folder + "/.git") {
                found.append(folder)
                continue
            }
            guard depth < maximumDepth, let names = entries(folder) else { continue }
            for name in names.sorted().reversed() where !name.hasPrefix(".") {
                let path = folder == "/" ? "/" + name : folder + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                stack.append((path, depth + 1))
            }
        }
        let perchGit = FileSystem.directory(of: IdentityFiles(environment).gitInclude) + "/"
        var repositories: [Repository] = []
        for path in found {
            let remotes = ProgramRunner.run(
                "git", ["config", "--null", "--get-regexp", "^remote\\..*\\.url$"], in: environment, folder: path)
            if case .notStarted(let why) = remotes {
                notes.append("scan: \(displayed(path, in: environment)) skipped: \(why)")
                continue
            }
            var urls: [(name: String, url: String)] = []
            for entry in (remotes.output ?? "").split(separator: "\0") {
                guard let newline = entry.firstIndex(of: "\n") else { continue }
                let key = entry[..<newline]
                let name = key.dropFirst("remote.".count).dropLast(".url".count)
                urls.append((String(name), String(entry[entry.index(after: newline)...])))
            }
            urls.sort { ($0.name == "origin" ? 0 : 1, $0.name) < ($1.name == "origin" ? 0 : 1, $1.name) }
            let emails = ProgramRunner.run(
                "git", ["config", "--null", "--show-origin", "--get-all", "user.email"], in: environment, folder: path)
            let fields = (emails.output ?? "").split(separator: "\0", omittingEmptySubsequences: false)
            var email: String?
            var index = 0
            while index + 1 < fields.count {
                let origin = fields[index].hasPrefix("file:") ? String(fields[index].dropFirst(5)) : String(fields[index])
                if !origin.hasPrefix(perchGit) { email = String(fields[index + 1]) }
                index += 2
            }
            repositories.append(Repository(path: path, remotes: urls.map(\.url), email: email))
        }
        return (repositories, notes)
    }

    /// Whether `path` is a `.git` folder or a `.git` file (a worktree's or submodule's).
    static func isGitEntry(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFDIR || type == S_IFREG
    }

    /// The names in folder `path`, or nil when it cannot be read.
    static func entries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `path` with the home folder written `~`.
    static func displayed(_ path: String, in environment: IdentityEnvironment) -> String {
        path == environment.home ? "~" : path.hasPrefix(environment.home + "/") ? "~" + path.dropFirst(environment.home.count) : path
    }

    /// The account a clone belongs to, among `accounts` (proposals first, then the config's):
    /// the one whose git email is the email git uses there, else the one whose gh user owns a
    /// remote's path on its host (`github.com/ada-work/site` for gh `ada-work`); nil for none.
    static func owner(of repository: Repository, among accounts: [Account]) -> String? {
        if let email = repository.email?.lowercased(), !email.isEmpty,
            let account = accounts.first(where: {
                $0.identities[.git]?.value(as: GitAdapter.Setting.self)?.email?.lowercased() == email
            })
        {
            return account.id
        }
        for url in repository.remotes {
            guard let place = RemotePattern.hostAndPath(url) else { continue }
            let parts = place.split(separator: "/")
            guard parts.count >= 3 else { continue }
            let host = parts[0]
            if let account = accounts.first(where: { account in
                guard let gh = account.identities[.gh]?.value(as: GitHubAdapter.Setting.self) else { return false }
                return gh.user.lowercased() == parts[1] && (gh.host ?? "github.com").lowercased() == host
            }) {
                return account.id
            }
        }
        return nil
    }

    /// The narrowest remote pattern naming the repository at `url` alone (`github.com/acme/site`):
    /// its host and path as git's rules take them, checked to be a pattern the config accepts
    /// (``RemotePattern/problem(_:)``), without a wildcard, and matching `url`; nil otherwise
    /// (a local path, a path holding `*`, `?`, `[`, a quote, a backslash, a space, a control or
    /// anything but printable ASCII: a repository's URL is data, and the pattern goes into git's
    /// rules).
    public static func exactPattern(_ url: String) -> String? {
        guard let place = RemotePattern.hostAndPath(url), RemotePattern.problem(place) == nil,
            !place.contains(where: { "*?\\\"'".contains($0) }),
            place.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }), RemotePattern(place).matches(url: url)
        else { return nil }
        return place
    }

    /// `proposals` with the folders and remotes the clones suggest: a folder whose clones all
    /// belong to one account (the highest such folder below or at a scanned one, never the home
    /// folder itself) joins that account's `"directories"`; a clone outside such a folder gives
    /// its account the narrowest pattern of its first remote, or `HOST/OWNER/*` when two clones
    /// or more of that owner all belong to the account. What an account of the config already
    /// binds (a folder, or a remote one of its patterns matches) is left out. Accounts of the
    /// config get an addition (a proposal with their id) for what they gain.
    public static func bind(
        _ repositories: [Repository], under roots: [String], to proposals: [Account], existing: [Account],
        in environment: IdentityEnvironment
    ) -> [Account] {
        // The config's accounts with what the proposals add to them, so that a git email added now owns its clones.
        let accounts =
            proposals.filter { proposal in !existing.contains { $0.id == proposal.id } }
            + existing.map { account in
                var account = account
                for addition in proposals where addition.id == account.id {
                    for setting in addition.identities.settings where account.identities[setting.tool] == nil {
                        account.identities.settings.append(setting)
                    }
                }
                return account
            }
        let owners = repositories.map { owner(of: $0, among: accounts) }
        let bound = Set(existing.flatMap(\.identities.directories).map(environment.expandingTilde))
        var folders: [String: [String]] = [:]  // account → folders
        var covered = Set<Int>()
        // Each folder holding clones, from the highest: bound when every clone under it has one owner.
        var candidates = Set<String>()
        for repository in repositories {
            var folder = FileSystem.directory(of: repository.path)
            while folder.count > 1, folder != environment.home, roots.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) {
                candidates.insert(folder)
                folder = FileSystem.directory(of: folder)
            }
        }
        for folder in candidates.sorted(by: { ($0.count, $0) < ($1.count, $1) }) {
            let inside = repositories.indices.filter { repositories[$0].path.hasPrefix(folder + "/") }
            guard !inside.isEmpty, !inside.allSatisfy(covered.contains) else { continue }
            let ids = Set(inside.map { owners[$0] })
            guard ids.count == 1, let id = ids.first!, !bound.contains(folder) else { continue }
            folders[id, default: []].append(displayed(folder, in: environment))
            covered.formUnion(inside)
        }
        var remotes: [String: [String]] = [:]
        var byOwner: [String: Set<String?>] = [:]  // host/owner → accounts of its clones
        for (index, repository) in repositories.enumerated() {
            for url in repository.remotes {
                guard let place = RemotePattern.hostAndPath(url) else { continue }
                let parts = place.split(separator: "/")
                if parts.count >= 3 { byOwner["\(parts[0])/\(parts[1])", default: []].insert(owners[index]) }
            }
        }
        var counts: [String: Int] = [:]
        for (index, repository) in repositories.enumerated() where !covered.contains(index) && owners[index] != nil {
            guard let url = repository.remotes.first, let place = exactPattern(url) else { continue }
            let parts = place.split(separator: "/")
            if parts.count >= 3 { counts["\(parts[0])/\(parts[1])", default: 0] += 1 }
        }
        for (index, repository) in repositories.enumerated() where !covered.contains(index) {
            guard let id = owners[index], let url = repository.remotes.first, let place = exactPattern(url) else { continue }
            if RemotePattern.owner(of: [url], in: existing) != nil { continue }
            let parts = place.split(separator: "/")
            var pattern = place
            if parts.count >= 3 {
                let ownerPath = "\(parts[0])/\(parts[1])"
                if (counts[ownerPath] ?? 0) >= 2, byOwner[ownerPath] == [id], RemotePattern.problem(ownerPath + "/*") == nil {
                    pattern = ownerPath + "/*"
                }
            }
            if !(remotes[id] ?? []).contains(pattern) { remotes[id, default: []].append(pattern) }
        }
        var result = proposals
        for id in Set(folders.keys).union(remotes.keys).sorted() {
            if let index = result.firstIndex(where: { $0.id == id }) {
                result[index].identities.directories += (folders[id] ?? []).filter { !result[index].identities.directories.contains($0) }
                result[index].identities.remotes += (remotes[id] ?? []).filter { !result[index].identities.remotes.contains($0) }
            } else if let account = existing.first(where: { $0.id == id }) {
                result.append(
                    Account(
                        id: id, name: account.name, handle: account.handle,
                        identities: ToolIdentities(directories: folders[id] ?? [], remotes: remotes[id] ?? [])))
            }
        }
        return result
    }
}
