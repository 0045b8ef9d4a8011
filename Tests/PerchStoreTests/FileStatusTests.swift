import Foundation
import Glibc
import PerchStore
import Testing

/// `FileStatus` is the one place that reads stat(2)'s fields and `FileSystem.executablePath()` the
/// one place that reads this program's path (docs/porting.md): both against what the system says.
@Suite("File status and the program's path")
struct FileStatusTests {
    @Test("A file's modification time is read to the nanosecond, with its size, kind and identity")
    func modificationTime() throws {
        try withTemporaryFolder { folder in
            let file = folder + "/config.json"
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: file))
            // 2026-12-07 00:00:00.123456789 UTC, set by utimensat(2).
            var times = [timespec(tv_sec: 1_796_601_600, tv_nsec: 123_456_789), timespec(tv_sec: 1_796_601_600, tv_nsec: 123_456_789)]
            #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
            let status = try #require(FileStatus.of(file))
            #expect(status.kind == .regular)
            #expect(status.size == 3)
            #expect(status.modified == 1_796_601_600_123_456_789)
            #expect(status.modifiedSeconds == 1_796_601_600)
            var info = stat()
            #expect(stat(file, &info) == 0)
            #expect(status.inode == UInt64(info.st_ino) && status.device == UInt64(info.st_dev))
            #expect(FileSystem.identity(of: file)?.modified == status.modified)
        }
    }

    @Test("A folder, a named pipe and a missing path are told apart; a symbolic link is followed")
    func kinds() throws {
        try withTemporaryFolder { folder in
            #expect(FileStatus.of(folder)?.kind == .directory)
            #expect(mkfifo(folder + "/pipe", 0o600) == 0)
            #expect(FileStatus.of(folder + "/pipe")?.kind == .other)
            #expect(FileStatus.of(folder + "/missing") == nil)
            #expect(symlink(folder, folder + "/link") == 0)
            #expect(FileStatus.of(folder + "/link")?.kind == .directory)
        }
    }

    @Test("This program's path is the running test binary, absolute and with links resolved")
    func executablePath() throws {
        let path = try #require(FileSystem.executablePath())
        #expect(path.hasPrefix("/"))
        #expect(FileStatus.of(path)?.kind == .regular)
        let resolved = try #require(realpath(CommandLine.arguments[0], nil))
        defer { free(resolved) }
        #expect(path == String(cString: resolved))
    }
}
