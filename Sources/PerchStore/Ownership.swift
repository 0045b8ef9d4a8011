#if canImport(Glibc)
    import Glibc
#endif

/// Who owns the files Perch would create, so that root running in another user's home
/// (`sudo -E perch switch work`) never leaves that user locked out of their own Perch files
/// (opentap #637), and so that a lock-out that already happened is explained with its fix.
public enum Ownership {
    /// The refusal to give before anything is created, or nil when Perch may go on.
    ///
    /// Only the effective user root (`effectiveUser` 0) is refused: when `home` (the `HOME`
    /// folder) belongs to another user, and when the nearest existing folder of `paths`'
    /// config or state file does. Root's own home, a missing `HOME` and folders of root's own
    /// are fine. Ownership is read with stat(2) and follows symbolic links.
    /// - Returns: a one-line message naming the owner and what to run instead.
    public static func refusal(paths: PerchPaths, home: String?, effectiveUser: uid_t = geteuid()) -> String? {
        guard effectiveUser == 0 else { return nil }
        if let home, !home.isEmpty, let owner = owner(of: home), owner != 0 {
            let user = userName(owner)
            return "HOME belongs to \(user); run perch as \(user), or use sudo without -E"
        }
        for file in [paths.config, paths.state] {
            guard let (folder, owner) = nearestExisting(FileSystem.directory(of: file)), owner != 0 else { continue }
            let user = userName(owner)
            return "\(folder) belongs to \(user); run perch as \(user), or give root its own --config and --state"
        }
        return nil
    }

    /// What to add to a "Permission denied" about `path`: who owns it (or its nearest existing
    /// folder), and, when that is inside `home` and not `user`'s, the `chown` that gives it back
    /// (for the highest folder with the same owner, so everything created with it is covered).
    /// nil when `path` and its folders belong to `user` (the cause is then a mode, not an owner).
    public static func lockOutHint(for path: String, user: uid_t = geteuid(), home: String? = PerchPaths.environment("HOME"))
        -> String?
    {
        guard let (found, owner) = nearestExisting(path), owner != user else { return nil }
        var top = found
        var home = home ?? ""
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        guard !home.isEmpty, home != "/", top.hasPrefix(home + "/") else { return "owned by \(userName(owner))" }
        while case let parent = FileSystem.directory(of: top), parent.hasPrefix(home + "/"), Self.owner(of: parent) == owner {
            top = parent
        }
        return "owned by \(userName(owner)); run: sudo chown -R \(userName(user)) \(ConfigLoader.shellQuoted(top))"
    }

    /// The owner's user id of `path` (stat(2), following links), or nil when it cannot be read.
    static func owner(of path: String) -> uid_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_uid : nil
    }

    /// `path` itself or its nearest folder that exists, with its owner.
    static func nearestExisting(_ path: String) -> (path: String, owner: uid_t)? {
        var current = path
        while true {
            if let owner = owner(of: current) { return (current, owner) }
            let parent = FileSystem.directory(of: current)
            if parent == current { return nil }
            current = parent
        }
    }

    /// The login name of `uid` from the password database, or the number when it has none.
    public static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }
}
