import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A file-system failure with the path and the system's reason (from `errno`).
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// The `errno` value, e.g. `ENOENT`.
    public var code: Int32
    public var operation: String
    /// A reason to show instead of the system's text for `code`.
    public var reason: String?

    public init(path: String, code: Int32, operation: String, reason: String? = nil) {
        self.path = path
        self.code = code
        self.operation = operation
        self.reason = reason
    }

    /// `path: cannot OPERATION: reason`. A permission failure names the owner and, inside the
    /// home folder, the `chown` to run (``Ownership/lockOutHint(for:user:home:)``).
    public var description: String {
        let text = "\(path): " + (reason ?? "cannot \(operation): \(String(cString: strerror(code)))")
        guard reason == nil, code == EACCES || code == EPERM, let hint = Ownership.lockOutHint(for: path) else { return text }
        return text + " (\(hint))"
    }

    /// Whether the failure was that the file does not exist.
    public var isNotFound: Bool { code == ENOENT }
}

/// A file's bytes with the permission bits and owner it had when read (from the same open file).
public struct FileContents: Sendable {
    public var bytes: [UInt8]
    /// Permission bits (`st_mode & 0o7777`).
    public var mode: UInt32
    /// Owner's user id.
    public var owner: UInt32
}

/// Reading, writing atomically and locking files: the only place in Perch that does file I/O.
public enum FileSystem {
    /// The whole content of the regular file at `path`, at most `limit` bytes.
    /// - Throws: ``FileError`` when it cannot be opened or read (no permission, …), is not a
    ///   regular file (a directory, FIFO or device: `EISDIR`/`EINVAL`), or is larger than
    ///   `limit` (`EFBIG`).
    public static func read(_ path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8] {
        try readContents(path, limit: limit).bytes
    }

