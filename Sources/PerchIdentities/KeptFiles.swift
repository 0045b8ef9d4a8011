import Glibc
import PerchStore

/// The files a kept answer was read from, kept with it as `[PATH, DEVICE, INODE, SIZE, MTIME,
/// CTIME]` rows (times in nanoseconds; a file that did not exist as `[PATH]`), and the check that
/// each is as it was. Shared by ``SessionExpiryCache`` and ``AnswerCache``.
enum KeptFiles {
    /// Device, inode, size, modification and status-change times (ns) of `path`, a regular file
    /// or a folder; nil when it does not exist (or is something else).
    static func identity(_ path: String) -> [Int64]? {
        guard let status = FileStatus.of(path), status.kind != .other else { return nil }
        return [Int64(bitPattern: status.device), Int64(bitPattern: status.inode), status.size, status.modified, status.changed]
    }

    /// The JSON array of `files` and their identities now; nil when one of them changed within
    /// ``CurrentAccountCache/racyWindowNanoseconds`` of `now` (a change within the same clock
    /// tick could leave its identity as it was, so nothing is kept).
    static func json(_ files: [String], now: Int64) -> String? {
        var rows: [String] = []
        for file in files {
            let numbers = identity(file)
            if let numbers, now - max(numbers[3], numbers[4]) < CurrentAccountCache.racyWindowNanoseconds { return nil }
            rows.append("[" + ([ConfigWriter.json(file)] + (numbers ?? []).map(String.init)).joined(separator: ", ") + "]")
        }
        return "[" + rows.joined(separator: ",\n  ") + "]"
    }

    /// The paths of the kept array `files` of `document` when each file is as it was kept; nil
    /// when one changed, appeared, went, or the array is not as ``json(_:now:)`` writes it.
    static func unchanged(_ files: JSONDocument.Index, in document: JSONDocument) -> [String]? {
        guard document.kind(files) == .array else { return nil }
        var paths: [String] = []
        for file in document.elements(files) {
            let parts = document.elements(file)
            guard let path = parts.first.flatMap(document.string) else { return nil }
            let numbers = parts.dropFirst().compactMap { document.numberText($0).flatMap { Int64($0) } }
            guard numbers.count == parts.count - 1, (numbers.isEmpty ? nil : numbers) == identity(path) else { return nil }
            paths.append(path)
        }
        return paths
    }
}
