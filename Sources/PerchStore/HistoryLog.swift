import FoundationEssentials
import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// The switch history: a JSON Lines file beside the state file (`state.json` →
/// `state.history.jsonl`), one ``SwitchRecord`` per line, oldest first:
/// `{"account":"oss","previous":"work","source":"cli","time":"2026-11-30T08:31:00Z"}`.
///
/// A switch appends one line instead of rewriting every entry, so saving costs the same with
/// 10,000 entries as with none. The line is appended (and fsynced) after the state file is
/// replaced, under the same lock: a process killed in between loses that one entry, never
/// adds one for a switch that was not saved. A last line without its newline (a torn write) is
/// ignored by readers and cut by the next writer. Readers see the newest
/// ``SavedState/historyLimit`` entries; the file is compacted to that many (atomically) once it
/// holds ``slack`` more.
public struct HistoryLog: Sendable {
    /// Path of the log.
    public let path: String
    /// Entries beyond ``SavedState/historyLimit`` allowed in the file before it is compacted.
    public static let slack = 1_000
    /// Most bytes read from the end of the log: 10,000 lines of up to 1.6 KiB each.
    static let tailBytes = 16 << 20

    /// The log of the state file at `statePath` (its `.json` suffix replaced by `.history.jsonl`).
    public init(statePath: String) {
        let base = statePath.hasSuffix(".json") ? String(statePath.dropLast(5)) : statePath
        path = base + ".history.jsonl"
    }

    /// Appends `record` (callers hold the state lock), first cutting a torn last line, and
    /// compacts the file when it holds too many entries.
    /// - Throws: ``FileError`` when the log cannot be opened or written.
    public func append(_ record: SwitchRecord) throws(FileError) {
        try FileSystem.createDirectory(FileSystem.directory(of: path))
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, code: errno, operation: "open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, code: errno, operation: "read") }
        let end = try completeEnd(fd, size: Int(info.st_size))
        if end < Int(info.st_size), ftruncate(fd, off_t(end)) != 0 { throw FileError(path: path, code: errno, operation: "repair") }
        guard var line = try? Self.encoder().encode(record) else { return }
        line.append(0x0A)
        var written = 0
        while written < line.count {
            let n = line.withUnsafeBytes { pwrite(fd, $0.baseAddress! + written, line.count - written, off_t(end + written)) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                _ = ftruncate(fd, off_t(end))
                throw FileError(path: path, code: code, operation: "write")
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw FileError(path: path, code: errno, operation: "fsync") }
        // Lines are about 80 bytes and never under 32: count them only when there may be too many.
        // The entry is written: a compaction that fails is tried again at the next switch.
        if end + line.count > (SavedState.historyLimit + Self.slack) * 32,
            (try? newlines(fd)) ?? 0 > SavedState.historyLimit + Self.slack
        {
            try? compact()
        }
    }

    /// The newest `limit` entries (at most ``SavedState/historyLimit``), oldest first. Lines
    /// that cannot be parsed and a torn last line are skipped. No file: none.
    /// - Throws: ``FileError`` when the log exists but cannot be read.
    public func read(limit: Int = SavedState.historyLimit) throws(FileError) -> [SwitchRecord] {
        let bytes: [UInt8]
        do {
            bytes = try tail()
        } catch {
            if error.isNotFound { return [] }
            throw error
        }
        var records: [SwitchRecord] = []
        let decoder = JSONDecoder()
        // Newest first, from the end, so that a small limit decodes only what it shows.
        var end = Self.completeEnd(of: bytes[...])
        while end > 0, records.count < min(limit, SavedState.historyLimit) {
            let start = bytes[..<(end - 1)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            if let record = try? decoder.decode(SwitchRecord.self, from: Data(bytes[start..<(end - 1)])) {
                records.append(record)
            }
            end = start
        }
        return records.reversed()
    }

    /// The offset just past the last newline of `bytes` (0 when there is none).
    private static func completeEnd(of bytes: ArraySlice<UInt8>) -> Int {
        guard let last = bytes.last else { return bytes.startIndex }
        if last == 0x0A { return bytes.endIndex }
        return bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
    }

    /// The last ``tailBytes`` of the log, starting at a line: the whole log when it is smaller.
    private func tail() throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(path: path, code: errno, operation: "open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, code: errno, operation: "read") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(path: path, code: EINVAL, operation: "read", reason: "is not a regular file")
        }
        let size = Int(info.st_size)
        let start = max(0, size - Self.tailBytes)
        var bytes = [UInt8](repeating: 0, count: size - start)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FileError(path: path, code: n < 0 ? errno : EIO, operation: "read") }
            done += n
        }
        if start > 0, let newline = bytes.firstIndex(of: 0x0A) { bytes.removeFirst(newline + 1) }  // a cut first line
        return bytes
    }

    /// The number of newlines in the file (memchr(3) over 64 KiB reads, nothing kept).
    private func newlines(_ fd: Int32) throws(FileError) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var offset = 0
        var count = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FileError(path: path, code: errno, operation: "read") }
            if n == 0 { return count }
            buffer.withUnsafeBytes { bytes in
                var cursor = bytes.baseAddress!
                let end = cursor + n
                while let found = memchr(cursor, 0x0A, end - cursor) {
                    count += 1
                    cursor = UnsafeRawPointer(found) + 1
                }
            }
            offset += n
        }
    }

    /// The offset just past the file's last newline, found by reading back from the end.
    private func completeEnd(_ fd: Int32, size: Int) throws(FileError) -> Int {
        var end = size
        var buffer = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let chunk = min(end, buffer.count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, chunk, off_t(end - chunk)) }
            guard n == chunk else { throw FileError(path: path, code: n < 0 ? errno : EIO, operation: "read") }
            if let newline = buffer[..<chunk].lastIndex(of: 0x0A) { return end - chunk + newline + 1 }
            end -= chunk
        }
        return 0
    }

    /// Rewrites the log (atomically) with its newest ``SavedState/historyLimit`` lines, read from
    /// its last ``tailBytes``. Lines that cannot be parsed are dropped, after a copy of what was
    /// read is kept as `state.history.jsonl.corrupt-<UTC time>`.
    private func compact() throws(FileError) {
        let bytes = try tail()
        let decoder = JSONDecoder()
        var lines = bytes[..<Self.completeEnd(of: bytes[...])].split(separator: 0x0A)
        let valid = lines.filter { (try? decoder.decode(SwitchRecord.self, from: Data($0))) != nil }
        if valid.count < lines.count {
            let stamp = String(Date.now.ISO8601Format().filter { $0 != ":" })
            try FileSystem.writeAtomically(bytes, to: "\(path).corrupt-\(stamp)")
        }
        lines = Array(valid.suffix(SavedState.historyLimit))
        try FileSystem.writeAtomically(Array(lines.joined(separator: [0x0A])) + [0x0A], to: path)
    }

    /// Replaces the whole log with `records`, oldest first (callers hold the state lock),
    /// atomically: a rename of an account rewrites the entries that name it.
    /// - Throws: ``FileError`` when the log cannot be written; it is then as it was.
    public func replace(with records: [SwitchRecord]) throws(FileError) {
        let encoder = Self.encoder()
        var bytes: [UInt8] = []
        for record in records {
            guard let line = try? encoder.encode(record) else { continue }
            bytes += line
            bytes.append(0x0A)
        }
        try FileSystem.writeAtomically(bytes, to: path)
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