    /// As ``read(_:limit:)``, with the file's permission bits and owner.
    /// - Throws: ``FileError``, as ``read(_:limit:)``.
    public static func readContents(_ path: String, limit: Int = 16 << 20) throws(FileError) -> FileContents {
        // O_NONBLOCK so that opening a FIFO cannot hang; cleared below for regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(path: path, code: errno, operation: "open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, code: errno, operation: "read") }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            let reason = type == S_IFDIR ? "is a folder, not a file" : "is not a regular file"
            throw FileError(path: path, code: type == S_IFDIR ? EISDIR : EINVAL, operation: "read", reason: reason)
        }
        let tooLarge = FileError(path: path, code: EFBIG, operation: "read", reason: "is larger than \(limit >> 20) MiB")
        guard Int(info.st_size) <= limit else { throw tooLarge }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // The size fstat gave is read straight into the result (copying it from a chunk cost a
        // tenth of loading a config); a file that grew since is read on in chunks.
        let size = Int(info.st_size)
        var failure: Int32?
        var result = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                count += n
            }
        }
        if let failure { throw FileError(path: path, code: failure, operation: "read") }
        var chunk = [UInt8](repeating: 0, count: result.count < size ? 0 : 65536)
        while result.count >= size {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, code: errno, operation: "read")
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit { throw tooLarge }
        }
        return FileContents(bytes: result, mode: UInt32(info.st_mode & 0o7777), owner: UInt32(info.st_uid))
    }

    /// Creates `directory` and its parents (mode 0700 for new ones) if missing.
    /// - Throws: ``FileError`` when a component cannot be created.
    public static func createDirectory(_ directory: String) throws(FileError) {
        var built = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0, errno != EEXIST {
                throw FileError(path: built, code: errno, operation: "create the folder")
            }
        }
    }

    /// The folder part of `path` (`.` when it has none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Replaces the file at `path` with `bytes` so that a crash at any moment leaves either the
    /// old or the new content, complete: write a temporary file in the same folder, fsync it,
    /// rename it over `path`, fsync the folder (rename(2), fsync(2)).
    /// - Parameter mode: permission bits of a new file; a file that exists keeps its own.
    /// - Throws: ``FileError``; the old file is then untouched and the temporary file removed.
    /// A symbolic link at `path` is followed: its target is replaced and the link kept.
    public static func writeAtomically(_ bytes: [UInt8], to requestedPath: String, mode: mode_t = 0o600) throws(FileError) {
        let path = resolvingSymbolicLink(requestedPath)
        let folder = directory(of: path)
        try createDirectory(folder)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileError(path: folder, code: errno, operation: "create a temporary file in it") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: FileError?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno != EINTR { failure = FileError(path: temporary, code: errno, operation: "write") }
            } else {
                offset += n
            }
        }
        var existing = stat()
        let finalMode = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : mode
        if failure == nil, fchmod(fd, finalMode) != 0 { failure = FileError(path: temporary, code: errno, operation: "set permissions on") }
        if failure == nil, fsync(fd) != 0 { failure = FileError(path: temporary, code: errno, operation: "fsync") }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = FileError(path: path, code: errno, operation: "replace") }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Removes temporary files that ``writeAtomically(_:to:mode:)`` left beside `path` when its
    /// process was killed mid-write (`.NAME.tmp-XXXXXX`). Only safe while holding the lock that
    /// every writer of `path` takes, so that no live write's file is removed.
    public static func removeStaleTemporaryFiles(of requestedPath: String) {
        let path = resolvingSymbolicLink(requestedPath)
        let folder = directory(of: path)
        let prefix = "." + (path.split(separator: "/").last.map(String.init) ?? path) + ".tmp-"
        for name in names(in: folder) where name.hasPrefix(prefix) { unlink(folder + "/" + name) }
    }

    /// The names in `folder` (readdir(3)), without `.` and `..`, in the order the folder gives
    /// them; empty when it cannot be read.
    public static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `path` with symbolic links at its end followed (readlink(2), up to 16 levels, targets
    /// that do not exist yet included); `path` itself when it is not a link.
    public static func resolvingSymbolicLink(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        return current
    }

    /// Runs `body` while holding an exclusive advisory lock (flock(2)) on `lockPath`, created if
    /// missing. Other Perch processes wait for it, so read-modify-write cycles never interleave.
    /// A lock still held by someone else after `timeoutMilliseconds` is an error, so a stuck
    /// holder cannot freeze the interface.
    /// - Parameters:
    ///   - timeoutMilliseconds: how long to wait for another holder, in milliseconds.
    ///   - shouldWait: called before each step of waiting for another holder, with the
    ///     milliseconds waited so far (0 the first time: the interface then shows that the switch
    ///     waits); returning false gives up at once.
    /// - Throws: ``FileError`` when the lock file cannot be opened or locked in time (or waiting
    ///   was given up), or what `body` throws.
    public static func withExclusiveLock<T>(
        _ lockPath: String, timeoutMilliseconds: Int = 2000, shouldWait: (Int) -> Bool = { _ in true }, _ body: () throws -> T
    ) throws -> T {
        try createDirectory(directory(of: lockPath))
        let fd = try openLocked(lockPath, timeoutMilliseconds: timeoutMilliseconds, shouldWait: shouldWait)
        defer {
            flock(fd, LOCK_UN)
            close(fd)
        }
        return try body()
    }

    /// Opens `path` (created if missing, mode 0600, close-on-exec) and takes an exclusive
    /// advisory lock (flock(2)) on it, waiting at most `timeoutMilliseconds` for other holders.
    /// The lock belongs to the open file: it lasts until this descriptor and every copy of it
    /// (in children it was handed to, see ``ProcessSpawn``) are closed, or until one of them
    /// unlocks it. The caller closes the descriptor.
    /// - Parameter shouldWait: as for ``withExclusiveLock(_:timeoutMilliseconds:shouldWait:_:)``.
    /// - Returns: the descriptor holding the lock.
    /// - Throws: ``FileError`` when the file cannot be opened, or is still locked at the timeout
    ///   (`EWOULDBLOCK`, "is locked by another process").
    public static func openLocked(_ path: String, timeoutMilliseconds: Int, shouldWait: (Int) -> Bool = { _ in true }) throws(FileError)
        -> Int32
    {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, code: errno, operation: "open the lock file") }
        var waited = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR, waited < timeoutMilliseconds, shouldWait(waited) else {
                close(fd)
                guard code == EWOULDBLOCK || code == EINTR else { throw FileError(path: path, code: code, operation: "lock") }
                throw FileError(
                    path: path, code: EWOULDBLOCK, operation: "lock",
                    reason: "is locked by another process (waited \(timeoutMilliseconds) ms)")
            }
            usleep(10_000)  // a bounded wait for another holder, not an idle poll
            waited += 10
        }
        return fd
    }

    /// The identity of the file at `path` (followed through symbolic links), or nil when it
    /// cannot be read with stat(2).
    public static func identity(of path: String) -> FileIdentity? {
        guard let status = FileStatus.of(path) else { return nil }
        return FileIdentity(device: status.device, inode: status.inode, size: status.size, modified: status.modified)
    }

    /// This program's own executable, as an absolute path with symbolic links resolved, or nil
    /// when it cannot be read. On Linux the kernel's `/proc/self/exe`; the one place that reads
    /// it (docs/porting.md: macOS would ask `_NSGetExecutablePath`, then `realpath`).
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What stat(2) says of a file (symbolic links followed): the one place that reads its fields,
/// whose names differ between systems (Linux's `st_mtim` is macOS's `st_mtimespec`;
/// docs/porting.md). Times are nanoseconds since the epoch.
public struct FileStatus: Hashable, Sendable {
    /// What the file is.
    public enum Kind: Hashable, Sendable {
        /// A regular file.
        case regular
        /// A folder.
        case directory
        /// Anything else: a named pipe, a socket, a device.
        case other
    }

    /// What the file is (`st_mode`'s type bits).
    public var kind: Kind
    /// The device that holds it (`st_dev`).
    public var device: UInt64
    /// Its inode number on that device (`st_ino`): with ``device``, which file it is.
    public var inode: UInt64
    /// Size in bytes.
    public var size: Int64
    /// Modification time, in nanoseconds since the epoch.
    public var modified: Int64
    /// Status-change time, in nanoseconds since the epoch (not settable by `touch`).
    public var changed: Int64

    /// The status of the file at `path`, or nil when stat(2) fails (it does not exist, or a
    /// folder on its path cannot be searched).
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        return FileStatus(
            kind: type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other,
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// The modification time in whole seconds since the epoch.
    public var modifiedSeconds: Int64 { modified / 1_000_000_000 }
}

/// What tells one version of a file from another without reading it: device, inode, size and
/// modification time (nanoseconds). An atomic replace gives a new inode, so a file that Perch
/// wrote itself is recognised by the identity it had right after the rename.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    /// Size in bytes.
    public var size: Int64
    /// Modification time, in nanoseconds since the epoch.
    public var modified: Int64
}
