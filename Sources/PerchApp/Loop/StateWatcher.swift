import Glibc
import PerchStore

/// Tells the event loop when the state file was replaced or changed by another process, with
/// inotify(7) on its folder (the file itself is replaced by rename(2), so a watch on it would
/// be lost at the first save). The descriptor goes into the loop's poll(2): no polling, no timer.
public final class StateWatcher {
    /// The inotify descriptor (non-blocking, close-on-exec).
    public let descriptor: Int32
    private let fileName: String
    private let folder: String
    private var watch: Int32 = -1
    /// Changes to the folder's entries, and the folder itself going away or being moved.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches the folder of `path` (its target when it is a symbolic link), creating the
    /// folder (mode 0700) when it is missing; nil when inotify is not available.
    public init?(watching path: String) {
        let target = FileSystem.resolvingSymbolicLink(path)
        let folder = FileSystem.directory(of: target)
        try? FileSystem.createDirectory(folder)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let watch = inotify_add_watch(fd, folder, Self.mask)
        guard watch >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.folder = folder
        self.watch = watch
        fileName = target.split(separator: "/").last.map(String.init) ?? target
    }

    /// Watches the folder again after it was removed or moved away (it is created anew, as the
    /// next save would), so that later switches are still seen.
    private func rewatch() {
        if watch >= 0 { inotify_rm_watch(descriptor, watch) }
        try? FileSystem.createDirectory(folder)
        watch = inotify_add_watch(descriptor, folder, Self.mask)
    }

    deinit { close(descriptor) }

    /// Reads the pending events; returns whether any was about the state file (or its folder,
    /// which is then watched anew).
    public func drain() -> Bool {
        var touched = false
        var lost = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                if lost { rewatch() }
                return touched || lost
            }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            let lengthOffset = MemoryLayout<inotify_event>.offset(of: \inotify_event.len)!
            let maskOffset = MemoryLayout<inotify_event>.offset(of: \inotify_event.mask)!
            let watchOffset = MemoryLayout<inotify_event>.offset(of: \inotify_event.wd)!
            while offset + headerSize <= n {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self)) }
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + maskOffset, as: UInt32.self) }
                let wd = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + watchOffset, as: Int32.self) }
                // Only the current watch counts: removing an old one reports IN_IGNORED for it too.
                if wd == watch, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { lost = true }
                let nameBytes = buffer[(offset + headerSize)..<min(n, offset + headerSize + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == fileName { touched = true }
                offset += headerSize + length
            }
        }
    }
}
