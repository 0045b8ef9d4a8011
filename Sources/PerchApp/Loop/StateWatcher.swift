import Glibc
import PerchStore

/// Tells the event loop when the state file was replaced or changed by another process, with
/// inotify(7) on its folder (the file itself is replaced by rename(2), so a watch on it would
/// be lost at the first save). The descriptor goes into the loop's poll(2): no polling, no timer.
public final class StateWatcher {
    /// The inotify descriptor (non-blocking, close-on-exec).
    public let descriptor: Int32
    /// Each file watched: its folder, its name and the folder's watch.
    private var watched: [(folder: String, fileName: String, watch: Int32)] = []
    /// Changes to the folder's entries, and the folder itself going away or being moved.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches the folder of `path` (its target when it is a symbolic link), creating the
    /// folder (mode 0700) when it is missing; nil when inotify is not available.
    public convenience init?(watching path: String) {
        self.init(watching: [path])
    }

    /// Watches the folders of `paths` (the config, and the registries' index beside the state:
    /// either one changed is the accounts changed), as ``init(watching:)-(String)`` watches one.
    public init?(watching paths: [String]) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = fd
        for path in paths {
            let target = FileSystem.resolvingSymbolicLink(path)
            let folder = FileSystem.directory(of: target)
            try? FileSystem.createDirectory(folder)
            let watch = inotify_add_watch(fd, folder, Self.mask)
            guard watch >= 0 else {
                close(fd)
                return nil
            }
            watched.append((folder, target.split(separator: "/").last.map(String.init) ?? target, watch))
        }
    }

    /// Watches the folders again after one was removed or moved away (it is created anew, as
    /// the next save would), so that later switches are still seen.
    private func rewatch() {
        for index in watched.indices {
            inotify_rm_watch(descriptor, watched[index].watch)
            try? FileSystem.createDirectory(watched[index].folder)
            watched[index].watch = inotify_add_watch(descriptor, watched[index].folder, Self.mask)
        }
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
                // Only the current watches count: removing an old one reports IN_IGNORED for it too.
                let current = watched.filter { $0.watch == wd }
                if !current.isEmpty, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { lost = true }
                let nameBytes = buffer[(offset + headerSize)..<min(n, offset + headerSize + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if current.contains(where: { $0.fileName == name }) { touched = true }
                offset += headerSize + length
            }
        }
    }
}
