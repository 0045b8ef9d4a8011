import Dispatch
import Glibc
import PerchDomain
import PerchStore

/// Whether git can be asked in a folder without hanging: a repository's config, or a file it
/// includes (`[include] path`, `[includeIf …] path`), that is a FIFO, a device or a socket makes
/// every git command there wait for a writer that never comes (the prompt froze for 20 s, `perch
/// status` for 30 s). Such a repository is data Perch did not write (docs/security.md): its
/// files are looked at with stat(2) before they are opened (without blocking, regular files of at
/// most 1 MiB only), and their include paths read with ``GitConfigReader``, the one reader of
/// git's grammar, proven against git by a differential test (10 deep, git's own limit).
public enum RepositoryConfig {
    /// The file that keeps git from being asked in `folder` (absolute), with what it is
    /// (`/r/.git/fifo, a FIFO`), or nil when git
    /// can be asked there (outside a repository, or every config file is regular or missing).
    /// Answers are kept for the process's life, one per folder.
    public static func blockingFile(in folder: String, environment: IdentityEnvironment) -> String? {
        if let known = cache.sync(execute: { answers[folder] }) { return known }
        let answer = find(in: folder, environment: environment)
        cache.sync { answers[folder] = answer }
        return answer
    }

    /// What a check says where git was not asked (``blockingFile(in:environment:)``).
    public static func note(_ blocked: String) -> String {
        "git was not asked here: this repository's config reads \(blocked), which git would wait on (take it out of the config, or check from another folder)"
    }

    private static let cache = DispatchQueue(label: "perch.repository-config")
    nonisolated(unsafe) private static var answers: [String: String?] = [:]

    static func find(in folder: String, environment: IdentityEnvironment) -> String? {
        guard let gitDir = PlaceOwner.gitDirectory(above: folder) else { return nil }
        var common = gitDir
        if let text = PlaceOwner.readSmall(gitDir + "/commondir")?.trimmingWhitespace, !text.isEmpty {
            common = text.hasPrefix("/") ? text : gitDir + "/" + text
        }
        var pending = [(common + "/config", 0), (gitDir + "/config.worktree", 0)]
        var seen: Set<String> = []
        while let (path, depth) = pending.popLast() {
            guard seen.insert(path).inserted else { continue }
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type != S_IFREG {
                let kind = type == S_IFIFO ? "a FIFO" : type == S_IFSOCK ? "a socket" : type == S_IFDIR ? "a folder" : "a device"
                return "\(path), \(kind)"
            }
            guard depth < 10 else { continue }
            // Read with the reader proven against git (GitConfigDifferentialTests), not git: the
            // guard asks this before every check, and a git started here cost 1.5 ms a commit.
            guard let bytes = try? FileSystem.read(path, limit: 1 << 20), case .success(let entries) = GitConfigReader.parse(bytes)
            else { continue }
            for entry in entries {
                let key = entry.key
                guard key.hasSuffix(".path"), key.hasPrefix("include.") || key.hasPrefix("includeif."), var value = entry.value
                else { continue }
                if value.hasPrefix("~/") { value = environment.home + value.dropFirst(1) }
                if !value.hasPrefix("/") { value = FileSystem.directory(of: path) + "/" + value }
                pending.append((value, depth + 1))
            }
        }
        return nil
    }
}
