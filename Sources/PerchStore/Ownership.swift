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

    /// The refusal to give when the folder of `paths`' state file or config file (or, when it
    /// does not exist yet, its nearest existing folder) can be written by someone else: by
    /// others (`o+w`, sticky or not, as `/tmp`), by a group that is not `user`'s own, or when it
    /// belongs to another user than `user` or root. Another user could plant links or files at
    /// the names Perch writes and reads beside its state (docs/security.md, "Files Perch writes
    /// are its own"). nil when both folders are the user's alone.
    /// - Returns: a one-line message naming the folder, its mode and what to do instead.
    // Bug (trust issue): --state in a shared sticky folder followed another user's links planted
    // at the names Perch writes beside it, and overwrote their targets.
    public static func sharedFolderRefusal(paths: PerchPaths, user: uid_t = getuid(), group: gid_t = getgid()) -> String? {
        for (option, file) in [("--state", paths.state), ("--config", paths.config)] {
            guard let folder = nearestExistingFolder(FileSystem.directory(of: file)) else { continue }
            var info = stat()
            guard stat(folder, &info) == 0 else { continue }
            let mode = info.st_mode & 0o7777
            let shared =
                mode & S_IWOTH != 0 || (mode & S_IWGRP != 0 && info.st_gid != group) || (info.st_uid != user && info.st_uid != 0)
            guard shared else { continue }
            let who =
                info.st_uid != user && info.st_uid != 0
                ? "belongs to \(userName(info.st_uid))" : "can be written by others (mode \(String(mode, radix: 8)))"
            let option =
                (option == "--state" ? paths.stateIsExplicit : paths.configIsExplicit)
                ? option : option == "--state" ? "XDG_STATE_HOME" : "XDG_CONFIG_HOME"
            return
                "\(option): \(folder) \(who); Perch keeps its files only in folders you alone can write: choose one in your home (or chmod go-w \(ConfigLoader.shellQuoted(folder)))"
        }
        return nil
    }

    /// `path` itself or its nearest folder that exists (stat(2), following links).
    static func nearestExistingFolder(_ path: String) -> String? { nearestExisting(path)?.path }

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
