import Glibc
import PerchDomain
import PerchStore

/// The files ``GitConfigReader`` reads for a repository's config: a repository is data
/// (docs/security.md), so each is opened without blocking (a FIFO is never waited on), read
/// only when it is a regular file of at most 1 MiB (``FileSystem/read(_:limit:)``).
public struct RepositoryFiles: GitConfigFiles {
    /// The largest file read, in bytes.
    public static let limit = 1 << 20

    public init() {}

    public func file(_ path: String) -> GitConfigReader.File {
        do {
            return .contents(try FileSystem.read(path, limit: Self.limit))
        } catch {
            // What git's access(2) check skips; anything else stops git (or makes it wait).
            if error.code == ENOENT || error.code == ENOTDIR { return .missing }
            return .unreadable(error.reason ?? String(cString: strerror(error.code)))
        }
    }

    public func realPath(_ path: String) -> String? { PlaceOwner.realPath(path) }

    public func home(ofUser name: String) -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil, let folder = entry.pw_dir else { return nil }
        return String(cString: folder)
    }
}
