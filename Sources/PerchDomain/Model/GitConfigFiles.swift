/// The file reads a ``GitConfigReader`` needs; Perch's reads files without blocking, regular
/// files only, bounded in size (``GitConfigReader/File``).
public protocol GitConfigFiles {
    /// The file at `path` (absolute).
    func file(_ path: String) -> GitConfigReader.File
    /// `path` with every symlink resolved (realpath(3)), nil when it does not exist.
    func realPath(_ path: String) -> String?
    /// The home folder of the user `name` (getpwnam(3)), nil for no such user.
    func home(ofUser name: String) -> String?
}

/// Files kept in memory, for tests and for configs that are not on disk: a path not given is
/// missing, no path is a symlink, and `.`, `..` and doubled slashes resolve as the system's.
public struct InMemoryGitConfigFiles: GitConfigFiles, Sendable {
    /// Each file's text by absolute path; a path of `unreadable` is a folder, a FIFO or such.
    public var files: [String: String]
    public var unreadable: Set<String>
    /// Home folders by user name.
    public var homes: [String: String]

    public init(_ files: [String: String], unreadable: Set<String> = [], homes: [String: String] = [:]) {
        self.files = files
        self.unreadable = unreadable
        self.homes = homes
    }

    public func file(_ path: String) -> GitConfigReader.File {
        let path = Self.plain(path)
        if unreadable.contains(path) { return .unreadable("is not a regular file") }
        return files[path].map { .contents(Array($0.utf8)) } ?? .missing
    }

    public func realPath(_ path: String) -> String? {
        let path = Self.plain(path)
        return files[path] != nil || unreadable.contains(path) || files.keys.contains { $0.hasPrefix(path + "/") } ? path : nil
    }

    /// `path` without `.`, `..` and empty components.
    static func plain(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    public func home(ofUser name: String) -> String? { homes[name] }
}
